/*-------------------------------------------------------------------------
 *
 * setup.c
 *	  Register a partition set: create_parent's work, shared by
 *	  create_parent(), create_sub_parent() and the sub-sets maintenance
 *	  makes for new children of a sub-partitioned set.
 *
 * Every argument is checked before anything is written; then the set's
 * part_config row is inserted and its first children and default
 * partition are created through a plan (execute.c), in the caller's
 * transaction.  An error leaves nothing behind.
 *
 * Locks: the set's advisory lock, without waiting (55P03 if a maintenance
 * run holds it), and those execute.c takes for each new child.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/setup.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_class.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "compat.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "bounds.h"
#include "catalog.h"
#include "children.h"
#include "config.h"
#include "constraints.h"
#include "statements.h"
#include "execute.h"
#include "locks.h"
#include "properties.h"
#include "rights.h"
#include "setup.h"
#include "spi_util.h"
#include "tiers.h"

/*
 * partmgr_check_owner
 *		Raise 42501 unless the current user has the rights of the table's
 *		owner.
 */
void
partmgr_check_owner(Oid relid, const char *name)
{
	if (!partmgr_table_ownercheck(relid, GetUserId()))
		aclcheck_error(ACLCHECK_NOT_OWNER, OBJECT_TABLE, name);
}


/*
 * check_create_parent_table
 *		The parent and control column checks of create_parent: the table
 *		exists, is partitioned by RANGE on the single column p_control, the
 *		caller owns it, the column's type is supported and (unless allowed)
 *		it is NOT NULL.  Fills parent.
 */
static void
check_create_parent_table(const char *table, const char *control,
						  bool control_not_null, bool encoded,
						  PartmgrParentInfo *parent)
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
	partmgr_check_owner(relid, parent->name);
	if (parent->nkeys != 1 || parent->key_attnum == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 parent->nkeys != 1 ?
				 errmsg("table \"%s\" is partitioned by more than one column",
						table) :
				 errmsg("table \"%s\" is partitioned by an expression", table),
				 errdetail("pg_partmgr manages tables partitioned by a single column.")));

	attnum = get_attnum(relid, control);
	if (attnum == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of table \"%s\" does not exist",
						control, table)));
	if (attnum != parent->key_attnum)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("column \"%s\" is not the partition key of table \"%s\"", control, table),
				 errdetail("The table is partitioned by column \"%s\".",
						   get_attname(relid, parent->key_attnum, false))));
	if (parent->strategy == PARTITION_STRATEGY_HASH)
		;						/* any type with a hash operator class */
	else if (encoded)
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

	atttup = SearchSysCache2(ATTNUM, ObjectIdGetDatum(relid),
							 Int16GetDatum(attnum));
	if (!HeapTupleIsValid(atttup))
		elog(ERROR, "cache lookup failed for attribute %d of relation %u",
			 attnum, relid);
	attnotnull = ((Form_pg_attribute) GETSTRUCT(atttup))->attnotnull;
	ReleaseSysCache(atttup);
	if (control_not_null && !attnotnull &&
		parent->strategy != PARTITION_STRATEGY_HASH)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("control column \"%s\" of table \"%s\" is nullable",
						control, table),
				 errdetail("Rows with a NULL key can only go to the default partition."),
				 errhint("Run ALTER TABLE %s ALTER COLUMN %s SET NOT NULL, or pass p_control_not_null => false.",
						 quote_qualified_identifier(parent->schema,
													parent->name),
						 quote_identifier(control))));
}

