/*-------------------------------------------------------------------------
 *
 * execute.c
 *	  Carry out a plan for one partition set without making the
 *	  application wait.
 *
 * Locks.  Before an action runs its statements, the locks they need are
 * taken here, in a fixed order -- the parent (SHARE UPDATE EXCLUSIVE), then
 * the default partition (ACCESS EXCLUSIVE, because ATTACH checks it) -- and
 * conditionally: a request that cannot be granted at once is withdrawn, not
 * queued, so no query ever waits behind maintenance for these locks.  The
 * request is retried with a growing pause until pg_partmgr.lock_timeout has
 * passed; then the action fails with SQLSTATE 55P03 and an error that names
 * the table, the mode and the processes holding conflicting locks.  The
 * statements themselves run with lock_timeout set to the same value, which
 * bounds any further lock (an index of the parent, a table named by a
 * foreign key) that could not be taken ahead.  Locks are held to the end of
 * the transaction, as DDL requires.  On a Citus set, the statements also
 * run on the workers, where these requests do not reach: before a plan
 * locks anything, the executor asks the workers whether another session
 * holds a conflicting lock on the shards of its tables, and again while one
 * does, for as long (wait_for_worker_shards); and the statements'
 * lock_timeout is sent on to the workers (citus.c).
 *
 * Transactions.  Each action runs in its own subtransaction inside the
 * caller's transaction; execution stops at the first failure, keeping the
 * actions already done.  Every action is recorded in the maintenance log.
 * Committing is the caller's business.
 *
 * Rights.  A plan is carried out inside the scope of the set owner's rights
 * (rights.c), entered by whoever made the plan: every statement on the
 * set's tables runs as the owner, in a security-restricted operation, so
 * new tables belong to the owner from the start; the configuration and the
 * log are written with the caller's rights.  Only the worker's concurrent
 * detach, which commits in the middle, runs as the owner outside such an
 * operation (see partmgr_retire_concurrently).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/actions/execute.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "catalog/pg_namespace.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "compat.h"
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
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/portal.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "bounds.h"
#include "catalog.h"
#include "citus.h"
#include "config.h"
#include "statements.h"
#include "execute.h"
#include "locks.h"
#include "log.h"
#include "mover.h"
#include "rights.h"
#include "spi_util.h"
#include "work.h"
#include "reshape_state.h"

typedef struct ActionContext
{
	const PartmgrPlan *plan;
	const PartmgrAction *action;
	const char *run_by;			/* who runs the plan (maintenance_log) */
	uint64		rows;			/* rows the action moved */
	const char *rows_from;		/* where they came from */
	const char *note;			/* what else the log row should say */
	List	   *statements;		/* of char *: the SQL it ran */
} ActionContext;

/* A statement run in a subtransaction of its own (run_validate). */
static void
run_utility(void *sql)
{
	partmgr_spi_table_utility((const char *) sql);
}

/*
 * run_validate
 *		VALIDATE CONSTRAINT of a derived constraint.  Rows written into the
 *		child between the scan that derived it and the moment it was added
 *		may lie outside it: then it is dropped (with a WARNING and a note in
 *		the log) and the next pass derives it again from the rows as they
 *		are.  A NOT VALID constraint would only cost a failed scan per pass.
 */
static void
run_validate(ActionContext *ctx, const char *sql)
{
	const PartmgrAction *action = ctx->action;
	const char *constraint = (const char *) linitial(action->constraints);
	char	   *drop;
	ErrorData  *edata = NULL;

	if (partmgr_run_subxact(run_utility, (void *) sql, &edata))
		return;
	if (edata->sqlerrcode != ERRCODE_CHECK_VIOLATION)
		ReThrowError(edata);
	partmgr_lock_relation(action->relid, AccessExclusiveLock);
	drop = partmgr_ddl_drop_constraint(action->schema, action->name,
									   constraint);
	partmgr_spi_table_utility(drop);
	ctx->statements = lappend(ctx->statements, drop);
	ctx->note = "dropped: rows outside it were written before it was added; the next pass derives it again";
	ereport(WARNING,
			(errcode(ERRCODE_CHECK_VIOLATION),
			 errmsg("dropped constraint \"%s\" of \"%s\": %s", constraint,
					quote_qualified_identifier(action->schema, action->name),
					edata->message),
			 errdetail("Rows outside it were written between the scan that derived it and the moment it was added."),
			 errhint("The next maintenance pass derives it again.")));
}

