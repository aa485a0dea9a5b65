/*-------------------------------------------------------------------------
 *
 * statements.c
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
 *	  src/base/statements.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/tablespace.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/ruleutils.h"

#include "bounds.h"
#include "statements.h"

static const char *
parent_name(const PartmgrSet *set)
{
	return quote_qualified_identifier(set->parent_schema, set->parent_name);
}

/*
 * only_rel
 *		A table in FROM as "ONLY schema.table": that table's own rows, not
 *		those of tables that inherit from it.  A partitioned table (a
 *		sub-parent) holds no rows of its own: its rows are those of its
 *		partitions, so it is named without ONLY.
 */
static char *
only_rel(const char *schema, const char *name)
{
	Oid			nspid = get_namespace_oid(schema, true);
	Oid			relid = OidIsValid(nspid) ? get_relname_relid(name,
															  nspid) : InvalidOid;

	if (OidIsValid(relid) &&
		get_rel_relkind(relid) == RELKIND_PARTITIONED_TABLE)
		return (char *) quote_qualified_identifier(schema, name);
	return psprintf("ONLY %s", quote_qualified_identifier(schema, name));
}

/*
 * partmgr_ddl_set_default_tablespace
 *		SET LOCAL default_tablespace: where the tables and indexes made next
 *		without a TABLESPACE clause go ("": the database's default).
 */
char *
partmgr_ddl_set_default_tablespace(const char *tablespace)
{
	return psprintf("SET LOCAL default_tablespace = %s",
					quote_literal_cstr(tablespace));
}

/*
 * partmgr_ddl_create_like
 *		CREATE TABLE for a new child (or default partition) with the parent's
 *		columns, defaults, CHECK and NOT NULL constraints, each column's
 *		storage and compression, comments and generated columns, in the
 *		parent's tablespace (or in tablespace, a name); UNLOGGED and with the storage parameters
 *		reloptions ("fillfactor='70'", ...) when the template says so; with
 *		partition_by, partitioned that way (a sub-parent,
 *		partmgr_ddl_create_sub_parent).  Not INCLUDING STATISTICS: the
 *		parent's extended statistics are created on their own
 *		(partmgr_ddl_create_statistics), under names of ours, so that they
 *		can be given to the owner when the table is made with the caller's
 *		rights; LIKE copies no column's statistics target either
 *		(partmgr_ddl_alter_columns).
 */
static char *
create_like_in(const PartmgrSet *set, bool unlogged, List *reloptions,
			   Oid spcid,
			   const char *schema, const char *name, const char *partition_by)
{
	StringInfoData sql;
	ListCell   *lc;

	initStringInfo(&sql);
	appendStringInfo(&sql,
					 "CREATE %sTABLE %s (LIKE %s INCLUDING DEFAULTS INCLUDING"
					 " CONSTRAINTS"
					 " INCLUDING STORAGE INCLUDING COMMENTS INCLUDING GENERATED"
					 " INCLUDING COMPRESSION)",
					 unlogged ? "UNLOGGED " : "",
					 quote_qualified_identifier(schema, name),
					 parent_name(set));
	if (partition_by != NULL)
		appendStringInfo(&sql, " PARTITION BY %s", partition_by);
	if (reloptions != NIL)
	{
		appendStringInfoString(&sql, " WITH (");
		foreach(lc, reloptions)
			appendStringInfo(&sql, "%s%s", foreach_current_index(lc) > 0 ?
							 ", " : "",
							 (char *) lfirst(lc));
		appendStringInfoChar(&sql, ')');
	}
	if (OidIsValid(spcid))
		appendStringInfo(&sql, " TABLESPACE %s",
						 quote_identifier(get_tablespace_name(spcid)));
	return sql.data;
}

/* ... in tablespace (a name), or NULL: the parent's */
static char *
create_like(const PartmgrSet *set, bool unlogged, List *reloptions,
			const char *tablespace, const char *schema,
			const char *name, const char *partition_by)
{
	return create_like_in(set, unlogged, reloptions,
						  tablespace != NULL ?
						  get_tablespace_oid(tablespace, false) :
						  get_rel_tablespace(set->parent_oid),
						  schema, name, partition_by);
}

char *
partmgr_ddl_create_like(const PartmgrSet *set, bool unlogged, List *reloptions,
						const char *tablespace, const char *schema,
						const char *name)
{
	return create_like(set, unlogged, reloptions, tablespace, schema, name,
					   NULL);
}

/*
 * partmgr_ddl_create_replacement
 *		CREATE TABLE for a child that replaces others (a reshape): like any
 *		new child, but with the persistence, storage parameters and
 *		tablespace of the child it replaces.
 */
char *
partmgr_ddl_create_replacement(const PartmgrSet *set, bool unlogged,
							   List *reloptions,
							   Oid spcid, const char *schema, const char *name)
{
	return create_like_in(set, unlogged, reloptions, spcid, schema, name, NULL);
}

/*
 * partmgr_ddl_create_template
 *		CREATE TABLE ... (LIKE parent): the template table create_parent
 *		makes, with the parent's columns only, as pg_partman's.
 */
char *
partmgr_ddl_create_template(const char *parent_schema, const char *parent_name,
							const char *schema, const char *name)
{
	return psprintf("CREATE TABLE %s (LIKE %s)",
					quote_qualified_identifier(schema, name),
					quote_qualified_identifier(parent_schema, parent_name));
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
 * partmgr_ddl_grant, partmgr_ddl_revoke
 *		GRANT privileges ("INSERT, SELECT") on a table to a grantee (a quoted
 *		role name or PUBLIC), and REVOKE ... CASCADE.
 */
char *
partmgr_ddl_grant(const char *schema, const char *name, const char *privileges,
				  const char *grantee, bool grantable)
{
	return psprintf("GRANT %s ON %s TO %s%s", privileges,
					quote_qualified_identifier(schema, name), grantee,
					grantable ? " WITH GRANT OPTION" : "");
}

/*
 * partmgr_ddl_grant_on
 *		GRANT privilege ON kind object TO role, for a schema or a tablespace
 *		("GRANT USAGE ON SCHEMA app TO alice"); object is quoted already.
 */
char *
partmgr_ddl_grant_on(const char *privilege, const char *kind,
					 const char *object, Oid role)
{
	return psprintf("GRANT %s ON %s %s TO %s", privilege, kind, object,
					quote_identifier(GetUserNameFromId(role, false)));
}

char *
partmgr_ddl_revoke(const char *schema, const char *name, const char *privileges,
				   const char *grantee)
{
	return psprintf("REVOKE %s ON %s FROM %s CASCADE", privileges,
					quote_qualified_identifier(schema, name), grantee);
}

/* statements as one text, each ended by a semicolon, for a plan to show */
char *
partmgr_ddl_join(const List *statements)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, statements)
		appendStringInfo(&buf, "%s%s;", buf.len > 0 ? " " : "",
						 (const char *) lfirst(lc));
	return buf.data;
}

/*
 * partmgr_ddl_unique_index
 *		A PRIMARY KEY on a table's columns, or a UNIQUE index of the given
 *		definition ("USING btree (a) WHERE ..."), under index_name or the
 *		name PostgreSQL picks when it is NULL, in a tablespace (quoted) or
 *		the default when NULL.
 */
char *
partmgr_ddl_unique_index(const char *schema, const char *name, bool primary,
						 const char *index_name, const char *columns,
						 const char *definition, const char *tablespace)
{
	const char *table = quote_qualified_identifier(schema, name);
	const char *named = index_name ? psprintf("%s ",
											  quote_identifier(index_name)) : "";

	if (primary)
		return psprintf("ALTER TABLE %s ADD %s%sPRIMARY KEY (%s)%s%s", table,
						index_name ? "CONSTRAINT " : "", named, columns,
						tablespace ? " USING INDEX TABLESPACE " : "",
						tablespace ? tablespace : "");
	return psprintf("CREATE UNIQUE INDEX %sON %s %s%s%s", named, table,
					definition,
					tablespace ? " TABLESPACE " : "", tablespace ? tablespace :
					"");
}

/*
 * partmgr_ddl_replica_identity
 *		ALTER TABLE ... REPLICA IDENTITY: ident is pg_class.relreplident;
 *		for 'i', the index (in the table's schema) is index_name.
 */
char *
partmgr_ddl_replica_identity(const char *schema, const char *name, char ident,
							 const char *index_name)
{
	const char *table = quote_qualified_identifier(schema, name);

	switch (ident)
	{
		case REPLICA_IDENTITY_FULL:
			return psprintf("ALTER TABLE %s REPLICA IDENTITY FULL", table);
		case REPLICA_IDENTITY_NOTHING:
			return psprintf("ALTER TABLE %s REPLICA IDENTITY NOTHING", table);
		case REPLICA_IDENTITY_INDEX:
			return psprintf("ALTER TABLE %s REPLICA IDENTITY USING INDEX %s",
							table,
							quote_identifier(index_name));
		default:
			return psprintf("ALTER TABLE %s REPLICA IDENTITY DEFAULT", table);
	}
}

/*
 * partmgr_ddl_alter_columns
 *		ALTER TABLE ONLY ... ALTER COLUMN c SET option value, ... for each
 *		column (unquoted names) and its value: option is COMPRESSION (a
 *		method or "default"), STORAGE (plain, external, extended, main) or
 *		STATISTICS (a number, -1 for the default), the values words and
 *		numbers read from the catalogs.  ONLY: a partitioned child's own
 *		children are its sub-set's business, and are not locked.
 */
