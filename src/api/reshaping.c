/*-------------------------------------------------------------------------
 *
 * reshaping.c
 *	  Reshaping a live set: change_interval() (a set's children follow
 *	  another interval from the end of its newest child on), the
 *	  procedures that reshape existing children online (split_partition,
 *	  merge_partitions, split_hash_partition, merge_hash_partitions,
 *	  run_reshape), cancel_reshape(), and the change capture trigger.
 *
 * The procedures register an operation (reshape.c, one transaction) and
 * carry it out step after step, each step in a subtransaction with the
 * set owner's rights and the set's advisory lock, committing after each
 * when called as a top-level CALL; a step that cannot get its locks is
 * tried again after p_wait seconds, p_lock_wait_tries times.  The session
 * holds an advisory lock on the operation while it carries it out, so a
 * second session gives up at once (55P03) rather than work beside it.
 *
 * change_interval:
 *
 * The existing children keep their bounds and names.  What was in force
 * below that bound is kept in partmgr.part_config_interval (config.c), and
 * every computation of a child's range or name goes by the era of its
 * lower bound (bounds.c): premake, gap fill, the children partition_data
 * makes for rows, show_partition_name, show_partition_info.  The new
 * interval's grid starts at that bound, its first child running to the
 * next point create_parent's alignment gives (so daily children changed to
 * monthly ones on the 5th get one child to the 1st of the next month,
 * then whole months).  Nothing is created here: the next maintenance run,
 * or plan_maintenance() as a dry run, shows the new children.
 *
 * Names never collide: a set whose suffix format was its old interval's
 * default gets the new interval's default, and so does one whose own
 * format would give two of the next children one name; a name taken by an
 * existing table is an error, before anything changes.
 *
 * Locks: the set's advisory lock without waiting (55P03 while maintenance
 * runs on it); no table lock, as no table changes.  The caller's
 * transaction holds the configuration change.  With p_reshape_existing it
 * registers reshapes (reshape.c) in the same transaction, to be carried
 * out by run_reshape().
 *
 * The procedures' locks are their steps' (work.c); transactions begin and
 * end between steps, in drive(); cancel_reshape() runs in the caller's.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/reshaping.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "access/xact.h"
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "commands/tablespace.h"
#include "executor/spi.h"
#include "nodes/parsenodes.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "api.h"
#include "bounds.h"
#include "capture.h"
#include "catalog.h"
#include "citus.h"
#include "config.h"
#include "execute.h"
#include "locks.h"
#include "log.h"
#include "plan.h"
#include "reshape.h"

PG_FUNCTION_INFO_V1(pg_partmgr_change_interval);
PG_FUNCTION_INFO_V1(pg_partmgr_split_partition);
PG_FUNCTION_INFO_V1(pg_partmgr_merge_partitions);
PG_FUNCTION_INFO_V1(pg_partmgr_move_partition);
PG_FUNCTION_INFO_V1(pg_partmgr_split_hash_partition);
PG_FUNCTION_INFO_V1(pg_partmgr_merge_hash_partitions);
PG_FUNCTION_INFO_V1(pg_partmgr_run_reshape);
PG_FUNCTION_INFO_V1(pg_partmgr_cancel_reshape);
PG_FUNCTION_INFO_V1(pg_partmgr_reshape_capture);

/* Why a Citus set is not reshaped (partmgr_citus_refuse) */
#define CITUS_NO_RESHAPE \
	"A reshape records the changes made to a child while it copies it with a row trigger, and Citus does not run triggers on distributed tables."

/* how many of the next children the names of a new format are tried on */
#define NAMES_CHECKED_MIN	4

/*
 * with_new_era
 *		A copy of set whose current era ends at era_end, followed by one of
 *		step (named with datetime_string): the set as it will be.
 */
static PartmgrSet *
with_new_era(const PartmgrSet *set, PartmgrPoint era_end,
			 const PartmgrStep *step,
			 const char *interval_text, const char *datetime_string)
{
	PartmgrSet *trial = palloc(sizeof(PartmgrSet));
	PartmgrEra *eras = palloc0(sizeof(PartmgrEra) * (set->neras + 1));
	PartmgrEra *last;
	PartmgrEra *next;

	*trial = *set;
	memcpy(eras, set->eras, sizeof(PartmgrEra) * set->neras);
	last = &eras[set->neras - 1];
	next = &eras[set->neras];
	if (last->start == era_end)
	{
		/* changed again before any child of the last interval was made */
		next = last;
		trial->neras = set->neras;
	}
	else
	{
		last->end = era_end;
		trial->neras = set->neras + 1;
	}
	next->start = era_end;
	next->end = PARTMGR_POINT_MAX;
	next->end_text = NULL;
	next->step = *step;
	next->interval_text = (char *) interval_text;
	next->datetime_string = (char *) datetime_string;
	next->date_trunc_interval = NULL;
	next->aligned = true;
	next->next_aligned = true;
	last->next_aligned = true;
	trial->eras = eras;
	trial->step = *step;
	trial->interval_text = (char *) interval_text;
	trial->datetime_string = (char *) datetime_string;
	trial->date_trunc_interval = NULL;
	return trial;
}

