/*-------------------------------------------------------------------------
 *
 * child_properties.c
 *	  SQL-callable functions that compare existing children with what the
 *	  parent and the template table say and make them match:
 *	  check_children, reapply_privileges, reapply_child_properties and, for
 *	  one child, inherit_template_properties.
 *
 * Each fix is an action of its own (see execute.c): the child alone is
 * locked, conditionally and bounded, so a child in use is reported and
 * left for the next call rather than waited for.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/child_properties.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_class.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/tuplestore.h"

#include "api.h"
#include "catalog.h"
#include "config.h"
#include "execute.h"
#include "locks.h"
#include "plan.h"
#include "properties.h"

PG_FUNCTION_INFO_V1(pg_partmgr_check_children);
PG_FUNCTION_INFO_V1(pg_partmgr_reapply_privileges);
PG_FUNCTION_INFO_V1(pg_partmgr_reapply_child_properties);
PG_FUNCTION_INFO_V1(pg_partmgr_inherit_template_properties);

/*
 * set_tables
 *		Every table of a set that properties apply to: the default partition
 *		first, then the children by bound, without those being detached.
 */
static List *
set_tables(PartmgrTree *tree)
{
	List	   *tables = NIL;

	if (OidIsValid(tree->default_oid))
	{
		PartmgrChild *def = palloc0(sizeof(PartmgrChild));

		def->relid = tree->default_oid;
		def->schema = tree->default_schema;
		def->name = tree->default_name;
		def->relkind = get_rel_relkind(tree->default_oid);
		tables = lappend(tables, def);
	}
	for (int i = 0; i < tree->nchildren; i++)
	{
		if (!tree->children[i].detach_pending)
			tables = lappend(tables, &tree->children[i]);
	}
	return tables;
}

/*
 * pg_partmgr_check_children
 *		partmgr.check_children(p_parent_table): one row per property of a
 *		child that differs from what the set says (see partmgr_child_drift),
 *		with what it should be and what it is.  Grants are compared when the
 *		set has inherit_privileges.
 */
Datum
pg_partmgr_check_children(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	PartmgrSet *set;
	PartmgrProperties props;
	PartmgrRights rights;
	ListCell   *lc;
	ListCell   *dc;

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, &rights);
	partmgr_read_properties(set, &props);
	foreach(lc, set_tables(partmgr_read_tree(set)))
	{
		PartmgrChild *child = (PartmgrChild *) lfirst(lc);

		foreach(dc,
				partmgr_child_drift(set, &props, child->relid,
									set->inherit_privileges))
		{
			PartmgrDrift *drift = (PartmgrDrift *) lfirst(dc);
			Datum		values[4];
			bool		nulls[4] = {false, false, false, false};

			values[0] = CStringGetTextDatum(quote_qualified_identifier(child->schema,
																	   child->name));
			values[1] = CStringGetTextDatum(drift->property);
			values[2] = CStringGetTextDatum(drift->expected);
			values[3] = CStringGetTextDatum(drift->actual);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values,
								 nulls);
		}
	}
	partmgr_rights_leave(&rights);
	SPI_finish();
	return (Datum) 0;
}

/*
 * reapply
 *		Plan one ALTER_CHILD action per child with drift of the kinds asked
 *		for, and run the plan.  A difference nothing can fix is a WARNING.
 */
