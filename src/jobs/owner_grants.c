/*-------------------------------------------------------------------------
 *
 * owner_grants.c
 *	  What the owner of a set lacks for pg_partmgr to act as it, each with
 *	  the GRANT that gives it (see owner_grants.h).
 *
 * Only the catalogs are read, with the caller's rights: nothing of the
 * owner's runs, and the answer does not depend on who asks.  The checks are
 * the ones the work itself makes: rights.c (USAGE on the parent's schema and
 * on partmgr), work.c (CREATE where tables are made), retention.c (CREATE
 * on the retention schema), partition_data.c (INSERT on an undo target),
 * and PostgreSQL's own (CREATE on a tablespace other than the database's
 * default, for the tables pg_partmgr makes and the indexes it builds on them
 * in a tablespace: the indexes a partition gets from its parent's are made
 * without that check).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/owner_grants.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "commands/tablespace.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "catalog.h"
#include "compat.h"
#include "owner_grants.h"
#include "properties.h"
#include "statements.h"
#include "tiers_state.h"

static List *
add(List *missing, const char *privilege, const char *kind, char *object,
	Oid owner, bool required, char *needed_for)
{
	PartmgrMissingGrant *m = palloc0(sizeof(PartmgrMissingGrant));

	m->privilege = privilege;
	m->object_kind = kind;
	m->object = object;
	m->needed_for = needed_for;
	m->required = required;
	m->grant_sql = partmgr_ddl_grant_on(privilege, kind, object, owner);
	return lappend(missing, m);
}

/*
 * schema_rights
 *		USAGE and CREATE on the parent's schema, USAGE on partmgr.  with_code:
 *		new children get indexes that evaluate code of the owner's, which
 *		only the owner may build, so CREATE is required.
 */
static List *
schema_rights(List *missing, Oid nspid, Oid owner, bool with_code,
			  bool registered)
{
	char	   *schema = pstrdup(quote_identifier(get_namespace_name(nspid)));
	Oid			ours = get_namespace_oid(PARTMGR_SCHEMA, false);

	if (partmgr_schema_aclcheck(nspid, owner, ACL_USAGE) != ACLCHECK_OK)
		missing = add(missing, "USAGE", "SCHEMA", schema, owner, true,
					  registered ?
					  "every action on the set: pg_partmgr acts with the rights of the parent's owner" :
					  "create_parent() and every action on the set: pg_partmgr acts with the rights of the parent's owner");
	if (partmgr_schema_aclcheck(nspid, owner, ACL_CREATE) != ACLCHECK_OK)
		missing = add(missing, "CREATE", "SCHEMA", schema, owner, with_code,
					  with_code ?
					  "new children: the template's expression or partial indexes are built by the owner alone" :
					  "new children, the default partition and staging tables, made by the owner (without it, only a caller who may create there, such as a superuser, makes them and gives them to the owner)");
	if (nspid != ours &&
		partmgr_schema_aclcheck(ours, owner, ACL_USAGE) != ACLCHECK_OK)
		missing = add(missing, "USAGE", "SCHEMA", PARTMGR_SCHEMA, owner, false,
					  "reshapes (change_interval(), merge_partitions(), split_partition(), split_hash_partition()) and create_global_unique(): their triggers call functions of schema partmgr");
	return missing;
}

/*
 * tablespace_rights
 *		CREATE on each tablespace in spcids (new children or their indexes go
 *		there, said by what), once per tablespace.  Required when the owner
 *		makes the children itself (it may create in their schema).
 */
static List *
tablespace_rights(List *missing, List *spcids, Oid owner, bool creates,
				  const char *what)
{
	ListCell   *lc;

	foreach(lc, spcids)
	{
		Oid			spcid = lfirst_oid(lc);
		char	   *name;
		ListCell   *seen;
		bool		listed = false;

		if (!OidIsValid(spcid) || spcid == MyDatabaseTableSpace ||
			partmgr_tablespace_aclcheck(spcid, owner,
										ACL_CREATE) == ACLCHECK_OK)
			continue;
		name = pstrdup(quote_identifier(get_tablespace_name(spcid)));
		foreach(seen, missing)
		{
			PartmgrMissingGrant *m = (PartmgrMissingGrant *) lfirst(seen);

			listed |= (strcmp(m->object_kind, "TABLESPACE") == 0 &&
					   strcmp(m->object, name) == 0);
		}
		if (!listed)
			missing = add(missing, "CREATE", "TABLESPACE", name, owner,
						  creates, pstrdup(what));
	}
	return missing;
}

/*
 * parent_rights
 *		What the owner of the parent relid needs however the set is
 *		configured: its schema (schema_rights) and CREATE on its tablespace,
 *		where new children are made.  *creates: whether the owner makes the
 *		children itself (it may create in the schema).
 */
