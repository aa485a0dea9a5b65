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

#include "catalog/pg_namespace.h"
#include "catalog/pg_tablespace.h"
#include "utils/acl.h"

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

#endif							/* PARTMGR_COMPAT_H */
