/*-------------------------------------------------------------------------
 *
 * worker.c
 *	  Background maintenance: a launcher that starts, on a schedule, one
 *	  worker per database; each worker maintains that database's sets.
 *
 * The launcher is registered at server start (shared_preload_libraries),
 * starts once recovery has finished (so never on a standby, and right after
 * a promotion) and is restarted by the postmaster if it dies.  It connects
 * to no database: it reads the shared catalogs pg_database and pg_authid.
 * Runs are aligned to the wall clock -- every pg_partmgr.interval seconds
 * after midnight in the server's time zone -- so they do not drift by the
 * time a run takes.  At each run it starts a dynamic worker for each
 * database that allows connections (or each one in pg_partmgr.databases),
 * at most pg_partmgr.max_workers at once, and skips a database whose
 * previous worker is still running.  A bad setting (unknown role or
 * database) is reported once per run and that run is skipped or narrowed;
 * the launcher keeps running and picks up the corrected value on reload.
 *
 * A worker connects to its database as pg_partmgr.role, checks that the
 * extension is installed at the version this library was built for, prunes
 * the maintenance log, and hands the sets with automatic maintenance on to
 * runner.c, which maintains them in maintenance_order, each in a
 * transaction of its own: an error in one set is reported, recorded in
 * partmgr.maintenance_log, and the worker goes on with the next set.  It
 * holds no transaction or snapshot between sets, and exits when done.
 *
 * Signals: SIGHUP reloads the configuration; SIGTERM ends the process at
 * once (die); postmaster death ends it from any latch wait.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/worker.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_database.h"
#include "commands/dbcommands.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "tcop/tcopprot.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/varlena.h"

#include "log.h"
#include "pg_partmgr.h"
#include "runner.h"
#include "spi_util.h"
#include "worker.h"

/* What a worker needs to know, passed in bgw_extra. */
typedef struct WorkerArgs
{
	Oid			dboid;
	Oid			roleoid;
	bool		first_run;		/* the database's first since the launcher
								 * started */
} WorkerArgs;

/* A database the launcher maintains, and its worker when one runs. */
typedef struct DatabaseSlot
{
	Oid			dboid;
	char		name[NAMEDATALEN];
	BackgroundWorkerHandle *handle; /* NULL when no worker runs */
	bool		started;		/* a worker was started for it before */
} DatabaseSlot;

/*
 * Launcher state, kept from round to round in launcher_context: the slots,
 * the pending list and the worker handles.  Whatever a round needs only
 * while it runs (the parsed pg_partmgr.databases, the scan of pg_database)
 * goes in round_context, which the main loop resets at the top of each
 * iteration.
 */
static MemoryContext launcher_context = NULL;
static MemoryContext round_context = NULL;
static DatabaseSlot *slots = NULL;
static int	nslots = 0;
static List *pending = NIL;		/* of Oid: databases due for a worker */
static Oid	round_role = InvalidOid;

/* pause before trying again when no worker slot was free */
#define RETRY_START_MS	5000

/*
 * partmgr_register_launcher
 *		Register the launcher; called from _PG_init at server start.
 */
void
partmgr_register_launcher(void)
{
	BackgroundWorker worker;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags =
		BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
	worker.bgw_restart_time = 10;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "pg_partmgr");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "pg_partmgr_launcher_main");
	snprintf(worker.bgw_name, BGW_MAXLEN, "pg_partmgr launcher");
	snprintf(worker.bgw_type, BGW_MAXLEN, "pg_partmgr launcher");
	RegisterBackgroundWorker(&worker);
}

/*
 * next_run_time
 *		The first instant after now that is a whole number of intervals after
 *		the last midnight in the server's time zone (runs restart from
 *		midnight every day when the interval does not divide a day).
 */
static TimestampTz
next_run_time(TimestampTz now)
{
	struct pg_tm tm;
	fsec_t		fsec;
	int			tz;
	TimestampTz midnight;
	TimestampTz next_midnight;
	int64		step = (int64) partmgr_interval * USECS_PER_SEC;
	int			julian;

	if (timestamp2tm(now, &tz, &tm, &fsec, NULL, session_timezone) != 0)
		return now + step;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tz = DetermineTimeZoneOffset(&tm, session_timezone);
	if (tm2timestamp(&tm, 0, &tz, &midnight) != 0)
		return now + step;
	julian = date2j(tm.tm_year, tm.tm_mon, tm.tm_mday) + 1;
	j2date(julian, &tm.tm_year, &tm.tm_mon, &tm.tm_mday);
	tz = DetermineTimeZoneOffset(&tm, session_timezone);
	if (tm2timestamp(&tm, 0, &tz, &next_midnight) != 0)
		next_midnight = midnight + USECS_PER_DAY;

	return Min(midnight + ((now - midnight) / step + 1) * step, next_midnight);
}

