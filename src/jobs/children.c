/*-------------------------------------------------------------------------
 *
 * children.c
 *	  Which children a partition set needs: the initial children of
 *	  create_parent, premake, gap fill, explicit bounds.
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
 * leaves it alone (pg_partman).  No child of a time set is made that the
 * set's retention would retire at once (pg_partman 5.2): premake after a
 * long pause starts at the retention horizon, and neither create_parent's
 * initial children (made again for a set that lost them all) nor gap fill
 * make a child that has expired.  Children made for rows (partition_data)
 * or asked for by their bounds (create_partition_time) are made whatever
 * their age: the rows need a home, and retention then treats them as it
 * treats any child.
 *
 * Each function returns a plan and changes nothing.  Locks: reading which
 * children hold rows takes ACCESS SHARE on them, bounded (locks.c), inside
 * the scope of the owner's rights the caller has entered.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/children.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/attnum.h"
#include "access/xact.h"
#include "common/int.h"
#include "nodes/pg_list.h"

#include "bounds.h"
#include "children.h"
#include "contents.h"
#include "retention.h"

/*
 * grid_lower_from
 *		The lower bound of the slot holding value on the grid through
 *		anchor: a whole number of intervals (of value's era) away from it, or
 *		for a value in a later era, on that era's grid.
 */
static PartmgrPoint
grid_lower_from(const PartmgrSet *set, PartmgrPoint anchor, PartmgrPoint value)
{
	PartmgrEra	era;
	PartmgrPoint lower;

	if (partmgr_era_slot_lower(set, value, &lower))
		return lower;
	era = partmgr_era_at(set, value);
	return partmgr_point_add(&set->axis, &era.step, anchor,
							 (int64) floor(partmgr_steps_between(&set->axis,
																 &era.step,
																 anchor,
																 value)));
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
	PartmgrPoint lower;

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
	if (anchor != NULL && value < anchor->upper)
		return anchor->lower;
	if (partmgr_era_slot_lower(set, value, &lower))
	{
		/* on a later interval's grid, but not into the child below */
		if (anchor != NULL && anchor->upper > lower)
			lower = anchor->upper;
		return lower;
	}
	if (anchor == NULL)
		anchor = &tree->children[0];
	if (anchor->lower == PARTMGR_POINT_MIN)
		return partmgr_point_align(&set->axis, &set->step,
								   set->date_trunc_interval, value);
	return grid_lower_from(set, anchor->lower, value);
}

/*
 * default_slot
 *		Where the rows of the default partition put premake's current point
 *		(the slot of its largest value), when they count: false when
 *		ignore_default_data is set, there is no default partition, it holds
 *		no rows, or only rows at infinity or -infinity (no child to premake
 *		up to).
 */
static bool
default_slot(const PartmgrSet *set, const PartmgrTree *tree, PartmgrPoint *slot)
{
	PartmgrPoint default_max;

	if (set->ignore_default_data || !OidIsValid(tree->default_oid) ||
		!partmgr_max_control(set, tree->default_schema, tree->default_name,
							 true,
							 &default_max))
		return false;
	if (set->axis.kind == PARTMGR_KEY_TIME &&
		(default_max == PARTMGR_POINT_MIN || default_max == PARTMGR_POINT_MAX))
		return false;
	*slot = partmgr_slot_lower(set, tree, default_max);
	return true;
}

/*
 * current_point
 *		The point premake counts from (see the file header), up to count_to;
 *		false when premake has nothing to add: the set has nothing to count
 *		from (no data, and not an infinite time set), or premake intervals
 *		certainly lie between any point it could count from and count_to.
 *
 *		The children are looked at from the highest down, and each empty one
 *		lowers the highest point premake could count from: the lower bound of
 *		the next child (or now, for an infinite time set, or the slot of the
 *		default partition's rows, when higher).  Once that is premake
 *		intervals below count_to the answer is known, and the child holding
 *		the current point is not read at all: an idle set costs a look at its
 *		empty premade children only.
 */
