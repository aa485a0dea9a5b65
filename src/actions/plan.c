/*-------------------------------------------------------------------------
 *
 * plan.c
 *	  Build the action list for one partition set.
 *
 * Jobs decide which child ranges a set needs; this file turns a range into
 * an action after checking it is safe: no existing child is overlapped, the
 * child's name (pg_partman's "<parent>_p<suffix>", cut to 63 bytes) is free,
 * and the bound fits the key's type.  A plan is pure data: building it reads
 * catalogs but changes nothing and takes no locks.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/actions/plan.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "bounds.h"
#include "plan.h"
#include "unique.h"
#include "reshape_state.h"

/*
 * partmgr_plan_new
 *		An empty plan for a set whose children are described by tree.
 */
PartmgrPlan *
partmgr_plan_new(PartmgrSet *set, PartmgrTree *tree)
{
	PartmgrPlan *plan = palloc0(sizeof(PartmgrPlan));

	plan->set = set;
	plan->tree = tree;
	return plan;
}

/*
 * partmgr_child_name
 *		Name of the child whose lower bound is given: the parent's name, "_p"
 *		and the suffix (the lower bound formatted with the datetime_string of
 *		its era for time sets, the number for id sets), the parent part
 *		shortened to fit.
 */
char *
partmgr_child_name(const PartmgrSet *set, PartmgrPoint lower)
{
	char	   *suffix;

	if (set->axis.kind == PARTMGR_KEY_TIME)
		suffix = partmgr_time_suffix(&set->axis, lower,
									 partmgr_era_at(set,
													lower).datetime_string);
	else
		suffix = psprintf(INT64_FORMAT, lower);
	return partmgr_name_with_suffix(set->parent_name, psprintf("_p%s", suffix));
}

/*
 * check_name_free
 *		Raise 42P07 if a relation already holds the name the new table of
 *		action (a child or the default partition) needs, or if the plan
 *		itself already uses it.
 */
static void
check_name_free(const PartmgrPlan *plan, const char *name,
				const PartmgrAction *action)
{
	Oid			nspid = get_namespace_oid(plan->set->parent_schema, false);
	ListCell   *lc;

	foreach(lc, plan->actions)
	{
		PartmgrAction *other = (PartmgrAction *) lfirst(lc);

		if (strcmp(other->name, name) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_TABLE),
					 errmsg("two children of \"%s\" would both be named \"%s\"",
							plan->set->key, name),
					 errdetail("The suffix format \"%s\" does not tell their lower bounds apart.",
							   plan->set->datetime_string ?
							   plan->set->datetime_string : ""),
					 errhint("Set part_config.datetime_string to a format precise enough for the interval.")));
	}

	if (OidIsValid(get_relname_relid(name, nspid)))
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_TABLE),
				 errmsg("relation \"%s\" already exists",
						quote_qualified_identifier(plan->set->parent_schema,
												   name)),
				 action->kind == PARTMGR_ACTION_CREATE_DEFAULT ?
				 errdetail("pg_partmgr needs this name for the default partition of \"%s\".",
						   plan->set->key) :
				 errdetail("pg_partmgr needs this name for the child of \"%s\" for values from %s to %s.",
						   plan->set->key,
						   partmgr_point_display(&plan->set->axis,
												 action->lower),
						   partmgr_point_display(&plan->set->axis,
												 action->upper)),
				 errhint("Rename or drop that table, or attach it to the set yourself.")));
}

/*
 * warn_overlap
 *		The WARNING for a child of [lower, upper) left out because it would
 *		overlap an existing child (overlap) or one the plan creates already
 *		(planned).
 */
static void
warn_overlap(const PartmgrSet *set, PartmgrPoint lower, PartmgrPoint upper,
			 const PartmgrChild *overlap, const PartmgrAction *planned)
{
	ereport(WARNING,
			(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
			 errmsg("skipped the child of \"%s\" for values from %s to %s",
					set->key,
					partmgr_point_display(&set->axis, lower),
					partmgr_point_display(&set->axis, upper)),
			 overlap != NULL ?
			 errdetail("It would overlap \"%s\", which covers values from %s to %s.",
					   quote_qualified_identifier(overlap->schema,
												  overlap->name),
					   partmgr_point_display(&set->axis, overlap->lower),
					   partmgr_point_display(&set->axis, overlap->upper)) :
			 errdetail("It would overlap \"%s\", which is also being created.",
					   planned->name)));
}

