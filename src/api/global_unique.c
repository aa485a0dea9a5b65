/*-------------------------------------------------------------------------
 *
 * global_unique.c
 *	  Global unique constraints (unique.h): making and dropping them, the
 *	  list behind partmgr.global_unique_constraints, the removal of entries
 *	  of children that left a set, and the triggers that keep them.
 *
 *	create_global_unique(p_parent_table, p_columns, p_name): the side
 *		table, the triggers, the entries of every row, in the caller's
 *		transaction: a crash or an error leaves nothing behind.
 *	drop_global_unique(p_parent_table, p_name, p_cascade).
 *	global_unique_cleanup(p_parent_table): entries of children no longer
 *		in the set, removed by the plan maintenance runs too (plan.c), each
 *		removal logged, until none is left.
 *	global_unique_row(), global_unique_truncate(): the triggers.
 *	global_unique_ddl(): the event trigger (ddl_command_end) that enters
 *		the rows of a table attached to a set with constraints and gives
 *		new leaves their TRUNCATE trigger, and refuses to rename, drop or
 *		retype a key column.
 *	partmgr_unique_hooks_install(): the executor's and COPY's hooks that
 *		open a batch of new keys around a statement's AFTER row triggers
 *		and enter it when they have fired (unique.c, "Batches").
 *
 * Locks: the set's advisory lock, then SHARE ROW EXCLUSIVE on the parent and
 * every partition (bounded, pg_partmgr.lock_timeout) to make or drop a
 * constraint: writes to the set wait while the entries are made, as for a
 * CREATE UNIQUE INDEX without CONCURRENTLY.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/global_unique.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "commands/event_trigger.h"
#include "commands/trigger.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "storage/lmgr.h"
#include "tcop/utility.h"

#include "api.h"
#include "catalog.h"
#include "citus.h"
#include "config.h"
#include "statements.h"
#include "execute.h"
#include "locks.h"
#include "plan.h"
#include "rights.h"
#include "spi_util.h"
#include "unique.h"

PG_FUNCTION_INFO_V1(pg_partmgr_create_global_unique);
PG_FUNCTION_INFO_V1(pg_partmgr_drop_global_unique);
PG_FUNCTION_INFO_V1(pg_partmgr_global_unique_cleanup);
PG_FUNCTION_INFO_V1(pg_partmgr_global_unique_info);
PG_FUNCTION_INFO_V1(pg_partmgr_global_unique_row);
PG_FUNCTION_INFO_V1(pg_partmgr_global_unique_truncate);
PG_FUNCTION_INFO_V1(pg_partmgr_global_unique_ddl);

/*
 * top_set
 *		The set of a user-named table, which must be a top parent (a
 *		constraint covers every level below it), with the owner's scope
 *		entered for acting on it.
 */
static PartmgrSet *
top_set(const char *table, PartmgrRights *rights)
{
	PartmgrSet *set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, rights);

	if (get_rel_relispartition(set->parent_oid))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s is a partition of %s", set->key,
						partmgr_key_display(partmgr_table_key(partmgr_unique_top(set->parent_oid)))),
				 errdetail("A global unique constraint belongs to the top partitioned table and covers every level below it."),
				 errhint("Name the top partitioned table.")));
	return set;
}

/* The parent and every partition, parents before children, bounded. */
static List *
lock_tree(Oid parent)
{
	List	   *tree;
	ListCell   *lc;

	partmgr_lock_relation(parent, ShareRowExclusiveLock);
	tree = find_all_inheritors(parent, NoLock, NULL);
	foreach(lc, tree)
		partmgr_lock_relation(lfirst_oid(lc), ShareRowExclusiveLock);
	return tree;
}

static void
check_name_free(Oid nspid, const char *schema, const char *name)
{
	if (OidIsValid(get_relname_relid(name, nspid)))
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_TABLE),
				 errmsg("relation \"%s\" already exists in schema \"%s\"",
						name, schema),
				 errdetail("A global unique constraint's side table and its indexes are named after it in the parent's schema."),
				 errhint("Choose another name with p_name.")));
}

/*
 * The CREATE TRIGGER statements of u's TRUNCATE trigger on the leaves among
 * tables.
 */
static List *
truncate_triggers(const PartmgrUnique *u, List *tables)
{
	List	   *statements = NIL;
	ListCell   *lc;

	foreach(lc, tables)
	{
		Oid			relid = lfirst_oid(lc);

		if (get_rel_relkind(relid) != RELKIND_RELATION)
			continue;
		statements = lappend(statements,
							 partmgr_ddl_unique_truncate_trigger(get_namespace_name(get_rel_namespace(relid)),
																 get_rel_name(relid), u->name,
																 u->side_schema, u->ncols,
																 u->columns));
	}
	return statements;
}

