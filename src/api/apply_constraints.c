/*-------------------------------------------------------------------------
 *
 * apply_constraints.c
 *	  SQL-callable functions for derived constraints: apply_constraints,
 *	  drop_constraints, the procedure reapply_constraints_proc, and the
 *	  trigger that checks part_config.constraint_cols when it is written.
 *
 * The functions run in the caller's transaction: apply_constraints adds
 * and validates there, so it holds ACCESS EXCLUSIVE on each child it
 * constrains until the caller commits.  reapply_constraints_proc commits
 * after each step when called as a top-level CALL, and validates in a
 * transaction of its own (SHARE UPDATE EXCLUSIVE only).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/apply_constraints.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "nodes/parsenodes.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "api.h"
#include "catalog.h"
#include "config.h"
#include "constraints.h"
#include "statements.h"
#include "execute.h"
#include "locks.h"
#include "maintenance.h"

PG_FUNCTION_INFO_V1(pg_partmgr_apply_constraints);
PG_FUNCTION_INFO_V1(pg_partmgr_drop_constraints);
PG_FUNCTION_INFO_V1(pg_partmgr_reapply_constraints_proc);
PG_FUNCTION_INFO_V1(pg_partmgr_part_config_check);

static void reapply_child(PartmgrSet *set, Oid child_relid, char what,
						  bool dryrun);

/*
 * named_child
 *		The child of the set a user named (looked up before the owner's scope,
 *		with the caller's search_path, as relid), or an error (22023) naming
 *		both.
 */
static const PartmgrChild *
named_child(const PartmgrSet *set, const PartmgrTree *tree, const char *name,
			Oid relid)
{
	const PartmgrChild *child = partmgr_tree_find_child(tree, relid);

	if (child == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("table \"%s\" is not a child of partition set \"%s\"",
						name, set->key)));
	return child;
}

/*
 * pg_partmgr_apply_constraints
 *		apply_constraints(p_parent_table, p_child_table, p_analyze, p_job_id):
 *		the derived constraints of one child (whether or not it is old
 *		enough), or of every child old enough, added and validated now.  A
 *		set without constraint_cols is left alone, as in pg_partman.
 */
Datum
pg_partmgr_apply_constraints(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	char	   *child_name = partmgr_text_arg_or_null(fcinfo, 1);
	bool		analyze = !PG_ARGISNULL(2) && PG_GETARG_BOOL(2);
	PartmgrSet *set;
	PartmgrTree *tree;
	PartmgrPlan *plan;
	PartmgrRights rights;
	Oid			child_oid;

	SPI_connect();
	child_oid = child_name ? partmgr_resolve_table(child_name,
												   false) : InvalidOid;
	set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, &rights);
	partmgr_check_not_hash(set, "a range or list set");
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	tree = partmgr_read_tree(set);
	if (child_name != NULL)
	{
		const PartmgrChild *child = named_child(set, tree, child_name,
												child_oid);

		plan = partmgr_plan_new(set, tree);
		partmgr_plan_child_constraints(plan, child, set->constraint_valid);
	}
	else
		plan = partmgr_plan_constraints(set, tree, PARTMGR_CONSTRAIN_ELIGIBLE);
	(void) partmgr_execute_or_raise(plan, "apply_constraints", NULL);
	if (analyze && set->constraint_cols != NIL)
		(void) partmgr_analyze_set(set, false, "apply_constraints", true);
	partmgr_rights_leave(&rights);
	SPI_finish();
	PG_RETURN_VOID();
}

/*
 * pg_partmgr_drop_constraints
 *		drop_constraints(p_parent_table, p_child_table, p_debug): drop every
 *		derived constraint of one child.  p_debug reports each with a NOTICE.
 */