/* Whether a role may create tables in a schema (ACLCHECK_OK). */
static AclResult
may_create_in(Oid nspid, Oid role)
{
	return partmgr_schema_aclcheck(nspid, role, ACL_CREATE);
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

/*
 * template_for
 *		part_config.template_table of a new set, from p_template_table as
 *		pg_partman 5 reads it: NULL makes partmgr.template_<schema>_<table>
 *		(LIKE the parent, owned by the parent's owner; one left by an
 *		earlier set of that name is used again if it fits), 'false' or 'f'
 *		means none, anything else names an existing table.
 */
static bool
no_template(const char *given)
{
	return given != NULL &&
		(pg_strcasecmp(given, "false") == 0 || pg_strcasecmp(given, "f") == 0);
}

static char *
template_for(const PartmgrParentInfo *parent, const char *given, Oid given_oid)
{
	char	   *name;
	Oid			relid;

	if (no_template(given))
		return NULL;
	if (given != NULL)
		relid = partmgr_check_template(parent->relid, given, given_oid);
	else
	{
		Oid			nspid = get_namespace_oid(PARTMGR_SCHEMA, false);

		name = partmgr_template_name(parent->schema, parent->name);
		relid = get_relname_relid(name, nspid);
		if (OidIsValid(relid))
			(void) partmgr_check_template(parent->relid,
										  quote_qualified_identifier(PARTMGR_SCHEMA, name),
										  relid);
		else
		{
			/*
			 * pg_partmgr's own table in its own schema, made with the
			 * caller's rights and given to the owner: LIKE without INCLUDING
			 * copies names, types and NOT NULL only, so nothing the owner
			 * defined is evaluated (the template's own indexes, which the
			 * owner adds later, are built on children with the owner's
			 * rights)
			 */
			Oid			caller = partmgr_rights_caller();

			if (may_create_in(nspid, caller) != ACLCHECK_OK)
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("permission denied to create template table %s",
								quote_qualified_identifier(PARTMGR_SCHEMA,
														   name)),
						 errhint("GRANT CREATE ON SCHEMA %s to the role, or pass p_template_table => 'false' or the name of a table of your own.",
								 PARTMGR_SCHEMA)));
			partmgr_spi_exec(partmgr_ddl_create_template(parent->schema,
														 parent->name,
														 PARTMGR_SCHEMA, name),
							 0, NULL, NULL, NULL, false, SPI_OK_UTILITY);
			if (parent->owner != caller)
				partmgr_spi_exec(partmgr_ddl_set_owner(PARTMGR_SCHEMA, name,
													   parent->owner),
								 0, NULL, NULL, NULL, false, SPI_OK_UTILITY);
			CommandCounterIncrement();
			relid = get_relname_relid(name, nspid);
		}
	}
	/* stored as a key, as pg_partman stores it where names allow */
	return partmgr_table_key(relid);
}

/*
 * partmgr_check_create_args
 *		The checks of create_parent's settings that need no table: the
 *		words (type, epoch, automatic maintenance), the interval not a
 *		pg_partman 4 keyword, premake, the time zone, the truncation unit
 *		and the encoder and decoder pair.  create_sub_parent makes them
 *		before it touches anything.
 */
