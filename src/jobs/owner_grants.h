/*-------------------------------------------------------------------------
 *
 * owner_grants.h
 *	  What the owner of a set lacks for pg_partmgr to act as it: the
 *	  privileges its work is checked against, each with the GRANT that gives
 *	  it, found before a run meets them.
 *
 * pg_partmgr acts on a set with the rights of its parent's owner (rights.h),
 * so that role, not the caller, needs USAGE on the parent's schema, CREATE
 * where children and staging tables are made, CREATE on the tablespaces new
 * children and their indexes go to, CREATE on the retention schema, INSERT
 * on an undo target and USAGE on schema partmgr for the triggers of
 * reshapes and global unique constraints.  A superuser who makes a table
 * and gives it to a role without these (as pg_partman's own tests do) meets
 * each of them as a refusal; this says them all at once.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/owner_grants.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_OWNER_GRANTS_H
#define PARTMGR_OWNER_GRANTS_H

#include "pg_partmgr.h"

/* One privilege the owner lacks. */
typedef struct PartmgrMissingGrant
{
	const char *privilege;		/* "USAGE", "CREATE", "INSERT" */
	const char *object_kind;	/* "SCHEMA", "TABLESPACE", "TABLE" */
	char	   *object;			/* quoted name */
	char	   *needed_for;		/* what needs it, for a reader */
	bool		required;		/* true: the work named in needed_for fails
								 * without it, whoever calls; false: only some
								 * callers or operations need it */
	char	   *grant_sql;		/* the GRANT that gives it */
} PartmgrMissingGrant;

extern List *partmgr_set_missing_grants(const PartmgrSet *set,
										Oid undo_target);
extern List *partmgr_table_missing_grants(Oid relid);
extern char *partmgr_missing_grants_text(List *missing, bool required_only);

#endif							/* PARTMGR_OWNER_GRANTS_H */
