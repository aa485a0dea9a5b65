/*-------------------------------------------------------------------------
 *
 * maintenance.c
 *	  The maintenance of one partition set: premake, derived constraints,
 *	  ANALYZE and retention, each step isolated from the others.
 *
 * Which children premake adds is children.c's business; which expire,
 * retention.c's; which constraints, constraints.c's.  This file runs the
 * steps for one set, in the caller's transaction: the set is loaded, the
 * caller's right to act on it checked, and each step planned and carried
 * out inside the scope of the owner's rights (rights.c), in a
 * subtransaction of its own, so that a failing step is logged and the
 * others still run.  Many sets are run by runner.c.
 *
 * Locks: planning takes ACCESS SHARE on the children it looks into, for
 * the look (bounded, see locks.c and contents.c); execution takes the rest.
 * A step that has something to do takes a transaction-level advisory lock
 * on the set first and plans again under it, so two runs never work on one
 * set at once (the second skips it with a NOTICE); a step that finds
 * nothing to do takes no such lock, which an idle pass over thousands of
 * sets would only spend time and lock-table room on.  A run in the
 * caller's transaction (run_maintenance()) locks every set before it looks:
 * that transaction goes on after the run, holding the row locks of the
 * maintenance_last_run it wrote, and a second session's call on the set
 * should fail at once on the advisory lock rather than wait for them.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/maintenance.c
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

#include "archive.h"
#include "children.h"
#include "config.h"
#include "constraints.h"
#include "contents.h"
#include "statements.h"
#include "execute.h"
#include "locks.h"
#include "log.h"
#include "maintenance.h"
#include "retention.h"
#include "tiers.h"
#include "rights.h"
#include "setup.h"
#include "unique.h"

/* State of the maintenance of one set, passed into its subtransaction. */
typedef struct SetRun
{
	const char *key;
	const char *run_by;
	PartmgrSet *read;			/* configuration read by the caller, or NULL */
	const PartmgrMaintainOptions *opts;
	PartmgrConstraintScope scope;	/* of constrain_set */
	PartmgrSet *set;			/* loaded configuration, or NULL */
	bool		locked;			/* holds the set's advisory lock */
	List	   *archive_wait;	/* see PartmgrStepInput */
	PartmgrSetOutcome *outcome;
} SetRun;

/* premake: none for a hash set, which has every child it needs */
static bool
premake_applies(const PartmgrSet *set)
{
	return set->strategy != PARTITION_STRATEGY_HASH;
}

/*
 * premake's plan: at most pg_partmgr.children_per_transaction children;
 * none for a full sub-set, which has every child its range can hold
 * (pg_partman)
 */
static PartmgrPlan *
premake_plan(const PartmgrStepInput *in)
{
	if (in->set->sub_partition_set_full)
		return partmgr_plan_new(in->set, in->tree);
	return partmgr_plan_premake(in->set, in->tree, in->now,
								partmgr_children_per_transaction);
}

static bool
constraints_apply(const PartmgrSet *set)
{
	return set->constraint_cols != NIL &&
		set->strategy != PARTITION_STRATEGY_HASH;
}

/*
 * the derived constraints the children need (see constraints.c): none for
 * a child that retention, after this step, retires
 */
static PartmgrPlan *
constraints_plan(const PartmgrStepInput *in)
{
	return partmgr_plan_constraints(in->set,
									partmgr_tree_without_expired(in->set,
																 in->tree,
																 in->now),
									PARTMGR_CONSTRAIN_PASS);
}

static bool
unique_cleanup_applies(const PartmgrSet *set)
{
	return !partmgr_unique_none(set->parent_oid);
}

/* at most PARTMGR_UNIQUE_CLEANUP_PER_RUN entries of children gone */
static PartmgrPlan *
unique_cleanup_plan(const PartmgrStepInput *in)
{
	return partmgr_plan_unique_cleanup(in->set, PARTMGR_UNIQUE_CLEANUP_PER_RUN);
}

static bool
retention_applies(const PartmgrSet *set)
{
	return set->retention != NULL && set->strategy != PARTITION_STRATEGY_HASH;
}