char *
partmgr_ddl_alter_columns(const char *schema, const char *name,
						  const char *option,
						  List *columns, List *values)
{
	StringInfoData sql;
	ListCell   *lc;
	ListCell   *lv;

	Assert(strcmp(option, "COMPRESSION") == 0 ||
		   strcmp(option, "STORAGE") == 0 ||
		   strcmp(option, "STATISTICS") == 0);
	initStringInfo(&sql);
	appendStringInfo(&sql, "ALTER TABLE ONLY %s",
					 quote_qualified_identifier(schema, name));
	forboth(lc, columns, lv, values)
		appendStringInfo(&sql, "%s ALTER COLUMN %s SET %s %s",
						 foreach_current_index(lc) > 0 ? "," : "",
						 quote_identifier((const char *) lfirst(lc)), option,
						 (const char *) lfirst(lv));
	return sql.data;
}

/*
 * partmgr_ddl_create_statistics
 *		CREATE STATISTICS schema.stat_name [(kinds)] ON columns FROM table:
 *		kinds ("ndistinct, mcv", or NULL for expression statistics only) and
 *		columns ("a, (b || c)") as pg_get_statisticsobjdef_columns deparses
 *		the parent's object, whose columns the table has under the same
 *		names.
 */
char *
partmgr_ddl_create_statistics(const char *schema, const char *stat_name,
							  const char *kinds,
							  const char *columns, const char *table_schema,
							  const char *table_name)
{
	return psprintf("CREATE STATISTICS %s%s%s%s ON %s FROM %s",
					quote_qualified_identifier(schema, stat_name),
					kinds != NULL ? " (" : "", kinds != NULL ? kinds : "",
					kinds != NULL ? ")" : "", columns,
					quote_qualified_identifier(table_schema, table_name));
}

/*
 * partmgr_ddl_statistics_target, partmgr_ddl_statistics_owner
 *		ALTER STATISTICS ... SET STATISTICS target (-1: the default), and
 *		ALTER STATISTICS ... OWNER TO role.
 */
char *
partmgr_ddl_statistics_target(const char *schema, const char *stat_name,
							  int target)
{
	return psprintf("ALTER STATISTICS %s SET STATISTICS %d",
					quote_qualified_identifier(schema, stat_name), target);
}

char *
partmgr_ddl_statistics_owner(const char *schema, const char *stat_name,
							 Oid role)
{
	return psprintf("ALTER STATISTICS %s OWNER TO %s",
					quote_qualified_identifier(schema, stat_name),
					quote_identifier(GetUserNameFromId(role, false)));
}

/*
 * partmgr_ddl_set_persistence
 *		ALTER TABLE ... SET UNLOGGED or SET LOGGED (both rewrite the table).
 */
char *
partmgr_ddl_set_persistence(const char *schema, const char *name, bool unlogged)
{
	return psprintf("ALTER TABLE %s SET %s",
					quote_qualified_identifier(schema, name),
					unlogged ? "UNLOGGED" : "LOGGED");
}

/*
 * partmgr_ddl_set_reloptions
 *		ALTER TABLE ... SET ("name='value'", ...) or, with reset, RESET of
 *		the named options ("toast." ones included).
 */
char *
partmgr_ddl_set_reloptions(const char *schema, const char *name, List *options,
						   bool reset)
{
	StringInfoData sql;
	ListCell   *lc;

	initStringInfo(&sql);
	appendStringInfo(&sql, "ALTER TABLE %s %s (",
					 quote_qualified_identifier(schema, name),
					 reset ? "RESET" : "SET");
	foreach(lc, options)
		appendStringInfo(&sql, "%s%s", foreach_current_index(lc) > 0 ? ", " :
						 "",
						 (char *) lfirst(lc));
	appendStringInfoChar(&sql, ')');
	return sql.data;
}

/*
 * partmgr_ddl_attach_range
 *		ALTER TABLE parent ATTACH PARTITION child FOR VALUES FROM .. TO ..
 */
char *
partmgr_ddl_attach_range(const PartmgrSet *set, const char *schema,
						 const char *name, PartmgrPoint lower,
						 PartmgrPoint upper)
{
	return partmgr_ddl_attach_range_to(set, set->parent_schema,
									   set->parent_name,
									   schema, name, lower, upper);
}

/*
 * partmgr_ddl_attach_range_to
 *		The same, to another partitioned table shaped like the parent (the
 *		staging table of partition_data).
 */
char *
partmgr_ddl_attach_range_to(const PartmgrSet *set, const char *into_schema,
							const char *into_name, const char *schema,
							const char *name, PartmgrPoint lower,
							PartmgrPoint upper)
{
	/* a child of a list set holds the one value of its range [n, n + 1) */
	if (set->strategy == PARTITION_STRATEGY_LIST)
		return psprintf("ALTER TABLE %s ATTACH PARTITION %s FOR VALUES IN (%s)",
						quote_qualified_identifier(into_schema, into_name),
						quote_qualified_identifier(schema, name),
						partmgr_point_literal(&set->axis, lower));
	return psprintf("ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (%s)"
					" TO (%s)",
					quote_qualified_identifier(into_schema, into_name),
					quote_qualified_identifier(schema, name),
					partmgr_point_literal(&set->axis, lower),
					partmgr_point_literal(&set->axis, upper));
}

/*
 * partmgr_ddl_create_stage, partmgr_ddl_detach_from
 *		A partitioned table with the parent's columns, defaults and generated
 *		columns and the same partition key, for partition_data to route rows
 *		into children before they are attached to the parent; and a plain
 *		DETACH from it.
 */
char *
partmgr_ddl_create_stage(const PartmgrSet *set, const char *name)
{
	/* the parent's key as it is: its operator class routes rows the same way */
	return psprintf("CREATE TABLE %s (LIKE %s INCLUDING DEFAULTS INCLUDING"
					" GENERATED)"
					" PARTITION BY %s",
					quote_qualified_identifier(set->parent_schema, name),
					parent_name(set),
					TextDatumGetCString(DirectFunctionCall1(pg_get_partkeydef,
															ObjectIdGetDatum(set->parent_oid))));
}

/*
 * partmgr_ddl_hash_check_text
 *		What the CHECK a new child of a hash set gets before it is attached
 *		says, as SQL for the log: PostgreSQL's own partition constraint for
 *		those bounds (catalog.c's partmgr_add_hash_check adds it from the
 *		partition constraint itself, so that ATTACH recognizes it).
 */
char *
partmgr_ddl_hash_check_text(const PartmgrSet *set, const char *schema,
							const char *name,
							int modulus, int remainder)
{
	return psprintf("ALTER TABLE %s ADD CONSTRAINT %s CHECK"
					" (pg_catalog.satisfies_hash_partition(%s::pg_catalog.regclass, %d, %d, %s))",
					quote_qualified_identifier(schema, name),
					PARTMGR_BOUND_CHECK,
					quote_literal_cstr(parent_name(set)), modulus, remainder,
					quote_identifier(set->control));
}

char *
partmgr_ddl_detach_from(const char *into_schema, const char *into_name,
						const char *schema, const char *name)
{
	return psprintf("ALTER TABLE %s DETACH PARTITION %s",
					quote_qualified_identifier(into_schema, into_name),
					quote_qualified_identifier(schema, name));
}

/*
 * partmgr_ddl_attach_default
 *		ALTER TABLE parent ATTACH PARTITION child DEFAULT
 */
char *
partmgr_ddl_attach_default(const PartmgrSet *set, const char *schema,
						   const char *name)
{
	return psprintf("ALTER TABLE %s ATTACH PARTITION %s DEFAULT",
					parent_name(set), quote_qualified_identifier(schema, name));
}

/*
 * partmgr_ddl_analyze
 *		ANALYZE of the parent (statistics of the whole partition tree), with
 *		skip_locked leaving out tables it cannot lock at once.
 */
char *
partmgr_ddl_analyze(const PartmgrSet *set, bool skip_locked)
{
	return psprintf("ANALYZE %s%s", skip_locked ? "(SKIP_LOCKED) " : "",
					parent_name(set));
}

/*
 * partmgr_query_count_rows
 *		Count the rows of a table (with only, not those of its children);
 *		with exact false, only whether there is one (0 or 1), which stops at
 *		the first row.
 */
char *
partmgr_query_count_rows(const char *schema, const char *name, bool exact,
						 bool only)
{
	const char *table = only ? only_rel(schema,
										name) : quote_qualified_identifier(schema, name);

	if (exact)
		return psprintf("SELECT count(*) FROM %s", table);
	return psprintf("SELECT count(*) FROM (SELECT 1 FROM %s LIMIT 1) AS one",
					table);
}

/*
 * partmgr_query_distribute_like_parent
 *		Have Citus shard a new table by column, co-located with the set's
 *		parent, before rows are copied into it: an INSERT ... SELECT between
 *		co-located tables then runs on each worker, shard by shard, without
 *		the rows passing through the coordinator.
 */
char *
partmgr_query_distribute_like_parent(const PartmgrSet *set, const char *schema,
									 const char *name, const char *column)
{
	return psprintf("SELECT pg_catalog.create_distributed_table(%s, %s,"
					" colocate_with => %s)",
					quote_literal_cstr(quote_qualified_identifier(schema,
																  name)),
					quote_literal_cstr(column),
					quote_literal_cstr(parent_name(set)));
}