/*
 * names_clash
 *		The first of the next children of trial (from era_end on, at least
 *		NAMES_CHECKED_MIN and premake + 1 of them) whose name another of
 *		them has too, or a table of the schema has; NULL when none.  With
 *		*taken true when the name is an existing table's.
 */
static char *
names_clash(const PartmgrSet *trial, PartmgrPoint era_end, bool *taken)
{
	Oid			nspid = get_namespace_oid(trial->parent_schema, false);
	int			count = Max(NAMES_CHECKED_MIN, trial->premake + 1);
	List	   *names = NIL;
	PartmgrPoint lower = era_end;

	for (int i = 0; i < count && lower != PARTMGR_POINT_MAX; i++)
	{
		char	   *name = partmgr_child_name(trial, lower);
		ListCell   *lc;

		CHECK_FOR_INTERRUPTS();
		*taken = OidIsValid(get_relname_relid(name, nspid));
		if (*taken)
			return name;
		foreach(lc, names)
		{
			if (strcmp((char *) lfirst(lc), name) == 0)
				return name;
		}
		names = lappend(names, name);
		if (!partmgr_point_fits_type(&trial->axis, lower))
			break;
		lower = partmgr_slot_upper(trial, lower);
	}
	return NULL;
}

/*
 * check_may_change
 *		What rules a change of interval out for a set: a list set (one value
 *		per child), an undo or a partition_data_async in progress (both
 *		work on the old grid), a top child that takes every higher value.
 */
static void
check_may_change(const PartmgrSet *set, const PartmgrTree *tree)
{
	partmgr_check_not_hash(set,
						   "a range set (a hash set's children are split one at a time with split_hash_partition())");
	if (set->strategy == PARTITION_STRATEGY_LIST)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the interval of list set \"%s\" cannot change",
						set->key),
				 errdetail("Each child of a list set holds one value.")));
	if (set->undo_in_progress)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("partition set \"%s\" is being undone", set->key),
				 errhint("Finish undo_partition() first.")));
	if (set->async_in_progress != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("partition_data_async() is filling a child of \"%s\"",
						set->key),
				 errdetail("The child for values from %s on is not attached yet.",
						   set->async_in_progress),
				 errhint("Call partition_data_async() until it finishes, then change the interval.")));
	if (tree->nchildren > 0 &&
		tree->children[tree->nchildren - 1].upper == PARTMGR_POINT_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("no new child of \"%s\" can follow another interval",
						set->key),
				 errdetail("Its child \"%s\" takes every value up to MAXVALUE.",
						   quote_qualified_identifier(tree->children[tree->nchildren - 1].schema,
													  tree->children[tree->nchildren - 1].name))));
}

/*
 * register_existing
 *		p_reshape_existing: register the reshapes that bring the children
 *		below era_end onto the new interval's grid (reshape.c's
 *		partmgr_reshape_runs), with the set as it now is.  Returns how many.
 */
static int
register_existing(const char *key, PartmgrPoint era_end, const char *interval)
{
	PartmgrSet *set;
	PartmgrTree *tree;
	List	   *requests;
	ListCell   *lc;

	CommandCounterIncrement();
	set = partmgr_config_load(key, false);
	tree = partmgr_read_tree(set);
	requests = partmgr_reshape_runs(set, tree, era_end, interval);
	foreach(lc, requests)
	{
		PartmgrReshapeOp *op = partmgr_reshape_register(set, tree, lfirst(lc));

		partmgr_log_action(set->key, "change_interval", "register reshape",
						   partmgr_key_display(op->sources[0]),
						   psprintf("reshape " INT64_FORMAT
									": %s of %d into %d (%s)", op->id,
									op->kind, op->nsources, op->ntargets,
									op->targets[0]),
						   GetCurrentTimestamp(), PARTMGR_OUTCOME_DONE, NULL);
	}
	return list_length(requests);
}