/* at most pg_partmgr.children_per_transaction children */
static PartmgrPlan *
retention_plan(const PartmgrStepInput *in)
{
	PartmgrRetention retention;
	PartmgrPlan *plan;

	if (!partmgr_retention_from_config(in->set, &retention))
		return partmgr_plan_new(in->set, in->tree);
	retention.retire.concurrently = in->concurrent_detach;
	(void) partmgr_archive_retention(in->set, &retention);
	plan = partmgr_plan_retention(in->set, in->tree, &retention, in->now,
								  partmgr_children_per_transaction);
	partmgr_archive_place(in->set, plan, in->archive_wait);
	return plan;
}

static PartmgrPlan *
tiers_plan(const PartmgrStepInput *in)
{
	return partmgr_plan_tiers(in->set, in->tree, in->now);
}

const PartmgrMaintenanceStep partmgr_maintenance_steps[] = {
	{PARTMGR_STEP_PREMAKE, "maintain set", true, premake_applies, premake_plan},
	{PARTMGR_STEP_CONSTRAINTS, "apply constraints", false, constraints_apply, constraints_plan},
	{PARTMGR_STEP_UNIQUE_CLEANUP, "remove global unique entries", false, unique_cleanup_applies,
	unique_cleanup_plan},
	{PARTMGR_STEP_RETENTION, "apply retention", true, retention_applies, retention_plan},
	{PARTMGR_STEP_TIERS, "move to tier", false, partmgr_tiers_apply, tiers_plan},
};
const int	partmgr_maintenance_nsteps = lengthof(partmgr_maintenance_steps);

/*
 * partmgr_set_skip_reason
 *		Why no step of a set's maintenance runs now, or NULL: an undo or a
 *		partition_data_async in progress owns the set's children.
 */
const char *
partmgr_set_skip_reason(const PartmgrSet *set)
{
	if (set->undo_in_progress)
		return "undo_partition is in progress";
	if (set->async_in_progress != NULL)
		return psprintf("partition_data_async is filling its child from %s",
						set->async_in_progress);
	return NULL;
}

/* A step's plan for the children as a run reads them now. */
static PartmgrPlan *
plan_step(const SetRun *run, PartmgrStepKind kind)
{
	PartmgrStepInput in;

	in.set = run->set;
	in.tree = partmgr_read_tree(run->set);
	in.now = GetCurrentTransactionStartTimestamp();
	in.concurrent_detach = run->opts->concurrent_detach;
	in.archive_wait = run->archive_wait;
	return partmgr_maintenance_steps[kind].plan(&in);
}

/*
 * lock_to_act
 *		The set's advisory lock, before a step acts: taken at the first step
 *		that has something to do, and held to the end of the transaction (a
 *		step that finds nothing to do takes none, so an idle pass over many
 *		sets takes no lock of this kind).  false, with a NOTICE, when another
 *		run holds it: the set is left for this run.
 */
static bool
lock_to_act(SetRun *run)
{
	if (run->locked)
		return true;
	if (!partmgr_try_lock_set(run->set->parent_oid))
	{
		ereport(NOTICE,
				(errmsg("skipped partition set \"%s\": another maintenance run is working on it",
						run->key)));
		run->outcome->skipped = true;
		return false;
	}
	run->locked = true;
	return true;
}

/*
 * must_act
 *		Whether a step's plan, made before the set was locked, has anything
 *		to do.  If so, and the set is not locked yet, the step locks it
 *		(lock_to_act) and plans again with the children as they are under
 *		the lock; *replan says so.  false when there is nothing to do or the
 *		lock is another run's.
 */
static bool
must_act(SetRun *run, const PartmgrPlan *plan, bool *replan)
{
	*replan = false;
	if (plan->actions == NIL && !plan->truncated)
		return false;
	if (run->locked)
		return true;
	if (!lock_to_act(run))
		return false;
	*replan = true;
	return true;
}

/*
 * premake_set
 *		With the owner's rights: plan premake and, when it has children to
 *		make, take the set's advisory lock, plan again and execute the plan;
 *		mark a full sub-set.
 */