/*
 * partmgr_query_shard_lock_probe
 *		Ask every Citus worker at once whether another session holds, on a
 *		shard of one of the tables asks names (of PartmgrShardLockAsk *), a
 *		lock in that table's conflicting modes: one row per worker that has
 *		such a lock, or that could not answer (node, success, result: the
 *		labels of the tables concerned, or the error).  Each worker is asked
 *		over a connection of its own; the locks of this backend's
 *		connections to it (Citus names them "citus_internal gpid=" and this
 *		backend's global pid) are its own and do not count.
 */
char *
partmgr_query_shard_lock_probe(List *asks)
{
	StringInfoData worker;
	StringInfoData args;
	ListCell   *lc;

	initStringInfo(&worker);
	initStringInfo(&args);
	appendStringInfoString(&worker,
						   "SELECT COALESCE(pg_catalog.string_agg(DISTINCT"
						   " w.label, ', '), '')"
						   " FROM pg_catalog.pg_locks l JOIN (VALUES ");
	foreach(lc, asks)
	{
		const PartmgrShardLockAsk *ask = (const PartmgrShardLockAsk *) lfirst(lc);

		appendStringInfo(&worker,
						 "%s(%%L, %%L::pg_catalog.text[],"
						 " %%L::pg_catalog.text[])",
						 lc == list_head(asks) ? "" : ", ");
		appendStringInfo(&args,
						 ", %s, (SELECT"
						 " pg_catalog.array_agg(pg_catalog.shard_name(s.logicalrelid, s.shardid))"
						 " FROM pg_catalog.pg_dist_shard s"
						 " WHERE s.logicalrelid OPERATOR(pg_catalog.=)"
						 " %s::pg_catalog.regclass)::pg_catalog.text, %s",
						 quote_literal_cstr(ask->label),
						 quote_literal_cstr(quote_qualified_identifier(ask->schema, ask->name)),
						 quote_literal_cstr(ask->modes));
	}
	appendStringInfoString(&worker,
						   ") w (label, shards, modes)"
						   " ON l.relation OPERATOR(pg_catalog.=) ANY"
						   " (ARRAY(SELECT pg_catalog.to_regclass(n)"
						   " FROM pg_catalog.unnest(w.shards)"
						   " n)::pg_catalog.oid[])"
						   " AND l.mode OPERATOR(pg_catalog.=) ANY (w.modes)"
						   " WHERE l.granted AND l.pid"
						   " OPERATOR(pg_catalog.<>)"
						   " pg_catalog.pg_backend_pid()"
						   " AND l.pid OPERATOR(pg_catalog.<>) ALL"
						   " (ARRAY(SELECT a.pid FROM"
						   " pg_catalog.pg_stat_activity a"
						   " WHERE a.application_name OPERATOR(pg_catalog.=)"
						   " %L))"
						   " AND l.database OPERATOR(pg_catalog.=) (SELECT"
						   " d.oid FROM pg_catalog.pg_database d"
						   " WHERE d.datname OPERATOR(pg_catalog.=)"
						   " pg_catalog.current_database())");
	return psprintf("SELECT r.nodename OPERATOR(pg_catalog.||) ':'"
					" OPERATOR(pg_catalog.||) r.nodeport, r.success, r.result"
					" FROM"
					" pg_catalog.run_command_on_workers(pg_catalog.format(%s%s,"
					" 'citus_internal gpid=' OPERATOR(pg_catalog.||)"
					" pg_catalog.citus_backend_gpid())) r"
					" WHERE NOT r.success OR r.result OPERATOR(pg_catalog.<>)"
					" ''",
					quote_literal_cstr(worker.data), args.data);
}

/*
 * partmgr_ddl_remote_lock_timeout
 *		SET LOCAL lock_timeout to ms milliseconds in a DO block: Citus sends a
 *		SET LOCAL on to its workers (citus.propagate_set_commands 'local')
 *		only in a transaction block, a procedure or a DO block (citus.c).
 */
char *
partmgr_ddl_remote_lock_timeout(int ms)
{
	return psprintf("DO LANGUAGE plpgsql $partmgr$BEGIN SET LOCAL"
					" lock_timeout = %d; END$partmgr$",
					ms);
}

/*
 * partmgr_ddl_finite_key
 *		The condition "the row's key is not infinity or -infinity" (a NULL
 *		key passes), for p_ignore_infinity: on the column of a timestamptz,
 *		timestamp, date or numeric key, on the time a decoder gives for an
 *		encoded one.  NULL for keys that cannot be infinite (integers, epoch
 *		keys).
 */
char *
partmgr_ddl_finite_key(const PartmgrSet *set)
{
	const char *key = quote_identifier(set->control);

	if (OidIsValid(set->axis.decoder))
		key = partmgr_ddl_key_time(set);
	else if (set->axis.epoch_unit != 0 ||
			 (set->axis.column_typid != TIMESTAMPTZOID &&
			  set->axis.column_typid != TIMESTAMPOID &&
			  set->axis.column_typid != DATEOID &&
			  set->axis.column_typid != NUMERICOID))
		return NULL;
	return psprintf("(%s IS NULL OR %s NOT IN ('infinity', '-infinity'))", key,
					key);
}

/*
 * partmgr_query_count_finite_rows
 *		partmgr_query_count_rows (ONLY) of the rows whose key is not infinite
 *		(see partmgr_ddl_finite_key); all rows when the key cannot be.
 */
char *
partmgr_query_count_finite_rows(const PartmgrSet *set, const char *schema,
								const char *name,
								bool exact)
{
	const char *finite = partmgr_ddl_finite_key(set);

	if (finite == NULL)
		return partmgr_query_count_rows(schema, name, exact, true);
	if (exact)
		return psprintf("SELECT count(*) FROM %s WHERE %s",
						only_rel(schema, name), finite);
	return psprintf("SELECT count(*) FROM (SELECT 1 FROM %s WHERE %s LIMIT 1)"
					" AS one",
					only_rel(schema, name), finite);
}

/*
 * extreme_key
 *		The query for the largest (or smallest) key of a relation: max() or
 *		min(), or for an encoded key (uuid has no max()) the first key in
 *		the btree order, which an index on the key still serves; one row
 *		either way, NULL for no key.
 */
static char *
extreme_key(const PartmgrSet *set, bool largest, const char *from)
{
	const char *key = quote_identifier(set->control);

	if (OidIsValid(set->axis.decoder))
		return psprintf("SELECT (SELECT %s FROM %s WHERE %s IS NOT NULL ORDER"
						" BY %s %s LIMIT 1)",
						key, from, key, key, largest ? "DESC" : "ASC");
	return psprintf("SELECT %s(%s) FROM %s", largest ? "max" : "min", key,
					from);
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
	return extreme_key(set, true, only ? only_rel(schema, name) :
					   (char *) quote_qualified_identifier(schema, name));
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
	return psprintf("%s%s",
					partmgr_ddl_detach_from(set->parent_schema,
											set->parent_name,
											schema, name), how);
}

/*
 * partmgr_ddl_drop_table
 *		DROP TABLE of a detached child; without cascade (retention) a
 *		dependent object stops the drop.
 */
char *
partmgr_ddl_drop_table(const char *schema, const char *name, bool cascade)
{
	return psprintf("DROP TABLE %s%s", quote_qualified_identifier(schema, name),
					cascade ? " CASCADE" : "");
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
	return partmgr_ddl_drop_constraints(schema, name,
										list_make1(pstrdup(constraint)));
}

/*
 * partmgr_ddl_drop_constraints
 *		ALTER TABLE ... DROP CONSTRAINT of several constraints at once.
 */
char *
partmgr_ddl_drop_constraints(const char *schema, const char *name,
							 List *constraints)
{
	StringInfoData sql;
	ListCell   *lc;

	initStringInfo(&sql);
	appendStringInfo(&sql, "ALTER TABLE %s",
					 quote_qualified_identifier(schema, name));
	foreach(lc, constraints)
		appendStringInfo(&sql, "%s DROP CONSTRAINT %s",
						 foreach_current_index(lc) > 0 ? "," : "",
						 quote_identifier((char *) lfirst(lc)));
	return sql.data;
}

/*
 * partmgr_ddl_add_checks
 *		ALTER TABLE ... ADD CONSTRAINT name CHECK (expr) NOT VALID, ... for
 *		derived constraints: the table is locked only while the catalog is
 *		changed; VALIDATE CONSTRAINT reads its rows later, with a lock that
 *		lets reads and writes go on.
 */
char *
partmgr_ddl_add_checks(const char *schema, const char *name, List *constraints,
					   List *checks)
{
	StringInfoData sql;
	ListCell   *con;
	ListCell   *check;

	initStringInfo(&sql);
	appendStringInfo(&sql, "ALTER TABLE %s",
					 quote_qualified_identifier(schema, name));
	forboth(con, constraints, check, checks)
		appendStringInfo(&sql, "%s ADD CONSTRAINT %s CHECK (%s) NOT VALID",
						 foreach_current_index(con) > 0 ? "," : "",
						 quote_identifier((char *) lfirst(con)),
						 (char *) lfirst(check));
	return sql.data;
}

char *
partmgr_ddl_validate_constraint(const char *schema, const char *name,
								const char *constraint)
{
	return psprintf("ALTER TABLE %s VALIDATE CONSTRAINT %s",
					quote_qualified_identifier(schema, name),
					quote_identifier(constraint));
}