/*
 * pg_partmgr_change_interval
 *		change_interval(p_parent_table, p_new_interval): see the file header.
 *		Returns the bound the new interval starts at (NULL when it already
 *		was the interval; for a set with no children, its lowest child's
 *		bound is the new interval's, and NULL is returned too).
 */
Datum
pg_partmgr_change_interval(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	char	   *interval = partmgr_text_arg(fcinfo, 1, "p_new_interval");
	bool		reshape_existing = PG_NARGS() > 2 && !PG_ARGISNULL(2) &&
	PG_GETARG_BOOL(2);
	int			nreshapes = 0;
	TimestampTz started = GetCurrentTimestamp();
	MemoryContext caller = CurrentMemoryContext;
	PartmgrSet *set;
	PartmgrTree *tree;
	PartmgrStep step;
	PartmgrErrorContext argctx;
	PartmgrRights rights;
	PartmgrSubSpec *sub;
	PartmgrPoint era_end = PARTMGR_POINT_MIN;
	const char *old_default;
	const char *format;
	char	   *new_text;
	char	   *clash;
	char	   *end_text = NULL;
	char	   *result = NULL;
	bool		taken = false;

	SPI_connect();
	set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, &rights);
	if (reshape_existing)
		partmgr_citus_refuse(set->parent_oid, set->key,
							 "change_interval with p_reshape_existing",
							 CITUS_NO_RESHAPE);
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	tree = partmgr_read_tree(set);
	check_may_change(set, tree);
	partmgr_check_no_reshape(set, "change_interval()");

	partmgr_context_push(&argctx, "argument %s", "p_new_interval");
	partmgr_step_parse(&set->axis, interval, PARTMGR_STEP_PARTITION, &step);
	partmgr_context_pop(&argctx);
	if (step.kind == PARTMGR_KEY_ID && step.id < 2)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partition interval of a range id set must be at least 2"),
				 errhint("Use list partitioning for one value per child.")));
	new_text = partmgr_step_text(&step);
	if (partmgr_same_step(&step, &set->step))
	{
		ereport(NOTICE,
				(errmsg("the interval of \"%s\" is already %s", set->key,
						set->interval_text)));
		partmgr_rights_leave(&rights);
		SPI_finish();
		PG_RETURN_NULL();
	}

	/* the sub-sets of new children must still fit in them */
	sub = partmgr_sub_spec_load(set->key);
	if (sub != NULL)
	{
		PartmgrSet	changed = *set;

		changed.step = step;
		changed.interval_text = new_text;
		partmgr_check_sub_args(&changed, &sub->args);
	}

	/* the suffix format: see the file header */
	format = set->datetime_string;
	if (set->axis.kind == PARTMGR_KEY_TIME)
	{
		old_default = partmgr_default_datetime_string(&set->step);
		if (format == NULL || strcmp(format, old_default) == 0)
			format = partmgr_default_datetime_string(&step);
	}

	if (tree->nchildren > 0)
	{
		era_end = tree->children[tree->nchildren - 1].upper;
		/* the newest children of the current interval were taken out */
		era_end = Max(era_end, set->eras[set->neras - 1].start);
		clash = names_clash(with_new_era(set, era_end, &step, new_text,
										 format), era_end,
							&taken);
		if (clash != NULL && !taken && set->axis.kind == PARTMGR_KEY_TIME &&
			strcmp(format, partmgr_default_datetime_string(&step)) != 0)
		{
			/* the set's own format does not tell the new children apart */
			format = partmgr_default_datetime_string(&step);
			clash = names_clash(with_new_era(set, era_end, &step, new_text,
											 format),
								era_end, &taken);
		}
		if (clash != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_TABLE),
					 taken ?
					 errmsg("relation \"%s\" already exists",
							quote_qualified_identifier(set->parent_schema,
													   clash)) :
					 errmsg("two children of \"%s\" would both be named \"%s\"", set->key, clash),
					 errdetail("pg_partmgr needs the name for a child of \"%s\" with interval %s.",
							   set->key, new_text),
					 taken ?
					 errhint("Rename or drop that table first.") :
					 errhint("Set part_config.datetime_string to a format precise enough for the interval.")));
		end_text = partmgr_point_display(&set->axis, era_end);
	}
	partmgr_config_change_interval(set, end_text, new_text, format);
	if (reshape_existing && end_text != NULL)
		nreshapes = register_existing(set->key, era_end, new_text);
	partmgr_rights_leave(&rights);

	partmgr_log_action(set->key, "change_interval", "change interval", set->key,
					   end_text != NULL ?
					   psprintf("from %s on: %s instead of %s", end_text,
								new_text,
								set->interval_text) :
					   psprintf("%s instead of %s (no children yet)", new_text,
								set->interval_text),
					   started, PARTMGR_OUTCOME_DONE, NULL);
	if (nreshapes > 0)
		ereport(NOTICE,
				(errmsg_plural("%d reshape of the children of \"%s\" below %s is registered",
							   "%d reshapes of the children of \"%s\" below %s are registered",
							   nreshapes, nreshapes, set->key, end_text),
				 errhint("CALL partmgr.run_reshape(%s) carries them out; SELECT partmgr.cancel_reshape(%s) leaves the children as they are.",
						 quote_literal_cstr(set->key),
						 quote_literal_cstr(set->key))));
	if (end_text != NULL)
	{
		ereport(NOTICE,
				(errmsg("children of \"%s\" from %s on follow interval %s",
						set->key, end_text, new_text)));
		MemoryContextSwitchTo(caller);
		result = pstrdup(end_text);
	}
	SPI_finish();
	if (result == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(result));
}

