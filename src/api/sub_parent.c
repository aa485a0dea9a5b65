/*-------------------------------------------------------------------------
 *
 * sub_parent.c
 *	  Sub-partitioning: create_sub_parent() (and its pg_partman 5.4 name
 *	  create_sub_partition()), stop_sub_partition() and
 *	  check_subpartition_limits().
 *
 * A sub-partitioned set has a row in partmgr.part_config_sub that says how
 * each of its children is partitioned in turn.  Every child made from then
 * on is created partitioned and registered as a set of its own (see
 * execute.c and setup.c); create_sub_parent() recreates the children that
 * exist.  A child that holds rows is not dropped, unlike pg_partman's: it
 * is detached and renamed, and a NOTICE names it, so that its rows can be
 * moved back with partition_data_*(p_source_table => ...).
 *
 * Locks: the set's advisory lock without waiting; then, to take the old
 * children out, the parent, its default partition and each child ACCESS
 * EXCLUSIVE, conditionally and bounded by pg_partmgr.lock_timeout (55P03
 * when not granted); then those each new child needs (execute.c).
 * Everything happens in the caller's transaction.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/sub_parent.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "api.h"
#include "bounds.h"
#include "catalog.h"
#include "citus.h"
#include "config.h"
#include "contents.h"
#include "statements.h"
#include "execute.h"
#include "locks.h"
#include "setup.h"

PG_FUNCTION_INFO_V1(pg_partmgr_create_sub_parent);
PG_FUNCTION_INFO_V1(pg_partmgr_stop_sub_partition);

/*
 * partmgr_check_sub_args
 *		What can be checked of the sub-sets' settings before any child is
 *		touched (each sub-set's registration checks the rest, and so does it
 *		for a set that has no child yet): create_parent's checks that need
 *		no table, the control column's type and the interval.  Then
 *		pg_partman's rule for a sub-set keyed like its parent set (both by
 *		time, or both by plain integers): its interval is smaller than the
 *		parent's, and not a week inside anything longer (weeks do not divide
 *		months or years).
 */
void
partmgr_check_sub_args(const PartmgrSet *set, const PartmgrCreateArgs *a)
{
	Oid			type = get_atttype(set->parent_oid,
								   get_attnum(set->parent_oid, a->control));
	PartmgrAxis axis;
	PartmgrStep step;
	PartmgrKeyKind kind;
	PartmgrErrorContext ctx;

	partmgr_check_create_args(a);
	if (strcmp(a->type, "hash") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value \"%s\" for p_type of a sub-set",
						a->type),
				 errhint("Sub-sets are 'range' or 'list' sets; hash sets are made by create_parent().")));
	if (a->encoder != NULL)
		kind = PARTMGR_KEY_TIME;
	else if (!partmgr_key_kind_for_type(type, &kind))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("control column \"%s\" has type %s, which pg_partmgr cannot partition by",
						a->control, format_type_be(type))));
	if (strcmp(a->epoch, "none") != 0)
		kind = PARTMGR_KEY_TIME;

	partmgr_axis_init(&axis, kind == PARTMGR_KEY_TIME ? TIMESTAMPTZOID : type,
					  a->zone);
	partmgr_context_push(&ctx, "argument %s", "p_interval");
	partmgr_step_parse(&axis, a->interval, PARTMGR_STEP_PARTITION, &step);
	partmgr_context_pop(&ctx);
	if (kind != set->axis.kind || strcmp(a->type, "list") == 0)
		return;
	if (kind == PARTMGR_KEY_ID ? step.id >= set->step.id :
		DatumGetInt32(DirectFunctionCall2(interval_cmp,
										  IntervalPGetDatum(&step.time),
										  IntervalPGetDatum((Interval *) &set->step.time))) >= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sub-partition interval \"%s\" is not smaller than the interval \"%s\" of \"%s\"",
						a->interval, set->interval_text, set->key)));
	if (kind == PARTMGR_KEY_TIME &&
		((step.time.month == 0 && step.time.day == 7 && step.time.time == 0 &&
		  (set->step.time.month > 0 || set->step.time.day > 7)) ||
		 (a->trunc_unit != NULL && pg_strcasecmp(a->trunc_unit, "week") == 0)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("weekly sub-partitions of \"%s\" are not supported",
						set->key),
				 errdetail("Weeks do not divide months or years: a week would straddle two children of the parent.")));
}

