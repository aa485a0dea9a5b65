/*-------------------------------------------------------------------------
 *
 * api.c
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
 *	  src/api.c
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
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "bounds.h"
#include "catalog.h"
#include "config.h"
#include "constraints.h"
#include "ddl.h"
#include "execute.h"
#include "api.h"
#include "maintenance.h"
#include "retention.h"
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
	"p_time_decoder", "p_time_zone"
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
	deconstruct_array(PG_GETARG_ARRAYTYPE_P(argno), TEXTOID, -1, false, TYPALIGN_INT,
					  &elems, &nulls, &n);
	for (int i = 0; i < n; i++)
	{
		if (!nulls[i])
			result = lappend(result, TextDatumGetCString(elems[i]));
	}
	return result;
}

/*
 * partmgr_lock_set_or_raise
 *		Take the set's advisory lock for an interactive call, or raise 55P03.
 */
void
partmgr_lock_set_or_raise(Oid parent_oid, const char *key)
{
	if (!partmgr_try_lock_set(parent_oid))
		ereport(ERROR,
				(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
				 errmsg("partition set \"%s\" is being maintained by another session", key),
				 errhint("Try again when that maintenance run has finished.")));
}

/*
 * partmgr_load_set_of_kind
 *		The set of a user-named table, which must be a time or an id set as
 *		the function needs; otherwise 22023 with a hint to the other function.
 */
PartmgrSet *
partmgr_load_set_of_kind(const char *table, PartmgrKeyKind kind, const char *other_function)
{
	PartmgrSet *set = partmgr_config_load_table(table);

	if (set->axis.kind != kind)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is not a%s partition set", set->key,
						kind == PARTMGR_KEY_TIME ? " time" : "n id"),
				 errhint("Use %s for this set.", other_function)));
	return set;
}