Datum
pg_partmgr_drop_constraints(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	char	   *child_name = partmgr_text_arg(fcinfo, 1, "p_child_table");
	bool		debug = !PG_ARGISNULL(2) && PG_GETARG_BOOL(2);
	PartmgrSet *set;
	PartmgrTree *tree;
	PartmgrPlan *plan;
	PartmgrRights rights;
	Oid			child_oid;
	ListCell   *lc;

	SPI_connect();
	child_oid = partmgr_resolve_table(child_name, false);
	set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, &rights);
	partmgr_check_not_hash(set, "a range or list set");
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	tree = partmgr_read_tree(set);
	plan = partmgr_plan_new(set, tree);
	partmgr_plan_drop_constraints(plan,
								  named_child(set, tree, child_name,
											  child_oid));
	(void) partmgr_execute_or_raise(plan, "drop_constraints", NULL);
	if (debug)
	{
		foreach(lc, plan->actions)
		{
			PartmgrAction *action = (PartmgrAction *) lfirst(lc);

			/* partmgr_plan_drop_constraints plans nothing else */
			Assert(action->kind == PARTMGR_ACTION_DROP_CONSTRAINTS);
			ereport(NOTICE,
					(errmsg("dropped constraints of partition %s of %s: %s",
							quote_qualified_identifier(action->schema,
													   action->name),
							partmgr_key_display(set->key),
							partmgr_action_bounds(plan, action))));
		}
	}
	partmgr_rights_leave(&rights);
	SPI_finish();
	PG_RETURN_VOID();
}

/*
 * reapply_step
 *		One step of reapply_constraints_proc on one child, in the current
 *		transaction: with the set reloaded (the caller may have committed),
 *		its advisory lock taken, drop (what == 'd'), add NOT VALID ('a') or
 *		validate ('v') that child's derived constraints, with the owner's
 *		rights.  With dryrun, the step is planned and reported, not run.
 */
static void
reapply_step(const char *key, Oid child_relid, char what, bool dryrun)
{
	PartmgrSet *set = partmgr_config_load(key, false);
	PartmgrRights rights;

	partmgr_rights_enter_set(set, PARTMGR_RIGHTS_ACT, &rights);
	reapply_child(set, child_relid, what, dryrun);
	partmgr_rights_leave(&rights);
}

static void
reapply_child(PartmgrSet *set, Oid child_relid, char what, bool dryrun)
{
	PartmgrTree *tree;
	const PartmgrChild *child;
	PartmgrPlan *plan;
	ListCell   *lc;

	Assert(what == 'd' || what == 'a' || what == 'v');
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	tree = partmgr_read_tree(set);
	child = partmgr_tree_find_child(tree, child_relid);
	if (child == NULL)
		return;					/* detached or dropped meanwhile */
	plan = partmgr_plan_new(set, tree);
	if (what == 'd')
		partmgr_plan_drop_constraints(plan, child);
	else if (what == 'a')
		partmgr_plan_child_constraints(plan, child, false);
	else
		partmgr_plan_child_validations(plan, child);
	if (!dryrun)
	{
		(void) partmgr_execute_or_raise(plan, "reapply_constraints_proc", NULL);
		return;
	}
	foreach(lc, plan->actions)
	{
		PartmgrAction *action = (PartmgrAction *) lfirst(lc);
		const char *child = quote_qualified_identifier(action->schema,
													   action->name);
		const char *key = partmgr_key_display(plan->set->key);
		const char *list = partmgr_action_bounds(plan, action);

		/* a dry run drops or adds (NOT VALID); it never validates */
		if (action->kind == PARTMGR_ACTION_DROP_CONSTRAINTS)
			ereport(NOTICE,
					(errmsg("dry run: would drop constraints of partition %s of %s: %s",
							child, key, list)));
		else
		{
			Assert(action->kind == PARTMGR_ACTION_ADD_CONSTRAINTS);
			ereport(NOTICE,
					(errmsg("dry run: would add constraints to partition %s of %s: %s",
							child, key, list)));
		}
	}
}

/*
 * reapply_and_commit
 *		Run a step with a snapshot, then commit when the call can.  The step
 *		runs in an SPI connection of its own: everything it allocates, the
 *		results of its queries included (SPI keeps those until the
 *		connection ends, across the commits of a non-atomic one), goes when
 *		it ends, so the procedure's memory does not grow with every child it
 *		steps through.
 */
