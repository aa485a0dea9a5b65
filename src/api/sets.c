/*-------------------------------------------------------------------------
 *
 * sets.c
 *	  SQL-callable functions of schema partmgr.
 *
 * Each function checks its arguments (every bad one gets an error with a
 * proper SQLSTATE that names it), connects to SPI, hands the work to the
 * job that owns it and shapes the result.  Functions run with the caller's
 * rights (SECURITY INVOKER) in the caller's transaction; an error leaves
 * the configuration and the tables as they were.
 *
 * Locks: those of the jobs they call; create_parent, partition_gap_fill and
 * create_partition_* also take the set's advisory lock without waiting and
 * fail with 55P03 if a maintenance run holds it.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/sets.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/namespace.h"
#include "common/int.h"
#include "catalog/partition.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "bounds.h"
#include "catalog.h"
#include "children.h"
#include "config.h"
#include "constraints.h"
#include "statements.h"
#include "execute.h"
#include "api.h"
#include "locks.h"
#include "retention.h"
#include "runner.h"
#include "setup.h"
#include "spi_util.h"

PG_FUNCTION_INFO_V1(pg_partmgr_is_valid_time_zone);
PG_FUNCTION_INFO_V1(pg_partmgr_uuid7_time_encoder);
PG_FUNCTION_INFO_V1(pg_partmgr_uuid7_time_decoder);
PG_FUNCTION_INFO_V1(pg_partmgr_create_parent);
PG_FUNCTION_INFO_V1(pg_partmgr_create_partition);
PG_FUNCTION_INFO_V1(pg_partmgr_run_maintenance);
PG_FUNCTION_INFO_V1(pg_partmgr_run_maintenance_proc);
PG_FUNCTION_INFO_V1(pg_partmgr_drop_partition_time);
PG_FUNCTION_INFO_V1(pg_partmgr_drop_partition_id);
PG_FUNCTION_INFO_V1(pg_partmgr_show_partitions);
PG_FUNCTION_INFO_V1(pg_partmgr_show_partition_name);
PG_FUNCTION_INFO_V1(pg_partmgr_show_partition_info);
PG_FUNCTION_INFO_V1(pg_partmgr_check_default);
PG_FUNCTION_INFO_V1(pg_partmgr_partition_gap_fill);
PG_FUNCTION_INFO_V1(pg_partmgr_create_partition_time);
PG_FUNCTION_INFO_V1(pg_partmgr_create_partition_id);

/* Names of create_parent's arguments, by position, for messages. */
static const char *const create_parent_args[] = {
	"p_parent_table", "p_control", "p_interval", "p_type", "p_epoch",
	"p_premake", "p_start_partition", "p_default_table",
	"p_automatic_maintenance", "p_constraint_cols", "p_template_table",
	"p_jobmon", "p_date_trunc_interval", "p_control_not_null", "p_time_encoder",
	"p_time_decoder", "p_offset_id", "p_timezone", "p_time_zone"
};

/*
 * partmgr_require_arg
 *		Raise 22004 when a required argument is NULL.
 */
void
partmgr_require_arg(FunctionCallInfo fcinfo, int argno, const char *name)
{
	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument %s must not be NULL", name)));
}

char *
partmgr_text_arg(FunctionCallInfo fcinfo, int argno, const char *name)
{
	partmgr_require_arg(fcinfo, argno, name);
	return text_to_cstring(PG_GETARG_TEXT_PP(argno));
}

char *
partmgr_text_arg_or_null(FunctionCallInfo fcinfo, int argno)
{
	return PG_ARGISNULL(argno) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(argno));
}

/*
 * partmgr_text_array_arg
 *		A text[] argument as a List of C strings, NULL elements left out;
 *		NIL for a NULL argument.
 */
List *
partmgr_text_array_arg(FunctionCallInfo fcinfo, int argno)
{
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	List	   *result = NIL;

	if (PG_ARGISNULL(argno))
		return NIL;
	deconstruct_array(PG_GETARG_ARRAYTYPE_P(argno), TEXTOID, -1, false,
					  TYPALIGN_INT,
					  &elems, &nulls, &n);
	for (int i = 0; i < n; i++)
	{
		if (!nulls[i])
			result = lappend(result, TextDatumGetCString(elems[i]));
	}
	return result;
}

/*
 * partmgr_act_on_table
 *		The set of a user-named table, with the scope of its owner's rights
 *		entered (rights.c): PARTMGR_RIGHTS_ACT to change the set or read its
 *		rows (42501 unless the caller has the owner's privileges),
 *		PARTMGR_RIGHTS_LOOK to compute its names and bounds.  The caller
 *		leaves the scope with partmgr_rights_leave.
 */
PartmgrSet *
partmgr_act_on_table(const char *table, PartmgrRightsMode mode,
					 PartmgrRights *rights)
{
	PartmgrSet *set = partmgr_config_load_table(table);

	partmgr_rights_enter_set(set, mode, rights);
	return set;
}

