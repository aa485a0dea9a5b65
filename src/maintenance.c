/*-------------------------------------------------------------------------
 *
 * maintenance.c
 *	  Decide which children a partition set needs, and run maintenance.
 *
 * Premake follows pg_partman 5: the "current" child is the newest child
 * holding rows (rows in the default partition count only when
 * ignore_default_data is false); with infinite_time_partitions a time set
 * also treats now() as current when its data is older.  Children are added
 * after the highest existing child until round(intervals from current to
 * the highest child's lower bound) reaches premake, which also catches up
 * after missed runs or a raised premake.  Emptiness of children is checked
 * in C (a never-written child has no blocks), so an idle pass runs no query
 * per child.
 *
 * Locks: planning takes ACCESS SHARE on the children it looks into
 * (bounded, see execute.c); execution takes the rest.  Transactions: a
 * maintenance run handles each set in its own subtransaction of the
 * caller's transaction, under a transaction-level advisory lock on the set.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/maintenance.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_class.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "bounds.h"
#include "config.h"
#include "ddl.h"
#include "execute.h"
#include "maintenance.h"
#include "spi_util.h"

/*
 * max_control
 *		Largest control value of a table (ONLY that table, or the whole set
 *		when only is false) as a point; false when it holds no rows.
 */
static bool
max_control(const PartmgrSet *set, const char *schema, const char *name,
			bool only, PartmgrPoint *result)
{
	bool		isnull;
	Datum		value;

	partmgr_spi_exec(partmgr_ddl_max_control(set, schema, name, only), 0, NULL,
					 NULL, NULL, true, SPI_OK_SELECT);
	value = partmgr_spi_value(0, 1, &isnull);
	if (isnull)
		return false;
	*result = partmgr_point_from_datum(&set->axis, value);
	return true;
}

/*
 * child_has_rows
 *		Whether a child holds a row visible to the active snapshot.  A plain
 *		table with no blocks is empty without a scan; otherwise the first
 *		visible tuple settles it.  Other kinds (a partitioned child) are asked
 *		with a query.  Takes ACCESS SHARE on the child, bounded.
 */
static bool
child_has_rows(const PartmgrChild *child)
{
	Relation	rel;
	TableScanDesc scan;
	TupleTableSlot *slot;
	bool		found;

	partmgr_lock_relation(child->relid, AccessShareLock);
	if (child->relkind != RELKIND_RELATION)
	{
		partmgr_spi_exec(partmgr_ddl_count_rows(child->schema, child->name, false),
						 0, NULL, NULL, NULL, true, SPI_OK_SELECT);
		return DatumGetInt64(partmgr_spi_value(0, 1, &found)) > 0;
	}

	rel = table_open(child->relid, NoLock);
	if (RelationGetNumberOfBlocks(rel) == 0)
	{
		table_close(rel, NoLock);
		return false;
	}
	scan = table_beginscan(rel, GetActiveSnapshot(), 0, NULL);
	slot = table_slot_create(rel, NULL);
	found = table_scan_getnextslot(scan, ForwardScanDirection, slot);
	ExecDropSingleTupleTableSlot(slot);
	table_endscan(scan);
	table_close(rel, NoLock);
	return found;
}

/*
 * partmgr_slot_lower
 *		Lower bound of the child a value belongs in, on the grid the existing
 *		children define: the child that holds it, or a whole number of
 *		intervals away from the nearest child below it (or from the lowest
 *		child, for a value below all of them).  With no children, the value
 *		aligned as create_parent aligns its first child.
 */
PartmgrPoint
partmgr_slot_lower(const PartmgrSet *set, const PartmgrTree *tree,
				   PartmgrPoint value)
{
	const PartmgrChild *anchor = NULL;
	double		steps;

	if (tree->nchildren == 0)
		return partmgr_point_align(&set->axis, &set->step,
								   set->date_trunc_interval, value);

	for (int i = tree->nchildren - 1; i >= 0; i--)
	{
		if (tree->children[i].lower <= value)
		{
			anchor = &tree->children[i];
			break;
		}
	}
	if (anchor == NULL)
		anchor = &tree->children[0];
	else if (value < anchor->upper)
		return anchor->lower;
	if (anchor->lower == PARTMGR_POINT_MIN)
		return partmgr_point_align(&set->axis, &set->step,
								   set->date_trunc_interval, value);

	steps = partmgr_steps_between(&set->axis, &set->step, anchor->lower, value);
	return partmgr_point_add(&set->axis, &set->step, anchor->lower,
							 (int64) floor(steps));
}

