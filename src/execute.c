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
 * the transaction, as DDL requires.
 *
 * Transactions.  Each action runs in its own subtransaction inside the
 * caller's transaction; execution stops at the first failure, keeping the
 * actions already done.  Every action is recorded in the maintenance log.
 * Committing is the caller's business.
 *
 * Rights.  Children are given to the parent's owner when the caller has
 * that role's rights; the background worker also attaches them with the
 * owner's rights (see execute_action).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/execute.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "executor/spi.h"
#include "catalog/partition.h"
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
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/portal.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "bounds.h"
#include "catalog.h"
#include "contents.h"
#include "ddl.h"
#include "execute.h"
#include "log.h"
#include "spi_util.h"

/*
 * Set by the background worker: it attaches and detaches with the parent
 * owner's rights, and detaches concurrently where PostgreSQL allows it.
 */
bool		partmgr_in_worker = false;

/* longest pause between two attempts to take a lock */
#define MAX_LOCK_RETRY_PAUSE_MS 20

static const char *
lock_mode_text(LOCKMODE mode)
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
 * conflicting_pids
 *		Comma-separated PIDs of the processes holding locks on relid that
 *		conflict with mode, and how many there are.
 */
static char *
conflicting_pids(Oid relid, LOCKMODE mode, int *count)
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

#if PG_VERSION_NUM >= 170000
		proc = ProcNumberGetProc(vxids[i].procNumber);
#else
		proc = BackendIdGetProc(vxids[i].backendId);
#endif
		if (proc == NULL)
			continue;
		appendStringInfo(&buf, "%s%d", buf.len > 0 ? ", " : "", proc->pid);
	}
	return buf.data;
}

static void
report_lock_unavailable(Oid relid, LOCKMODE mode)
{
	int			count = 0;
	char	   *pids = conflicting_pids(relid, mode, &count);
	char	   *relname = get_rel_name(relid);
	char	   *nspname = get_namespace_name(get_rel_namespace(relid));

	ereport(ERROR,
			(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
			 errmsg("could not lock table \"%s\" in %s mode within %d ms",
					relname ? quote_qualified_identifier(nspname, relname) : "?",
					lock_mode_text(mode), partmgr_lock_timeout),
			 pids[0] != '\0' ?
			 errdetail_plural("Process %s holds a conflicting lock.",
							  "Processes %s hold conflicting locks.",
							  count, pids) :
			 errdetail("A conflicting lock request is queued ahead of it."),
			 errhint("The work is left for the next maintenance run; pg_partmgr.lock_timeout sets how long to try.")));
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
	TimestampTz start = GetCurrentTimestamp();
	long		pause_ms = 1;

	while (!ConditionalLockRelationOid(relid, mode))
	{
		long		waited = TimestampDifferenceMilliseconds(start, GetCurrentTimestamp());
		long		left = partmgr_lock_timeout - waited;

		if (left <= 0)
			report_lock_unavailable(relid, mode);
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 Min(pause_ms, left), PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		pause_ms = Min(pause_ms * 2, MAX_LOCK_RETRY_PAUSE_MS);
	}

	if (!SearchSysCacheExists1(RELOID, ObjectIdGetDatum(relid)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("table with OID %u was dropped while maintenance ran", relid)));
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

	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, PARTMGR_ADVISORY_KEY, parent_oid, 2);
	return LockAcquire(&tag, ExclusiveLock, false, true) != LOCKACQUIRE_NOT_AVAIL;
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

typedef struct ActionContext
{
	const PartmgrPlan *plan;
	const PartmgrAction *action;
	uint64		rows;			/* rows the action moved */
	const char *rows_from;		/* where they came from */
	const char *note;			/* what else the log row should say */
} ActionContext;

/* A statement run in a subtransaction of its own (validate_constraint). */
static void
run_utility(void *sql)
{
	partmgr_spi_utility((const char *) sql);
}

/*
 * validate_constraint
 *		VALIDATE CONSTRAINT of a derived constraint.  Rows written into the
 *		child between the scan that derived it and the moment it was added
 *		may lie outside it: then it is dropped (with a WARNING and a note in
 *		the log) and the next pass derives it again from the rows as they
 *		are.  A NOT VALID constraint would only cost a failed scan per pass.
 */
