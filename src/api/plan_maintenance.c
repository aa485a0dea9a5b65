/*-------------------------------------------------------------------------
 *
 * plan_maintenance.c
 *	  plan_maintenance(): every action the next maintenance run would take,
 *	  of one set or of every set a run without arguments maintains, worked
 *	  out as the run works it out and not taken (the dry run).
 *
 * A set is planned as a run plans it: the steps are the run's own list,
 * partmgr_maintenance_steps (maintenance.h) -- premake, derived constraints,
 * the removal of global unique entries of children gone, retention -- with the
 * run's gates and plans, each step planned from the children the step before
 * would leave (partmgr_tree_after); then the next step of each registered
 * reshape.  Each action of the plans becomes a row with the statements it
 * would run, the locks it would take in that order, and the tables it would
 * read in full, as execute.c works them out for a run (partmgr_action_work
 * without taking locks).  Nothing is changed and nothing is logged.
 *
 * Locks: none of those the rows list.  Looking into a table whose contents
 * decide what a run does (contents.c: whether it holds rows, its largest
 * key) takes ACCESS SHARE on it, without queueing and bounded by
 * pg_partmgr.lock_timeout, held to the end of the caller's transaction.
 * No advisory lock: a set being maintained now is planned as it stands.
 *
 * Transactions: the caller's.  Each step of each set runs in a
 * subtransaction of its own, with the set owner's rights (rights.c); a step
 * that fails ends the set's rows with one that says so, as the failure
 * would end a run's work on the set.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/plan_maintenance.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "api.h"
#include "catalog.h"
#include "citus.h"
#include "config.h"
#include "execute.h"
#include "locks.h"
#include "maintenance.h"
#include "plan.h"
#include "reshape.h"
#include "rights.h"
#include "setup.h"
#include "work.h"

PG_FUNCTION_INFO_V1(pg_partmgr_plan_maintenance);

/* One row of plan_maintenance, kept until the set is done. */
typedef struct PlanRow
{
	char	   *action;
	char	   *object;
	char	   *detail;
	List	   *statements;		/* of char * */
	List	   *locks;			/* of char * */
	List	   *reads;			/* of char * */
	char	   *note;
} PlanRow;

typedef struct SetPlans
{
	const char *key;
	List	   *rows;			/* of PlanRow * */
} SetPlans;

/* A text[] of the strings of a list; empty for NIL. */
static Datum
text_array(List *items)
{
	Datum	   *elems;
	ListCell   *lc;

	if (items == NIL)
		return PointerGetDatum(construct_empty_array(TEXTOID));
	elems = palloc(sizeof(Datum) * list_length(items));
	foreach(lc, items)
		elems[foreach_current_index(lc)] = CStringGetTextDatum((char *) lfirst(lc));
	return PointerGetDatum(construct_array(elems, list_length(items), TEXTOID,
										   -1, false,
										   TYPALIGN_INT));
}

/*
 * plan_rows
 *		The rows of one plan: each action worked out as a run would, without
 *		its locks.  note_add goes on the rows that add constraints.
 */
static void
plan_rows(SetPlans *out, const PartmgrPlan *plan, const char *note_all,
		  const char *note_add)
{
	ListCell   *lc;

	foreach(lc, plan->actions)
	{
		const PartmgrAction *action = (const PartmgrAction *) lfirst(lc);
		PartmgrActionWork work;
		PlanRow    *row = palloc0(sizeof(PlanRow));
		ListCell   *item;

		memset(&work, 0, sizeof(work));
		partmgr_action_work(plan, action, &work);
		row->action = pstrdup(partmgr_action_name(action));
		row->object = quote_qualified_identifier(action->schema, action->name);
		row->detail = partmgr_action_bounds(plan, action);
		foreach(item, work.statements)
			row->statements = lappend(row->statements,
									  ((PartmgrWorkStatement *) lfirst(item))->sql);
		foreach(item, work.locks)
		{
			PartmgrWorkLock *lock = (PartmgrWorkLock *) lfirst(item);

			/* a child this plan creates has no OID yet */
			row->locks = lappend(row->locks,
								 psprintf("%s %s%s",
										  OidIsValid(lock->relid) ?
										  quote_qualified_identifier(get_namespace_name(get_rel_namespace(lock->relid)),
																	 get_rel_name(lock->relid)) :
										  row->object,
										  partmgr_lock_mode_name(lock->mode),
										  lock->queued ? " (queued)" : ""));
		}
		row->reads = work.reads;
		if (work.refused != NULL)
			row->note = psprintf("a run would refuse it: %s", work.refused);
		else if (work.skip != NULL)
			row->note = psprintf("a run would skip it: %s", work.skip);
		else if (action->kind == PARTMGR_ACTION_ADD_CONSTRAINTS &&
				 note_add != NULL)
			row->note = pstrdup(note_add);
		else
			row->note = note_all ? pstrdup(note_all) : NULL;
		out->rows = lappend(out->rows, row);
	}
}

