/*-------------------------------------------------------------------------
 *
 * locks.c
 *	  Locks that never make another session wait, the advisory lock that
 *	  marks a set as being maintained, and subtransactions that keep an
 *	  error from ending the caller's transaction.
 *
 * A leaf: state (contents.c), jobs and entry points use it as well as the
 * executor.  Every table lock pg_partmgr takes ahead of a statement goes
 * through partmgr_lock_relation: asked for conditionally, never queued, so
 * no query ever waits behind maintenance; retried with a growing pause
 * until pg_partmgr.lock_timeout has passed, then 55P03 with the processes
 * that hold conflicting locks.  Locks last to the end of the transaction
 * (or of the subtransaction, if that aborts), as DDL requires.  The set's
 * advisory lock (partmgr_try_lock_set) is transaction-level too: two runs
 * never maintain one set at once, and neither waits for the other.
 * partmgr_pause_seconds is the pause procedures make between sets or
 * batches, with nothing held but what the caller holds.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/locks.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "lib/stringinfo.h"
#include "compat.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "storage/sinvaladt.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "locks.h"
#include "pg_partmgr.h"
#include "prefetch.h"

/* longest pause between two attempts to take a lock */
#define MAX_LOCK_RETRY_PAUSE_MS 20

/*
 * partmgr_lock_mode_name
 *		The SQL name of a lock mode, as LOCK TABLE spells it.
 */
const char *
partmgr_lock_mode_name(LOCKMODE mode)
{
	switch (mode)
	{
		case AccessShareLock:
			return "ACCESS SHARE";
		case RowShareLock:
			return "ROW SHARE";
		case RowExclusiveLock:
			return "ROW EXCLUSIVE";
		case ShareUpdateExclusiveLock:
			return "SHARE UPDATE EXCLUSIVE";
		case ShareLock:
			return "SHARE";
		case ShareRowExclusiveLock:
			return "SHARE ROW EXCLUSIVE";
		case ExclusiveLock:
			return "EXCLUSIVE";
		case AccessExclusiveLock:
			return "ACCESS EXCLUSIVE";
	}
	return "unknown";
}

/*
 * partmgr_lock_holders
 *		Comma-separated PIDs of the processes holding locks on relid that
 *		conflict with mode, and how many there are.
 */
char *
partmgr_lock_holders(Oid relid, LOCKMODE mode, int *count)
{
	LOCKTAG		tag;
	VirtualTransactionId *vxids;
	StringInfoData buf;

	SET_LOCKTAG_RELATION(tag, MyDatabaseId, relid);
	vxids = GetLockConflicts(&tag, mode, count);
	initStringInfo(&buf);
	for (int i = 0; i < *count; i++)
	{
		PGPROC	   *proc;

		proc = partmgr_vxid_proc(vxids[i]);
		if (proc == NULL)
			continue;
		appendStringInfo(&buf, "%s%d", buf.len > 0 ? ", " : "", proc->pid);
	}
	return buf.data;
}

/*
 * partmgr_lock_unavailable
 *		Raise 55P03 for a lock on relid in mode that was not granted within
 *		pg_partmgr.lock_timeout, naming who holds what conflicts.
 */
void
partmgr_lock_unavailable(Oid relid, LOCKMODE mode)
{
	int			count = 0;
	char	   *pids = partmgr_lock_holders(relid, mode, &count);
	char	   *relname = get_rel_name(relid);
	char	   *nspname = get_namespace_name(get_rel_namespace(relid));

	ereport(ERROR,
			(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
			 errmsg("could not lock table \"%s\" in %s mode within %d ms",
					relname ? quote_qualified_identifier(nspname, relname) :
					"?",
					partmgr_lock_mode_name(mode), partmgr_lock_timeout),
			 pids[0] != '\0' ?
			 errdetail_plural("Process %s holds a conflicting lock.",
							  "Processes %s hold conflicting locks.",
							  count, pids) :
			 errdetail("A conflicting lock request is queued ahead of it."),
			 errhint("The work is left for the next maintenance run; pg_partmgr.lock_timeout sets how long to try.")));
}

/*
 * partmgr_pause_within
 *		One pause of a loop that asks for something again until budget_ms
 *		have passed since start: *pause_ms long (the caller starts it at 1;
 *		it doubles, up to max_ms), never past the budget; interrupts are
 *		checked after it.  False, without pausing, once the budget is spent.
 */
bool
partmgr_pause_within(TimestampTz start, int budget_ms, long *pause_ms,
					 long max_ms)
{
	long		left = budget_ms - TimestampDifferenceMilliseconds(start,
																   GetCurrentTimestamp());

	if (left <= 0)
		return false;
	(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
					 Min(*pause_ms, left), PG_WAIT_EXTENSION);
	ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
	*pause_ms = Min(*pause_ms * 2, max_ms);
	return true;
}