/*
 * current_point
 *		The point premake counts from (see the file header); false when the
 *		set has nothing to count from (no data, and not an infinite time set).
 */
static bool
current_point(const PartmgrSet *set, const PartmgrTree *tree,
			  PartmgrPoint now, PartmgrPoint *current)
{
	bool		infinite = set->axis.kind == PARTMGR_KEY_TIME &&
		set->infinite_time_partitions;
	bool		found = false;
	PartmgrPoint default_max;

	for (int i = tree->nchildren - 1; i >= 0 && !found; i--)
	{
		const PartmgrChild *child = &tree->children[i];
		PartmgrPoint newest;

		if (child->detach_pending || !child_has_rows(child))
			continue;
		found = true;
		*current = child->lower;
		if (!infinite || child->lower > now)
			continue;
		/* now() counts when the newest row is older than it */
		if (child->upper <= now ||
			(max_control(set, child->schema, child->name, true, &newest) &&
			 newest < now))
			*current = now;
	}
	if (!found && infinite)
	{
		*current = now;
		found = true;
	}

	if (!set->ignore_default_data && OidIsValid(tree->default_oid) &&
		max_control(set, tree->default_schema, tree->default_name, true,
					&default_max))
	{
		PartmgrPoint slot = partmgr_slot_lower(set, tree, default_max);

		if (!found || slot > *current)
			*current = slot;
		found = true;
	}
	return found;
}

/*
 * add_initial_slots
 *		The ranges create_parent makes, as pg_partman 5 does.  Time sets:
 *		from the start (or premake intervals before now), aligned, up to
 *		premake intervals after now.  Id sets: the child holding the start (or
 *		the largest id in the set, or 0) and premake children above it, plus up
 *		to premake positive children below it when no start was given.
 */
static void
add_initial_slots(PartmgrPlan *plan, bool have_start, PartmgrPoint start,
				  TimestampTz now)
{
	PartmgrSet *set = plan->set;
	const PartmgrAxis *axis = &set->axis;
	const PartmgrStep *step = &set->step;
	PartmgrPoint base;

	if (axis->kind == PARTMGR_KEY_TIME)
	{
		PartmgrPoint now_point = partmgr_point_now(axis, now);
		PartmgrPoint end = partmgr_point_add(axis, step, now_point, set->premake);

		if (!have_start)
			start = partmgr_point_add(axis, step, now_point, -set->premake);
		base = partmgr_point_align(axis, step, set->date_trunc_interval, start);
		for (int64 k = 0;; k++)
		{
			PartmgrPoint lower = partmgr_point_add(axis, step, base, k);

			if (k > 0 && lower >= end)
				break;
			if (partmgr_plan_add_child(plan, lower,
									   partmgr_point_add(axis, step, base, k + 1)) ==
				PARTMGR_SLOT_OUT_OF_RANGE)
				break;
		}
		return;
	}

	if (!have_start &&
		!max_control(set, set->parent_schema, set->parent_name, false, &start))
		start = 0;
	base = partmgr_point_align(axis, step, NULL, start);
	for (int64 k = have_start ? 0 : -set->premake; k <= set->premake; k++)
	{
		PartmgrPoint lower = partmgr_point_add(axis, step, base, k);

		/* pg_partman makes children below the base only for positive ids */
		if (k < 0 && lower <= 0)
			continue;
		if (partmgr_plan_add_child(plan, lower,
								   partmgr_point_add(axis, step, base, k + 1)) ==
			PARTMGR_SLOT_OUT_OF_RANGE)
			break;
	}
}