/* ----------------------------------------------------------------
 * Reshaping existing children
 * ----------------------------------------------------------------
 */

/* How a procedure carries out operations: its arguments. */
typedef struct ReshapeOptions
{
	int64		batch_rows;		/* p_batch_rows */
	int			lock_wait_tries;	/* p_lock_wait_tries */
	int			wait;			/* p_wait, seconds */
	bool		quiet;			/* p_quiet */
	bool		nonatomic;		/* a top-level CALL: commits after each step */
	const char *run_by;			/* the procedure, for the log */
} ReshapeOptions;

/* One step of an operation, run in a subtransaction (run_step). */
typedef struct ReshapeRun
{
	const char *key;
	int64		id;
	const ReshapeOptions *opts;
	PartmgrReshapeStep step;	/* out: what was done */
	bool		finished;		/* out: the operation is over */
	uint64		rows;			/* out: what the step counted */
	int64		rows_copied;	/* out: the operation's totals */
	int64		rows_replayed;
} ReshapeRun;

static bool
nonatomic_call(FunctionCallInfo fcinfo)
{
	return fcinfo->context != NULL && IsA(fcinfo->context, CallContext) &&
		!castNode(CallContext, fcinfo->context)->atomic;
}

/*
 * run_step
 *		One step of an operation (partmgr_plan_reshape_step), with the set
 *		owner's rights (and for the swap the set's advisory lock), in an SPI
 *		connection of its own (results of a connection live until it ends,
 *		across the commits of the procedure's).
 */
static void
run_step(void *arg)
{
	ReshapeRun *run = (ReshapeRun *) arg;
	PartmgrReshapeStepRun done;

	SPI_connect();
	partmgr_reshape_run_step(run->key, run->id, run->opts->batch_rows, 0,
							 run->opts->run_by, &done);
	run->step = done.step;
	run->finished = done.finished;
	run->rows = done.rows;
	run->rows_copied = done.rows_copied;
	run->rows_replayed = done.rows_replayed;
	SPI_finish();
}

static void
push_snapshot_if_none(bool *pushed)
{
	*pushed = !ActiveSnapshotSet();
	if (*pushed)
		PushActiveSnapshot(GetTransactionSnapshot());
}

/*
 * drive
 *		Carry out operation id of set key to its end: step after step, each
 *		committed when the call can commit; a step refused a lock is tried
 *		again after opts->wait seconds, opts->lock_wait_tries times.  A step
 *		that fails otherwise leaves its error in reshape_operation.last_error
 *		(committed, when the call commits) and is raised.
 */