/*
 * partmgr_check_not_hash
 *		Raise 0A000 for a hash set, which the function (needing what)
 *		cannot work on: its children hold rows by the hash of the key, not
 *		by ranges of it.
 */
void
partmgr_check_not_hash(const PartmgrSet *set, const char *needs)
{
	if (set->strategy == PARTITION_STRATEGY_HASH)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("partition set \"%s\" is partitioned by HASH, but this function needs %s",
						set->key, needs),
				 errdetail("The children of a hash set hold rows by the hash of the key, not by ranges of it.")));
}

/*
 * partmgr_load_set_of_kind
 *		partmgr_act_on_table(PARTMGR_RIGHTS_ACT) for a set that must be a time
 *		or an id set as the function needs; otherwise 22023 with a hint to
 *		the other function.
 */
PartmgrSet *
partmgr_load_set_of_kind(const char *table, PartmgrKeyKind kind,
						 const char *other_function,
						 PartmgrRights *rights)
{
	PartmgrSet *set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, rights);

	partmgr_check_not_hash(set, kind == PARTMGR_KEY_TIME ?
						   "a time partition set" :
						   "an id partition set");

	if (set->axis.kind != kind)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 kind == PARTMGR_KEY_TIME ?
				 errmsg("\"%s\" is not a time partition set", set->key) :
				 errmsg("\"%s\" is not an id partition set", set->key),
				 errhint("Use %s for this set.", other_function)));
	return set;
}

/*
 * pg_partmgr_uuid7_time_encoder
 *		partmgr.uuid7_time_encoder(timestamptz): the smallest UUIDv7 of the
 *		millisecond the time falls in (version 7, variant 10, the random
 *		bits zero), so that every UUIDv7 made in that millisecond or later
 *		sorts at or above it: a partition bound.
 */
Datum
pg_partmgr_uuid7_time_encoder(PG_FUNCTION_ARGS)
{
	TimestampTz ts = PG_GETARG_TIMESTAMPTZ(0);
	pg_uuid_t  *uuid = palloc0(sizeof(pg_uuid_t));
	int64		usecs;
	int64		ms;

	if (TIMESTAMP_NOT_FINITE(ts) ||
		pg_add_s64_overflow(ts, PARTMGR_UNIX_EPOCH_USECS, &usecs) ||
		usecs < 0 || usecs / 1000 >= (INT64CONST(1) << 48))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range for a UUIDv7")));
	ms = usecs / 1000;
	for (int i = 0; i < 6; i++)
		uuid->data[i] = (unsigned char) ((ms >> (40 - 8 * i)) & 0xff);
	uuid->data[6] = 0x70;
	uuid->data[8] = 0x80;
	PG_RETURN_UUID_P(uuid);
}

/*
 * pg_partmgr_uuid7_time_decoder
 *		partmgr.uuid7_time_decoder(text): the time a UUIDv7 (as text) was
 *		made, to the millisecond.
 */
Datum
pg_partmgr_uuid7_time_decoder(PG_FUNCTION_ARGS)
{
	char	   *input = text_to_cstring(PG_GETARG_TEXT_PP(0));
	pg_uuid_t  *uuid = DatumGetUUIDP(DirectFunctionCall1(uuid_in,
														 CStringGetDatum(input)));
	int64		ms = 0;

	for (int i = 0; i < 6; i++)
		ms = (ms << 8) | uuid->data[i];
	PG_RETURN_TIMESTAMPTZ(ms * 1000 - PARTMGR_UNIX_EPOCH_USECS);
}

/*
 * pg_partmgr_is_valid_time_zone
 *		partmgr.is_valid_time_zone(text): used by
 *		part_config.partition_timezone's CHECK.
 */
Datum
pg_partmgr_is_valid_time_zone(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(partmgr_zone_is_valid(text_to_cstring(PG_GETARG_TEXT_PP(0))));
}

/*
 * pg_partmgr_create_partition
 *		partmgr.create_partition(): pg_partman 5.4's name for create_parent,
 *		with the same parameters.
 */
Datum
pg_partmgr_create_partition(PG_FUNCTION_ARGS)
{
	return pg_partmgr_create_parent(fcinfo);
}

/*
 * create_parent_zone
 *		The zone a new set is aligned in: p_timezone (pg_partman 5.4.4) or
 *		its other name p_time_zone (pg_partmgr 0.3), else the session's
 *		TimeZone.  Giving both with different zones is an error.
 */
static const char *
create_parent_zone(FunctionCallInfo fcinfo)
{
	const char *timezone = PG_NARGS() == 19 ? partmgr_text_arg_or_null(fcinfo,
																	   17) : NULL;
	const char *time_zone = PG_NARGS() == 19 ? partmgr_text_arg_or_null(fcinfo,
																		18) : NULL;

	if (timezone != NULL && time_zone != NULL &&
		strcmp(timezone, time_zone) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_timezone \"%s\" and p_time_zone \"%s\" name different time zones",
						timezone, time_zone),
				 errhint("p_time_zone is another name for p_timezone: give one of them.")));
	if (timezone != NULL)
		return timezone;
	if (time_zone != NULL)
		return time_zone;
	return GetConfigOption("TimeZone", false, false);
}

