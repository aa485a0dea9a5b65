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
 * per child.  A sub-set keyed by the column of the table above gets no
 * child outside the range its table covers there; once its children reach
 * the end of that range it is marked sub_partition_set_full and premake
 * leaves it alone (pg_partman).
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
#include "miscadmin.h"
#include "catalog/pg_class.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "bounds.h"
#include "config.h"
#include "constraints.h"
#include "contents.h"
#include "ddl.h"
#include "execute.h"
#include "log.h"
#include "maintenance.h"
#include "retention.h"
#include "rights.h"
#include "spi_util.h"

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

		if (child->detach_pending || !partmgr_child_has_rows(child))
			continue;
		found = true;
		*current = child->lower;
		if (!infinite || child->lower > now)
			continue;
		/* now() counts when the newest row is older than it */
		if (child->upper <= now ||
			(partmgr_max_control(set, child->schema, child->name, true, &newest) &&
			 newest < now))
			*current = now;
	}
	if (!found && infinite)
	{
		*current = now;
		found = true;
	}

	if (!set->ignore_default_data && OidIsValid(tree->default_oid) &&
		partmgr_max_control(set, tree->default_schema, tree->default_name, true,
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
			PartmgrSlotResult added;

			if (k > 0 && lower >= end)
				break;
			added = partmgr_plan_add_child(plan, lower, partmgr_point_add(axis, step, base, k + 1));
			if (added == PARTMGR_SLOT_OUT_OF_RANGE || added == PARTMGR_SLOT_LIMIT)
				break;
		}
		return;
	}

	if (!have_start &&
		!partmgr_max_control(set, set->parent_schema, set->parent_name, false, &start))
		start = 0;
	base = partmgr_point_align(axis, step, NULL, start);
	for (int64 k = have_start ? 0 : -set->premake; k <= set->premake; k++)
	{
		PartmgrPoint lower = partmgr_point_add(axis, step, base, k);
		PartmgrSlotResult added;

		/* pg_partman makes children below the base only for positive ids */
		if (k < 0 && lower <= 0)
			continue;
		added = partmgr_plan_add_child(plan, lower, partmgr_point_add(axis, step, base, k + 1));
		if (added == PARTMGR_SLOT_OUT_OF_RANGE || added == PARTMGR_SLOT_LIMIT)
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
	if (set->has_limits && plan->actions == NIL && tree->nchildren == 0)
	{
		/*
		 * A sub-set whose first children would all lie outside the range
		 * its table covers: start at the bottom of that range instead, as
		 * pg_partman does
		 */
		PartmgrPoint lower = partmgr_point_align(&set->axis, &set->step,
												 set->date_trunc_interval,
												 set->limit_lower);

		(void) partmgr_plan_add_child(plan, lower,
									  partmgr_point_add(&set->axis, &set->step, lower, 1));
	}
	if (with_default && !OidIsValid(tree->default_oid))
		partmgr_plan_add_default(plan);
	return plan;
}

/*
 * partmgr_plan_premake
 *		Plan the children that keep premake intervals ready ahead of the
 *		current point (see the file header), at most limit of them (0: no
 *		limit; the plan says when it left some out).  A set that has lost all
 *		its children gets create_parent's initial children again.
 */
PartmgrPlan *
partmgr_plan_premake(PartmgrSet *set, PartmgrTree *tree, TimestampTz now, int limit)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);
	const PartmgrAxis *axis = &set->axis;
	const PartmgrStep *step = &set->step;
	const PartmgrChild *last;
	PartmgrPoint now_point = 0;
	PartmgrPoint current = 0;
	PartmgrPoint lower;
	double		premade;

	plan->limit = limit;
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
 *		rolls back the caller's statement).  Returns how many actions ran,
 *		and in *rows (unless NULL) how many rows they moved.
 */