static List *
parent_rights(Oid relid, Oid owner, bool with_code, bool registered,
			  bool *creates)
{
	Oid			nspid = get_rel_namespace(relid);
	List	   *missing = schema_rights(NIL, nspid, owner, with_code,
										registered);

	*creates = partmgr_schema_aclcheck(nspid, owner,
									   ACL_CREATE) == ACLCHECK_OK;
	return tablespace_rights(missing, list_make1_oid(get_rel_tablespace(relid)),
							 owner, *creates,
							 "new children: they are made in the parent's tablespace");
}

/*
 * target_rights
 *		What undo_partition() into target needs of the owner: USAGE on its
 *		schema and INSERT on it.
 */
static List *
target_rights(List *missing, Oid target, Oid parent_nspid, Oid owner)
{
	Oid			nspid = get_rel_namespace(target);
	char	   *table = quote_qualified_identifier(get_namespace_name(nspid),
												   get_rel_name(target));

	if (nspid != parent_nspid &&
		partmgr_schema_aclcheck(nspid, owner, ACL_USAGE) != ACLCHECK_OK)
		missing = add(missing, "USAGE", "SCHEMA",
					  pstrdup(quote_identifier(get_namespace_name(nspid))),
					  owner, true,
					  psprintf("undo_partition() into %s", table));
	if (pg_class_aclcheck(target, owner, ACL_INSERT) != ACLCHECK_OK)
		missing = add(missing, "INSERT", "TABLE", table, owner, true,
					  pstrdup("undo_partition() moves the set's rows into it"));
	return missing;
}

/*
 * partmgr_set_missing_grants
 *		What the owner of a registered set lacks, in the order the work
 *		meets it; with undo_target (or InvalidOid), what undo_partition()
 *		into that table needs besides.  NIL: nothing.
 */
List *
partmgr_set_missing_grants(const PartmgrSet *set, Oid undo_target)
{
	Oid			owner = set->parent_owner;
	Oid			nspid = get_rel_namespace(set->parent_oid);
	PartmgrProperties props;
	bool		with_code = false;
	bool		creates;
	List	   *spcids = NIL;
	List	   *missing;
	ListCell   *lc;

	partmgr_read_properties(set, &props);
	foreach(lc, props.unique_indexes)
	{
		PartmgrUniqueIndex *index = (PartmgrUniqueIndex *) lfirst(lc);

		with_code |= !index->plain;
		spcids = lappend_oid(spcids, index->spcid);
	}
	if (props.replica_index != NULL)
	{
		with_code |= !props.replica_index->plain;
		spcids = lappend_oid(spcids, props.replica_index->spcid);
	}
	missing = parent_rights(set->parent_oid, owner, with_code, true, &creates);
	missing = tablespace_rights(missing, spcids, owner, creates,
								"the indexes of new children");
	if (set->retention != NULL && set->retention_schema != NULL)
	{
		Oid			retire = get_namespace_oid(set->retention_schema, true);

		if (OidIsValid(retire) &&
			partmgr_schema_aclcheck(retire, owner, ACL_CREATE) != ACLCHECK_OK)
			missing = add(missing, "CREATE", "SCHEMA",
						  pstrdup(quote_identifier(set->retention_schema)),
						  owner, true,
						  "retention: expired children are moved into this schema");
	}

	/*
	 * the tiers' tablespaces: every step of a move runs as the owner; not
	 * required, since without it no move is registered (health warns)
	 */
	foreach(lc, partmgr_tier_rows(set->key))
	{
		PartmgrTierRow *tier = (PartmgrTierRow *) lfirst(lc);
		Oid			spcid = get_tablespace_oid(tier->tablespace, true);

		if (OidIsValid(spcid))
			missing = tablespace_rights(missing, list_make1_oid(spcid), owner,
										false,
										psprintf("tier %s: its children are moved there",
												 quote_identifier(tier->name)));
	}
	if (OidIsValid(undo_target))
		missing = target_rights(missing, undo_target, nspid, owner);
	return missing;
}

/*
 * partmgr_table_missing_grants
 *		What the owner of a table that is not a set yet lacks for
 *		create_parent() and the maintenance of the set it makes.
 */
List *
partmgr_table_missing_grants(Oid relid)
{
	bool		creates;

	return parent_rights(relid, partmgr_rel_owner(relid), false, false,
						 &creates);
}

/*
 * partmgr_missing_grants_text
 *		The GRANTs of missing, "GRANT ...; GRANT ..." (only the required ones
 *		with required_only), or NULL when there is none.
 */
char *
partmgr_missing_grants_text(List *missing, bool required_only)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, missing)
	{
		PartmgrMissingGrant *m = (PartmgrMissingGrant *) lfirst(lc);

		if (required_only && !m->required)
			continue;
		appendStringInfo(&buf, "%s%s", buf.len > 0 ? "; " : "", m->grant_sql);
	}
	return buf.len > 0 ? buf.data : NULL;
}