/*
 * pg_partmgr_create_global_unique
 *		partmgr.create_global_unique(p_parent_table text, p_columns text[],
 *		p_name text DEFAULT NULL) RETURNS text: the constraint's name.
 */
Datum
pg_partmgr_create_global_unique(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	char	   *name = partmgr_text_arg_or_null(fcinfo, 2);
	ArrayType  *array;
	Datum	   *elems;
	bool	   *nulls;
	int			ncols;
	PartmgrSet *set;
	PartmgrRights rights;
	PartmgrUnique u;
	Oid			types[INDEX_MAX_KEYS];
	int32		typmods[INDEX_MAX_KEYS];
	Oid			collations[INDEX_MAX_KEYS];
	Oid			nspid;
	Relation	parent;
	StringInfoData defname;
	List	   *tree;
	PartmgrPlan *plan;

	if (PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("p_columns must not be NULL")));
	array = PG_GETARG_ARRAYTYPE_P(1);
	deconstruct_array(array, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls,
					  &ncols);
	if (ncols == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_columns must name at least one column")));
	if (ncols > INDEX_MAX_KEYS)
		ereport(ERROR,
				(errcode(ERRCODE_TOO_MANY_COLUMNS),
				 errmsg("a global unique constraint can have at most %d columns", INDEX_MAX_KEYS)));

	SPI_connect();
	set = top_set(table, &rights);
	partmgr_citus_refuse(set->parent_oid, set->key, "create_global_unique",
						 "Its side table is kept in step with the children by row triggers, and Citus does not run triggers on distributed tables.");
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	parent = table_open(set->parent_oid, AccessShareLock);

	memset(&u, 0, sizeof(u));
	u.root = set->parent_oid;
	u.ncols = ncols;
	u.columns = palloc(sizeof(char *) * ncols);
	initStringInfo(&defname);
	appendStringInfoString(&defname, set->parent_name);
	for (int i = 0; i < ncols; i++)
	{
		char	   *column;
		AttrNumber	attnum;
		Form_pg_attribute att;

		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("p_columns must not hold NULL")));
		column = TextDatumGetCString(elems[i]);
		attnum = get_attnum(set->parent_oid, column);
		if (attnum == InvalidAttrNumber)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_COLUMN),
					 errmsg("column \"%s\" of relation %s does not exist",
							column, set->key)));
		if (attnum < 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("system column \"%s\" cannot be part of a global unique constraint",
							column)));
		for (int j = 0; j < i; j++)
		{
			if (strcmp(u.columns[j], column) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_DUPLICATE_COLUMN),
						 errmsg("column \"%s\" appears twice in the global unique constraint",
								column)));
		}
		att = TupleDescAttr(RelationGetDescr(parent), attnum - 1);
		if (!OidIsValid(GetDefaultOpClass(att->atttypid, BTREE_AM_OID)))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("data type %s of column \"%s\" has no default operator class for access method \"btree\"",
							format_type_be(att->atttypid), column),
					 errhint("A global unique constraint is kept by a unique btree index on its columns.")));
		u.columns[i] = column;
		types[i] = att->atttypid;
		typmods[i] = att->atttypmod;
		collations[i] = att->attcollation;
		appendStringInfo(&defname, "_%s", column);
	}
	table_close(parent, AccessShareLock);

	if (name == NULL)
	{
		int			len = pg_mbcliplen(defname.data, defname.len,
									   PARTMGR_UNIQUE_NAME_MAX - 5);

		name = psprintf("%.*s_gkey", len, defname.data);
	}
	if (name[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_NAME),
				 errmsg("p_name must not be empty")));
	if (strlen(name) > PARTMGR_UNIQUE_NAME_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NAME_TOO_LONG),
				 errmsg("global unique constraint name \"%s\" is too long",
						name),
				 errdetail("It may have at most %d bytes: its triggers and indexes are named after it.",
						   PARTMGR_UNIQUE_NAME_MAX)));
	u.name = name;
	u.side_schema = set->parent_schema;
	u.side_name = name;

	partmgr_rights_check_trigger_schema(set->parent_owner, set->key,
										"A global unique constraint");
	tree = lock_tree(set->parent_oid);
	parent = table_open(set->parent_oid, NoLock);
	if (partmgr_unique_find(parent, name) != NULL ||
		get_trigger_oid(set->parent_oid, name, true) != InvalidOid)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("global unique constraint or trigger \"%s\" already exists on %s",
						name, set->key),
				 errhint("Choose another name with p_name.")));
	table_close(parent, NoLock);
	nspid = get_namespace_oid(set->parent_schema, false);
	check_name_free(nspid, set->parent_schema, name);
	check_name_free(nspid, set->parent_schema, psprintf("%s_key", name));
	check_name_free(nspid, set->parent_schema, psprintf("%s_child", name));

	/*
	 * one action, logged: the side table, the triggers, the entries, the
	 * indexes
	 */
	plan = partmgr_plan_new(set, NULL);
	partmgr_plan_add_unique(plan, PARTMGR_ACTION_UNIQUE_CREATE, &u, tree,
							list_concat(list_make2(partmgr_ddl_unique_side_table(u.side_schema,
																				 name, ncols,
																				 u.columns, types,
																				 typmods,
																				 collations),
												   partmgr_ddl_unique_row_trigger(set->parent_schema,
																				  set->parent_name,
																				  name,
																				  u.side_schema,
																				  ncols, u.columns)),
										truncate_triggers(&u, tree)),
							list_make1(partmgr_ddl_unique_child_index(u.side_schema, name)));
	(void) partmgr_execute_or_raise(plan, "create_global_unique", NULL);

	partmgr_rights_leave(&rights);
	SPI_finish();
	PG_RETURN_TEXT_P(cstring_to_text(name));
}