int
partmgr_execute_or_raise(const PartmgrPlan *plan, const char *run_by, uint64 *rows)
{
	PartmgrExecResult result;

	partmgr_execute_plan(plan, run_by, &result);
	if (result.error != NULL)
		ReThrowError(result.error);
	if (rows != NULL)
		*rows = result.rows;
	return result.ndone;
}

/* State of the maintenance of one set, passed into its subtransaction. */
typedef struct SetRun
{
	const char *key;
	const char *run_by;
	PartmgrSet *read;			/* configuration read by the caller, or NULL */
	bool		all_sets;		/* one of all sets: skip it quietly when the
								 * caller lacks its owner's privileges */
	PartmgrConstraintScope scope;	/* of constrain_set */
	PartmgrSet *set;			/* loaded configuration, or NULL */
	PartmgrSetOutcome *outcome;
} SetRun;

/*
 * premake_set
 *		With the owner's rights: take the set's advisory lock, plan premake
 *		(at most pg_partmgr.children_per_transaction children) and execute
 *		the plan; mark a full sub-set.
 */
static void
premake_set(SetRun *run)
{
	PartmgrExecResult result;
	PartmgrPlan *plan;
	PartmgrTree *tree;

	if (!partmgr_try_lock_set(run->set->parent_oid))
	{
		ereport(NOTICE,
				(errmsg("skipped partition set \"%s\": another maintenance run is working on it",
						run->key)));
		run->outcome->skipped = true;
		return;
	}
	tree = partmgr_read_tree(run->set);
	/* a full sub-set has every child its range can hold (pg_partman) */
	plan = run->set->sub_partition_set_full ? partmgr_plan_new(run->set, tree) :
		partmgr_plan_premake(run->set, tree, GetCurrentTransactionStartTimestamp(),
							 partmgr_children_per_transaction);
	partmgr_execute_plan(plan, run->run_by, &result);
	run->outcome->created = result.ndone;
	run->outcome->error = result.error;
	run->outcome->more = plan->truncated && result.error == NULL;
	if (run->set->has_limits && !run->set->sub_partition_set_full &&
		result.error == NULL)
	{
		tree = partmgr_read_tree(run->set);
		if (tree->nchildren > 0 &&
			tree->children[tree->nchildren - 1].upper >= run->set->limit_upper)
			partmgr_config_set_full(run->key);
	}
}

/*
 * plan_and_execute_set
 *		Load the set, check that the caller may maintain it, then premake
 *		with the owner's rights (premake_set).  Runs in a subtransaction;
 *		execution itself raises nothing, so an error here means no action
 *		was taken.
 */
static void
plan_and_execute_set(void *arg)
{
	SetRun	   *run = (SetRun *) arg;
	PartmgrErrorContext ctx;
	PartmgrRights rights;

	partmgr_set_context_push(&ctx, run->key);
	if (run->read != NULL && !partmgr_config_was_forgotten(run->key))
	{
		/* run->set only once bound: an unbound set has no owner yet */
		partmgr_config_bind(run->read);
		run->set = run->read;
	}
	else if (run->read == NULL)
		run->set = partmgr_config_load(run->key, true);
	if (run->set == NULL)
	{
		/*
		 * forgotten since the run listed it: a sub-set whose table retention
		 * of the set above took out
		 */
		run->outcome->skipped = true;
		partmgr_context_pop(&ctx);
		return;
	}
	if (run->all_sets && !partmgr_may_act_on(run->set->parent_owner))
	{
		/* someone else's set: not the caller's to maintain */
		run->outcome->skipped = true;
		run->outcome->not_permitted = true;
	}
	else if (run->set->undo_in_progress)
	{
		ereport(NOTICE,
				(errmsg("skipped partition set \"%s\": undo_partition is in progress",
						run->key)));
		run->outcome->skipped = true;
	}
	else if (run->set->async_in_progress != NULL)
	{
		ereport(NOTICE,
				(errmsg("skipped partition set \"%s\": partition_data_async is filling its child from %s",
						run->key, run->set->async_in_progress)));
		run->outcome->skipped = true;
	}
	else
	{
		partmgr_rights_enter_set(run->set, PARTMGR_RIGHTS_ACT, &rights);
		premake_set(run);
		partmgr_rights_leave(&rights);
	}
	partmgr_context_pop(&ctx);
}