/*
 * pg_partmgr_create_parent
 *		partmgr.create_parent(): see partmgr_create_set.  Returns true.
 *		Only the 0.4.0 declaration (19 arguments) reaches the work: older
 *		ones stop at the check that the SQL objects are current, and none of
 *		their arguments past the sixteenth is read.
 */
Datum
pg_partmgr_create_parent(PG_FUNCTION_ARGS)
{
	static const int required[] = {0, 1, 2, 3, 4, 5, 7, 8, 11, 13};
	bool		current = PG_NARGS() == 19;
	PartmgrCreateArgs args;

	for (int i = 0; i < lengthof(required); i++)
		partmgr_require_arg(fcinfo, required[i],
							create_parent_args[required[i]]);
	if (current)
		partmgr_require_arg(fcinfo, 16, "p_offset_id");
	memset(&args, 0, sizeof(args));
	args.table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	args.control = partmgr_text_arg(fcinfo, 1, "p_control");
	args.interval = partmgr_text_arg(fcinfo, 2, "p_interval");
	args.type = partmgr_text_arg(fcinfo, 3, "p_type");
	args.epoch = partmgr_text_arg(fcinfo, 4, "p_epoch");
	args.premake = PG_GETARG_INT32(5);
	args.start = partmgr_text_arg_or_null(fcinfo, 6);
	args.with_default = PG_GETARG_BOOL(7);
	args.automatic = partmgr_text_arg(fcinfo, 8, "p_automatic_maintenance");
	args.constraint_cols = partmgr_text_array_arg(fcinfo, 9);
	args.template_table = partmgr_text_arg_or_null(fcinfo, 10);
	args.jobmon = PG_GETARG_BOOL(11);
	args.trunc_unit = partmgr_text_arg_or_null(fcinfo, 12);
	args.control_not_null = PG_GETARG_BOOL(13);
	args.encoder = current ? partmgr_text_arg_or_null(fcinfo, 14) : NULL;
	args.decoder = current ? partmgr_text_arg_or_null(fcinfo, 15) : NULL;
	args.offset_id = current ? PG_GETARG_INT64(16) : 0;
	args.zone = create_parent_zone(fcinfo);

	SPI_connect();
	(void) partmgr_create_set(&args, NULL, "create_parent");
	SPI_finish();
	PG_RETURN_BOOL(true);
}

/*
 * pg_partmgr_run_maintenance
 *		partmgr.run_maintenance(p_parent_table, p_analyze, p_jobmon).
 *		p_jobmon is accepted for compatibility and has no effect.
 */
Datum
pg_partmgr_run_maintenance(PG_FUNCTION_ARGS)
{
	PartmgrRunOptions opts;

	memset(&opts, 0, sizeof(opts));
	opts.run_by = "run_maintenance";
	opts.table = partmgr_text_arg_or_null(fcinfo, 0);
	opts.analyze = !PG_ARGISNULL(1) && PG_GETARG_BOOL(1);
	opts.transactions = PARTMGR_RUN_IN_CALLERS;
	opts.raise_failures = partmgr_on_set_failure == PARTMGR_ON_FAILURE_ERROR;
	SPI_connect();
	if (!RecoveryInProgress())
		partmgr_run_sets(partmgr_run_list(opts.table, false), &opts);
	SPI_finish();
	PG_RETURN_VOID();
}

/*
 * pg_partmgr_run_maintenance_proc
 *		PROCEDURE partmgr.run_maintenance_proc(p_wait, p_analyze, p_jobmon):
 *		maintain every set with automatic maintenance on, committing after each
 *		set and pausing p_wait seconds between sets.  Called inside a
 *		transaction block (where it cannot commit) it maintains the sets in
 *		that transaction, as run_maintenance() does.  A failing set is a
 *		WARNING and the next set is maintained, and the call ends with an ERROR
 *		naming the failed sets (pg_partmgr.on_set_failure); a set whose owner's
 *		privileges the caller lacks is left out.  A set that needs more than
 *		pg_partmgr.children_per_transaction children is maintained again after
 *		each commit until it has them.  See runner.c.
 */