static DatabaseSlot *
find_slot(Oid dboid)
{
	for (int i = 0; i < nslots; i++)
	{
		if (slots[i].dboid == dboid)
			return &slots[i];
	}
	return NULL;
}

/*
 * database_slot
 *		The slot of a database, created on first use.
 */
static DatabaseSlot *
database_slot(Oid dboid, const char *name)
{
	DatabaseSlot *slot = find_slot(dboid);

	if (slot != NULL)
		return slot;
	/* repalloc keeps the array in launcher_context, where it was made */
	if (slots == NULL)
		slots = MemoryContextAllocZero(launcher_context, sizeof(DatabaseSlot));
	else
		slots = repalloc(slots, sizeof(DatabaseSlot) * (nslots + 1));
	slot = &slots[nslots++];
	memset(slot, 0, sizeof(*slot));
	slot->dboid = dboid;
	strlcpy(slot->name, name, NAMEDATALEN);
	return slot;
}

/*
 * resolve_role
 *		OID of the role workers connect as, or InvalidOid (with a WARNING)
 *		when pg_partmgr.role names no role that can log in.  Needs a
 *		transaction.
 */
static Oid
resolve_role(void)
{
	HeapTuple	tuple;
	Oid			roleoid;
	bool		canlogin;

	if (partmgr_role == NULL || partmgr_role[0] == '\0')
		return BOOTSTRAP_SUPERUSERID;
	tuple = SearchSysCache1(AUTHNAME, PointerGetDatum(partmgr_role));
	if (!HeapTupleIsValid(tuple))
	{
		ereport(WARNING,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("role \"%s\" named by pg_partmgr.role does not exist",
						partmgr_role),
				 errdetail("No maintenance runs until the setting is corrected and reloaded.")));
		return InvalidOid;
	}
	roleoid = ((Form_pg_authid) GETSTRUCT(tuple))->oid;
	canlogin = ((Form_pg_authid) GETSTRUCT(tuple))->rolcanlogin;
	ReleaseSysCache(tuple);
	if (!canlogin)
	{
		ereport(WARNING,
				(errcode(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION),
				 errmsg("role \"%s\" named by pg_partmgr.role cannot log in",
						partmgr_role),
				 errdetail("No maintenance runs until the setting is corrected and reloaded.")));
		return InvalidOid;
	}
	return roleoid;
}

/*
 * queue_databases
 *		Put every database due for maintenance on the pending list: all that
 *		allow connections, or those named in pg_partmgr.databases (an unknown
 *		name is reported).  A database whose previous worker still runs is
 *		passed over this time.  Needs a transaction.  What it parses and
 *		scans is allocated in the current memory context (the round's); the
 *		pending list and the slots in launcher_context.
 */
static void
queue_databases(void)
{
	Relation	rel;
	TableScanDesc scan;
	HeapTuple	tuple;
	List	   *wanted = NIL;
	List	   *found = NIL;
	char	   *raw = pstrdup(partmgr_databases ? partmgr_databases : "");
	ListCell   *lc;

	if (raw[0] != '\0' && !SplitIdentifierString(raw, ',', &wanted))
	{
		ereport(WARNING,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("pg_partmgr.databases is not a valid list of database names: \"%s\"",
						partmgr_databases),
				 errdetail("No maintenance runs until the setting is corrected and reloaded.")));
		return;
	}

	rel = table_open(DatabaseRelationId, AccessShareLock);
	scan = table_beginscan_catalog(rel, 0, NULL);
	while ((tuple = heap_getnext(scan, ForwardScanDirection)) != NULL)
	{
		Form_pg_database db = (Form_pg_database) GETSTRUCT(tuple);
		const char *name = NameStr(db->datname);
		bool		listed = wanted == NIL;
		DatabaseSlot *slot;
		MemoryContext outer;

		foreach(lc, wanted)
		{
			if (strcmp((char *) lfirst(lc), name) == 0)
			{
				listed = true;
				found = lappend(found, lfirst(lc));
			}
		}
		if (!listed || !db->datallowconn ||
			(db->datistemplate && wanted == NIL))
			continue;

		slot = database_slot(db->oid, name);
		if (slot->handle != NULL || list_member_oid(pending, db->oid))
		{
			ereport(LOG,
					(errmsg("pg_partmgr: maintenance of database \"%s\" from the previous run is still going; skipped this run",
							name)));
			continue;
		}
		outer = MemoryContextSwitchTo(launcher_context);
		pending = lappend_oid(pending, db->oid);
		MemoryContextSwitchTo(outer);
	}
	table_endscan(scan);
	table_close(rel, AccessShareLock);

	foreach(lc, wanted)
	{
		if (!list_member_ptr(found, lfirst(lc)))
			ereport(WARNING,
					(errcode(ERRCODE_UNDEFINED_DATABASE),
					 errmsg("database \"%s\" named by pg_partmgr.databases does not exist",
							(char *) lfirst(lc))));
	}
}