static void
reapply_and_commit(const char *table, Oid child, char what, bool dryrun,
				   bool nonatomic)
{
	bool		snapshot = !ActiveSnapshotSet();

	if (snapshot)
		PushActiveSnapshot(GetTransactionSnapshot());
	SPI_connect();
	reapply_step(table, child, what, dryrun);
	SPI_finish();
	if (snapshot)
		PopActiveSnapshot();
	if (nonatomic)
		SPI_commit();
}

/*
 * pg_partmgr_reapply_constraints_proc
 *		PROCEDURE reapply_constraints_proc(p_parent_table, p_drop_constraints,
 *		p_apply_constraints, p_analyze, p_wait, p_dryrun): drop the derived
 *		constraints of every child, then add those of every child old
 *		enough, committing after each child (and validating in a transaction
 *		of its own), and pausing p_wait seconds between children; then,
 *		unless p_analyze is false, ANALYZE the parent.  p_dryrun reports what
 *		would be done and changes nothing, and never analyzes.  pg_partman
 *		5.4 put p_analyze fourth; the 0.1.0 declaration, which the library
 *		serves until ALTER EXTENSION UPDATE, has five arguments, without it.
 */
Datum
pg_partmgr_reapply_constraints_proc(PG_FUNCTION_ARGS)
{
	int			shift = PG_NARGS() > 5 ? 1 : 0; /* after p_analyze */
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	bool		drop = !PG_ARGISNULL(1) && PG_GETARG_BOOL(1);
	bool		apply = !PG_ARGISNULL(2) && PG_GETARG_BOOL(2);
	bool		analyze = shift == 0 || PG_ARGISNULL(3) || PG_GETARG_BOOL(3);
	int			wait = PG_ARGISNULL(3 + shift) ? 0 : PG_GETARG_INT32(3 + shift);
	bool		dryrun = !PG_ARGISNULL(4 + shift) && PG_GETARG_BOOL(4 + shift);
	bool		nonatomic = (fcinfo->context != NULL &&
							 IsA(fcinfo->context, CallContext) &&
							 !castNode(CallContext, fcinfo->context)->atomic);
	PartmgrSet *set;
	PartmgrTree *tree;
	List	   *all = NIL;
	List	   *newest_first;
	List	   *eligible = NIL;
	bool		snapshot;
	bool		validate;
	PartmgrRights rights;
	ListCell   *lc;

	if (wait < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_wait must not be negative, not %d", wait)));

	/* in a non-atomic connection, SPI's memory survives our commits */
	SPI_connect_ext(nonatomic ? SPI_OPT_NONATOMIC : 0);
	snapshot = !ActiveSnapshotSet();
	if (snapshot)
		PushActiveSnapshot(GetTransactionSnapshot());
	set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, &rights);
	partmgr_check_not_hash(set, "a range or list set");
	table = set->key;
	validate = set->constraint_valid;
	tree = partmgr_read_tree(set);
	for (int i = 0; i < tree->nchildren; i++)
		all = lappend_oid(all, tree->children[i].relid);
	/* the eligible children come newest first: walk them backwards */
	newest_first = partmgr_eligible_children(set, tree);
	for (int i = list_length(newest_first) - 1; i >= 0; i--)
		eligible = lappend_oid(eligible,
							   tree->children[list_nth_int(newest_first,
														   i)].relid);
	if (set->constraint_cols == NIL)
		ereport(NOTICE,
				(errmsg("partition set \"%s\" has no constraint_cols: nothing to apply", set->key)));
	/* each step acts with the owner's rights in a transaction of its own */
	partmgr_rights_leave(&rights);
	if (snapshot)
		PopActiveSnapshot();

	if (drop)
	{
		foreach(lc, all)
		{
			reapply_and_commit(table, lfirst_oid(lc), 'd', dryrun, nonatomic);
			if (wait > 0 && !dryrun && lnext(all, lc) != NULL)
				partmgr_pause_seconds(wait);
		}
	}
	if (apply)
	{
		/* oldest first, as pg_partman */
		foreach(lc, eligible)
		{
			reapply_and_commit(table, lfirst_oid(lc), 'a', dryrun, nonatomic);
			if (validate && !dryrun)
				reapply_and_commit(table, lfirst_oid(lc), 'v', dryrun,
								   nonatomic);
			if (wait > 0 && !dryrun && lnext(eligible, lc) != NULL)
				partmgr_pause_seconds(wait);
		}
	}
	if (analyze && !dryrun && (drop || apply))
	{
		snapshot = !ActiveSnapshotSet();
		if (snapshot)
			PushActiveSnapshot(GetTransactionSnapshot());
		set = partmgr_config_load(table, false);
		partmgr_rights_enter_set(set, PARTMGR_RIGHTS_ACT, &rights);
		(void) partmgr_analyze_set(set, false, "reapply_constraints_proc",
								   true);
		partmgr_rights_leave(&rights);
		if (snapshot)
			PopActiveSnapshot();
	}
	SPI_finish();
	PG_RETURN_VOID();
}

