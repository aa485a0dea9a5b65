/*-------------------------------------------------------------------------
 *
 * constraints.c
 *	  Decide which derived constraints the children of a set need.
 *
 * pg_partman 5's feature and 5.2's rule: the children optimize_constraint
 * or more children below the newest child holding rows (in bound order)
 * have stopped changing.  Each column of constraint_cols that
 * has no derived constraint on such a child gets one computed from the
 * child's rows: CHECK (col >= min AND col <= max), or CHECK (col IS NULL)
 * when the column is NULL in every row.  An empty child gets nothing.
 * Names are pg_partman's, "partmanconstr_<child>_<column>" cut to 63 bytes
 * on the child part, so sets migrated from pg_partman keep theirs.
 *
 * Constraints are added NOT VALID, which locks the child only while the
 * catalog changes, and validated later (VALIDATE CONSTRAINT takes SHARE
 * UPDATE EXCLUSIVE: reads and writes go on), in a later transaction when
 * the caller can commit (the worker, the procedures) -- until then the
 * planner does not use them.  A maintenance pass does at most
 * PARTMGR_CONSTRAINT_CHILDREN_PER_PASS children of a set, newest first;
 * apply_constraints does all of them at once.
 *
 * Planning only: reads catalogs and the rows of the children that need
 * constraints (one query each), changes nothing.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/constraints.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "executor/spi.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "bounds.h"
#include "constraints.h"
#include "contents.h"
#include "statements.h"
#include "execute.h"
#include "spi_util.h"

/* A derived constraint found on a child. */
typedef struct ExistingConstraint
{
	Oid			child;
	char	   *column;
	char	   *name;
	bool		valid;
} ExistingConstraint;

static bool
name_in_list(List *names, const char *name)
{
	ListCell   *lc;

	foreach(lc, names)
	{
		if (strcmp((const char *) lfirst(lc), name) == 0)
			return true;
	}
	return false;
}

/*
 * partmgr_check_constraint_cols
 *		Refuse a constraint_cols list that cannot work: a column the parent
 *		does not have (42703), the control column (22023), a column named
 *		twice (42701), a type without a default btree operator class (42883).
 */
void
partmgr_check_constraint_cols(Oid parent, const char *control, List *columns)
{
	const char *table = quote_qualified_identifier(get_namespace_name(get_rel_namespace(parent)),
												   get_rel_name(parent));
	ListCell   *lc;

	foreach(lc, columns)
	{
		const char *column = (const char *) lfirst(lc);
		AttrNumber	attnum = get_attnum(parent, column);
		Oid			type;

		if (attnum == InvalidAttrNumber)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_COLUMN),
					 errmsg("constraint_cols names column \"%s\", which %s does not have",
							column, table)));
		if (strcmp(column, control) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("constraint_cols cannot name the control column \"%s\" of %s",
							column, table),
					 errdetail("The partition bounds already constrain it.")));
		if (name_in_list(list_copy_head(columns, foreach_current_index(lc)),
						 column))
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_COLUMN),
					 errmsg("constraint_cols names column \"%s\" twice",
							column)));
		type = get_atttype(parent, attnum);
		if (!OidIsValid(GetDefaultOpClass(type, BTREE_AM_OID)))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_FUNCTION),
					 errmsg("column \"%s\" of %s has type %s, which has no ordering",
							column, table, format_type_be(type)),
					 errhint("A derived constraint needs a type with a default btree operator class.")));
	}
}

/*
 * partmgr_eligible_children
 *		Indexes (into tree->children, as ints) of the children old enough for
 *		derived constraints, newest first: optimize_constraint or more
 *		children below the newest child holding rows (pg_partman 5.2's
 *		target and the older ones; 0: that child too).  Plain tables only;
 *		a child whose detach is pending does not count.
 */
List *
partmgr_eligible_children(const PartmgrSet *set, const PartmgrTree *tree)
{
	const PartmgrChild *newest = partmgr_newest_child_with_rows(tree);
	List	   *result = NIL;

	if (newest == NULL)
		return NIL;
	for (int i = (int) (newest - tree->children) -
		 set->optimize_constraint; i >= 0; i--)
	{
		if (!tree->children[i].detach_pending &&
			tree->children[i].relkind == RELKIND_RELATION)
			result = lappend_int(result, i);
	}
	return result;
}

/*
 * existing_constraints
 *		The derived constraints (CHECK, named partmanconstr_...) on the given
 *		children (nchildren of them), one per column they cover, ordered by
 *		child and name.
 */
