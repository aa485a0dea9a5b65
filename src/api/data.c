/*-------------------------------------------------------------------------
 *
 * data.c
 *	  SQL-callable functions that move rows: partition_data_time,
 *	  partition_data_id, partition_data_proc, partition_data_async,
 *	  undo_partition and undo_partition_proc.
 *
 * The functions move every batch in the caller's transaction; the
 * procedures commit after each batch (when called as a top-level CALL), so
 * a crash or a cancel keeps the batches already committed and loses or
 * duplicates no row, and a rerun goes on where they stopped.
 *
 * Locks: those of the actions (execute.c), within pg_partmgr.lock_timeout or
 * p_lock_wait seconds when given, and the set's advisory lock for each
 * batch.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/data.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>
#include <math.h>

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "api.h"
#include "bounds.h"
#include "config.h"
#include "statements.h"
#include "execute.h"
#include "locks.h"
#include "maintenance.h"
#include "partition_data.h"
#include "properties.h"
#include "reshape.h"
#include "setup.h"

PG_FUNCTION_INFO_V1(pg_partmgr_partition_data_time);
PG_FUNCTION_INFO_V1(pg_partmgr_partition_data_id);
PG_FUNCTION_INFO_V1(pg_partmgr_partition_data_proc);
PG_FUNCTION_INFO_V1(pg_partmgr_partition_data_async);
PG_FUNCTION_INFO_V1(pg_partmgr_undo_partition);
PG_FUNCTION_INFO_V1(pg_partmgr_undo_partition_proc);

static bool
is_descending(const char *order)
{
	if (pg_strcasecmp(order, "ASC") != 0 && pg_strcasecmp(order, "DESC") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value \"%s\" for p_order", order),
				 errhint("p_order is 'ASC' or 'DESC'.")));
	return pg_strcasecmp(order, "DESC") == 0;
}

/*
 * lock_wait_enter, lock_wait_leave
 *		p_lock_wait (seconds, when more than 0) replaces pg_partmgr.lock_timeout
 *		until lock_wait_leave, at a GUC nest level of its own, as a function's
 *		SET clause does: lock_wait_leave restores the caller's value, and an
 *		error does through the abort of the (sub)transaction it was entered
 *		in.  A nest level ends with its transaction, so the procedures enter
 *		one for each batch (run_proc_batch), which is how the value lasts
 *		across their commits.  Returns the level to give lock_wait_leave.
 */
static int
lock_wait_enter(double seconds)
{
	int			nestlevel = NewGUCNestLevel();

	if (seconds > 0)
		(void) set_config_option("pg_partmgr.lock_timeout",
								 psprintf("%d",
										  (int) Min(ceil(seconds * 1000),
													(double) INT_MAX)),
								 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
								 true, 0, false);
	return nestlevel;
}

static void
lock_wait_leave(int nestlevel)
{
	AtEOXact_GUC(true, nestlevel);
}

static bool
nonatomic_call(FunctionCallInfo fcinfo)
{
	return fcinfo->context != NULL && IsA(fcinfo->context, CallContext) &&
		!castNode(CallContext, fcinfo->context)->atomic;
}

/*
 * check_no_async
 *		Refuse to move rows of a set while partition_data_async fills one of
 *		its children, whose rows are out of sight meanwhile.
 */
static void
check_no_async(const PartmgrSet *set)
{
	if (set->async_in_progress != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("partition_data_async is filling the child of \"%s\" from %s",
						set->key, set->async_in_progress),
				 errhint("Finish it first: CALL partmgr.partition_data_async('%s').",
						 set->key)));
}

/*
 * data_batch
 *		Plan and run the next batches of partition_data, up to max_batches
 *		(*nbatches says how many), in one plan.  Returns false when the
 *		source had no more rows to move; *last is true when it has none after
 *		these (see partmgr_plan_data_batches).
 */
static bool
data_batch(PartmgrSet *set, const PartmgrDataMove *move, const char *run_by,
		   int max_batches, int *nbatches, bool *last, uint64 *rows,
		   const char **child)
{
	PartmgrPlan *plan = partmgr_plan_data_batches(set, partmgr_read_tree(set),
												  move,
												  max_batches, nbatches, last);

	partmgr_plan_tables(plan);
	if (plan->actions == NIL)
		return false;
	(void) partmgr_execute_or_raise(plan, run_by, rows);
	*child = ((PartmgrAction *) llast(plan->actions))->kind == PARTMGR_ACTION_MOVE_ROWS ?
		((PartmgrAction *) llast(plan->actions))->to_name :
		((PartmgrAction *) llast(plan->actions))->name;
	return true;
}

