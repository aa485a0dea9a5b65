/*-------------------------------------------------------------------------
 *
 * api_reshape.c
 *	  change_interval(): a live set's children follow another interval from
 *	  the end of its newest child on.
 *
 * The existing children keep their bounds and names.  What was in force
 * below that bound is kept in partmgr.part_config_interval (config.c), and
 * every computation of a child's range or name goes by the era of its
 * lower bound (bounds.c): premake, gap fill, the children partition_data
 * makes for rows, show_partition_name, show_partition_info.  The new
 * interval's grid starts at that bound, its first child running to the
 * next point create_parent's alignment gives (so daily children changed to
 * monthly ones on the 5th get one child to the 1st of the next month,
 * then whole months).  Nothing is created here: the next maintenance run,
 * or plan_maintenance() as a dry run, shows the new children.
 *
 * Names never collide: a set whose suffix format was its old interval's
 * default gets the new interval's default, and so does one whose own
 * format would give two of the next children one name; a name taken by an
 * existing table is an error, before anything changes.
 *
 * Locks: the set's advisory lock without waiting (55P03 while maintenance
 * runs on it); no table lock, as no table changes.  The caller's
 * transaction holds the configuration change.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api_reshape.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "api.h"
#include "bounds.h"
#include "catalog.h"
#include "config.h"
#include "log.h"
#include "plan.h"

PG_FUNCTION_INFO_V1(pg_partmgr_change_interval);

/* how many of the next children the names of a new format are tried on */
#define NAMES_CHECKED_MIN	4

/*
 * with_new_era
 *		A copy of set whose current era ends at era_end, followed by one of
 *		step (named with datetime_string): the set as it will be.
 */
static PartmgrSet *
with_new_era(const PartmgrSet *set, PartmgrPoint era_end, const PartmgrStep *step,
			 const char *interval_text, const char *datetime_string)
{
	PartmgrSet *trial = palloc(sizeof(PartmgrSet));
	PartmgrEra *eras = palloc0(sizeof(PartmgrEra) * (set->neras + 1));
	PartmgrEra *last;
	PartmgrEra *next;

	*trial = *set;
	memcpy(eras, set->eras, sizeof(PartmgrEra) * set->neras);
	last = &eras[set->neras - 1];
	next = &eras[set->neras];
	if (last->start == era_end)
	{
		/* changed again before any child of the last interval was made */
		next = last;
		trial->neras = set->neras;
	}
	else
	{
		last->end = era_end;
		trial->neras = set->neras + 1;
	}
	next->start = era_end;
	next->end = PARTMGR_POINT_MAX;
	next->end_text = NULL;
	next->step = *step;
	next->interval_text = (char *) interval_text;
	next->datetime_string = (char *) datetime_string;
	next->date_trunc_interval = NULL;
	trial->eras = eras;
	trial->step = *step;
	trial->interval_text = (char *) interval_text;
	trial->datetime_string = (char *) datetime_string;
	trial->date_trunc_interval = NULL;
	return trial;
}

/*
 * names_clash
 *		The first of the next children of trial (from era_end on, at least
 *		NAMES_CHECKED_MIN and premake + 1 of them) whose name another of
 *		them has too, or a table of the schema has; NULL when none.  With
 *		*taken true when the name is an existing table's.
 */
static char *
names_clash(const PartmgrSet *trial, PartmgrPoint era_end, bool *taken)
{
	Oid			nspid = get_namespace_oid(trial->parent_schema, false);
	int			count = Max(NAMES_CHECKED_MIN, trial->premake + 1);
	List	   *names = NIL;
	PartmgrPoint lower = era_end;

	for (int i = 0; i < count && lower != PARTMGR_POINT_MAX; i++)
	{
		char	   *name = partmgr_child_name(trial, lower);
		ListCell   *lc;

		CHECK_FOR_INTERRUPTS();
		*taken = OidIsValid(get_relname_relid(name, nspid));
		if (*taken)
			return name;
		foreach(lc, names)
		{
			if (strcmp((char *) lfirst(lc), name) == 0)
				return name;
		}
		names = lappend(names, name);
		if (!partmgr_point_fits_type(&trial->axis, lower))
			break;
		lower = partmgr_slot_upper(trial, lower);
	}
	return NULL;
}

/*
 * check_may_change
 *		What rules a change of interval out for a set: a list set (one value
 *		per child), an undo or a partition_data_async in progress (both
 *		work on the old grid), a top child that takes every higher value.
 */
static void
check_may_change(const PartmgrSet *set, const PartmgrTree *tree)
{
	if (set->strategy == PARTITION_STRATEGY_LIST)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the interval of list set \"%s\" cannot change", set->key),
				 errdetail("Each child of a list set holds one value.")));
	if (set->undo_in_progress)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("partition set \"%s\" is being undone", set->key),
				 errhint("Finish undo_partition() first.")));
	if (set->async_in_progress != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("partition_data_async() is filling a child of \"%s\"", set->key),
				 errdetail("The child for values from %s on is not attached yet.",
						   set->async_in_progress),
				 errhint("Call partition_data_async() until it finishes, then change the interval.")));
	if (tree->nchildren > 0 &&
		tree->children[tree->nchildren - 1].upper == PARTMGR_POINT_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("no new child of \"%s\" can follow another interval", set->key),
				 errdetail("Its child \"%s\" takes every value up to MAXVALUE.",
						   quote_qualified_identifier(tree->children[tree->nchildren - 1].schema,
													  tree->children[tree->nchildren - 1].name))));
}