static List *
existing_constraints(const PartmgrChild *children, int nchildren)
{
	static const char *const sql =
	"SELECT c.conrelid, a.attname::text, c.conname::text, c.convalidated"
	"  FROM pg_catalog.pg_constraint c"
	"  JOIN pg_catalog.pg_attribute a ON a.attrelid = c.conrelid AND a.attnum"
	" = ANY (c.conkey)"
	" WHERE c.conrelid = ANY ($1) AND c.contype = 'c'"
	"   AND c.conname LIKE '" PARTMGR_CONSTRAINT_PREFIX "%'"
	" ORDER BY c.conrelid, c.conname";
	Oid			types[1] = {OIDARRAYOID};
	Datum		values[1];
	Datum	   *oids;
	List	   *result = NIL;
	uint64		n;

	if (nchildren == 0)
		return NIL;
	oids = palloc(sizeof(Datum) * nchildren);
	for (int i = 0; i < nchildren; i++)
		oids[i] = ObjectIdGetDatum(children[i].relid);
	values[0] = PointerGetDatum(construct_array(oids, nchildren, OIDOID,
												sizeof(Oid), true,
												TYPALIGN_INT));
	n = partmgr_spi_exec_cached(sql, 1, types, values, NULL, false,
								SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
	{
		ExistingConstraint *con = palloc(sizeof(ExistingConstraint));
		bool		isnull;

		con->child = DatumGetObjectId(partmgr_spi_value(i, 1, &isnull));
		con->column = partmgr_spi_text(i, 2);
		con->name = partmgr_spi_text(i, 3);
		con->valid = DatumGetBool(partmgr_spi_value(i, 4, &isnull));
		result = lappend(result, con);
	}
	return result;
}

/* Whether a child has a derived constraint on a column. */
static bool
has_constraint(List *existing, Oid child, const char *column)
{
	ListCell   *lc;

	foreach(lc, existing)
	{
		ExistingConstraint *con = (ExistingConstraint *) lfirst(lc);

		if (con->child == child && strcmp(con->column, column) == 0)
			return true;
	}
	return false;
}

/* Append "validate" for each derived constraint of a child still NOT VALID. */
static void
plan_validations(PartmgrPlan *plan, List *existing, const PartmgrChild *child)
{
	ListCell   *lc;

	foreach(lc, existing)
	{
		ExistingConstraint *con = (ExistingConstraint *) lfirst(lc);

		/* a constraint on two columns is listed twice: validate it once */
		if (con->child == child->relid && !con->valid &&
			(foreach_current_index(lc) == 0 ||
			 strcmp(((ExistingConstraint *) list_nth(existing,
													 foreach_current_index(lc) - 1))->name,
					con->name) != 0))
			partmgr_plan_add_on_child(plan, PARTMGR_ACTION_VALIDATE_CONSTRAINT,
									  child)->constraints = list_make1(con->name);
	}
}

/*
 * plan_child
 *		Append "add the derived constraints this child lacks", computed from
 *		its rows, and, with validate, "validate each"; nothing for an empty
 *		child or one that lacks none.  Returns whether anything was added.
 */
static bool
plan_child(PartmgrPlan *plan, List *existing, const PartmgrChild *child,
		   bool validate)
{
	const PartmgrSet *set = plan->set;
	List	   *missing = NIL;
	bool	   *by_aggregate;
	PartmgrAction *action;
	ListCell   *lc;

	foreach(lc, set->constraint_cols)
	{
		if (!has_constraint(existing, child->relid, (const char *) lfirst(lc)))
			missing = lappend(missing, lfirst(lc));
	}
	if (missing == NIL || !partmgr_child_has_rows(child))
		return false;

	/* min() and max() where the type has them, else its btree order */
	by_aggregate = palloc(sizeof(bool) * list_length(missing));
	foreach(lc, missing)
	{
		Oid			type = get_atttype(set->parent_oid,
									   get_attnum(set->parent_oid,
												  (const char *) lfirst(lc)));

		by_aggregate[foreach_current_index(lc)] =
			OidIsValid(LookupFuncName(list_make2(makeString("pg_catalog"),
												 makeString("min")),
									  1, &type, true));
	}
	partmgr_spi_table_exec(partmgr_query_column_ranges(child->schema,
													   child->name, missing,
													   by_aggregate),
						   0, NULL, NULL, NULL, false, SPI_OK_SELECT);

	action = partmgr_plan_add_on_child(plan, PARTMGR_ACTION_ADD_CONSTRAINTS,
									   child);
	foreach(lc, missing)
	{
		const char *column = (const char *) lfirst(lc);
		int			i = foreach_current_index(lc);

		action->constraints = lappend(action->constraints,
									  partmgr_name_with_suffix(psprintf(PARTMGR_CONSTRAINT_PREFIX "%s",
																		child->name),
															   psprintf("_%s",
																		column)));
		action->checks = lappend(action->checks,
								 partmgr_ddl_range_check(column,
														 partmgr_spi_text(0,
																		  2 * i + 1),
														 partmgr_spi_text(0,
																		  2 * i + 2)));
	}
	if (validate)
	{
		foreach(lc, action->constraints)
			partmgr_plan_add_on_child(plan, PARTMGR_ACTION_VALIDATE_CONSTRAINT,
									  child)->constraints = list_make1(lfirst(lc));
	}
	return true;
}

/*
 * partmgr_plan_constraints
 *		Plan a set's derived constraints (see the file header and
 *		PartmgrConstraintScope).  Constraints still NOT VALID are validated
 *		first when constraint_valid says so.  Constraints added by a pass are
 *		left NOT VALID for a later transaction to validate; those added for
 *		every eligible child are validated in the same plan.  An empty plan
 *		for a set without constraint_cols.
 */
PartmgrPlan *
partmgr_plan_constraints(PartmgrSet *set, PartmgrTree *tree,
						 PartmgrConstraintScope scope)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);
	List	   *existing;
	int			done = 0;
	ListCell   *lc;

	if (set->constraint_cols == NIL)
		return plan;
	existing = existing_constraints(tree->children, tree->nchildren);
	if (set->constraint_valid)
	{
		for (int i = 0; i < tree->nchildren; i++)
			plan_validations(plan, existing, &tree->children[i]);
	}
	if (scope == PARTMGR_CONSTRAIN_VALIDATE)
		return plan;

	foreach(lc, partmgr_eligible_children(set, tree))
	{
		const PartmgrChild *child = &tree->children[lfirst_int(lc)];

		if (scope == PARTMGR_CONSTRAIN_PASS &&
			done >= PARTMGR_CONSTRAINT_CHILDREN_PER_PASS)
			break;
		if (plan_child(plan, existing, child,
					   scope == PARTMGR_CONSTRAIN_ELIGIBLE &&
					   set->constraint_valid))
			done++;
	}
	return plan;
}

