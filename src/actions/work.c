/*-------------------------------------------------------------------------
 *
 * work.c
 *	  Work out an action of a plan: the locks it takes, in the order it
 *	  takes them, the statements it runs, and the tables they read in full.
 *
 * One function, partmgr_action_work, serves the executor and the dry run
 * (plan_maintenance): the executor takes each lock as it is listed --
 * conditionally and bounded (locks.c), in a fixed order: the parent, then
 * the default partition, then the child, then tables that reference it --
 * so that decisions that depend on the data (rows of a new child's range
 * in the default partition, rows to move) are made under the locks; the
 * dry run lists the same without taking them, but ACCESS SHARE where a
 * table's contents decide.  The statements come from statements.c and, for what
 * a new table gets, from the plan (the job filled it in).  Runs in the
 * caller's transaction, inside the scope of the set owner's rights.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/actions/work.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_constraint.h"
#include "commands/trigger.h"
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_rewrite.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "storage/proc.h"
#include "storage/sinvaladt.h"
#include "tcop/pquery.h"
#include "tcop/tcopprot.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/portal.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "bounds.h"
#include "capture.h"
#include "catalog.h"
#include "citus.h"
#include "compat.h"
#include "config.h"
#include "contents.h"
#include "statements.h"
#include "locks.h"
#include "rights.h"
#include "spi_util.h"
#include "unique.h"
#include "work.h"
#include "reshape_state.h"

/*
 * Working out an action.
 *
 * partmgr_action_work lists, from the catalogs (and for rows in the default
 * partition, the data) as they are now, the locks an action takes in the
 * order it takes them, the statements it runs in the order it runs them,
 * and the tables they read in full.  The executor takes each lock as it is
 * listed (so decisions that depend on the data are made under the locks)
 * and then runs exactly the listed statements; plan_maintenance() shows the
 * same lists without taking the locks.  That is why a dry run and a run
 * cannot disagree.
 */

/*
 * check_owner
 *		A table an action acts on -- the parent, a child, the default
 *		partition, a table rows move out of or into -- must be the set
 *		owner's or a superuser's: the action runs as the set's owner, so the
 *		triggers, defaults and index expressions of a table another role
 *		owns (ALTER TABLE ... OWNER TO by a superuser) would run with the
 *		set owner's rights.  42501 in a run, under the table's lock; a dry
 *		run notes it (work->refused).  health shows such children.
 */
static void
check_owner(PartmgrActionWork *work, Oid relid)
{
	Oid			owner;
	char	   *why;

	if (!OidIsValid(relid) || !OidIsValid(work->owner))
		return;
	owner = partmgr_foreign_owner(relid, work->owner);
	if (!OidIsValid(owner))
		return;
	why = psprintf("table %s is owned by role \"%s\", not by \"%s\", the owner of the set",
				   partmgr_key_display(partmgr_table_key(relid)),
				   GetUserNameFromId(owner, false),
				   GetUserNameFromId(work->owner, false));
	if (!work->take_locks)
	{
		if (work->refused == NULL)
			work->refused = why;
		return;
	}
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("%s", why),
			 errdetail("pg_partmgr acts on every table of a set with the rights of the set's owner, and runs no code of another role's with them."),
			 errhint("ALTER TABLE %s OWNER TO %s, or detach the table from the set.",
					 partmgr_key_display(partmgr_table_key(relid)),
					 quote_identifier(GetUserNameFromId(work->owner, false)))));
}

static void
add_lock(PartmgrActionWork *work, Oid relid, LOCKMODE mode, bool queued,
		 bool member)
{
	PartmgrWorkLock *lock = palloc0(sizeof(PartmgrWorkLock));

	lock->relid = relid;
	lock->mode = mode;
	lock->queued = queued;
	work->locks = lappend(work->locks, lock);
	/* a dry run takes ACCESS SHARE, to look at what a table holds */
	if (queued && work->take_locks)
		partmgr_lock_relation_queued(relid, mode);
	else if (work->take_locks || mode == AccessShareLock)
		partmgr_lock_relation(relid, mode);
	if (member)
		check_owner(work, relid);
}

/* A lock on a table of the set, or one rows move out of or into. */
static void
work_lock(PartmgrActionWork *work, Oid relid, LOCKMODE mode)
{
	add_lock(work, relid, mode, false, true);
}

/*
 * work_lock_queued
 *		A lock a reshape takes on a table the application writes all the
 *		time (partmgr_lock_relation_queued): a writer then waits behind it
 *		for at most half of pg_partmgr.lock_timeout.
 */
static void
work_lock_queued(PartmgrActionWork *work, Oid relid, LOCKMODE mode)
{
	add_lock(work, relid, mode, true, true);
}

/*
 * work_lock_related
 *		A lock on a table outside the set that a foreign key ties to it (it
 *		references a child, or a reshape's children reference it): ALTER
 *		TABLE takes it, and nothing of its owner's runs.
 */
static void
work_lock_related(PartmgrActionWork *work, Oid relid, LOCKMODE mode,
				  bool queued)
{
	add_lock(work, relid, mode, queued, false);
}

/*
 * Whether the work holds (or, in a dry run, would hold) a lock at least this
 * strong.
 */
static bool
work_holds(const PartmgrActionWork *work, Oid relid, LOCKMODE mode)
{
	ListCell   *lc;

	foreach(lc, work->locks)
	{
		PartmgrWorkLock *lock = (PartmgrWorkLock *) lfirst(lc);

		if (lock->relid == relid && lock->mode >= mode)
			return true;
	}
	return false;
}

static PartmgrWorkStatement *
work_sql(PartmgrActionWork *work, char *sql)
{
	PartmgrWorkStatement *stmt = palloc0(sizeof(PartmgrWorkStatement));

	stmt->sql = sql;
	stmt->kind = PARTMGR_STMT_UTILITY;
	work->statements = lappend(work->statements, stmt);
	return stmt;
}

static void
work_read(PartmgrActionWork *work, Oid relid, const char *why)
{
	work->reads = lappend(work->reads,
						  psprintf("%s: %s",
								   quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
															  get_rel_name(relid)),
								   why));
}

/*
 * check_no_deferrable_triggers
 *		Raise 42501 if a table rows are moved out of or into has a trigger
 *		that can be deferred to commit: the owner's trigger would run then,
 *		after the owner's rights are gone, with the rights of whoever
 *		commits (a superuser's, when the worker or a cron job maintains the
 *		set).  PostgreSQL's own foreign-key triggers run as the table owner
 *		and are fine.
 */
static void
check_no_deferrable_triggers(Oid relid)
{
	char	   *trigger = OidIsValid(relid) ? partmgr_user_trigger(relid,
																   InvalidOid,
																   true) : NULL;

	/* a table not made yet gets no trigger before it is filled */
	if (trigger != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("pg_partmgr does not move rows of table %s, which has the deferrable trigger \"%s\"",
						quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
												   get_rel_name(relid)),
						trigger),
				 errdetail("A deferred trigger runs at commit with the rights of whoever commits, not with the table owner's."),
				 errhint("Make the trigger NOT DEFERRABLE, or move the rows with a statement of your own.")));
}

/*
 * check_no_rules
 *		Raise 42809 if a table rows are moved out of or into has a rule: a
 *		rule rewrites the INSERT or the DELETE into other statements (or
 *		none), and what it did with the rows could not be checked.
 */
static void
check_no_rules(Oid relid)
{
	Relation	rewrite;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	char	   *rule = NULL;

	if (!OidIsValid(relid))
		return;					/* made by the plan: it has none */
	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (HeapTupleIsValid(tuple))
	{
		bool		has_rules = ((Form_pg_class) GETSTRUCT(tuple))->relhasrules;

		ReleaseSysCache(tuple);
		if (!has_rules)
			return;				/* the usual case: no scan of pg_rewrite */
	}
	rewrite = table_open(RewriteRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_rewrite_ev_class, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(relid));
	scan = systable_beginscan(rewrite, RewriteRelRulenameIndexId, true, NULL,
							  1, &key);
	while (rule == NULL && HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_rewrite form = (Form_pg_rewrite) GETSTRUCT(tuple);

		if (form->ev_type == '0' + CMD_INSERT ||
			form->ev_type == '0' + CMD_DELETE)
			rule = pstrdup(NameStr(form->rulename));
	}
	systable_endscan(scan);
	table_close(rewrite, AccessShareLock);
	if (rule != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("pg_partmgr does not move rows of table %s, which has rule \"%s\"",
						quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
												   get_rel_name(relid)),
						rule),
				 errdetail("A rule rewrites the INSERT or DELETE that moves the rows; pg_partmgr could not tell where the rows went."),
				 errhint("Drop the rule, or move the rows with a statement of your own.")));
}

/*
 * work_move
 *		The statements that move the rows of a source with keys in [lower,
 *		upper) into a table.  A source held in ACCESS EXCLUSIVE mode (the
 *		default partition) is copied, then emptied of that range, in two
 *		statements; any other in one, so that rows written meanwhile are
 *		never deleted without being copied.
 */