/*
 * partition_data
 *		Shared body of partition_data_time and partition_data_id: up to
 *		p_batch_count batches, all in the caller's transaction.  Returns the
 *		number of rows moved.  p_override_system_value is accepted for
 *		compatibility: identity values always keep their values.
 *		partition_data_time's p_ignore_infinity (argument 9, pg_partman 5.4)
 *		leaves rows keyed at infinity or -infinity in the source; the 0.1.0
 *		declaration, which the library serves until ALTER EXTENSION UPDATE,
 *		has 9 arguments, and partition_data_id never has it.
 */
static int64
partition_data(FunctionCallInfo fcinfo, PartmgrKeyKind kind)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	int			batch_count = PG_ARGISNULL(1) ? 1 : PG_GETARG_INT32(1);
	char	   *batch_text = NULL;
	bool		descending;
	bool		analyze = PG_ARGISNULL(5) || PG_GETARG_BOOL(5);
	char	   *source = partmgr_text_arg_or_null(fcinfo, 6);
	List	   *ignored = partmgr_text_array_arg(fcinfo, 7);
	bool		ignore_infinity = PG_NARGS() > 9 && !PG_ARGISNULL(9) &&
	PG_GETARG_BOOL(9);
	PartmgrSet *set;
	PartmgrDataMove move;
	uint64		total = 0;
	int			batches = 0;
	int			nestlevel;
	PartmgrRights rights;
	Oid			source_oid;

	if (batch_count < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_batch_count must be at least 1, not %d",
						batch_count)));
	descending = is_descending(PG_ARGISNULL(4) ? "ASC" :
							   partmgr_text_arg(fcinfo, 4, "p_order"));
	if (!PG_ARGISNULL(2))
		batch_text = (kind == PARTMGR_KEY_TIME ?
					  DatumGetCString(DirectFunctionCall1(interval_out,
														  PG_GETARG_DATUM(2))) :
					  psprintf(INT64_FORMAT, PG_GETARG_INT64(2)));

	SPI_connect();
	/* names the caller gives are looked up with the caller's search_path */
	source_oid = source ? partmgr_resolve_table(source, false) : InvalidOid;
	nestlevel = lock_wait_enter(PG_ARGISNULL(3) ? 0 :
								DatumGetFloat8(DirectFunctionCall1(numeric_float8,
																   PG_GETARG_DATUM(3))));
	set = partmgr_load_set_of_kind(table, kind, kind == PARTMGR_KEY_TIME ?
								   "partition_data_id()" :
								   "partition_data_time()", &rights);
	check_no_async(set);
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	partmgr_data_move_init(set, partmgr_read_tree(set), source_oid, batch_text,
						   descending, ignored, &move);
	move.ignore_infinity = ignore_infinity;
	while (batches < batch_count)
	{
		uint64		rows = 0;
		int			done;
		bool		last;
		const char *child;

		if (!data_batch(set, &move, kind == PARTMGR_KEY_TIME ?
						"partition_data_time" : "partition_data_id",
						batch_count - batches, &done, &last, &rows, &child))
			break;
		total += rows;
		batches += done;
		if (last)
			break;				/* no scan of the emptied source to find that
								 * out */
	}
	if (analyze && batches > 0)
		(void) partmgr_analyze_set(set, false, kind == PARTMGR_KEY_TIME ?
								   "partition_data_time" : "partition_data_id",
								   true);
	partmgr_rights_leave(&rights);
	lock_wait_leave(nestlevel);
	SPI_finish();
	return (int64) total;
}

Datum
pg_partmgr_partition_data_time(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(partition_data(fcinfo, PARTMGR_KEY_TIME));
}

Datum
pg_partmgr_partition_data_id(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(partition_data(fcinfo, PARTMGR_KEY_ID));
}