Datum
pg_partmgr_run_maintenance_proc(PG_FUNCTION_ARGS)
{
	int			wait = PG_ARGISNULL(0) ? 0 : PG_GETARG_INT32(0);
	bool		nonatomic = (fcinfo->context != NULL &&
							 IsA(fcinfo->context, CallContext) &&
							 !castNode(CallContext, fcinfo->context)->atomic);
	PartmgrRunOptions opts;

	if (wait < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_wait must not be negative, not %d", wait)));
	if (RecoveryInProgress())
		PG_RETURN_VOID();

	memset(&opts, 0, sizeof(opts));
	opts.run_by = "run_maintenance_proc";
	opts.analyze = !PG_ARGISNULL(1) && PG_GETARG_BOOL(1);
	opts.transactions =
		nonatomic ? PARTMGR_RUN_COMMIT_SPI : PARTMGR_RUN_IN_CALLERS;
	opts.pause_seconds = wait;
	opts.raise_failures = partmgr_on_set_failure == PARTMGR_ON_FAILURE_ERROR;
	/* in a non-atomic connection, SPI's memory survives our commits */
	SPI_connect_ext(nonatomic ? SPI_OPT_NONATOMIC : 0);
	partmgr_run_sets(partmgr_run_list(NULL, false), &opts);
	SPI_finish();
	PG_RETURN_VOID();
}

/*
 * drop_partition
 *		Shared body of drop_partition_time and drop_partition_id: retention
 *		of one set now, with the arguments that are not NULL overriding the
 *		set's configuration.  Returns the number of children retired.
 *		Children still referenced by a foreign key are kept with a WARNING;
 *		any other failure is raised.
 */
static int
drop_partition(FunctionCallInfo fcinfo, PartmgrKeyKind kind)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	PartmgrSet *set;
	PartmgrRetention retention;
	PartmgrPlan *plan;
	PartmgrRights rights;
	ListCell   *lc;
	int			done;

	SPI_connect();
	set = partmgr_load_set_of_kind(table, kind, kind == PARTMGR_KEY_TIME ?
								   "drop_partition_id()" :
								   "drop_partition_time()", &rights);

	/* the arguments given override part_config, which is only read otherwise */
	partmgr_retention_settings(set, &retention);
	if (PG_ARGISNULL(1))
	{
		if (set->retention == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("partition set \"%s\" has no retention", set->key),
					 errhint("Pass p_retention, or set part_config.retention.")));
		partmgr_retention_parse(set, set->retention, &retention.age);
	}
	else
	{
		retention.age.kind = kind;
		if (kind == PARTMGR_KEY_TIME)
		{
			retention.age.time = *PG_GETARG_INTERVAL_P(1);
			if (retention.age.time.month < 0 || retention.age.time.day < 0 ||
				retention.age.time.time < 0 ||
				(retention.age.time.month == 0 && retention.age.time.day == 0 &&
				 retention.age.time.time == 0))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("p_retention must be a positive interval")));
		}
		else
		{
			retention.age.id = PG_GETARG_INT64(1);
			if (retention.age.id < 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("p_retention must not be negative, not " INT64_FORMAT,
								retention.age.id)));
		}
	}
	if (!PG_ARGISNULL(2))
		retention.retire.keep_table = PG_GETARG_BOOL(2);
	if (!PG_ARGISNULL(3))
		retention.retire.keep_index = PG_GETARG_BOOL(3);
	if (!PG_ARGISNULL(4))
	{
		/* named by the caller: the caller's right to create there counts */
		retention.retire.schema = text_to_cstring(PG_GETARG_TEXT_PP(4));
		retention.retire.schema_by_caller = true;
		partmgr_retention_check_schema(set, retention.retire.schema,
									   partmgr_rights_caller());
	}
	else if (retention.retire.schema != NULL)
		partmgr_retention_check_schema(set, retention.retire.schema,
									   set->parent_owner);
	if (kind == PARTMGR_KEY_TIME && !PG_ARGISNULL(5))
	{
		retention.have_reference = true;
		retention.reference = PG_GETARG_TIMESTAMPTZ(5);
	}

	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	plan = partmgr_plan_retention(set, partmgr_read_tree(set), &retention,
								  GetCurrentTransactionStartTimestamp(), 0);
	done = partmgr_execute_or_raise(plan, kind == PARTMGR_KEY_TIME ?
									"drop_partition_time" :
									"drop_partition_id", NULL);
	foreach(lc, plan->actions)
	{
		if (((PartmgrAction *) lfirst(lc))->kind ==
			PARTMGR_ACTION_FINALIZE_DETACH)
			done--;
	}
	partmgr_rights_leave(&rights);
	SPI_finish();
	return done;
}

/*
 * pg_partmgr_drop_partition_time
 *		partmgr.drop_partition_time(p_parent_table, p_retention, p_keep_table,
 *		p_keep_index, p_retention_schema, p_reference_timestamp).
 */
Datum
pg_partmgr_drop_partition_time(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(drop_partition(fcinfo, PARTMGR_KEY_TIME));
}

/*
 * pg_partmgr_drop_partition_id
 *		partmgr.drop_partition_id(p_parent_table, p_retention, p_keep_table,
 *		p_keep_index, p_retention_schema).
 */
Datum
pg_partmgr_drop_partition_id(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(drop_partition(fcinfo, PARTMGR_KEY_ID));
}