/* A statement of kind ROWS in a subtransaction of its own (run_rows). */
typedef struct RowsRun
{
	const PartmgrWorkStatement *stmt;
	uint64		n;
} RowsRun;

static void
run_rows_once(void *arg)
{
	RowsRun    *rr = (RowsRun *) arg;

	rr->n = partmgr_spi_table_exec(rr->stmt->sql, 0, NULL, NULL, NULL, false,
								   rr->stmt->expected);
}

/*
 * run_rows
 *		A statement on the rows of a reshape's tables.  One with an
 *		on_duplicate form runs in a subtransaction, and when it fails on a
 *		unique violation that form runs instead (and is logged too).
 *		Returns the rows it touched.
 */
static uint64
run_rows(ActionContext *ctx, const PartmgrWorkStatement *stmt)
{
	RowsRun		rr;
	ErrorData  *edata = NULL;

	if (stmt->on_duplicate == NULL)
		return partmgr_spi_table_exec(stmt->sql, 0, NULL, NULL, NULL, false,
									  stmt->expected);
	rr.stmt = stmt;
	rr.n = 0;
	if (partmgr_run_subxact(run_rows_once, &rr, &edata))
		return rr.n;
	if (edata->sqlerrcode != ERRCODE_UNIQUE_VIOLATION)
		ReThrowError(edata);
	ctx->statements = lappend(ctx->statements, stmt->on_duplicate);
	return partmgr_spi_table_exec(stmt->on_duplicate, 0, NULL, NULL, NULL,
								  false,
								  stmt->expected);
}

/*
 * move_in_c
 *		Make the move of a staged fill's COPY and the DELETE after it in one
 *		pass in C (mover.c), unless the move declines: true, with the rows
 *		moved in *moved, when it did.  The log keeps the two statements, the
 *		move they describe.
 */
static bool
move_in_c(ActionContext *ctx, const PartmgrWorkStatement *stmt, uint64 *moved)
{
	const char *declined;

	if (stmt->move_ntargets == 0)
		return false;
	declined = partmgr_move_declined(stmt->move_source, stmt->move_targets,
									 stmt->move_ntargets);
	if (declined != NULL)
	{
		ereport(DEBUG1,
				(errmsg_internal("pg_partmgr: rows of table %u move by statements: %s",
								 stmt->move_source, declined)));
		return false;
	}
	*moved = partmgr_move_rows(ctx->plan->set, stmt->move_source,
							   stmt->move_targets,
							   stmt->move_ntargets, stmt->move_lower,
							   stmt->move_upper);
	return true;
}

/* Whether this transaction holds a lock on relid at least as strong as mode. */
static bool
held_by_me(Oid relid, LOCKMODE mode)
{
	LOCKTAG		tag;

	SET_LOCKTAG_RELATION(tag, MyDatabaseId, relid);
	return partmgr_lock_held_by_me(&tag, mode);
}

/* pg_locks' names of the modes that conflict with mode, as a text[] literal. */
static char *
conflicting_modes(LOCKMODE mode)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	for (LOCKMODE m = AccessShareLock; m <= AccessExclusiveLock; m++)
	{
		if (!DoLockModesConflict(mode, m))
			continue;
		if (buf.len > 1)
			appendStringInfoChar(&buf, ',');
		appendStringInfoString(&buf, GetLockmodeName(DEFAULT_LOCKMETHOD, m));
	}
	appendStringInfoChar(&buf, '}');
	return buf.data;
}

/*
 * wait_for_worker_shards
 *		On Citus, before the plan (arg) takes any lock: the locks its actions
 *		will take (from a dry run of their work) are asked for on the workers
 *		too, in the only way the coordinator can ask there without queueing
 *		-- whether another session holds a conflicting lock on one of the
 *		tables' shards (a query run on a worker, a long reader of a shard).
 *		All the plan's tables are asked about at once, over one new
 *		connection per worker; again after a growing pause while a lock is
 *		held, for at most pg_partmgr.lock_timeout; then 55P03 naming the
 *		table and the worker, before anything was locked or changed, so that
 *		nothing queues behind maintenance on any node.  Tables this
 *		transaction holds the lock on already are left out (their shards are
 *		its own since).  What a query takes on a worker after the look is
 *		bounded by the workers' lock_timeout.  Run in a subtransaction.
 */