static void
work_move(PartmgrActionWork *work, const PartmgrSet *set,
		  const PartmgrRowSource *from,
		  const char *to_schema, const char *to_name, PartmgrPoint lower,
		  PartmgrPoint upper)
{
	const char *name = quote_qualified_identifier(from->schema, from->name);
	Oid			to = get_relname_relid(to_name,
									   get_namespace_oid(to_schema, false));
	PartmgrWorkStatement *moves[2] = {NULL, NULL};

	check_no_deferrable_triggers(from->relid);
	check_no_deferrable_triggers(to);
	check_no_rules(from->relid);
	check_no_rules(to);
	work_read(work, from->relid, "the rows to move are read");
	if (work_holds(work, from->relid, AccessExclusiveLock))
	{
		moves[0] = work_sql(work,
							partmgr_ddl_copy_rows(set, from, to_schema,
												  to_name, lower, upper));
		moves[0]->kind = PARTMGR_STMT_COPY;
		moves[1] = work_sql(work,
							partmgr_dml_delete_rows(set, from->schema,
													from->name, lower, upper));
		moves[1]->kind = PARTMGR_STMT_DELETE;
	}
	else
	{
		moves[0] = work_sql(work,
							partmgr_dml_move_rows(set, from, to_schema,
												  to_name, lower, upper));
		moves[0]->kind = PARTMGR_STMT_MOVE;
	}
	for (int i = 0; i < lengthof(moves) && moves[i] != NULL; i++)
	{
		moves[i]->rows_from = name;
		moves[i]->schema = to_schema;
		moves[i]->name = to_name;
	}
}

/*
 * work_archive_count
 *		Count the archive's rows in the action's range (see
 *		PARTMGR_STMT_COUNT_ARCHIVE): around the moves of an action that puts
 *		a child's rows into the archive, so that a trigger, a rule or a
 *		policy there that kept some from arriving stops the action before
 *		the child is dropped.
 */
static void
work_archive_count(PartmgrActionWork *work, const PartmgrSet *set,
				   const PartmgrAction *action)
{
	const PartmgrSet *archive = action->retire.archive;
	PartmgrWorkStatement *stmt;

	work_read(work, archive->parent_oid,
			  "its rows of the range are counted before and after the move");
	stmt = work_sql(work,
					partmgr_query_count_in(set, archive->parent_schema,
										   archive->parent_name,
										   action->lower, action->upper));
	stmt->kind = PARTMGR_STMT_COUNT_ARCHIVE;
	stmt->schema = archive->parent_schema;
	stmt->name = archive->parent_name;
	stmt->rows_from = quote_qualified_identifier(action->schema, action->name);
}

/*
 * check_not_referenced
 *		Raise 0A000 when a foreign key references a table whose rows move
 *		into an archive: deleting them there would run the key's action
 *		(ON DELETE CASCADE would delete the referencing rows) or fail.
 */
static void
check_not_referenced(Oid relid)
{
	static const char *const sql =
	"SELECT conname::text, conrelid::regclass::text FROM pg_catalog.pg_constraint"
	" WHERE contype = 'f' AND confrelid = $1 ORDER BY conrelid, conname LIMIT 1";
	Oid			types[1] = {OIDOID};
	Datum		values[1];

	values[0] = ObjectIdGetDatum(relid);
	if (partmgr_spi_exec_cached(sql, 1, types, values, NULL, false,
								SPI_OK_SELECT) == 0)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("rows of %s cannot move into the archive: foreign key \"%s\" of %s references them",
					partmgr_key_display(partmgr_table_key(relid)),
					partmgr_spi_text(0, 1), partmgr_spi_text(0, 2)),
			 errdetail("Deleting them from the set would run the foreign key's action on the referencing rows."),
			 errhint("Drop the foreign key, or archive into a set whose grid takes the child as it is.")));
}

/*
 * work_size
 *		Note the bytes of a table, its indexes and its TOAST in the action's
 *		log row: what goes into an archive.
 */
static void
work_size(PartmgrActionWork *work, Oid relid)
{
	work_sql(work,
			 psprintf("SELECT pg_catalog.pg_total_relation_size(%u)",
					  relid))->kind = PARTMGR_STMT_SIZE;
}

/*
 * work_archive_rest
 *		Before an expired child whose rows went into the archive is dropped,
 *		under the ACCESS EXCLUSIVE lock on it: move there what was written
 *		into it since (usually nothing), proved by the archive's count.
 */
static void
work_archive_rest(const PartmgrSet *set, const PartmgrAction *action,
				  PartmgrActionWork *work)
{
	const PartmgrSet *archive = action->retire.archive;
	ListCell   *lc;

	work_lock(work, archive->parent_oid, RowExclusiveLock);
	work_archive_count(work, set, action);
	foreach(lc, partmgr_archive_sources(set, action->relid))
	{
		check_not_referenced(((PartmgrRowSource *) lfirst(lc))->relid);
		work_move(work, set, (PartmgrRowSource *) lfirst(lc),
				  archive->parent_schema, archive->parent_name,
				  action->lower, action->upper);
	}
	work_archive_count(work, set, action);
}

/*
 * work_archive_attach
 *		Move an expired child into the archive as it is, in one
 *		transaction: detach it, forget its global unique entries, give it
 *		and the indexes named after it the archive's names (retire.archive_as
 *		and the same suffixes), move it into the archive's schema with its
 *		statistics objects, and attach it there.  ATTACH takes the archive
 *		in SHARE UPDATE EXCLUSIVE mode and its default partition, which it
 *		scans, in ACCESS EXCLUSIVE mode; the child's CHECK of its bounds,
 *		validated before (partmgr_plan_archive_checks), spares the scan of
 *		the child, and is dropped once it is attached.
 */
static void
work_archive_attach(const PartmgrSet *set, const PartmgrAction *action,
					PartmgrActionWork *work)
{
	static const char *const sql =
	"SELECT c.relname::text FROM pg_catalog.pg_index i"
	"  JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid"
	" WHERE i.indrelid = $1"
	"   AND pg_catalog.left(c.relname, pg_catalog.length($2) + 1) = $2 || '_'"
	" ORDER BY c.relname";
	const PartmgrSet *archive = action->retire.archive;
	const char *as = action->retire.archive_as;
	Oid			archive_default = get_default_partition_oid(archive->parent_oid);
	Oid			types[2] = {OIDOID, TEXTOID};
	Datum		values[2];
	uint64		n;
	ListCell   *lc;

	work_lock(work, archive->parent_oid, ShareUpdateExclusiveLock);
	if (OidIsValid(archive_default))
	{
		work_lock(work, archive_default, AccessExclusiveLock);
		work_read(work, archive_default,
				  "ATTACH checks that it holds no row of the child's range");
	}
	work_read(work, action->relid,
			  "ATTACH checks that its rows are in its range in the archive");
	work_size(work, action->relid);
	work_sql(work, partmgr_ddl_detach(set, action->schema, action->name, ""));
	partmgr_work_unique_forget(work, set->parent_oid, action->relid);

	values[0] = ObjectIdGetDatum(action->relid);
	values[1] = CStringGetTextDatum(action->name);
	n = partmgr_spi_exec_cached(sql, 2, types, values, NULL, false,
								SPI_OK_SELECT);
	for (uint64 i = 0; i < n && strcmp(as, action->name) != 0; i++)
	{
		char	   *index = partmgr_spi_text(i, 1);

		work_sql(work, partmgr_ddl_rename("INDEX", action->schema, index,
										  psprintf("%s%s", as,
												   index + strlen(action->name))));
	}
	if (strcmp(as, action->name) != 0)
		work_sql(work, partmgr_ddl_rename_table(action->schema, action->name,
												as));
	if (strcmp(action->schema, archive->parent_schema) != 0)
	{
		work_sql(work, partmgr_ddl_set_schema(action->schema, as,
											  archive->parent_schema));
		foreach(lc, partmgr_statistics_of(action->relid))
		{
			PartmgrStatistics *stat = lfirst(lc);

			work_sql(work,
					 partmgr_ddl_statistics_set_schema(stat->schema, stat->name,
													   archive->parent_schema));
		}
	}
	work_sql(work, partmgr_ddl_attach_range_to(archive, archive->parent_schema,
											   archive->parent_name,
											   archive->parent_schema, as,
											   action->lower, action->upper));
	if (action->retire.archive_check)
		work_sql(work, partmgr_ddl_drop_bound_check(archive->parent_schema, as));
}

/*
 * count_in_default
 *		How many rows of the new child's range the default partition holds,
 *		counting no further than limit + 1.
 */
static int64
count_in_default(const PartmgrSet *set, const PartmgrAction *action,
				 Oid default_oid,
				 int64 limit)
{
	bool		isnull;

	partmgr_spi_table_exec(partmgr_query_count_range(set,
													 get_namespace_name(get_rel_namespace(default_oid)),
													 get_rel_name(default_oid),
													 action->lower,
													 action->upper, limit),
						   0, NULL, NULL, NULL, false, SPI_OK_SELECT);
	return DatumGetInt64(partmgr_spi_value(0, 1, &isnull));
}

/*
 * rows_in_default
 *		Whether the default partition holds rows of a new child's range, and
 *		then *source describes it as where to fill the child from.  Unless
 *		the plan moves data at the caller's request, maintenance moves at
 *		most pg_partmgr.default_move_limit such rows itself: more raises
 *		23514 with the count and the call that moves them (a dry run notes
 *		it instead), and the child is left for later.
 */