/*
 * lock_conditionally
 *		Ask for a lock without queueing, and on refusal wait a little (1, 2,
 *		4 ... up to 20 ms) and ask again, for at most budget_ms; false when
 *		the time is up.  A request already held is granted at once.
 */
static bool
lock_conditionally(Oid relid, LOCKMODE mode, int budget_ms)
{
	TimestampTz start = GetCurrentTimestamp();
	long		pause_ms = 1;

	while (!ConditionalLockRelationOid(relid, mode))
	{
		if (!partmgr_pause_within(start, budget_ms, &pause_ms,
								  MAX_LOCK_RETRY_PAUSE_MS))
			return false;
	}
	return true;
}

/*
 * Raise 42P01 if a table was dropped while its lock was waited for.  A
 * table the run's prefetch read, unchanged since, is there (a drop would
 * have marked it, taking the lock took the invalidation in).
 */
static void
check_not_dropped(Oid relid)
{
	if (partmgr_prefetched(relid) != NULL)
		return;
	if (!SearchSysCacheExists1(RELOID, ObjectIdGetDatum(relid)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("table with OID %u was dropped while maintenance ran",
						relid)));
}

/*
 * partmgr_lock_relation
 *		Take a lock on a table without ever queueing for it: ask
 *		conditionally, and on refusal wait a little (1, 2, 4 ... up to 20 ms)
 *		and ask again, until pg_partmgr.lock_timeout has passed, then raise
 *		55P03.  A request already held is granted at once.  Raises 42P01 if
 *		the table was dropped meanwhile.  The lock lasts until the end of the
 *		transaction (or of the subtransaction, if that aborts).
 */
void
partmgr_lock_relation(Oid relid, LOCKMODE mode)
{
	Assert(IsTransactionState());
	if (!lock_conditionally(relid, mode, partmgr_lock_timeout))
		partmgr_lock_unavailable(relid, mode);
	check_not_dropped(relid);
}

/*
 * partmgr_lock_relations_in_order
 *		Take mode on relids[0], relids[1], ... in that order, each as
 *		partmgr_lock_relation asks for it (conditionally, never queued), all
 *		within one pg_partmgr.lock_timeout.  Returns -1 when all are held,
 *		else the index of the first that was not granted; those before it
 *		stay locked until the transaction ends.  A relation dropped
 *		meanwhile is not reported: the caller looks for what it needs.
 */
int
partmgr_lock_relations_in_order(const Oid *relids, int n, LOCKMODE mode)
{
	TimestampTz start = GetCurrentTimestamp();

	Assert(IsTransactionState());
	for (int i = 0; i < n; i++)
	{
		long		left = partmgr_lock_timeout -
		TimestampDifferenceMilliseconds(start, GetCurrentTimestamp());

		if (!lock_conditionally(relids[i], mode, (int) Max(left, 0)))
			return i;
	}
	return -1;
}

/*
 * partmgr_lock_relation_briefly
 *		partmgr_lock_relation for a look that ends before the caller goes
 *		on.  Returns true when the lock was not held before: the caller then
 *		releases it (UnlockRelationOid) once it has looked, which is safe for
 *		a lock that only kept the table from being dropped or rewritten
 *		during the look.
 */
bool
partmgr_lock_relation_briefly(Oid relid, LOCKMODE mode)
{
	LOCKTAG		tag;
	bool		held;

	SET_LOCKTAG_RELATION(tag, MyDatabaseId, relid);
	held = LockHeldByMe(&tag, mode);
	partmgr_lock_relation(relid, mode);
	return !held;
}

/* The CONTEXT line of an error while a queued lock request waits. */
static void
queued_lock_context(void *arg)
{
	Oid			relid = *(Oid *) arg;
	char	   *relname = get_rel_name(relid);

	if (relname != NULL)
		errcontext("pg_partmgr waiting in the lock queue of table %s for at most %d ms",
				   quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
											  relname),
				   partmgr_lock_timeout / 2);
}

/*
 * partmgr_lock_relation_queued
 *		Take a lock on a table that writers hold almost all the time: first
 *		as partmgr_lock_relation does, without queueing, for half of
 *		pg_partmgr.lock_timeout; then by queueing for it for the other half
 *		(lock_timeout set to that).  A request in the queue makes the
 *		requests that come after it wait too, so a writer waits at most that
 *		long behind it, plus what the holder then does with the lock; a
 *		conditional request alone can wait forever for a moment when no
 *		writer holds the table.  Raises 55P03 when the time is up.
 */
void
partmgr_lock_relation_queued(Oid relid, LOCKMODE mode)
{
	int			half = Max(partmgr_lock_timeout / 2, 1);
	int			nestlevel;
	ErrorContextCallback callback;
	Oid			rel = relid;

	Assert(IsTransactionState());
	if (!lock_conditionally(relid, mode, half))
	{
		nestlevel = NewGUCNestLevel();
		(void) set_config_option("lock_timeout", psprintf("%d", half),
								 PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0,
								 false);
		callback.callback = queued_lock_context;
		callback.arg = &rel;
		callback.previous = error_context_stack;
		error_context_stack = &callback;
		LockRelationOid(relid, mode);
		error_context_stack = callback.previous;
		AtEOXact_GUC(true, nestlevel);
	}
	check_not_dropped(relid);
}