/*
 * partmgr_plan_initial
 *		Plan create_parent's children (see add_initial_slots) and, when asked
 *		and the parent has none, the default partition, created last so that
 *		attaching the children scans nothing.
 */
PartmgrPlan *
partmgr_plan_initial(PartmgrSet *set, PartmgrTree *tree, bool have_start,
					 PartmgrPoint start, bool with_default, TimestampTz now)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);

	add_initial_slots(plan, have_start, start, now);
	if (with_default && !OidIsValid(tree->default_oid))
		partmgr_plan_add_default(plan);
	return plan;
}

/*
 * partmgr_plan_premake
 *		Plan the children that keep premake intervals ready ahead of the
 *		current point (see the file header).  A set that has lost all its
 *		children gets create_parent's initial children again.
 */
PartmgrPlan *
partmgr_plan_premake(PartmgrSet *set, PartmgrTree *tree, TimestampTz now)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);
	const PartmgrAxis *axis = &set->axis;
	const PartmgrStep *step = &set->step;
	const PartmgrChild *last;
	PartmgrPoint now_point = 0;
	PartmgrPoint current = 0;
	PartmgrPoint lower;
	double		premade;

	if (tree->nchildren == 0)
	{
		add_initial_slots(plan, false, 0, now);
		return plan;
	}

	last = &tree->children[tree->nchildren - 1];
	if (last->upper == PARTMGR_POINT_MAX)
		return plan;			/* the top child takes every higher value */

	if (axis->kind == PARTMGR_KEY_TIME)
		now_point = partmgr_point_now(axis, now);
	if (!current_point(set, tree, now_point, &current))
		return plan;

	premade = round(partmgr_steps_between(axis, step, current, last->lower));
	lower = last->upper;
	while (premade < set->premake)
	{
		PartmgrPoint upper = partmgr_point_add(axis, step, lower, 1);

		if (partmgr_plan_add_child(plan, lower, upper) != PARTMGR_SLOT_ADDED)
			break;
		premade = round(partmgr_steps_between(axis, step, current, lower));
		lower = upper;
	}
	return plan;
}

/*
 * partmgr_plan_gap_fill
 *		Plan the children missing between the lowest and the highest child:
 *		whole intervals from each child's upper bound, the last one cut at the
 *		next child's lower bound so nothing overlaps.
 */
PartmgrPlan *
partmgr_plan_gap_fill(PartmgrSet *set, PartmgrTree *tree)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);

	for (int i = 1; i < tree->nchildren; i++)
	{
		PartmgrPoint lower = tree->children[i - 1].upper;
		PartmgrPoint next = tree->children[i].lower;

		while (lower < next)
		{
			PartmgrPoint upper = partmgr_point_add(&set->axis, &set->step, lower, 1);

			if (upper > next)
				upper = next;
			if (partmgr_plan_add_child(plan, lower, upper) == PARTMGR_SLOT_OUT_OF_RANGE)
				break;
			lower = upper;
		}
	}
	return plan;
}

/*
 * partmgr_plan_explicit
 *		Plan one child of one interval per given lower bound.
 */
PartmgrPlan *
partmgr_plan_explicit(PartmgrSet *set, PartmgrTree *tree,
					  const PartmgrPoint *lowers, int n)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);

	for (int i = 0; i < n; i++)
		(void) partmgr_plan_add_child(plan, lowers[i],
									  partmgr_point_add(&set->axis, &set->step,
														lowers[i], 1));
	return plan;
}

/*
 * partmgr_execute_or_raise
 *		Execute a plan for an interactive call: any failure is raised (and
 *		rolls back the caller's statement).  Returns how many actions ran.
 */
int
partmgr_execute_or_raise(const PartmgrPlan *plan)
{
	PartmgrExecResult result;

	partmgr_execute_plan(plan, &result);
	if (result.error != NULL)
		ReThrowError(result.error);
	return result.ndone;
}

/* State of the maintenance of one set inside a run. */
typedef struct SetRun
{
	const char *key;
	bool		analyze;
	TimestampTz now;
	bool		skipped;		/* another run holds the set */
	int			created;
	ErrorData  *error;			/* failure after some work was kept */
} SetRun;