static void
drive(const char *key, int64 id, const ReshapeOptions *opts)
{
	MemoryContext per_step = AllocSetContextCreate(CurrentMemoryContext,
												   "pg_partmgr reshape step",
												   ALLOCSET_DEFAULT_SIZES);
	TimestampTz started = GetCurrentTimestamp();
	int			tries = 0;

	if (!partmgr_try_lock_operation(id))
		ereport(ERROR,
				(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
				 errmsg("reshape " INT64_FORMAT " of \"%s\" is being carried out by another session",
						id, key)));
	PG_TRY();
	{
		for (;;)
		{
			ReshapeRun	run;
			ErrorData  *edata = NULL;
			MemoryContext caller = MemoryContextSwitchTo(per_step);
			bool		pushed;
			bool		ok;

			memset(&run, 0, sizeof(run));
			run.key = key;
			run.id = id;
			run.opts = opts;
			push_snapshot_if_none(&pushed);
			ok = partmgr_run_subxact(run_step, &run, &edata);
			if (!ok)
			{
				MemoryContextSwitchTo(caller);
				if (edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE &&
					++tries <= opts->lock_wait_tries)
				{
					if (pushed)
						PopActiveSnapshot();
					if (!opts->quiet)
						ereport(NOTICE,
								(errmsg("%s: %s; trying again in %d s (%d of %d)", opts->run_by,
										edata->message, opts->wait, tries,
										opts->lock_wait_tries)));
					partmgr_pause_seconds(Max(opts->wait, 1));
					MemoryContextReset(per_step);
					continue;
				}
				if (edata->sqlerrcode == ERRCODE_T_R_SERIALIZATION_FAILURE)
				{
					/* truncated during the swap: the next step copies again */
					if (pushed)
						PopActiveSnapshot();
					if (!opts->quiet)
						ereport(NOTICE,
								(errmsg("%s: %s", opts->run_by,
										edata->message)));
					MemoryContextReset(per_step);
					continue;
				}
				partmgr_reshape_record_error(id, edata);
				if (pushed)
					PopActiveSnapshot();
				if (opts->nonatomic)
					SPI_commit();
				ReThrowError(edata);
			}
			if (pushed)
				PopActiveSnapshot();
			MemoryContextSwitchTo(caller);
			tries = 0;
			if (opts->nonatomic)
				SPI_commit();
			if (!opts->quiet && !run.finished)
				ereport(NOTICE,
						(errmsg("%s: %s (" INT64_FORMAT " rows copied, " INT64_FORMAT " changes applied)",
								opts->run_by,
								partmgr_reshape_step_name(run.step),
								run.rows_copied, run.rows_replayed)));
			if (run.finished)
			{
				if (!opts->quiet)
					ereport(NOTICE,
							(errmsg("%s: reshape " INT64_FORMAT " of \"%s\" finished in %.1f s",
									opts->run_by, id, key,
									(double) TimestampDifferenceMilliseconds(started, GetCurrentTimestamp()) / 1000.0)));
				break;
			}
			MemoryContextReset(per_step);
		}
	}
	PG_FINALLY();
	{
		partmgr_unlock_operation(id);
	}
	PG_END_TRY();
	MemoryContextDelete(per_step);
}

static void
read_options(FunctionCallInfo fcinfo, int first, const char *run_by,
			 ReshapeOptions *opts)
{
	opts->batch_rows = PG_ARGISNULL(first) ? 100000 : PG_GETARG_INT32(first);
	opts->lock_wait_tries =
		PG_ARGISNULL(first + 1) ? 10 : PG_GETARG_INT32(first + 1);
	opts->wait = PG_ARGISNULL(first + 2) ? 1 : PG_GETARG_INT32(first + 2);
	opts->nonatomic = nonatomic_call(fcinfo);
	opts->run_by = run_by;
	if (opts->batch_rows < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_batch_rows must be at least 1, not " INT64_FORMAT,
						opts->batch_rows)));
	if (opts->lock_wait_tries < 0 || opts->wait < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_lock_wait_tries and p_wait must not be negative")));
}

/*
 * set_of_child
 *		The set a child belongs to (42704 when its parent is none), with the
 *		owner's rights scope entered (42501 without the owner's privileges).
 */
static PartmgrSet *
set_of_child(Oid child, PartmgrRights *rights)
{
	Oid			parent = (get_rel_relispartition(child) ?
						  get_partition_parent(child, true) :
						  InvalidOid);
	PartmgrSet *set = (OidIsValid(parent) ?
					   partmgr_config_load(partmgr_table_key(parent), true) :
					   NULL);

	if (set == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("table %s is not a child of a partition set",
						partmgr_key_display(partmgr_table_key(child)))));
	partmgr_rights_enter_set(set, PARTMGR_RIGHTS_ACT, rights);
	partmgr_citus_refuse(set->parent_oid, set->key, "reshaping a child",
						 CITUS_NO_RESHAPE);
	return set;
}

/*
 * lock_set_patiently
 *		The set's advisory lock for a registration, asked for again after
 *		opts->wait seconds, opts->lock_wait_tries times, while a maintenance
 *		run or a swap holds it; then 55P03.  Held to the end of the
 *		transaction.
 */
static void
lock_set_patiently(const PartmgrSet *set, const ReshapeOptions *opts)
{
	for (int tries = 0; !partmgr_try_lock_set(set->parent_oid); tries++)
	{
		if (tries >= opts->lock_wait_tries)
			partmgr_lock_set_or_raise(set->parent_oid, set->key);
		partmgr_pause_seconds(Max(opts->wait, 1));
	}
}