static void
validate_constraint(ActionContext *ctx)
{
	const PartmgrAction *action = ctx->action;
	const char *constraint = (const char *) linitial(action->constraints);
	ErrorData  *edata = NULL;

	if (partmgr_run_subxact(run_utility,
							partmgr_ddl_validate_constraint(action->schema, action->name,
															constraint),
							&edata))
		return;
	if (edata->sqlerrcode != ERRCODE_CHECK_VIOLATION)
		ReThrowError(edata);
	partmgr_lock_relation(action->relid, AccessExclusiveLock);
	partmgr_spi_utility(partmgr_ddl_drop_constraint(action->schema, action->name, constraint));
	ctx->note = "dropped: rows outside it were written before it was added; the next pass derives it again";
	ereport(WARNING,
			(errcode(ERRCODE_CHECK_VIOLATION),
			 errmsg("dropped constraint \"%s\" of \"%s\": %s", constraint,
					quote_qualified_identifier(action->schema, action->name), edata->message),
			 errdetail("Rows outside it were written between the scan that derived it and the moment it was added."),
			 errhint("The next maintenance pass derives it again.")));
}

/*
 * count_in_default
 *		How many rows of the new child's range the default partition holds,
 *		counting no further than limit + 1.
 */
static int64
count_in_default(const PartmgrSet *set, const PartmgrAction *action, Oid default_oid,
				 int64 limit)
{
	bool		isnull;

	partmgr_spi_exec(partmgr_ddl_count_range(set,
											 get_namespace_name(get_rel_namespace(default_oid)),
											 get_rel_name(default_oid),
											 action->lower, action->upper, limit),
					 0, NULL, NULL, NULL, false, SPI_OK_SELECT);
	return DatumGetInt64(partmgr_spi_value(0, 1, &isnull));
}

/*
 * rows_in_default
 *		Whether the default partition (locked) holds rows of a new child's
 *		range, and then *source describes it as where to fill the child from.
 *		Unless the plan moves data at the caller's request, maintenance moves
 *		at most pg_partmgr.default_move_limit such rows itself: more raises
 *		23514 with the count and the call that moves them, and the child is
 *		left for later.
 */
static bool
rows_in_default(const PartmgrPlan *plan, const PartmgrAction *action, Oid default_oid,
				PartmgrRowSource *source)
{
	const PartmgrSet *set = plan->set;
	char	   *schema = get_namespace_name(get_rel_namespace(default_oid));
	char	   *name = get_rel_name(default_oid);
	int64		limit = plan->moving_data ? 0 : partmgr_default_move_limit;
	int64		found = count_in_default(set, action, default_oid, limit);

	if (found == 0)
		return false;
	if (!plan->moving_data && found > limit)
		ereport(ERROR,
				(errcode(ERRCODE_CHECK_VIOLATION),
				 errmsg("the default partition of \"%s\" holds rows for the new child \"%s\"",
						set->key, action->name),
				 errdetail("%s rows with %s from %s (inclusive) to %s (exclusive) are in %s; maintenance moves at most pg_partmgr.default_move_limit (" INT64_FORMAT ") such rows itself.",
						   limit > 0 ? psprintf("More than " INT64_FORMAT, limit) : "Some",
						   quote_identifier(set->control),
						   partmgr_point_display(&set->axis, action->lower),
						   partmgr_point_display(&set->axis, action->upper),
						   quote_qualified_identifier(schema, name), limit),
				 errhint("Move them with SELECT partmgr.partition_data_%s(%s) or CALL partmgr.partition_data_proc(%s), which create the child.",
						 set->axis.kind == PARTMGR_KEY_TIME ? "time" : "id",
						 quote_literal_cstr(set->key), quote_literal_cstr(set->key))));

	memset(source, 0, sizeof(*source));
	source->relid = default_oid;
	source->schema = schema;
	source->name = name;
	source->columns = partmgr_movable_columns(set->parent_oid, NIL);
	return true;
}

/*
 * lock_fill_sources
 *		For a new child, with the parent locked in SHARE UPDATE EXCLUSIVE
 *		mode: lock the default partition, which attaching scans, and the
 *		tables the child is filled from -- the default partition when it
 *		holds rows of the child's range, then the action's own source.
 *		Returns how many sources were put in fills.
 *
 *		A child filled as it is attached takes the parent in ACCESS
 *		EXCLUSIVE mode, before the default partition: a query that planned
 *		against the old list of partitions and then waited for the default
 *		partition would otherwise read the default after the rows left it,
 *		and never see them in the new child.
 */