/*
 * undo_step
 *		One step of undo_partition: plan it and run it.  When it moved rows
 *		out of a child without retiring it and left that child empty, the
 *		child is retired at once, as pg_partman does, without counting as
 *		another batch.  Adds to *rows and *retired; *child names the table
 *		acted on last.  False when the set had nothing left.
 */
static bool
undo_step(PartmgrSet *set, const PartmgrUndo *undo, const char *run_by,
		  uint64 *rows,
		  int *retired, const char **child)
{
	PartmgrPlan *plan = partmgr_plan_undo_step(set, partmgr_read_tree(set),
											   undo);
	Oid			moved_from = InvalidOid;
	bool		retired_here = false;
	uint64		moved = 0;
	ListCell   *lc;

	if (plan->actions == NIL)
		return false;
	(void) partmgr_execute_or_raise(plan, run_by, &moved);
	*rows += moved;
	foreach(lc, plan->actions)
	{
		PartmgrAction *action = (PartmgrAction *) lfirst(lc);

		if (action->kind == PARTMGR_ACTION_MOVE_ROWS)
			moved_from = action->from.relid;
		else
		{
			(*retired)++;
			retired_here = true;
		}
		*child = action->name;
	}
	if (OidIsValid(moved_from) && !retired_here)
	{
		PartmgrPlan *next = partmgr_plan_undo_step(set, partmgr_read_tree(set),
												   undo);
		PartmgrAction *action = (next->actions != NIL ?
								 (PartmgrAction *) linitial(next->actions) :
								 NULL);

		if (list_length(next->actions) == 1 &&
			action->kind != PARTMGR_ACTION_MOVE_ROWS &&
			action->relid == moved_from)
		{
			(void) partmgr_execute_or_raise(next, run_by, NULL);
			(*retired)++;
		}
	}
	return true;
}

/*
 * async_step
 *		One step of partition_data_async (see partmgr_plan_async_step), with
 *		the set read afresh, and its progress recorded in part_config with
 *		it.  False when the default partition holds no row.
 */
static bool
async_step(const char *key, const PartmgrDataMove *move, const char *run_by,
		   uint64 *rows,
		   const char **child)
{
	PartmgrSet *set = partmgr_config_load(key, false);
	PartmgrAsyncOutcome outcome;
	PartmgrPoint lower;
	PartmgrPlan *plan = partmgr_plan_async_step(set, partmgr_read_tree(set),
												move, &outcome,
												&lower);

	partmgr_plan_tables(plan);
	if (outcome == PARTMGR_ASYNC_NOTHING)
		return false;
	(void) partmgr_execute_or_raise(plan, run_by, rows);
	if (outcome == PARTMGR_ASYNC_STARTED)
		partmgr_config_set_async(set->key,
								 partmgr_point_display(&set->axis, lower));
	else if (outcome == PARTMGR_ASYNC_ATTACHED)
		partmgr_config_set_async(set->key, NULL);
	*child = partmgr_child_name(set, lower);
	return true;
}

/*
 * One batch of a procedure, run in a subtransaction to catch lock waits,
 * and in an SPI connection of its own (see run_proc_batch).
 */
typedef struct ProcBatch
{
	PartmgrSet *set;
	const PartmgrDataMove *move;	/* partition_data_proc */
	const PartmgrUndo *undo;	/* undo_partition_proc */
	const PartmgrDataMove *async;	/* partition_data_async */
	const char *run_by;
	double		lock_wait;		/* p_lock_wait, seconds; 0: not given */
	bool		more;			/* there was something to do */
	uint64		rows;
	int			retired;
	const char *child;
} ProcBatch;

/*
 * run_proc_batch
 *		One batch (see ProcBatch), with the owner's rights and p_lock_wait.
 *		It runs in an SPI connection of its own: SPI keeps the results of a
 *		connection's queries until it ends, across the commits of the
 *		procedure's non-atomic one, so they would pile up batch after batch.
 *		What the batch reports is copied out to the caller's memory context.
 */