/*
 * partmgr_plan_add_child
 *		Append "create the child for [lower, upper)" unless a child with that
 *		exact range exists, or the range would overlap another child (or one
 *		already planned), which is reported with a WARNING and skipped, or
 *		the plan already holds as many children as its limit allows (then it
 *		is marked truncated).  An upper bound beyond the key's type becomes
 *		MAXVALUE when executed.  Checks for interrupts: every planning loop
 *		goes through here.
 */
PartmgrSlotResult
partmgr_plan_add_child(PartmgrPlan *plan, PartmgrPoint lower,
					   PartmgrPoint upper)
{
	PartmgrSet *set = plan->set;
	const PartmgrChild *overlap;
	PartmgrAction *action;
	ListCell   *lc;
	char	   *name;

	CHECK_FOR_INTERRUPTS();
	if (!partmgr_point_fits_type(&set->axis, lower))
		return PARTMGR_SLOT_OUT_OF_RANGE;
	if (set->has_limits &&
		(lower >= set->limit_upper || upper <= set->limit_lower))
		return PARTMGR_SLOT_OUTSIDE_PARENT;

	for (int i = 0; i < plan->tree->nchildren; i++)
	{
		const PartmgrChild *child = &plan->tree->children[i];

		if (child->lower == lower && child->upper == upper)
			return PARTMGR_SLOT_EXISTS;
	}

	overlap = partmgr_tree_find_overlap(plan->tree, lower, upper);
	if (overlap != NULL)
	{
		warn_overlap(set, lower, upper, overlap, NULL);
		return PARTMGR_SLOT_OVERLAP;
	}
	foreach(lc, plan->actions)
	{
		PartmgrAction *other = (PartmgrAction *) lfirst(lc);

		if (other->kind == PARTMGR_ACTION_CREATE_CHILD &&
			other->lower < upper && lower < other->upper)
		{
			if (other->lower == lower && other->upper == upper)
				return PARTMGR_SLOT_EXISTS;
			warn_overlap(set, lower, upper, NULL, other);
			return PARTMGR_SLOT_OVERLAP;
		}
	}
	if (plan->limit > 0 && plan->ncreated >= plan->limit)
	{
		plan->truncated = true;
		return PARTMGR_SLOT_LIMIT;
	}

	name = partmgr_child_name(set, lower);
	action = palloc0(sizeof(PartmgrAction));
	action->kind = PARTMGR_ACTION_CREATE_CHILD;
	action->schema = set->parent_schema;
	action->name = name;
	action->lower = lower;
	action->upper = upper;
	check_name_free(plan, name, action);
	plan->actions = lappend(plan->actions, action);
	plan->ncreated++;
	return PARTMGR_SLOT_ADDED;
}

/*
 * partmgr_plan_add_move
 *		Append "move the rows of from with keys in [lower, upper) into the
 *		table to_schema.to_name" (PARTMGR_POINT_MIN / _MAX leave that side
 *		open).
 */
void
partmgr_plan_add_move(PartmgrPlan *plan, const PartmgrRowSource *from,
					  const char *to_schema, const char *to_name,
					  PartmgrPoint lower, PartmgrPoint upper)
{
	PartmgrAction *action = palloc0(sizeof(PartmgrAction));

	action->kind = PARTMGR_ACTION_MOVE_ROWS;
	action->schema = from->schema;
	action->name = from->name;
	action->relid = from->relid;
	action->from = *from;
	action->to_schema = pstrdup(to_schema);
	action->to_name = pstrdup(to_name);
	action->lower = lower;
	action->upper = upper;
	plan->actions = lappend(plan->actions, action);
}

/*
 * partmgr_archive_sources
 *		The tables whose rows an expired child moves into its set's archive:
 *		the child, or the leaves below it when it is partitioned (its
 *		sub-sets' default partitions too), each a PartmgrRowSource with the
 *		set's columns that travel.
 */
List *
partmgr_archive_sources(const PartmgrSet *set, Oid child)
{
	List	   *columns = partmgr_movable_columns(set->parent_oid, NIL);
	List	   *sources = NIL;
	ListCell   *lc;

	foreach(lc, find_all_inheritors(child, NoLock, NULL))
	{
		Oid			relid = lfirst_oid(lc);
		PartmgrRowSource *source;

		if (get_rel_relkind(relid) != RELKIND_RELATION)
			continue;
		source = palloc0(sizeof(PartmgrRowSource));
		source->relid = relid;
		source->schema = get_namespace_name(get_rel_namespace(relid));
		source->name = get_rel_name(relid);
		source->columns = columns;
		sources = lappend(sources, source);
	}
	return sources;
}