/* The state of a dry run of one set, step to step. */
typedef struct SetDryRun
{
	SetPlans   *out;
	bool		all_sets;		/* leave out sets the caller may not maintain */
	PartmgrSet *set;
	PartmgrTree *tree;			/* the children as the step will find them */
	TimestampTz now;
	int			step;			/* of partmgr_maintenance_steps, in dry_step */
} SetDryRun;

/*
 * note_truncated
 *		A row saying that a plan stopped at pg_partmgr.children_per_transaction.
 */
static void
note_truncated(SetPlans *out, const PartmgrPlan *plan, const char *action)
{
	PlanRow    *row;

	if (!plan->truncated)
		return;
	row = palloc0(sizeof(PlanRow));
	row->action = (char *) action;
	row->note = psprintf("more is left than one transaction does"
						 " (pg_partmgr.children_per_transaction = %d): the"
						 " background worker and run_maintenance_proc() go on in a new transaction, run_maintenance() at its next call",
						 partmgr_children_per_transaction);
	out->rows = lappend(out->rows, row);
}

/*
 * dry_load
 *		The set, as a run loads it: left out when the caller may not
 *		maintain it (all sets), one row when a run would skip it.
 */
static void
dry_load(void *arg)
{
	SetDryRun  *dry = (SetDryRun *) arg;
	const char *skip;
	PartmgrRights rights;

	dry->set = partmgr_config_load(dry->out->key, false);
	if (dry->all_sets && !partmgr_may_act_on(dry->set->parent_owner))
	{
		dry->set = NULL;		/* not the caller's: a run leaves it out too */
		return;
	}
	skip = partmgr_set_skip_reason(dry->set);
	if (skip != NULL)
	{
		PlanRow    *row = palloc0(sizeof(PlanRow));

		row->action =
			(char *) partmgr_maintenance_steps[PARTMGR_STEP_PREMAKE].name;
		row->note = psprintf("skipped: %s", skip);
		dry->out->rows = lappend(dry->out->rows, row);
		dry->set = NULL;
		return;
	}
	partmgr_rights_enter_set(dry->set, PARTMGR_RIGHTS_ACT, &rights);
	dry->tree = partmgr_read_tree(dry->set);
	partmgr_rights_leave(&rights);
}

/*
 * dry_step
 *		One step of the run (dry->step), planned as the run plans it but from
 *		the children the steps before would leave, with the notes a run's
 *		differences need: premake's new tables get what the template gives,
 *		constraints added NOT VALID are validated later, the worker detaches
 *		CONCURRENTLY.
 */
static void
dry_step(void *arg)
{
	SetDryRun  *dry = (SetDryRun *) arg;
	const PartmgrMaintenanceStep *step = &partmgr_maintenance_steps[dry->step];
	const char *note_all = NULL;
	const char *note_add = NULL;
	PartmgrStepInput in;
	PartmgrPlan *plan;
	PartmgrRights rights;

	if (!step->applies(dry->set))
		return;
	partmgr_rights_enter_set(dry->set, PARTMGR_RIGHTS_ACT, &rights);
	in.set = dry->set;
	in.tree = dry->tree;
	in.now = dry->now;
	in.concurrent_detach = false;
	in.archive_wait = NIL;
	plan = step->plan(&in);
	switch (step->kind)
	{
		case PARTMGR_STEP_PREMAKE:
			partmgr_plan_tables(plan);
			break;
		case PARTMGR_STEP_CONSTRAINTS:
			if (dry->set->constraint_valid)
				note_add = "validated in a later transaction (the worker and run_maintenance_proc: right after)";
			break;
		case PARTMGR_STEP_UNIQUE_CLEANUP:
			break;
		case PARTMGR_STEP_TIERS:
			note_add = "registered by the run; the background worker and run_maintenance_proc() carry it out, pg_partmgr.tier_bytes_per_run at a time";
			break;
		case PARTMGR_STEP_RETENTION:
			if (!OidIsValid(dry->tree->default_oid) &&
				!partmgr_citus_table(dry->set->parent_oid))
				note_all = "the background worker detaches with DETACH ... CONCURRENTLY instead";
			break;
	}
	plan_rows(dry->out, plan, note_all, note_add);
	note_truncated(dry->out, plan, step->name);
	if (step->changes_tree)
		dry->tree = partmgr_tree_after(dry->tree, plan);
	partmgr_rights_leave(&rights);
}

/*
 * registered reshapes: the next step run_reshape() would take of each, and
 * the swap that ends it (not steps of a maintenance run)
 */