static void
check_owner(Oid relid, const char *name)
{
#if PG_VERSION_NUM >= 160000
	if (!object_ownercheck(RelationRelationId, relid, GetUserId()))
#else
	if (!pg_class_ownercheck(relid, GetUserId()))
#endif
		aclcheck_error(ACLCHECK_NOT_OWNER, OBJECT_TABLE, name);
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

	if (TIMESTAMP_NOT_FINITE(ts) || pg_add_s64_overflow(ts, PARTMGR_UNIX_EPOCH_USECS, &usecs) ||
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
	pg_uuid_t  *uuid = DatumGetUUIDP(DirectFunctionCall1(uuid_in, CStringGetDatum(input)));
	int64		ms = 0;

	for (int i = 0; i < 6; i++)
		ms = (ms << 8) | uuid->data[i];
	PG_RETURN_TIMESTAMPTZ(ms * 1000 - PARTMGR_UNIX_EPOCH_USECS);
}

/*
 * pg_partmgr_is_valid_time_zone
 *		partmgr.is_valid_time_zone(text): used by part_config_ext's CHECK.
 */
Datum
pg_partmgr_is_valid_time_zone(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(partmgr_zone_is_valid(text_to_cstring(PG_GETARG_TEXT_PP(0))));
}

/*
 * check_create_parent_table
 *		The parent and control column checks of create_parent: the table
 *		exists, is partitioned by RANGE on the single column p_control, the
 *		caller owns it, its names hold no period, the column's type is
 *		supported and (unless allowed) it is NOT NULL.  Fills parent.
 */
static void
check_create_parent_table(const char *table, const char *control,
						  bool control_not_null, bool encoded, PartmgrParentInfo *parent)
{
	Oid			relid = partmgr_resolve_table(table, false);
	AttrNumber	attnum;
	HeapTuple	atttup;
	bool		attnotnull;
	PartmgrKeyKind kind;

	partmgr_read_parent(relid, parent);
	if (parent->relkind != RELKIND_PARTITIONED_TABLE)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("table \"%s\" is not partitioned", table),
				 errhint("Create it with PARTITION BY RANGE (column), or see the migration guide to partition an existing table.")));
	check_owner(relid, parent->name);
	if (strchr(parent->schema, '.') != NULL || strchr(parent->name, '.') != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("table \"%s\" has a period in its name or its schema's name",
						quote_qualified_identifier(parent->schema, parent->name)),
				 errdetail("part_config stores parents as schema.table, as pg_partman does, which a period would make ambiguous.")));
	if (parent->strategy == PARTITION_STRATEGY_HASH)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("table \"%s\" is partitioned by HASH, which pg_partmgr does not manage", table)));
	if (parent->nkeys != 1 || parent->key_attnum == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("table \"%s\" is partitioned by %s", table,
						parent->nkeys != 1 ? "more than one column" : "an expression"),
				 errdetail("pg_partmgr manages tables partitioned by a single column.")));

	attnum = get_attnum(relid, control);
	if (attnum == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of table \"%s\" does not exist", control, table)));
	if (attnum != parent->key_attnum)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("column \"%s\" is not the partition key of table \"%s\"", control, table),
				 errdetail("The table is partitioned by column \"%s\".",
						   get_attname(relid, parent->key_attnum, false))));
	if (encoded)
	{
		if (parent->key_type != TEXTOID && parent->key_type != VARCHAROID &&
			parent->key_type != UUIDOID)
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("a time encoder and decoder need a text, varchar or uuid control column, not %s",
							format_type_be(parent->key_type)),
					 errhint("Time and integer columns are partitioned without them.")));
	}
	else if (!partmgr_key_kind_for_type(parent->key_type, &kind))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("control column \"%s\" has type %s, which pg_partmgr cannot partition by",
						control, format_type_be(parent->key_type)),
				 errhint("Supported types are timestamp with time zone, timestamp, date, smallint, integer, bigint and numeric; text, varchar and uuid with p_time_encoder and p_time_decoder.")));

	atttup = SearchSysCache2(ATTNUM, ObjectIdGetDatum(relid), Int16GetDatum(attnum));
	if (!HeapTupleIsValid(atttup))
		elog(ERROR, "cache lookup failed for attribute %d of relation %u", attnum, relid);
	attnotnull = ((Form_pg_attribute) GETSTRUCT(atttup))->attnotnull;
	ReleaseSysCache(atttup);
	if (control_not_null && !attnotnull)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("control column \"%s\" of table \"%s\" is nullable", control, table),
				 errdetail("Rows with a NULL key can only go to the default partition."),
				 errhint("Run ALTER TABLE %s ALTER COLUMN %s SET NOT NULL, or pass p_control_not_null => false.",
						 quote_qualified_identifier(parent->schema, parent->name),
						 quote_identifier(control))));
}

/*
 * check_choice
 *		Raise 22023 unless value is one of the allowed words.
 */
static void
check_choice(const char *argname, const char *value, const char *const *allowed,
			 const char *hint)
{
	for (int i = 0; allowed[i] != NULL; i++)
	{
		if (strcmp(value, allowed[i]) == 0)
			return;
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid value \"%s\" for %s", value, argname),
			 errhint("%s", hint)));
}