static bool
rows_in_default(const PartmgrPlan *plan, const PartmgrAction *action,
				Oid default_oid,
				PartmgrActionWork *work, PartmgrRowSource *source)
{
	const PartmgrSet *set = plan->set;
	char	   *schema = get_namespace_name(get_rel_namespace(default_oid));
	char	   *name = get_rel_name(default_oid);
	int64		limit = plan->moving_data ? 0 : partmgr_default_move_limit;
	int64		found = count_in_default(set, action, default_oid, limit);

	if (found == 0)
		return false;
	if (!plan->moving_data && found > limit)
	{
		if (!work->take_locks)
		{
			work->skip =
				psprintf("the default partition holds more than " INT64_FORMAT
						 " rows of its range"
						 " (pg_partmgr.default_move_limit)", limit);
			return false;
		}
		ereport(ERROR,
				(errcode(ERRCODE_CHECK_VIOLATION),
				 errmsg("the default partition of \"%s\" holds rows for the new child \"%s\"",
						set->key, action->name),
				 limit > 0 ?
				 errdetail("More than " INT64_FORMAT " rows with %s from %s (inclusive) to %s (exclusive) are in %s; maintenance moves at most pg_partmgr.default_move_limit (" INT64_FORMAT ") such rows itself.",
						   limit, quote_identifier(set->control),
						   partmgr_point_display(&set->axis, action->lower),
						   partmgr_point_display(&set->axis, action->upper),
						   quote_qualified_identifier(schema, name), limit) :
				 errdetail("Some rows with %s from %s (inclusive) to %s (exclusive) are in %s; maintenance moves at most pg_partmgr.default_move_limit (" INT64_FORMAT ") such rows itself.",
						   quote_identifier(set->control),
						   partmgr_point_display(&set->axis, action->lower),
						   partmgr_point_display(&set->axis, action->upper),
						   quote_qualified_identifier(schema, name), limit),
				 errhint("Move them with SELECT partmgr.%s(%s) or CALL partmgr.partition_data_proc(%s), which create the child.",
						 set->axis.kind == PARTMGR_KEY_TIME ?
						 "partition_data_time" : "partition_data_id",
						 quote_literal_cstr(set->key),
						 quote_literal_cstr(set->key))));
	}

	memset(source, 0, sizeof(*source));
	source->relid = default_oid;
	source->schema = schema;
	source->name = name;
	source->columns = partmgr_movable_columns(set->parent_oid, NIL);
	return true;
}

/*
 * work_fill_sources
 *		For a new child, with the parent listed in SHARE UPDATE EXCLUSIVE
 *		mode: the default partition, which attaching scans, and the tables
 *		the child is filled from -- the default partition when it holds rows
 *		of the child's range, then the action's own source.  Returns how many
 *		sources were put in fills.
 *
 *		A child filled as it is attached takes the parent in ACCESS
 *		EXCLUSIVE mode, before the default partition: a query that planned
 *		against the old list of partitions and then waited for the default
 *		partition would otherwise read the default after the rows left it,
 *		and never see them in the new child.  A default partition without a
 *		block (the usual case) is not queried.
 */
static int
work_fill_sources(const PartmgrPlan *plan, const PartmgrAction *action,
				  PartmgrActionWork *work, PartmgrRowSource *fills)
{
	const PartmgrSet *set = plan->set;
	Oid			default_oid = get_default_partition_oid(set->parent_oid);
	bool		empty_default = true;
	int			n = 0;

	if (OidIsValid(default_oid))
	{
		work_lock(work, default_oid, AccessShareLock);
		empty_default = partmgr_has_no_blocks(default_oid);
	}
	if (OidIsValid(action->from.relid) ||
		(!empty_default && count_in_default(set, action, default_oid, 0) > 0))
		work_lock(work, set->parent_oid, AccessExclusiveLock);
	if (OidIsValid(default_oid))
	{
		work_lock(work, default_oid, AccessExclusiveLock);
		/* asked again now that nothing can add rows */
		if (action->from.relid != default_oid &&
			!partmgr_has_no_blocks(default_oid) &&
			rows_in_default(plan, action, default_oid, work, &fills[n]))
			n++;
		if (!partmgr_has_no_blocks(default_oid))
			work_read(work, default_oid,
					  "ATTACH checks that it holds no row of the new range");
	}
	if (OidIsValid(action->from.relid))
	{
		if (action->from.relid != default_oid)
			work_lock(work, action->from.relid, RowExclusiveLock);
		fills[n++] = action->from;
	}
	if (n > 0 && !work_holds(work, set->parent_oid, AccessExclusiveLock))
		work_lock(work, set->parent_oid, AccessExclusiveLock);
	return n;
}

/*
 * retire_statements
 *		What happens to a child once detached, as the retirement says:
 *		DROP TABLE, or -- kept -- its indexes dropped, its publications left
 *		(its schema is changed by work_retire).  Read from the catalogs; the
 *		same before and after the detach (the child's indexes keep their
 *		names).
 */
static List *
retire_statements(const PartmgrAction *action)
{
	const PartmgrRetirement *retire = &action->retire;
	Oid			types[1] = {OIDOID};
	Datum		values[1];
	List	   *statements = NIL;
	uint64		n;

	if (!retire->keep_table && retire->schema == NULL)
		return list_make1(partmgr_ddl_drop_table(action->schema, action->name,
												 retire->cascade));

	values[0] = ObjectIdGetDatum(action->relid);
	if (!retire->keep_index)
	{
		static const char *const sql =
		"SELECT c.relname, con.conname FROM pg_catalog.pg_index i"
		"  JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid"
		"  LEFT JOIN pg_catalog.pg_constraint con"
		"    ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid"
		" WHERE i.indrelid = $1 ORDER BY c.relname";

		n = partmgr_spi_exec_cached(sql, 1, types, values, NULL, false,
									SPI_OK_SELECT);
		for (uint64 i = 0; i < n; i++)
		{
			char	   *index = partmgr_spi_text(i, 1);
			char	   *constraint = partmgr_spi_text(i, 2);

			statements = lappend(statements, constraint ?
								 partmgr_ddl_drop_constraint(action->schema,
															 action->name,
															 constraint) :
								 partmgr_ddl_drop_index(action->schema, index));
		}
	}
	if (!retire->keep_publication)
	{
		static const char *const sql =
		"SELECT p.pubname FROM pg_catalog.pg_publication_rel r"
		"  JOIN pg_catalog.pg_publication p ON p.oid = r.prpubid"
		" WHERE r.prrelid = $1 ORDER BY p.pubname";

		n = partmgr_spi_exec_cached(sql, 1, types, values, NULL, false,
									SPI_OK_SELECT);
		for (uint64 i = 0; i < n; i++)
			statements = lappend(statements,
								 partmgr_ddl_drop_from_publication(partmgr_spi_text(i, 1),
																   action->schema,
																   action->name));
	}
	return statements;
}

/*
 * partmgr_work_unique_forget
 *		For each global unique constraint of the set whose side table a
 *		foreign key references, the removal of the entries of a retiring
 *		child (and of its leaves), so that the foreign key's action runs
 *		as the child goes; without such a key the entries are left to
 *		cleanup (they stop counting when the child leaves).  parent is the
 *		set's parent, child the table that retires.
 */
void
partmgr_work_unique_forget(PartmgrActionWork *work, Oid parent, Oid child)
{
	List	   *leaves = NIL;
	ListCell   *lc;

	foreach(lc, partmgr_unique_list_of(partmgr_unique_top(parent)))
	{
		PartmgrUnique *u = lfirst(lc);

		if (!partmgr_unique_referenced(u))
			continue;
		if (leaves == NIL)
			leaves = find_all_inheritors(child, NoLock, NULL);
		work_sql(work, partmgr_dml_unique_forget(u->side_schema, u->side_name,
												 leaves))->kind = PARTMGR_STMT_UNIQUE_FORGET;
	}
}

/*
 * work_retire
 *		The statements of retire_statements, then the move to the retention
 *		schema: as the owner when the schema comes from the set's
 *		configuration (the owner's choice, the owner's right to create there),
 *		with the caller's rights when the caller named it in the call (the
 *		caller's choice; SET SCHEMA evaluates nothing the owner defined).
 */
void
partmgr_work_retire(PartmgrActionWork *work, const PartmgrAction *action)
{
	ListCell   *lc;

	foreach(lc, retire_statements(action))
		work_sql(work, (char *) lfirst(lc));
	if (action->retire.rename_to != NULL)
		work_sql(work, partmgr_ddl_rename_table(action->schema, action->name,
												action->retire.rename_to));
	if (action->retire.schema != NULL)
	{
		PartmgrStatementKind kind = (action->retire.schema_by_caller ?
									 PARTMGR_STMT_CALLER_UTILITY :
									 PARTMGR_STMT_UTILITY);

		work_sql(work, partmgr_ddl_set_schema(action->schema, action->name,
											  action->retire.schema))->kind = kind;

		/*
		 * the child's statistics objects go with it: its owner's (another
		 * role's stays where it is, as with SET SCHEMA alone)
		 */
		foreach(lc, partmgr_statistics_of(action->relid))
		{
			PartmgrStatistics *stat = lfirst(lc);

			work_sql(work,
					 partmgr_ddl_statistics_set_schema(stat->schema, stat->name,
													   action->retire.schema))->kind = kind;
		}
	}
}