/*
 * pg_partmgr_drop_global_unique
 *		partmgr.drop_global_unique(p_parent_table text, p_name text,
 *		p_cascade boolean DEFAULT false): the triggers and the side table
 *		(with p_cascade, the foreign keys that reference it too).
 */
Datum
pg_partmgr_drop_global_unique(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	char	   *name = partmgr_text_arg(fcinfo, 1, "p_name");
	bool		cascade = !PG_ARGISNULL(2) && PG_GETARG_BOOL(2);
	PartmgrSet *set;
	PartmgrRights rights;
	PartmgrUnique *u;
	Relation	parent;
	List	   *tree;
	List	   *statements;
	PartmgrPlan *plan;
	ListCell   *lc;

	SPI_connect();
	set = top_set(table, &rights);
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	tree = lock_tree(set->parent_oid);
	parent = table_open(set->parent_oid, NoLock);
	u = partmgr_unique_find(parent, name);
	table_close(parent, NoLock);
	if (u == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("global unique constraint \"%s\" of %s does not exist",
						name, set->key),
				 errhint("partmgr.global_unique_constraints lists the constraints.")));

	statements = list_make1(partmgr_ddl_drop_trigger(set->parent_schema,
													 set->parent_name,
													 name, false));
	foreach(lc, tree)
	{
		Oid			relid = lfirst_oid(lc);

		if (get_rel_relkind(relid) == RELKIND_RELATION)
			statements = lappend(statements,
								 partmgr_ddl_drop_trigger(get_namespace_name(get_rel_namespace(relid)),
														  get_rel_name(relid),
														  psprintf("%s_truncate", name), true));
	}
	if (OidIsValid(u->side))
		statements = lappend(statements,
							 partmgr_ddl_drop_table(u->side_schema,
													u->side_name, cascade));
	plan = partmgr_plan_new(set, NULL);
	partmgr_plan_add_unique(plan, PARTMGR_ACTION_UNIQUE_DROP, u, tree,
							statements, NIL);
	(void) partmgr_execute_or_raise(plan, "drop_global_unique", NULL);

	partmgr_rights_leave(&rights);
	SPI_finish();
	PG_RETURN_VOID();
}

/*
 * pg_partmgr_global_unique_cleanup
 *		partmgr.global_unique_cleanup(p_parent_table text DEFAULT NULL)
 *		RETURNS bigint: removes the entries of children no longer in the
 *		set, for one set's constraints or (NULL) every set's the caller may
 *		act on; how many went.
 */