/*
 * retain_set
 *		Plan and execute the set's retention (after premake, with children
 *		as they now are; at most pg_partmgr.children_per_transaction
 *		children), with the owner's rights.  Runs in a subtransaction of its
 *		own, so that a bad retention setting stops retention only.
 *		Concurrent detaches are left in the outcome for the caller to run
 *		after commit.
 */
static void
retain_set(void *arg)
{
	SetRun	   *run = (SetRun *) arg;
	PartmgrErrorContext ctx;
	PartmgrRetention retention;
	PartmgrExecResult result;
	PartmgrPlan *plan;
	PartmgrRights rights;

	partmgr_set_context_push(&ctx, run->key);
	partmgr_rights_enter_set(run->set, PARTMGR_RIGHTS_ACT, &rights);
	if (partmgr_retention_from_config(run->set, &retention))
	{
		retention.retire.concurrently = partmgr_in_worker;
		plan = partmgr_plan_retention(run->set, partmgr_read_tree(run->set),
									  &retention, GetCurrentTransactionStartTimestamp(),
									  partmgr_children_per_transaction);
		partmgr_execute_plan(plan, run->run_by, &result);
		run->outcome->retired = result.ndone;
		run->outcome->error = result.error;
		run->outcome->deferred_plan = plan;
		run->outcome->deferred = result.deferred;
		run->outcome->more |= plan->truncated && result.error == NULL;
	}
	partmgr_rights_leave(&rights);
	partmgr_context_pop(&ctx);
}

/*
 * constrain_set
 *		Plan and execute the set's derived constraints (see constraints.c)
 *		with the owner's rights: after premake and retention, in a
 *		subtransaction of its own.
 */
static void
constrain_set(void *arg)
{
	SetRun	   *run = (SetRun *) arg;
	PartmgrErrorContext ctx;
	PartmgrExecResult result;
	PartmgrPlan *plan;
	PartmgrRights rights;
	ListCell   *lc;

	partmgr_set_context_push(&ctx, run->key);
	partmgr_rights_enter_set(run->set, PARTMGR_RIGHTS_ACT, &rights);
	plan = partmgr_plan_constraints(run->set, partmgr_read_tree(run->set),
									run->scope);
	partmgr_execute_plan(plan, run->run_by, &result);
	run->outcome->error = result.error;
	foreach(lc, plan->actions)
	{
		if (((PartmgrAction *) lfirst(lc))->kind == PARTMGR_ACTION_ADD_CONSTRAINTS &&
			run->set->constraint_valid)
			run->outcome->to_validate = true;
	}
	partmgr_rights_leave(&rights);
	partmgr_context_pop(&ctx);
}

static void
analyze_set(void *arg)
{
	PartmgrSet *set = (PartmgrSet *) arg;
	PartmgrRights rights;

	partmgr_rights_enter_set(set, PARTMGR_RIGHTS_ACT, &rights);
	partmgr_spi_table_utility(partmgr_ddl_analyze(set));
	partmgr_rights_leave(&rights);
}

/*
 * log_step_failure
 *		Record a step of a set that failed before any action (an action
 *		records itself), unless the caller may not maintain the set at all:
 *		then it may not write the set's log either, and the error says it.
 *		A set that could not even be loaded (its parent is gone) has no
 *		owner to log for; only a superuser's run records it.
 */
static void
log_step_failure(const SetRun *run, const char *step, TimestampTz started,
				 const ErrorData *edata)
{
	if (run->set == NULL ? !superuser() : !partmgr_may_act_on(run->set->parent_owner))
		return;
	partmgr_log_action(run->key, run->run_by, step, NULL, NULL, started,
					   edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE ?
					   PARTMGR_OUTCOME_SKIPPED : PARTMGR_OUTCOME_FAILED,
					   edata);
}