/* Whether the current user may create tables in a schema (ACLCHECK_OK). */
static AclResult
may_create_in(Oid nspid)
{
#if PG_VERSION_NUM >= 160000
	return object_aclcheck(NamespaceRelationId, nspid, GetUserId(), ACL_CREATE);
#else
	return pg_namespace_aclcheck(nspid, GetUserId(), ACL_CREATE);
#endif
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
 * template_for
 *		part_config.template_table of a new set, from p_template_table as
 *		pg_partman 5 reads it: NULL makes partmgr.template_<schema>_<table>
 *		(LIKE the parent, owned by the parent's owner; one left by an
 *		earlier set of that name is used again if it fits), 'false' or 'f'
 *		means none, anything else names an existing table.
 */
static char *
template_for(const PartmgrParentInfo *parent, const char *given)
{
	char	   *name;
	Oid			relid;

	if (given != NULL &&
		(pg_strcasecmp(given, "false") == 0 || pg_strcasecmp(given, "f") == 0))
		return NULL;
	if (given != NULL)
		relid = partmgr_check_template(parent->relid, given);
	else
	{
		Oid			nspid = get_namespace_oid(PARTMGR_SCHEMA, false);

		name = partmgr_template_name(parent->schema, parent->name);
		relid = get_relname_relid(name, nspid);
		if (OidIsValid(relid))
			(void) partmgr_check_template(parent->relid,
										  quote_qualified_identifier(PARTMGR_SCHEMA, name));
		else
		{
			if (may_create_in(nspid) != ACLCHECK_OK)
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("permission denied to create template table %s",
								quote_qualified_identifier(PARTMGR_SCHEMA, name)),
						 errhint("GRANT CREATE ON SCHEMA %s to the role, or pass p_template_table => 'false' or the name of a table of your own.",
								 PARTMGR_SCHEMA)));
			partmgr_spi_utility(partmgr_ddl_create_template(parent->schema, parent->name,
															PARTMGR_SCHEMA, name));
			if (parent->owner != GetUserId())
				partmgr_spi_utility(partmgr_ddl_set_owner(PARTMGR_SCHEMA, name, parent->owner));
			CommandCounterIncrement();
			relid = get_relname_relid(name, nspid);
		}
	}
	/* stored as pg_partman stores it: schema.table, unquoted */
	return psprintf("%s.%s", get_namespace_name(get_rel_namespace(relid)), get_rel_name(relid));
}

/*
 * pg_partmgr_create_parent
 *		partmgr.create_parent(): validate every argument, register the set in
 *		part_config, create its initial children (standalone tables, then
 *		ATTACH) and its default partition.  Returns true.
 */