Datum
pg_partmgr_global_unique_cleanup(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg_or_null(fcinfo, 0);
	List	   *keys;
	ListCell   *lc;
	int64		total = 0;

	SPI_connect();
	keys = partmgr_config_keys(table, false);
	foreach(lc, keys)
	{
		const char *key = lfirst(lc);
		PartmgrSet *set = partmgr_config_load(key, true);
		PartmgrRights rights;

		if (table != NULL)
			set = top_set(table, &rights);
		else if (set == NULL || !OidIsValid(set->parent_oid) ||
				 get_rel_relispartition(set->parent_oid) ||
				 !partmgr_may_act_on(set->parent_owner))
			continue;
		else
			partmgr_rights_enter_set(set, PARTMGR_RIGHTS_ACT, &rights);
		for (;;)
		{
			PartmgrPlan *plan = partmgr_plan_unique_cleanup(set,
															PARTMGR_UNIQUE_CLEANUP_PER_RUN);
			PartmgrExecResult result;

			if (plan->actions == NIL)
				break;
			partmgr_execute_plan(plan, "global_unique_cleanup", &result);
			if (result.error != NULL)
				ReThrowError(result.error);
			total += result.rows;
			if (!plan->truncated)
				break;
		}
		partmgr_rights_leave(&rights);
	}
	SPI_finish();
	PG_RETURN_INT64(total);
}

static const char *
state_name(char enabled)
{
	switch (enabled)
	{
		case TRIGGER_FIRES_ON_ORIGIN:
			return "enabled";
		case TRIGGER_DISABLED:
			return "disabled";
		case TRIGGER_FIRES_ON_REPLICA:
			return "replica";
		case TRIGGER_FIRES_ALWAYS:
			return "always";
	}
	return "unknown";
}

/*
 * pg_partmgr_global_unique_info
 *		The rows of partmgr.global_unique_constraints: every constraint of
 *		a set whose owner's privileges the caller has (superusers: all), as
 *		maintenance_log shows its rows; waiting_cleanup where the side table
 *		is the owner's (it reads the side table).
 */
Datum
pg_partmgr_global_unique_info(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			fn;
	uint64		n;
	List	   *parents = NIL;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	fn = partmgr_unique_row_function();
	if (OidIsValid(fn))
	{
		Oid			type = OIDOID;
		Datum		value = ObjectIdGetDatum(fn);

		n = partmgr_spi_exec("SELECT DISTINCT tgrelid FROM"
							 " pg_catalog.pg_trigger "
							 "WHERE tgfoid OPERATOR(pg_catalog.=) $1 "
							 "AND tgparentid OPERATOR(pg_catalog.=) 0 ORDER"
							 " BY 1",
							 1, &type, &value, NULL, true, SPI_OK_SELECT);
		for (uint64 r = 0; r < n; r++)
		{
			bool		isnull;

			parents = lappend_oid(parents,
								  DatumGetObjectId(partmgr_spi_value(r, 1,
																	 &isnull)));
		}
	}
	foreach(lc, parents)
	{
		Oid			parent = lfirst_oid(lc);
		ListCell   *uc;
		Oid			owner;

		LockRelationOid(parent, AccessShareLock);
		if (!SearchSysCacheExists1(RELOID, ObjectIdGetDatum(parent)))
			continue;			/* dropped meanwhile */
		owner = partmgr_unique_owner(parent);
		if (!partmgr_may_act_on(owner))
			continue;			/* another owner's: its names and keys are not
								 * shown */
		foreach(uc, partmgr_unique_list_of(parent))
		{
			PartmgrUnique *u = lfirst(uc);
			Datum		values[6];
			bool		isnull[6] = {0};
			Datum	   *cols = palloc(sizeof(Datum) * u->ncols);

			for (int i = 0; i < u->ncols; i++)
				cols[i] = CStringGetTextDatum(u->columns[i]);
			values[0] = CStringGetTextDatum(u->name);
			values[1] = ObjectIdGetDatum(parent);
			values[2] = PointerGetDatum(construct_array(cols, u->ncols,
														TEXTOID, -1, false,
														TYPALIGN_INT));
			values[3] = ObjectIdGetDatum(u->side);
			isnull[3] = !OidIsValid(u->side);
			values[4] = CStringGetTextDatum(state_name(u->enabled));
			isnull[5] = true;
			if (partmgr_unique_side_is_owners(u, owner))
			{
				PartmgrRights rights;

				partmgr_rights_enter_table(parent, owner, PARTMGR_RIGHTS_ACT,
										   u->name, &rights);
				values[5] = Int64GetDatum(partmgr_unique_waiting(u));
				isnull[5] = false;
				partmgr_rights_leave(&rights);
			}
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values,
								 isnull);
		}
	}
	SPI_finish();
	return (Datum) 0;
}

