/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  What differs between the PostgreSQL majors pg_partmgr builds against
 *	  (15 to 18), said once: the rest of the code calls these names and has
 *	  no version test of its own.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/compat.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_COMPAT_H
#define PARTMGR_COMPAT_H

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_class.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_statistic_ext.h"
#include "catalog/pg_tablespace.h"
#include "common/relpath.h"
#include "miscadmin.h"
#include "storage/lock.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "utils/acl.h"
#include "utils/syscache.h"

/*
 * partmgr_schema_aclcheck
 *		Whether role has privilege mode (ACL_USAGE, ACL_CREATE) on schema
 *		nspid.  16 replaced pg_namespace_aclcheck by object_aclcheck.
 */
#if PG_VERSION_NUM >= 160000
#define partmgr_schema_aclcheck(nspid, role, mode) \
	object_aclcheck(NamespaceRelationId, (nspid), (role), (mode))
#else
#define partmgr_schema_aclcheck(nspid, role, mode) \
	pg_namespace_aclcheck((nspid), (role), (mode))
#endif


/*
 * partmgr_tablespace_aclcheck
 *		Whether role has privilege mode (ACL_CREATE) on tablespace spcid.
 *		16 replaced pg_tablespace_aclcheck by object_aclcheck.
 */
#if PG_VERSION_NUM >= 160000
#define partmgr_tablespace_aclcheck(spcid, role, mode) \
	object_aclcheck(TableSpaceRelationId, (spcid), (role), (mode))
#else
#define partmgr_tablespace_aclcheck(spcid, role, mode) \
	pg_tablespace_aclcheck((spcid), (role), (mode))
#endif

/*
 * partmgr_table_ownercheck
 *		Whether role has the rights of the owner of table relid.  16
 *		replaced pg_class_ownercheck by object_ownercheck.
 */
#if PG_VERSION_NUM >= 160000
#define partmgr_table_ownercheck(relid, role) \
	object_ownercheck(RelationRelationId, (relid), (role))
#else
#define partmgr_table_ownercheck(relid, role) \
	pg_class_ownercheck((relid), (role))
#endif

/*
 * partmgr_qualified_name_list
 *		A possibly qualified name as a list of String nodes; errors on a bad
 *		name.  16 added an escontext argument.
 */
#if PG_VERSION_NUM >= 160000
#define partmgr_qualified_name_list(name) \
	stringToQualifiedNameList((name), NULL)
#else
#define partmgr_qualified_name_list(name) \
	stringToQualifiedNameList(name)
#endif

/*
 * partmgr_attribute_stattarget
 *		The statistics target of a column (-1: the default), from its
 *		pg_attribute tuple (of the ATTNUM syscache).  17 made it a nullable
 *		column outside the fixed part.
 */
static inline int
partmgr_attribute_stattarget(HeapTuple tuple)
{
#if PG_VERSION_NUM >= 170000
	bool		isnull;
	Datum		target = SysCacheGetAttr(ATTNUM, tuple,
										 Anum_pg_attribute_attstattarget,
										 &isnull);

	return isnull ? -1 : DatumGetInt16(target);
#else
	return ((Form_pg_attribute) GETSTRUCT(tuple))->attstattarget;
#endif
}

/*
 * partmgr_statistics_stattarget
 *		The statistics target of an extended statistics object (-1: the
 *		default), from its pg_statistic_ext tuple read through desc.  17 made
 *		it nullable.
 */
static inline int
partmgr_statistics_stattarget(HeapTuple tuple, TupleDesc desc)
{
#if PG_VERSION_NUM >= 170000
	bool		isnull;
	Datum		target = heap_getattr(tuple,
									  Anum_pg_statistic_ext_stxstattarget,
									  desc, &isnull);

	return isnull ? -1 : DatumGetInt16(target);
#else
	(void) desc;
	return ((Form_pg_statistic_ext) GETSTRUCT(tuple))->stxstattarget;
#endif
}

/*
 * partmgr_lock_held_by_me
 *		Whether this transaction holds the lock of tag at mode or a stronger
 *		one.  17 gave LockHeldByMe its orstronger argument.
 */
static inline bool
partmgr_lock_held_by_me(const LOCKTAG *tag, LOCKMODE mode)
{
#if PG_VERSION_NUM >= 170000
	return LockHeldByMe(tag, mode, true);
#else
	for (LOCKMODE m = mode; m <= AccessExclusiveLock; m++)
	{
		if (LockHeldByMe(tag, m))
			return true;
	}
	return false;
#endif
}

/*
 * partmgr_vxid_proc
 *		The PGPROC of a virtual transaction id's backend, or NULL.  17
 *		renamed backend ids to proc numbers.
 */
#if PG_VERSION_NUM >= 170000
#define partmgr_vxid_proc(vxid) ProcNumberGetProc((vxid).procNumber)
#else
#define partmgr_vxid_proc(vxid) BackendIdGetProc((vxid).backendId)
#endif

/*
 * partmgr_my_lxid
 *		This backend's local transaction id.  17 moved it into MyProc->vxid.
 */
#if PG_VERSION_NUM >= 170000
#define partmgr_my_lxid() (MyProc->vxid.lxid)
#else
#define partmgr_my_lxid() (MyProc->lxid)
#endif

/*
 * PartmgrRelFile, partmgr_rel_file
 *		Which file a permanent relation of this database is in, by
 *		tablespace (InvalidOid: the database's) and file number, for
 *		relpathperm() and smgropen() (with PARTMGR_NO_BACKEND: not a
 *		temporary relation).  16 renamed RelFileNode to RelFileLocator and
 *		its fields; 17 renamed backend ids to proc numbers.
 */
#if PG_VERSION_NUM >= 160000
typedef RelFileLocator PartmgrRelFile;
#else
typedef RelFileNode PartmgrRelFile;
#endif

#if PG_VERSION_NUM >= 170000
#define PARTMGR_NO_BACKEND INVALID_PROC_NUMBER
#else
#define PARTMGR_NO_BACKEND InvalidBackendId
#endif

static inline PartmgrRelFile
partmgr_rel_file(Oid tablespace, Oid filenode)
{
	PartmgrRelFile node;

#if PG_VERSION_NUM >= 160000
	node.spcOid = OidIsValid(tablespace) ? tablespace : MyDatabaseTableSpace;
	node.dbOid = MyDatabaseId;
	node.relNumber = filenode;
#else
	node.spcNode = OidIsValid(tablespace) ? tablespace : MyDatabaseTableSpace;
	node.dbNode = MyDatabaseId;
	node.relNode = filenode;
#endif
	return node;
}

#endif							/* PARTMGR_COMPAT_H */