Datum
pg_partmgr_create_parent(PG_FUNCTION_ARGS)
{
	static const char *const types[] = {"range", "list", NULL};
	static const char *const epochs[] = {"none", "seconds", "milliseconds",
	"microseconds", "nanoseconds", NULL};
	static const char *const on_off[] = {"on", "off", NULL};
	static const char *const legacy_intervals[] = {"yearly", "quarterly",
		"monthly", "weekly", "daily", "hourly", "half-hour", "quarter-hour",
	NULL};
	static const int required[] = {0, 1, 2, 3, 4, 5, 7, 8, 11, 13};
	/* the 0.1.0 declaration has no p_time_encoder and p_time_decoder */
	int			zone_arg = PG_NARGS() > 15 ? 16 : 14;
	char	   *table;
	char	   *control;
	char	   *interval;
	char	   *type;
	char	   *epoch;
	char	   *start_text;
	char	   *automatic;
	char	   *template_table;
	char	   *trunc_unit;
	char	   *encoder_name;
	char	   *decoder_name;
	char	   *zone;
	int			premake;
	bool		with_default;
	PartmgrParentInfo parent;
	PartmgrSet	proto;
	PartmgrSet *set;
	PartmgrPoint start = 0;
	PartmgrErrorContext argctx;

	for (int i = 0; i < lengthof(required); i++)
		partmgr_require_arg(fcinfo, required[i], create_parent_args[required[i]]);
	partmgr_require_arg(fcinfo, zone_arg, "p_time_zone");
	table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	control = partmgr_text_arg(fcinfo, 1, "p_control");
	interval = partmgr_text_arg(fcinfo, 2, "p_interval");
	type = partmgr_text_arg(fcinfo, 3, "p_type");
	epoch = partmgr_text_arg(fcinfo, 4, "p_epoch");
	premake = PG_GETARG_INT32(5);
	start_text = partmgr_text_arg_or_null(fcinfo, 6);
	with_default = PG_GETARG_BOOL(7);
	automatic = partmgr_text_arg(fcinfo, 8, "p_automatic_maintenance");
	template_table = partmgr_text_arg_or_null(fcinfo, 10);
	trunc_unit = partmgr_text_arg_or_null(fcinfo, 12);
	encoder_name = zone_arg == 16 ? partmgr_text_arg_or_null(fcinfo, 14) : NULL;
	decoder_name = zone_arg == 16 ? partmgr_text_arg_or_null(fcinfo, 15) : NULL;
	zone = partmgr_text_arg(fcinfo, zone_arg, "p_time_zone");

	check_choice("p_type", type, types,
				 "p_type is 'range' (the default) or 'list'; pg_partman 4's 'native' is 'range' now.");
	check_choice("p_epoch", epoch, epochs,
				 "p_epoch is 'none', 'seconds', 'milliseconds', 'microseconds' or 'nanoseconds'.");
	check_choice("p_automatic_maintenance", automatic, on_off,
				 "p_automatic_maintenance is 'on' or 'off'.");
	for (int i = 0; legacy_intervals[i] != NULL; i++)
	{
		if (strcmp(interval, legacy_intervals[i]) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("partition interval \"%s\" is a pg_partman 4 keyword", interval),
					 errhint("Give an interval value such as '1 day', '1 month' or '15 minutes'.")));
	}
	if (premake < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_premake must be at least 1, not %d", premake)));
	if (!partmgr_zone_is_valid(zone))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("time zone \"%s\" is not recognized", zone),
				 errhint("Use a full time zone name from pg_timezone_names, such as \"UTC\" or \"Europe/Berlin\".")));
	if (trunc_unit != NULL && !partmgr_trunc_unit_is_valid(trunc_unit))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_date_trunc_interval \"%s\" is not a date_trunc() unit", trunc_unit),
				 errhint("Use one of second, minute, hour, day, week, month, quarter, year, decade, century or millennium.")));
	if ((encoder_name == NULL) != (decoder_name == NULL))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_time_encoder and p_time_decoder go together"),
				 errhint("Give both, or neither.")));
	if (encoder_name != NULL && (strcmp(epoch, "none") != 0 || strcmp(type, "list") == 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a set with a time encoder and decoder is a range set without p_epoch")));
	check_create_parent_table(table, control, PG_GETARG_BOOL(13), encoder_name != NULL, &parent);
	if (parent.strategy != (strcmp(type, "list") == 0 ? PARTITION_STRATEGY_LIST :
							PARTITION_STRATEGY_RANGE))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("table \"%s\" is partitioned by %s, but p_type is \"%s\"", table,
						parent.strategy == PARTITION_STRATEGY_LIST ? "LIST" : "RANGE", type)));

	memset(&proto, 0, sizeof(proto));
	proto.key = partmgr_table_key(parent.relid);
	proto.control = control;
	proto.strategy = parent.strategy;
	proto.epoch = epoch;
	proto.premake = premake;
	proto.automatic_maintenance = strcmp(automatic, "on") == 0;
	proto.jobmon = PG_GETARG_BOOL(11);
	proto.default_table = with_default;
	proto.constraint_cols = partmgr_text_array_arg(fcinfo, 9);
	partmgr_check_constraint_cols(parent.relid, control, proto.constraint_cols);
	if (encoder_name != NULL)
	{
		partmgr_axis_init(&proto.axis, TIMESTAMPTZOID, zone);
		partmgr_axis_set_codec(&proto.axis, parent.key_type,
							   partmgr_time_encoder_oid(encoder_name, parent.key_type),
							   partmgr_time_decoder_oid(decoder_name));
		proto.time_encoder = encoder_name;
		proto.time_decoder = decoder_name;
	}
	else
		partmgr_axis_init(&proto.axis, parent.key_type, zone);
	partmgr_axis_set_epoch(&proto.axis, epoch);

	partmgr_context_push(&argctx, "argument %s", "p_interval");
	partmgr_step_parse(&proto.axis, interval, "partition interval", &proto.step);
	partmgr_context_pop(&argctx);
	if (proto.strategy == PARTITION_STRATEGY_LIST)
		partmgr_check_list_set(&proto.axis, &proto.step);
	else if (proto.axis.kind == PARTMGR_KEY_ID && proto.step.id < 2)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partition interval of a range id set must be at least 2"),
				 errhint("Use list partitioning for one value per child.")));
	if (proto.axis.kind == PARTMGR_KEY_ID && trunc_unit != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_date_trunc_interval applies only to time partition sets")));
	proto.interval_text = partmgr_step_text(&proto.step);
	proto.datetime_string = (char *) partmgr_default_datetime_string(&proto.step);
	if (trunc_unit != NULL)
		partmgr_check_trunc_unit(&proto.step, trunc_unit);
	proto.date_trunc_interval = trunc_unit;
	if (start_text != NULL)
	{
		partmgr_context_push(&argctx, "argument %s", "p_start_partition");
		start = partmgr_point_parse(&proto.axis, start_text);
		partmgr_context_pop(&argctx);
		if (!partmgr_point_fits_type(&proto.axis, start))
			ereport(ERROR,
					(errcode(proto.axis.kind == PARTMGR_KEY_TIME ?
							 ERRCODE_DATETIME_VALUE_OUT_OF_RANGE :
							 ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("p_start_partition \"%s\" is out of range for type %s",
							start_text, format_type_be(parent.key_type))));
	}

	SPI_connect();
	if (partmgr_config_load(proto.key, true) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("table \"%s\" is already managed by pg_partmgr", proto.key),
				 errhint("Change its settings with UPDATE partmgr.part_config.")));
	partmgr_lock_set_or_raise(parent.relid, proto.key);
	proto.template_table = template_for(&parent, template_table);
	partmgr_config_insert(&proto);
	set = partmgr_config_load(proto.key, false);
	(void) partmgr_execute_or_raise(partmgr_plan_initial(set, partmgr_read_tree(set),
														 start_text != NULL, start,
														 with_default,
														 GetCurrentTransactionStartTimestamp()),
									"create_parent", NULL);
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
	char	   *table = partmgr_text_arg_or_null(fcinfo, 0);
	bool		analyze = !PG_ARGISNULL(1) && PG_GETARG_BOOL(1);

	SPI_connect();
	partmgr_run_maintenance(table, analyze, "run_maintenance");
	SPI_finish();
	PG_RETURN_VOID();
}