void
partmgr_check_create_args(const PartmgrCreateArgs *a)
{
	static const char *const types[] = {"range", "list", "hash", NULL};
	static const char *const epochs[] = {"none", "seconds", "milliseconds",
	"microseconds", "nanoseconds", NULL};
	static const char *const on_off[] = {"on", "off", NULL};
	static const char *const legacy_intervals[] = {"yearly", "quarterly",
		"monthly", "weekly", "daily", "hourly", "half-hour", "quarter-hour",
	NULL};
	const char *interval = a->interval;
	const char *zone = a->zone;

	check_choice("p_type", a->type, types,
				 "p_type is 'range' (the default), 'list' or 'hash'; pg_partman 4's 'native' is 'range' now.");
	check_choice("p_epoch", a->epoch, epochs,
				 "p_epoch is 'none', 'seconds', 'milliseconds', 'microseconds' or 'nanoseconds'.");
	check_choice("p_automatic_maintenance", a->automatic, on_off,
				 "p_automatic_maintenance is 'on' or 'off'.");
	for (int i = 0; legacy_intervals[i] != NULL; i++)
	{
		if (strcmp(interval, legacy_intervals[i]) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("partition interval \"%s\" is a pg_partman 4 keyword", interval),
					 errhint("Give an interval value such as '1 day', '1 month' or '15 minutes'.")));
	}
	if (a->premake < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_premake must be at least 1, not %d", a->premake)));
	if (a->premake > PARTMGR_MAX_PREMAKE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_premake must be at most %d, not %d",
						PARTMGR_MAX_PREMAKE, a->premake),
				 errdetail("Each child ahead is a table that the planner and every maintenance pass look at.")));
	if (!partmgr_zone_is_valid(zone))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("time zone \"%s\" is not recognized", zone),
				 errhint("Use a full time zone name from pg_timezone_names, such as \"UTC\" or \"Europe/Berlin\".")));
	if (a->trunc_unit != NULL && !partmgr_trunc_unit_is_valid(a->trunc_unit))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_date_trunc_interval \"%s\" is not a date_trunc() unit", a->trunc_unit),
				 errhint("Use one of second, minute, hour, day, week, month, quarter, year, decade, century or millennium.")));
	if ((a->encoder == NULL) != (a->decoder == NULL))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_time_encoder and p_time_decoder go together"),
				 errhint("Give both, or neither.")));
	if (strcmp(a->type, "hash") == 0 &&
		(a->encoder != NULL || strcmp(a->epoch, "none") != 0 ||
		 a->trunc_unit != NULL ||
		 a->offset_id != 0 || a->constraint_cols != NIL))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a hash set takes no p_epoch, p_time_encoder, p_date_trunc_interval, p_offset_id or p_constraint_cols"),
				 errdetail("Its children hold rows by the hash of the key, not by ranges of it.")));
	if (a->encoder != NULL &&
		(strcmp(a->epoch, "none") != 0 || strcmp(a->type, "list") == 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a set with a time encoder and decoder is a range set without p_epoch")));
}

/*
 * create_hash_set
 *		create_parent's work for a hash set (p_type => 'hash', our
 *		addition): p_interval is the modulus, and a child is made for each
 *		of its remainders, named <parent>_h<modulus>_<remainder>.  No
 *		default partition (PostgreSQL has none for HASH), no premake and
 *		no retention: maintenance leaves the set's children alone;
 *		split_hash_partition and merge_hash_partitions change them.  In the
 *		owner's rights scope.
 */
static PartmgrSet *
create_hash_set(const PartmgrCreateArgs *a, const PartmgrParentInfo *parent,
				Oid template_oid,
				const char *run_by)
{
	PartmgrSet	proto;
	PartmgrSet *set;
	PartmgrPlan *plan;
	char	   *end;
	long		modulus;

	errno = 0;
	modulus = strtol(a->interval, &end, 10);
	if (errno != 0 || *end != '\0' ||
		!isdigit((unsigned char) a->interval[0]) || modulus < 1 ||
		modulus > PARTMGR_MAX_HASH_MODULUS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_interval of a hash set is its modulus, from 1 to %d, not \"%s\"",
						PARTMGR_MAX_HASH_MODULUS, a->interval),
				 errhint("p_interval => '8' makes eight children.")));
	if (get_rel_relispartition(parent->relid))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("table \"%s\" is a partition itself: pg_partmgr makes no hash set below another set",
						a->table)));
	memset(&proto, 0, sizeof(proto));
	proto.key = partmgr_table_key(parent->relid);
	proto.control = pstrdup(a->control);
	proto.strategy = PARTITION_STRATEGY_HASH;
	proto.epoch = pstrdup(a->epoch);
	proto.premake = a->premake;
	proto.automatic_maintenance = strcmp(a->automatic, "on") == 0;
	proto.jobmon = a->jobmon;
	proto.default_table = false;
	proto.interval_text = psprintf("%ld", modulus);
	if (partmgr_config_load(proto.key, true) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("table \"%s\" is already managed by pg_partmgr",
						proto.key),
				 errhint("Change its settings with UPDATE partmgr.part_config.")));
	if (!partmgr_try_lock_set(parent->relid))
		ereport(ERROR,
				(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
				 errmsg("partition set \"%s\" is being maintained by another session", proto.key),
				 errhint("Try again when that maintenance run has finished.")));
	proto.template_table = template_for(parent, a->template_table,
										template_oid);
	partmgr_config_insert(&proto);
	set = partmgr_config_load(proto.key, false);
	plan = partmgr_plan_hash_initial(set, partmgr_read_tree(set));
	partmgr_plan_tables(plan);
	(void) partmgr_execute_or_raise(plan, run_by, NULL);
	return set;
}

/*
 * partmgr_create_set
 *		create_parent's work: validate every setting, register the set in
 *		part_config, create its initial children (standalone tables, then
 *		ATTACH) and its default partition.  within, when given, says where
 *		a sub-parent made before it is attached will be: the set's children
 *		stay inside the range it will cover when they are keyed by the same
 *		column, and it is sub-partitioned like its siblings (as a table that
 *		is a partition already is).  run_by names the caller in the
 *		maintenance log.  The caller is connected to SPI.  Returns the set
 *		as registered.
 */