/*
 * register_or_resume
 *		Register what req asks for (one transaction, committed when the call
 *		can commit), or go on with the operation already registered for
 *		these children when it is the same; then carry it out unless
 *		!start.  Called connected to SPI.
 */
static void
register_or_resume(const PartmgrReshapeRequest *request, bool start,
				   const ReshapeOptions *opts)
{
	PartmgrRights rights;
	PartmgrSet *set = set_of_child(request->sources[0], &rights);
	PartmgrReshapeRequest copy = *request;
	PartmgrReshapeRequest *req = &copy;
	PartmgrTree *tree;
	PartmgrReshapeOp *op;
	char	   *key;
	int64		id;

	lock_set_patiently(set, opts);
	tree = partmgr_read_tree(set);
	op = partmgr_reshape_of_table(set->key, partmgr_table_key(req->sources[0]));
	if (req->tablespace != NULL)
	{
		Oid			spcid = get_tablespace_oid(req->tablespace, false);

		if (set->strategy == PARTITION_STRATEGY_HASH)
			req->kind = "hash move";
		if (op == NULL &&
			get_rel_relkind(req->sources[0]) == RELKIND_RELATION &&
			partmgr_in_tablespace(req->sources[0], spcid))
		{
			if (!opts->quiet)
				ereport(NOTICE,
						(errmsg("%s: %s is in tablespace \"%s\" already, with its indexes",
								opts->run_by,
								partmgr_key_display(partmgr_table_key(req->sources[0])),
								req->tablespace)));
			partmgr_rights_leave(&rights);
			return;
		}
	}
	if (op != NULL && partmgr_reshape_same_request(set, tree, op, req))
	{
		if (!opts->quiet)
			ereport(NOTICE,
					(errmsg("%s: going on with reshape " INT64_FORMAT " of \"%s\" (phase %s)",
							opts->run_by, op->id, set->key,
							partmgr_reshape_phase_name(op->phase))));
		id = op->id;
	}
	else
	{
		op = partmgr_reshape_register(set, tree, req);
		id = op->id;
		partmgr_log_action(set->key, opts->run_by, "register reshape",
						   partmgr_key_display(op->sources[0]),
						   psprintf("reshape " INT64_FORMAT
									": %s of %d into %d (%s)%s", id, op->kind,
									op->nsources, op->ntargets, op->targets[0],
									op->tablespace == NULL ? "" :
									psprintf(" in tablespace %s",
											 quote_identifier(op->tablespace))),
						   GetCurrentTimestamp(), PARTMGR_OUTCOME_DONE, NULL);
	}
	/* in the procedure's memory, which its commits keep */
	key = pstrdup(set->key);
	partmgr_rights_leave(&rights);
	if (!start)
		return;
	if (opts->nonatomic)
		SPI_commit();
	drive(key, id, opts);
}

/*
 * pg_partmgr_split_partition
 *		PROCEDURE split_partition(p_child_table, p_interval, p_bounds,
 *		p_batch_rows, p_lock_wait_tries, p_wait, p_start, p_quiet).
 */
Datum
pg_partmgr_split_partition(PG_FUNCTION_ARGS)
{
	char	   *child = partmgr_text_arg(fcinfo, 0, "p_child_table");
	char	   *interval = partmgr_text_arg_or_null(fcinfo, 1);
	List	   *bounds = partmgr_text_array_arg(fcinfo, 2);
	bool		start = PG_ARGISNULL(6) || PG_GETARG_BOOL(6);
	PartmgrReshapeRequest req;
	ReshapeOptions opts;

	read_options(fcinfo, 3, "split_partition", &opts);
	opts.quiet = !PG_ARGISNULL(7) && PG_GETARG_BOOL(7);
	if ((interval == NULL) == (bounds == NIL))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("split_partition() takes either p_interval or p_bounds"),
				 errhint("p_interval => '1 hour' splits the child into children of an hour; p_bounds => ARRAY[...] cuts it at those values.")));
	SPI_connect_ext(opts.nonatomic ? SPI_OPT_NONATOMIC : 0);
	memset(&req, 0, sizeof(req));
	req.kind = "split";
	req.nsources = 1;
	req.sources = palloc(sizeof(Oid));
	req.sources[0] = partmgr_resolve_table(child, false);
	req.interval = interval;
	req.bounds = bounds;
	register_or_resume(&req, start, &opts);
	SPI_finish();
	PG_RETURN_VOID();
}

/*
 * pg_partmgr_move_partition
 *		PROCEDURE move_partition(p_child_table, p_tablespace, p_batch_rows,
 *		p_lock_wait_tries, p_wait, p_start, p_quiet): a child and its
 *		indexes into another tablespace, online, as a reshape into a copy of
 *		itself.  A child there already (with every index) is left alone,
 *		with a NOTICE.
 */