/*
 * work_forget_sub_sets
 *		A child that is partitioned itself leaves the set with the sets
 *		registered for it and below it: their configuration goes (as
 *		pg_partman's retention and undo do), whether the tables are dropped
 *		or kept.  Listed before the detach, so that it runs with our rights,
 *		not the owner's.
 */
static void
work_forget_sub_sets(PartmgrActionWork *work, Oid child)
{
	List	   *keys;
	PartmgrWorkStatement *stmt;

	if (get_rel_relkind(child) != RELKIND_PARTITIONED_TABLE)
		return;
	keys = partmgr_sub_parents_below(child);
	stmt = work_sql(work, partmgr_dml_forget_sets(keys));
	stmt->kind = PARTMGR_STMT_FORGET;
	stmt->keys = keys;
}

/*
 * work_referencing_tables
 *		Every table whose foreign key references the child: detaching the
 *		child drops the key's clone on it (ACCESS EXCLUSIVE), and PostgreSQL
 *		reads it to check that no row references the child.
 */
static void
work_referencing_tables(PartmgrActionWork *work, Oid child)
{
	static const char *const sql =
	"SELECT DISTINCT conrelid FROM pg_catalog.pg_constraint"
	" WHERE contype = 'f' AND confrelid = $1 ORDER BY conrelid";
	Oid			types[1] = {OIDOID};
	Datum		values[1];
	uint64		n;
	Oid		   *tables;

	values[0] = ObjectIdGetDatum(child);
	n = partmgr_spi_exec_cached(sql, 1, types, values, NULL, false,
								SPI_OK_SELECT);
	tables = palloc(sizeof(Oid) * (n + 1));
	for (uint64 i = 0; i < n; i++)
	{
		bool		isnull;

		tables[i] = DatumGetObjectId(partmgr_spi_value(i, 1, &isnull));
	}
	for (uint64 i = 0; i < n; i++)
	{
		work_lock_related(work, tables[i], AccessExclusiveLock, false);
		work_read(work, tables[i],
				  "DETACH checks that no row references the child");
	}
}

/*
 * check_tables_read
 *		A plan that creates tables says what they get (partmgr_plan_tables):
 *		an executor that read it there itself would run a job's code.
 */
static void
check_tables_read(const PartmgrPlan *plan)
{
	if (!plan->tables_read)
		elog(ERROR,
			 "plan for partition set \"%s\" creates tables but does not say what they get",
			 plan->set->key);
	Assert(plan->sub == NULL || plan->register_sub_set != NULL);
}

/*
 * work_new_table
 *		The CREATE TABLE sql of a table in the parent's schema (a child, the
 *		default partition, a staging table), run as the parent's owner.  An
 *		owner that may not create tables in the schema its own table lives in
 *		(the table was made by someone else and given to it) gets the table
 *		made with the caller's rights and then given to it: CREATE TABLE
 *		(LIKE ...) on an empty table evaluates nothing the owner defined --
 *		defaults, CHECKs, generated columns and statistics are copied, not
 *		run -- and everything after it (rows, ATTACH) is done as the owner
 *		again.  Returns whether the owner creates it.
 */
static bool
work_new_table(PartmgrActionWork *work, const PartmgrSet *set, char *sql,
			   const char *schema, const char *name)
{
	PartmgrWorkStatement *create = work_sql(work, sql);
	Oid			nspid = get_namespace_oid(schema, false);

	if (partmgr_schema_aclcheck(nspid, set->parent_owner,
								ACL_CREATE) == ACLCHECK_OK)
		return true;
	create->kind = PARTMGR_STMT_CALLER_UTILITY;
	work_sql(work,
			 partmgr_ddl_set_owner(schema, name, set->parent_owner))->kind =
		PARTMGR_STMT_CALLER_UTILITY;
	return false;
}

/*
 * work_private_table
 *		A table pg_partmgr makes for itself in the parent's schema (a
 *		staging table, a reshape's change log), made as work_new_table makes
 *		it, then left with the owner's privileges alone, whatever default
 *		privileges give new tables there (see partmgr_private_table_plan):
 *		no other role may write rows pg_partmgr's work rests on.
 */
static void
work_private_table(PartmgrActionWork *work, const PartmgrSet *set, char *sql,
				   const char *schema, const char *name)
{
	bool		owner_creates = work_new_table(work, set, sql, schema, name);
	List	   *fix;
	PartmgrWorkStatement *stmt;

	fix = partmgr_private_table_plan(get_namespace_oid(schema, false), name,
									 owner_creates ? set->parent_owner :
									 partmgr_rights_caller(),
									 set->parent_owner);
	if (fix == NIL)
		return;
	stmt = work_sql(work, partmgr_ddl_join(fix));
	stmt->kind = PARTMGR_STMT_PRIVATE;
	stmt->schema = schema;
	stmt->name = name;
}

/*
 * work_new_statistics
 *		The parent's extended statistics for a new table, made like the
 *		table: by the owner, or by the caller and then given to the owner
 *		(CREATE STATISTICS needs CREATE on the schema, and makes its object
 *		the creator's).  CREATE STATISTICS evaluates nothing: expressions
 *		are evaluated by ANALYZE, which runs as the table's owner.
 */
static void
work_new_statistics(PartmgrActionWork *work, const PartmgrAction *action,
					bool owner_creates)
{
	ListCell   *lc;

	foreach(lc, action->statistics_sql)
		work_sql(work, (char *) lfirst(lc))->kind = (owner_creates ?
													 PARTMGR_STMT_UTILITY :
													 PARTMGR_STMT_CALLER_UTILITY);
	if (owner_creates)
		return;
	foreach(lc, action->statistics_owner_sql)
		work_sql(work, (char *) lfirst(lc))->kind = PARTMGR_STMT_CALLER_UTILITY;
}

/*
 * work_create_table
 *		CREATE TABLE for a new child or default partition, then what the
 *		template and the parent give it beyond that (see properties.c), all
 *		before it holds a row or is attached.
 */
static void
work_create_table(PartmgrActionWork *work, const PartmgrPlan *plan,
				  const PartmgrAction *action)
{
	bool		owner_creates;
	ListCell   *lc;

	check_tables_read(plan);
	owner_creates = work_new_table(work, plan->set,
								   partmgr_ddl_create_like(plan->set,
														   plan->unlogged,
														   plan->reloptions,
														   action->tier_tablespace,
														   action->schema,
														   action->name),
								   action->schema, action->name);
	if (action->index_sql != NIL && !owner_creates && !action->plain_indexes)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("role \"%s\", which owns \"%s\", may not create the indexes of the template on new children in schema \"%s\"",
						GetUserNameFromId(plan->set->parent_owner, false),
						plan->set->key,
						action->schema),
				 errdetail("An expression or partial index evaluates code of the owner's, so only the owner may build it."),
				 errhint("%s.",
						 partmgr_ddl_grant_on("CREATE", "SCHEMA",
											  quote_identifier(action->schema),
											  plan->set->parent_owner))));

	/*
	 * a plain index evaluates nothing: built with the caller's rights if need
	 * be
	 */
	foreach(lc, action->index_sql)
		work_sql(work, (char *) lfirst(lc))->kind = (owner_creates ?
													 PARTMGR_STMT_UTILITY :
													 PARTMGR_STMT_CALLER_UTILITY);
	work_new_statistics(work, action, owner_creates);
	foreach(lc, action->property_sql)
		work_sql(work, (char *) lfirst(lc));
}

/* The first child of a plan that is filled through the staging table. */
static bool
first_staged(const PartmgrPlan *plan, const PartmgrAction *action)
{
	ListCell   *lc;

	foreach(lc, plan->actions)
	{
		if (((const PartmgrAction *) lfirst(lc))->staged)
			return lfirst(lc) == action;
	}
	return false;
}

/*
 * work_staged_child
 *		A child of a partition_data plan that moves rows into several new
 *		children at once: created like any child, with its bound CHECK, and
 *		attached to the plan's staging table (created with the first child),
 *		whose tuple routing lets one statement fill every child.  The fill
 *		action attaches it to the parent.  Locks: the parent, then the
 *		default partition, ACCESS EXCLUSIVE (see work_fill_sources).
 */
static void
work_staged_child(const PartmgrPlan *plan, const PartmgrAction *action,
				  PartmgrActionWork *work)
{
	const PartmgrSet *set = plan->set;
	Oid			default_oid = get_default_partition_oid(set->parent_oid);

	work_lock(work, set->parent_oid, AccessExclusiveLock);
	if (OidIsValid(default_oid))
		work_lock(work, default_oid, AccessExclusiveLock);
	if (first_staged(plan, action))
		work_private_table(work, set,
						   partmgr_ddl_create_stage(set, plan->stage_name),
						   set->parent_schema, plan->stage_name);
	work_create_table(work, plan, action);
	work_sql(work,
			 partmgr_ddl_add_bound_check(set, action->schema, action->name,
										 action->lower, action->upper));
	work_sql(work,
			 partmgr_ddl_attach_range_to(set, set->parent_schema,
										 plan->stage_name,
										 action->schema, action->name,
										 action->lower, action->upper));
}

