/*-------------------------------------------------------------------------
 *
 * runner.c
 *	  Maintain a list of partition sets: the one loop that the background
 *	  worker, run_maintenance() and run_maintenance_proc() share.
 *
 * The sets are taken in maintenance_order (then by name), each maintained
 * by partmgr_maintain_set: isolated from the others (a failing set is a
 * WARNING and the loop goes on), with its owner's rights, and left out
 * quietly when the caller lacks its owner's privileges -- the worker says
 * so in a WARNING.  What differs between the callers is in the
 * PartmgrRunOptions they pass, never in a global:
 *
 * Transactions.  PARTMGR_RUN_IN_CALLERS maintains every set in the
 * caller's transaction (run_maintenance(), or run_maintenance_proc()
 * called where it cannot commit); a set that needs more than
 * pg_partmgr.children_per_transaction children gets a NOTICE and the rest
 * waits for the next run.  PARTMGR_RUN_COMMIT_SPI commits through SPI
 * after each set (run_maintenance_proc() in a CALL of its own), and
 * PARTMGR_RUN_OWN_TRANSACTIONS starts and commits a transaction per set
 * (the worker, which holds no transaction between sets); both maintain a
 * set again in a new transaction until it has what it needs, validate the
 * constraints it added NOT VALID in a transaction of their own once those
 * are committed, and the worker runs the concurrent detaches retention
 * asked for outside any transaction.  In a transaction of its own, an
 * error that escapes a set's handling is reported, the transaction rolled
 * back and the failure recorded in a new one; if the extension was dropped
 * meanwhile the run stops.
 *
 * maintenance_last_run of the sets that finished is written at the end, in
 * one statement (see PartmgrRunStamps).  Memory: what one set allocates is
 * freed before the next, however many sets there are.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/runner.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#ifndef WIN32
#include <sys/resource.h>
#endif

#include "access/xact.h"
#include "access/xlog.h"
#include "commands/dbcommands.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/interrupt.h"
#include "storage/fd.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "citus.h"
#include "config.h"
#include "detach.h"
#include "locks.h"
#include "log.h"
#include "maintenance.h"
#include "own_tables.h"
#include "prefetch.h"
#include "reshape.h"
#include "runner.h"
#include "tiers.h"

/* How maintain_once left a set. */
typedef enum SetStep
{
	SET_DONE,
	SET_MORE,					/* it needs another transaction */
	SET_STOP,					/* the extension is gone: stop the run */
	SET_GIVE_UP					/* DDL holds pg_partmgr's tables: stop the run
								 * (said in the log) */
} SetStep;

/*
 * partmgr_run_lock_own
 *		The first locks of every transaction of a run in the background: ROW
 *		EXCLUSIVE on each of pg_partmgr's own relations, in OID order,
 *		without queueing (own_tables.c).  When another session holds one
 *		(DROP EXTENSION, ALTER EXTENSION UPDATE, other DDL on them), a LOG
 *		line says that the run stops, and false is returned: the run gives
 *		up its turn rather than wait for the DDL, which would deadlock with
 *		it once the DDL reaches a set's table the run holds.
 */
bool
partmgr_run_lock_own(void)
{
	Oid			refused = partmgr_own_try_lock();
	char	   *name;
	char	   *pids;
	int			count;

	if (!OidIsValid(refused))
		return true;
	name = get_rel_name(refused);
	pids = partmgr_lock_holders(refused, RowExclusiveLock, &count);
	ereport(LOG,
			(errmsg("pg_partmgr: the maintenance run in database \"%s\" stops: table %s is locked by another session",
					get_database_name(MyDatabaseId),
					name ? quote_qualified_identifier(PARTMGR_SCHEMA, name) :
					"?"),
			 count > 0 ?
			 errdetail_plural("Process %s holds a lock that conflicts with ROW EXCLUSIVE, as DROP EXTENSION, ALTER EXTENSION UPDATE and other DDL on pg_partmgr's tables do; the run does not wait for it longer than pg_partmgr.lock_timeout (%d ms).",
							  "Processes %s hold locks that conflict with ROW EXCLUSIVE, as DROP EXTENSION, ALTER EXTENSION UPDATE and other DDL on pg_partmgr's tables do; the run does not wait for them longer than pg_partmgr.lock_timeout (%d ms).",
							  count, pids, partmgr_lock_timeout) :
			 errdetail("A conflicting lock request is queued ahead of it."),
			 errhint("The next run goes on.")));
	return false;
}