/*
 * partmgr_query_column_ranges
 *		One query over a table (ONLY) that returns, for each column, its
 *		smallest and largest value as text (NULL when the column is NULL in
 *		every row): min() and max() where the type has them (by_aggregate),
 *		else the first value in the column's btree order each way.
 */
char *
partmgr_query_column_ranges(const char *schema, const char *name, List *columns,
							const bool *by_aggregate)
{
	const char *table = only_rel(schema, name);
	StringInfoData sql;
	ListCell   *lc;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT ");
	foreach(lc, columns)
	{
		const char *col = quote_identifier((char *) lfirst(lc));
		int			i = foreach_current_index(lc);

		if (i > 0)
			appendStringInfoString(&sql, ", ");
		if (by_aggregate[i])
			appendStringInfo(&sql, "min(%s)::text, max(%s)::text", col, col);
		else
			appendStringInfo(&sql,
							 "(SELECT %s::text FROM %s WHERE %s IS NOT NULL"
							 " ORDER BY %s LIMIT 1),"
							 " (SELECT %s::text FROM %s WHERE %s IS NOT NULL"
							 " ORDER BY %s DESC LIMIT 1)",
							 col, table, col, col, col, table, col, col);
	}
	appendStringInfo(&sql, " FROM %s", table);
	return sql.data;
}

/*
 * partmgr_ddl_range_check
 *		The CHECK expression of a derived constraint: the column between its
 *		smallest and largest value, or NULL in every row.
 */
char *
partmgr_ddl_range_check(const char *column, const char *min, const char *max)
{
	const char *col = quote_identifier(column);

	if (min == NULL)
		return psprintf("%s IS NULL", col);
	return psprintf("%s >= %s AND %s <= %s", col, quote_literal_cstr(min), col,
					quote_literal_cstr(max));
}

static const char *
literal_or_null(const char *text)
{
	return text ? quote_literal_cstr(text) : "NULL";
}

/* a boolean as pg_partman's dump writes it */
static const char *
bool_word(bool b)
{
	return b ? "'t'" : "'f'";
}

/*
 * partmgr_query_dump_definition
 *		SQL that registers the set again as it is configured: a
 *		create_parent() call with named arguments, then an UPDATE of the
 *		part_config columns create_parent does not set: pg_partman 5's
 *		dump_partitioned_table_definition, word for word, with
 *		p_control_not_null (control_not_null: whether the control column is
 *		NOT NULL), the time encoder and decoder of a set that has them
 *		(pg_partman 5.2), p_offset_id when the integer children's bounds are
 *		offset from the multiples of the interval (offset_id, pg_partman
 *		5.3), and the set's recorded zone: p_timezone, so that the first
 *		children are made in it, and partition_timezone (pg_partman 5.4.4).
 */
char *
partmgr_query_dump_definition(const PartmgrSet *set, bool ignore_template,
							  bool control_not_null, int64 offset_id)
{
	StringInfoData sql;
	const char *key = quote_literal_cstr(set->key);
	char	   *cols = "NULL";

	if (set->constraint_cols != NIL)
	{
		StringInfoData arr;
		ListCell   *lc;

		initStringInfo(&arr);
		appendStringInfoString(&arr, "ARRAY[");
		foreach(lc, set->constraint_cols)
			appendStringInfo(&arr, "%s%s", foreach_current_index(lc) > 0 ?
							 ", " : "",
							 quote_literal_cstr((char *) lfirst(lc)));
		appendStringInfoString(&arr, "]::text[]");
		cols = arr.data;
	}
	initStringInfo(&sql);
	appendStringInfo(&sql,
					 "SELECT partmgr.create_parent(\n"
					 "\tp_parent_table := %s,\n"
					 "\tp_control := %s,\n"
					 "\tp_interval := %s,\n"
					 "\tp_type := %s,\n"
					 "\tp_epoch := %s,\n"
					 "\tp_premake := %d,\n"
					 "\tp_default_table := %s,\n"
					 "\tp_automatic_maintenance := %s,\n"
					 "\tp_constraint_cols := %s,\n"
					 "\tp_template_table := %s,\n"
					 "\tp_jobmon := %s,\n"
					 "\tp_date_trunc_interval := %s,\n"
					 "\tp_control_not_null := %s%s%s%s\n"
					 ");\n",
					 key, quote_literal_cstr(set->control),
					 quote_literal_cstr(set->interval_text),
					 set->strategy == PARTITION_STRATEGY_LIST ? "'list'" :
					 set->strategy == PARTITION_STRATEGY_HASH ? "'hash'" :
					 "'range'",
					 quote_literal_cstr(set->epoch ? set->epoch : "none"),
					 set->premake,
					 bool_word(set->default_table),
					 set->automatic_maintenance ? "'on'" : "'off'", cols,
					 ignore_template ? "NULL" :
					 literal_or_null(set->template_table),
					 bool_word(set->jobmon),
					 literal_or_null(set->date_trunc_interval),
					 bool_word(control_not_null),
					 set->time_encoder == NULL ? "" :
					 psprintf(",\n\tp_time_encoder := %s,\n\tp_time_decoder := %s",
							  quote_literal_cstr(set->time_encoder),
							  quote_literal_cstr(set->time_decoder)),
					 offset_id == 0 ? "" :
					 psprintf(",\n\tp_offset_id := " INT64_FORMAT, offset_id),
					 set->partition_timezone == NULL ? "" :
					 psprintf(",\n\tp_timezone := %s",
							  quote_literal_cstr(set->partition_timezone)));
	appendStringInfo(&sql,
					 "UPDATE partmgr.part_config SET\n"
					 "\toptimize_constraint = %d,\n"
					 "\tretention = %s,\n"
					 "\tretention_schema = %s,\n"
					 "\tretention_keep_index = %s,\n"
					 "\tretention_keep_table = %s,\n"
					 "\tinfinite_time_partitions = %s,\n"
					 "\tdatetime_string = %s,\n"
					 "\tsub_partition_set_full = %s,\n"
					 "\tinherit_privileges = %s,\n"
					 "\tconstraint_valid = %s,\n"
					 "\tignore_default_data = %s,\n"
					 "\tmaintenance_order = %s,\n"
					 "\tretention_keep_publication = %s,\n"
					 "\tpartition_timezone = %s\n"
					 "WHERE parent_table = %s;",
					 set->optimize_constraint, literal_or_null(set->retention),
					 literal_or_null(set->retention_schema),
					 bool_word(set->retention_keep_index),
					 bool_word(set->retention_keep_table),
					 bool_word(set->infinite_time_partitions),
					 literal_or_null(set->datetime_string),
					 bool_word(set->sub_partition_set_full),
					 bool_word(set->inherit_privileges),
					 bool_word(set->constraint_valid),
					 bool_word(set->ignore_default_data),
					 set->maintenance_order_isnull ? "NULL" :
					 psprintf("%d", set->maintenance_order),
					 bool_word(set->retention_keep_publication),
					 literal_or_null(set->partition_timezone), key);
	return sql.data;
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
partmgr_ddl_set_schema(const char *schema, const char *name,
					   const char *new_schema)
{
	return psprintf("ALTER TABLE %s SET SCHEMA %s",
					quote_qualified_identifier(schema, name),
					quote_identifier(new_schema));
}

/* ALTER TABLE ... SET SCHEMA leaves a table's statistics objects behind. */
char *
partmgr_ddl_statistics_set_schema(const char *schema, const char *name,
								  const char *new_schema)
{
	return psprintf("ALTER STATISTICS %s SET SCHEMA %s",
					quote_qualified_identifier(schema, name),
					quote_identifier(new_schema));
}

/*
 * key_range_condition
 *		"key >= lower AND key < upper" for a range of points; an open side
 *		(PARTMGR_POINT_MIN / _MAX) is left out; "true" when both are.
 */
static char *
key_range_condition(const PartmgrSet *set, PartmgrPoint lower,
					PartmgrPoint upper)
{
	const char *key = quote_identifier(set->control);
	StringInfoData buf;

	initStringInfo(&buf);
	if (lower != PARTMGR_POINT_MIN)
		appendStringInfo(&buf, "%s >= %s", key,
						 partmgr_point_literal(&set->axis, lower));
	if (upper != PARTMGR_POINT_MAX)
		appendStringInfo(&buf, "%s%s < %s", buf.len > 0 ? " AND " : "", key,
						 partmgr_point_literal(&set->axis, upper));
	if (buf.len == 0)
		appendStringInfoString(&buf, "true");
	return buf.data;
}

static char *
column_list(List *columns)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, columns)
		appendStringInfo(&buf, "%s%s", buf.len > 0 ? ", " : "",
						 quote_identifier((char *) lfirst(lc)));
	return buf.data;
}

/*
 * insert_select
 *		"INSERT INTO target (columns) OVERRIDING SYSTEM VALUE SELECT values"
 *		for rows that travel from a source: its columns, then its computed
 *		columns with their expressions.
 */
static char *
insert_select(const PartmgrRowSource *from, const char *to_schema,
			  const char *to_name)
{
	char	   *cols = column_list(from->columns);
	char	   *target_cols = cols;
	char	   *values = cols;
	ListCell   *name;
	ListCell   *expr;

	forboth(name, from->computed, expr, from->computed_exprs)
	{
		target_cols = psprintf("%s, %s", target_cols,
							   quote_identifier((char *) lfirst(name)));
		values = psprintf("%s, %s", values, (char *) lfirst(expr));
	}
	return psprintf("INSERT INTO %s (%s) OVERRIDING SYSTEM VALUE SELECT %s",
					quote_qualified_identifier(to_schema, to_name),
					target_cols, values);
}