/*
 * partmgr_older_snapshots
 *		How many other backends of this database hold a snapshot that may
 *		not see transaction limit as committed (their xmin is limit or
 *		older), and in *pids their PIDs, after waiting (as locks are waited
 *		for, in pauses, for at most pg_partmgr.lock_timeout) for them to
 *		end: a query that was running as limit committed is usually over at
 *		once.  Autovacuum and VACUUM, which read no table for a user, are
 *		left out, as CREATE INDEX CONCURRENTLY leaves them out.
 */
int
partmgr_older_snapshots(TransactionId limit, char **pids)
{
	int			count = 0;
	VirtualTransactionId *vxids;
	StringInfoData buf;
	int			n = 0;
	TimestampTz start = GetCurrentTimestamp();
	long		pause_ms = 1;

	for (;;)
	{
		vxids = GetCurrentVirtualXIDs(limit, true, false,
									  PROC_IS_AUTOVACUUM | PROC_IN_VACUUM,
									  &count);
		if (count == 0 ||
			!partmgr_pause_within(start, partmgr_lock_timeout, &pause_ms,
								  MAX_LOCK_RETRY_PAUSE_MS))
			break;
	}

	initStringInfo(&buf);
	for (int i = 0; i < count; i++)
	{
		PGPROC	   *proc;

		proc = partmgr_vxid_proc(vxids[i]);
		if (proc == NULL)
			continue;
		appendStringInfo(&buf, "%s%d", n > 0 ? ", " : "", proc->pid);
		n++;
	}
	*pids = buf.data;
	return n;
}

/*
 * partmgr_lock_set_or_raise
 *		Take the set's advisory lock for an interactive call, or raise 55P03.
 */
void
partmgr_lock_set_or_raise(Oid parent_oid, const char *key)
{
	if (!partmgr_try_lock_set(parent_oid))
		ereport(ERROR,
				(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
				 errmsg("partition set \"%s\" is being maintained by another session", key),
				 errhint("Try again when that maintenance run has finished.")));
}

/*
 * partmgr_try_lock_set
 *		Take the transaction-level advisory lock that marks a set as being
 *		maintained, without waiting.  False if another session holds it.
 */
bool
partmgr_try_lock_set(Oid parent_oid)
{
	LOCKTAG		tag;

	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, PARTMGR_ADVISORY_KEY, parent_oid,
						 2);
	return LockAcquire(&tag, ExclusiveLock, false,
					   true) != LOCKACQUIRE_NOT_AVAIL;
}

/*
 * partmgr_try_lock_operation, partmgr_unlock_operation
 *		The session-level advisory lock that marks a reshape as being carried
 *		out (it spans the commits of the procedure that carries it out), taken
 *		without waiting: false if another session holds it.  Released by
 *		partmgr_unlock_operation, or when the session ends.
 */
bool
partmgr_try_lock_operation(int64 id)
{
	LOCKTAG		tag;

	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, PARTMGR_ADVISORY_KEY, (uint32) id,
						 4);
	return LockAcquire(&tag, ExclusiveLock, true,
					   true) != LOCKACQUIRE_NOT_AVAIL;
}

void
partmgr_unlock_operation(int64 id)
{
	LOCKTAG		tag;

	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, PARTMGR_ADVISORY_KEY, (uint32) id,
						 4);
	(void) LockRelease(&tag, ExclusiveLock, true);
}

/*
 * partmgr_run_subxact
 *		Run fn(arg) in a subtransaction.  On success the subtransaction is
 *		committed into the caller's transaction and true is returned.  On
 *		error it is rolled back, *error receives a copy of the error
 *		(allocated in the caller's memory context) and false is returned --
 *		except for a query cancel, which is re-thrown: a cancelled call stops.
 */
bool
partmgr_run_subxact(void (*fn) (void *arg), void *arg, ErrorData **error)
{
	MemoryContext caller = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	volatile bool ok = true;

	Assert(IsTransactionState());
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(caller);
	PG_TRY();
	{
		fn(arg);
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(caller);
		CurrentResourceOwner = owner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(caller);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(caller);
		CurrentResourceOwner = owner;
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED)
			ReThrowError(edata);
		*error = edata;
		ok = false;
	}
	PG_END_TRY();
	return ok;
}

/*
 * partmgr_pause_seconds
 *		Sleep, interruptibly, until the given number of seconds has passed
 *		(a latch set by someone else does not cut it short).
 */
void
partmgr_pause_seconds(int seconds)
{
	TimestampTz until = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
													seconds * 1000L);

	for (;;)
	{
		long		left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), until);

		if (left <= 0)
			break;
		(void) WaitLatch(MyLatch,
						 WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 left, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}