/*
 * begin_step, end_step
 *		The transaction one step of a set runs in, as opts says: the
 *		caller's (but a snapshot when the caller holds none); the caller's,
 *		committed through SPI at the end; or one started here and committed
 *		at the end.  Either way its first locks are those on pg_partmgr's
 *		own relations (see partmgr_run_lock_own; a caller's transaction gets
 *		55P03 where they are taken).  Each step has an SPI connection of its
 *		own, so the results of its queries are freed when it ends (a
 *		caller's connection would keep them to the end of the run).
 *		begin_step returns SET_DONE when the step may go on; in a
 *		transaction of its own, SET_STOP when it finds the extension
 *		dropped, SET_GIVE_UP when DDL holds pg_partmgr's tables (the
 *		transaction is then over).  activity is what pg_stat_activity shows
 *		meanwhile.
 */
static SetStep
begin_step(const PartmgrRunOptions *opts, const char *activity, bool *snapshot)
{
	*snapshot = false;
	if (opts->transactions == PARTMGR_RUN_OWN_TRANSACTIONS)
	{
		SetStep		refused = SET_DONE;

		SetCurrentStatementStartTimestamp();
		StartTransactionCommand();
		pgstat_report_activity(STATE_RUNNING, activity);
		if (!partmgr_run_lock_own())
			refused = SET_GIVE_UP;
		else if (!partmgr_config_present())
			refused = SET_STOP;
		if (refused != SET_DONE)
		{
			CommitTransactionCommand();
			return refused;
		}
	}
	else
		partmgr_own_lock();
	/* the step's query results go when it ends, however many sets follow */
	SPI_connect();
	if (!ActiveSnapshotSet())
	{
		PushActiveSnapshot(GetTransactionSnapshot());
		*snapshot = true;
	}
	return SET_DONE;
}

static void
end_step(const PartmgrRunOptions *opts, bool snapshot)
{
	if (snapshot)
		PopActiveSnapshot();
	SPI_finish();
	switch (opts->transactions)
	{
		case PARTMGR_RUN_IN_CALLERS:
			break;
		case PARTMGR_RUN_COMMIT_SPI:
			/* the caller's nonatomic connection commits */
			SPI_commit();
			break;
		case PARTMGR_RUN_OWN_TRANSACTIONS:
			CommitTransactionCommand();
			break;
	}
}

/*
 * report_dropped
 *		The LOG line that says why a run in transactions of its own stops:
 *		the extension was dropped while it ran.
 */
static void
report_dropped(void)
{
	char	   *dbname;

	StartTransactionCommand();
	dbname = get_database_name(MyDatabaseId);
	ereport(LOG,
			(errmsg("pg_partmgr: extension pg_partmgr was dropped from database \"%s\" during a maintenance run; the worker stops",
					dbname ? dbname : "?")));
	CommitTransactionCommand();
}

/*
 * report_more
 *		Tell a caller that cannot commit that a set needs more than one
 *		transaction's worth of children (or retirements).
 */
static void
report_more(const char *key)
{
	ereport(NOTICE,
			(errmsg("partition set \"%s\" needs more changes than one transaction makes", key),
			 errdetail("Maintenance creates and retires at most %d children of a set per transaction (pg_partmgr.children_per_transaction).",
					   partmgr_children_per_transaction),
			 errhint("The next maintenance run goes on; the background worker and run_maintenance_proc() go on at once.")));
}

/* What became of one set, for the loop over the sets. */
typedef struct SetResult
{
	bool		not_permitted;	/* left out: the caller lacks the owner's
								 * privileges */
	int			failed;			/* the SQLSTATE of its failure (a lock not
								 * granted in time is none), or 0 */
	bool		tiers;			/* it has storage tiers: its moves go on */
} SetResult;

/*
 * report_set_failure
 *		Tell the caller a set could not be (fully) maintained: a WARNING that
 *		keeps the original SQLSTATE, message, detail and hint.
 */