static int
lock_fill_sources(const PartmgrPlan *plan, const PartmgrAction *action,
				  PartmgrRowSource *fills)
{
	const PartmgrSet *set = plan->set;
	Oid			default_oid = get_default_partition_oid(set->parent_oid);
	bool		parent_locked = false;
	bool		empty_default = true;
	int			n = 0;

	/* a default partition without a block (the usual case) is not queried */
	if (OidIsValid(default_oid))
	{
		partmgr_lock_relation(default_oid, AccessShareLock);
		empty_default = partmgr_has_no_blocks(default_oid);
	}
	if (OidIsValid(action->from.relid) ||
		(!empty_default && count_in_default(set, action, default_oid, 0) > 0))
	{
		partmgr_lock_relation(set->parent_oid, AccessExclusiveLock);
		parent_locked = true;
	}
	if (OidIsValid(default_oid))
	{
		partmgr_lock_relation(default_oid, AccessExclusiveLock);
		/* asked again now that nothing can add rows */
		if (action->from.relid != default_oid &&
			!partmgr_has_no_blocks(default_oid) &&
			rows_in_default(plan, action, default_oid, &fills[n]))
			n++;
	}
	if (OidIsValid(action->from.relid))
	{
		if (action->from.relid != default_oid)
			partmgr_lock_relation(action->from.relid, RowExclusiveLock);
		fills[n++] = action->from;
	}
	if (n > 0 && !parent_locked)
		partmgr_lock_relation(set->parent_oid, AccessExclusiveLock);
	return n;
}

/*
 * lock_referencing_tables
 *		Lock every table whose foreign key references the child: detaching
 *		the child drops the key's clone on it (ACCESS EXCLUSIVE).
 */
static void
lock_referencing_tables(Oid child)
{
	static const char *const sql =
	"SELECT DISTINCT conrelid FROM pg_catalog.pg_constraint"
	" WHERE contype = 'f' AND confrelid = $1 ORDER BY conrelid";
	Oid			types[1] = {OIDOID};
	Datum		values[1];
	uint64		n;
	Oid		   *tables;

	values[0] = ObjectIdGetDatum(child);
	n = partmgr_spi_exec_cached(sql, 1, types, values, NULL, false, SPI_OK_SELECT);
	tables = palloc(sizeof(Oid) * (n + 1));
	for (uint64 i = 0; i < n; i++)
	{
		bool		isnull;

		tables[i] = DatumGetObjectId(partmgr_spi_value(i, 1, &isnull));
	}
	for (uint64 i = 0; i < n; i++)
		partmgr_lock_relation(tables[i], AccessExclusiveLock);
}

/*
 * run_statements
 *		Run utility statements built from a query's result (collected first:
 *		running one replaces the result).
 */
static void
run_statements(List *statements)
{
	ListCell   *lc;

	foreach(lc, statements)
		partmgr_spi_utility((char *) lfirst(lc));
}

/*
 * retire_detached
 *		What happens to a child retention has just detached: dropped, or kept
 *		-- without its indexes, out of its publications, in another schema --
 *		as the action says.
 */
static void
retire_detached(const PartmgrAction *action)
{
	const PartmgrRetirement *retire = &action->retire;
	Oid			types[1] = {OIDOID};
	Datum		values[1];
	uint64		n;

	if (!retire->keep_table && retire->schema == NULL)
	{
		partmgr_spi_utility(partmgr_ddl_drop_table(action->schema, action->name,
												   retire->cascade));
		return;
	}

	values[0] = ObjectIdGetDatum(action->relid);
	if (!retire->keep_index)
	{
		static const char *const sql =
		"SELECT c.relname, con.conname FROM pg_catalog.pg_index i"
		"  JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid"
		"  LEFT JOIN pg_catalog.pg_constraint con"
		"    ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid"
		" WHERE i.indrelid = $1 ORDER BY c.relname";
		List	   *statements = NIL;

		n = partmgr_spi_exec_cached(sql, 1, types, values, NULL, false, SPI_OK_SELECT);
		for (uint64 i = 0; i < n; i++)
		{
			char	   *index = partmgr_spi_text(i, 1);
			char	   *constraint = partmgr_spi_text(i, 2);

			statements = lappend(statements, constraint ?
								 partmgr_ddl_drop_constraint(action->schema, action->name, constraint) :
								 partmgr_ddl_drop_index(action->schema, index));
		}
		run_statements(statements);
	}
	if (!retire->keep_publication)
	{
		static const char *const sql =
		"SELECT p.pubname FROM pg_catalog.pg_publication_rel r"
		"  JOIN pg_catalog.pg_publication p ON p.oid = r.prpubid"
		" WHERE r.prrelid = $1 ORDER BY p.pubname";
		List	   *statements = NIL;

		n = partmgr_spi_exec_cached(sql, 1, types, values, NULL, false, SPI_OK_SELECT);
		for (uint64 i = 0; i < n; i++)
			statements = lappend(statements,
								 partmgr_ddl_drop_from_publication(partmgr_spi_text(i, 1),
																   action->schema,
																   action->name));
		run_statements(statements);
	}
	if (retire->schema != NULL)
		partmgr_spi_utility(partmgr_ddl_set_schema(action->schema, action->name,
												   retire->schema));
}