static void
wait_for_worker_shards(void *arg)
{
	const PartmgrPlan *plan = (const PartmgrPlan *) arg;
	List	   *wanted = NIL;	/* of PartmgrWorkLock *, each table once */
	List	   *asks = NIL;
	char	   *probe;
	TimestampTz start = GetCurrentTimestamp();
	long		pause_ms = 1;
	ListCell   *lc;

	/* each table once, in the strongest mode an action takes it */
	foreach(lc, plan->actions)
	{
		const PartmgrAction *action = (const PartmgrAction *) lfirst(lc);
		PartmgrActionWork dry;
		ListCell   *ll;

		if (action->kind == PARTMGR_ACTION_RETIRE_CHILD &&
			action->retire.concurrently)
			continue;
		memset(&dry, 0, sizeof(dry));
		partmgr_action_work(plan, action, &dry);
		foreach(ll, dry.locks)
		{
			PartmgrWorkLock *lock = (PartmgrWorkLock *) lfirst(ll);
			PartmgrWorkLock *same = NULL;
			ListCell   *lw;

			if (!OidIsValid(lock->relid))
				continue;
			foreach(lw, wanted)
			{
				if (((PartmgrWorkLock *) lfirst(lw))->relid == lock->relid)
					same = (PartmgrWorkLock *) lfirst(lw);
			}
			if (same == NULL)
				wanted = lappend(wanted, lock);
			else if (lock->mode > same->mode)
				same->mode = lock->mode;
		}
	}
	foreach(lc, wanted)
	{
		PartmgrWorkLock *lock = (PartmgrWorkLock *) lfirst(lc);
		PartmgrShardLockAsk *ask;
		char	   *name;

		if (!partmgr_citus_table(lock->relid) ||
			held_by_me(lock->relid, lock->mode))
			continue;
		name = get_rel_name(lock->relid);
		if (name == NULL)
			continue;
		ask = palloc0(sizeof(PartmgrShardLockAsk));
		ask->schema = get_namespace_name(get_rel_namespace(lock->relid));
		ask->name = name;
		ask->label = psprintf("%s (%s)", name,
							  partmgr_lock_mode_name(lock->mode));
		ask->modes = conflicting_modes(lock->mode);
		asks = lappend(asks, ask);
	}
	if (asks == NIL)
		return;
	probe = partmgr_query_shard_lock_probe(asks);

	for (;;)
	{
		const char *node;
		const char *busy;
		bool		isnull;

		partmgr_spi_table_exec(probe, 0, NULL, NULL, NULL, true, SPI_OK_SELECT);
		if (SPI_processed == 0)
			return;
		node = partmgr_spi_text(0, 1);
		busy = partmgr_spi_text(0, 3);
		if (!DatumGetBool(partmgr_spi_value(0, 2, &isnull)))
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_EXCEPTION),
					 errmsg("could not ask Citus worker %s which locks its shards hold: %s",
							node, busy)));
		/* each look opens a connection to every worker: not too often */
		if (!partmgr_pause_within(start, partmgr_lock_timeout, &pause_ms, 50))
			ereport(ERROR,
					(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
					 errmsg("could not lock table %s on Citus worker %s within %d ms: another session holds a conflicting lock on its shards there",
							busy, node, partmgr_lock_timeout),
					 errdetail("Nothing was locked or changed: maintenance asks the workers before it takes any lock, so that no query waits behind it."),
					 errhint("The work is left for the next maintenance run; pg_partmgr.lock_timeout sets how long to try.")));
	}
}

/*
 * execute_action
 *		Work the action out taking each lock as it is listed (parent, then
 *		default partition, then the child, then tables whose foreign keys
 *		reference it; see partmgr_action_work), then run its statements with
 *		lock_timeout bounded.  Called in a subtransaction, inside the scope
 *		of the set owner's rights (rights.c): every statement runs as the
 *		owner, so the tables it creates are the owner's and nothing the owner
 *		defined runs with the caller's rights.  The configuration and the log
 *		are written with the caller's (spi_util.c).
 */