/*
 * partmgr_pause_seconds
 *		Sleep, interruptibly, until the given number of seconds has passed
 *		(a latch set by someone else does not cut it short).
 */
void
partmgr_pause_seconds(int seconds)
{
	TimestampTz until = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
												   seconds * 1000L);

	for (;;)
	{
		long		left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), until);

		if (left <= 0)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 left, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * pg_partmgr_run_maintenance_proc
 *		PROCEDURE partmgr.run_maintenance_proc(p_wait, p_analyze, p_jobmon):
 *		maintain every set with automatic maintenance on, committing after
 *		each set and pausing p_wait seconds between sets.  Called inside a
 *		transaction block (where it cannot commit) it maintains the sets in
 *		that transaction, as run_maintenance() does.  A failing set is a
 *		WARNING and the next set is maintained.
 */
Datum
pg_partmgr_run_maintenance_proc(PG_FUNCTION_ARGS)
{
	int			wait = PG_ARGISNULL(0) ? 0 : PG_GETARG_INT32(0);
	bool		analyze = !PG_ARGISNULL(1) && PG_GETARG_BOOL(1);
	bool		nonatomic = fcinfo->context != NULL &&
		IsA(fcinfo->context, CallContext) &&
		!castNode(CallContext, fcinfo->context)->atomic;
	List	   *keys;
	ListCell   *lc;
	MemoryContext per_set;
	PartmgrRunStamps stamps;

	if (wait < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_wait must not be negative, not %d", wait)));
	if (RecoveryInProgress())
		PG_RETURN_VOID();

	/* in a non-atomic connection, SPI's memory survives our commits */
	SPI_connect_ext(nonatomic ? SPI_OPT_NONATOMIC : 0);
	keys = partmgr_config_list(true);
	partmgr_stamps_init(&stamps);
	per_set = AllocSetContextCreate(CurrentMemoryContext,
									"pg_partmgr run_maintenance_proc",
									ALLOCSET_DEFAULT_SIZES);
	foreach(lc, keys)
	{
		const char *key = (const char *) lfirst(lc);
		MemoryContext caller = MemoryContextSwitchTo(per_set);
		PartmgrSetOutcome outcome;
		bool		snapshot = false;

		if (!ActiveSnapshotSet())
		{
			PushActiveSnapshot(GetTransactionSnapshot());
			snapshot = true;
		}
		partmgr_maintain_set(key, NULL, analyze, "run_maintenance_proc", &outcome);
		if (outcome.error != NULL)
			partmgr_report_set_failure(key, outcome.error);
		if (outcome.finished != 0)
			partmgr_stamps_add(&stamps, key, outcome.finished);
		if (snapshot)
			PopActiveSnapshot();
		MemoryContextSwitchTo(caller);
		MemoryContextReset(per_set);

		if (nonatomic)
			SPI_commit();

		/* constraints added NOT VALID are validated once that is committed */
		if (nonatomic && outcome.to_validate)
		{
			PartmgrSetOutcome validated;

			MemoryContextSwitchTo(per_set);
			snapshot = !ActiveSnapshotSet();
			if (snapshot)
				PushActiveSnapshot(GetTransactionSnapshot());
			partmgr_validate_set(key, "run_maintenance_proc", &validated);
			if (validated.error != NULL)
				partmgr_report_set_failure(key, validated.error);
			if (snapshot)
				PopActiveSnapshot();
			MemoryContextSwitchTo(caller);
			MemoryContextReset(per_set);
			SPI_commit();
		}
		if (wait > 0 && lnext(keys, lc) != NULL)
			partmgr_pause_seconds(wait);
	}
	/* maintenance_last_run of every set, in the call's last transaction */
	if (stamps.n > 0)
	{
		bool		snapshot = !ActiveSnapshotSet();

		if (snapshot)
			PushActiveSnapshot(GetTransactionSnapshot());
		partmgr_stamps_write(&stamps);
		if (snapshot)
			PopActiveSnapshot();
	}
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
	ListCell   *lc;
	int			done;

	SPI_connect();
	set = partmgr_load_set_of_kind(table, kind, kind == PARTMGR_KEY_TIME ?
						   "drop_partition_id()" : "drop_partition_time()");

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
		retention.retire.schema = text_to_cstring(PG_GETARG_TEXT_PP(4));
	if (retention.retire.schema != NULL)
		partmgr_retention_check_schema(set, retention.retire.schema);
	if (kind == PARTMGR_KEY_TIME && !PG_ARGISNULL(5))
	{
		retention.have_reference = true;
		retention.reference = PG_GETARG_TIMESTAMPTZ(5);
	}

	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	plan = partmgr_plan_retention(set, partmgr_read_tree(set), &retention,
								  GetCurrentTransactionStartTimestamp());
	done = partmgr_execute_or_raise(plan, kind == PARTMGR_KEY_TIME ?
									"drop_partition_time" : "drop_partition_id", NULL);
	foreach(lc, plan->actions)
	{
		if (((PartmgrAction *) lfirst(lc))->kind == PARTMGR_ACTION_FINALIZE_DETACH)
			done--;
	}
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
Datum
pg_partmgr_show_partitions(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	char	   *order = partmgr_text_arg(fcinfo, 1, "p_order");
	bool		descending;
	PartmgrSet *set;
	PartmgrTree *tree;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	partmgr_require_arg(fcinfo, 2, "p_include_default");
	if (pg_strcasecmp(order, "ASC") != 0 && pg_strcasecmp(order, "DESC") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value \"%s\" for p_order", order),
				 errhint("p_order is 'ASC' or 'DESC'.")));
	descending = pg_strcasecmp(order, "DESC") == 0;

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	set = partmgr_config_load_table(table);
	tree = partmgr_read_tree(set);
	if (PG_GETARG_BOOL(2) && OidIsValid(tree->default_oid))
	{
		values[0] = CStringGetTextDatum(tree->default_schema);
		values[1] = CStringGetTextDatum(tree->default_name);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	for (int i = 0; i < tree->nchildren; i++)
	{
		PartmgrChild *child = &tree->children[descending ? tree->nchildren - 1 - i : i];

		if (child->detach_pending)
			continue;			/* on its way out: no longer part of the set */
		values[0] = CStringGetTextDatum(child->schema);
		values[1] = CStringGetTextDatum(child->name);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	SPI_finish();
	return (Datum) 0;
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

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	SPI_connect();
	set = partmgr_config_load_table(table);
	partmgr_context_push(&argctx, "argument %s", "p_value");
	value = partmgr_point_parse(&set->axis, value_text);
	partmgr_context_pop(&argctx);
	lower = partmgr_slot_lower(set, partmgr_read_tree(set), value);
	name = partmgr_child_name(set, lower);

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
	if (parent_text != NULL && partmgr_resolve_table(parent_text, false) != parent_oid)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("table \"%s\" is not a partition of \"%s\"", child_text, parent_text)));
	set = partmgr_config_load(partmgr_table_key(parent_oid), false);
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

		partmgr_step_parse(&set->axis, interval_text, "partition interval", &step);
		upper = partmgr_point_add(&set->axis, &step, child->lower, 1);
	}

	MemoryContextSwitchTo(caller);
	if (set->axis.kind == PARTMGR_KEY_TIME)
	{
		if (child->lower != PARTMGR_POINT_MIN)
		{
			values[0] = TimestampTzGetDatum(partmgr_point_to_timestamptz(&set->axis, child->lower));
			nulls[0] = false;
			values[4] = CStringGetTextDatum(partmgr_time_suffix(&set->axis, child->lower,
																set->datetime_string));
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
			values[4] = CStringGetTextDatum(psprintf(INT64_FORMAT, child->lower));
		}
		else
			nulls[4] = true;
		if (upper != PARTMGR_POINT_MAX)
		{
			values[3] = Int64GetDatum(upper);
			nulls[3] = false;
		}
	}
	tuple = heap_form_tuple(tupdesc, values, nulls);
	SPI_finish();
	PG_RETURN_DATUM(HeapTupleGetDatum(tuple));
}