/*
 * act_as_owner
 *		Switch to the parent owner's rights, in a security-restricted context,
 *		when the background worker acts and has those rights.  The caller
 *		restores save_userid and save_sec_context (aborting does too).
 */
static void
act_as_owner(Oid owner, Oid save_userid, int save_sec_context)
{
	if (partmgr_in_worker && owner != save_userid &&
		has_privs_of_role(save_userid, owner))
		SetUserIdAndSecContext(owner, save_sec_context |
							   SECURITY_LOCAL_USERID_CHANGE |
							   SECURITY_RESTRICTED_OPERATION);
}

/*
 * move_rows
 *		Move the rows of a source with keys in [lower, upper) into a table.
 *		A source this transaction holds in ACCESS EXCLUSIVE mode (the default
 *		partition) is copied, then emptied of that range, in two statements;
 *		any other in one, so that rows written meanwhile are never deleted
 *		without being copied.  Returns the number of rows moved.
 */
static uint64
move_rows(const PartmgrSet *set, const PartmgrRowSource *from, const char *to_schema,
		  const char *to_name, PartmgrPoint lower, PartmgrPoint upper)
{
	LOCKTAG		tag;
	uint64		copied;
	uint64		deleted;

	SET_LOCKTAG_RELATION(tag, MyDatabaseId, from->relid);
	if (!LockHeldByMe(&tag, AccessExclusiveLock))
		return partmgr_spi_exec(partmgr_ddl_move_rows(set, from, to_schema, to_name,
													  lower, upper),
								0, NULL, NULL, NULL, false, SPI_OK_INSERT);
	copied = partmgr_spi_exec(partmgr_ddl_copy_rows(set, from, to_schema, to_name,
													lower, upper),
							  0, NULL, NULL, NULL, false, SPI_OK_INSERT);
	deleted = partmgr_spi_exec(partmgr_ddl_delete_rows(set, from->schema, from->name,
													   lower, upper),
							   0, NULL, NULL, NULL, false, SPI_OK_DELETE);
	if (copied != deleted)
		elog(ERROR, "copied " UINT64_FORMAT " rows of %s but deleted " UINT64_FORMAT,
			 copied, quote_qualified_identifier(from->schema, from->name), deleted);
	return copied;
}

/*
 * give_to_owner
 *		Make the parent's owner the owner of a table we created, when we have
 *		that role's rights (see execute_action).
 */
static void
give_to_owner(const PartmgrSet *set, const PartmgrAction *action, Oid save_userid)
{
	Oid			owner = set->parent_owner;

	if (owner != save_userid && has_privs_of_role(save_userid, owner))
		partmgr_spi_utility(partmgr_ddl_set_owner(action->schema, action->name, owner));
}

/*
 * lock_for_staging
 *		The locks of a partition_data plan that stages its children: the
 *		parent, then the default partition, both ACCESS EXCLUSIVE (see
 *		lock_fill_sources).
 */
static void
lock_for_staging(const PartmgrPlan *plan)
{
	Oid			default_oid = get_default_partition_oid(plan->set->parent_oid);

	partmgr_lock_relation(plan->set->parent_oid, AccessExclusiveLock);
	if (OidIsValid(default_oid))
		partmgr_lock_relation(default_oid, AccessExclusiveLock);
}