static void
report_set_failure(const char *key, const ErrorData *edata)
{
	bool		lock_timeout = edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE;

	ereport(WARNING,
			(errcode(edata->sqlerrcode),
			 lock_timeout ?
			 errmsg("skipped partition set \"%s\" for this run: %s", key,
					edata->message) :
			 errmsg("maintenance of partition set \"%s\" failed: %s", key,
					edata->message),
			 edata->detail ? errdetail_internal("%s", edata->detail) : 0,
			 edata->hint ? errhint("%s", edata->hint) : 0,
			 edata->context ? errcontext("%s", edata->context) : 0));
}

/*
 * maintain_once
 *		One pass over one set in one transaction step (see begin_step), then,
 *		where the caller commits, the concurrent detaches and the validation
 *		of constraints that pass asked for.  Errors of the set are handled
 *		by partmgr_maintain_set and reported here; only a named set in the
 *		caller's transaction raises its error (a lock timeout excepted).
 */
static SetStep
maintain_once(PartmgrSet *read, const PartmgrRunOptions *opts,
			  MemoryContext cxt,
			  PartmgrRunStamps *stamps, SetResult *result)
{
	const char *key = read->key;
	PartmgrMaintainOptions mopts;
	PartmgrSetOutcome outcome;
	SetStep		step;
	bool		snapshot;
	ListCell   *lc;

	step = begin_step(opts,
					  psprintf("pg_partmgr: maintaining partition set %s",
							   key), &snapshot);
	if (step != SET_DONE)
		return step;
	MemoryContextSwitchTo(cxt);
	mopts.run_by = opts->run_by;
	mopts.analyze = opts->analyze;
	mopts.all_sets = opts->table == NULL;
	mopts.concurrent_detach =
		opts->transactions == PARTMGR_RUN_OWN_TRANSACTIONS;
	mopts.lock_first = opts->transactions == PARTMGR_RUN_IN_CALLERS;

	/*
	 * the configuration read with the list is current in that transaction; in
	 * a later one it is checked first (partmgr_config_reload)
	 */
	mopts.read_earlier = opts->transactions != PARTMGR_RUN_IN_CALLERS;
	partmgr_maintain_set(key, read, &mopts, &outcome);
	result->not_permitted = outcome.not_permitted;
	result->tiers = outcome.tiers;
	if (outcome.not_permitted && opts->warn_not_permitted)
		ereport(WARNING,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("pg_partmgr worker skipped partition set \"%s\": role \"%s\" lacks the privileges of the table's owner",
						key, GetUserNameFromId(GetUserId(), false)),
				 errhint("Run the worker as a superuser (pg_partmgr.role = ''), or GRANT the owner's role to \"%s\".",
						 GetUserNameFromId(GetUserId(), false))));
	if (outcome.error != NULL)
	{
		if (opts->table != NULL &&
			opts->transactions == PARTMGR_RUN_IN_CALLERS &&
			outcome.error->sqlerrcode != ERRCODE_LOCK_NOT_AVAILABLE)
			ReThrowError(outcome.error);
		report_set_failure(key, outcome.error);
		if (outcome.error->sqlerrcode != ERRCODE_LOCK_NOT_AVAILABLE)
			result->failed = outcome.error->sqlerrcode;
	}
	if (outcome.finished != 0)
		partmgr_stamps_add(stamps, key, outcome.finished);
	if (outcome.more)
	{
		if (opts->transactions == PARTMGR_RUN_IN_CALLERS)
			report_more(key);
		else
			step = SET_MORE;
	}
	end_step(opts, snapshot);
	MemoryContextSwitchTo(cxt);
	if (opts->transactions == PARTMGR_RUN_IN_CALLERS)
		return step;

	/* concurrent detaches run outside any transaction */
	foreach(lc, outcome.deferred)
		partmgr_retire_concurrently(outcome.deferred_plan,
									(const PartmgrAction *) lfirst(lc),
									opts->run_by, cxt);

	/* constraints added NOT VALID are validated once that is committed */
	if (outcome.to_validate)
	{
		PartmgrSetOutcome validated;
		SetStep		begun;

		begun = begin_step(opts,
						   psprintf("pg_partmgr: validating constraints of partition set %s", key),
						   &snapshot);
		if (begun != SET_DONE)
			return begun;
		MemoryContextSwitchTo(cxt);
		partmgr_validate_set(key, opts->run_by, &validated);
		if (validated.error != NULL)
			report_set_failure(key, validated.error);
		end_step(opts, snapshot);
		MemoryContextSwitchTo(cxt);
	}
	return step;
}