/*
 * stage_move_in_c
 *		The targets of a staged fill's COPY (the staged children, with their
 *		bounds), for mover.c to make the move in one pass; see
 *		PartmgrWorkStatement.  The children exist when the action is carried
 *		out (a dry run leaves their OIDs invalid).
 */
static void
stage_move_in_c(const PartmgrPlan *plan, const PartmgrAction *fill,
				PartmgrActionWork *work)
{
	PartmgrWorkStatement *copy = NULL;
	ListCell   *lc;
	int			n = 0;

	foreach(lc, work->statements)
	{
		PartmgrWorkStatement *stmt = (PartmgrWorkStatement *) lfirst(lc);

		if (stmt->kind == PARTMGR_STMT_COPY)
			copy = stmt;
	}
	if (copy == NULL)
		return;					/* moved by one statement: not ours to split */
	copy->move_source = fill->from.relid;
	copy->move_lower = fill->lower;
	copy->move_upper = fill->upper;
	copy->move_targets =
		palloc0(sizeof(PartmgrMoveTarget) * list_length(plan->actions));
	foreach(lc, plan->actions)
	{
		const PartmgrAction *child = (const PartmgrAction *) lfirst(lc);
		Oid			nsp;

		if (!child->staged)
			continue;
		nsp = get_namespace_oid(child->schema, true);
		copy->move_targets[n].relid = (OidIsValid(nsp) ?
									   get_relname_relid(child->name, nsp) :
									   InvalidOid);
		copy->move_targets[n].lower = child->lower;
		copy->move_targets[n].upper = child->upper;
		n++;
	}
	copy->move_ntargets = n;
}

/*
 * work_fill_staged
 *		Move the default partition's rows of the action's range into the
 *		staged children in one pass, then make the default partition prove
 *		it holds none of that range (one scan), move the children from the
 *		staging table to the parent (no scan of them, thanks to their bound
 *		CHECK, nor of the default) and drop the staging table and the
 *		temporary CHECKs.
 */
static void
work_fill_staged(const PartmgrPlan *plan, const PartmgrAction *fill,
				 PartmgrActionWork *work)
{
	const PartmgrSet *set = plan->set;
	Oid			default_oid = get_default_partition_oid(set->parent_oid);
	ListCell   *lc;

	work_lock(work, set->parent_oid, AccessExclusiveLock);
	if (OidIsValid(default_oid))
		work_lock(work, default_oid, AccessExclusiveLock);
	work_move(work, set, &fill->from, fill->to_schema, fill->to_name,
			  fill->lower,
			  fill->upper);
	stage_move_in_c(plan, fill, work);
	work_sql(work,
			 partmgr_ddl_add_range_exclusion(set, fill->schema, fill->name,
											 fill->lower, fill->upper));
	work_read(work, fill->from.relid,
			  "its CHECK excluding the moved range is validated");
	foreach(lc, plan->actions)
	{
		const PartmgrAction *child = (const PartmgrAction *) lfirst(lc);

		if (child->staged)
			work_sql(work,
					 partmgr_ddl_detach_from(fill->to_schema, fill->to_name,
											 child->schema, child->name));
	}
	work_sql(work,
			 partmgr_ddl_drop_table(fill->to_schema, fill->to_name, false));
	foreach(lc, plan->actions)
	{
		const PartmgrAction *child = (const PartmgrAction *) lfirst(lc);

		if (!child->staged)
			continue;
		work_sql(work, partmgr_ddl_attach_range(set, child->schema, child->name,
												child->lower, child->upper));
		work_sql(work,
				 partmgr_ddl_drop_bound_check(child->schema, child->name));
	}
	work_sql(work, partmgr_ddl_drop_range_exclusion(fill->schema, fill->name));
}

/* A statement on rows (PARTMGR_STMT_ROWS): a reshape's, or a Citus call. */
static void
work_rows(PartmgrActionWork *work, char *sql, int expected,
		  const char *counted_as)
{
	PartmgrWorkStatement *stmt = work_sql(work, sql);

	stmt->kind = PARTMGR_STMT_ROWS;
	stmt->expected = expected;
	stmt->counted_as = counted_as;
}

/*
 * work_distribute
 *		On Citus, a new child that is filled before it is attached is sharded
 *		like the parent first, co-located with it: the rows then move from
 *		the default partition shard by shard on the workers, and the ATTACH
 *		finds it distributed already.  Nothing when the parent is not
 *		sharded by Citus.
 */
static void
work_distribute(PartmgrActionWork *work, const PartmgrSet *set,
				const PartmgrAction *action)
{
	char	   *column = partmgr_citus_distribution_column(set->parent_oid);

	if (column != NULL)
		work_rows(work,
				  partmgr_query_distribute_like_parent(set, action->schema,
													   action->name,
													   column),
				  SPI_OK_SELECT, NULL);
}

/*
 * work_create
 *		A new child (or default partition): created with our rights, given
 *		to the parent's owner, and attached with the owner's rights when the
 *		background worker acts (see execute_action).  A child that is filled
 *		is loaded before it is attached, behind a CHECK that says what its
 *		bound will say: attaching then needs no scan of it.  A child of a
 *		sub-partitioned set is created partitioned, given to the owner and
 *		registered as a set of its own (plan->register_sub_set, with its first
 *		children and default partition) before it is filled and attached.
 */
static void
work_create_child(const PartmgrPlan *plan, const PartmgrAction *action,
				  PartmgrActionWork *work)
{
	const PartmgrSet *set = plan->set;
	const PartmgrSubSpec *sub = NULL;
	PartmgrRowSource fills[2];
	int			nfills = 0;

	if (action->unattached)
	{
		/*
		 * partition_data_async's child: made like any, behind the CHECK its
		 * bound will say, and left unattached to be filled batch by batch
		 */
		work_create_table(work, plan, action);
		work_sql(work,
				 partmgr_ddl_add_bound_check(set, action->schema, action->name,
											 action->lower,
											 action->upper));
		work_distribute(work, set, action);
		return;
	}
	work_lock(work, set->parent_oid, ShareUpdateExclusiveLock);
	if (action->kind == PARTMGR_ACTION_CREATE_CHILD)
	{
		nfills = work_fill_sources(plan, action, work, fills);
		check_tables_read(plan);
		sub = plan->sub;
	}
	if (work->skip != NULL)
		return;
	if (sub != NULL)
	{
		ListCell   *lc;

		/*
		 * A sub-parent: registered as a set of its own, with its first
		 * children and default, before it is filled or attached
		 */
		bool		owner_creates;

		owner_creates = work_new_table(work, set,
									   partmgr_ddl_create_sub_parent(set,
																	 action->tier_tablespace,
																	 action->schema,
																	 action->name,
																	 sub->args.type,
																	 sub->args.control),
									   action->schema, action->name);
		work_new_statistics(work, action, owner_creates);
		foreach(lc, action->property_sql)
			work_sql(work, (char *) lfirst(lc));
		work_sql(work,
				 partmgr_query_describe_sub_set(action->schema, action->name,
												sub->args.control,
												sub->args.interval,
												sub->args.type))->kind = PARTMGR_STMT_SUB_SET;
	}
	else
		work_create_table(work, plan, action);
	if (nfills > 0)
	{
		work_sql(work,
				 partmgr_ddl_add_bound_check(set, action->schema, action->name,
											 action->lower,
											 action->upper));
		work_distribute(work, set, action);
		for (int i = 0; i < nfills; i++)
			work_move(work, set, &fills[i], action->schema, action->name,
					  action->lower, action->upper);
	}
	if (action->kind == PARTMGR_ACTION_CREATE_CHILD && action->modulus > 0)
		work_sql(work,
				 partmgr_ddl_attach_hash_to(set->parent_schema,
											set->parent_name,
											action->schema, action->name,
											action->modulus,
											action->remainder));
	else if (action->kind == PARTMGR_ACTION_CREATE_CHILD)
		work_sql(work,
				 partmgr_ddl_attach_range(set, action->schema, action->name,
										  action->lower, action->upper));
	else
		work_sql(work,
				 partmgr_ddl_attach_default(set, action->schema, action->name));
	if (nfills > 0)
		work_sql(work,
				 partmgr_ddl_drop_bound_check(action->schema, action->name));
}

/*
 * work_create
 *		work_create_child; a child its bounds put in a tier (jobs' tiers.c)
 *		is made in the tier's tablespace, and so are the indexes it gets
 *		from the template and the parent, built while default_tablespace
 *		says that tablespace (set back after it, for the next children).
 */
static void
work_create(const PartmgrPlan *plan, const PartmgrAction *action,
			PartmgrActionWork *work)
{
	const char *before;

	if (action->tier_tablespace == NULL)
	{
		work_create_child(plan, action, work);
		return;
	}
	before = GetConfigOption("default_tablespace", false, false);
	work_sql(work, partmgr_ddl_set_default_tablespace(action->tier_tablespace));
	work_create_child(plan, action, work);
	work_sql(work, partmgr_ddl_set_default_tablespace(before ? before : ""));
}

/* ----------------------------------------------------------------
 * Reshapes (reshape.c decides which step comes next; here is how each runs)
 * ----------------------------------------------------------------
 */