/*
 * create_staged_child
 *		A child of a partition_data plan that moves rows into several new
 *		children at once: created like any child, with its bound CHECK, and
 *		attached to the plan's staging table (created with the first child),
 *		whose tuple routing lets one statement fill every child.
 *		fill_staged attaches it to the parent.
 */
static void
create_staged_child(const PartmgrPlan *plan, const PartmgrAction *action)
{
	const PartmgrSet *set = plan->set;

	lock_for_staging(plan);
	if (!OidIsValid(get_relname_relid(plan->stage_name,
									  get_rel_namespace(set->parent_oid))))
		partmgr_spi_utility(partmgr_ddl_create_stage(set, plan->stage_name));
	partmgr_spi_utility(partmgr_ddl_create_like(set, action->schema, action->name));
	partmgr_spi_utility(partmgr_ddl_add_bound_check(set, action->schema, action->name,
													action->lower, action->upper));
	partmgr_spi_utility(partmgr_ddl_attach_range_to(set, set->parent_schema,
													plan->stage_name, action->schema,
													action->name, action->lower,
													action->upper));
}

/*
 * fill_staged
 *		Move the default partition's rows of the action's range into the
 *		staged children in one statement, then make the default partition
 *		prove it holds none of that range (one scan), move the children from
 *		the staging table to the parent (no scan of them, thanks to their
 *		bound CHECK, nor of the default) and drop the staging table and the
 *		temporary CHECKs.  Returns the number of rows moved.
 */
static uint64
fill_staged(const PartmgrPlan *plan, const PartmgrAction *fill, Oid save_userid,
			int save_sec_context)
{
	const PartmgrSet *set = plan->set;
	uint64		rows;
	ListCell   *lc;

	lock_for_staging(plan);
	rows = move_rows(set, &fill->from, fill->to_schema, fill->to_name, fill->lower,
					 fill->upper);
	partmgr_spi_utility(partmgr_ddl_add_range_exclusion(set, fill->schema, fill->name,
														fill->lower, fill->upper));
	foreach(lc, plan->actions)
	{
		const PartmgrAction *child = (const PartmgrAction *) lfirst(lc);

		if (child->staged)
			partmgr_spi_utility(partmgr_ddl_detach_from(fill->to_schema, fill->to_name,
														child->schema, child->name));
	}
	partmgr_spi_utility(partmgr_ddl_drop_table(fill->to_schema, fill->to_name, false));
	foreach(lc, plan->actions)
	{
		const PartmgrAction *child = (const PartmgrAction *) lfirst(lc);

		if (child->staged)
			give_to_owner(set, child, save_userid);
	}
	act_as_owner(set->parent_owner, save_userid, save_sec_context);
	foreach(lc, plan->actions)
	{
		const PartmgrAction *child = (const PartmgrAction *) lfirst(lc);

		if (!child->staged)
			continue;
		partmgr_spi_utility(partmgr_ddl_attach_range(set, child->schema, child->name,
													 child->lower, child->upper));
		partmgr_spi_utility(partmgr_ddl_drop_bound_check(child->schema, child->name));
	}
	partmgr_spi_utility(partmgr_ddl_drop_range_exclusion(fill->schema, fill->name));
	return rows;
}

/*
 * execute_action
 *		Take the action's locks (parent, then default partition, then the
 *		child, then tables whose foreign keys reference it) and run its
 *		statements with lock_timeout bounded.  Called in a subtransaction.
 */