static void
premake_set(SetRun *run)
{
	PartmgrExecResult result;
	PartmgrPlan *plan;
	PartmgrTree *tree;
	bool		replan;

	if (run->opts->lock_first && !lock_to_act(run))
		return;
	plan = plan_step(run, PARTMGR_STEP_PREMAKE);
	if (!must_act(run, plan, &replan))
	{
		if (run->outcome->skipped || !run->set->has_limits ||
			run->set->sub_partition_set_full)
			return;
		/* a sub-set that reached its limit without this run is marked below */
	}
	else
	{
		if (replan)
			plan = plan_step(run, PARTMGR_STEP_PREMAKE);
		partmgr_plan_tables(plan);
		partmgr_execute_plan(plan, run->run_by, &result);
		run->outcome->created = result.ndone;
		run->outcome->error = result.error;
		run->outcome->more = plan->truncated && result.error == NULL;
		if (result.error != NULL)
			return;
	}
	if (run->set->has_limits && !run->set->sub_partition_set_full)
	{
		tree = partmgr_read_tree(run->set);
		if (tree->nchildren > 0 &&
			tree->children[tree->nchildren - 1].upper >=
			run->set->limit_upper &&
			lock_to_act(run))
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
	if (run->read == NULL)
		run->set = partmgr_config_load(run->key, true);
	else if (run->opts->read_earlier)
		run->set = partmgr_config_reload(run->read);
	else if (!partmgr_config_was_forgotten(run->key))
	{
		/* run->set only once bound: an unbound set has no owner yet */
		partmgr_config_bind(run->read);
		run->set = run->read;
	}
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
	if (run->opts->all_sets && !partmgr_may_act_on(run->set->parent_owner))
	{
		/* someone else's set: not the caller's to maintain */
		run->outcome->skipped = true;
		run->outcome->not_permitted = true;
	}
	else if (partmgr_set_skip_reason(run->set) != NULL)
	{
		ereport(NOTICE,
				(errmsg("skipped partition set \"%s\": %s",
						run->key, partmgr_set_skip_reason(run->set))));
		run->outcome->skipped = true;
	}
	else if (partmgr_maintenance_steps[PARTMGR_STEP_PREMAKE].applies(run->set))
	{
		partmgr_rights_enter_set(run->set, PARTMGR_RIGHTS_ACT, &rights);
		premake_set(run);
		partmgr_rights_leave(&rights);
	}
	partmgr_context_pop(&ctx);
}

/*
 * act_on_step
 *		Plan a step with the owner's rights and, when it has something to do
 *		(must_act), carry it out; its error goes to the outcome.  True when
 *		it was carried out (*plan and *result say how).
 */
static bool
act_on_step(SetRun *run, PartmgrStepKind kind, PartmgrPlan **plan,
			PartmgrExecResult *result)
{
	PartmgrErrorContext ctx;
	PartmgrRights rights;
	bool		replan;
	bool		acted;

	partmgr_set_context_push(&ctx, run->key);
	partmgr_rights_enter_set(run->set, PARTMGR_RIGHTS_ACT, &rights);
	*plan = plan_step(run, kind);
	acted = must_act(run, *plan, &replan);
	if (acted)
	{
		if (replan)
			*plan = plan_step(run, kind);
		partmgr_execute_plan(*plan, run->run_by, result);
		run->outcome->error = result->error;
	}
	partmgr_rights_leave(&rights);
	partmgr_context_pop(&ctx);
	return acted;
}

/*
 * execute_archive_plan
 *		Carry out one of archive_rows' plans; false, with its error in the
 *		outcome, when it failed.
 */
static bool
execute_archive_plan(SetRun *run, const PartmgrPlan *plan)
{
	PartmgrExecResult result;

	if (plan->actions == NIL)
		return true;
	partmgr_execute_plan(plan, run->run_by, &result);
	run->outcome->error = result.error;
	return result.error == NULL;
}

/*
 * archive_plans
 *		The plans archive_rows carries out, for the children retention
 *		archives as planned now: the bound CHECKs of those attached as they
 *		are (partmgr_plan_archive_checks), then the moves of the others' rows
 *		(partmgr_plan_archive_moves); *ranges and *wait as there.
 */
static void
archive_plans(SetRun *run, const PartmgrRetention *retention,
			  PartmgrPlan **checks, PartmgrPlan **moves, List **ranges,
			  List **wait)
{
	PartmgrTree *tree = partmgr_read_tree(run->set);
	PartmgrPlan *retire = partmgr_plan_retention(run->set, tree, retention,
												 GetCurrentTransactionStartTimestamp(),
												 partmgr_children_per_transaction);

	partmgr_archive_place(run->set, retire, NIL);
	*checks = partmgr_plan_archive_checks(run->set, tree, retire, wait);
	*moves = partmgr_plan_archive_moves(run->set, tree, retire, ranges, wait);
}

/*
 * archive_rows
 *		For a set with an archive, before retention, with the owner's
 *		rights: give the children attached to the archive as they are a
 *		CHECK of their bounds (added NOT VALID in one run, which keeps them,
 *		validated in the next, which attaches them without a scan under
 *		retention's locks), make the archive's children for the others, and
 *		move their rows there -- under the set's advisory lock and, for the
 *		moves, the archive's.  False when retention must wait for the next
 *		run: another run works on the archive (a NOTICE), or a step failed
 *		(its error in the outcome).
 */
static bool
archive_rows(SetRun *run)
{
	PartmgrErrorContext ctx;
	PartmgrRights rights;
	PartmgrRetention retention;
	PartmgrPlan *checks;
	PartmgrPlan *moves;
	List	   *ranges;
	List	   *wait = NIL;		/* of the look before the locks: unused */
	bool		go_on = true;

	partmgr_set_context_push(&ctx, run->key);
	partmgr_rights_enter_set(run->set, PARTMGR_RIGHTS_ACT, &rights);
	if (!partmgr_retention_from_config(run->set, &retention) ||
		!partmgr_archive_retention(run->set, &retention))
		goto done;
	retention.quiet = true;
	archive_plans(run, &retention, &checks, &moves, &ranges, &wait);
	if (checks->actions == NIL && ranges == NIL)
		goto done;
	if (!lock_to_act(run))
	{
		go_on = false;
		goto done;
	}
	if (ranges != NIL &&
		!partmgr_try_lock_set(retention.retire.archive->parent_oid))
	{
		ereport(NOTICE,
				(errmsg("kept the expired children of partition set \"%s\" for the next run: another maintenance run is working on its archive \"%s\"",
						run->key, retention.retire.archive->key)));
		go_on = false;
		goto done;
	}
	/* as they are under the locks */
	archive_plans(run, &retention, &checks, &moves, &ranges,
				  &run->archive_wait);
	go_on = execute_archive_plan(run, checks);
	if (go_on && ranges != NIL)
		go_on = (execute_archive_plan(run,
									  partmgr_plan_archive_children(retention.retire.archive,
																	ranges)) &&
				 execute_archive_plan(run, moves));
done:
	partmgr_rights_leave(&rights);
	partmgr_context_pop(&ctx);
	return go_on;
}

/*
 * retain_set
 *		Plan and execute the set's retention (the last step that changes
 *		children, with children as they now are; at most pg_partmgr.children_per_transaction
 *		children), with the owner's rights.  Runs in a subtransaction of its
 *		own, so that a bad retention setting stops retention only.
 *		Concurrent detaches are left in the outcome for the caller to run
 *		after commit.
 */
static void
retain_set(void *arg)
{
	SetRun	   *run = (SetRun *) arg;
	PartmgrExecResult result;
	PartmgrPlan *plan;

	if (!archive_rows(run))
		return;
	if (act_on_step(run, PARTMGR_STEP_RETENTION, &plan, &result))
	{
		run->outcome->retired = result.ndone;
		run->outcome->deferred_plan = plan;
		run->outcome->deferred = result.deferred;
		run->outcome->more |= plan->truncated && result.error == NULL;
	}
}

/*
 * unique_cleanup_set
 *		Remove, with the owner's rights, at most
 *		PARTMGR_UNIQUE_CLEANUP_PER_RUN entries of children no longer in the
 *		set from its global unique side tables (before retention, in a
 *		subtransaction of its own).
 */
static void
unique_cleanup_set(void *arg)
{
	SetRun	   *run = (SetRun *) arg;
	PartmgrExecResult result;
	PartmgrPlan *plan;

	if (act_on_step(run, PARTMGR_STEP_UNIQUE_CLEANUP, &plan, &result))
		run->outcome->more |= plan->truncated && result.error == NULL;
}

/*
 * tier_set
 *		The tiers step: register the move of the oldest child out of its
 *		tier's tablespace (tiers.c), in a subtransaction of its own.  The
 *		runner carries the move out.
 */
static void
tier_set(void *arg)
{
	SetRun	   *run = (SetRun *) arg;
	PartmgrExecResult result;
	PartmgrPlan *plan;

	(void) act_on_step(run, PARTMGR_STEP_TIERS, &plan, &result);
}

/*
 * plan_constraints
 *		The derived constraints the children as read now need: the step's
 *		plan, or for partmgr_validate_set the validations of those still NOT
 *		VALID.
 */
static PartmgrPlan *
plan_constraints(SetRun *run)
{
	if (run->scope == PARTMGR_CONSTRAIN_PASS)
		return plan_step(run, PARTMGR_STEP_CONSTRAINTS);
	return partmgr_plan_constraints(run->set, partmgr_read_tree(run->set),
									run->scope);
}

/*
 * constrain_set
 *		Plan and execute the set's derived constraints (see constraints.c)
 *		with the owner's rights: after premake, before retention (and none
 *		for the children retention then retires), in a subtransaction of its
 *		own.
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
	bool		replan;

	partmgr_set_context_push(&ctx, run->key);
	partmgr_rights_enter_set(run->set, PARTMGR_RIGHTS_ACT, &rights);
	plan = plan_constraints(run);
	if (!must_act(run, plan, &replan))
	{
		partmgr_rights_leave(&rights);
		partmgr_context_pop(&ctx);
		return;
	}
	if (replan)
		plan = plan_constraints(run);
	partmgr_execute_plan(plan, run->run_by, &result);
	run->outcome->error = result.error;
	foreach(lc, plan->actions)
	{
		if (((PartmgrAction *) lfirst(lc))->kind ==
			PARTMGR_ACTION_ADD_CONSTRAINTS &&
			run->set->constraint_valid)
			run->outcome->to_validate = true;
	}
	partmgr_rights_leave(&rights);
	partmgr_context_pop(&ctx);
}

/*
 * analyze_set
 *		ANALYZE the parent with the owner's rights, after premake made
 *		children; the executor logs it.
 */
static void
analyze_set(SetRun *run)
{
	PartmgrRights rights;

	partmgr_rights_enter_set(run->set, PARTMGR_RIGHTS_ACT, &rights);
	run->outcome->error = partmgr_analyze_set(run->set, false, run->run_by,
											  false);
	partmgr_rights_leave(&rights);
}

/*
 * partmgr_analyze_set
 *		ANALYZE a set's parent now, as a one-action plan (so that it is
 *		logged like every change).  With raise, a failure is raised; else
 *		it is returned (NULL: done).  The caller is in the scope of the
 *		owner's rights.
 */
ErrorData  *
partmgr_analyze_set(PartmgrSet *set, bool skip_locked, const char *run_by,
					bool raise)
{
	PartmgrPlan *plan = partmgr_plan_new(set, NULL);
	PartmgrExecResult result;

	partmgr_plan_add_analyze(plan, skip_locked);
	partmgr_execute_plan(plan, run_by, &result);
	if (result.error != NULL && raise)
		ReThrowError(result.error);
	return result.error;
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
	if (run->set == NULL ? !superuser() :
		!partmgr_may_act_on(run->set->parent_owner))
		return;
	partmgr_log_action(run->key, run->run_by, step, NULL, NULL, started,
					   edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE ?
					   PARTMGR_OUTCOME_SKIPPED : PARTMGR_OUTCOME_FAILED,
					   edata);
}

/*
 * partmgr_maintain_set
 *		Maintain one set in the caller's transaction (with its configuration
 *		as the caller read it -- in this transaction, or in an earlier one
 *		and found current, see partmgr_config_reload -- else loaded now):
 *		plan and execute premake in a subtransaction, then derived
 *		constraints in another, analyze the parent if asked and children
 *		were made, remove the global unique entries of children gone
 *		(unique_cleanup_set), then retention (last, so that its ACCESS
 *		EXCLUSIVE locks are held the least), say
 *		when it finished when nothing failed (for the caller to stamp
 *		maintenance_last_run, see PartmgrRunStamps), and record every action
 *		-- and a failure that stopped the set before any action -- in the
 *		maintenance log.  Each step acts with the owner's rights; the caller
 *		must have the owner's privileges (42501 otherwise), except that with
 *		all_sets a set the caller may not maintain is skipped quietly
 *		(outcome->not_permitted).  opts says who runs it (run_by), whether to
 *		ANALYZE, whether it is one of all sets.  At most
 *		pg_partmgr.children_per_transaction children are created and as many
 *		retired: outcome->more says when work was left, for a caller that can
 *		commit to call again.  Errors are returned in outcome, not raised
 *		(except a query cancel).  With opts->concurrent_detach (a caller that
 *		commits, outside a transaction block), concurrent detaches are returned
 *		in outcome->deferred: the caller runs them once the transaction has
 *		committed (and stamps nothing for them; the next run sees their
 *		result).
 */
void
partmgr_maintain_set(const char *key, PartmgrSet *read,
					 const PartmgrMaintainOptions *opts,
					 PartmgrSetOutcome *outcome)
{
	const char *run_by = opts->run_by;
	SetRun		run;
	ErrorData  *edata = NULL;
	TimestampTz started = GetCurrentTimestamp();

	memset(outcome, 0, sizeof(*outcome));
	memset(&run, 0, sizeof(run));
	run.key = key;
	run.read = read;
	run.run_by = run_by;
	run.opts = opts;
	run.outcome = outcome;

	if (!partmgr_run_subxact(plan_and_execute_set, &run, &edata))
	{
		if (run.set != NULL)
			outcome->tiers = partmgr_maintenance_steps[PARTMGR_STEP_TIERS].applies(run.set);
		if (opts->all_sets && run.set == NULL && !superuser())
		{
			/* whose set it is cannot be told: not the caller's business */
			outcome->skipped = true;
			outcome->not_permitted = true;
			return;
		}
		/* nothing was done: record why */
		outcome->error = edata;
		log_step_failure(&run,
						 partmgr_maintenance_steps[PARTMGR_STEP_PREMAKE].name,
						 started, edata);
		return;
	}
	if (run.set != NULL)
		outcome->tiers = partmgr_maintenance_steps[PARTMGR_STEP_TIERS].applies(run.set);
	if (outcome->skipped || outcome->error != NULL)
		return;

	if (partmgr_maintenance_steps[PARTMGR_STEP_CONSTRAINTS].applies(run.set))
	{
		started = GetCurrentTimestamp();
		run.scope = PARTMGR_CONSTRAIN_PASS;
		if (!partmgr_run_subxact(constrain_set, &run, &edata))
		{
			outcome->error = edata;
			log_step_failure(&run,
							 partmgr_maintenance_steps[PARTMGR_STEP_CONSTRAINTS].name,
							 started, edata);
			return;
		}
		if (outcome->error != NULL)
			return;
	}

	if (opts->analyze && outcome->created > 0)
	{
		analyze_set(&run);
		if (outcome->error != NULL)
			return;
	}

	/*
	 * Entries of children that left the set (retired by earlier runs,
	 * detached by hand), before retention, so that the time it takes is not
	 * added to the ACCESS EXCLUSIVE locks retention holds.
	 */
	started = GetCurrentTimestamp();
	if (partmgr_maintenance_steps[PARTMGR_STEP_UNIQUE_CLEANUP].applies(run.set) &&
		!partmgr_run_subxact(unique_cleanup_set, &run, &edata))
	{
		outcome->error = edata;
		log_step_failure(&run,
						 partmgr_maintenance_steps[PARTMGR_STEP_UNIQUE_CLEANUP].name,
						 started, edata);
		return;
	}
	if (outcome->error != NULL)
		return;

	/*
	 * Retention last (pg_partman 5.2): DETACH and DROP hold ACCESS EXCLUSIVE
	 * on the parent to the end of the transaction, and nothing after them
	 * should make that longer -- not the scans of derived constraints, not an
	 * ANALYZE of the whole tree.
	 */
	if (partmgr_maintenance_steps[PARTMGR_STEP_RETENTION].applies(run.set))
	{
		started = GetCurrentTimestamp();
		if (!partmgr_run_subxact(retain_set, &run, &edata))
		{
			outcome->error = edata;
			log_step_failure(&run,
							 partmgr_maintenance_steps[PARTMGR_STEP_RETENTION].name,
							 started, edata);
			return;
		}
		if (outcome->error != NULL)
			return;
	}

	/* after retention: no move for a child it retires */
	if (partmgr_maintenance_steps[PARTMGR_STEP_TIERS].applies(run.set))
	{
		started = GetCurrentTimestamp();
		if (!partmgr_run_subxact(tier_set, &run, &edata))
		{
			outcome->error = edata;
			log_step_failure(&run,
							 partmgr_maintenance_steps[PARTMGR_STEP_TIERS].name,
							 started, edata);
			return;
		}
		if (outcome->error != NULL)
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
	run->locked = true;
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
partmgr_validate_set(const char *key, const char *run_by,
					 PartmgrSetOutcome *outcome)
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