/*
 * pg_partmgr_global_unique_row
 *		The row trigger of a constraint (AFTER INSERT OR UPDATE OR DELETE,
 *		FOR EACH ROW).
 */
Datum
pg_partmgr_global_unique_row(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;

	if (!CALLED_AS_TRIGGER(fcinfo) ||
		!TRIGGER_FIRED_AFTER(trigdata->tg_event) ||
		!TRIGGER_FIRED_FOR_ROW(trigdata->tg_event) ||
		TRIGGER_FIRED_BY_TRUNCATE(trigdata->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("partmgr.global_unique_row() must be fired AFTER INSERT, UPDATE or DELETE FOR EACH ROW"),
				 errhint("Global unique constraints are made with partmgr.create_global_unique().")));
	partmgr_unique_row(trigdata);
	return PointerGetDatum(NULL);
}

/*
 * pg_partmgr_global_unique_truncate
 *		The TRUNCATE trigger of a constraint on a leaf (AFTER TRUNCATE, FOR
 *		EACH STATEMENT).
 */
Datum
pg_partmgr_global_unique_truncate(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;

	if (!CALLED_AS_TRIGGER(fcinfo) ||
		!TRIGGER_FIRED_AFTER(trigdata->tg_event) ||
		!TRIGGER_FIRED_BY_TRUNCATE(trigdata->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("partmgr.global_unique_truncate() must be fired AFTER TRUNCATE"),
				 errhint("Global unique constraints are made with partmgr.create_global_unique().")));
	partmgr_unique_truncate(trigdata);
	return PointerGetDatum(NULL);
}

/*
 * joined
 *		A table that has just joined a tree (attached, or created as a
 *		partition): under every constraint of its top parent, its rows are
 *		entered (attached) and its leaves get the TRUNCATE trigger.
 */
static void
joined(Oid relid, bool attached)
{
	Oid			root = partmgr_unique_top(relid);
	List	   *constraints;
	Oid			owner;
	ListCell   *lc;

	if (root == relid)
		return;
	constraints = partmgr_unique_list_of(root);
	if (constraints == NIL)
		return;
	owner = partmgr_unique_owner(root);
	foreach(lc, constraints)
	{
		PartmgrUnique *u = lfirst(lc);
		PartmgrRights rights;
		List	   *leaves = NIL;
		ListCell   *tc;

		partmgr_unique_check_side(u, owner);
		partmgr_rights_enter_trigger(owner, u->name, &rights);
		SPI_connect();
		if (attached)
			partmgr_unique_fill(u, relid, true);
		foreach(tc, find_all_inheritors(relid, NoLock, NULL))
		{
			Oid			table = lfirst_oid(tc);

			if (get_rel_relkind(table) == RELKIND_RELATION &&
				!OidIsValid(get_trigger_oid(table,
											psprintf("%s_truncate", u->name),
											true)))
				leaves = lappend_oid(leaves, table);
		}
		partmgr_spi_table_utilities(truncate_triggers(u, leaves));
		SPI_finish();
		partmgr_rights_leave(&rights);
	}
}

/*
 * key_column_changed
 *		Refuse (0A000) a rename, drop or type change of a column a
 *		constraint of the table's set keys on: its triggers and side table
 *		name the column and its type.
 */
static void
key_column_changed(Oid relid, const char *column, const char *what)
{
	Oid			root;
	ListCell   *lc;

	if (!OidIsValid(relid) || column == NULL)
		return;
	root = partmgr_unique_top(relid);
	if (!SearchSysCacheExists1(RELOID, ObjectIdGetDatum(root)) ||
		get_rel_relkind(root) != RELKIND_PARTITIONED_TABLE)
		return;
	foreach(lc, partmgr_unique_list_of(root))
	{
		PartmgrUnique *u = lfirst(lc);

		for (int i = 0; i < u->ncols; i++)
		{
			if (strcmp(u->columns[i], column) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("cannot %s column \"%s\": global unique constraint \"%s\" is on it",
								what, column, u->name),
						 errhint("Drop the constraint with partmgr.drop_global_unique() first.")));
		}
	}
}

/*
 * pg_partmgr_global_unique_ddl
 *		The event trigger on ddl_command_end for CREATE TABLE and ALTER
 *		TABLE (see the file header).  It returns at once for a statement on
 *		a table outside a set with constraints.
 */