/*
 * same_step
 *		Whether two intervals of one set are the same.
 */
static bool
same_step(const PartmgrStep *a, const PartmgrStep *b)
{
	if (a->kind == PARTMGR_KEY_ID)
		return a->id == b->id;
	return a->time.month == b->time.month && a->time.day == b->time.day &&
		a->time.time == b->time.time;
}

/*
 * pg_partmgr_change_interval
 *		change_interval(p_parent_table, p_new_interval): see the file header.
 *		Returns the bound the new interval starts at (NULL when it already
 *		was the interval; for a set with no children, its lowest child's
 *		bound is the new interval's, and NULL is returned too).
 */
Datum
pg_partmgr_change_interval(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	char	   *interval = partmgr_text_arg(fcinfo, 1, "p_new_interval");
	TimestampTz started = GetCurrentTimestamp();
	MemoryContext caller = CurrentMemoryContext;
	PartmgrSet *set;
	PartmgrTree *tree;
	PartmgrStep step;
	PartmgrErrorContext argctx;
	PartmgrRights rights;
	PartmgrSubSpec *sub;
	PartmgrPoint era_end = PARTMGR_POINT_MIN;
	const char *old_default;
	const char *format;
	char	   *new_text;
	char	   *clash;
	char	   *end_text = NULL;
	char	   *result = NULL;
	bool		taken = false;

	SPI_connect();
	set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, &rights);
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	tree = partmgr_read_tree(set);
	check_may_change(set, tree);

	partmgr_context_push(&argctx, "argument %s", "p_new_interval");
	partmgr_step_parse(&set->axis, interval, PARTMGR_STEP_PARTITION, &step);
	partmgr_context_pop(&argctx);
	if (step.kind == PARTMGR_KEY_ID && step.id < 2)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partition interval of a range id set must be at least 2"),
				 errhint("Use list partitioning for one value per child.")));
	new_text = partmgr_step_text(&step);
	if (same_step(&step, &set->step))
	{
		ereport(NOTICE,
				(errmsg("the interval of \"%s\" is already %s", set->key, set->interval_text)));
		partmgr_rights_leave(&rights);
		SPI_finish();
		PG_RETURN_NULL();
	}

	/* the sub-sets of new children must still fit in them */
	sub = partmgr_sub_spec_load(set->key);
	if (sub != NULL)
	{
		PartmgrSet	changed = *set;

		changed.step = step;
		changed.interval_text = new_text;
		partmgr_check_sub_args(&changed, &sub->args);
	}

	/* the suffix format: see the file header */
	format = set->datetime_string;
	if (set->axis.kind == PARTMGR_KEY_TIME)
	{
		old_default = partmgr_default_datetime_string(&set->step);
		if (format == NULL || strcmp(format, old_default) == 0)
			format = partmgr_default_datetime_string(&step);
	}

	if (tree->nchildren > 0)
	{
		era_end = tree->children[tree->nchildren - 1].upper;
		/* the newest children of the current interval were taken out */
		era_end = Max(era_end, set->eras[set->neras - 1].start);
		clash = names_clash(with_new_era(set, era_end, &step, new_text, format), era_end,
							&taken);
		if (clash != NULL && !taken && set->axis.kind == PARTMGR_KEY_TIME &&
			strcmp(format, partmgr_default_datetime_string(&step)) != 0)
		{
			/* the set's own format does not tell the new children apart */
			format = partmgr_default_datetime_string(&step);
			clash = names_clash(with_new_era(set, era_end, &step, new_text, format),
								era_end, &taken);
		}
		if (clash != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_TABLE),
					 taken ?
					 errmsg("relation \"%s\" already exists",
							quote_qualified_identifier(set->parent_schema, clash)) :
					 errmsg("two children of \"%s\" would both be named \"%s\"", set->key, clash),
					 errdetail("pg_partmgr needs the name for a child of \"%s\" with interval %s.",
							   set->key, new_text),
					 taken ?
					 errhint("Rename or drop that table first.") :
					 errhint("Set part_config.datetime_string to a format precise enough for the interval.")));
		end_text = partmgr_point_display(&set->axis, era_end);
	}
	partmgr_config_change_interval(set, end_text, new_text, format);
	partmgr_rights_leave(&rights);

	partmgr_log_action(set->key, "change_interval", "change interval", set->key,
					   end_text != NULL ?
					   psprintf("from %s on: %s instead of %s", end_text, new_text,
								set->interval_text) :
					   psprintf("%s instead of %s (no children yet)", new_text,
								set->interval_text),
					   started, PARTMGR_OUTCOME_DONE, NULL);
	if (end_text != NULL)
	{
		ereport(NOTICE,
				(errmsg("children of \"%s\" from %s on follow interval %s",
						set->key, end_text, new_text)));
		MemoryContextSwitchTo(caller);
		result = pstrdup(end_text);
	}
	SPI_finish();
	if (result == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(result));
}