/* most steps of moves one set takes in a run besides those that copy */
#define MOVE_STEPS_PER_RUN	100

/* One step of a set's registered move (run_moves). */
typedef struct MoveStep
{
	const char *key;
	const char *run_by;
	int64		budget;			/* bytes the step may copy */
	int64		id;				/* out: the move, or 0: none to carry on */
	PartmgrReshapeStepRun done; /* out */
} MoveStep;

static void
move_step(void *arg)
{
	MoveStep   *m = (MoveStep *) arg;
	int64		id;
	char	   *op_key;

	if (!partmgr_tiers_next_move(m->key, &id, &op_key) ||
		!partmgr_try_lock_operation(id))
		return;					/* none, or run_reshape() carries it out */
	m->id = id;
	PG_TRY();
	{
		partmgr_reshape_run_step(op_key, id, PARTMGR_MOVE_BATCH_ROWS,
								 Max(m->budget, BLCKSZ), m->run_by,
								 &m->done);
	}
	PG_FINALLY();
	{
		partmgr_unlock_operation(id);
	}
	PG_END_TRY();
}

/*
 * run_moves
 *		Carry on the registered move of a set (tiers.c registers them), a
 *		step per transaction, while the run's budget of bytes to copy lasts
 *		(pg_partmgr.tier_bytes_per_run; *budget is what is left of it).  A
 *		step that fails leaves its error in reshape_operation.last_error, is
 *		a WARNING (a lock not had within pg_partmgr.lock_timeout: a LOG
 *		line), and the move waits for the next run.  Only for runs that
 *		commit.  *finished: a move was finished (the set may have another
 *		child to move, which maintaining it again registers).
 */
static SetStep
run_moves(const char *key, const PartmgrRunOptions *opts, MemoryContext cxt,
		  int64 *budget, bool *finished)
{
	*finished = false;
	for (int steps = 0; *budget > 0 && steps < MOVE_STEPS_PER_RUN;)
	{
		MoveStep	m;
		ErrorData  *edata = NULL;
		bool		snapshot;
		bool		ok;
		SetStep		step;

		step = begin_step(opts,
						  psprintf("pg_partmgr: moving a child of partition set %s",
								   key), &snapshot);
		if (step != SET_DONE)
			return step;
		MemoryContextSwitchTo(cxt);
		memset(&m, 0, sizeof(m));
		m.key = key;
		m.run_by = opts->run_by;
		m.budget = *budget;
		ok = partmgr_run_subxact(move_step, &m, &edata);
		if (!ok && m.id != 0)
		{
			partmgr_reshape_record_error(m.id, edata);
			ereport(edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE ?
					LOG : WARNING,
					(errcode(edata->sqlerrcode),
					 errmsg("pg_partmgr: the move of a child of partition set \"%s\" stopped: %s",
							key, edata->message),
					 errhint("The next run goes on with it; CALL partmgr.run_reshape(%s) does at once.",
							 quote_literal_cstr(key))));
		}
		else if (!ok)
			report_set_failure(key, edata);
		end_step(opts, snapshot);
		MemoryContextSwitchTo(cxt);
		*finished = ok && m.done.finished;
		if (!ok || m.id == 0 || m.done.finished)
			return SET_DONE;
		if (m.done.step == PARTMGR_RESHAPE_STEP_COPY)
			*budget -= m.done.bytes;
		else
			steps++;
	}
	return SET_DONE;
}

/*
 * record_crash
 *		After a set's transaction was aborted by an error that escaped its
 *		own handling, record the failure in a new transaction.  False when
 *		DDL holds pg_partmgr's tables (said in the log; nothing recorded).
 */
static bool
record_crash(const char *key, const char *run_by, const ErrorData *edata,
			 TimestampTz started)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	if (!partmgr_run_lock_own())
	{
		CommitTransactionCommand();
		return false;
	}
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
	partmgr_log_action(key, run_by, "maintain set", NULL, NULL, started,
					   PARTMGR_OUTCOME_FAILED, edata);
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
	return true;
}

/*
 * maintain_in_transaction
 *		maintain_once in a transaction of its own: an error escaping it is
 *		reported, the transaction rolled back and the failure recorded --
 *		or, if the extension is gone, the run stops.
 */