/*
 * partmgr_plan_child_constraints
 *		Append the derived constraints one child lacks, whether or not it is
 *		old enough, and with validate their validation (and that of its
 *		constraints still NOT VALID).  Reads the constraints of that child
 *		only.
 */
void
partmgr_plan_child_constraints(PartmgrPlan *plan, const PartmgrChild *child,
							   bool validate)
{
	List	   *existing;

	if (plan->set->constraint_cols == NIL)
		return;
	existing = existing_constraints(child, 1);
	if (validate)
		plan_validations(plan, existing, child);
	(void) plan_child(plan, existing, child, validate);
}

/*
 * partmgr_plan_child_validations
 *		Append the validation of one child's derived constraints still NOT
 *		VALID, when the set validates its constraints (constraint_valid) --
 *		what partmgr_plan_constraints plans for that child with
 *		PARTMGR_CONSTRAIN_VALIDATE, reading the constraints of that child
 *		only.
 */
void
partmgr_plan_child_validations(PartmgrPlan *plan, const PartmgrChild *child)
{
	if (plan->set->constraint_cols == NIL || !plan->set->constraint_valid)
		return;
	plan_validations(plan, existing_constraints(child, 1), child);
}

/*
 * partmgr_plan_drop_constraints
 *		Append "drop the derived constraints of this child" (all of them,
 *		whatever columns constraint_cols names now), if it has any.
 */
void
partmgr_plan_drop_constraints(PartmgrPlan *plan, const PartmgrChild *child)
{
	List	   *names = NIL;
	ListCell   *lc;

	foreach(lc, existing_constraints(child, 1))
	{
		ExistingConstraint *con = (ExistingConstraint *) lfirst(lc);

		if (con->child == child->relid && !name_in_list(names, con->name))
			names = lappend(names, con->name);
	}
	if (names != NIL)
		partmgr_plan_add_on_child(plan, PARTMGR_ACTION_DROP_CONSTRAINTS,
								  child)->constraints = names;
}