/*
 * pg_partmgr_check_default
 *		partmgr.check_default(): default partitions of managed sets that hold
 *		rows.  Sets whose parent no longer exists are passed over.
 */
Datum
pg_partmgr_check_default(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	bool		exact = PG_ARGISNULL(0) || PG_GETARG_BOOL(0);
	List	   *keys;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	keys = partmgr_config_list(false);
	foreach(lc, keys)
	{
		Oid			parent_oid = partmgr_resolve_table((char *) lfirst(lc), true);
		Oid			default_oid;
		char	   *schema;
		char	   *name;
		int64		count;
		bool		isnull;
		Datum		values[2];
		bool		nulls[2] = {false, false};

		if (!OidIsValid(parent_oid) ||
			get_rel_relkind(parent_oid) != RELKIND_PARTITIONED_TABLE)
			continue;
		default_oid = get_default_partition_oid(parent_oid);
		if (!OidIsValid(default_oid))
			continue;
		schema = get_namespace_name(get_rel_namespace(default_oid));
		name = get_rel_name(default_oid);
		partmgr_spi_exec(partmgr_ddl_count_rows(schema, name, exact, true), 0, NULL,
						 NULL, NULL, true, SPI_OK_SELECT);
		count = DatumGetInt64(partmgr_spi_value(0, 1, &isnull));
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
	int			created;

	SPI_connect();
	set = partmgr_config_load_table(table);
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	created = partmgr_execute_or_raise(partmgr_plan_gap_fill(set, partmgr_read_tree(set)),
									   "partition_gap_fill", NULL);
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
	int			created;

	partmgr_require_arg(fcinfo, 1, kind == PARTMGR_KEY_TIME ? "p_partition_times" : "p_partition_ids");
	array = PG_GETARG_ARRAYTYPE_P(1);
	deconstruct_array(array, elemtype, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &elems, &elemnulls, &nelems);

	SPI_connect();
	set = partmgr_load_set_of_kind(table, kind, kind == PARTMGR_KEY_TIME ?
						   "create_partition_id()" : "create_partition_time()");
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
	created = partmgr_execute_or_raise(partmgr_plan_explicit(set, partmgr_read_tree(set),
															 lowers, n),
									   kind == PARTMGR_KEY_TIME ?
									   "create_partition_time" : "create_partition_id", NULL);
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