/*
 * partmgr_dml_move_rows
 *		Move the rows of one table whose keys lie in [lower, upper) into
 *		another in a single statement: the rows leave the source and arrive
 *		in the target in the same snapshot, so nobody sees them twice or not
 *		at all.  Values travel as they are, identities too; the source's
 *		computed columns get their expressions.  It returns one row: how
 *		many rows left the source and how many the target took (a trigger
 *		on the target may take fewer), for the executor to compare.
 */
char *
partmgr_dml_move_rows(const PartmgrSet *set, const PartmgrRowSource *from,
					  const char *to_schema, const char *to_name,
					  PartmgrPoint lower, PartmgrPoint upper)
{
	return psprintf("WITH moved AS (DELETE FROM %s WHERE %s RETURNING %s),"
					" placed AS (%s FROM moved RETURNING 1)"
					" SELECT (SELECT pg_catalog.count(*) FROM moved),"
					" (SELECT pg_catalog.count(*) FROM placed)",
					only_rel(from->schema, from->name),
					key_range_condition(set, lower, upper),
					column_list(from->columns),
					insert_select(from, to_schema, to_name));
}

/*
 * partmgr_ddl_copy_rows, partmgr_dml_delete_rows
 *		The same move in two statements, for a source locked in ACCESS
 *		EXCLUSIVE mode (nothing can change it between them): cheaper than
 *		passing every row through the CTE.
 */
char *
partmgr_ddl_copy_rows(const PartmgrSet *set, const PartmgrRowSource *from,
					  const char *to_schema, const char *to_name,
					  PartmgrPoint lower, PartmgrPoint upper)
{
	return psprintf("%s FROM %s WHERE %s",
					insert_select(from, to_schema, to_name),
					only_rel(from->schema, from->name),
					key_range_condition(set, lower, upper));
}

char *
partmgr_dml_delete_rows(const PartmgrSet *set, const char *schema,
						const char *name,
						PartmgrPoint lower, PartmgrPoint upper)
{
	return psprintf("DELETE FROM %s WHERE %s", only_rel(schema, name),
					key_range_condition(set, lower, upper));
}

/*
 * partmgr_query_count_range
 *		How many rows of one table (ONLY) have keys in [lower, upper), counting
 *		no further than limit + 1.
 */
char *
partmgr_query_count_range(const PartmgrSet *set, const char *schema,
						  const char *name,
						  PartmgrPoint lower, PartmgrPoint upper, int64 limit)
{
	return psprintf("SELECT count(*) FROM (SELECT 1 FROM %s WHERE %s LIMIT "
					INT64_FORMAT ") AS found",
					only_rel(schema, name),
					key_range_condition(set, lower, upper), limit + 1);
}

/*
 * partmgr_query_count_in
 *		How many rows of a table and of the tables below it have keys in
 *		[lower, upper): an archive's, whose children take them.
 */
char *
partmgr_query_count_in(const PartmgrSet *set, const char *schema,
					   const char *name, PartmgrPoint lower,
					   PartmgrPoint upper)
{
	return psprintf("SELECT pg_catalog.count(*) FROM %s WHERE %s",
					quote_qualified_identifier(schema, name),
					key_range_condition(set, lower, upper));
}

/*
 * partmgr_ddl_add_bound_check, partmgr_ddl_drop_bound_check
 *		A CHECK constraint that says what the partition bound will say, added
 *		to a new child before rows are loaded into it, so that attaching it
 *		needs no scan; dropped once the child is attached.
 */
char *
partmgr_ddl_add_bound_check(const PartmgrSet *set, const char *schema,
							const char *name,
							PartmgrPoint lower, PartmgrPoint upper)
{
	return psprintf("ALTER TABLE %s ADD CONSTRAINT %s CHECK (%s)",
					quote_qualified_identifier(schema, name),
					PARTMGR_BOUND_CHECK,
					partmgr_bound_check_expr(set, lower, upper));
}

/*
 * partmgr_bound_check_expr
 *		The expression of that CHECK constraint.
 */
char *
partmgr_bound_check_expr(const PartmgrSet *set, PartmgrPoint lower,
						 PartmgrPoint upper)
{
	return psprintf("%s IS NOT NULL AND %s", quote_identifier(set->control),
					key_range_condition(set, lower, upper));
}

char *
partmgr_ddl_drop_bound_check(const char *schema, const char *name)
{
	return partmgr_ddl_drop_constraint(schema, name, PARTMGR_BOUND_CHECK);
}

/*
 * partmgr_ddl_min_control
 *		The smallest (or, descending, the largest) key of one table.
 */
/*
 * partmgr_ddl_add_range_exclusion, partmgr_ddl_drop_range_exclusion
 *		A CHECK on the default partition that says it holds no key in
 *		[lower, upper), added (and validated, one scan) once rows of that
 *		range have left it: attaching children inside the range then needs no
 *		scan of the default partition each.  Dropped afterwards.
 */
static char *
range_exclusion(const PartmgrSet *set, const char *schema, const char *name,
				const char *constraint, PartmgrPoint lower, PartmgrPoint upper)
{
	const char *key = quote_identifier(set->control);
	char	   *below = psprintf("%s < %s", key,
								 partmgr_point_literal(&set->axis, lower));
	char	   *above = psprintf("%s >= %s", key,
								 partmgr_point_literal(&set->axis, upper));

	return psprintf("ALTER TABLE %s ADD CONSTRAINT %s CHECK (%s)",
					quote_qualified_identifier(schema, name),
					quote_identifier(constraint),
					lower == PARTMGR_POINT_MIN ? above :
					upper == PARTMGR_POINT_MAX ? below :
					psprintf("%s OR %s", below, above));
}

char *
partmgr_ddl_add_range_exclusion(const PartmgrSet *set, const char *schema,
								const char *name, PartmgrPoint lower,
								PartmgrPoint upper)
{
	return range_exclusion(set, schema, name, PARTMGR_MOVED_CHECK, lower,
						   upper);
}

char *
partmgr_ddl_drop_range_exclusion(const char *schema, const char *name)
{
	return partmgr_ddl_drop_constraint(schema, name, PARTMGR_MOVED_CHECK);
}

/*
 * partmgr_ddl_key_time
 *		The timestamptz an epoch or encoded control column stands for, as
 *		SQL (epoch nanoseconds floored to the microsecond; an encoded value
 *		through the set's decoder).
 */
char *
partmgr_ddl_key_time(const PartmgrSet *set)
{
	const char *key = quote_identifier(set->control);

	if (OidIsValid(set->axis.decoder))
		return psprintf("%s(%s::text)",
						quote_qualified_identifier(get_namespace_name(get_func_namespace(set->axis.decoder)),
												   get_func_name(set->axis.decoder)),
						key);
	switch (set->axis.epoch_unit)
	{
		case 1:
			return psprintf("(timestamptz 'epoch' + %s * interval '1 second')",
							key);
		case 1000:
			return psprintf("(timestamptz 'epoch' + %s * interval '1 millisecond')", key);
		case 1000000:
			return psprintf("(timestamptz 'epoch' + %s * interval '1 microsecond')", key);
		default:
			return psprintf("(timestamptz 'epoch' + floor(%s / 1000.0) * interval '1 microsecond')",
							key);
	}
}

/*
 * partmgr_ddl_min_control
 *		The smallest (descending: largest) key of one table (ONLY); with
 *		finite_only, of its rows whose key is not infinite
 *		(partmgr_ddl_finite_key).
 */
char *
partmgr_ddl_min_control(const PartmgrSet *set, const char *schema,
						const char *name,
						bool descending, bool finite_only)
{
	const char *finite = finite_only ? partmgr_ddl_finite_key(set) : NULL;

	if (finite == NULL)
		return extreme_key(set, descending, only_rel(schema, name));
	return extreme_key(set, descending,
					   psprintf("(SELECT %s FROM %s WHERE %s) AS keys",
								quote_identifier(set->control),
								only_rel(schema, name),
								finite));
}

/*
 * partmgr_dml_forget_sets
 *		The DELETE of the part_config rows of the given sets, as plans and
 *		the log show it (partmgr_config_forget runs it with the keys as a
 *		parameter).
 */
char *
partmgr_dml_forget_sets(List *keys)
{
	StringInfoData sql;
	ListCell   *lc;

	initStringInfo(&sql);
	appendStringInfoString(&sql,
						   "DELETE FROM partmgr.part_config WHERE"
						   " parent_table IN (");
	foreach(lc, keys)
		appendStringInfo(&sql, "%s%s", foreach_current_index(lc) > 0 ? ", " :
						 "",
						 quote_literal_cstr((char *) lfirst(lc)));
	appendStringInfoChar(&sql, ')');
	return sql.data;
}

/*
 * partmgr_ddl_create_sub_parent
 *		CREATE TABLE for a new child that is partitioned in turn: the
 *		parent's shape, PARTITION BY RANGE or LIST on the sub-set's control
 *		column.  No storage parameters: a partitioned table has no storage.
 */
char *
partmgr_ddl_create_sub_parent(const PartmgrSet *set, const char *tablespace,
							  const char *schema, const char *name,
							  const char *type, const char *control)
{
	return create_like(set, false, NIL, tablespace, schema, name,
					   psprintf("%s (%s)", strcmp(type, "list") == 0 ? "LIST" :
								"RANGE",
								quote_identifier(control)));
}