static void
run_proc_batch(void *arg)
{
	ProcBatch  *batch = (ProcBatch *) arg;
	MemoryContext caller = CurrentMemoryContext;
	PartmgrRights rights;
	int			nestlevel = lock_wait_enter(batch->lock_wait);

	SPI_connect();
	partmgr_rights_enter_set(batch->set, PARTMGR_RIGHTS_ACT, &rights);
	if (!partmgr_try_lock_set(batch->set->parent_oid))
		ereport(ERROR,
				(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
				 errmsg("partition set \"%s\" is being maintained by another session",
						batch->set->key)));
	if (batch->move != NULL)
	{
		int			done;
		bool		last;

		batch->more = data_batch(batch->set, batch->move, batch->run_by, 1,
								 &done, &last,
								 &batch->rows, &batch->child) && !last;
	}
	else if (batch->async != NULL)
		batch->more = async_step(batch->set->key, batch->async, batch->run_by,
								 &batch->rows,
								 &batch->child);
	else
		batch->more = undo_step(batch->set, batch->undo, batch->run_by,
								&batch->rows,
								&batch->retired, &batch->child);
	partmgr_rights_leave(&rights);
	if (batch->child != NULL)
		batch->child = MemoryContextStrdup(caller, batch->child);
	SPI_finish();
	lock_wait_leave(nestlevel);
}

/*
 * run_batches
 *		The loop of the two procedures: batch after batch, each in its own
 *		transaction when the call can commit, until there is nothing left or
 *		loop_count batches have moved rows.  A batch that cannot get its
 *		locks is tried again after p_wait seconds, lock_wait_tries times.
 *		Reports progress with NOTICEs unless quiet.
 */
static void
run_batches(ProcBatch *proto, bool nonatomic, int loop_count,
			int lock_wait_tries,
			int wait, bool quiet, int64 rows_at_start, const char *what,
			uint64 *total_rows, int *total_retired)
{
	TimestampTz started = GetCurrentTimestamp();
	MemoryContext per_batch = AllocSetContextCreate(CurrentMemoryContext,
													"pg_partmgr batch",
													ALLOCSET_DEFAULT_SIZES);
	int			moved_batches = 0;
	int			tries = 0;

	*total_rows = 0;
	*total_retired = 0;
	for (;;)
	{
		ProcBatch	batch = *proto;
		ErrorData  *edata = NULL;
		MemoryContext caller = MemoryContextSwitchTo(per_batch);
		bool		snapshot = !ActiveSnapshotSet();
		bool		ok;

		if (snapshot)
			PushActiveSnapshot(GetTransactionSnapshot());
		ok = partmgr_run_subxact(run_proc_batch, &batch, &edata);
		if (snapshot)
			PopActiveSnapshot();
		MemoryContextSwitchTo(caller);
		if (!ok)
		{
			if (edata->sqlerrcode != ERRCODE_LOCK_NOT_AVAILABLE ||
				++tries > lock_wait_tries)
				ReThrowError(edata);
			if (!quiet)
				ereport(NOTICE,
						(errmsg("%s: %s; trying again in %d s (%d of %d)", what,
								edata->message, wait, tries, lock_wait_tries)));
			partmgr_pause_seconds(Max(wait, 1));
			continue;
		}
		tries = 0;
		if (nonatomic)
			SPI_commit();
		if (!batch.more)
			break;
		*total_rows += batch.rows;
		*total_retired += batch.retired;
		if (!quiet)
		{
			double		secs = (double) TimestampDifferenceMilliseconds(started, GetCurrentTimestamp()) / 1000.0;

			ereport(NOTICE,
					(errmsg("%s: " UINT64_FORMAT " rows moved (%s), " UINT64_FORMAT " in all, "
							INT64_FORMAT " left, %.0f rows/s", what, batch.rows,
							batch.child ? batch.child : "", *total_rows,
							Max(rows_at_start - (int64) *total_rows, 0),
							secs > 0 ? (double) *total_rows / secs : 0.0)));
		}
		MemoryContextReset(per_batch);
		if (batch.rows > 0 && loop_count > 0 && ++moved_batches >= loop_count)
			break;
		if (wait > 0)
			partmgr_pause_seconds(wait);
	}
	MemoryContextDelete(per_batch);
}

/*
 * data_procedure
 *		The shared body of the procedures partition_data_proc and
 *		partition_data_async: their arguments are the same but for
 *		partition_data_proc's p_source_table (argument 7) and
 *		p_ignore_infinity (argument 10, pg_partman 5.4; absent from the
 *		0.1.0 declaration, which the library serves until ALTER EXTENSION
 *		UPDATE), and both run run_batches.  Each batch moves with the
 *		same PartmgrDataMove, so with it the same p_ignore_infinity.
 */