/*
 * plan_take_out
 *		Make room for the partitioned child that replaces a plain one: an
 *		empty child is to be detached and dropped; one that holds rows is to
 *		be detached and renamed <name>_presub (cut to fit), which must not
 *		exist.  Returns the name it is kept under, or NULL.  The caller
 *		holds the parent and its default partition.
 */
static char *
plan_take_out(PartmgrPlan *plan, const PartmgrChild *child)
{
	PartmgrRetirement retire;
	char	   *kept = NULL;

	memset(&retire, 0, sizeof(retire));
	partmgr_lock_relation(child->relid, AccessExclusiveLock);
	if (partmgr_child_has_rows(child))
	{
		kept = partmgr_name_with_suffix(child->name, "_presub");
		if (OidIsValid(get_relname_relid(kept,
										 get_namespace_oid(child->schema,
														   false))))
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_TABLE),
					 errmsg("cannot keep the rows of \"%s\" in \"%s\": that table exists",
							quote_qualified_identifier(child->schema,
													   child->name),
							quote_qualified_identifier(child->schema, kept)),
					 errhint("Rename or drop %s, then call create_sub_parent again.",
							 quote_qualified_identifier(child->schema, kept))));
		retire.keep_table = retire.keep_index = retire.keep_publication = true;
		retire.rename_to = kept;
	}
	(void) partmgr_plan_add_retire(plan, child, &retire);
	return kept;
}

/* The NOTICE that says where the rows of a child taken out are. */
static void
report_kept(const PartmgrSet *set, const PartmgrChild *child, const char *kept)
{
	ereport(NOTICE,
			(errmsg("rows of child \"%s\" of \"%s\" are kept in table \"%s\"",
					quote_qualified_identifier(child->schema, child->name),
					set->key,
					quote_qualified_identifier(child->schema, kept)),
			 errhint("Move them into the set with SELECT partmgr.%s(%s, p_source_table => %s), then drop that table.",
					 set->axis.kind == PARTMGR_KEY_TIME ?
					 "partition_data_time" : "partition_data_id",
					 quote_literal_cstr(set->key),
					 quote_literal_cstr(quote_qualified_identifier(child->schema, kept)))));
}

/*
 * pg_partmgr_create_sub_parent
 *		create_sub_parent(p_top_parent, p_control, p_interval, p_type,
 *		p_default_table, p_declarative_check, p_constraint_cols, p_premake,
 *		p_start_partition, p_epoch, p_jobmon, p_date_trunc_interval,
 *		p_control_not_null, p_time_encoder, p_time_decoder): see the file
 *		header.  Every child is recreated partitioned and registered with
 *		the given settings (p_start_partition as its start), the set's
 *		template table and time zone.  Returns true.
 */