/*
 * partmgr_query_describe_sub_set
 *		How a new sub-parent is registered, for plans and the log: the
 *		create_parent() call its part_config_sub row amounts to.
 */
char *
partmgr_query_describe_sub_set(const char *schema, const char *name,
							   const char *control,
							   const char *interval, const char *type)
{
	return psprintf("SELECT partmgr.create_parent(p_parent_table := %s,"
					" p_control := %s,"
					" p_interval := %s, p_type := %s) -- as"
					" partmgr.part_config_sub says",
					quote_literal_cstr(quote_qualified_identifier(schema,
																  name)),
					quote_literal_cstr(control), quote_literal_cstr(interval),
					quote_literal_cstr(type));
}

/* ALTER TABLE ... RENAME TO */
char *
partmgr_ddl_rename_table(const char *schema, const char *name,
						 const char *new_name)
{
	return psprintf("ALTER TABLE %s RENAME TO %s",
					quote_qualified_identifier(schema, name),
					quote_identifier(new_name));
}

/*
 * partmgr_ddl_min_control_in
 *		The smallest (descending: largest) key of one table within [lower,
 *		upper), as partmgr_ddl_min_control.
 */
char *
partmgr_ddl_min_control_in(const PartmgrSet *set, const char *schema,
						   const char *name,
						   bool descending, PartmgrPoint lower,
						   PartmgrPoint upper)
{
	return extreme_key(set, descending,
					   psprintf("(SELECT %s FROM %s WHERE %s) AS keys",
								quote_identifier(set->control),
								only_rel(schema, name),
								key_range_condition(set, lower, upper)));
}

/*
 * partmgr_ddl_unique_side_table
 *		CREATE TABLE of a global unique constraint's side table: the key
 *		columns (types, modifiers and collations of the set's) NOT NULL,
 *		then the child holding each key.
 */
char *
partmgr_ddl_unique_side_table(const char *schema, const char *name, int ncols,
							  char **columns, const Oid *types,
							  const int32 *typmods,
							  const Oid *collations)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfo(&buf, "CREATE TABLE %s (",
					 quote_qualified_identifier(schema, name));
	for (int i = 0; i < ncols; i++)
	{
		appendStringInfo(&buf, "%s %s", quote_identifier(columns[i]),
						 format_type_extended(types[i], typmods[i],
											  FORMAT_TYPE_TYPEMOD_GIVEN |
											  FORMAT_TYPE_FORCE_QUALIFY));
		if (OidIsValid(collations[i]) &&
			collations[i] != get_typcollation(types[i]))
			appendStringInfo(&buf, " COLLATE %s",
							 generate_collation_name(collations[i]));
		appendStringInfoString(&buf, " NOT NULL, ");
	}
	appendStringInfoString(&buf, "child pg_catalog.regclass NOT NULL)");
	return buf.data;
}

/*
 * ALTER TABLE ... ADD CONSTRAINT <name>_key UNIQUE (key columns) of a side
 * table
 */
char *
partmgr_ddl_unique_key(const char *schema, const char *table, const char *name,
					   int ncols,
					   char **columns)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfo(&buf, "ALTER TABLE %s ADD CONSTRAINT %s UNIQUE (",
					 quote_qualified_identifier(schema, table),
					 quote_identifier(psprintf("%s_key", name)));
	for (int i = 0; i < ncols; i++)
		appendStringInfo(&buf, "%s%s", i > 0 ? ", " : "",
						 quote_identifier(columns[i]));
	appendStringInfoChar(&buf, ')');
	return buf.data;
}

/* CREATE INDEX <name>_child ON the side table (child) */
char *
partmgr_ddl_unique_child_index(const char *schema, const char *name)
{
	return psprintf("CREATE INDEX %s ON %s (child)",
					quote_identifier(psprintf("%s_child", name)),
					quote_qualified_identifier(schema, name));
}

/*
 * The statements on a global unique constraint's side table (state/unique.c):
 * columns are the key columns, ops the equality operator of each, as SQL
 * ("OPERATOR(pg_catalog.=)"), the side table and a table of the set ("from",
 * aliased k; the side table is s) named by schema and name.  Keys are
 * matched with the operators the side table's unique index uses.
 */

/* The key columns, each after prefix ("k." or ""), each followed by ", " */
static char *
key_columns(int ncols, char **columns, const char *prefix)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < ncols; i++)
		appendStringInfo(&buf, "%s%s, ", prefix, quote_identifier(columns[i]));
	return buf.data;
}

/* "s.<col> <op> k.<col> AND " for each key column */
static char *
keys_match(int ncols, char **columns, char **ops)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < ncols; i++)
	{
		const char *c = quote_identifier(columns[i]);

		appendStringInfo(&buf, "s.%s %s k.%s AND ", c, ops[i], c);
	}
	return buf.data;
}

/* "k.<col> IS NOT NULL AND " for each key column */
static char *
keys_not_null(int ncols, char **columns)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < ncols; i++)
		appendStringInfo(&buf, "k.%s IS NOT NULL AND ",
						 quote_identifier(columns[i]));
	return buf.data;
}

/* INSERT of one entry: the keys $1..$n, the child $n+1 */
char *
partmgr_dml_side_insert(const char *schema, const char *name, int ncols,
						char **columns)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfo(&buf, "INSERT INTO %s (%schild) VALUES (",
					 quote_qualified_identifier(schema, name),
					 key_columns(ncols, columns, ""));
	for (int i = 0; i <= ncols; i++)
		appendStringInfo(&buf, "%s$%d", i > 0 ? ", " : "", i + 1);
	appendStringInfoChar(&buf, ')');
	return buf.data;
}

/* DELETE of one entry: the keys $1..$n of the child $n+1 */
char *
partmgr_dml_side_delete_key(const char *schema, const char *name, int ncols,
							char **columns,
							char **ops)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfo(&buf, "DELETE FROM %s WHERE ",
					 quote_qualified_identifier(schema, name));
	for (int i = 0; i < ncols; i++)
		appendStringInfo(&buf, "%s %s $%d AND ", quote_identifier(columns[i]),
						 ops[i], i + 1);
	appendStringInfo(&buf, "child OPERATOR(pg_catalog.=) $%d", ncols + 1);
	return buf.data;
}

/* DELETE of the entry at ctid $1 */
char *
partmgr_dml_side_delete_tid(const char *schema, const char *name)
{
	return psprintf("DELETE FROM %s WHERE ctid OPERATOR(pg_catalog.=) $1",
					quote_qualified_identifier(schema, name));
}

/* DELETE of the entries of the children $1 (regclass[]) */
char *
partmgr_dml_side_delete_children(const char *schema, const char *name)
{
	return psprintf("DELETE FROM %s WHERE child OPERATOR(pg_catalog.=) ANY ($1)",
					quote_qualified_identifier(schema, name));
}

/*
 * DELETE of the entries the keys of from meet that name no child of $1
 * (regclass[]: the leaves in the set): stale ones, of children gone
 */
char *
partmgr_dml_side_delete_met(const char *schema, const char *name,
							const char *from_schema,
							const char *from_name, int ncols, char **columns,
							char **ops)
{
	return psprintf("DELETE FROM %s s USING %s k WHERE %s"
					"s.child OPERATOR(pg_catalog.<>) ALL ($1)",
					quote_qualified_identifier(schema, name),
					quote_qualified_identifier(from_schema, from_name),
					keys_match(ncols, columns, ops));
}

/* INSERT of an entry for every row of from whose keys are not NULL */
char *
partmgr_dml_side_fill(const char *schema, const char *name,
					  const char *from_schema,
					  const char *from_name, int ncols, char **columns)
{
	return psprintf("INSERT INTO %s (%schild) SELECT"
					" %sk.tableoid::pg_catalog.regclass "
					"FROM %s k WHERE %strue",
					quote_qualified_identifier(schema, name),
					key_columns(ncols, columns, ""),
					key_columns(ncols, columns, "k."),
					quote_qualified_identifier(from_schema, from_name),
					keys_not_null(ncols, columns));
}

/*
 * Up to five keys held twice, each with two tables holding it: within
 * from, and with attach between from and the side table's entries
 */
char *
partmgr_query_side_duplicates(const char *schema, const char *name,
							  const char *from_schema,
							  const char *from_name, int ncols, char **columns,
							  char **ops,
							  bool attach)
{
	const char *from = quote_qualified_identifier(from_schema, from_name);
	char	   *keycols = key_columns(ncols, columns, "k.");
	StringInfoData sql;

	/* ROW(k.a, k.b): the list without its last ", " */
	keycols[strlen(keycols) - 2] = '\0';
	initStringInfo(&sql);
	appendStringInfo(&sql,
					 "SELECT ROW(%s)::pg_catalog.text, "
					 "pg_catalog.min(k.tableoid::pg_catalog.regclass::pg_catalog.text), "
					 "pg_catalog.max(k.tableoid::pg_catalog.regclass::pg_catalog.text) "
					 "FROM %s k WHERE %strue GROUP BY %s "
					 "HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>) 1",
					 keycols, from, keys_not_null(ncols, columns), keycols);
	if (attach)
		appendStringInfo(&sql,
						 " UNION ALL SELECT ROW(%s)::pg_catalog.text, "
						 "s.child::pg_catalog.text,"
						 " k.tableoid::pg_catalog.regclass::pg_catalog.text "
						 "FROM %s k JOIN %s s ON %strue",
						 keycols, from,
						 quote_qualified_identifier(schema, name),
						 keys_match(ncols, columns, ops));
	appendStringInfoString(&sql, " LIMIT 5");
	return sql.data;
}

