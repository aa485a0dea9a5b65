/*-------------------------------------------------------------------------
 *
 * ddl.c
 *	  Build the SQL statements pg_partmgr runs.
 *
 * Children are created as standalone tables shaped like the parent and
 * then attached, never with CREATE TABLE ... PARTITION OF: the latter takes
 * ACCESS EXCLUSIVE on the parent, ATTACH PARTITION only SHARE UPDATE
 * EXCLUSIVE.  Indexes are not copied with LIKE: attaching creates the
 * parent's partitioned indexes on the child with their usual names.
 *
 * Pure string building; no locks, no transactions.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/ddl.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/tablespace.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "bounds.h"
#include "ddl.h"

static const char *
parent_name(const PartmgrSet *set)
{
	return quote_qualified_identifier(set->parent_schema, set->parent_name);
}

/*
 * partmgr_ddl_create_like
 *		CREATE TABLE for a new child (or default partition) with the parent's
 *		columns, defaults, CHECK and NOT NULL constraints, storage, comments,
 *		generated columns, compression and statistics, in the parent's
 *		tablespace.
 */
char *
partmgr_ddl_create_like(const PartmgrSet *set, const char *schema, const char *name)
{
	StringInfoData sql;
	Oid			spcid = get_rel_tablespace(set->parent_oid);

	initStringInfo(&sql);
	appendStringInfo(&sql,
					 "CREATE TABLE %s (LIKE %s INCLUDING DEFAULTS INCLUDING CONSTRAINTS"
					 " INCLUDING STORAGE INCLUDING COMMENTS INCLUDING GENERATED"
					 " INCLUDING COMPRESSION INCLUDING STATISTICS)",
					 quote_qualified_identifier(schema, name), parent_name(set));
	if (OidIsValid(spcid))
		appendStringInfo(&sql, " TABLESPACE %s",
						 quote_identifier(get_tablespace_name(spcid)));
	return sql.data;
}

/*
 * partmgr_ddl_set_owner
 *		ALTER TABLE ... OWNER TO role.
 */
char *
partmgr_ddl_set_owner(const char *schema, const char *name, Oid role)
{
	return psprintf("ALTER TABLE %s OWNER TO %s",
					quote_qualified_identifier(schema, name),
					quote_identifier(GetUserNameFromId(role, false)));
}

/*
 * partmgr_ddl_attach_range
 *		ALTER TABLE parent ATTACH PARTITION child FOR VALUES FROM .. TO ..
 */
char *
partmgr_ddl_attach_range(const PartmgrSet *set, const char *schema,
						 const char *name, PartmgrPoint lower, PartmgrPoint upper)
{
	return psprintf("ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (%s) TO (%s)",
					parent_name(set), quote_qualified_identifier(schema, name),
					partmgr_point_literal(&set->axis, lower),
					partmgr_point_literal(&set->axis, upper));
}

/*
 * partmgr_ddl_attach_default
 *		ALTER TABLE parent ATTACH PARTITION child DEFAULT
 */
char *
partmgr_ddl_attach_default(const PartmgrSet *set, const char *schema, const char *name)
{
	return psprintf("ALTER TABLE %s ATTACH PARTITION %s DEFAULT",
					parent_name(set), quote_qualified_identifier(schema, name));
}

/*
 * partmgr_ddl_analyze
 *		ANALYZE of the parent (statistics of the whole partition tree).
 */
char *
partmgr_ddl_analyze(const PartmgrSet *set)
{
	return psprintf("ANALYZE %s", parent_name(set));
}

/*
 * partmgr_ddl_count_rows
 *		Count the rows of one table (not its children); with exact false,
 *		only whether there is one (0 or 1), which stops at the first row.
 */
char *
partmgr_ddl_count_rows(const char *schema, const char *name, bool exact)
{
	const char *table = quote_qualified_identifier(schema, name);

	if (exact)
		return psprintf("SELECT count(*) FROM ONLY %s", table);
	return psprintf("SELECT count(*) FROM (SELECT 1 FROM ONLY %s LIMIT 1) AS one", table);
}

/*
 * partmgr_ddl_max_control
 *		The largest control value of one table (ONLY: not its children), or
 *		of the whole partition set when schema and name are the parent's and
 *		only is false.
 */
char *
partmgr_ddl_max_control(const PartmgrSet *set, const char *schema,
						const char *name, bool only)
{
	return psprintf("SELECT max(%s) FROM %s%s", quote_identifier(set->control),
					only ? "ONLY " : "", quote_qualified_identifier(schema, name));
}

/*
 * partmgr_ddl_detach
 *		ALTER TABLE parent DETACH PARTITION child, with how (empty,
 *		" CONCURRENTLY" or " FINALIZE") appended.
 */
char *
partmgr_ddl_detach(const PartmgrSet *set, const char *schema, const char *name,
				   const char *how)
{
	return psprintf("ALTER TABLE %s DETACH PARTITION %s%s", parent_name(set),
					quote_qualified_identifier(schema, name), how);
}

/*
 * partmgr_ddl_drop_table
 *		DROP TABLE of a detached child (never CASCADE: a dependent object
 *		stops the drop).
 */
char *
partmgr_ddl_drop_table(const char *schema, const char *name)
{
	return psprintf("DROP TABLE %s", quote_qualified_identifier(schema, name));
}

char *
partmgr_ddl_drop_index(const char *schema, const char *index)
{
	return psprintf("DROP INDEX %s", quote_qualified_identifier(schema, index));
}

char *
partmgr_ddl_drop_constraint(const char *schema, const char *name,
							const char *constraint)
{
	return psprintf("ALTER TABLE %s DROP CONSTRAINT %s",
					quote_qualified_identifier(schema, name),
					quote_identifier(constraint));
}

char *
partmgr_ddl_drop_from_publication(const char *publication, const char *schema,
								  const char *name)
{
	return psprintf("ALTER PUBLICATION %s DROP TABLE %s",
					quote_identifier(publication),
					quote_qualified_identifier(schema, name));
}

char *
partmgr_ddl_set_schema(const char *schema, const char *name, const char *new_schema)
{
	return psprintf("ALTER TABLE %s SET SCHEMA %s",
					quote_qualified_identifier(schema, name),
					quote_identifier(new_schema));
}