/* An old child of a reshape as a source of rows. */
static PartmgrRowSource
reshape_source(const PartmgrReshapeTables *r, int i)
{
	PartmgrRowSource from;

	memset(&from, 0, sizeof(from));
	from.relid = r->source_oids[i];
	from.schema = r->source_schemas[i];
	from.name = r->source_names[i];
	from.columns = r->columns;
	return from;
}

static Oid
reshape_relid(const PartmgrReshapeTables *r, const char *name)
{
	return get_relname_relid(name, get_namespace_oid(r->schema, false));
}

/*
 * work_replay
 *		The statements that apply the changes captured so far to the new
 *		children (statements.c's partmgr_dml_reshape_claim and the rest), the
 *		claimed keys counted as changes applied.
 */
static void
work_replay(PartmgrActionWork *work, const PartmgrReshapeTables *r)
{
	work_rows(work, partmgr_dml_reshape_claim(r->schema, r->log), SPI_OK_UPDATE,
			  "changes applied");
	work_rows(work,
			  partmgr_dml_reshape_unset(r->schema, r->stage, r->schema, r->log,
										r->nkeys, r->key_columns,
										r->key_equals),
			  SPI_OK_DELETE, NULL);
	for (int i = 0; i < r->nsources; i++)
	{
		PartmgrRowSource from = reshape_source(r, i);

		work_rows(work,
				  partmgr_ddl_reshape_fetch(&from, r->schema, r->stage,
											r->schema,
											r->log, r->nkeys,
											r->key_columns,
											r->key_equals),
				  SPI_OK_INSERT, NULL);
	}
	work_rows(work, partmgr_dml_reshape_forget(r->schema, r->log),
			  SPI_OK_DELETE, NULL);
}

/* The names of a table's indexes, from the catalog. */
static List *
index_names(Oid relid)
{
	static const char *const sql =
	"SELECT c.relname FROM pg_catalog.pg_index i"
	"  JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid"
	" WHERE i.indrelid = $1 ORDER BY c.relname";
	Oid			types[1] = {OIDOID};
	Datum		values[1];
	List	   *names = NIL;
	uint64		n;

	values[0] = ObjectIdGetDatum(relid);
	n = partmgr_spi_exec_cached(sql, 1, types, values, NULL, false,
								SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
		names = lappend(names, partmgr_spi_text(i, 1));
	return names;
}

/*
 * work_rename_prefixed
 *		Rename table schema.from (relid, or InvalidOid in a dry run before
 *		it exists) to schema.to, and its indexes and statistics objects
 *		named after it ("from_pkey") to names after the new one ("to_pkey").
 */
static void
work_rename_prefixed(PartmgrActionWork *work, const char *schema, Oid relid,
					 const char *from, const char *to)
{
	size_t		len = strlen(from);
	List	   *objects = NIL;
	ListCell   *lc;

	if (strcmp(from, to) != 0)
		work_sql(work, partmgr_ddl_rename_table(schema, from, to));
	if (!OidIsValid(relid))
		return;
	foreach(lc, index_names(relid))
		objects = lappend(objects, list_make2(lfirst(lc), "INDEX"));
	foreach(lc, partmgr_statistics_of(relid))
		objects = lappend(objects,
						  list_make2(((PartmgrStatistics *) lfirst(lc))->name,
									 "STATISTICS"));
	foreach(lc, objects)
	{
		const char *name = linitial((List *) lfirst(lc));
		const char *kind = lsecond((List *) lfirst(lc));

		if (strncmp(name, from, len) != 0)
			continue;
		work_sql(work, partmgr_ddl_rename(kind, schema, name,
										  partmgr_name_with_suffix(to,
																   name + len)));
	}
}

/*
 * work_reshape_renames
 *		Once the old children are out of the way: each new child takes its
 *		final name, and its indexes and statistics objects named after its
 *		working name take names after the final one.
 */
static void
work_reshape_renames(PartmgrActionWork *work, const PartmgrReshapeTables *r)
{
	for (int i = 0; i < r->ntargets; i++)
		work_rename_prefixed(work, r->schema,
							 reshape_relid(r, r->work_names[i]),
							 r->work_names[i], r->final_names[i]);
}

/*
 * work_reshape_swap
 *		The swap, in one transaction: every lock it needs taken first, in
 *		the fixed order (the parent, the default partition, the old
 *		children, the staging table and the new children, then the tables
 *		the set's foreign keys reference, whose keys ATTACH adopts), then the
 *		last captured changes applied, the old children detached and
 *		dropped, the new ones moved from the staging table to the parent
 *		behind the CHECKs that prove their bounds (no scan of them, nor of
 *		the default partition, which proves it holds none of the range).
 */
static void
work_reshape_swap(const PartmgrPlan *plan, const PartmgrAction *action,
				  PartmgrActionWork *work)
{
	const PartmgrSet *set = plan->set;
	const PartmgrReshapeTables *r = action->reshape;
	Oid			stage = reshape_relid(r, r->stage);
	ListCell   *lc;
	char	   *pids;

	/*
	 * A snapshot older than the last step does not see every row of the new
	 * children, and the old ones are about to go: a transaction holding one
	 * (REPEATABLE READ, say) that reads the set after the swap would miss
	 * rows.  Such transactions end first, as CREATE INDEX CONCURRENTLY waits
	 * for them.
	 */
	if (work->take_locks && TransactionIdIsNormal(r->settled_xid) &&
		partmgr_older_snapshots(r->settled_xid, &pids) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
				 errmsg("reshape " INT64_FORMAT " of \"%s\" waits for transactions older than its new partitions to end",
						r->id, set->key),
				 errdetail("Process %s holds a snapshot taken before the last rows were copied; after the swap it would not see them.",
						   pids),
				 errhint("The swap is tried again; end long transactions, or call run_reshape() later.")));

	work_lock_queued(work, set->parent_oid, AccessExclusiveLock);
	if (OidIsValid(r->default_oid))
		work_lock_queued(work, r->default_oid, AccessExclusiveLock);
	for (int i = 0; i < r->nsources; i++)
		work_lock_queued(work, r->source_oids[i], AccessExclusiveLock);
	if (OidIsValid(stage))
		work_lock(work, stage, AccessExclusiveLock);
	for (int i = 0; i < r->ntargets; i++)
	{
		Oid			target = reshape_relid(r, r->work_names[i]);

		if (OidIsValid(target))
			work_lock(work, target, AccessExclusiveLock);
	}
	foreach(lc, r->referenced)
		work_lock_related(work, lfirst_oid(lc), AccessExclusiveLock, true);
	if (work->take_locks && partmgr_capture_truncated(r->schema, r->log))
		ereport(ERROR,
				(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				 errmsg("a partition being reshaped in \"%s\" was truncated meanwhile", set->key),
				 errdetail("The new partitions are filled again before they replace the old ones."),
				 errhint("run_reshape() goes on with it.")));

	work_replay(work, r);
	for (int i = 0; i < r->nsources; i++)
		work_sql(work,
				 partmgr_ddl_detach(set, r->source_schemas[i],
									r->source_names[i], ""));
	for (int i = 0; i < r->ntargets; i++)
		work_sql(work,
				 partmgr_ddl_detach_from(r->schema, r->stage, r->schema,
										 r->work_names[i]));
	work_sql(work, partmgr_ddl_drop_table(r->schema, r->stage, false));

	/*
	 * Dropping a large table at commit takes long (its files, and a scan of
	 * shared buffers), under the swap's locks: the old children are renamed
	 * out of the way, and dropped with the change log in a step of their own
	 * (drop_later)
	 */
	for (int i = 0; i < r->nsources; i++)
	{
		if (r->drop_later)
			work_rename_prefixed(work, r->source_schemas[i],
								 r->source_oids[i], r->source_names[i],
								 r->old_names[i]);
		else
			work_sql(work,
					 partmgr_ddl_drop_table(r->source_schemas[i],
											r->source_names[i], false));
	}
	if (!r->drop_later)
		work_sql(work, partmgr_ddl_drop_table(r->schema, r->log, false));
	work_reshape_renames(work, r);
	for (int i = 0; i < r->ntargets; i++)
	{
		if (r->moduli != NULL)
			work_sql(work,
					 partmgr_ddl_attach_hash_to(set->parent_schema,
												set->parent_name,
												r->schema,
												r->final_names[i],
												r->moduli[i],
												r->remainders[i]));
		else
			work_sql(work,
					 partmgr_ddl_attach_range(set, r->schema, r->final_names[i],
											  r->lowers[i],
											  r->uppers[i]));
		work_sql(work,
				 partmgr_ddl_drop_bound_check(r->schema, r->final_names[i]));
	}
	if (r->exclusion != NULL && OidIsValid(r->default_oid))
		work_sql(work,
				 partmgr_ddl_drop_constraint(get_namespace_name(get_rel_namespace(r->default_oid)),
											 get_rel_name(r->default_oid),
											 r->exclusion));
}

/*
 * work_reshape_drop_old
 *		After the swap: drop the old children, renamed (the first that a
 *		session still reads is waited for within pg_partmgr.lock_timeout,
 *		then the step is tried again), and the change log.
 */