/*
 * The children the side table's entries name, each once (a skip scan of its
 * child index)
 */
char *
partmgr_query_side_children(const char *schema, const char *name)
{
	const char *side = quote_qualified_identifier(schema, name);

	return psprintf("WITH RECURSIVE c(child) AS ("
					"(SELECT s.child FROM %s s ORDER BY s.child LIMIT 1) "
					"UNION ALL SELECT (SELECT s.child FROM %s s "
					"WHERE s.child OPERATOR(pg_catalog.>) c.child "
					"ORDER BY s.child LIMIT 1) FROM c WHERE c.child IS NOT"
					" NULL) "
					"SELECT c.child::pg_catalog.oid FROM c WHERE c.child IS"
					" NOT NULL",
					side, side);
}

/* How many entries name the child $1 (regclass) */
char *
partmgr_query_side_child_entries(const char *schema, const char *name)
{
	return psprintf("SELECT pg_catalog.count(*) FROM %s WHERE child"
					" OPERATOR(pg_catalog.=) $1",
					quote_qualified_identifier(schema, name));
}

/*
 * The statements import_partman_config runs on an installed pg_partman's
 * configuration, in schema: one set's row ($1: its parent_table) as JSON
 * with the columns read apart; its part_config_sub row; turning its
 * automatic maintenance off; the sets, all or one ($1).
 */
char *
partmgr_query_partman_set(const char *schema)
{
	return psprintf("SELECT to_jsonb(c)::text, c.partition_type,"
					"       to_jsonb(c)->>'time_encoder', c.template_table,"
					"       to_jsonb(c)->>'time_decoder'"
					"  FROM %s.part_config c WHERE c.parent_table = $1",
					quote_identifier(schema));
}

char *
partmgr_query_partman_sub_set(const char *schema)
{
	return psprintf("SELECT to_jsonb(s)::text, s.sub_partition_type"
					"  FROM %s.part_config_sub s WHERE s.sub_parent = $1",
					quote_identifier(schema));
}

char *
partmgr_dml_partman_maintenance_off(const char *schema)
{
	return psprintf("UPDATE %s.part_config SET automatic_maintenance = 'off'"
					" WHERE parent_table = $1", quote_identifier(schema));
}

char *
partmgr_query_partman_sets(const char *schema, bool one)
{
	return psprintf(one ?
					"SELECT parent_table FROM %s.part_config WHERE"
					" parent_table = $1" :
					"SELECT parent_table FROM %s.part_config ORDER BY"
					" parent_table",
					quote_identifier(schema));
}

/* How many changes wait in a reshape's change log, counting to limit */
char *
partmgr_query_log_backlog(const char *schema, const char *log, int64 limit)
{
	return psprintf("SELECT count(*) FROM (SELECT 1 FROM ONLY %s LIMIT "
					INT64_FORMAT
					") AS pending",
					quote_qualified_identifier(schema, log), limit);
}

/*
 * Whether a change log holds a row whose flag column is true: one row or none
 */
char *
partmgr_query_log_flagged(const char *schema, const char *log,
						  const char *column)
{
	return psprintf("SELECT 1 FROM ONLY %s WHERE %s LIMIT 1",
					quote_qualified_identifier(schema, log), column);
}

/* ALTER <kind> ... RENAME TO: an index or statistics object a reshape made */
char *
partmgr_ddl_rename(const char *kind, const char *schema, const char *name,
				   const char *new_name)
{
	return psprintf("ALTER %s %s RENAME TO %s", kind,
					quote_qualified_identifier(schema, name),
					quote_identifier(new_name));
}

/*
 * trigger_args
 *		The arguments of a trigger of ours that names a table of its own (a
 *		global unique constraint's side table, a reshape's change log) and
 *		key columns: schema, table, then each column, as literals.
 */
static char *
trigger_args(const char *side_schema, const char *name, int ncols,
			 char **columns)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfo(&buf, "%s, %s", quote_literal_cstr(side_schema),
					 quote_literal_cstr(name));
	for (int i = 0; i < ncols; i++)
		appendStringInfo(&buf, ", %s", quote_literal_cstr(columns[i]));
	return buf.data;
}

/*
 * partmgr_ddl_unique_row_trigger
 *		The row trigger of a global unique constraint on the set's top
 *		parent, which PostgreSQL clones to every child.
 */
char *
partmgr_ddl_unique_row_trigger(const char *schema, const char *table,
							   const char *name,
							   const char *side_schema, int ncols,
							   char **columns)
{
	return psprintf("CREATE TRIGGER %s AFTER INSERT OR UPDATE OR DELETE ON %s"
					" FOR EACH ROW "
					"EXECUTE FUNCTION partmgr.global_unique_row(%s)",
					quote_identifier(name),
					quote_qualified_identifier(schema, table),
					trigger_args(side_schema, name, ncols, columns));
}

/*
 * partmgr_ddl_unique_truncate_trigger
 *		The TRUNCATE trigger of a global unique constraint on one leaf.
 */
char *
partmgr_ddl_unique_truncate_trigger(const char *schema, const char *table,
									const char *name,
									const char *side_schema, int ncols,
									char **columns)
{
	return psprintf("CREATE TRIGGER %s AFTER TRUNCATE ON %s FOR EACH STATEMENT "
					"EXECUTE FUNCTION partmgr.global_unique_truncate(%s)",
					quote_identifier(psprintf("%s_truncate", name)),
					quote_qualified_identifier(schema, table),
					trigger_args(side_schema, name, ncols, columns));
}

/* DROP TRIGGER [IF EXISTS] ... ON ... */
char *
partmgr_ddl_drop_trigger(const char *schema, const char *table,
						 const char *trigger,
						 bool if_exists)
{
	return psprintf("DROP TRIGGER %s%s ON %s", if_exists ? "IF EXISTS " : "",
					quote_identifier(trigger),
					quote_qualified_identifier(schema, table));
}

/*
 * partmgr_dml_unique_forget
 *		DELETE of the entries of some tables (by OID) from a global unique
 *		constraint's side table.
 */
char *
partmgr_dml_unique_forget(const char *side_schema, const char *side_name,
						  List *tables)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	appendStringInfo(&buf,
					 "DELETE FROM %s WHERE child OPERATOR(pg_catalog.=) ANY ('{",
					 quote_qualified_identifier(side_schema, side_name));
	foreach(lc, tables)
		appendStringInfo(&buf, "%s%u", lc == list_head(tables) ? "" : ",",
						 lfirst_oid(lc));
	appendStringInfoString(&buf, "}'::pg_catalog.regclass[])");
	return buf.data;
}

/*
 * partmgr_dml_unique_cleanup
 *		DELETE of at most limit entries of one table (by OID) from a global
 *		unique constraint's side table, found through its child index.
 */
char *
partmgr_dml_unique_cleanup(const char *side_schema, const char *side_name,
						   Oid child,
						   int64 limit)
{
	const char *side = quote_qualified_identifier(side_schema, side_name);

	return psprintf("DELETE FROM %s WHERE ctid OPERATOR(pg_catalog.=) ANY"
					" (ARRAY("
					"SELECT ctid FROM %s WHERE child OPERATOR(pg_catalog.=)"
					" '%u'::pg_catalog.regclass "
					"LIMIT " INT64_FORMAT "))", side, side, child, limit);
}

/*
 * partmgr_query_dump_global_unique
 *		The create_global_unique() call that makes a constraint again, for
 *		dump_partitioned_table_definition.
 */
char *
partmgr_query_dump_global_unique(const char *schema, const char *table,
								 const char *name,
								 int ncols, char **columns)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfo(&buf,
					 "SELECT partmgr.create_global_unique(p_parent_table :="
					 " %s, p_columns := ARRAY[",
					 quote_literal_cstr(quote_qualified_identifier(schema,
																   table)));
	for (int i = 0; i < ncols; i++)
		appendStringInfo(&buf, "%s%s", i > 0 ? ", " : "",
						 quote_literal_cstr(columns[i]));
	appendStringInfo(&buf, "], p_name := %s);", quote_literal_cstr(name));
	return buf.data;
}

/*
 * partmgr_ddl_dump_eras
 *		The part_config_interval rows of a set whose interval changed, as
 *		INSERTs for dump_partitioned_table_definition (after the
 *		create_parent() call that registers the set with its current
 *		interval); NULL for a set whose interval never changed.
 */
char *
partmgr_ddl_dump_eras(const PartmgrSet *set)
{
	StringInfoData buf;

	if (set->neras <= 1)
		return NULL;
	initStringInfo(&buf);
	for (int i = 0; i < set->neras - 1; i++)
	{
		const PartmgrEra *era = &set->eras[i];

		appendStringInfo(&buf, "%sINSERT INTO partmgr.part_config_interval"
						 " (parent_table, interval_end, partition_interval, datetime_string,"
						 " date_trunc_interval, next_aligned)\nVALUES (%s, %s, %s, %s, %s, %s)"
						 " ON CONFLICT DO NOTHING;",
						 i > 0 ? "\n" : "", quote_literal_cstr(set->key),
						 quote_literal_cstr(era->end_text),
						 quote_literal_cstr(era->interval_text),
						 literal_or_null(era->datetime_string),
						 literal_or_null(era->date_trunc_interval),
						 bool_word(era->next_aligned));
	}
	return buf.data;
}