static void
execute_action(void *arg)
{
	ActionContext *ctx = (ActionContext *) arg;
	const PartmgrAction *action = ctx->action;
	int			nestlevel = NewGUCNestLevel();
	PartmgrActionWork work;
	uint64		copied = 0;
	bool		moved_in_c = false;
	bool		counted = false;
	int64		archived_before = 0;
	uint64		rows_before = 0;
	ListCell   *lc;

	(void) set_config_option("lock_timeout",
							 psprintf("%d", partmgr_lock_timeout),
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
							 true, 0, false);

	memset(&work, 0, sizeof(work));
	work.take_locks = true;
	partmgr_action_work(ctx->plan, action, &work);

	/*
	 * on Citus, the statements run on the workers too: bound their waits
	 * there
	 */
	if (work.statements != NIL &&
		partmgr_citus_sequential(ctx->plan->set->parent_oid))
	{
		partmgr_citus_propagate_set_local();
		partmgr_spi_table_utility(partmgr_ddl_remote_lock_timeout(partmgr_lock_timeout));
		partmgr_citus_report(ctx->plan->set->parent_oid, ctx->plan->set->key,
							 partmgr_lock_timeout);
	}
	foreach(lc, work.statements)
	{
		PartmgrWorkStatement *stmt = (PartmgrWorkStatement *) lfirst(lc);
		uint64		n;

		ctx->statements = lappend(ctx->statements, stmt->sql);
		switch (stmt->kind)
		{
			case PARTMGR_STMT_UTILITY:
				partmgr_spi_table_utility(stmt->sql);
				break;
			case PARTMGR_STMT_CALLER_UTILITY:
				partmgr_spi_exec(stmt->sql, 0, NULL, NULL, NULL, false,
								 SPI_OK_UTILITY);
				break;
			case PARTMGR_STMT_VALIDATE:
				run_validate(ctx, stmt->sql);
				break;
			case PARTMGR_STMT_SUB_SET:
				Assert(ctx->plan->register_sub_set != NULL);
				ctx->plan->register_sub_set(ctx->plan, action, ctx->run_by);
				break;
			case PARTMGR_STMT_FORGET:

				/*
				 * stmt->sql says it for the log; the keys travel as a
				 * parameter
				 */
				partmgr_config_forget(stmt->keys);
				break;
			case PARTMGR_STMT_UNIQUE_FORGET:
				ctx->rows += partmgr_spi_table_exec(stmt->sql, 0, NULL, NULL,
													NULL, false,
													SPI_OK_DELETE);
				break;
			case PARTMGR_STMT_HASH_CHECK:
				partmgr_add_hash_check(get_relname_relid(stmt->name,
														 get_namespace_oid(stmt->schema, false)),
									   stmt->parent, stmt->modulus,
									   stmt->remainder,
									   PARTMGR_BOUND_CHECK);
				break;
			case PARTMGR_STMT_UNIQUE_FILL:
				partmgr_unique_fill(stmt->unique, ctx->plan->set->parent_oid,
									false);
				break;
			case PARTMGR_STMT_REGISTER_MOVE:
				(void) partmgr_reshape_insert(stmt->move);
				break;
			case PARTMGR_STMT_SIZE:
				{
					bool		isnull;

					partmgr_spi_table_exec(stmt->sql, 0, NULL, NULL, NULL,
										   false, SPI_OK_SELECT);
					ctx->note = psprintf(INT64_FORMAT " bytes (table and indexes)",
										 DatumGetInt64(partmgr_spi_value(0, 1, &isnull)));
				}
				break;
			case PARTMGR_STMT_COUNT_ARCHIVE:
				{
					bool		isnull;
					int64		found;

					partmgr_spi_table_exec(stmt->sql, 0, NULL, NULL, NULL,
										   false, SPI_OK_SELECT);
					found = DatumGetInt64(partmgr_spi_value(0, 1, &isnull));
					if (!counted)
					{
						counted = true;
						archived_before = found;
						rows_before = ctx->rows;
						break;
					}
					/* every row moved is there, and no other row went */
					if (found != archived_before +
						(int64) (ctx->rows - rows_before))
						ereport(ERROR,
								(errcode(ERRCODE_TRIGGERED_ACTION_EXCEPTION),
								 errmsg("not every row of %s reached archive %s: %llu moved, but its rows of that range went from " INT64_FORMAT " to " INT64_FORMAT,
										stmt->rows_from,
										quote_qualified_identifier(stmt->schema,
																   stmt->name),
										(unsigned long long) (ctx->rows - rows_before),
										archived_before, found),
								 errdetail("A trigger, a rule or a row security policy of the archive kept rows from arriving, or another session changed the archive's rows of that range meanwhile. The move is rolled back; no row was lost."),
								 errhint("Drop or change what swallows the rows; retention retries on the next run.")));
					counted = false;
				}
				break;
			case PARTMGR_STMT_PRIVATE:
				partmgr_spi_table_utilities(partmgr_private_table_sql(get_relname_relid(stmt->name,
																						get_namespace_oid(stmt->schema,
																										  false))));
				break;
			case PARTMGR_STMT_ROWS:
				n = run_rows(ctx, stmt);
				if (stmt->counted_as != NULL)
				{
					ctx->rows += n;
					ctx->note = psprintf("%llu %s",
										 (unsigned long long) ctx->rows,
										 stmt->counted_as);
				}
				break;
			case PARTMGR_STMT_MOVE:
			case PARTMGR_STMT_COPY:
			case PARTMGR_STMT_DELETE:
				if (stmt->kind == PARTMGR_STMT_COPY &&
					move_in_c(ctx, stmt, &copied))
				{
					moved_in_c = true;
					break;
				}
				if (stmt->kind == PARTMGR_STMT_DELETE && moved_in_c)
					n = copied; /* deleted by the same pass */
				else if (stmt->kind == PARTMGR_STMT_MOVE)
				{
					bool		isnull;

					partmgr_spi_table_exec(stmt->sql, 0, NULL, NULL, NULL,
										   false, SPI_OK_SELECT);
					n = DatumGetInt64(partmgr_spi_value(0, 1, &isnull));
					copied = DatumGetInt64(partmgr_spi_value(0, 2, &isnull));
				}
				else
					n = partmgr_spi_table_exec(stmt->sql, 0, NULL, NULL, NULL,
											   false,
											   stmt->kind == PARTMGR_STMT_DELETE ?
											   SPI_OK_DELETE : SPI_OK_INSERT);
				if (stmt->kind == PARTMGR_STMT_COPY)
				{
					copied = n;
					break;
				}
				/* every row taken out of the source must have been written */
				if (n != copied)
					ereport(ERROR,
							(errcode(ERRCODE_TRIGGERED_ACTION_EXCEPTION),
							 errmsg("not every row of %s reached %s: %llu read, %llu written",
									stmt->rows_from,
									quote_qualified_identifier(stmt->schema,
															   stmt->name),
									(unsigned long long) n,
									(unsigned long long) copied),
							 errdetail("A trigger on the target kept rows from being written. The move is rolled back; no row was lost."),
							 errhint("Drop or change the trigger, or move the rows with a statement of your own.")));
				ctx->rows += n;
				{
					const char *from = (moved_in_c &&
										stmt->kind == PARTMGR_STMT_DELETE ?
										psprintf("%s in one pass",
												 stmt->rows_from) :
										stmt->rows_from);

					ctx->rows_from = (ctx->rows_from == NULL ? from :
									  psprintf("%s and %s", ctx->rows_from,
											   from));
				}
				break;
		}
	}

	AtEOXact_GUC(true, nestlevel);
	partmgr_report_done(ctx->plan, action, ctx->rows, ctx->rows_from, false);
}