static void
reapply(FunctionCallInfo fcinfo, bool privileges, const char *caller)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	PartmgrSet *set;
	PartmgrTree *tree;
	PartmgrPlan *plan;
	PartmgrProperties props;
	PartmgrRights rights;
	ListCell   *lc;
	ListCell   *dc;

	SPI_connect();
	set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, &rights);
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	tree = partmgr_read_tree(set);
	partmgr_read_properties(set, &props);
	plan = partmgr_plan_new(set, tree);
	foreach(lc, set_tables(tree))
	{
		PartmgrChild *child = (PartmgrChild *) lfirst(lc);
		List	   *statements = NIL;
		List	   *given = NIL;
		bool		gives_back = false;

		foreach(dc, partmgr_child_drift(set, &props, child->relid, privileges))
		{
			PartmgrDrift *drift = (PartmgrDrift *) lfirst(dc);
			bool		is_privilege = (drift->kind == PARTMGR_DRIFT_OWNER ||
										drift->kind == PARTMGR_DRIFT_GRANTS);

			if (is_privilege != privileges)
				continue;

			/*
			 * Only a replica identity that names the parent's index comes
			 * without a fix: when the child has no partition of that index.
			 */
			if (drift->fix == NIL &&
				drift->kind == PARTMGR_DRIFT_REPLICA_IDENTITY)
				ereport(WARNING,
						(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
						 errmsg("replica identity of \"%s\" cannot be made the parent's",
								quote_qualified_identifier(child->schema,
														   child->name)),
						 errhint("The parent's replica identity index has no matching index on this child; create one, or attach the child again.")));
			else if (drift->fix == NIL && drift->caller_fix == NIL)
				ereport(WARNING,
						(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
						 errmsg("property \"%s\" of \"%s\" differs from what the set says, and no statement changes it",
								drift->property,
								quote_qualified_identifier(child->schema,
														   child->name)),
						 errdetail("It should be \"%s\"; it is \"%s\".",
								   drift->expected, drift->actual)));

			/*
			 * another role's table is given to the owner by the caller, not
			 * the owner; so are statistics objects the caller makes where the
			 * owner may not
			 */
			if (drift->kind == PARTMGR_DRIFT_OWNER)
			{
				given = list_concat(given, drift->fix);
				gives_back = true;
			}
			else
				statements = list_concat(statements, drift->fix);
			given = list_concat(given, drift->caller_fix);
		}
		if (statements != NIL || given != NIL)
		{
			PartmgrAction *action = partmgr_plan_add_on_child(plan,
															  PARTMGR_ACTION_ALTER_CHILD,
															  child);

			action->caller_statements = given;
			action->gives_back = gives_back;
			action->statements = statements;
		}
	}
	(void) partmgr_execute_or_raise(plan, caller, NULL);
	partmgr_rights_leave(&rights);
	SPI_finish();
}

/*
 * pg_partmgr_reapply_privileges
 *		partmgr.reapply_privileges(p_parent_table): make the owner and the
 *		grants of every child the parent's, revoking (with CASCADE) what the
 *		parent does not grant.  As in pg_partman, whatever inherit_privileges
 *		says.
 */
Datum
pg_partmgr_reapply_privileges(PG_FUNCTION_ARGS)
{
	reapply(fcinfo, true, "reapply_privileges");
	PG_RETURN_VOID();
}

/*
 * pg_partmgr_reapply_child_properties
 *		partmgr.reapply_child_properties(p_parent_table): make the
 *		persistence and storage parameters of every child the template's,
 *		and its replica identity, each column's compression, storage and
 *		statistics target and the extended statistics the parent's.
 */
Datum
pg_partmgr_reapply_child_properties(PG_FUNCTION_ARGS)
{
	reapply(fcinfo, false, "reapply_child_properties");
	PG_RETURN_VOID();
}

/*
 * pg_partmgr_inherit_template_properties
 *		partmgr.inherit_template_properties(p_parent_table, p_child_schema,
 *		p_child_tablename) (pg_partman 5): give one child of the set what
 *		the template table says -- its unique indexes the child lacks, its
 *		persistence and its storage parameters -- for a child attached by
 *		hand.  False for a child that is partitioned itself (nothing is
 *		done), true otherwise.
 */
Datum
pg_partmgr_inherit_template_properties(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	char	   *child_schema = partmgr_text_arg(fcinfo, 1, "p_child_schema");
	char	   *child_name = partmgr_text_arg(fcinfo, 2, "p_child_tablename");
	PartmgrSet *set;
	PartmgrTree *tree;
	PartmgrChild *child = NULL;
	PartmgrProperties props;
	PartmgrRights rights;
	List	   *statements;
	ListCell   *lc;

	SPI_connect();
	set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, &rights);
	if (set->template_table == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("partition set \"%s\" has no template table", set->key),
				 errhint("Name one in partmgr.part_config.template_table first.")));
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	tree = partmgr_read_tree(set);
	foreach(lc, set_tables(tree))
	{
		PartmgrChild *c = (PartmgrChild *) lfirst(lc);

		if (strcmp(c->schema, child_schema) == 0 &&
			strcmp(c->name, child_name) == 0)
			child = c;
	}
	if (child == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("table \"%s\" is not a child of partition set \"%s\"",
						quote_qualified_identifier(child_schema, child_name),
						set->key)));
	if (child->relkind == RELKIND_PARTITIONED_TABLE)
	{
		partmgr_rights_leave(&rights);
		SPI_finish();
		PG_RETURN_BOOL(false);
	}
	partmgr_read_properties(set, &props);
	statements = partmgr_template_statements(set, &props, child->relid);
	if (statements != NIL)
	{
		PartmgrPlan *plan = partmgr_plan_new(set, tree);

		partmgr_plan_add_on_child(plan, PARTMGR_ACTION_ALTER_CHILD,
								  child)->statements =
			statements;
		(void) partmgr_execute_or_raise(plan, "inherit_template_properties",
										NULL);
	}
	partmgr_rights_leave(&rights);
	SPI_finish();
	PG_RETURN_BOOL(true);
}