/*
 * pg_partmgr_show_partitions
 *		partmgr.show_partitions(): children in bound order, the default
 *		partition first when p_include_default.
 */
/* pg_class.reltuples of a table: -1 when it was never counted */
static double
estimated_rows(Oid relid)
{
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	double		tuples = -1;

	if (HeapTupleIsValid(tuple))
	{
		tuples = ((Form_pg_class) GETSTRUCT(tuple))->reltuples;
		ReleaseSysCache(tuple);
	}
	return tuples;
}

/*
 * show_partitions
 *		The children of a set in the order of their bounds (a hash set's by
 *		remainder), the default partition first when included; with
 *		shares, each with the planner's estimate of its rows (pg_class,
 *		NULL when never counted), its share of the rows of the set's
 *		children so counted, and for a hash set the share its bounds give
 *		it (1 / modulus).
 */
static Datum
show_partitions(FunctionCallInfo fcinfo, const char *table, const char *order,
				bool include_default, bool shares)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	bool		descending;
	PartmgrSet *set;
	PartmgrTree *tree;
	PartmgrRights rights;
	Datum		values[5];
	bool		nulls[5] = {false, false, !shares, !shares, !shares};
	double	   *rows;
	double		total = 0;

	if (pg_strcasecmp(order, "ASC") != 0 && pg_strcasecmp(order, "DESC") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value \"%s\" for p_order", order),
				 errhint("p_order is 'ASC' or 'DESC'.")));
	descending = pg_strcasecmp(order, "DESC") == 0;

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	set = partmgr_act_on_table(table, PARTMGR_RIGHTS_LOOK, &rights);
	tree = partmgr_read_tree(set);
	partmgr_rights_leave(&rights);
	rows = palloc0(sizeof(double) * (tree->nchildren + 1));
	for (int i = 0; shares && i < tree->nchildren; i++)
	{
		rows[i] = estimated_rows(tree->children[i].relid);
		if (rows[i] > 0 && !tree->children[i].detach_pending)
			total += rows[i];
	}
	if (include_default && OidIsValid(tree->default_oid))
	{
		values[0] = CStringGetTextDatum(tree->default_schema);
		values[1] = CStringGetTextDatum(tree->default_name);
		nulls[2] = nulls[3] = nulls[4] = true;
		if (shares && estimated_rows(tree->default_oid) >= 0)
		{
			values[2] = Int64GetDatum((int64) estimated_rows(tree->default_oid));
			nulls[2] = false;
		}
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	for (int i = 0; i < tree->nchildren; i++)
	{
		int			k = descending ? tree->nchildren - 1 - i : i;
		PartmgrChild *child = &tree->children[k];

		if (child->detach_pending)
			continue;			/* on its way out: no longer part of the set */
		values[0] = CStringGetTextDatum(child->schema);
		values[1] = CStringGetTextDatum(child->name);
		if (shares)
		{
			nulls[2] = rows[k] < 0;
			values[2] = Int64GetDatum((int64) Max(rows[k], 0));
			nulls[3] = rows[k] < 0 || total <= 0;
			values[3] = DirectFunctionCall1(float8_numeric,
											Float8GetDatum(Max(rows[k],
															   0) / Max(total,
																		1)));
			nulls[4] = child->modulus == 0;
			values[4] = DirectFunctionCall1(float8_numeric,
											Float8GetDatum(child->modulus > 0 ?
														   1.0 / child->modulus : 0));
		}
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	SPI_finish();
	return (Datum) 0;
}

/*
 * pg_partmgr_show_partitions
 *		show_partitions(p_parent_table, p_order, p_include_default), as
 *		pg_partman's; and show_partitions(p_parent_table, p_row_share,
 *		p_order, p_include_default), ours, which adds each child's rows and
 *		share when p_row_share.
 */
Datum
pg_partmgr_show_partitions(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");

	if (PG_NARGS() == 4)
	{
		partmgr_require_arg(fcinfo, 1, "p_row_share");
		partmgr_require_arg(fcinfo, 3, "p_include_default");
		return show_partitions(fcinfo, table,
							   partmgr_text_arg(fcinfo, 2, "p_order"),
							   PG_GETARG_BOOL(3), PG_GETARG_BOOL(1));
	}
	partmgr_require_arg(fcinfo, 2, "p_include_default");
	return show_partitions(fcinfo, table,
						   partmgr_text_arg(fcinfo, 1, "p_order"),
						   PG_GETARG_BOOL(2), false);
}

/*
 * pg_partmgr_show_partition_name
 *		partmgr.show_partition_name(): the child a value belongs in, on the
 *		grid of the existing children.
 */
Datum
pg_partmgr_show_partition_name(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	char	   *value_text = partmgr_text_arg(fcinfo, 1, "p_value");
	MemoryContext caller = CurrentMemoryContext;
	TupleDesc	tupdesc;
	PartmgrSet *set;
	PartmgrPoint value;
	PartmgrPoint lower;
	char	   *name;
	Datum		values[5];
	bool		nulls[5] = {false, false, false, false, false};
	HeapTuple	tuple;
	PartmgrErrorContext argctx;
	PartmgrRights rights;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	SPI_connect();
	set = partmgr_act_on_table(table, PARTMGR_RIGHTS_LOOK, &rights);
	partmgr_check_not_hash(set, "a range or list set");
	partmgr_context_push(&argctx, "argument %s", "p_value");
	value = partmgr_point_parse(&set->axis, value_text);
	partmgr_context_pop(&argctx);
	if (set->axis.kind == PARTMGR_KEY_TIME && TIMESTAMP_NOT_FINITE(value))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("no child of \"%s\" can hold the value %s", set->key,
						value_text),
				 errdetail("A child's range has finite bounds; rows at infinity or -infinity stay in the default partition.")));
	lower = partmgr_slot_lower(set, partmgr_read_tree(set), value);
	name = partmgr_child_name(set, lower);
	partmgr_rights_leave(&rights);

	MemoryContextSwitchTo(caller);
	values[0] = CStringGetTextDatum(set->parent_schema);
	values[1] = CStringGetTextDatum(name);
	if (set->axis.kind == PARTMGR_KEY_TIME)
	{
		values[2] = TimestampTzGetDatum(partmgr_point_to_timestamptz(&set->axis, lower));
		nulls[3] = true;
	}
	else
	{
		nulls[2] = true;
		values[3] = Int64GetDatum(lower);
	}
	values[4] = BoolGetDatum(OidIsValid(get_relname_relid(name,
														  get_namespace_oid(set->parent_schema, false))));
	tuple = heap_form_tuple(tupdesc, values, nulls);
	SPI_finish();
	PG_RETURN_DATUM(HeapTupleGetDatum(tuple));
}