Datum
pg_partmgr_move_partition(PG_FUNCTION_ARGS)
{
	char	   *child = partmgr_text_arg(fcinfo, 0, "p_child_table");
	char	   *tablespace = partmgr_text_arg(fcinfo, 1, "p_tablespace");
	bool		start = PG_ARGISNULL(5) || PG_GETARG_BOOL(5);
	PartmgrReshapeRequest req;
	ReshapeOptions opts;
	Oid			spcid;

	read_options(fcinfo, 2, "move_partition", &opts);
	opts.quiet = !PG_ARGISNULL(6) && PG_GETARG_BOOL(6);
	spcid = get_tablespace_oid(tablespace, false);
	SPI_connect_ext(opts.nonatomic ? SPI_OPT_NONATOMIC : 0);
	memset(&req, 0, sizeof(req));
	req.kind = "move";			/* "hash move" on a hash set: see below */
	req.nsources = 1;
	req.sources = palloc(sizeof(Oid));
	req.sources[0] = partmgr_resolve_table(child, false);
	req.tablespace = get_tablespace_name(spcid);
	register_or_resume(&req, start, &opts);
	SPI_finish();
	PG_RETURN_VOID();
}

/*
 * merge_procedure
 *		The body of merge_partitions and merge_hash_partitions
 *		(p_child_tables, p_batch_rows, p_lock_wait_tries, p_wait, p_start,
 *		p_quiet).
 */
static void
merge_procedure(FunctionCallInfo fcinfo, const char *kind,
				const char *called_as)
{
	List	   *children;
	bool		start = PG_ARGISNULL(4) || PG_GETARG_BOOL(4);
	PartmgrReshapeRequest req;
	ReshapeOptions opts;
	ListCell   *lc;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument p_child_tables must not be NULL")));
	children = partmgr_text_array_arg(fcinfo, 0);
	if (list_length(children) < 2)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s() needs at least two children", called_as)));
	read_options(fcinfo, 1, called_as, &opts);
	opts.quiet = !PG_ARGISNULL(5) && PG_GETARG_BOOL(5);
	SPI_connect_ext(opts.nonatomic ? SPI_OPT_NONATOMIC : 0);
	memset(&req, 0, sizeof(req));
	req.kind = kind;
	req.nsources = list_length(children);
	req.sources = palloc(sizeof(Oid) * req.nsources);
	foreach(lc, children)
		req.sources[foreach_current_index(lc)] = partmgr_resolve_table((char *) lfirst(lc), false);
	register_or_resume(&req, start, &opts);
	SPI_finish();
}

/*
 * pg_partmgr_merge_partitions
 *		PROCEDURE merge_partitions(p_child_tables, p_batch_rows,
 *		p_lock_wait_tries, p_wait, p_start, p_quiet): adjacent children of a
 *		range set into one.
 */
Datum
pg_partmgr_merge_partitions(PG_FUNCTION_ARGS)
{
	merge_procedure(fcinfo, "merge", "merge_partitions");
	PG_RETURN_VOID();
}

/*
 * pg_partmgr_merge_hash_partitions
 *		PROCEDURE merge_hash_partitions(p_child_tables, ...): the two halves
 *		of a remainder of a hash set into one.
 */
Datum
pg_partmgr_merge_hash_partitions(PG_FUNCTION_ARGS)
{
	merge_procedure(fcinfo, "hash merge", "merge_hash_partitions");
	PG_RETURN_VOID();
}

/*
 * pg_partmgr_split_hash_partition
 *		PROCEDURE split_hash_partition(p_child_table, p_batch_rows,
 *		p_lock_wait_tries, p_wait, p_start, p_quiet): remainder r of modulus
 *		m into r and r + m of modulus 2m.
 */
Datum
pg_partmgr_split_hash_partition(PG_FUNCTION_ARGS)
{
	char	   *child = partmgr_text_arg(fcinfo, 0, "p_child_table");
	bool		start = PG_ARGISNULL(4) || PG_GETARG_BOOL(4);
	PartmgrReshapeRequest req;
	ReshapeOptions opts;

	read_options(fcinfo, 1, "split_hash_partition", &opts);
	opts.quiet = !PG_ARGISNULL(5) && PG_GETARG_BOOL(5);
	SPI_connect_ext(opts.nonatomic ? SPI_OPT_NONATOMIC : 0);
	memset(&req, 0, sizeof(req));
	req.kind = "hash split";
	req.nsources = 1;
	req.sources = palloc(sizeof(Oid));
	req.sources[0] = partmgr_resolve_table(child, false);
	register_or_resume(&req, start, &opts);
	SPI_finish();
	PG_RETURN_VOID();
}