/*
 * partmgr_plan_add_fill_staged
 *		Append "move the rows of from with keys in [lower, upper) into the
 *		staged children planned before, then attach those to the parent".
 */
void
partmgr_plan_add_fill_staged(PartmgrPlan *plan, const PartmgrRowSource *from,
							 PartmgrPoint lower, PartmgrPoint upper)
{
	partmgr_plan_add_move(plan, from, plan->set->parent_schema,
						  plan->stage_name,
						  lower, upper);
	((PartmgrAction *) llast(plan->actions))->kind = PARTMGR_ACTION_FILL_STAGED;
}

/*
 * partmgr_plan_add_attach
 *		Append "attach the unattached child schema.name for [lower, upper),
 *		moving in first the rows of that range from holds".
 */
void
partmgr_plan_add_attach(PartmgrPlan *plan, const PartmgrRowSource *from,
						const char *schema,
						const char *name, Oid relid, PartmgrPoint lower,
						PartmgrPoint upper)
{
	PartmgrAction *action = palloc0(sizeof(PartmgrAction));

	action->kind = PARTMGR_ACTION_ATTACH_CHILD;
	action->schema = pstrdup(schema);
	action->name = pstrdup(name);
	action->relid = relid;
	action->from = *from;
	action->lower = lower;
	action->upper = upper;
	plan->actions = lappend(plan->actions, action);
}

/*
 * partmgr_plan_add_analyze
 *		ANALYZE the set's parent, which gathers the statistics of the whole
 *		partition tree; with skip_locked, tables another session holds a
 *		conflicting lock on are left out.
 */
void
partmgr_plan_add_analyze(PartmgrPlan *plan, bool skip_locked)
{
	PartmgrAction *action = palloc0(sizeof(PartmgrAction));

	action->kind = PARTMGR_ACTION_ANALYZE;
	action->schema = plan->set->parent_schema;
	action->name = plan->set->parent_name;
	action->relid = plan->set->parent_oid;
	action->skip_locked = skip_locked;
	plan->actions = lappend(plan->actions, action);
}

/*
 * partmgr_plan_add_unique
 *		Make (PARTMGR_ACTION_UNIQUE_CREATE) or drop (_DROP) global unique
 *		constraint u of the plan's set, on the tables of its tree: the
 *		statements (see PartmgrAction) come from the caller, which checked
 *		the request; the action names the side table.
 */
void
partmgr_plan_add_unique(PartmgrPlan *plan, PartmgrActionKind kind,
						const PartmgrUnique *u,
						List *tables, List *statements, List *after_statements)
{
	PartmgrAction *action = palloc0(sizeof(PartmgrAction));

	Assert(kind == PARTMGR_ACTION_UNIQUE_CREATE ||
		   kind == PARTMGR_ACTION_UNIQUE_DROP);
	action->kind = kind;
	action->schema = u->side_schema;
	action->name = u->side_name;
	action->relid = u->side;
	action->unique = u;
	action->tables = tables;
	action->statements = statements;
	action->after_statements = after_statements;
	plan->actions = lappend(plan->actions, action);
}

/*
 * partmgr_plan_unique_cleanup
 *		For each global unique constraint of a top parent's set, one action
 *		per child its entries name that is no longer in the set, removing
 *		them: at most limit entries over the whole plan (the rest waits for
 *		the next run: plan->truncated).  Reads the side tables, so the
 *		caller is in the scope of the owner's rights.
 */