/*
 * partmgr_maintain_set
 *		Maintain one set in the caller's transaction (with its configuration
 *		as read, when the caller read it, else loaded now): plan and execute
 *		premake in a subtransaction, then retention in another, then derived
 *		constraints, analyze the parent if asked and children were made, say
 *		when it finished when nothing failed (for the caller to stamp
 *		maintenance_last_run, see PartmgrRunStamps), and record every action
 *		-- and a failure that stopped the set before any action -- in the
 *		maintenance log.  Each step acts with the owner's rights; the caller
 *		must have the owner's privileges (42501 otherwise), except that with
 *		all_sets a set the caller may not maintain is skipped quietly
 *		(outcome->not_permitted).  At most pg_partmgr.children_per_transaction
 *		children are created and as many retired: outcome->more says when
 *		work was left, for a caller that can commit to call again.  Errors are
 *		returned in outcome, not raised (except a query cancel).  In the
 *		background worker, concurrent detaches are returned in
 *		outcome->deferred: the caller runs them once the transaction has
 *		committed (and stamps nothing for them; the next run sees their
 *		result).
 */
void
partmgr_maintain_set(const char *key, PartmgrSet *read, bool analyze, const char *run_by,
					 bool all_sets, PartmgrSetOutcome *outcome)
{
	SetRun		run;
	ErrorData  *edata = NULL;
	TimestampTz started = GetCurrentTimestamp();

	memset(outcome, 0, sizeof(*outcome));
	memset(&run, 0, sizeof(run));
	run.key = key;
	run.read = read;
	run.run_by = run_by;
	run.all_sets = all_sets;
	run.outcome = outcome;

	if (!partmgr_run_subxact(plan_and_execute_set, &run, &edata))
	{
		if (all_sets && run.set == NULL && !superuser())
		{
			/* whose set it is cannot be told: not the caller's business */
			outcome->skipped = true;
			outcome->not_permitted = true;
			return;
		}
		/* nothing was done: record why */
		outcome->error = edata;
		log_step_failure(&run, "maintain set", started, edata);
		return;
	}
	if (outcome->skipped || outcome->error != NULL)
		return;

	if (run.set->retention != NULL)
	{
		started = GetCurrentTimestamp();
		if (!partmgr_run_subxact(retain_set, &run, &edata))
		{
			outcome->error = edata;
			log_step_failure(&run, "apply retention", started, edata);
			return;
		}
		if (outcome->error != NULL)
			return;
	}

	if (run.set->constraint_cols != NIL)
	{
		started = GetCurrentTimestamp();
		run.scope = PARTMGR_CONSTRAIN_PASS;
		if (!partmgr_run_subxact(constrain_set, &run, &edata))
		{
			outcome->error = edata;
			log_step_failure(&run, "apply constraints", started, edata);
			return;
		}
		if (outcome->error != NULL)
			return;
	}

	if (analyze && outcome->created > 0)
	{
		started = GetCurrentTimestamp();
		edata = NULL;
		if (!partmgr_run_subxact(analyze_set, run.set, &edata))
			outcome->error = edata;
		partmgr_log_action(key, run_by, "analyze",
						   partmgr_key_display(key), NULL, started,
						   edata ? PARTMGR_OUTCOME_FAILED : PARTMGR_OUTCOME_DONE,
						   edata);
		if (edata != NULL)
			return;
	}
	outcome->finished = GetCurrentTimestamp();
}

/*
 * validate_in_subxact
 *		Load the set, take its advisory lock and validate its derived
 *		constraints still NOT VALID, with the owner's rights.
 */
static void
validate_in_subxact(void *arg)
{
	SetRun	   *run = (SetRun *) arg;

	run->set = partmgr_config_load(run->key, false);
	if (!partmgr_try_lock_set(run->set->parent_oid))
		return;					/* another run works on it: it validates */
	run->scope = PARTMGR_CONSTRAIN_VALIDATE;
	constrain_set(run);
}