static void
execute_action(void *arg)
{
	ActionContext *ctx = (ActionContext *) arg;
	const PartmgrSet *set = ctx->plan->set;
	const PartmgrAction *action = ctx->action;
	int			nestlevel = NewGUCNestLevel();
	Oid			default_oid;
	Oid			owner = set->parent_owner;
	Oid			save_userid;
	int			save_sec_context;
	PartmgrRowSource fills[2];
	int			nfills = 0;

	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	(void) set_config_option("lock_timeout", psprintf("%d", partmgr_lock_timeout),
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
							 true, 0, false);

	switch (action->kind)
	{
		case PARTMGR_ACTION_CREATE_CHILD:
		case PARTMGR_ACTION_CREATE_DEFAULT:
			if (action->staged)
			{
				create_staged_child(ctx->plan, action);
				break;
			}
			partmgr_lock_relation(set->parent_oid, ShareUpdateExclusiveLock);
			if (action->kind == PARTMGR_ACTION_CREATE_CHILD)
				nfills = lock_fill_sources(ctx->plan, action, fills);

			/*
			 * The new table is created with our rights and given to the
			 * parent's owner when we have that role's rights (a superuser
			 * does), so children belong to the owner whoever ran maintenance.
			 * Unattended maintenance (the background worker) then attaches as
			 * the owner, in a security-restricted context: attaching scans the
			 * default partition and evaluates what the owner defined, and
			 * nothing the owner controls may act with the worker's rights. A
			 * function called by hand acts with its caller's rights, as any
			 * DDL the caller runs.
			 */
			partmgr_spi_utility(partmgr_ddl_create_like(set, action->schema, action->name));
			if (nfills > 0)
			{
				/*
				 * Load the child before attaching it, behind a CHECK that says
				 * what its bound will say: attaching then needs no scan of it.
				 */
				partmgr_spi_utility(partmgr_ddl_add_bound_check(set, action->schema, action->name,
																action->lower, action->upper));
				for (int i = 0; i < nfills; i++)
				{
					const char *name = quote_qualified_identifier(fills[i].schema,
																  fills[i].name);

					ctx->rows += move_rows(set, &fills[i], action->schema, action->name,
										   action->lower, action->upper);
					ctx->rows_from = ctx->rows_from == NULL ? name :
						psprintf("%s and %s", ctx->rows_from, name);
				}
			}
			give_to_owner(set, action, save_userid);
			act_as_owner(owner, save_userid, save_sec_context);
			if (action->kind == PARTMGR_ACTION_CREATE_CHILD)
				partmgr_spi_utility(partmgr_ddl_attach_range(set, action->schema, action->name,
															 action->lower, action->upper));
			else
				partmgr_spi_utility(partmgr_ddl_attach_default(set, action->schema, action->name));
			if (nfills > 0)
				partmgr_spi_utility(partmgr_ddl_drop_bound_check(action->schema, action->name));
			break;

		case PARTMGR_ACTION_FILL_STAGED:
			ctx->rows = fill_staged(ctx->plan, action, save_userid, save_sec_context);
			ctx->rows_from = quote_qualified_identifier(action->schema, action->name);
			break;

		case PARTMGR_ACTION_ADD_CONSTRAINTS:
			/* catalog only (NOT VALID): the child is locked for a moment */
			partmgr_lock_relation(action->relid, AccessExclusiveLock);
			act_as_owner(owner, save_userid, save_sec_context);
			partmgr_spi_utility(partmgr_ddl_add_checks(action->schema, action->name,
													   action->constraints, action->checks));
			break;

		case PARTMGR_ACTION_VALIDATE_CONSTRAINT:
			/* reads and writes of the child go on meanwhile */
			partmgr_lock_relation(action->relid, ShareUpdateExclusiveLock);
			act_as_owner(owner, save_userid, save_sec_context);
			validate_constraint(ctx);
			break;

		case PARTMGR_ACTION_DROP_CONSTRAINTS:
			partmgr_lock_relation(action->relid, AccessExclusiveLock);
			act_as_owner(owner, save_userid, save_sec_context);
			partmgr_spi_utility(partmgr_ddl_drop_constraints(action->schema, action->name,
															 action->constraints));
			break;

		case PARTMGR_ACTION_MOVE_ROWS:
			partmgr_lock_relation(action->from.relid, RowExclusiveLock);
			act_as_owner(owner, save_userid, save_sec_context);
			ctx->rows = move_rows(set, &action->from, action->to_schema, action->to_name,
								  action->lower, action->upper);
			break;

		case PARTMGR_ACTION_RETIRE_CHILD:
			/* a plain DETACH takes all of these in ACCESS EXCLUSIVE mode */
			partmgr_lock_relation(set->parent_oid, AccessExclusiveLock);
			default_oid = get_default_partition_oid(set->parent_oid);
			if (OidIsValid(default_oid))
				partmgr_lock_relation(default_oid, AccessExclusiveLock);
			partmgr_lock_relation(action->relid, AccessExclusiveLock);
			lock_referencing_tables(action->relid);
			act_as_owner(owner, save_userid, save_sec_context);
			partmgr_spi_utility(partmgr_ddl_detach(set, action->schema, action->name, ""));
			retire_detached(action);
			break;

		case PARTMGR_ACTION_FINALIZE_DETACH:
			partmgr_lock_relation(set->parent_oid, ShareUpdateExclusiveLock);
			partmgr_lock_relation(action->relid, AccessExclusiveLock);
			act_as_owner(owner, save_userid, save_sec_context);
			partmgr_spi_utility(partmgr_ddl_detach(set, action->schema, action->name,
												   " FINALIZE"));
			retire_detached(action);
			break;
	}

	SetUserIdAndSecContext(save_userid, save_sec_context);
	AtEOXact_GUC(true, nestlevel);
	ereport(LOG,
			(errmsg("pg_partmgr: %s %s%s", partmgr_action_verb(action),
					partmgr_action_describe(ctx->plan, action),
					ctx->rows_from ?
					psprintf(" (" UINT64_FORMAT " rows moved in from %s)",
							 ctx->rows, ctx->rows_from) : "")));
}