static SetStep
maintain_in_transaction(PartmgrSet *read, const PartmgrRunOptions *opts,
						MemoryContext cxt, PartmgrRunStamps *stamps,
						SetResult *result)
{
	TimestampTz started = GetCurrentTimestamp();
	volatile SetStep step = SET_DONE;

	PG_TRY();
	{
		step = maintain_once(read, opts, cxt, stamps, result);
	}
	PG_CATCH();
	{
		ErrorData  *edata;
		bool		present;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		EmitErrorReport();
		FlushErrorState();
		AbortCurrentTransaction();
		SetCurrentStatementStartTimestamp();
		StartTransactionCommand();
		present = OidIsValid(get_extension_oid("pg_partmgr", true));
		CommitTransactionCommand();
		if (!present)
			step = SET_STOP;	/* nothing left to record it in */
		else if (!record_crash(read->key, opts->run_by, edata, started))
			step = SET_GIVE_UP;
	}
	PG_END_TRY();
	if (step == SET_STOP)
		report_dropped();
	pgstat_report_stat(false);
	pgstat_report_activity(STATE_IDLE, NULL);
	return step;
}

/*
 * run_moves_safely
 *		run_moves; in transactions of its own, an error escaping it is
 *		reported and the transaction rolled back, as maintain_in_transaction
 *		does (the move goes on at the next run).
 */
static SetStep
run_moves_safely(const char *key, const PartmgrRunOptions *opts,
				 MemoryContext cxt, int64 *budget, bool *finished)
{
	volatile SetStep step = SET_DONE;

	*finished = false;
	if (opts->transactions != PARTMGR_RUN_OWN_TRANSACTIONS)
		return run_moves(key, opts, cxt, budget, finished);
	PG_TRY();
	{
		step = run_moves(key, opts, cxt, budget, finished);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		EmitErrorReport();
		FlushErrorState();
		AbortCurrentTransaction();
		step = SET_DONE;
	}
	PG_END_TRY();
	pgstat_report_activity(STATE_IDLE, NULL);
	return step;
}

/*
 * write_stamps
 *		maintenance_last_run of the sets that finished, at the end of the
 *		run: in the caller's (last) transaction, or in one of its own, where a
 *		failure is reported and leaves the times as they were.
 */
static void
write_stamps(const PartmgrRunOptions *opts, PartmgrRunStamps *stamps)
{
	MemoryContext cxt = CurrentMemoryContext;
	bool		snapshot;

	if (stamps->n == 0)
		return;
	if (opts->transactions != PARTMGR_RUN_OWN_TRANSACTIONS)
	{
		snapshot = !ActiveSnapshotSet();
		if (snapshot)
			PushActiveSnapshot(GetTransactionSnapshot());
		partmgr_stamps_write(stamps);
		if (snapshot)
			PopActiveSnapshot();
		return;
	}
	PG_TRY();
	{
		if (begin_step(opts, "pg_partmgr: recording maintenance_last_run",
					   &snapshot) == SET_DONE)
		{
			partmgr_stamps_write(stamps);
			end_step(opts, snapshot);
		}
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		EmitErrorReport();
		FlushErrorState();
		AbortCurrentTransaction();
	}
	PG_END_TRY();
	MemoryContextSwitchTo(cxt);
}

/*
 * prefetch_catalogs
 *		Read the catalogs of a run of nsets sets at once (prefetch.c), in
 *		the caller's transaction or, for a run in transactions of its own,
 *		in one started here; the prefetch lives in memory under the
 *		caller's context.  Returns whether it was read.
 */
static bool
prefetch_catalogs(const PartmgrRunOptions *opts, int nsets,
				  MemoryContext caller)
{
	bool		read;

	if (opts->transactions != PARTMGR_RUN_OWN_TRANSACTIONS)
		return partmgr_prefetch_begin(nsets);
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	MemoryContextSwitchTo(caller);
	read = partmgr_prefetch_begin(nsets);
	CommitTransactionCommand();
	MemoryContextSwitchTo(caller);
	return read;
}

/*
 * partmgr_run_list
 *		The sets a run maintains, in maintenance_order: the one named (whatever
 *		its automatic_maintenance says), or every set with automatic
 *		maintenance on.  None on a Citus worker node, whose tables the
 *		coordinator maintains: said once in the log, by a backend the first
 *		time, by the background worker on its database's first pass since
 *		the launcher started (said_before is false then).  In the caller's
 *		transaction, which must be open; takes the run's first locks there,
 *		on pg_partmgr's own relations as they are now (55P03 when DDL holds
 *		one of them; see partmgr_run_lock_own).
 */