PartmgrSet *
partmgr_create_set(const PartmgrCreateArgs *a, const PartmgrSubLimits *within,
				   const char *run_by)
{
	const char *table = a->table;
	const char *interval = a->interval;
	const char *zone = a->zone;
	PartmgrParentInfo parent;
	PartmgrSet	proto;
	PartmgrSet *set;
	PartmgrPlan *plan;
	PartmgrPoint start = 0;
	PartmgrErrorContext argctx;
	PartmgrRights rights;
	Oid			template_oid = InvalidOid;
	char	   *encoder;
	char	   *decoder;

	partmgr_check_create_args(a);
	check_create_parent_table(table, a->control, a->control_not_null,
							  a->encoder != NULL,
							  &parent);
	/* what the caller names is looked up with the caller's search_path */
	if (a->template_table != NULL && !no_template(a->template_table))
		template_oid = partmgr_resolve_table(a->template_table, true);
	encoder = partmgr_function_name(a->encoder, TIMESTAMPTZOID);
	decoder = partmgr_function_name(a->decoder, TEXTOID);
	/* from here on, everything done to the table is done as its owner */
	partmgr_rights_enter_table(parent.relid, parent.owner, PARTMGR_RIGHTS_ACT,
							   table, &rights);
	if (parent.strategy != partmgr_strategy_of(a->type))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("table \"%s\" is partitioned by %s, but p_type is \"%s\"", table,
						parent.strategy == PARTITION_STRATEGY_LIST ? "LIST" :
						parent.strategy == PARTITION_STRATEGY_HASH ? "HASH" :
						"RANGE", a->type),
				 errhint("Pass p_type => '%s'.",
						 partmgr_strategy_name(parent.strategy))));
	if (parent.strategy == PARTITION_STRATEGY_HASH)
	{
		set = create_hash_set(a, &parent, template_oid, run_by);
		partmgr_rights_leave(&rights);
		return set;
	}

	memset(&proto, 0, sizeof(proto));
	proto.key = partmgr_table_key(parent.relid);
	proto.control = pstrdup(a->control);
	proto.strategy = parent.strategy;
	proto.epoch = pstrdup(a->epoch);
	proto.premake = a->premake;
	proto.automatic_maintenance = strcmp(a->automatic, "on") == 0;
	proto.jobmon = a->jobmon;
	proto.default_table = a->with_default;
	proto.constraint_cols = a->constraint_cols;
	partmgr_check_constraint_cols(parent.relid, a->control,
								  proto.constraint_cols);
	if (a->encoder != NULL)
	{
		partmgr_axis_init(&proto.axis, TIMESTAMPTZOID, zone);
		partmgr_axis_set_codec(&proto.axis, parent.key_type,
							   partmgr_time_encoder_oid(encoder,
														parent.key_type),
							   partmgr_time_decoder_oid(decoder));
		proto.time_encoder = encoder;
		proto.time_decoder = decoder;
	}
	else
		partmgr_axis_init(&proto.axis, parent.key_type, zone);
	partmgr_axis_set_epoch(&proto.axis, a->epoch);
	/* the zone is recorded for time sets, as pg_partman 5.4.4 does */
	if (proto.axis.kind == PARTMGR_KEY_TIME)
		proto.partition_timezone = pstrdup(zone);
	if (a->offset_id != 0 && proto.axis.kind != PARTMGR_KEY_ID)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_offset_id applies only to sets partitioned by an integer, not to \"%s\"",
						table),
				 errhint("A time set's children are aligned by p_date_trunc_interval and p_start_partition.")));

	partmgr_context_push(&argctx, "argument %s", "p_interval");
	partmgr_step_parse(&proto.axis, interval, PARTMGR_STEP_PARTITION,
					   &proto.step);
	partmgr_context_pop(&argctx);
	if (proto.strategy == PARTITION_STRATEGY_LIST)
		partmgr_check_list_set(&proto.axis, &proto.step);
	else if (proto.axis.kind == PARTMGR_KEY_ID && proto.step.id < 2)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partition interval of a range id set must be at least 2"),
				 errhint("Use list partitioning for one value per child.")));
	if (proto.axis.kind == PARTMGR_KEY_ID && a->trunc_unit != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_date_trunc_interval applies only to time partition sets")));
	proto.interval_text = partmgr_step_text(&proto.step);
	proto.datetime_string =
		(char *) partmgr_default_datetime_string(&proto.step);
	if (a->trunc_unit != NULL)
		partmgr_check_trunc_unit(&proto.step, a->trunc_unit);
	proto.date_trunc_interval = a->trunc_unit ? pstrdup(a->trunc_unit) : NULL;
	if (a->start != NULL)
	{
		partmgr_context_push(&argctx, "argument %s", "p_start_partition");
		start = partmgr_point_parse(&proto.axis, a->start);
		partmgr_context_pop(&argctx);
		if (!partmgr_point_fits_type(&proto.axis, start))
			ereport(ERROR,
					(errcode(proto.axis.kind == PARTMGR_KEY_TIME ?
							 ERRCODE_DATETIME_VALUE_OUT_OF_RANGE :
							 ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("p_start_partition \"%s\" is out of range for type %s",
							a->start, format_type_be(parent.key_type))));
	}

	if (partmgr_config_load(proto.key, true) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("table \"%s\" is already managed by pg_partmgr",
						proto.key),
				 errhint("Change its settings with UPDATE partmgr.part_config.")));
	if (!partmgr_try_lock_set(parent.relid))
		ereport(ERROR,
				(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
				 errmsg("partition set \"%s\" is being maintained by another session", proto.key),
				 errhint("Try again when that maintenance run has finished.")));
	proto.template_table = template_for(&parent, a->template_table,
										template_oid);
	partmgr_config_insert(&proto);
	/* a sub-set among sub-partitioned siblings is partitioned like them */
	if (within != NULL || get_rel_relispartition(parent.relid))
		(void) partmgr_sub_spec_copy_sibling(proto.key, parent.relid,
											 within != NULL ? within->above :
											 get_partition_parent(parent.relid,
																  true));
	set = partmgr_config_load(proto.key, false);
	if (within != NULL && within->ranged && !set->has_limits &&
		strcmp(within->control, set->control) == 0 &&
		set->strategy == PARTITION_STRATEGY_RANGE)
	{
		set->has_limits = true;
		set->limit_lower = within->lower;
		set->limit_upper = within->upper;
	}
	plan = partmgr_plan_initial(set, partmgr_read_tree(set), a->start != NULL,
								start,
								a->offset_id, a->with_default,
								GetCurrentTransactionStartTimestamp());
	partmgr_plan_tables(plan);
	(void) partmgr_execute_or_raise(plan, run_by, NULL);
	partmgr_rights_leave(&rights);
	return set;
}