static void
data_procedure(FunctionCallInfo fcinfo, bool async)
{
	const char *what = async ? "partition_data_async" : "partition_data_proc";
	int			after = async ? 7 : 8;	/* p_ignored_columns, then p_quiet */
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	int			loop_count = PG_ARGISNULL(1) ? 0 : PG_GETARG_INT32(1);
	char	   *batch_text = partmgr_text_arg_or_null(fcinfo, 2);
	int			lock_wait = PG_ARGISNULL(3) ? 0 : PG_GETARG_INT32(3);
	int			lock_wait_tries = PG_ARGISNULL(4) ? 10 : PG_GETARG_INT32(4);
	int			wait = PG_ARGISNULL(5) ? 1 : PG_GETARG_INT32(5);
	bool		descending = is_descending(PG_ARGISNULL(6) ? "ASC" :
										   partmgr_text_arg(fcinfo, 6,
															"p_order"));
	char	   *source = async ? NULL : partmgr_text_arg_or_null(fcinfo, 7);
	List	   *ignored = partmgr_text_array_arg(fcinfo, after);
	bool		quiet = !PG_ARGISNULL(after + 1) && PG_GETARG_BOOL(after + 1);
	bool		ignore_infinity = (!async && PG_NARGS() > 10 &&
								   !PG_ARGISNULL(10) &&
								   PG_GETARG_BOOL(10));
	bool		nonatomic = nonatomic_call(fcinfo);
	ProcBatch	proto;
	PartmgrDataMove move;
	int64		rows_at_start = 0;
	uint64		total;
	int			retired;
	PartmgrRights rights;
	Oid			source_oid;

	if (!PG_ARGISNULL(1) && loop_count < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_loop_count must be at least 1, not %d",
						loop_count)));
	if (wait < 0 || lock_wait < 0 || lock_wait_tries < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_wait, p_lock_wait and p_lock_wait_tries must not be negative")));

	SPI_connect_ext(nonatomic ? SPI_OPT_NONATOMIC : 0);
	source_oid = source ? partmgr_resolve_table(source, false) : InvalidOid;
	memset(&proto, 0, sizeof(proto));
	proto.set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, &rights);
	partmgr_check_not_hash(proto.set, "a default partition");
	proto.run_by = what;
	proto.lock_wait = lock_wait;
	if (async)
	{
		if (partmgr_sub_spec_load(proto.set->key) != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("partition_data_async does not fill children of the sub-partitioned set \"%s\"",
							proto.set->key),
					 errhint("Use partition_data_proc, which makes each child a sub-parent.")));
		partmgr_async_init(proto.set, partmgr_read_tree(proto.set), batch_text,
						   descending,
						   ignored, &move);
		proto.async = &move;
	}
	else
	{
		check_no_async(proto.set);
		partmgr_data_move_init(proto.set, partmgr_read_tree(proto.set),
							   source_oid,
							   batch_text, descending, ignored, &move);
		move.ignore_infinity = ignore_infinity;
		proto.move = &move;
	}
	if (OidIsValid(move.source.relid))
		rows_at_start = partmgr_count_source_rows(proto.set, &move);
	/* each batch acts with the owner's rights in a transaction of its own */
	partmgr_rights_leave(&rights);
	run_batches(&proto, nonatomic, loop_count, lock_wait_tries, wait, quiet,
				rows_at_start, what, &total, &retired);
	if (!quiet)
		ereport(NOTICE,
				(errmsg("%s: moved " UINT64_FORMAT " rows into \"%s\"", what,
						total,
						proto.set->key)));
	SPI_finish();
}

/*
 * pg_partmgr_partition_data_proc
 *		PROCEDURE partmgr.partition_data_proc(p_parent_table, p_loop_count,
 *		p_interval, p_lock_wait, p_lock_wait_tries, p_wait, p_order,
 *		p_source_table, p_ignored_columns, p_quiet): partition_data batch by
 *		batch, committing after each.
 */
Datum
pg_partmgr_partition_data_proc(PG_FUNCTION_ARGS)
{
	data_procedure(fcinfo, false);
	PG_RETURN_VOID();
}