/*
 * pg_partmgr_show_partition_info
 *		partmgr.show_partition_info(): a child's bounds from the catalog.  End
 *		bounds are exclusive for id sets too (pg_partman reports the last id
 *		of an id child instead).  With p_partition_interval the end is the
 *		start plus that interval, as in pg_partman.
 */
Datum
pg_partmgr_show_partition_info(PG_FUNCTION_ARGS)
{
	char	   *child_text = partmgr_text_arg(fcinfo, 0, "p_child_table");
	char	   *interval_text = partmgr_text_arg_or_null(fcinfo, 1);
	char	   *parent_text = partmgr_text_arg_or_null(fcinfo, 2);
	MemoryContext caller = CurrentMemoryContext;
	TupleDesc	tupdesc;
	Oid			child_oid;
	Oid			parent_oid;
	PartmgrSet *set;
	const PartmgrChild *child;
	PartmgrPoint upper;
	PartmgrRights rights;
	Datum		values[5];
	bool		nulls[5] = {true, true, true, true, false};
	HeapTuple	tuple;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	SPI_connect();
	child_oid = partmgr_resolve_table(child_text, false);
	if (!get_rel_relispartition(child_oid))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("table \"%s\" is not a partition", child_text)));
	parent_oid = get_partition_parent(child_oid, true);
	if (parent_text != NULL &&
		partmgr_resolve_table(parent_text, false) != parent_oid)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("table \"%s\" is not a partition of \"%s\"",
						child_text, parent_text)));
	set = partmgr_config_load(partmgr_table_key(parent_oid), false);
	partmgr_check_not_hash(set, "a range or list set");
	partmgr_rights_enter_set(set, PARTMGR_RIGHTS_LOOK, &rights);
	child = partmgr_tree_find_child(partmgr_read_tree(set), child_oid);
	if (child == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("table \"%s\" is the default partition of \"%s\" and has no bounds",
						child_text, set->key)));
	upper = child->upper;
	if (interval_text != NULL)
	{
		PartmgrStep step;

		partmgr_step_parse(&set->axis, interval_text, PARTMGR_STEP_PARTITION,
						   &step);
		upper = partmgr_point_add(&set->axis, &step, child->lower, 1);
	}

	MemoryContextSwitchTo(caller);
	if (set->axis.kind == PARTMGR_KEY_TIME)
	{
		if (child->lower != PARTMGR_POINT_MIN)
		{
			values[0] = TimestampTzGetDatum(partmgr_point_to_timestamptz(&set->axis, child->lower));
			nulls[0] = false;
			values[4] = CStringGetTextDatum(partmgr_time_suffix(&set->axis,
																child->lower,
																partmgr_era_at(set, child->lower).datetime_string));
		}
		else
			nulls[4] = true;
		if (upper != PARTMGR_POINT_MAX)
		{
			values[1] = TimestampTzGetDatum(partmgr_point_to_timestamptz(&set->axis, upper));
			nulls[1] = false;
		}
	}
	else
	{
		if (child->lower != PARTMGR_POINT_MIN)
		{
			values[2] = Int64GetDatum(child->lower);
			nulls[2] = false;
			values[4] = CStringGetTextDatum(psprintf(INT64_FORMAT,
													 child->lower));
		}
		else
			nulls[4] = true;
		if (upper != PARTMGR_POINT_MAX)
		{
			values[3] = Int64GetDatum(upper);
			nulls[3] = false;
		}
	}
	partmgr_rights_leave(&rights);
	tuple = heap_form_tuple(tupdesc, values, nulls);
	SPI_finish();
	PG_RETURN_DATUM(HeapTupleGetDatum(tuple));
}