static void
work_reshape_drop_old(const PartmgrReshapeTables *r, PartmgrActionWork *work)
{
	Oid			log = reshape_relid(r, r->log);

	for (int i = 0; i < r->nsources; i++)
	{
		/* renamed in its own schema */
		Oid			nspid = get_namespace_oid(r->source_schemas[i], true);
		Oid			old = OidIsValid(nspid) ?
		get_relname_relid(r->old_names[i], nspid) : InvalidOid;

		if (!OidIsValid(old))
			continue;
		work_lock(work, old, AccessExclusiveLock);
		work_sql(work, partmgr_ddl_drop_table(r->source_schemas[i],
											  r->old_names[i], false));
	}
	if (OidIsValid(log))
		work_sql(work, partmgr_ddl_drop_table(r->schema, r->log, false));
}

/*
 * work_reshape_cancel
 *		Drop what a reshape built, as far as it exists: the capture on each
 *		old child (which takes it in ACCESS EXCLUSIVE mode for a moment),
 *		the staging table with the new children in it, the change log, the
 *		default partition's CHECK.
 */
static void
work_reshape_cancel(const PartmgrAction *action, PartmgrActionWork *work)
{
	const PartmgrReshapeTables *r = action->reshape;
	Oid			stage = reshape_relid(r, r->stage);
	Oid			log = reshape_relid(r, r->log);

	if (OidIsValid(r->default_oid) && r->exclusion != NULL &&
		OidIsValid(get_relation_constraint_oid(r->default_oid, r->exclusion,
											   true)))
	{
		work_lock_queued(work, r->default_oid, AccessExclusiveLock);
		work_sql(work,
				 partmgr_ddl_drop_constraint(get_namespace_name(get_rel_namespace(r->default_oid)),
											 get_rel_name(r->default_oid),
											 r->exclusion));
	}
	for (int i = 0; i < r->nsources; i++)
	{
		const char *triggers[2] = {r->trigger, psprintf("%s_truncate",
														r->trigger)};

		if (!OidIsValid(r->source_oids[i]))
			continue;
		for (int t = 0; t < 2; t++)
		{
			if (!OidIsValid(get_trigger_oid(r->source_oids[i], triggers[t],
											true)))
				continue;
			work_lock_queued(work, r->source_oids[i], AccessExclusiveLock);
			work_sql(work,
					 partmgr_ddl_drop_trigger(r->source_schemas[i],
											  r->source_names[i],
											  triggers[t], false));
		}
	}
	if (OidIsValid(stage))
		work_sql(work, partmgr_ddl_drop_table(r->schema, r->stage, false));
	for (int i = 0; i < r->ntargets; i++)
	{
		/* one left out of the staging table by a failed swap */
		Oid			target = reshape_relid(r, r->work_names[i]);

		if (OidIsValid(target) && !get_rel_relispartition(target))
			work_sql(work,
					 partmgr_ddl_drop_table(r->schema, r->work_names[i],
											false));
	}
	if (OidIsValid(log))
		work_sql(work, partmgr_ddl_drop_table(r->schema, r->log, false));
}

/*
 * work_reshape
 *		A step of a reshape (see the action kinds in plan.h).  Its working
 *		tables are its own: nobody else reads or writes them, so they are
 *		locked only where ALTER TABLE takes them anyway.
 */
static void
work_reshape(const PartmgrPlan *plan, const PartmgrAction *action,
			 PartmgrActionWork *work)
{
	const PartmgrSet *set = plan->set;
	const PartmgrReshapeTables *r = action->reshape;
	int			i = action->index;
	ListCell   *lc;

	switch (action->kind)
	{
		case PARTMGR_ACTION_RESHAPE_PREPARE:
			work_private_table(work, set,
							   partmgr_ddl_capture_log(r->schema, r->log,
													   r->nkeys,
													   r->key_columns,
													   r->key_types),
							   r->schema, r->log);
			work_private_table(work, set,
							   partmgr_ddl_create_stage(set, r->stage),
							   r->schema,
							   r->stage);
			break;

		case PARTMGR_ACTION_RESHAPE_TARGET:
			work_new_table(work, set,
						   partmgr_ddl_create_replacement(set, r->unlogged,
														  r->reloptions,
														  r->tablespace,
														  r->schema,
														  r->work_names[i]),
						   r->schema, r->work_names[i]);
			foreach(lc, action->statements)
				work_sql(work, (char *) lfirst(lc));
			if (r->moduli != NULL)
			{
				PartmgrWorkStatement *check;

				check = work_sql(work,
								 partmgr_ddl_hash_check_text(set, r->schema,
															 r->work_names[i],
															 r->moduli[i],
															 r->remainders[i]));
				check->kind = PARTMGR_STMT_HASH_CHECK;
				check->schema = r->schema;
				check->name = r->work_names[i];
				check->parent = set->parent_oid;
				check->modulus = r->moduli[i];
				check->remainder = r->remainders[i];
			}
			if (r->moduli != NULL)
				work_sql(work,
						 partmgr_ddl_attach_hash_to(r->schema, r->stage,
													r->schema,
													r->work_names[i],
													r->moduli[i],
													r->remainders[i]));
			else
				work_sql(work,
						 partmgr_ddl_attach_range_to(set, r->schema, r->stage,
													 r->schema,
													 r->work_names[i],
													 r->lowers[i],
													 r->uppers[i]));
			break;

		case PARTMGR_ACTION_RESHAPE_CAPTURE:
			/* CREATE TRIGGER: writers of the child wait for a moment */
			work_lock_queued(work, r->source_oids[i], ShareRowExclusiveLock);
			foreach(lc,
					partmgr_ddl_capture_triggers(r->source_schemas[i],
												 r->source_names[i],
												 r->trigger, r->schema,
												 r->log, r->nkeys,
												 r->key_columns))
				work_sql(work, (char *) lfirst(lc));
			break;

		case PARTMGR_ACTION_RESHAPE_COPY:
			{
				PartmgrRowSource from = reshape_source(r, i);

				work_lock(work, r->source_oids[i], AccessShareLock);
				work_rows(work,
						  partmgr_ddl_reshape_copy(&from, r->schema, r->stage,
												   action->first_block,
												   action->end_block,
												   false),
						  SPI_OK_INSERT, "rows copied");
				/* a row met twice (moved by an update): ON CONFLICT, slower */
				((PartmgrWorkStatement *) llast(work->statements))->on_duplicate =
					partmgr_ddl_reshape_copy(&from, r->schema, r->stage,
											 action->first_block,
											 action->end_block, true);
				work_read(work, r->source_oids[i],
						  "the blocks to copy are read");
			}
			break;

		case PARTMGR_ACTION_RESHAPE_REPLAY:
			work_replay(work, r);
			break;

		case PARTMGR_ACTION_RESHAPE_RESTART:
			{
				List	   *restart = partmgr_dml_reshape_restart(r->schema,
																  r->stage,
																  r->schema,
																  r->log);

				work_sql(work, linitial(restart));	/* TRUNCATE */
				work_rows(work, lsecond(restart), SPI_OK_DELETE, NULL);
			}
			break;

		case PARTMGR_ACTION_RESHAPE_FINISH:
			/* the new child is nobody else's yet: what it gets locks only it */
			foreach(lc, action->statements)
				work_sql(work, (char *) lfirst(lc));
			break;

		case PARTMGR_ACTION_RESHAPE_EXCLUDE:
			/* catalog only (NOT VALID); validated in a step of its own */
			work_lock_queued(work, r->default_oid, AccessExclusiveLock);
			work_sql(work, partmgr_ddl_add_range_exclusion_named(set,
																 get_namespace_name(get_rel_namespace(r->default_oid)),
																 get_rel_name(r->default_oid),
																 r->exclusion,
																 r->lowers[0],
																 r->uppers[r->ntargets - 1]));
			break;

		case PARTMGR_ACTION_RESHAPE_SWAP:
			work_reshape_swap(plan, action, work);
			break;

		case PARTMGR_ACTION_RESHAPE_DROP_OLD:
			work_reshape_drop_old(r, work);
			break;

		case PARTMGR_ACTION_RESHAPE_CANCEL:
			work_reshape_cancel(action, work);
			break;

		default:
			elog(ERROR, "not a step of a reshape: %d", (int) action->kind);
	}
}

/*
 * work_unique
 *		Making or dropping a global unique constraint: SHARE ROW EXCLUSIVE
 *		on the parent and every table below it (no row is written while its
 *		triggers change), then its DDL; a new side table is pg_partmgr's own
 *		(work_private_table), and its entries are entered between the
 *		triggers and the side table's indexes (PARTMGR_STMT_UNIQUE_FILL,
 *		which says it as the INSERT it runs).
 */
static void
work_unique(const PartmgrSet *set, const PartmgrAction *action,
			PartmgrActionWork *work)
{
	const PartmgrUnique *u = action->unique;
	ListCell   *lc;

	work_lock(work, set->parent_oid, ShareRowExclusiveLock);
	foreach(lc, action->tables)
	{
		if (lfirst_oid(lc) != set->parent_oid)
			work_lock(work, lfirst_oid(lc), ShareRowExclusiveLock);
	}
	foreach(lc, action->statements)
	{
		if (action->kind == PARTMGR_ACTION_UNIQUE_CREATE &&
			foreach_current_index(lc) == 0)
			work_private_table(work, set, (char *) lfirst(lc), u->side_schema,
							   u->side_name);
		else
			work_sql(work, (char *) lfirst(lc));
	}
	if (action->kind == PARTMGR_ACTION_UNIQUE_CREATE)
	{
		PartmgrWorkStatement *fill;

		fill = work_sql(work,
						partmgr_dml_side_fill(u->side_schema, u->side_name,
											  set->parent_schema,
											  set->parent_name,
											  u->ncols, u->columns));
		fill->kind = PARTMGR_STMT_UNIQUE_FILL;
		fill->unique = u;
		work_read(work, set->parent_oid,
				  "its keys are entered into the side table");
	}
	foreach(lc, action->after_statements)
		work_sql(work, (char *) lfirst(lc));
}