Datum
pg_partmgr_global_unique_ddl(PG_FUNCTION_ARGS)
{
	EventTriggerData *trigdata;
	Node	   *parsetree;

	if (!CALLED_AS_EVENT_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("partmgr.global_unique_ddl() must be fired as an event trigger")));
	trigdata = (EventTriggerData *) fcinfo->context;
	parsetree = trigdata->parsetree;

	if (IsA(parsetree, CreateStmt))
	{
		CreateStmt *stmt = (CreateStmt *) parsetree;

		if (stmt->partbound != NULL)
			joined(RangeVarGetRelid(stmt->relation, NoLock, true), false);
	}
	else if (IsA(parsetree, AlterTableStmt))
	{
		AlterTableStmt *stmt = (AlterTableStmt *) parsetree;
		Oid			relid;
		ListCell   *lc;

		if (stmt->objtype != OBJECT_TABLE)
			return (Datum) 0;
		relid = RangeVarGetRelid(stmt->relation, NoLock, true);
		if (!OidIsValid(relid))
			return (Datum) 0;
		foreach(lc, stmt->cmds)
		{
			AlterTableCmd *cmd = lfirst(lc);

			if (cmd->subtype == AT_AttachPartition)
			{
				PartitionCmd *part = (PartitionCmd *) cmd->def;

				joined(RangeVarGetRelid(part->name, NoLock, true), true);
			}
			else if (cmd->subtype == AT_DropColumn)
				key_column_changed(relid, cmd->name, "drop");
			else if (cmd->subtype == AT_AlterColumnType)
				key_column_changed(relid, cmd->name, "change the type of");
		}
	}
	else if (IsA(parsetree, RenameStmt))
	{
		RenameStmt *stmt = (RenameStmt *) parsetree;

		if (stmt->renameType == OBJECT_COLUMN &&
			stmt->relationType == OBJECT_TABLE &&
			stmt->relation != NULL)
			key_column_changed(RangeVarGetRelid(stmt->relation, NoLock, true),
							   stmt->subname, "rename");
	}
	return (Datum) 0;
}

/* ----------------------------------------------------------------
 * Batches of new keys around a statement's row triggers
 * ----------------------------------------------------------------
 */

static ExecutorFinish_hook_type prev_executor_finish = NULL;
static ProcessUtility_hook_type prev_process_utility = NULL;

/*
 * ExecutorFinish fires the statement's AFTER triggers: the new keys the row
 * triggers keep meanwhile are entered when they have all fired, and dropped
 * with the statement's rows when it fails.
 */
static void
batch_executor_finish(QueryDesc *queryDesc)
{
	int			depth = partmgr_unique_batch_open();

	PG_TRY();
	{
		if (prev_executor_finish)
			prev_executor_finish(queryDesc);
		else
			standard_ExecutorFinish(queryDesc);
	}
	PG_CATCH();
	{
		partmgr_unique_batch_close(depth, false);
		PG_RE_THROW();
	}
	PG_END_TRY();
	partmgr_unique_batch_close(depth, true);
}

/* COPY FROM fires its AFTER triggers itself, outside the executor. */
static void
batch_process_utility(PlannedStmt *pstmt, const char *queryString,
					  bool readOnlyTree, ProcessUtilityContext context,
					  ParamListInfo params, QueryEnvironment *queryEnv,
					  DestReceiver *dest, QueryCompletion *qc)
{
	Node	   *stmt = pstmt->utilityStmt;
	int			depth = -1;

	if (IsA(stmt, CopyStmt) && ((CopyStmt *) stmt)->is_from)
		depth = partmgr_unique_batch_open();
	PG_TRY();
	{
		if (prev_process_utility)
			prev_process_utility(pstmt, queryString, readOnlyTree, context,
								 params, queryEnv, dest, qc);
		else
			standard_ProcessUtility(pstmt, queryString, readOnlyTree,
									context, params, queryEnv, dest, qc);
	}
	PG_CATCH();
	{
		if (depth >= 0)
			partmgr_unique_batch_close(depth, false);
		PG_RE_THROW();
	}
	PG_END_TRY();
	if (depth >= 0)
		partmgr_unique_batch_close(depth, true);
}

/*
 * partmgr_unique_hooks_install
 *		From _PG_init: whenever the library is loaded, statements from then
 *		on batch their new keys (a row trigger outside a batch enters its
 *		key at once).
 */
void
partmgr_unique_hooks_install(void)
{
	prev_executor_finish = ExecutorFinish_hook;
	ExecutorFinish_hook = batch_executor_finish;
	prev_process_utility = ProcessUtility_hook;
	ProcessUtility_hook = batch_process_utility;
}