/*
 * explain_failure
 *		Recognize the failures that leave one child for later rather than
 *		stop the set -- rows in the default partition inside a new child's
 *		range, rows of an expired child still referenced by a foreign key --
 *		and replace PostgreSQL's message by one that says what and what to
 *		do.  True if it was one of those.
 */
static bool
explain_failure(const PartmgrPlan *plan, const PartmgrAction *action,
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
		edata->message = psprintf("kept partition \"%s\" of \"%s\": rows in it are still referenced by a foreign key",
								  action->name, plan->set->key);
		edata->hint = pstrdup("Delete or repoint the referencing rows; retention retries on the next run.");
		edata->context = NULL;
		return true;
	}
	if (action->kind != PARTMGR_ACTION_CREATE_CHILD ||
		edata->sqlerrcode != ERRCODE_CHECK_VIOLATION || plan->moving_data)
		return false;
	if (edata->hint != NULL)
		return true;			/* ours (rows_in_default): it says it all */
	edata->message = psprintf("the default partition of \"%s\" holds rows for the new child \"%s\"",
							  plan->set->key, action->name);
	edata->detail = psprintf("Rows with %s from %s (inclusive) to %s (exclusive) are in the default partition, so the child cannot be attached.",
							 quote_identifier(plan->set->control),
							 partmgr_point_display(axis, action->lower),
							 partmgr_point_display(axis, action->upper));
	edata->hint = psprintf("Move them with SELECT partmgr.partition_data_%s(%s), which creates the child.",
						   axis->kind == PARTMGR_KEY_TIME ? "time" : "id",
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
						  detail ? detail : "", ok ? ctx->rows : 0, ctx->rows_from);
	if (ok && ctx->note != NULL)
		detail = psprintf("%s; %s", detail ? detail : "", ctx->note);
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

	memset(result, 0, sizeof(*result));
	foreach(lc, plan->actions)
	{
		ActionContext ctx;
		ErrorData  *edata = NULL;
		TimestampTz started = GetCurrentTimestamp();
		bool		ok;
		bool		blocked = false;

		ctx.plan = plan;
		ctx.action = (const PartmgrAction *) lfirst(lc);
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
		ok = partmgr_run_subxact(execute_action, &ctx, &edata);
		if (!ok)
			blocked = explain_failure(plan, ctx.action, edata);
		else
			result->rows += ctx.rows;
		partmgr_log_action(plan->set->key, run_by,
						   partmgr_action_name(ctx.action),
						   quote_qualified_identifier(ctx.action->schema, ctx.action->name),
						   action_detail(plan, &ctx, ok),
						   started,
						   ok ? PARTMGR_OUTCOME_DONE :
						   (blocked || edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE) ?
						   PARTMGR_OUTCOME_SKIPPED : PARTMGR_OUTCOME_FAILED,
						   edata);
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
		return;
	}
}

/*
 * run_top_level
 *		Run one SQL statement as if a client had sent it on its own, outside
 *		any transaction block, so that statements that manage their own
 *		transactions (DETACH ... CONCURRENTLY) can run.  Called with no
 *		transaction open; leaves none open.  Raises the statement's errors,
 *		with the transaction still to be aborted by the caller.
 */