Datum
pg_partmgr_create_sub_parent(PG_FUNCTION_ARGS)
{
	static const int required[] = {0, 1, 2, 3, 4, 7, 9, 10, 12};
	static const char *const names[] = {"p_top_parent", "p_control", "p_interval",
		"p_type", "p_default_table", "p_declarative_check", "p_constraint_cols",
		"p_premake", "p_start_partition", "p_epoch", "p_jobmon",
	"p_date_trunc_interval", "p_control_not_null"};
	char	   *top = partmgr_text_arg(fcinfo, 0, "p_top_parent");
	char	   *check = partmgr_text_arg_or_null(fcinfo, 5);
	PartmgrSubSpec spec;
	PartmgrCreateArgs *a = &spec.args;
	PartmgrSet *set;
	PartmgrTree *tree;
	PartmgrPlan *plan;
	PartmgrRights rights;
	PartmgrPlan *take_out;
	List	   *recreate = NIL;
	List	   *kept = NIL;
	ListCell   *lc;
	ListCell   *lk;

	for (int i = 0; i < lengthof(required); i++)
		partmgr_require_arg(fcinfo, required[i], names[required[i]]);
	if (check == NULL || pg_strcasecmp(check, "yes") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("create_sub_parent recreates every child of \"%s\" as a partitioned table",
						top),
				 errdetail("A table cannot be made partitioned once it exists. Children that hold rows are detached and kept under a new name; empty ones are dropped."),
				 errhint("Pass p_declarative_check => 'yes' to go ahead.")));

	memset(&spec, 0, sizeof(spec));
	a->control = partmgr_text_arg(fcinfo, 1, "p_control");
	a->interval = partmgr_text_arg(fcinfo, 2, "p_interval");
	a->type = partmgr_text_arg(fcinfo, 3, "p_type");
	a->with_default = PG_GETARG_BOOL(4);
	a->constraint_cols = partmgr_text_array_arg(fcinfo, 6);
	a->premake = PG_GETARG_INT32(7);
	a->start = partmgr_text_arg_or_null(fcinfo, 8);
	a->epoch = partmgr_text_arg(fcinfo, 9, "p_epoch");
	a->jobmon = PG_GETARG_BOOL(10);
	a->trunc_unit = partmgr_text_arg_or_null(fcinfo, 11);
	a->control_not_null = PG_GETARG_BOOL(12);
	/* stored schema-qualified, as the caller's search_path finds them */
	a->encoder = partmgr_function_name(partmgr_text_arg_or_null(fcinfo, 13),
									   TIMESTAMPTZOID);
	a->decoder = partmgr_function_name(partmgr_text_arg_or_null(fcinfo, 14),
									   TEXTOID);
	a->automatic = "on";

	/*
	 * part_config_sub's defaults for what create_sub_parent takes no
	 * parameter for
	 */
	spec.retention_keep_index = true;
	spec.retention_keep_table = true;
	spec.optimize_constraint = 30;
	spec.constraint_valid = true;
	spec.ignore_default_data = true;
	spec.maintenance_order_isnull = true;

	SPI_connect();
	set = partmgr_act_on_table(top, PARTMGR_RIGHTS_ACT, &rights);
	partmgr_citus_refuse(set->parent_oid, set->key, "create_sub_parent",
						 "Citus does not distribute multi-level partitioned tables: a child of a distributed table cannot be partitioned itself.");
	partmgr_check_not_hash(set, "a range or list set");
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	if (partmgr_sub_spec_load(set->key) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("partition set \"%s\" is sub-partitioned already",
						set->key),
				 errhint("Call partmgr.stop_sub_partition(%s) first to change how new children are partitioned.",
						 quote_literal_cstr(set->key))));
	if (get_attnum(set->parent_oid, a->control) == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of table \"%s\" does not exist",
						a->control, set->key)));
	a->zone = set->axis.zone_name;
	partmgr_check_sub_args(set, a);
	/* every sub-set uses the set's template (pg_partman) */
	a->template_table = set->template_table ? set->template_table : "false";
	partmgr_sub_spec_insert(set->key, &spec);

	/* take out the plain children, then create each range again, partitioned */
	tree = partmgr_read_tree(set);
	take_out = partmgr_plan_new(set, tree);
	for (int i = 0; i < tree->nchildren; i++)
	{
		PartmgrChild *child = &tree->children[i];

		if (child->relkind == RELKIND_PARTITIONED_TABLE)
		{
			PartmgrParentInfo info;
			PartmgrSubLimits within = {set->parent_oid,
			set->strategy == PARTITION_STRATEGY_RANGE, set->control, child->lower, child->upper};

			partmgr_read_parent(child->relid, &info);
			if (info.nkeys != 1 ||
				info.key_attnum != get_attnum(child->relid, a->control))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_TABLE_DEFINITION),
						 errmsg("child \"%s\" of \"%s\" is partitioned by another key than column \"%s\"",
								quote_qualified_identifier(child->schema,
														   child->name),
								set->key, a->control)));
			if (partmgr_config_load(partmgr_table_key(child->relid),
									true) == NULL)
				(void) partmgr_create_sub_set(&spec,
											  partmgr_table_key(child->relid),
											  a->start,
											  &within, "create_sub_parent");
			continue;
		}
		if (recreate == NIL)
		{
			partmgr_lock_relation(set->parent_oid, AccessExclusiveLock);
			if (OidIsValid(tree->default_oid))
				partmgr_lock_relation(tree->default_oid, AccessExclusiveLock);
		}
		kept = lappend(kept, plan_take_out(take_out, child));
		recreate = lappend(recreate, child);
	}
	(void) partmgr_execute_or_raise(take_out, "create_sub_parent", NULL);
	forboth(lc, recreate, lk, kept)
	{
		if (lfirst(lk) != NULL)
			report_kept(set, (PartmgrChild *) lfirst(lc), (char *) lfirst(lk));
	}

	plan = partmgr_plan_new(set, partmgr_read_tree(set));
	plan->sub_start = a->start;
	foreach(lc, recreate)
	{
		PartmgrChild *child = (PartmgrChild *) lfirst(lc);

		(void) partmgr_plan_add_child(plan, child->lower, child->upper);
	}
	partmgr_plan_tables(plan);
	(void) partmgr_execute_or_raise(plan, "create_sub_parent", NULL);
	partmgr_rights_leave(&rights);
	SPI_finish();
	PG_RETURN_BOOL(true);
}