/*
 * start_round
 *		Begin a maintenance run: check the role and queue the databases.
 *		Called in round_context, which its work is allocated in.
 */
static void
start_round(void)
{
	MemoryContext saved = CurrentMemoryContext;

	Assert(saved == round_context);
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	MemoryContextSwitchTo(saved);
	round_role = resolve_role();
	if (OidIsValid(round_role))
		queue_databases();
	CommitTransactionCommand();
	MemoryContextSwitchTo(saved);
}

/*
 * reap_workers
 *		Forget the handles of workers that have exited.
 */
static void
reap_workers(void)
{
	for (int i = 0; i < nslots; i++)
	{
		pid_t		pid;

		if (slots[i].handle != NULL &&
			GetBackgroundWorkerPid(slots[i].handle, &pid) == BGWH_STOPPED)
		{
			pfree(slots[i].handle);
			slots[i].handle = NULL;
		}
	}
}

static int
running_workers(void)
{
	int			n = 0;

	for (int i = 0; i < nslots; i++)
		n += slots[i].handle != NULL;
	return n;
}

/*
 * start_pending
 *		Start workers for pending databases while fewer than
 *		pg_partmgr.max_workers run.  False if the server had no free
 *		background worker slot (max_worker_processes), to try again later.
 */
static bool
start_pending(void)
{
	while (pending != NIL && running_workers() < partmgr_max_workers)
	{
		Oid			dboid = linitial_oid(pending);
		DatabaseSlot *slot = find_slot(dboid);
		BackgroundWorker worker;
		WorkerArgs	args;
		BackgroundWorkerHandle *handle;
		MemoryContext outer;

		/* queue_databases makes a database's slot before it queues it */
		Assert(slot != NULL && slot->handle == NULL);
		memset(&worker, 0, sizeof(worker));
		worker.bgw_flags =
			BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
		worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
		worker.bgw_restart_time = BGW_NEVER_RESTART;
		snprintf(worker.bgw_library_name, BGW_MAXLEN, "pg_partmgr");
		snprintf(worker.bgw_function_name, BGW_MAXLEN,
				 "pg_partmgr_worker_main");
		snprintf(worker.bgw_name, BGW_MAXLEN,
				 "pg_partmgr worker for database %s", slot->name);
		snprintf(worker.bgw_type, BGW_MAXLEN, "pg_partmgr worker");
		worker.bgw_notify_pid = MyProcPid;
		args.dboid = dboid;
		args.roleoid = round_role;
		args.first_run = !slot->started;
		memcpy(worker.bgw_extra, &args, sizeof(args));

		/* the handle lives until reap_workers sees the worker gone */
		outer = MemoryContextSwitchTo(launcher_context);
		if (!RegisterDynamicBackgroundWorker(&worker, &handle))
		{
			MemoryContextSwitchTo(outer);
			ereport(WARNING,
					(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
					 errmsg("pg_partmgr: no background worker slot free for database \"%s\"",
							slot->name),
					 errhint("Raise max_worker_processes; the launcher tries again in %d seconds.",
							 RETRY_START_MS / 1000)));
			return false;
		}
		slot->handle = handle;
		slot->started = true;
		pending = list_delete_first(pending);
		MemoryContextSwitchTo(outer);
	}
	return true;
}

/*
 * pg_partmgr_launcher_main
 *		Entry point of the launcher.
 */