/* The DETAIL of a LOG line whose action moved rows. */
static int
rows_moved_detail(uint64 rows, const char *from)
{
	return errdetail_plural("%llu row moved in from %s.",
							"%llu rows moved in from %s.",
							rows, (unsigned long long) rows, from);
}

/*
 * partmgr_report_done
 *		The LOG line of an action carried out: a whole sentence per kind of
 *		action (names and bounds are its only variables), and, when rows
 *		moved, a DETAIL that says how many and from where.  concurrently:
 *		a retirement whose detach ran CONCURRENTLY.
 */
void
partmgr_report_done(const PartmgrPlan *plan, const PartmgrAction *action,
					uint64 rows,
					const char *rows_from, bool concurrently)
{
	const PartmgrAxis *axis = &plan->set->axis;
	const char *table = quote_qualified_identifier(action->schema,
												   action->name);
	const char *set = partmgr_key_display(plan->set->key);
	const char *list = partmgr_action_bounds(plan, action);
	const char *lower = NULL;
	const char *upper = NULL;

	if (action->kind == PARTMGR_ACTION_CREATE_CHILD ||
		action->kind == PARTMGR_ACTION_ATTACH_CHILD)
	{
		lower = partmgr_point_literal(axis, action->lower);
		upper = partmgr_point_literal(axis, action->upper);
	}
	switch (action->kind)
	{
		case PARTMGR_ACTION_CREATE_CHILD:
			ereport(LOG,
					(errmsg("pg_partmgr: created partition %s of %s for values from %s to %s",
							table, set, lower, upper),
					 rows_from ? rows_moved_detail(rows, rows_from) : 0));
			break;
		case PARTMGR_ACTION_CREATE_DEFAULT:
			ereport(LOG,
					(errmsg("pg_partmgr: created default partition %s of %s",
							table, set)));
			break;
		case PARTMGR_ACTION_ATTACH_CHILD:
			ereport(LOG,
					(errmsg("pg_partmgr: attached partition %s of %s for values from %s to %s",
							table, set, lower, upper),
					 rows_from ? rows_moved_detail(rows, rows_from) : 0));
			break;
		case PARTMGR_ACTION_RETIRE_CHILD:
			if (action->retire.rename_to != NULL)
				ereport(LOG,
						(errmsg("pg_partmgr: detached and renamed partition %s of %s to %s",
								table, set, action->retire.rename_to)));
			else if (action->retire.schema != NULL && concurrently)
				ereport(LOG,
						(errmsg("pg_partmgr: detached and moved partition %s of %s to schema %s (concurrently)",
								table, set, action->retire.schema)));
			else if (action->retire.schema != NULL)
				ereport(LOG,
						(errmsg("pg_partmgr: detached and moved partition %s of %s to schema %s",
								table, set, action->retire.schema)));
			else if (action->retire.keep_table && concurrently)
				ereport(LOG,
						(errmsg("pg_partmgr: detached partition %s of %s (concurrently)",
								table, set)));
			else if (action->retire.keep_table)
				ereport(LOG,
						(errmsg("pg_partmgr: detached partition %s of %s",
								table, set)));
			else if (concurrently)
				ereport(LOG,
						(errmsg("pg_partmgr: detached and dropped partition %s of %s (concurrently)",
								table, set)));
			else
				ereport(LOG,
						(errmsg("pg_partmgr: detached and dropped partition %s of %s",
								table, set)));
			break;
		case PARTMGR_ACTION_FINALIZE_DETACH:
			ereport(LOG,
					(errmsg("pg_partmgr: finished detaching partition %s of %s", table, set)));
			break;
		case PARTMGR_ACTION_MOVE_ROWS:
		case PARTMGR_ACTION_FILL_STAGED:
			ereport(LOG,
					(errmsg("pg_partmgr: moved rows of %s %s", table, list),
					 rows_from ? rows_moved_detail(rows, rows_from) : 0));
			break;
		case PARTMGR_ACTION_ADD_CONSTRAINTS:
			ereport(LOG,
					(errmsg("pg_partmgr: added constraints to partition %s of %s: %s",
							table, set, list)));
			break;
		case PARTMGR_ACTION_VALIDATE_CONSTRAINT:
			ereport(LOG,
					(errmsg("pg_partmgr: validated constraints of partition %s of %s: %s",
							table, set, list)));
			break;
		case PARTMGR_ACTION_DROP_CONSTRAINTS:
			ereport(LOG,
					(errmsg("pg_partmgr: dropped constraints of partition %s of %s: %s",
							table, set, list)));
			break;
		case PARTMGR_ACTION_ALTER_CHILD:
			ereport(LOG,
					(errmsg("pg_partmgr: altered partition %s of %s", table,
							set)));
			break;
		case PARTMGR_ACTION_UNIQUE_CLEANUP:
			ereport(LOG,
					(errmsg("pg_partmgr: removed entries of children no longer in %s from %s",
							set, table),
					 errdetail_plural("%llu entry was removed.",
									  "%llu entries were removed.",
									  (unsigned long) rows,
									  (unsigned long long) rows)));
			break;
		case PARTMGR_ACTION_UNIQUE_CREATE:
			ereport(LOG,
					(errmsg("pg_partmgr: created global unique constraint \"%s\" of %s, side table %s",
							action->unique->name, set, table)));
			break;
		case PARTMGR_ACTION_UNIQUE_DROP:
			ereport(LOG,
					(errmsg("pg_partmgr: dropped global unique constraint \"%s\" of %s",
							action->unique->name, set)));
			break;
		case PARTMGR_ACTION_ANALYZE:
			ereport(LOG,
					(errmsg("pg_partmgr: analyzed %s", table)));
			break;
		case PARTMGR_ACTION_RESHAPE_SWAP:
			ereport(LOG,
					(errmsg("pg_partmgr: reshaped partitions of %s: %s", set,
							list),
					 rows > 0 ?
					 errdetail_plural("%llu captured change was applied first.",
									  "%llu captured changes were applied first.",
									  (unsigned long) rows,
									  (unsigned long long) rows) : 0));
			break;
		case PARTMGR_ACTION_RESHAPE_PREPARE:
		case PARTMGR_ACTION_RESHAPE_TARGET:
		case PARTMGR_ACTION_RESHAPE_CAPTURE:
		case PARTMGR_ACTION_RESHAPE_COPY:
		case PARTMGR_ACTION_RESHAPE_REPLAY:
		case PARTMGR_ACTION_RESHAPE_RESTART:
		case PARTMGR_ACTION_RESHAPE_FINISH:
		case PARTMGR_ACTION_RESHAPE_EXCLUDE:
		case PARTMGR_ACTION_RESHAPE_CANCEL:
		case PARTMGR_ACTION_RESHAPE_DROP_OLD:
		case PARTMGR_ACTION_REGISTER_MOVE:
			/* steps on working tables: the maintenance log says them */
			ereport(DEBUG1,
					(errmsg("pg_partmgr: %s of %s: %s%s%s",
							partmgr_action_name(action), set,
							table, list ? " " : "", list ? list : "")));
			break;
	}
}