/*
 * pg_partmgr_run_reshape
 *		PROCEDURE run_reshape(p_parent_table, p_batch_rows,
 *		p_lock_wait_tries, p_wait, p_quiet): carry out every registered
 *		operation of the set (of every set whose owner's privileges the
 *		caller has, when NULL), oldest first.
 */
Datum
pg_partmgr_run_reshape(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg_or_null(fcinfo, 0);
	ReshapeOptions opts;
	char	   *key = NULL;
	List	   *ops;
	List	   *work = NIL;
	ListCell   *lc;

	read_options(fcinfo, 1, "run_reshape", &opts);
	opts.quiet = !PG_ARGISNULL(4) && PG_GETARG_BOOL(4);
	SPI_connect_ext(opts.nonatomic ? SPI_OPT_NONATOMIC : 0);
	if (table != NULL)
	{
		PartmgrRights rights;
		PartmgrSet *set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT,
											   &rights);

		key = set->key;
		partmgr_rights_leave(&rights);
	}
	ops = partmgr_reshape_list(key);
	foreach(lc, ops)
	{
		PartmgrReshapeOp *op = lfirst(lc);
		PartmgrSet *set = partmgr_config_load(op->key, true);

		if (set == NULL ||
			(key == NULL && !partmgr_may_act_on(set->parent_owner)))
			continue;
		/* in the procedure's memory, which its commits keep */
		work = lappend(work,
					   list_make2(op->key, psprintf(INT64_FORMAT, op->id)));
	}
	if (work == NIL && !opts.quiet)
		ereport(NOTICE,
				(errmsg("run_reshape: no reshape to carry out%s%s", key ?
						" for " : "",
						key ? key : "")));
	foreach(lc, work)
	{
		List	   *item = lfirst(lc);
		int64		id = strtoi64(lsecond(item), NULL, 10);

		drive(linitial(item), id, &opts);
	}
	SPI_finish();
	PG_RETURN_VOID();
}

/*
 * pg_partmgr_cancel_reshape
 *		cancel_reshape(p_parent_table): undo every unfinished operation of
 *		the set (see partmgr_plan_reshape_cancel), in the caller's
 *		transaction.  Returns how many.
 */
Datum
pg_partmgr_cancel_reshape(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	PartmgrRights rights;
	PartmgrSet *set;
	PartmgrTree *tree;
	List	   *ops;
	ListCell   *lc;
	int			n = 0;

	SPI_connect();
	set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, &rights);
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	tree = partmgr_read_tree(set);
	ops = partmgr_reshape_list(set->key);
	foreach(lc, ops)
	{
		PartmgrReshapeOp *op = lfirst(lc);

		if (!partmgr_try_lock_operation(op->id))
			ereport(ERROR,
					(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
					 errmsg("reshape " INT64_FORMAT " of \"%s\" is being carried out by another session",
							op->id, set->key),
					 errhint("Cancel that session's call first.")));
		PG_TRY();
		{
			(void) partmgr_execute_or_raise(partmgr_plan_reshape_cancel(set,
																		tree,
																		op),
											"cancel_reshape", NULL);
			partmgr_reshape_delete(op->id);
		}
		PG_FINALLY();
		{
			partmgr_unlock_operation(op->id);
		}
		PG_END_TRY();
		n++;
	}
	partmgr_rights_leave(&rights);
	SPI_finish();
	PG_RETURN_INT32(n);
}

/*
 * pg_partmgr_reshape_capture
 *		The change capture trigger of a child being reshaped (capture.c).
 */
Datum
pg_partmgr_reshape_capture(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;

	if (!CALLED_AS_TRIGGER(fcinfo) ||
		!TRIGGER_FIRED_AFTER(trigdata->tg_event) ||
		(TRIGGER_FIRED_FOR_ROW(trigdata->tg_event) &&
		 TRIGGER_FIRED_BY_TRUNCATE(trigdata->tg_event)) ||
		(!TRIGGER_FIRED_FOR_ROW(trigdata->tg_event) &&
		 !TRIGGER_FIRED_BY_TRUNCATE(trigdata->tg_event)))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("partmgr.reshape_capture() must be fired AFTER INSERT, UPDATE or DELETE FOR EACH ROW, or AFTER TRUNCATE"),
				 errhint("Reshapes (split_partition and the like) make this trigger.")));
	partmgr_capture_fire(trigdata);
	return PointerGetDatum(NULL);
}