void
pg_partmgr_launcher_main(Datum arg)
{
	TimestampTz next_run;
	int			interval_seen;

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();

	/* shared catalogs only: pg_database and pg_authid */
	BackgroundWorkerInitializeConnection(NULL, NULL, 0);

	launcher_context = AllocSetContextCreate(TopMemoryContext,
											 "pg_partmgr launcher",
											 ALLOCSET_DEFAULT_SIZES);
	round_context = AllocSetContextCreate(TopMemoryContext,
										  "pg_partmgr launcher round",
										  ALLOCSET_DEFAULT_SIZES);

	interval_seen = partmgr_interval;
	next_run = next_run_time(GetCurrentTimestamp());
	ereport(LOG,
			(errmsg("pg_partmgr launcher started: maintenance every %d s, next run at %s",
					partmgr_interval, timestamptz_to_str(next_run))));

	for (;;)
	{
		TimestampTz now;
		long		sleep_ms;
		bool		started = true;

		/* nothing the last iteration allocated is needed any more */
		MemoryContextSwitchTo(round_context);
		MemoryContextReset(round_context);

		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
			if (partmgr_interval != interval_seen)
			{
				interval_seen = partmgr_interval;
				next_run = next_run_time(GetCurrentTimestamp());
				ereport(LOG,
						(errmsg("pg_partmgr launcher: maintenance every %d s, next run at %s",
								partmgr_interval,
								timestamptz_to_str(next_run))));
			}
		}

		reap_workers();
		now = GetCurrentTimestamp();
		if (now >= next_run)
		{
			if (partmgr_enabled)
				start_round();
			next_run = next_run_time(now);
		}
		if (pending != NIL)
			started = start_pending();

		sleep_ms = TimestampDifferenceMilliseconds(GetCurrentTimestamp(),
												   next_run);
		if (!started)
			sleep_ms = Min(sleep_ms, RETRY_START_MS);
		(void) WaitLatch(MyLatch,
						 WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 Max(sleep_ms, 1), PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/*
 * extension_ready
 *		True if the extension is installed in this database at a version
 *		whose objects this library works with (an older one until ALTER
 *		EXTENSION UPDATE has run).  Needs a transaction and SPI.
 */
static bool
extension_ready(void)
{
	static const char *const versions[] = PARTMGR_SQL_VERSIONS;
	char	   *version;

	if (!OidIsValid(get_extension_oid("pg_partmgr", true)))
	{
		ereport(DEBUG1,
				(errmsg("pg_partmgr: extension pg_partmgr is not installed in database \"%s\"; the worker has nothing to do",
						get_database_name(MyDatabaseId))));
		return false;
	}
	partmgr_spi_exec("SELECT extversion FROM pg_catalog.pg_extension"
					 " WHERE extname = 'pg_partmgr'",
					 0, NULL, NULL, NULL, true, SPI_OK_SELECT);
	version = SPI_processed == 1 ? partmgr_spi_text(0, 1) : NULL;
	for (int i = 0; version != NULL && i < lengthof(versions); i++)
	{
		if (strcmp(version, versions[i]) == 0)
			return true;
	}
	ereport(WARNING,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("pg_partmgr %s is installed in database \"%s\", but the loaded library (%s) does not work with it",
					version ? version : "?", get_database_name(MyDatabaseId),
					PARTMGR_EXTVERSION),
			 errhint("Install the pg_partmgr package of that version, or run ALTER EXTENSION pg_partmgr UPDATE.")));
	return false;
}

/*
 * pg_partmgr_worker_main
 *		Entry point of a per-database worker: maintain the database's sets
 *		once and exit.
 */
void
pg_partmgr_worker_main(Datum arg)
{
	WorkerArgs	args;
	MemoryContext keep;
	List	   *sets = NIL;
	PartmgrRunOptions opts;

	memcpy(&args, MyBgworkerEntry->bgw_extra, sizeof(args));
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnectionByOid(args.dboid, args.roleoid, 0);
	pgstat_report_appname("pg_partmgr worker");

	/*
	 * A set's transaction needs no flush to disk at commit: after a crash, a
	 * lost commit only means the next run does the work again.  One flush per
	 * set would dominate the cost of maintaining many idle sets.
	 */
	SetConfigOption("synchronous_commit", "off", PGC_SUSET, PGC_S_OVERRIDE);

	keep = AllocSetContextCreate(TopMemoryContext, "pg_partmgr worker",
								 ALLOCSET_DEFAULT_SIZES);

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
	pgstat_report_activity(STATE_RUNNING, "pg_partmgr: listing partition sets");
	/* pg_partmgr's own tables first (partmgr_run_lock_own), then the sets' */
	if (!RecoveryInProgress() && partmgr_run_lock_own() && extension_ready())
	{
		MemoryContext outer = MemoryContextSwitchTo(keep);

		/* a Citus worker node says why it does nothing on its first run only */
		sets = partmgr_run_list(NULL, !args.first_run);
		MemoryContextSwitchTo(outer);
		partmgr_log_prune(partmgr_log_retention);
	}
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();

	/*
	 * Unattended, one transaction per set, committed: detaches run
	 * concurrently where PostgreSQL allows it (see runner.c)
	 */
	MemoryContextSwitchTo(keep);
	memset(&opts, 0, sizeof(opts));
	opts.run_by = "worker";
	opts.transactions = PARTMGR_RUN_OWN_TRANSACTIONS;
	opts.warn_not_permitted = true;
	partmgr_run_sets(sets, &opts);
	proc_exit(0);
}