/*
 * pg_partmgr_check_default
 *		partmgr.check_default(): default partitions of managed sets that hold
 *		rows, counted with the owner's rights.  Sets whose parent no longer
 *		exists, and sets whose owner's privileges the caller lacks, are
 *		passed over.  p_ignore_infinity (pg_partman 5.4; the 0.1.0
 *		declaration has no second argument) leaves rows keyed at infinity or
 *		-infinity uncounted (see partmgr_ddl_finite_key).
 */
Datum
pg_partmgr_check_default(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	bool		exact = PG_ARGISNULL(0) || PG_GETARG_BOOL(0);
	bool		ignore_infinity = PG_NARGS() > 1 && !PG_ARGISNULL(1) &&
	PG_GETARG_BOOL(1);
	List	   *keys;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	keys = partmgr_config_list(false);
	foreach(lc, keys)
	{
		Oid			parent_oid = partmgr_key_relid((char *) lfirst(lc));
		PartmgrParentInfo parent;
		PartmgrRights rights;
		Oid			default_oid;
		char	   *schema;
		char	   *name;
		char	   *sql;
		int64		count;
		bool		isnull;
		Datum		values[2];
		bool		nulls[2] = {false, false};

		if (!OidIsValid(parent_oid) ||
			get_rel_relkind(parent_oid) != RELKIND_PARTITIONED_TABLE)
			continue;
		partmgr_read_parent(parent_oid, &parent);
		default_oid = parent.default_oid;
		if (!OidIsValid(default_oid) || !partmgr_may_act_on(parent.owner))
			continue;
		schema = get_namespace_name(get_rel_namespace(default_oid));
		name = get_rel_name(default_oid);
		/* the set (for its key) is read with the caller's rights */
		sql = (ignore_infinity ?
			   partmgr_query_count_finite_rows(partmgr_config_load((char *) lfirst(lc), false),
											   schema, name, exact) :
			   partmgr_query_count_rows(schema, name, exact, true));
		partmgr_rights_enter_table(parent_oid, parent.owner, PARTMGR_RIGHTS_ACT,
								   (char *) lfirst(lc), &rights);
		partmgr_spi_table_exec(sql, 0, NULL, NULL, NULL, true, SPI_OK_SELECT);
		count = DatumGetInt64(partmgr_spi_value(0, 1, &isnull));
		partmgr_rights_leave(&rights);
		if (count == 0)
			continue;
		values[0] = CStringGetTextDatum(psprintf("%s.%s", schema, name));
		values[1] = Int64GetDatum(count);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	SPI_finish();
	return (Datum) 0;
}

/*
 * pg_partmgr_partition_gap_fill
 *		partmgr.partition_gap_fill(): returns the number of children created.
 */
Datum
pg_partmgr_partition_gap_fill(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	PartmgrSet *set;
	PartmgrPlan *plan;
	PartmgrRights rights;
	int			created;

	SPI_connect();
	set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, &rights);
	partmgr_check_not_hash(set, "a range set");
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	plan = partmgr_plan_gap_fill(set, partmgr_read_tree(set));
	partmgr_plan_tables(plan);
	created = partmgr_execute_or_raise(plan, "partition_gap_fill", NULL);
	partmgr_rights_leave(&rights);
	SPI_finish();
	PG_RETURN_INT32(created);
}

/*
 * create_explicit
 *		Shared body of create_partition_time and create_partition_id: one
 *		child per lower bound in the array (NULL elements are ignored).
 */