/*
 * partmgr_explain_failure
 *		Recognize the failures that leave one child for later rather than
 *		stop the set -- rows in the default partition inside a new child's
 *		range, rows of an expired child still referenced by a foreign key --
 *		and replace PostgreSQL's message by one that says what and what to
 *		do.  True if it was one of those.
 */
bool
partmgr_explain_failure(const PartmgrPlan *plan, const PartmgrAction *action,
						ErrorData *edata)
{
	const PartmgrAxis *axis = &plan->set->axis;

	if (action->kind == PARTMGR_ACTION_RETIRE_CHILD &&
		edata->sqlerrcode == ERRCODE_FOREIGN_KEY_VIOLATION)
	{
		/* PostgreSQL refused to detach: rows in it are still referenced */
		char	   *original = edata->message;

		edata->detail = psprintf("%s.%s%s", original,
								 edata->detail ? " " : "",
								 edata->detail ? edata->detail : "");
		edata->message = psprintf(_("kept partition \"%s\" of \"%s\": rows in it are still referenced by a foreign key"),
								  action->name, plan->set->key);
		edata->hint = pstrdup(_("Delete or repoint the referencing rows; retention retries on the next run."));
		edata->context = NULL;
		return true;
	}
	if (action->kind != PARTMGR_ACTION_CREATE_CHILD ||
		edata->sqlerrcode != ERRCODE_CHECK_VIOLATION || plan->moving_data)
		return false;
	if (edata->hint != NULL)
		return true;			/* ours (rows_in_default): it says it all */
	edata->message = psprintf(_("the default partition of \"%s\" holds rows for the new child \"%s\""),
							  plan->set->key, action->name);
	edata->detail = psprintf(_("Rows with %s from %s (inclusive) to %s (exclusive) are in the default partition, so the child cannot be attached."),
							 quote_identifier(plan->set->control),
							 partmgr_point_display(axis, action->lower),
							 partmgr_point_display(axis, action->upper));
	edata->hint = psprintf(_("Move them with SELECT partmgr.%s(%s), which creates the child."),
						   axis->kind == PARTMGR_KEY_TIME ?
						   "partition_data_time" : "partition_data_id",
						   quote_literal_cstr(plan->set->key));
	edata->context = NULL;
	return true;
}