List *
partmgr_run_list(const char *table, bool said_before)
{
	static bool said = false;

	/* a Citus worker's tables are shards: the coordinator maintains them */
	if (partmgr_citus_node() == PARTMGR_CITUS_WORKER)
	{
		ereport(said || said_before ? DEBUG1 : LOG,
				(errmsg("pg_partmgr: database \"%s\" is a Citus worker node: maintenance runs on the coordinator, not here",
						get_database_name(MyDatabaseId)),
				 errdetail("Its partitioned tables are shards of distributed tables; the coordinator creates and retires their children.")));
		said = true;
		return NIL;
	}
	/* the run's first locks: pg_partmgr's own relations, as they are now */
	partmgr_own_forget();
	partmgr_own_lock();
	if (table != NULL)
		return list_make1(partmgr_config_load_table(table));
	return partmgr_config_list_sets(true);
}

/*
 * The memory a run reports at its end, in kB: the process's peak resident
 * set (its VmHWM, from getrusage()), and where /proc says it (Linux), what
 * is resident before the run frees its catalog prefetch, split into the
 * process's own memory (RssAnon) and the shared memory it has touched
 * (RssShmem: mostly the shared buffers it read, which every process that
 * reads them counts too).  -1 where not known.
 */
typedef struct RunMemory
{
	long		peak_kb;
	long		private_kb;
	long		shared_kb;
} RunMemory;

/*
 * run_memory
 *		Fill *m (see RunMemory).  A worker's run says it at its end, so that
 *		a pass can be watched without sampling the process from outside.
 */
static void
run_memory(RunMemory *m)
{
#ifndef WIN32
	struct rusage ru;
#endif
#ifdef __linux__
	FILE	   *status;
	char		line[128];
#endif

	m->peak_kb = m->private_kb = m->shared_kb = -1;
#ifndef WIN32
	if (getrusage(RUSAGE_SELF, &ru) == 0)
#if defined(__darwin__)
		m->peak_kb = ru.ru_maxrss / 1024;	/* bytes there */
#else
		m->peak_kb = ru.ru_maxrss;
#endif
#endif
#ifdef __linux__
	status = AllocateFile("/proc/self/status", "r");
	if (status == NULL)
		return;
	while (fgets(line, sizeof(line), status) != NULL)
	{
		if (strncmp(line, "RssAnon:", 8) == 0)
			m->private_kb = strtol(line + 8, NULL, 10);
		else if (strncmp(line, "RssShmem:", 9) == 0)
			m->shared_kb = strtol(line + 9, NULL, 10);
	}
	FreeFile(status);
#endif
}

/*
 * raise_failures
 *		End a run of SQL callers with an ERROR naming the sets that failed
 *		(each was reported in a WARNING and logged as it failed), once every
 *		other set was maintained, as pg_partman does: a job that looks only
 *		at the call's outcome sees it.  The SQLSTATE is the first failure's.
 *		In the caller's transaction (run_maintenance()) the ERROR rolls back
 *		the work of the run as any error does; run_maintenance_proc() has
 *		committed each set's.
 */
static void
raise_failures(List *failed, int first_failure, const PartmgrRunOptions *opts)
{
	StringInfoData names;
	ListCell   *lc;

	initStringInfo(&names);
	foreach(lc, failed)
		appendStringInfo(&names, "%s\"%s\"", names.len > 0 ? ", " : "",
						 (const char *) lfirst(lc));
	ereport(ERROR,
			(errcode(first_failure),
			 errmsg_plural("maintenance of %d partition set failed: %s",
						   "maintenance of %d partition sets failed: %s",
						   list_length(failed), list_length(failed),
						   names.data),
			 opts->transactions == PARTMGR_RUN_IN_CALLERS ?
			 errdetail("Every other set was maintained, in this transaction, which the error rolls back; each failure was reported in a WARNING above.") :
			 errdetail("Every other set was maintained and committed; each failure was reported in a WARNING above and is in partmgr.maintenance_log."),
			 errhint("SET pg_partmgr.on_set_failure = 'warning' to be told by WARNING only.")));
}