/*
 * pg_partmgr_partition_data_async
 *		PROCEDURE partmgr.partition_data_async(p_parent_table, p_loop_count,
 *		p_interval, p_lock_wait, p_lock_wait_tries, p_wait, p_order,
 *		p_ignored_columns, p_quiet) (pg_partman 5.3): rows out of the default
 *		partition in batches narrower than a partition interval, committing
 *		after each step.  The child of a range is created unattached, behind
 *		a CHECK of its bound, filled batch by batch (its rows are out of
 *		sight through the parent until it is attached), then attached with
 *		the rows of its range that reached the default partition meanwhile.
 *		part_config.async_partitioning_in_progress says which child is
 *		being filled, so that a call after a cancel or a crash goes on with
 *		it; maintenance, partition_data and undo_partition leave the set
 *		alone meanwhile.  p_loop_count counts the steps that moved rows.
 */
Datum
pg_partmgr_partition_data_async(PG_FUNCTION_ARGS)
{
	data_procedure(fcinfo, true);
	PG_RETURN_VOID();
}

/*
 * undo_setup
 *		Shared start of undo_partition and undo_partition_proc: load the set
 *		and enter the scope of its owner's rights (the caller leaves it),
 *		check the target, and mark the set as being undone.
 */
static PartmgrSet *
undo_setup(FunctionCallInfo fcinfo, const char *table, const char *target,
		   const char *batch_text, bool keep_table, bool drop_cascade,
		   List *ignored,
		   PartmgrUndo *undo, PartmgrRights *rights)
{
	PartmgrSet *set;
	Oid			target_oid;

	if (target == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument p_target_table must not be NULL"),
				 errhint("Create a plain table like the parent and name it; the rows are moved there.")));
	/* looked up with the caller's search_path, before the owner's scope */
	target_oid = partmgr_resolve_table(target, false);
	set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, rights);
	partmgr_check_not_hash(set, "a range or list set");
	check_no_async(set);
	partmgr_check_no_reshape(set, "undo_partition()");
	partmgr_undo_init(set, target_oid, batch_text, keep_table, drop_cascade,
					  ignored, undo);
	partmgr_config_set_undo(set->key, true);
	return set;
}

/*
 * undo_finish
 *		Once no child is left, forget the set, and drop its template table
 *		unless another set uses it.  True if it was forgotten.
 */
static bool
undo_finish(PartmgrSet *set)
{
	PartmgrTree *tree = partmgr_read_tree(set);

	if (tree->nchildren > 0 || OidIsValid(tree->default_oid))
		return false;
	partmgr_config_delete(set->key);
	partmgr_drop_unused_template(set);
	return true;
}

/* undo_finish with the owner's rights, for the procedure's last transaction. */
static void
undo_finish_as_owner(PartmgrSet *set)
{
	PartmgrRights rights;

	partmgr_rights_enter_set(set, PARTMGR_RIGHTS_ACT, &rights);
	(void) undo_finish(set);
	partmgr_rights_leave(&rights);
}

/*
 * pg_partmgr_undo_partition
 *		partmgr.undo_partition(): move the rows of up to p_loop_count batches
 *		into the target table, retiring emptied children; when none is left,
 *		the set is forgotten.  Returns (partitions_undone, rows_undone).
 */