/*
 * action_detail
 *		The detail of an action's log row: its bounds, and the rows it moved.
 */
static char *
action_detail(const PartmgrPlan *plan, const ActionContext *ctx, bool ok)
{
	char	   *detail = partmgr_action_bounds(plan, ctx->action);

	if (ctx->rows_from != NULL)
		detail = psprintf("%s; " UINT64_FORMAT " rows moved in from %s",
						  detail ? detail : "", ok ? ctx->rows : 0,
						  ctx->rows_from);
	if (ok && ctx->note != NULL)
		detail = detail ? psprintf("%s; %s", detail,
								   ctx->note) : pstrdup(ctx->note);
	return detail;
}

/*
 * partmgr_execute_plan
 *		Run the plan's actions in order, each in its own subtransaction, and
 *		record each in the maintenance log as run_by.  A child that cannot be
 *		attached because the default partition holds rows of its range is
 *		skipped with a WARNING that says so (the others are still created, so
 *		new rows keep landing in proper children); any other failure stops
 *		execution.  result says how far it got and why it stopped.  Raises no
 *		error of its own except a query cancel.
 */
void
partmgr_execute_plan(const PartmgrPlan *plan, const char *run_by,
					 PartmgrExecResult *result)
{
	ListCell   *lc;
	PartmgrLogBatch log;

	Assert(plan->set != NULL);
	(void) partmgr_rights_require(PARTMGR_RIGHTS_ACT, "executing a plan");
	if (partmgr_rights_owner() != plan->set->parent_owner)
		elog(ERROR,
			 "pg_partmgr: plan of \"%s\" executed with another owner's rights",
			 plan->set->key);
	memset(result, 0, sizeof(*result));
	/* on Citus, nothing is locked while a worker holds what the plan needs */
	if (plan->actions != NIL && partmgr_citus_table(plan->set->parent_oid))
	{
		ErrorData  *edata = NULL;
		TimestampTz started = GetCurrentTimestamp();

		if (!partmgr_run_subxact(wait_for_worker_shards, (void *) plan, &edata))
		{
			const PartmgrAction *first = (const PartmgrAction *) linitial(plan->actions);

			partmgr_log_action(plan->set->key, run_by,
							   partmgr_action_name(first),
							   quote_qualified_identifier(first->schema,
														  first->name),
							   partmgr_action_bounds(plan, first), started,
							   edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE ?
							   PARTMGR_OUTCOME_SKIPPED :
							   PARTMGR_OUTCOME_FAILED, edata);
			result->error = edata;
			result->failed = first;
			return;
		}
	}
	partmgr_log_batch_init(&log, plan->set->key, run_by);
	foreach(lc, plan->actions)
	{
		ActionContext ctx;
		ErrorData  *edata = NULL;
		TimestampTz started = GetCurrentTimestamp();
		bool		ok;
		bool		blocked = false;

		ctx.plan = plan;
		ctx.action = (const PartmgrAction *) lfirst(lc);
		ctx.run_by = run_by;
		if (ctx.action->kind == PARTMGR_ACTION_RETIRE_CHILD &&
			ctx.action->retire.concurrently)
		{
			/* cannot run in a transaction: the caller runs it after commit */
			result->deferred = lappend(result->deferred, (void *) ctx.action);
			continue;
		}
		ctx.rows = 0;
		ctx.rows_from = NULL;
		ctx.note = NULL;
		ctx.statements = NIL;
		ok = partmgr_run_subxact(execute_action, &ctx, &edata);
		if (!ok)
			blocked = partmgr_explain_failure(plan, ctx.action, edata);
		else
			result->rows += ctx.rows;
		partmgr_log_batch_add(&log, partmgr_action_name(ctx.action),
							  quote_qualified_identifier(ctx.action->schema,
														 ctx.action->name),
							  action_detail(plan, &ctx, ok),
							  started,
							  ok ? PARTMGR_OUTCOME_DONE :
							  (blocked ||
							   edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE) ?
							  PARTMGR_OUTCOME_SKIPPED : PARTMGR_OUTCOME_FAILED,
							  edata, ctx.statements);
		if (ok)
		{
			result->ndone++;
			continue;
		}
		if (blocked)
		{
			edata->elevel = WARNING;
			ThrowErrorData(edata);
			result->nskipped++;
			continue;
		}
		result->error = edata;
		result->failed = ctx.action;
		break;
	}
	partmgr_log_batch_write(&log);
}

/*
 * partmgr_execute_or_raise
 *		Execute a plan for an interactive call: any failure is raised (and
 *		rolls back the caller's statement).  Returns how many actions ran,
 *		and in *rows (unless NULL) how many rows they moved.
 */
int
partmgr_execute_or_raise(const PartmgrPlan *plan, const char *run_by,
						 uint64 *rows)
{
	PartmgrExecResult result;

	partmgr_execute_plan(plan, run_by, &result);
	if (result.error != NULL)
		ReThrowError(result.error);
	if (rows != NULL)
		*rows = result.rows;
	return result.ndone;
}