/*
 * partmgr_run_sets
 *		Maintain the sets (of PartmgrSet *, from partmgr_run_list) as opts
 *		says (see the file header), pausing opts->pause_seconds between two
 *		sets the caller may maintain.  Does nothing during recovery.  For
 *		PARTMGR_RUN_OWN_TRANSACTIONS no transaction may be open on entry and
 *		none is on return; sets must then live in memory that outlasts them.
 */
void
partmgr_run_sets(List *sets, const PartmgrRunOptions *opts)
{
	MemoryContext caller = CurrentMemoryContext;
	MemoryContext per_set;
	TimestampTz started = GetCurrentTimestamp();
	PartmgrRunStamps stamps;
	ListCell   *lc;
	int			done = 0;
	bool		prefetched;
	bool		say = sets != NIL && message_level_is_interesting(DEBUG1);
	RunMemory	memory;
	List	   *failed = NIL;
	int			first_failure = 0;
	int64		move_budget = (int64) partmgr_tier_bytes_per_run * 1024;

	Assert((opts->transactions == PARTMGR_RUN_OWN_TRANSACTIONS) ==
		   !IsTransactionState());
	if (RecoveryInProgress())
		return;
	prefetched = prefetch_catalogs(opts, list_length(sets), caller);
	partmgr_stamps_init(&stamps);
	per_set = AllocSetContextCreate(caller, "pg_partmgr set maintenance",
									ALLOCSET_DEFAULT_SIZES);
	foreach(lc, sets)
	{
		PartmgrSet *read = (PartmgrSet *) lfirst(lc);
		SetStep		step;
		SetResult	result = {0};
		bool		moved;

		/*
		 * A set that needs more than one transaction's worth goes on at once,
		 * then its moves to a tier, in transactions of their own: after a
		 * move, maintaining the set again registers the next.
		 */
		do
		{
			do
			{
				CHECK_FOR_INTERRUPTS();
				if (opts->transactions == PARTMGR_RUN_OWN_TRANSACTIONS)
				{
					/*
					 * between two transactions, a background process rereads
					 * its settings
					 */
					if (ConfigReloadPending)
					{
						ConfigReloadPending = false;
						ProcessConfigFile(PGC_SIGHUP);
					}
					step = maintain_in_transaction(read, opts, per_set, &stamps,
												   &result);
				}
				else
					step = maintain_once(read, opts, per_set, &stamps, &result);
				MemoryContextSwitchTo(caller);
				MemoryContextReset(per_set);
			} while (step == SET_MORE);
			moved = false;
			if (step == SET_DONE && !result.not_permitted && result.tiers &&
				opts->transactions != PARTMGR_RUN_IN_CALLERS && move_budget > 0)
			{
				step = run_moves_safely(read->key, opts, per_set,
										&move_budget, &moved);
				MemoryContextSwitchTo(caller);
				MemoryContextReset(per_set);
			}
		} while (step == SET_DONE && moved && move_budget > 0);
		if (step == SET_STOP)
		{
			stamps.n = 0;
			break;
		}
		if (result.failed != 0)
		{
			failed = lappend(failed, read->key);
			if (first_failure == 0)
				first_failure = result.failed;
		}
		if (step == SET_GIVE_UP)
			break;				/* the sets done so far get their stamps */
		if (result.not_permitted)
			continue;			/* not the caller's: no pause for it */
		done++;
		if (opts->pause_seconds > 0 && lnext(sets, lc) != NULL)
			partmgr_pause_seconds(opts->pause_seconds);
	}
	MemoryContextDelete(per_set);
	if (say)
		run_memory(&memory);
	if (prefetched)
		partmgr_prefetch_end();
	write_stamps(opts, &stamps);
	if (say)
		ereport(DEBUG1,
				(errmsg_internal("pg_partmgr: %s maintained %d of %d partition sets in database %u in %ld ms, peak memory %ld kB%s",
								 opts->run_by, done, list_length(sets),
								 MyDatabaseId,
								 TimestampDifferenceMilliseconds(started,
																 GetCurrentTimestamp()),
								 memory.peak_kb,
								 memory.private_kb >= 0 &&
								 memory.shared_kb >= 0 ?
								 psprintf(", at the end %ld kB private and %ld kB shared",
										  memory.private_kb,
										  memory.shared_kb) : "")));
	if (failed != NIL && opts->raise_failures)
		raise_failures(failed, first_failure, opts);
}