/*
 * register_sub_set
 *		A plan's PartmgrRegisterSubSet (see partmgr_plan_tables): register
 *		the child a CREATE_CHILD action has just made (partitioned, not yet
 *		attached) as a set of its own, as the part_config_sub row of the
 *		plan's set says, with its first children and default partition (see
 *		partmgr_create_sub_set).  Runs in the action's subtransaction: the
 *		child and its sub-set come into being together or not at all.
 */
static void
register_sub_set(const PartmgrPlan *plan, const PartmgrAction *action,
				 const char *run_by)
{
	PartmgrSubLimits within;
	PartmgrErrorContext ctx;

	partmgr_context_push(&ctx,
						 "registering a new child of \"%s\" as"
						 " partmgr.part_config_sub says",
						 plan->set->key);
	within.above = plan->set->parent_oid;
	within.ranged = plan->set->strategy == PARTITION_STRATEGY_RANGE;
	within.control = plan->set->control;
	within.lower = action->lower;
	within.upper = action->upper;
	(void) partmgr_create_sub_set(plan->sub,
								  quote_qualified_identifier(action->schema,
															 action->name),
								  plan->sub_start, &within, run_by);
	partmgr_context_pop(&ctx);
}

/*
 * partmgr_plan_tables
 *		What the tables a plan creates get, filled into the plan by the job
 *		that made it, once every action is in it: how new children are
 *		partitioned in turn (part_config_sub) and the registration of each
 *		such child as a set of its own, the tier a new child's bounds put it
 *		in (tiers.c), then the template's and the parent's properties
 *		(properties.c).  A plan that creates no table
 *		reads nothing.
 */
void
partmgr_plan_tables(PartmgrPlan *plan)
{
	bool		creates_child = false;
	bool		creates_table = false;
	ListCell   *lc;

	foreach(lc, plan->actions)
	{
		const PartmgrAction *action = (const PartmgrAction *) lfirst(lc);

		if (action->kind == PARTMGR_ACTION_CREATE_CHILD)
			creates_child = creates_table = true;
		else if (action->kind == PARTMGR_ACTION_CREATE_DEFAULT)
			creates_table = true;
	}
	if (creates_child)
	{
		MemoryContext caller = MemoryContextSwitchTo(GetMemoryChunkContext(plan));

		plan->sub = partmgr_sub_spec_load(plan->set->key);
		MemoryContextSwitchTo(caller);
		if (plan->sub != NULL)
			plan->register_sub_set = register_sub_set;
		partmgr_tiers_place_new(plan, GetCurrentTransactionStartTimestamp());
	}
	if (creates_table)
		partmgr_plan_table_properties(plan);
	plan->tables_read = true;
}

/*
 * partmgr_create_sub_set
 *		Register a partitioned child of a sub-partitioned set as a set of its
 *		own, as the set's part_config_sub row (spec) says, starting at start
 *		(NULL: around now); within as for partmgr_create_set.
 */
PartmgrSet *
partmgr_create_sub_set(const PartmgrSubSpec *spec, const char *table,
					   const char *start,
					   const PartmgrSubLimits *within, const char *run_by)
{
	PartmgrCreateArgs args = spec->args;
	PartmgrSet *set;

	args.table = table;
	args.start = start;
	set = partmgr_create_set(&args, within, run_by);
	partmgr_sub_spec_apply(set->key, spec);
	return set;
}