PartmgrPlan *
partmgr_plan_unique_cleanup(PartmgrSet *set, int64 limit)
{
	PartmgrPlan *plan = partmgr_plan_new(set, NULL);
	int64		left = limit;
	ListCell   *lc;

	if (partmgr_unique_none(set->parent_oid) ||
		get_rel_relispartition(set->parent_oid))
		return plan;			/* constraints belong to the top parent */
	foreach(lc, partmgr_unique_list_of(set->parent_oid))
	{
		PartmgrUnique *u = lfirst(lc);
		ListCell   *cc;

		if (!partmgr_unique_side_is_owners(u, set->parent_owner))
			continue;
		foreach(cc, partmgr_unique_children(u))
		{
			Oid			child = lfirst_oid(cc);
			PartmgrAction *action;

			if (partmgr_unique_in_set(child, set->parent_oid))
				continue;
			if (left <= 0)
			{
				plan->truncated = true;
				return plan;
			}
			action = palloc0(sizeof(PartmgrAction));
			action->kind = PARTMGR_ACTION_UNIQUE_CLEANUP;
			action->schema = u->side_schema;
			action->name = u->side_name;
			action->relid = u->side;
			action->statements =
				list_make1(partmgr_dml_unique_cleanup(u->side_schema,
													  u->side_name,
													  child,
													  left));
			plan->actions = lappend(plan->actions, action);
			left -= partmgr_unique_count_of(u, child);
			if (left < 0)
			{
				/* this child's entries take more than one plan */
				plan->truncated = true;
				return plan;
			}
		}
	}
	return plan;
}

/*
 * partmgr_plan_add_on_child
 *		Append an action of the given kind on an existing child (constraint
 *		work); the caller fills in what it needs.
 */
PartmgrAction *
partmgr_plan_add_on_child(PartmgrPlan *plan, PartmgrActionKind kind,
						  const PartmgrChild *child)
{
	PartmgrAction *action = palloc0(sizeof(PartmgrAction));

	action->kind = kind;
	action->schema = child->schema;
	action->name = child->name;
	action->relid = child->relid;
	action->lower = child->lower;
	action->upper = child->upper;
	plan->actions = lappend(plan->actions, action);
	return action;
}

/*
 * partmgr_plan_add_default
 *		Append "create the default partition <parent>_default".
 */
void
partmgr_plan_add_default(PartmgrPlan *plan)
{
	PartmgrAction *action = palloc0(sizeof(PartmgrAction));

	action->kind = PARTMGR_ACTION_CREATE_DEFAULT;
	action->schema = plan->set->parent_schema;
	action->name = partmgr_name_with_suffix(plan->set->parent_name, "_default");
	check_name_free(plan, action->name, action);
	plan->actions = lappend(plan->actions, action);
}

/*
 * partmgr_plan_add_retire
 *		Append "detach this expired child, then keep, move or drop it";
 *		false (and the plan marked truncated) when the plan's limit is
 *		reached.
 */
bool
partmgr_plan_add_retire(PartmgrPlan *plan, const PartmgrChild *child,
						const PartmgrRetirement *retire)
{
	PartmgrAction *action;

	CHECK_FOR_INTERRUPTS();
	if (plan->limit > 0 && plan->nretired >= plan->limit)
	{
		plan->truncated = true;
		return false;
	}
	action = palloc0(sizeof(PartmgrAction));

	action->kind = PARTMGR_ACTION_RETIRE_CHILD;
	action->schema = child->schema;
	action->name = child->name;
	action->relid = child->relid;
	action->lower = child->lower;
	action->upper = child->upper;
	action->retire = *retire;
	plan->actions = lappend(plan->actions, action);
	plan->nretired++;
	return true;
}

/*
 * partmgr_plan_add_finalize
 *		Append "finish the interrupted concurrent detach of this child".
 */
void
partmgr_plan_add_finalize(PartmgrPlan *plan, const PartmgrChild *child)
{
	PartmgrAction *action = palloc0(sizeof(PartmgrAction));

	action->kind = PARTMGR_ACTION_FINALIZE_DETACH;
	action->schema = child->schema;
	action->name = child->name;
	action->relid = child->relid;
	action->lower = child->lower;
	action->upper = child->upper;
	plan->actions = lappend(plan->actions, action);
}

/*
 * partmgr_hash_child_name
 *		Name of the child of a hash set holding remainder of modulus: the
 *		parent's name, "_h", the modulus, "_" and the remainder
 *		("events_h8_3"), the parent part shortened to fit.
 */
char *
partmgr_hash_child_name(const PartmgrSet *set, int modulus, int remainder)
{
	return partmgr_name_with_suffix(set->parent_name,
									psprintf("_h%d_%d", modulus, remainder));
}