/*
 * partmgr_validate_set
 *		Validate a set's derived constraints that are still NOT VALID, for a
 *		caller that committed the transaction that added them (the worker,
 *		run_maintenance_proc): VALIDATE CONSTRAINT then holds only SHARE
 *		UPDATE EXCLUSIVE on each child.  Errors are returned in outcome.
 */
void
partmgr_validate_set(const char *key, const char *run_by, PartmgrSetOutcome *outcome)
{
	SetRun		run;
	ErrorData  *edata = NULL;

	memset(outcome, 0, sizeof(*outcome));
	memset(&run, 0, sizeof(run));
	run.key = key;
	run.run_by = run_by;
	run.outcome = outcome;
	if (!partmgr_run_subxact(validate_in_subxact, &run, &edata))
		outcome->error = edata;
}

/*
 * partmgr_report_more
 *		Tell a caller that cannot commit that a set needs more than one
 *		transaction's worth of children (or retirements).
 */
void
partmgr_report_more(const char *key)
{
	ereport(NOTICE,
			(errmsg("partition set \"%s\" needs more changes than one transaction makes", key),
			 errdetail("Maintenance creates and retires at most %d children of a set per transaction (pg_partmgr.children_per_transaction).",
					   partmgr_children_per_transaction),
			 errhint("The next maintenance run goes on; the background worker and run_maintenance_proc() go on at once.")));
}

/*
 * partmgr_report_set_failure
 *		Tell the caller a set could not be (fully) maintained: a WARNING that
 *		keeps the original SQLSTATE, message, detail and hint.
 */
void
partmgr_report_set_failure(const char *key, const ErrorData *edata)
{
	bool		lock_timeout = edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE;

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
 *		Maintain one set (table_name, whatever its automatic_maintenance
 *		says) or every set with automatic maintenance on, in
 *		maintenance_order, all in the caller's transaction, each in its own
 *		subtransaction (see partmgr_maintain_set); of all sets, those whose
 *		owner's privileges the caller lacks are left out.  A set whose locks cannot
 *		be had within pg_partmgr.lock_timeout is skipped with a WARNING; so is
 *		a failing set when all sets are maintained, while for a single named
 *		set the error is raised.  Does nothing during recovery.
 */
void
partmgr_run_maintenance(const char *table_name, bool analyze, const char *run_by)
{
	List	   *keys;
	ListCell   *lc;
	MemoryContext caller = CurrentMemoryContext;
	MemoryContext per_set;
	PartmgrRunStamps stamps;

	if (RecoveryInProgress())
		return;
	partmgr_stamps_init(&stamps);

	/* every set's configuration in one query: the run is one transaction */
	if (table_name != NULL)
		keys = list_make1(partmgr_config_load_table(table_name));
	else
		keys = partmgr_config_list_sets(true);

	/* what one set allocates is freed before the next, however many there are */
	per_set = AllocSetContextCreate(caller, "pg_partmgr set maintenance",
									ALLOCSET_DEFAULT_SIZES);
	foreach(lc, keys)
	{
		PartmgrSet *read = (PartmgrSet *) lfirst(lc);
		const char *key = read->key;
		PartmgrSetOutcome outcome;

		MemoryContextSwitchTo(per_set);
		partmgr_maintain_set(key, read, analyze, run_by, table_name == NULL, &outcome);
		if (outcome.more)
			partmgr_report_more(key);
		if (outcome.error != NULL)
		{
			if (table_name != NULL &&
				outcome.error->sqlerrcode != ERRCODE_LOCK_NOT_AVAILABLE)
				ReThrowError(outcome.error);
			partmgr_report_set_failure(key, outcome.error);
		}
		if (outcome.finished != 0)
			partmgr_stamps_add(&stamps, key, outcome.finished);
		MemoryContextSwitchTo(caller);
		MemoryContextReset(per_set);
	}
	MemoryContextDelete(per_set);
	partmgr_stamps_write(&stamps);
}