/*
 * partmgr_ddl_dump_tier
 *		A tier of a set as an INSERT for dump_partitioned_table_definition.
 */
char *
partmgr_ddl_dump_tier(const char *key, const char *name,
					  const char *older_than, const char *tablespace)
{
	return psprintf("INSERT INTO partmgr.part_config_tier"
					" (parent_table, tier_name, older_than, tablespace_name)\n"
					"VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING;",
					quote_literal_cstr(key), quote_literal_cstr(name),
					quote_literal_cstr(older_than),
					quote_literal_cstr(tablespace));
}

/*
 * partmgr_ddl_dump_archive
 *		The archive of a set as an INSERT for
 *		dump_partitioned_table_definition (the archive is registered first).
 */
char *
partmgr_ddl_dump_archive(const char *key, const char *archive)
{
	return psprintf("INSERT INTO partmgr.part_config_archive"
					" (parent_table, archive_table)\n"
					"VALUES (%s, %s) ON CONFLICT DO NOTHING;",
					quote_literal_cstr(key), quote_literal_cstr(archive));
}

/* ----------------------------------------------------------------
 * Reshapes (reshape.c): a change log, change capture, copying rows into
 * the new children, replaying captured changes
 * ----------------------------------------------------------------
 */

/*
 * partmgr_ddl_attach_hash_to
 *		ALTER TABLE into ATTACH PARTITION child FOR VALUES WITH (MODULUS m,
 *		REMAINDER r).
 */
char *
partmgr_ddl_attach_hash_to(const char *into_schema, const char *into_name,
						   const char *schema, const char *name, int modulus,
						   int remainder)
{
	return psprintf("ALTER TABLE %s ATTACH PARTITION %s FOR VALUES WITH"
					" (MODULUS %d, REMAINDER %d)",
					quote_qualified_identifier(into_schema, into_name),
					quote_qualified_identifier(schema, name), modulus,
					remainder);
}

/*
 * partmgr_ddl_capture_log
 *		CREATE TABLE of a reshape's change log: the key columns (names and
 *		types, with typmod and collation, as given), then the claimed and
 *		truncated flags (capture.h).  A heap table with no index: it is
 *		written row by row and read whole.
 */
char *
partmgr_ddl_capture_log(const char *schema, const char *name, int nkeys,
						char **columns,
						char **types)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfo(&buf, "CREATE TABLE %s (",
					 quote_qualified_identifier(schema, name));
	for (int i = 0; i < nkeys; i++)
		appendStringInfo(&buf, "%s %s, ", quote_identifier(columns[i]),
						 types[i]);
	appendStringInfo(&buf,
					 "%s boolean NOT NULL DEFAULT false, %s boolean NOT NULL"
					 " DEFAULT false)"
					 " USING heap",
					 PARTMGR_CAPTURE_CLAIMED_COLUMN,
					 PARTMGR_CAPTURE_TRUNCATED_COLUMN);
	return buf.data;
}

/*
 * partmgr_ddl_capture_triggers
 *		The change capture on one old child: the row trigger and the
 *		TRUNCATE trigger (both named trigger, the second with "_truncate"),
 *		each enabled ALWAYS, so that changes applied by logical replication
 *		are captured too.  A list of four statements.
 */
List *
partmgr_ddl_capture_triggers(const char *schema, const char *table,
							 const char *trigger,
							 const char *log_schema, const char *log_name,
							 int nkeys,
							 char **columns)
{
	const char *rel = quote_qualified_identifier(schema, table);
	const char *args = trigger_args(log_schema, log_name, nkeys, columns);
	const char *truncate = psprintf("%s_truncate", trigger);

	return list_make4(psprintf("CREATE TRIGGER %s AFTER INSERT OR UPDATE OR"
							   " DELETE ON %s"
							   " FOR EACH ROW EXECUTE FUNCTION"
							   " partmgr.reshape_capture(%s)",
							   quote_identifier(trigger), rel, args),
					  psprintf("CREATE TRIGGER %s AFTER TRUNCATE ON %s"
							   " FOR EACH STATEMENT EXECUTE FUNCTION"
							   " partmgr.reshape_capture(%s)",
							   quote_identifier(truncate), rel, args),
					  psprintf("ALTER TABLE %s ENABLE ALWAYS TRIGGER %s", rel,
							   quote_identifier(trigger)),
					  psprintf("ALTER TABLE %s ENABLE ALWAYS TRIGGER %s", rel,
							   quote_identifier(truncate)));
}

/*
 * partmgr_ddl_reshape_copy
 *		Copy the rows of blocks [first, end) of an old child into the new
 *		children, through the staging table that routes them: a TID range
 *		scan, so that batches follow the table's storage.  With
 *		skip_existing, a row already there (copied before it was updated
 *		onto a later block) is left alone: the change log names it, and the
 *		replay brings it up to date.  Without, such a row fails the
 *		statement, which is cheaper when none is met (the usual case).
 */
char *
partmgr_ddl_reshape_copy(const PartmgrRowSource *from, const char *stage_schema,
						 const char *stage_name, int64 first, int64 end,
						 bool skip_existing)
{
	return psprintf("%s FROM %s WHERE ctid >= '(" INT64_FORMAT
					",0)'::pg_catalog.tid"
					" AND ctid < '(" INT64_FORMAT ",0)'::pg_catalog.tid%s",
					insert_select(from, stage_schema, stage_name),
					only_rel(from->schema, from->name), first, end,
					skip_existing ? " ON CONFLICT DO NOTHING" : "");
}

/* "a.k1 OPERATOR(s.=) b.k1 AND ..." over the key columns */
static char *
key_match(const char *a, const char *b, int nkeys, char **columns,
		  char **equals)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < nkeys; i++)
		appendStringInfo(&buf, "%s%s.%s %s %s.%s", i > 0 ? " AND " : "", a,
						 quote_identifier(columns[i]), equals[i], b,
						 quote_identifier(columns[i]));
	return buf.data;
}

/*
 * partmgr_dml_reshape_claim, _unset, _fetch, _forget
 *		The four statements of a replay of captured changes, run in one
 *		transaction: claim the keys logged so far (not a TRUNCATE's mark,
 *		which the reshape answers by copying again), remove the rows of
 *		those keys from the new children, copy them again from an old child
 *		as they are now (for each old child), forget the claimed keys.  The
 *		claim pins the keys the other statements work on, whatever is logged
 *		meanwhile; a row changed after the copy is read is logged again and
 *		replayed next time.
 */
char *
partmgr_dml_reshape_claim(const char *log_schema, const char *log_name)
{
	return psprintf("UPDATE ONLY %s SET %s = true WHERE NOT %s AND NOT %s",
					quote_qualified_identifier(log_schema, log_name),
					PARTMGR_CAPTURE_CLAIMED_COLUMN,
					PARTMGR_CAPTURE_CLAIMED_COLUMN,
					PARTMGR_CAPTURE_TRUNCATED_COLUMN);
}

char *
partmgr_dml_reshape_unset(const char *stage_schema, const char *stage_name,
						  const char *log_schema, const char *log_name,
						  int nkeys,
						  char **columns, char **equals)
{
	return psprintf("DELETE FROM %s t USING ONLY %s l WHERE l.%s AND %s",
					quote_qualified_identifier(stage_schema, stage_name),
					quote_qualified_identifier(log_schema, log_name),
					PARTMGR_CAPTURE_CLAIMED_COLUMN,
					key_match("t", "l", nkeys, columns, equals));
}

char *
partmgr_ddl_reshape_fetch(const PartmgrRowSource *from,
						  const char *stage_schema,
						  const char *stage_name, const char *log_schema,
						  const char *log_name, int nkeys, char **columns,
						  char **equals)
{
	return psprintf("%s FROM %s s WHERE EXISTS (SELECT FROM ONLY %s l WHERE"
					" l.%s AND %s)",
					insert_select(from, stage_schema, stage_name),
					only_rel(from->schema, from->name),
					quote_qualified_identifier(log_schema, log_name),
					PARTMGR_CAPTURE_CLAIMED_COLUMN,
					key_match("s", "l", nkeys, columns, equals));
}

char *
partmgr_dml_reshape_forget(const char *log_schema, const char *log_name)
{
	return psprintf("DELETE FROM ONLY %s WHERE %s",
					quote_qualified_identifier(log_schema, log_name),
					PARTMGR_CAPTURE_CLAIMED_COLUMN);
}

/*
 * partmgr_dml_reshape_restart
 *		After a TRUNCATE of an old child: empty the new children (through
 *		the staging table) and the change log, for the copy to start again.
 */
List *
partmgr_dml_reshape_restart(const char *stage_schema, const char *stage_name,
							const char *log_schema, const char *log_name)
{
	return list_make2(psprintf("TRUNCATE %s",
							   quote_qualified_identifier(stage_schema,
														  stage_name)),
					  psprintf("DELETE FROM ONLY %s",
							   quote_qualified_identifier(log_schema,
														  log_name)));
}

/*
 * partmgr_ddl_add_range_exclusion_named
 *		The CHECK of partmgr_ddl_add_range_exclusion under another name,
 *		NOT VALID (validated by its own statement, which locks less).
 */
char *
partmgr_ddl_add_range_exclusion_named(const PartmgrSet *set, const char *schema,
									  const char *name, const char *constraint,
									  PartmgrPoint lower, PartmgrPoint upper)
{
	return psprintf("%s NOT VALID",
					range_exclusion(set, schema, name, constraint, lower,
									upper));
}