/* Greatest common divisor of two positive moduli. */
static int
gcd(int a, int b)
{
	while (b != 0)
	{
		int			t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * partmgr_plan_add_hash_child
 *		Append "create the child of a hash set for remainder of modulus"
 *		unless a child holds some of those hash values already (one with
 *		those bounds, or one of another modulus whose remainders meet
 *		them: a table made by hand, or after a split).  False when one
 *		does.
 */
bool
partmgr_plan_add_hash_child(PartmgrPlan *plan, int modulus, int remainder)
{
	PartmgrAction *action;

	CHECK_FOR_INTERRUPTS();
	for (int i = 0; i < plan->tree->nchildren; i++)
	{
		const PartmgrChild *child = &plan->tree->children[i];

		/*
		 * (m1, r1) and (m2, r2) share a value when r1 = r2 modulo gcd(m1, m2)
		 */
		if (child->modulus > 0 &&
			(child->remainder - remainder) % gcd(child->modulus, modulus) == 0)
			return false;
	}
	action = palloc0(sizeof(PartmgrAction));
	action->kind = PARTMGR_ACTION_CREATE_CHILD;
	action->schema = plan->set->parent_schema;
	action->name = partmgr_hash_child_name(plan->set, modulus, remainder);
	action->modulus = modulus;
	action->remainder = remainder;
	action->lower = remainder;
	action->upper = (PartmgrPoint) remainder + 1;
	check_name_free(plan, action->name, action);
	plan->actions = lappend(plan->actions, action);
	plan->ncreated++;
	return true;
}

/*
 * partmgr_action_name
 *		What an action does, in words, for the maintenance log.
 */
const char *
partmgr_action_name(const PartmgrAction *action)
{
	switch (action->kind)
	{
		case PARTMGR_ACTION_CREATE_CHILD:
			return action->unattached ? "create unattached partition" : "create partition";
		case PARTMGR_ACTION_CREATE_DEFAULT:
			return "create default partition";
		case PARTMGR_ACTION_ATTACH_CHILD:
			return "attach partition";
		case PARTMGR_ACTION_RETIRE_CHILD:
			if (action->retire.archive != NULL)
				return "archive partition";
			if (action->retire.schema != NULL)
				return "detach partition and move it";
			if (action->retire.rename_to != NULL)
				return "detach partition and rename it";
			return action->retire.keep_table ? "detach partition" : "drop partition";
		case PARTMGR_ACTION_FINALIZE_DETACH:
			return "finish detaching partition";
		case PARTMGR_ACTION_MOVE_ROWS:
		case PARTMGR_ACTION_FILL_STAGED:
			return "move rows";
		case PARTMGR_ACTION_ADD_CONSTRAINTS:
			return "add constraints";
		case PARTMGR_ACTION_VALIDATE_CONSTRAINT:
			return "validate constraint";
		case PARTMGR_ACTION_DROP_CONSTRAINTS:
			return "drop constraints";
		case PARTMGR_ACTION_ALTER_CHILD:
			return "alter partition";
		case PARTMGR_ACTION_UNIQUE_CLEANUP:
			return "remove global unique entries";
		case PARTMGR_ACTION_UNIQUE_CREATE:
			return "create global unique constraint";
		case PARTMGR_ACTION_UNIQUE_DROP:
			return "drop global unique constraint";
		case PARTMGR_ACTION_ANALYZE:
			return "analyze";
		case PARTMGR_ACTION_RESHAPE_PREPARE:
			return "prepare reshape";
		case PARTMGR_ACTION_RESHAPE_TARGET:
			return "create new partition";
		case PARTMGR_ACTION_RESHAPE_CAPTURE:
			return "capture changes";
		case PARTMGR_ACTION_RESHAPE_COPY:
			return "copy rows";
		case PARTMGR_ACTION_RESHAPE_REPLAY:
			return "apply captured changes";
		case PARTMGR_ACTION_RESHAPE_RESTART:
			return "copy again";
		case PARTMGR_ACTION_RESHAPE_FINISH:
			return "finish new partition";
		case PARTMGR_ACTION_RESHAPE_EXCLUDE:
			return "exclude range from default";
		case PARTMGR_ACTION_RESHAPE_SWAP:
			return "swap partitions";
		case PARTMGR_ACTION_RESHAPE_CANCEL:
			return "cancel reshape";
		case PARTMGR_ACTION_RESHAPE_DROP_OLD:
			return "drop old partitions";
		case PARTMGR_ACTION_REGISTER_MOVE:
			return "register move";
	}
	return NULL;				/* keep compiler quiet */
}

/*
 * partmgr_plan_add_reshape
 *		Append a step of a reshape: kind on the table schema.name (what the
 *		log names), for the index-th new or old child (see PartmgrAction).
 *		Returns the action, for the caller to fill in the rest.
 */
PartmgrAction *
partmgr_plan_add_reshape(PartmgrPlan *plan, PartmgrActionKind kind,
						 const PartmgrReshapeTables *reshape,
						 const char *schema,
						 const char *name, int index)
{
	PartmgrAction *action = palloc0(sizeof(PartmgrAction));

	action->kind = kind;
	action->reshape = reshape;
	action->schema = (char *) schema;
	action->name = (char *) name;
	action->index = index;
	plan->actions = lappend(plan->actions, action);
	return action;
}

/*
 * reshape_bounds
 *		The bounds a step of a reshape works on, in words: a new child's, the
 *		blocks a copy takes, the old and new children of a swap.
 */
static char *
reshape_bounds(const PartmgrPlan *plan, const PartmgrAction *action)
{
	const PartmgrReshapeTables *r = action->reshape;
	const PartmgrAxis *axis = &plan->set->axis;
	StringInfoData buf;

	switch (action->kind)
	{
		case PARTMGR_ACTION_RESHAPE_TARGET:
		case PARTMGR_ACTION_RESHAPE_FINISH:
			if (r->moduli != NULL)
				return psprintf("for values with (modulus %d, remainder %d), to be %s",
								r->moduli[action->index],
								r->remainders[action->index],
								quote_identifier(r->final_names[action->index]));
			return psprintf("for values from %s to %s, to be %s",
							partmgr_point_literal(axis,
												  r->lowers[action->index]),
							partmgr_point_literal(axis,
												  r->uppers[action->index]),
							quote_identifier(r->final_names[action->index]));
		case PARTMGR_ACTION_RESHAPE_COPY:
			return psprintf("blocks " INT64_FORMAT " to " INT64_FORMAT " of %s",
							action->first_block, action->end_block - 1,
							quote_qualified_identifier(r->source_schemas[action->index],
													   r->source_names[action->index]));
		case PARTMGR_ACTION_RESHAPE_DROP_OLD:
			initStringInfo(&buf);
			for (int i = 0; i < r->nsources; i++)
				appendStringInfo(&buf, "%s%s", i > 0 ? ", " : "",
								 quote_qualified_identifier(r->source_schemas[i],
															r->old_names[i]));
			return buf.data;
		case PARTMGR_ACTION_RESHAPE_SWAP:
		case PARTMGR_ACTION_RESHAPE_PREPARE:
		case PARTMGR_ACTION_RESHAPE_CANCEL:
			initStringInfo(&buf);
			for (int i = 0; i < r->nsources; i++)
				appendStringInfo(&buf, "%s%s", i > 0 ? ", " : "",
								 quote_qualified_identifier(r->source_schemas[i],
															r->source_names[i]));
			appendStringInfoString(&buf,
								   action->kind == PARTMGR_ACTION_RESHAPE_CANCEL ?
								   " stay instead of " : " replaced by ");
			for (int i = 0; i < r->ntargets; i++)
				appendStringInfo(&buf, "%s%s", i > 0 ? ", " : "",
								 quote_identifier(r->final_names[i]));
			return buf.data;
		default:
			return NULL;
	}
}

/*
 * partmgr_action_bounds
 *		"for values from .. to .." of an action that has bounds, else NULL.
 */
char *
partmgr_action_bounds(const PartmgrPlan *plan, const PartmgrAction *action)
{
	const PartmgrAxis *axis = &plan->set->axis;

	if (action->reshape != NULL)
		return reshape_bounds(plan, action);
	if (action->kind == PARTMGR_ACTION_REGISTER_MOVE)
		return action->tier != NULL ?
			psprintf("into tablespace %s (tier %s)",
					 quote_identifier(action->move->tablespace),
					 quote_identifier(action->tier)) :
			psprintf("into tablespace %s, the parent's: it has reached no tier",
					 quote_identifier(action->move->tablespace));
	if (action->kind == PARTMGR_ACTION_FILL_STAGED)
	{
		int			n = 0;
		ListCell   *lc;

		foreach(lc, plan->actions)
			n += ((PartmgrAction *) lfirst(lc))->staged;
		return psprintf("into %d new partitions, values from %s to %s", n,
						partmgr_point_display(axis, action->lower),
						partmgr_point_display(axis, action->upper));
	}
	if (action->kind == PARTMGR_ACTION_ADD_CONSTRAINTS ||
		action->kind == PARTMGR_ACTION_VALIDATE_CONSTRAINT ||
		action->kind == PARTMGR_ACTION_DROP_CONSTRAINTS)
	{
		StringInfoData buf;
		ListCell   *name;
		ListCell   *check;

		initStringInfo(&buf);
		if (action->kind == PARTMGR_ACTION_ADD_CONSTRAINTS)
			forboth(name, action->constraints, check, action->checks)
				appendStringInfo(&buf, "%s%s CHECK (%s)", buf.len > 0 ? ", " :
								 "",
								 quote_identifier((char *) lfirst(name)),
								 (char *) lfirst(check));
		else
			foreach(name, action->constraints)
				appendStringInfo(&buf, "%s%s", buf.len > 0 ? ", " : "",
								 quote_identifier((char *) lfirst(name)));
		return buf.data;
	}
	if (action->kind != PARTMGR_ACTION_CREATE_CHILD &&
		action->kind != PARTMGR_ACTION_RETIRE_CHILD &&
		action->kind != PARTMGR_ACTION_ATTACH_CHILD &&
		action->kind != PARTMGR_ACTION_MOVE_ROWS)
		return NULL;
	if (action->kind == PARTMGR_ACTION_MOVE_ROWS)
		return psprintf("into %s, values from %s to %s",
						quote_qualified_identifier(action->to_schema,
												   action->to_name),
						partmgr_point_display(axis, action->lower),
						partmgr_point_display(axis, action->upper));
	if (action->modulus > 0)
		return psprintf("for values with (modulus %d, remainder %d)",
						action->modulus,
						action->remainder);
	if (action->kind == PARTMGR_ACTION_RETIRE_CHILD &&
		action->retire.archive != NULL)
		return psprintf("for values from %s to %s, %s %s%s%s",
						partmgr_point_literal(axis, action->lower),
						partmgr_point_literal(axis, action->upper),
						action->retire.archive_as != NULL ?
						"attached to" : "its rows into",
						partmgr_key_display(action->retire.archive->key),
						action->retire.archive_as != NULL ? " as " : "",
						action->retire.archive_as != NULL ?
						quote_identifier(action->retire.archive_as) : "");
	return psprintf("for values from %s to %s",
					partmgr_point_literal(axis, action->lower),
					partmgr_point_literal(axis, action->upper));
}

static int
compare_children(const void *a, const void *b)
{
	PartmgrPoint x = ((const PartmgrChild *) a)->lower;
	PartmgrPoint y = ((const PartmgrChild *) b)->lower;

	return x < y ? -1 : x > y;
}

/*
 * partmgr_tree_after
 *		The children of a set as they will be once a plan has run: the
 *		children it creates added (with no OID yet: they hold no rows), those
 *		it retires removed.  The next step of a dry run is planned from it,
 *		as the run plans it from the children it finds then; derived
 *		constraints are planned from the children retention leaves, before
 *		retention runs.
 */
PartmgrTree *
partmgr_tree_after(const PartmgrTree *tree, const PartmgrPlan *plan)
{
	PartmgrTree *after = palloc(sizeof(PartmgrTree));
	int			n = 0;
	ListCell   *lc;

	*after = *tree;
	after->children = palloc(sizeof(PartmgrChild) * (tree->nchildren + list_length(plan->actions) + 1));
	for (int i = 0; i < tree->nchildren; i++)
	{
		bool		retired = false;

		foreach(lc, plan->actions)
		{
			const PartmgrAction *action = (const PartmgrAction *) lfirst(lc);

			if (action->kind == PARTMGR_ACTION_RETIRE_CHILD &&
				strcmp(action->schema, tree->children[i].schema) == 0 &&
				strcmp(action->name, tree->children[i].name) == 0)
				retired = true;
		}
		if (!retired)
			after->children[n++] = tree->children[i];
	}
	foreach(lc, plan->actions)
	{
		const PartmgrAction *action = (const PartmgrAction *) lfirst(lc);
		PartmgrChild *child;

		if (action->kind != PARTMGR_ACTION_CREATE_CHILD)
			continue;
		child = &after->children[n++];
		memset(child, 0, sizeof(*child));
		child->schema = action->schema;
		child->name = action->name;
		child->relkind = RELKIND_RELATION;
		child->lower = action->lower;
		child->upper = action->upper;
		child->modulus = action->modulus;
		child->remainder = action->remainder;
	}
	after->nchildren = n;
	qsort(after->children, n, sizeof(PartmgrChild), compare_children);
	return after;
}