Datum
pg_partmgr_undo_partition(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	char	   *target = partmgr_text_arg_or_null(fcinfo, 1);
	int			loop_count = PG_ARGISNULL(2) ? 1 : PG_GETARG_INT32(2);
	char	   *batch_text = partmgr_text_arg_or_null(fcinfo, 3);
	bool		keep_table = PG_ARGISNULL(4) || PG_GETARG_BOOL(4);
	List	   *ignored = partmgr_text_array_arg(fcinfo, 6);
	bool		drop_cascade = !PG_ARGISNULL(7) && PG_GETARG_BOOL(7);
	MemoryContext caller = CurrentMemoryContext;
	TupleDesc	tupdesc;
	PartmgrSet *set;
	PartmgrUndo undo;
	int			moved_batches = 0;
	int			retired = 0;
	uint64		total = 0;
	int			nestlevel;
	PartmgrRights rights;
	Datum		values[2];
	bool		nulls[2] = {false, false};
	HeapTuple	tuple;

	if (loop_count < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_loop_count must be at least 1, not %d",
						loop_count)));
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	SPI_connect();
	nestlevel = lock_wait_enter(PG_ARGISNULL(5) ? 0 :
								DatumGetFloat8(DirectFunctionCall1(numeric_float8,
																   PG_GETARG_DATUM(5))));
	set = undo_setup(fcinfo, table, target, batch_text, keep_table,
					 drop_cascade,
					 ignored, &undo, &rights);
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	while (moved_batches < loop_count)
	{
		uint64		rows = 0;
		int			retired_now = 0;
		const char *child = NULL;

		if (!undo_step(set, &undo, "undo_partition", &rows, &retired_now,
					   &child))
			break;
		total += rows;
		retired += retired_now;
		if (rows > 0)
			moved_batches++;
	}
	(void) undo_finish(set);
	partmgr_rights_leave(&rights);
	lock_wait_leave(nestlevel);

	MemoryContextSwitchTo(caller);
	values[0] = Int32GetDatum(retired);
	values[1] = Int64GetDatum((int64) total);
	tuple = heap_form_tuple(tupdesc, values, nulls);
	SPI_finish();
	PG_RETURN_DATUM(HeapTupleGetDatum(tuple));
}

/*
 * pg_partmgr_undo_partition_proc
 *		PROCEDURE partmgr.undo_partition_proc(): undo_partition batch by batch,
 *		committing after each, until no child is left (or p_loop_count
 *		batches have moved rows).
 */
Datum
pg_partmgr_undo_partition_proc(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	char	   *target = partmgr_text_arg_or_null(fcinfo, 1);
	int			loop_count = PG_ARGISNULL(2) ? 0 : PG_GETARG_INT32(2);
	char	   *batch_text = partmgr_text_arg_or_null(fcinfo, 3);
	bool		keep_table = PG_ARGISNULL(4) || PG_GETARG_BOOL(4);
	int			lock_wait = PG_ARGISNULL(5) ? 0 : PG_GETARG_INT32(5);
	int			lock_wait_tries = PG_ARGISNULL(6) ? 10 : PG_GETARG_INT32(6);
	int			wait = PG_ARGISNULL(7) ? 1 : PG_GETARG_INT32(7);
	List	   *ignored = partmgr_text_array_arg(fcinfo, 8);
	bool		drop_cascade = !PG_ARGISNULL(9) && PG_GETARG_BOOL(9);
	bool		quiet = !PG_ARGISNULL(10) && PG_GETARG_BOOL(10);
	bool		nonatomic = nonatomic_call(fcinfo);
	ProcBatch	proto;
	PartmgrUndo undo;
	uint64		total;
	int			retired;
	int64		rows_at_start;
	PartmgrRights rights;

	if (!PG_ARGISNULL(2) && loop_count < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_loop_count must be at least 1, not %d",
						loop_count)));
	if (wait < 0 || lock_wait < 0 || lock_wait_tries < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_wait, p_lock_wait and p_lock_wait_tries must not be negative")));

	SPI_connect_ext(nonatomic ? SPI_OPT_NONATOMIC : 0);
	memset(&proto, 0, sizeof(proto));
	proto.set = undo_setup(fcinfo, table, target, batch_text, keep_table,
						   drop_cascade,
						   ignored, &undo, &rights);
	proto.undo = &undo;
	proto.run_by = "undo_partition_proc";
	proto.lock_wait = lock_wait;
	rows_at_start = partmgr_count_rows(proto.set->parent_schema,
									   proto.set->parent_name, false);
	partmgr_rights_leave(&rights);
	if (nonatomic)
		SPI_commit();			/* maintenance leaves the set alone from now
								 * on */
	run_batches(&proto, nonatomic, loop_count, lock_wait_tries, wait, quiet,
				rows_at_start, "undo_partition_proc", &total, &retired);
	if (!ActiveSnapshotSet())
	{
		PushActiveSnapshot(GetTransactionSnapshot());
		undo_finish_as_owner(proto.set);
		PopActiveSnapshot();
	}
	else
		undo_finish_as_owner(proto.set);
	if (!quiet)
		ereport(NOTICE,
				(errmsg("undo_partition_proc: moved " UINT64_FORMAT " rows into \"%s\", removed %d children",
						total, target, retired)));
	SPI_finish();
	PG_RETURN_VOID();
}