/*
 * config_column
 *		The number of the column of part_config the trigger reads, after
 *		checking that the table it fires on has it with the right type.
 */
static int
config_column(Relation rel, const char *name, Oid type)
{
	int			attnum = SPI_fnumber(RelationGetDescr(rel), name);

	if (attnum <= 0 ||
		TupleDescAttr(RelationGetDescr(rel), attnum - 1)->atttypid != type)
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("partmgr.part_config_check() fires on a table without column \"%s\" of type %s",
						name, format_type_be(type)),
				 errdetail("It is the trigger of partmgr.part_config, and fired on %s.",
						   RelationGetRelationName(rel))));
	return attnum;
}

/*
 * pg_partmgr_part_config_check
 *		BEFORE INSERT OR UPDATE trigger on part_config: a constraint_cols
 *		list is checked against the parent table when it is written (see
 *		partmgr_check_constraint_cols), so a bad one never reaches
 *		maintenance.  A row whose parent table does not exist is left to
 *		maintenance to report.
 */
Datum
pg_partmgr_part_config_check(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;
	HeapTuple	tuple;
	TupleDesc	desc;
	bool		isnull;
	Datum		cols;
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	List	   *columns = NIL;
	Oid			parent;
	char	   *control;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("partmgr.part_config_check() must be called as a trigger")));
	/* anyone may put the function in a trigger of their own: check how */
	if (!TRIGGER_FIRED_FOR_ROW(trigdata->tg_event) ||
		!(TRIGGER_FIRED_BY_INSERT(trigdata->tg_event) ||
		  TRIGGER_FIRED_BY_UPDATE(trigdata->tg_event)))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("partmgr.part_config_check() must be fired for each row on INSERT or UPDATE")));
	tuple = (TRIGGER_FIRED_BY_UPDATE(trigdata->tg_event) ?
			 trigdata->tg_newtuple :
			 trigdata->tg_trigtuple);
	desc = trigdata->tg_relation->rd_att;
	cols = heap_getattr(tuple,
						config_column(trigdata->tg_relation, "constraint_cols",
									  TEXTARRAYOID),
						desc, &isnull);
	if (isnull)
		return PointerGetDatum(tuple);

	parent = partmgr_key_relid(SPI_getvalue(tuple, desc,
											config_column(trigdata->tg_relation, "parent_table",
														  TEXTOID)));
	if (!OidIsValid(parent))
		return PointerGetDatum(tuple);
	control = SPI_getvalue(tuple, desc,
						   config_column(trigdata->tg_relation, "control",
										 TEXTOID));
	deconstruct_array(DatumGetArrayTypeP(cols), TEXTOID, -1, false,
					  TYPALIGN_INT,
					  &elems, &nulls, &n);
	for (int i = 0; i < n; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("constraint_cols must not contain NULL")));
		columns = lappend(columns, TextDatumGetCString(elems[i]));
	}
	partmgr_check_constraint_cols(parent, control, columns);
	return PointerGetDatum(tuple);
}