static bool
create_explicit(FunctionCallInfo fcinfo, PartmgrKeyKind kind, Oid elemtype)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	ArrayType  *array;
	Datum	   *elems;
	bool	   *elemnulls;
	int			nelems;
	PartmgrPoint *lowers;
	int			n = 0;
	PartmgrSet *set;
	PartmgrPlan *plan;
	PartmgrRights rights;
	int			created;

	partmgr_require_arg(fcinfo, 1, kind == PARTMGR_KEY_TIME ?
						"p_partition_times" : "p_partition_ids");
	array = PG_GETARG_ARRAYTYPE_P(1);
	deconstruct_array(array, elemtype, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &elems, &elemnulls, &nelems);

	SPI_connect();
	set = partmgr_load_set_of_kind(table, kind, kind == PARTMGR_KEY_TIME ?
								   "create_partition_id()" :
								   "create_partition_time()", &rights);
	lowers = palloc(sizeof(PartmgrPoint) * (nelems + 1));
	for (int i = 0; i < nelems; i++)
	{
		if (elemnulls[i])
			continue;
		if (kind == PARTMGR_KEY_TIME)
			lowers[n++] = partmgr_point_from_timestamptz(&set->axis,
														 DatumGetTimestampTz(elems[i]));
		else
			lowers[n++] = DatumGetInt64(elems[i]);
	}
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	plan = partmgr_plan_explicit(set, partmgr_read_tree(set), lowers, n);
	partmgr_plan_tables(plan);
	created = partmgr_execute_or_raise(plan,
									   kind == PARTMGR_KEY_TIME ?
									   "create_partition_time" :
									   "create_partition_id", NULL);
	partmgr_rights_leave(&rights);
	SPI_finish();
	return created > 0;
}

/*
 * pg_partmgr_create_partition_time
 *		partmgr.create_partition_time().  p_start_partition only matters for
 *		sub-partitioned sets in pg_partman; it is accepted and unused.
 */
Datum
pg_partmgr_create_partition_time(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(create_explicit(fcinfo, PARTMGR_KEY_TIME, TIMESTAMPTZOID));
}

/*
 * pg_partmgr_create_partition_id
 *		partmgr.create_partition_id(); see create_partition_time.
 */
Datum
pg_partmgr_create_partition_id(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(create_explicit(fcinfo, PARTMGR_KEY_ID, INT8OID));
}

PG_FUNCTION_INFO_V1(pg_partmgr_check_control_type);
PG_FUNCTION_INFO_V1(pg_partmgr_check_name_length);

/*
 * pg_partmgr_check_control_type
 *		check_control_type(p_parent_schema, p_parent_tablename, p_control)
 *		(pg_partman 5's helper): the kind of a column as a control column --
 *		'time' (timestamptz, timestamp, date), 'id' (smallint, integer,
 *		bigint, numeric), 'text' (text, varchar) or 'uuid', NULL for any
 *		other -- and its type's name; no row when there is no such column.
 */
Datum
pg_partmgr_check_control_type(PG_FUNCTION_ARGS)
{
	char	   *schema = partmgr_text_arg(fcinfo, 0, "p_parent_schema");
	char	   *name = partmgr_text_arg(fcinfo, 1, "p_parent_tablename");
	char	   *control = partmgr_text_arg(fcinfo, 2, "p_control");
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			nspid = get_namespace_oid(schema, true);
	Oid			relid = OidIsValid(nspid) ? get_relname_relid(name,
															  nspid) : InvalidOid;
	AttrNumber	attnum = OidIsValid(relid) ? get_attnum(relid,
														control) : InvalidAttrNumber;

	InitMaterializedSRF(fcinfo, 0);
	if (attnum != InvalidAttrNumber && attnum > 0)
	{
		Oid			type = get_atttype(relid, attnum);
		const char *general = NULL;
		Datum		values[2];
		bool		nulls[2] = {false, false};
		PartmgrKeyKind kind;
		HeapTuple	typtup;

		if (type == TEXTOID || type == VARCHAROID)
			general = "text";
		else if (type == UUIDOID)
			general = "uuid";
		else if (partmgr_key_kind_for_type(type, &kind))
			general = kind == PARTMGR_KEY_TIME ? "time" : "id";
		nulls[0] = general == NULL;
		if (general != NULL)
			values[0] = CStringGetTextDatum(general);
		typtup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(type));
		if (!HeapTupleIsValid(typtup))
			elog(ERROR, "cache lookup failed for type %u", type);
		values[1] = CStringGetTextDatum(NameStr(((Form_pg_type) GETSTRUCT(typtup))->typname));
		ReleaseSysCache(typtup);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * pg_partmgr_check_name_length
 *		check_name_length(p_object_name, p_suffix, p_table_partition)
 *		(pg_partman's helper): p_object_name with p_suffix appended ("_p"
 *		and p_suffix with p_table_partition), the name cut (on a character
 *		boundary) so that the whole suffix fits in 63 bytes, as every name
 *		pg_partmgr makes.
 */
Datum
pg_partmgr_check_name_length(PG_FUNCTION_ARGS)
{
	char	   *object = partmgr_text_arg(fcinfo, 0, "p_object_name");
	char	   *suffix = partmgr_text_arg_or_null(fcinfo, 1);
	bool		partition = !PG_ARGISNULL(2) && PG_GETARG_BOOL(2);

	if (partition && (suffix == NULL || suffix[0] == '\0'))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the name of a child needs a suffix"),
				 errhint("Give p_suffix, or p_table_partition => false.")));
	PG_RETURN_TEXT_P(cstring_to_text(partmgr_name_with_suffix(object,
															  psprintf("%s%s",
																	   partition ? "_p" : "",
																	   suffix ?
																	   suffix :
																	   ""))));
}