/*
 * maintain_set
 *		Maintain one set (called in a subtransaction): take its advisory
 *		lock, plan premake, execute, analyze if asked and something was made,
 *		and stamp maintenance_last_run when it all succeeded.
 */
static void
maintain_set(void *arg)
{
	SetRun	   *run = (SetRun *) arg;
	PartmgrSetContext ctx;
	PartmgrSet *set;
	PartmgrPlan *plan;
	PartmgrExecResult result;

	partmgr_set_context_push(&ctx, run->key);
	set = partmgr_config_load(run->key, false);
	if (!partmgr_try_lock_set(set->parent_oid))
	{
		ereport(NOTICE,
				(errmsg("skipped partition set \"%s\": another maintenance run is working on it",
						run->key)));
		run->skipped = true;
		partmgr_set_context_pop(&ctx);
		return;
	}

	plan = partmgr_plan_premake(set, partmgr_read_tree(set), run->now);
	partmgr_execute_plan(plan, &result);
	run->created = result.ndone;
	if (result.error != NULL)
		run->error = result.error;
	else
	{
		if (run->analyze && result.ndone > 0)
			partmgr_spi_utility(partmgr_ddl_analyze(set));
		partmgr_config_mark_run(set->key);
	}
	partmgr_set_context_pop(&ctx);
}

/*
 * report_set_failure
 *		Tell the caller a set could not be (fully) maintained: a WARNING that
 *		keeps the original SQLSTATE, message, detail and hint.
 */
static void
report_set_failure(const char *key, ErrorData *edata, bool lock_timeout)
{
	ereport(WARNING,
			(errcode(edata->sqlerrcode),
			 lock_timeout ?
			 errmsg("skipped partition set \"%s\" for this run: %s", key, edata->message) :
			 errmsg("maintenance of partition set \"%s\" failed: %s", key, edata->message),
			 edata->detail ? errdetail_internal("%s", edata->detail) : 0,
			 edata->hint ? errhint("%s", edata->hint) : 0,
			 edata->context ? errcontext("%s", edata->context) : 0));
}

/*
 * partmgr_run_maintenance
 *		Premake for one set (table_name, whatever its automatic_maintenance
 *		says) or for every set with automatic maintenance on, in
 *		maintenance_order.  Each set is maintained in its own subtransaction.
 *		A set whose locks cannot be had within pg_partmgr.lock_timeout is
 *		skipped with a WARNING; so is a failing set when all sets are
 *		maintained, while for a single named set the error is raised.  Does
 *		nothing during recovery.
 */
void
partmgr_run_maintenance(const char *table_name, bool analyze)
{
	List	   *keys;
	ListCell   *lc;
	MemoryContext caller = CurrentMemoryContext;
	MemoryContext per_set;

	if (RecoveryInProgress())
		return;

	if (table_name != NULL)
		keys = list_make1(partmgr_config_load_table(table_name)->key);
	else
		keys = partmgr_config_list(true);

	/* what one set allocates is freed before the next, however many there are */
	per_set = AllocSetContextCreate(caller, "pg_partmgr set maintenance",
									ALLOCSET_DEFAULT_SIZES);
	foreach(lc, keys)
	{
		SetRun		run;
		ErrorData  *edata = NULL;

		memset(&run, 0, sizeof(run));
		run.key = (const char *) lfirst(lc);
		run.analyze = analyze;
		run.now = GetCurrentTransactionStartTimestamp();
		MemoryContextSwitchTo(per_set);
		if (partmgr_run_subxact(maintain_set, &run, &edata))
			edata = run.error;
		if (edata != NULL)
		{
			if (edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE)
				report_set_failure(run.key, edata, true);
			else if (table_name != NULL)
				ReThrowError(edata);
			else
				report_set_failure(run.key, edata, false);
		}
		MemoryContextSwitchTo(caller);
		MemoryContextReset(per_set);
	}
	MemoryContextDelete(per_set);
}
