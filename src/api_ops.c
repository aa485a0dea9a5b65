/*-------------------------------------------------------------------------
 *
 * api_ops.c
 *	  SQL-callable functions for operators: plan_maintenance (what the next
 *	  run would do, without doing it) and set_health (behind the
 *	  partmgr.health view).
 *
 * Both only read: catalogs, the configuration, the maintenance log and, for
 * tables whose contents decide what maintenance does, their first rows.
 * The only locks are ACCESS SHARE, taken without queueing.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api_ops.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/partition.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "api.h"
#include "bounds.h"
#include "config.h"
#include "constraints.h"
#include "contents.h"
#include "execute.h"
#include "maintenance.h"
#include "retention.h"
#include "spi_util.h"

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
	return PointerGetDatum(construct_array(elems, list_length(items), TEXTOID, -1, false,
										   TYPALIGN_INT));
}

/*
 * plan_rows
 *		The rows of one plan: each action worked out as a run would, without
 *		its locks.
 */
static void
plan_rows(SetPlans *out, const PartmgrPlan *plan, const char *note_all)
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

			row->locks = lappend(row->locks,
								 psprintf("%s %s",
										  quote_qualified_identifier(get_namespace_name(get_rel_namespace(lock->relid)),
																	 get_rel_name(lock->relid)),
										  partmgr_lock_mode_name(lock->mode)));
		}
		row->reads = work.reads;
		if (work.skip != NULL)
			row->note = psprintf("a run would skip it: %s", work.skip);
		else
			row->note = note_all ? pstrdup(note_all) : NULL;
		out->rows = lappend(out->rows, row);
	}
}

/*
 * plan_set
 *		What a run would do to one set, in the order it would: premake,
 *		retention, derived constraints -- each planned from the children as
 *		they are now (a run plans retention and constraints after creating
 *		the new children, which changes nothing they decide).  Runs in a
 *		subtransaction: an error becomes a row that says so.
 */
static void
plan_set(void *arg)
{
	SetPlans   *out = (SetPlans *) arg;
	PartmgrSet *set = partmgr_config_load(out->key, false);
	TimestampTz now = GetCurrentTransactionStartTimestamp();
	PartmgrTree *tree;
	PartmgrRetention retention;

	if (set->undo_in_progress)
	{
		PlanRow    *row = palloc0(sizeof(PlanRow));

		row->action = "maintain set";
		row->note = "skipped: undo_partition is in progress";
		out->rows = lappend(out->rows, row);
		return;
	}
	tree = partmgr_read_tree(set);
	plan_rows(out, partmgr_plan_premake(set, tree, now), NULL);
	if (partmgr_retention_from_config(set, &retention))
		plan_rows(out, partmgr_plan_retention(set, tree, &retention, now),
				  OidIsValid(tree->default_oid) ? NULL :
				  "the background worker detaches with DETACH ... CONCURRENTLY instead");
	plan_rows(out, partmgr_plan_constraints(set, tree, PARTMGR_CONSTRAIN_PASS),
			  set->constraint_valid ?
			  "validated in a later transaction (the worker and run_maintenance_proc: right after)" :
			  NULL);
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
	if (table != NULL)
		keys = list_make1(partmgr_config_load_table(table)->key);
	else
		keys = partmgr_config_list(true);

	foreach(lc, keys)
	{
		SetPlans	out;
		ErrorData  *edata = NULL;
		ListCell   *r;

		out.key = (const char *) lfirst(lc);
		out.rows = NIL;
		if (!partmgr_run_subxact(plan_set, &out, &edata))
		{
			PlanRow    *row = palloc0(sizeof(PlanRow));

			row->action = "maintain set";
			row->note = psprintf("a run would fail (%s): %s",
								 unpack_sql_state(edata->sqlerrcode), edata->message);
			out.rows = list_make1(row);
		}
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
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		}
	}
	SPI_finish();
	return (Datum) 0;
}