static bool
current_point(const PartmgrSet *set, const PartmgrTree *tree, PartmgrPoint now,
			  PartmgrPoint count_to, PartmgrPoint *current)
{
	bool		infinite = (set->axis.kind == PARTMGR_KEY_TIME &&
							set->infinite_time_partitions);
	PartmgrPoint from_default = 0;
	bool		have_default = default_slot(set, tree, &from_default);
	bool		found = false;

	for (int i = tree->nchildren - 1; i >= 0 && !found; i--)
	{
		const PartmgrChild *child = &tree->children[i];
		PartmgrPoint highest = child->lower;
		PartmgrPoint newest;

		/* the highest point left, with every child above this one empty */
		if (infinite && now > highest)
			highest = now;
		if (have_default && from_default > highest)
			highest = from_default;
		if (round(partmgr_steps_between(&set->axis, &set->step, highest,
										count_to)) >=
			set->premake)
			return false;

		if (child->detach_pending || !partmgr_child_has_rows(child))
			continue;
		found = true;
		*current = child->lower;
		if (!infinite || child->lower > now)
			continue;
		/* now() counts when the newest row is older than it */
		if (child->upper <= now ||
			(partmgr_max_control(set, child->schema, child->name, true,
								 &newest) &&
			 newest < now))
			*current = now;
	}
	if (!found && infinite)
	{
		*current = now;
		found = true;
	}
	if (have_default && (!found || from_default > *current))
	{
		*current = from_default;
		found = true;
	}
	return found;
}

/*
 * offset_align
 *		The base of an id set's first children, as pg_partman 5.3 computes
 *		it: the multiple of the interval at or below point, moved up by
 *		offset.  With an offset the child that begins there can lie above
 *		point: rows below it go to the default partition.
 */
static PartmgrPoint
offset_align(const PartmgrSet *set, PartmgrPoint point, int64 offset)
{
	PartmgrPoint base = partmgr_point_align(&set->axis, &set->step, NULL,
											point);
	PartmgrPoint shifted;

	if (pg_add_s64_overflow(base, offset, &shifted))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("p_offset_id " INT64_FORMAT " puts the first child of \"%s\" out of range",
						offset, set->key)));
	return shifted;
}

/*
 * add_initial_slots
 *		The ranges create_parent makes, as pg_partman 5 does.  Time sets:
 *		from the start (or premake intervals before now), aligned, up to
 *		premake intervals after now.  Id sets: the child holding the start (or
 *		the largest id in the set, or 0) and premake children above it, plus up
 *		to premake positive children below it when no start was given; their
 *		bounds are offset from the multiples of the interval by offset
 *		(p_offset_id, pg_partman 5.3).
 */
static void
add_initial_slots(PartmgrPlan *plan, bool have_start, PartmgrPoint start,
				  int64 offset, TimestampTz now)
{
	PartmgrSet *set = plan->set;
	const PartmgrAxis *axis = &set->axis;
	const PartmgrStep *step = &set->step;
	PartmgrPoint base;

	if (axis->kind == PARTMGR_KEY_TIME)
	{
		PartmgrPoint now_point = partmgr_point_now(axis, now);
		PartmgrPoint end = partmgr_point_add(axis, step, now_point,
											 set->premake);
		PartmgrPoint horizon = 0;
		bool		retained = partmgr_creation_horizon(set, now, &horizon);

		if (!have_start)
			start = partmgr_point_add(axis, step, now_point, -set->premake);
		base = partmgr_point_align(axis, step, set->date_trunc_interval, start);
		for (int64 k = 0;; k++)
		{
			PartmgrPoint lower = partmgr_point_add(axis, step, base, k);
			PartmgrPoint upper = partmgr_point_add(axis, step, base, k + 1);
			PartmgrSlotResult added;

			if (k > 0 && lower >= end)
				break;
			/* retention would retire it at once */
			if (retained && partmgr_time_child_expired(upper, horizon))
				continue;
			added = partmgr_plan_add_child(plan, lower, upper);
			if (added == PARTMGR_SLOT_OUT_OF_RANGE ||
				added == PARTMGR_SLOT_LIMIT)
				break;
		}
		return;
	}

	if (!have_start &&
		!partmgr_max_control(set, set->parent_schema, set->parent_name, false,
							 &start))
		start = 0;
	base = offset_align(set, start, offset);
	for (int64 k = have_start ? 0 : -set->premake; k <= set->premake; k++)
	{
		PartmgrPoint lower = partmgr_point_add(axis, step, base, k);
		PartmgrSlotResult added;

		/* pg_partman makes children below the base only for positive ids */
		if (k < 0 && lower <= 0)
			continue;
		added = partmgr_plan_add_child(plan, lower,
									   partmgr_point_add(axis, step, base,
														 k + 1));
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
					 PartmgrPoint start, int64 offset, bool with_default,
					 TimestampTz now)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);

	add_initial_slots(plan, have_start, start, offset, now);
	if (set->has_limits && plan->actions == NIL && tree->nchildren == 0)
	{
		/*
		 * A sub-set whose first children would all lie outside the range its
		 * table covers: start at the bottom of that range instead, as
		 * pg_partman does
		 */
		PartmgrPoint lower = partmgr_point_align(&set->axis, &set->step,
												 set->date_trunc_interval,
												 set->limit_lower);

		(void) partmgr_plan_add_child(plan, lower,
									  partmgr_point_add(&set->axis, &set->step,
														lower, 1));
	}
	if (with_default && !OidIsValid(tree->default_oid))
		partmgr_plan_add_default(plan);
	return plan;
}