/*
 * partmgr_action_work
 *		Work out an action (see "Working out an action" above): with
 *		work->take_locks, each lock is taken as it is listed, conditionally
 *		and bounded; without, nothing is locked beyond ACCESS SHARE where a
 *		table's contents decide what happens.  work->skip says why a run
 *		would skip the action.
 */
void
partmgr_action_work(const PartmgrPlan *plan, const PartmgrAction *action,
					PartmgrActionWork *work)
{
	const PartmgrSet *set = plan->set;
	Oid			default_oid;
	ListCell   *lc;

	work->owner = set->parent_owner;
	switch (action->kind)
	{
		case PARTMGR_ACTION_CREATE_CHILD:
		case PARTMGR_ACTION_CREATE_DEFAULT:
			if (action->staged)
				work_staged_child(plan, action, work);
			else
				work_create(plan, action, work);
			break;

		case PARTMGR_ACTION_FILL_STAGED:
			work_fill_staged(plan, action, work);
			break;

		case PARTMGR_ACTION_ATTACH_CHILD:

			/*
			 * the rows of its range that reached the default partition since
			 * the last batch, then the attach, which checks the default
			 * partition under the same lock
			 */
			work_lock(work, set->parent_oid, ShareUpdateExclusiveLock);
			default_oid = get_default_partition_oid(set->parent_oid);
			if (OidIsValid(default_oid))
				work_lock(work, default_oid, AccessExclusiveLock);
			work_lock(work, action->relid, AccessExclusiveLock);
			if (OidIsValid(action->from.relid))
				work_move(work, set, &action->from, action->schema,
						  action->name,
						  action->lower, action->upper);
			if (OidIsValid(default_oid))
				work_read(work, default_oid,
						  "ATTACH checks that it holds no row of the new range");
			work_sql(work,
					 partmgr_ddl_attach_range(set, action->schema, action->name,
											  action->lower,
											  action->upper));
			work_sql(work,
					 partmgr_ddl_drop_bound_check(action->schema,
												  action->name));
			break;

		case PARTMGR_ACTION_ADD_CONSTRAINTS:
			/* catalog only (NOT VALID): the child is locked for a moment */
			work_lock(work, action->relid, AccessExclusiveLock);
			work_sql(work, partmgr_ddl_add_checks(action->schema, action->name,
												  action->constraints,
												  action->checks));
			break;

		case PARTMGR_ACTION_VALIDATE_CONSTRAINT:
			/* reads and writes of the child go on meanwhile */
			work_lock(work, action->relid, ShareUpdateExclusiveLock);
			work_sql(work,
					 partmgr_ddl_validate_constraint(action->schema,
													 action->name,
													 (const char *) linitial(action->constraints)))->kind = PARTMGR_STMT_VALIDATE;
			work_read(work, action->relid,
					  "VALIDATE CONSTRAINT checks every row");
			break;

		case PARTMGR_ACTION_DROP_CONSTRAINTS:
			work_lock(work, action->relid, AccessExclusiveLock);
			work_sql(work,
					 partmgr_ddl_drop_constraints(action->schema, action->name,
												  action->constraints));
			break;

		case PARTMGR_ACTION_ALTER_CHILD:

			/*
			 * ALTER OWNER, SET LOGGED and the like: the child alone; one that
			 * another role owns only when it is given back first
			 */
			add_lock(work, action->relid, AccessExclusiveLock, false,
					 !action->gives_back);
			foreach(lc, action->caller_statements)
				work_sql(work,
						 (char *) lfirst(lc))->kind = PARTMGR_STMT_CALLER_UTILITY;
			foreach(lc, action->statements)
				work_sql(work, (char *) lfirst(lc));
			break;

		case PARTMGR_ACTION_MOVE_ROWS:
			work_lock(work, action->from.relid, RowExclusiveLock);
			if (action->retire.archive != NULL)
			{
				check_not_referenced(action->from.relid);
				work_size(work, action->from.relid);
				work_archive_count(work, set, action);
			}
			work_move(work, set, &action->from, action->to_schema,
					  action->to_name,
					  action->lower, action->upper);
			if (action->retire.archive != NULL)
				work_archive_count(work, set, action);
			break;

		case PARTMGR_ACTION_RETIRE_CHILD:
			/* a plain DETACH takes all of these in ACCESS EXCLUSIVE mode */
			work_lock(work, set->parent_oid, AccessExclusiveLock);
			default_oid = get_default_partition_oid(set->parent_oid);
			if (OidIsValid(default_oid))
				work_lock(work, default_oid, AccessExclusiveLock);
			work_lock(work, action->relid, AccessExclusiveLock);
			work_referencing_tables(work, action->relid);
			if (action->retire.archive != NULL &&
				action->retire.archive_as != NULL)
			{
				work_archive_attach(set, action, work);
				break;
			}
			work_forget_sub_sets(work, action->relid);
			if (action->retire.archive != NULL)
				work_archive_rest(set, action, work);
			work_sql(work,
					 partmgr_ddl_detach(set, action->schema, action->name, ""));
			partmgr_work_unique_forget(work, set->parent_oid, action->relid);
			partmgr_work_retire(work, action);
			break;

		case PARTMGR_ACTION_UNIQUE_CLEANUP:
			work_lock(work, action->relid, RowExclusiveLock);
			foreach(lc, action->statements)
				work_sql(work,
						 (char *) lfirst(lc))->kind = PARTMGR_STMT_UNIQUE_FORGET;
			break;

		case PARTMGR_ACTION_UNIQUE_CREATE:
		case PARTMGR_ACTION_UNIQUE_DROP:
			work_unique(set, action, work);
			break;

		case PARTMGR_ACTION_ANALYZE:

			/*
			 * What ANALYZE of a partitioned table locks, taken first, in its
			 * order: SHARE UPDATE EXCLUSIVE on the parent, then ACCESS SHARE
			 * on every table below it (all levels), so that a table held by
			 * another session is named when the wait is given up
			 */
			work_lock(work, set->parent_oid, ShareUpdateExclusiveLock);
			foreach(lc, find_all_inheritors(set->parent_oid, NoLock, NULL))
			{
				if (lfirst_oid(lc) != set->parent_oid)
					work_lock(work, lfirst_oid(lc), AccessShareLock);
			}
			work_sql(work, partmgr_ddl_analyze(set, action->skip_locked));
			break;

		case PARTMGR_ACTION_RESHAPE_PREPARE:
		case PARTMGR_ACTION_RESHAPE_TARGET:
		case PARTMGR_ACTION_RESHAPE_CAPTURE:
		case PARTMGR_ACTION_RESHAPE_COPY:
		case PARTMGR_ACTION_RESHAPE_REPLAY:
		case PARTMGR_ACTION_RESHAPE_RESTART:
		case PARTMGR_ACTION_RESHAPE_FINISH:
		case PARTMGR_ACTION_RESHAPE_EXCLUDE:
		case PARTMGR_ACTION_RESHAPE_SWAP:
		case PARTMGR_ACTION_RESHAPE_CANCEL:
		case PARTMGR_ACTION_RESHAPE_DROP_OLD:
			work_reshape(plan, action, work);
			break;

		case PARTMGR_ACTION_REGISTER_MOVE:
			{
				PartmgrWorkStatement *stmt;

				/* a row of reshape_operation: the runner carries it out */
				const PartmgrReshapeOp *op = action->move;
				bool		hash = strncmp(op->kind, "hash ", 5) == 0;

				stmt = work_sql(work,
								psprintf("INSERT INTO partmgr.reshape_operation"
										 " (parent_table, kind, source_tables, target_tables,"
										 " target_bounds, target_tablespace)"
										 " VALUES (%s, %s, ARRAY[%s], ARRAY[%s], ARRAY[%s%s%s], %s)",
										 quote_literal_cstr(op->key),
										 quote_literal_cstr(op->kind),
										 quote_literal_cstr(op->sources[0]),
										 quote_literal_cstr(op->targets[0]),
										 quote_literal_cstr(op->bounds[0]),
										 hash ? "" : ", ",
										 hash ? "" : quote_literal_cstr(op->bounds[1]),
										 quote_literal_cstr(op->tablespace)));
				stmt->kind = PARTMGR_STMT_REGISTER_MOVE;
				stmt->move = action->move;
			}
			break;

		case PARTMGR_ACTION_FINALIZE_DETACH:
			work_lock(work, set->parent_oid, ShareUpdateExclusiveLock);
			work_lock(work, action->relid, AccessExclusiveLock);
			work_forget_sub_sets(work, action->relid);
			work_sql(work,
					 partmgr_ddl_detach(set, action->schema, action->name,
										" FINALIZE"));
			partmgr_work_retire(work, action);
			break;
	}
}