/*
 * pg_partmgr_stop_sub_partition
 *		stop_sub_partition(p_parent_table, p_jobmon): new children of the
 *		set are no longer partitioned in turn; the sub-sets that exist stay
 *		as they are.  False when the set was not sub-partitioned.
 */
Datum
pg_partmgr_stop_sub_partition(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	PartmgrSet *set;
	bool		stopped;

	SPI_connect();
	set = partmgr_config_load_table(table);
	partmgr_check_may_act_on(set->parent_owner, set->key);
	stopped = partmgr_sub_spec_delete(set->key);
	SPI_finish();
	PG_RETURN_BOOL(stopped);
}

PG_FUNCTION_INFO_V1(pg_partmgr_check_subpartition_limits);

/*
 * pg_partmgr_check_subpartition_limits
 *		check_subpartition_limits(p_parent_table, p_type, OUT sub_min,
 *		OUT sub_max) (pg_partman's helper): the range a sub-set's children
 *		stay in -- the range its table covers in the set above -- as text,
 *		when the sub-set is keyed by the column of the table above and
 *		p_type ('time' or 'id') is its kind; NULLs otherwise, also for a
 *		table that is not a set.
 */
Datum
pg_partmgr_check_subpartition_limits(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	char	   *type = partmgr_text_arg(fcinfo, 1, "p_type");
	TupleDesc	desc;
	Datum		values[2];
	bool		nulls[2] = {true, true};
	Oid			relid;
	PartmgrSet *set = NULL;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "check_subpartition_limits must return a row");
	if (strcmp(type, "time") != 0 && strcmp(type, "id") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value \"%s\" for p_type", type),
				 errhint("p_type is 'time' or 'id'.")));
	SPI_connect();
	relid = partmgr_resolve_table(table, false);
	set = partmgr_config_load(partmgr_table_key(relid), true);
	if (set != NULL && set->has_limits &&
		(set->axis.kind == PARTMGR_KEY_TIME) == (strcmp(type, "time") == 0))
	{
		values[0] = CStringGetTextDatum(partmgr_point_display(&set->axis,
															  set->limit_lower));
		values[1] = CStringGetTextDatum(partmgr_point_display(&set->axis,
															  set->limit_upper));
		nulls[0] = nulls[1] = false;
	}
	SPI_finish();
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc),
													  values, nulls)));
}