static void
dry_reshape(void *arg)
{
	SetDryRun  *dry = (SetDryRun *) arg;
	PartmgrRights rights;
	ListCell   *lc;

	partmgr_rights_enter_set(dry->set, PARTMGR_RIGHTS_ACT, &rights);
	foreach(lc, partmgr_reshape_list(dry->set->key))
	{
		PartmgrReshapeOp *op = lfirst(lc);
		PartmgrTree *tree = partmgr_read_tree(dry->set);
		PartmgrReshapeStep step;
		PartmgrPlan *plan = partmgr_plan_reshape_step(dry->set, tree, op,
													  100000, 0, &step);
		char	   *note = psprintf("reshape " INT64_FORMAT
									" (%s, phase %s): the next step of CALL"
									" partmgr.run_reshape(%s)%s%s",
									op->id, op->kind,
									partmgr_reshape_phase_name(op->phase),
									quote_literal_cstr(dry->set->key),
									op->last_error ? "; it last failed: " : "",
									op->last_error ? op->last_error : "");

		plan_rows(dry->out, plan, note, NULL);
		if (step != PARTMGR_RESHAPE_STEP_SWAP &&
			step != PARTMGR_RESHAPE_STEP_DROP_OLD)
			plan_rows(dry->out, partmgr_plan_reshape_final(dry->set, tree, op),
					  psprintf("reshape " INT64_FORMAT
							   ": the swap that ends it, once every row is copied",
							   op->id), NULL);
	}
	partmgr_rights_leave(&rights);
}

/*
 * plan_set
 *		What a run would do to one set: the set loaded as a run loads it,
 *		then the steps of a run in its order (partmgr_maintenance_steps),
 *		each planned from the children the step before leaves, then the
 *		next step of each registered reshape (run_reshape's, not the run's).
 *		Each in a subtransaction: a step that would fail ends the set with a
 *		row that says so, as it ends the run's work on the set.
 */
static void
plan_set(SetPlans *out, bool all_sets)
{
	SetDryRun	dry;
	int			nsteps = partmgr_maintenance_nsteps + 2;

	memset(&dry, 0, sizeof(dry));
	dry.out = out;
	dry.all_sets = all_sets;
	dry.now = GetCurrentTransactionStartTimestamp();
	for (int i = 0; i < nsteps; i++)
	{
		ErrorData  *edata = NULL;
		bool		done;
		const char *name;

		if (i > 0 && dry.set == NULL)
			return;
		if (i == 0)
		{
			name = partmgr_maintenance_steps[PARTMGR_STEP_PREMAKE].name;
			done = partmgr_run_subxact(dry_load, &dry, &edata);
		}
		else if (i <= partmgr_maintenance_nsteps)
		{
			dry.step = i - 1;
			name = partmgr_maintenance_steps[dry.step].name;
			done = partmgr_run_subxact(dry_step, &dry, &edata);
		}
		else
		{
			name = "reshape";
			done = partmgr_run_subxact(dry_reshape, &dry, &edata);
		}
		if (!done)
		{
			PlanRow    *row = palloc0(sizeof(PlanRow));

			row->action = (char *) name;
			row->note = psprintf("a run would fail (%s): %s",
								 unpack_sql_state(edata->sqlerrcode),
								 edata->message);
			out->rows = lappend(out->rows, row);
			return;
		}
	}
}

/*
 * pg_partmgr_plan_maintenance
 *		plan_maintenance(p_parent_table): every action the next maintenance
 *		run would take -- of that set, or of every set a run without
 *		arguments maintains -- in order, with the SQL it would run, the
 *		locks it would take (in that order) and the tables it would read in
 *		full.  Changes nothing.
 */
Datum
pg_partmgr_plan_maintenance(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg_or_null(fcinfo, 0);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	List	   *keys;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	keys = partmgr_config_keys(table, true);

	foreach(lc, keys)
	{
		SetPlans	out;
		ListCell   *r;

		out.key = (const char *) lfirst(lc);
		out.rows = NIL;
		plan_set(&out, table == NULL);
		foreach(r, out.rows)
		{
			PlanRow    *row = (PlanRow *) lfirst(r);
			Datum		values[9];
			bool		nulls[9] = {false};

			values[0] = CStringGetTextDatum(out.key);
			values[1] = Int32GetDatum(foreach_current_index(r) + 1);
			values[2] = CStringGetTextDatum(row->action);
			nulls[3] = row->object == NULL;
			if (row->object)
				values[3] = CStringGetTextDatum(row->object);
			nulls[4] = row->detail == NULL;
			if (row->detail)
				values[4] = CStringGetTextDatum(row->detail);
			values[5] = text_array(row->statements);
			values[6] = text_array(row->locks);
			values[7] = text_array(row->reads);
			nulls[8] = row->note == NULL;
			if (row->note)
				values[8] = CStringGetTextDatum(row->note);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values,
								 nulls);
		}
	}
	SPI_finish();
	return (Datum) 0;
}