static void
run_top_level(const char *sql)
{
	RawStmt    *parsetree;
	List	   *plantrees;
	Portal		portal;
	DestReceiver *receiver;
	QueryCompletion qc;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	parsetree = linitial_node(RawStmt, pg_parse_query(sql));
	plantrees = pg_plan_queries(pg_analyze_and_rewrite_fixedparams(parsetree, sql,
																  NULL, 0, NULL),
								sql, CURSOR_OPT_PARALLEL_OK, NULL);
	portal = CreatePortal("", true, true);
	portal->visible = false;
	PortalDefineQuery(portal, NULL, sql, CreateCommandTag(parsetree->stmt),
					  plantrees, NULL);
	PortalStart(portal, NULL, 0, InvalidSnapshot);
	receiver = CreateDestReceiver(DestNone);
	(void) PortalRun(portal, FETCH_ALL, true, true, receiver, receiver, &qc);
	receiver->rDestroy(receiver);
	PortalDrop(portal, false);
	CommitTransactionCommand();
}

/*
 * partmgr_retire_concurrently
 *		Retire one expired child with DETACH ... CONCURRENTLY, which takes
 *		only SHARE UPDATE EXCLUSIVE on the parent, then (in a transaction of
 *		its own) drop, move or trim it as the action says; record the outcome
 *		in the maintenance log.  For the background worker: called with no
 *		transaction open.  The detach waits for queries that use the child at
 *		most pg_partmgr.lock_timeout; when interrupted, the child stays
 *		"detach pending" and the next run finishes it.  Raises nothing but a
 *		query cancel or a shutdown.
 */
void
partmgr_retire_concurrently(const PartmgrPlan *plan, const PartmgrAction *action,
							const char *run_by, MemoryContext cxt)
{
	const PartmgrSet *set = plan->set;
	TimestampTz started = GetCurrentTimestamp();
	Oid			save_userid;
	int			save_sec_context;
	ErrorData  *edata = NULL;
	char	   *saved_timeout = pstrdup(GetConfigOption("lock_timeout", false, false));
	volatile bool detached = false;

	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetConfigOption("lock_timeout", psprintf("%d", partmgr_lock_timeout),
					PGC_SUSET, PGC_S_SESSION);
	PG_TRY();
	{
		act_as_owner(set->parent_owner, save_userid, save_sec_context);
		run_top_level(partmgr_ddl_detach(set, action->schema, action->name,
										 " CONCURRENTLY"));
		detached = true;
		SetCurrentStatementStartTimestamp();
		StartTransactionCommand();
		SPI_connect();
		PushActiveSnapshot(GetTransactionSnapshot());
		retire_detached(action);
		SetUserIdAndSecContext(save_userid, save_sec_context);
		partmgr_log_action(set->key, run_by, partmgr_action_name(action),
						   quote_qualified_identifier(action->schema, action->name),
						   partmgr_action_bounds(plan, action), started,
						   PARTMGR_OUTCOME_DONE, NULL);
		SPI_finish();
		PopActiveSnapshot();
		CommitTransactionCommand();
		ereport(LOG,
				(errmsg("pg_partmgr: %s %s (concurrently)", partmgr_action_verb(action),
						partmgr_action_describe(plan, action))));
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		AbortCurrentTransaction();
		SetUserIdAndSecContext(save_userid, save_sec_context);
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED ||
			edata->sqlerrcode == ERRCODE_ADMIN_SHUTDOWN)
			ReThrowError(edata);
	}
	PG_END_TRY();
	SetConfigOption("lock_timeout", saved_timeout, PGC_SUSET, PGC_S_SESSION);

	if (edata != NULL)
	{
		bool		kept = explain_failure(plan, action, edata) ||
			edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE;

		if (detached)
			edata->detail = psprintf("The partition was detached; what retention does next with it failed.%s%s",
									 edata->detail ? " " : "",
									 edata->detail ? edata->detail : "");
		edata->elevel = WARNING;
		ThrowErrorData(edata);

		SetCurrentStatementStartTimestamp();
		StartTransactionCommand();
		SPI_connect();
		PushActiveSnapshot(GetTransactionSnapshot());
		partmgr_log_action(set->key, run_by, partmgr_action_name(action),
						   quote_qualified_identifier(action->schema, action->name),
						   partmgr_action_bounds(plan, action), started,
						   kept && !detached ? PARTMGR_OUTCOME_SKIPPED : PARTMGR_OUTCOME_FAILED,
						   edata);
		SPI_finish();
		PopActiveSnapshot();
		CommitTransactionCommand();
	}
}