/*
 * first_kept_slot
 *		The lower bound of the first child on the grid from lower whose upper
 *		bound reaches the horizon (that retention keeps): lower itself when
 *		its child does.
 */
static PartmgrPoint
first_kept_slot(const PartmgrSet *set, PartmgrPoint lower, PartmgrPoint horizon)
{
	PartmgrPoint slot;

	if (!partmgr_time_child_expired(partmgr_slot_upper(set, lower), horizon))
		return lower;
	/* the child holding the horizon, or the one ending there */
	slot = grid_lower_from(set, lower, horizon);
	if (slot == horizon)
		slot = grid_lower_from(set, lower, horizon - 1);
	return slot;
}

/*
 * partmgr_plan_premake
 *		Plan the children that keep premake intervals ready ahead of the
 *		current point (see the file header), at most limit of them (0: no
 *		limit; the plan says when it left some out).  A set that has lost all
 *		its children gets create_parent's initial children again.  A time
 *		set with retention whose highest child has expired (maintenance
 *		missed for longer than the retention) counts from the first child
 *		retention would keep, as if the children before it existed: with
 *		infinite_time_partitions premake starts there, without it a set
 *		whose newest rows are that old gets nothing (pg_partman 5.2).
 */
PartmgrPlan *
partmgr_plan_premake(PartmgrSet *set, PartmgrTree *tree, TimestampTz now,
					 int limit)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);
	const PartmgrAxis *axis = &set->axis;
	const PartmgrStep *step = &set->step;
	const PartmgrChild *last;
	PartmgrPoint now_point = 0;
	PartmgrPoint current = 0;
	PartmgrPoint lower;
	PartmgrPoint count_to;
	double		premade;

	plan->limit = limit;
	if (tree->nchildren == 0)
	{
		add_initial_slots(plan, false, 0, 0, now);
		return plan;
	}

	last = &tree->children[tree->nchildren - 1];
	if (last->upper == PARTMGR_POINT_MAX)
		return plan;			/* the top child takes every higher value */

	lower = last->upper;
	count_to = last->lower;
	if (axis->kind == PARTMGR_KEY_TIME)
	{
		PartmgrPoint horizon;

		now_point = partmgr_point_now(axis, now);
		if (partmgr_creation_horizon(set, now, &horizon))
			lower = first_kept_slot(set, last->upper, horizon);
		/* counted as if the expired children before it existed */
		if (lower != last->upper)
			count_to = grid_lower_from(set, last->upper, lower - 1);
	}
	if (!current_point(set, tree, now_point, count_to, &current))
		return plan;

	premade = round(partmgr_steps_between(axis, step, current, count_to));
	while (premade < set->premake)
	{
		PartmgrPoint upper = partmgr_slot_upper(set, lower);

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
 *		next child's lower bound so nothing overlaps.  In a time set with
 *		retention, none that retention would retire at once (as of the
 *		transaction's start).
 */
PartmgrPlan *
partmgr_plan_gap_fill(PartmgrSet *set, PartmgrTree *tree)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);
	PartmgrPoint horizon = 0;
	bool		retained = partmgr_creation_horizon(set,
													GetCurrentTransactionStartTimestamp(),
													&horizon);

	for (int i = 1; i < tree->nchildren; i++)
	{
		PartmgrPoint lower = tree->children[i - 1].upper;
		PartmgrPoint next = tree->children[i].lower;

		while (lower < next)
		{
			PartmgrPoint upper = partmgr_slot_upper(set, lower);

			if (upper > next)
				upper = next;
			if (retained && partmgr_time_child_expired(upper, horizon))
			{
				lower = upper;
				continue;
			}
			if (partmgr_plan_add_child(plan, lower,
									   upper) == PARTMGR_SLOT_OUT_OF_RANGE)
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
									  partmgr_slot_upper(set, lowers[i]));
	return plan;
}

/*
 * partmgr_plan_hash_initial
 *		The children of a new hash set: one per remainder of its modulus
 *		(step.id), those missing.
 */
PartmgrPlan *
partmgr_plan_hash_initial(PartmgrSet *set, PartmgrTree *tree)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);

	for (int r = 0; r < (int) set->step.id; r++)
		(void) partmgr_plan_add_hash_child(plan, (int) set->step.id, r);
	return plan;
}
