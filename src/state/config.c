/*-------------------------------------------------------------------------
 *
 * config.c
 *	  Read, validate and write partition set configuration
 *	  (partmgr.part_config and partmgr.part_config_sub).
 *
 * A configuration row is only trusted after partmgr_config_bind has
 * checked it against the catalogs: the parent still exists and is
 * partitioned by the control column, the interval parses for the key's
 * type, the time zone is known.  Users may UPDATE part_config directly, so
 * every load validates again; errors name the set.  A set imported from
 * pg_partman is written from pg_partman's rows read as jsonb, so that 4.7's
 * columns and 5.x's both do.
 *
 * Locks: none of its own; the statements take the usual row and table
 * locks on the configuration tables.  Runs in the caller's transaction,
 * which must be connected to SPI.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/config.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "parser/parse_func.h"
#include "storage/bufmgr.h"
#include "storage/proc.h"
#include "utils/memutils.h"
#include "nodes/pg_list.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "bounds.h"
#include "catalog.h"
#include "compat.h"
#include "config.h"
#include "rights.h"
#include "spi_util.h"

#define LOAD_COLUMNS \
"SELECT c.parent_table, c.control, c.partition_interval, c.partition_type," \
"       c.premake, c.automatic_maintenance, c.template_table, c.retention," \
"       c.retention_schema, c.retention_keep_index, c.retention_keep_table," \
"       c.epoch, c.constraint_cols, c.optimize_constraint," \
"       c.infinite_time_partitions, c.datetime_string, c.jobmon," \
"       c.sub_partition_set_full, c.undo_in_progress, c.inherit_privileges," \
"       c.constraint_valid, c.ignore_default_data, c.default_table," \
"       c.date_trunc_interval, c.maintenance_order," \
"       c.retention_keep_publication," \
"       coalesce(c.partition_timezone, pg_catalog.current_setting('TimeZone'))," \
"       c.maintenance_last_run, c.time_encoder, c.time_decoder," \
"       c.async_partitioning_in_progress, c.partition_timezone, e.eras," \
"       c.ctid, c.xmin" \
"  FROM partmgr.part_config c" \
"  LEFT JOIN (SELECT i.parent_table," \
"                    pg_catalog.array_agg(ARRAY[i.interval_end, i.partition_interval," \
"                                               i.datetime_string, i.date_trunc_interval," \
"                                               i.next_aligned::pg_catalog.text]) AS eras" \
"               FROM partmgr.part_config_interval i GROUP BY i.parent_table) e" \
"    ON e.parent_table OPERATOR(pg_catalog.=) c.parent_table"

static const char *const load_sql = LOAD_COLUMNS " WHERE c.parent_table = $1";

/* the sets to maintain, in maintenance order (see partmgr_config_list) */
#define LIST_ORDER " ORDER BY c.maintenance_order ASC NULLS LAST, c.parent_table"
static const char *const list_all_sql =
LOAD_COLUMNS " WHERE NOT c.undo_in_progress" LIST_ORDER;
static const char *const list_auto_sql =
LOAD_COLUMNS " WHERE NOT c.undo_in_progress AND c.automatic_maintenance = 'on'"
LIST_ORDER;

/* part_config and part_config_interval as check_objects found them */
static Oid	config_relid = InvalidOid;
static Oid	eras_relid = InvalidOid;

/*
 * check_objects
 *		Raise 55000 unless the extension's SQL objects are the version this
 *		library works with (0.6.0 and 0.7.0: part_config_interval exists; 0.4.0:
 *		part_config has partition_timezone; the
 *		configuration is guarded by its owner trigger and the log by row
 *		security since 0.3.0; older objects lack what the library reads and
 *		checks, so nothing is maintained until ALTER EXTENSION UPDATE).
 *		Asked once per transaction; every use of the configuration comes
 *		through here.
 */
static void
check_objects(void)
{
	static LocalTransactionId checked = InvalidLocalTransactionId;
	Oid			nspid;
	Oid			log;

	if (checked == MyProc->lxid)
		return;
	nspid = get_namespace_oid(PARTMGR_SCHEMA, true);
	log = OidIsValid(nspid) ? get_relname_relid("maintenance_log",
												nspid) : InvalidOid;
	config_relid = OidIsValid(nspid) ? get_relname_relid("part_config",
														 nspid) : InvalidOid;
	eras_relid = OidIsValid(nspid) ? get_relname_relid("part_config_interval",
													   nspid) : InvalidOid;
	if (!OidIsValid(log) || get_attnum(log, "owner") == InvalidAttrNumber ||
		!OidIsValid(eras_relid) || !OidIsValid(config_relid) ||
		get_attnum(config_relid, "partition_timezone") == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the SQL objects of extension pg_partmgr are older than its library (%s)",
						PARTMGR_EXTVERSION),
				 errhint("Run ALTER EXTENSION pg_partmgr UPDATE.")));
	checked = MyProc->lxid;
}

/*
 * partmgr_config_present
 *		Whether the extension is still there, asked at the start of each
 *		transaction of a run that commits between its sets.  Once this
 *		backend has found part_config (check_objects), the syscache's entry
 *		for it answers exactly: DROP EXTENSION drops it, and a new
 *		transaction has taken in that invalidation before it looks.  That
 *		costs a hash look-up where pg_extension, which has no syscache,
 *		costs an index scan in every transaction.  If the extension was
 *		dropped and created anew during the run, its part_config has
 *		another OID: the run stops as for a drop, and the next run uses the
 *		new one.  The name is compared too, should the OID be reused.
 */
bool
partmgr_config_present(void)
{
	HeapTuple	tuple;
	bool		present;

	if (!OidIsValid(config_relid))
		return OidIsValid(get_extension_oid("pg_partmgr", true));
	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(config_relid));
	if (!HeapTupleIsValid(tuple))
		return false;
	present = strcmp(NameStr(((Form_pg_class) GETSTRUCT(tuple))->relname),
					 "part_config") == 0;
	ReleaseSysCache(tuple);
	return present;
}

static PartmgrSet *read_row(uint64 row);
static PartmgrEra *read_eras(uint64 row, int col, int *neras);

/* A possibly qualified function name, as a name list. */
static List *
qualified_name(const char *name)
{
	return partmgr_qualified_name_list(name);
}

static void
context_callback(void *arg)
{
	PartmgrErrorContext *ctx = (PartmgrErrorContext *) arg;

	errcontext(ctx->format, ctx->name);
}

/*
 * partmgr_context_push
 *		Add format (with one %s for name) to the CONTEXT of every error raised
 *		until the matching pop.  ctx must stay valid until then (a local
 *		variable will do); format must be a string constant.
 */
void
partmgr_context_push(PartmgrErrorContext *ctx, const char *format,
					 const char *name)
{
	ctx->format = format;
	ctx->name = name;
	ctx->callback.callback = context_callback;
	ctx->callback.arg = ctx;
	ctx->callback.previous = error_context_stack;
	error_context_stack = &ctx->callback;
}

void
partmgr_context_pop(PartmgrErrorContext *ctx)
{
	error_context_stack = ctx->callback.previous;
}

/*
 * partmgr_set_context_push
 *		Name the set in the CONTEXT of errors: 'partition set "x"'.
 */
void
partmgr_set_context_push(PartmgrErrorContext *ctx, const char *key)
{
	partmgr_context_push(ctx, "partition set \"%s\"", key);
}

static bool
row_bool(uint64 row, int col)
{
	bool		isnull;
	Datum		d = partmgr_spi_value(row, col, &isnull);

	return !isnull && DatumGetBool(d);
}

static List *
row_text_array(uint64 row, int col)
{
	bool		isnull;
	Datum		d = partmgr_spi_value(row, col, &isnull);
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	List	   *result = NIL;

	if (isnull)
		return NIL;
	deconstruct_array(DatumGetArrayTypeP(d), TEXTOID, -1, false, TYPALIGN_INT,
					  &elems, &nulls, &n);
	for (int i = 0; i < n; i++)
	{
		if (!nulls[i])
			result = lappend(result, TextDatumGetCString(elems[i]));
	}
	return result;
}

/*
 * partmgr_config_load
 *		The set whose part_config.parent_table is key, validated against the
 *		catalogs (see partmgr_config_bind).  Returns NULL when there is no
 *		such row and missing_ok; otherwise raises 42P01.  Allocated in the
 *		current memory context.
 */
PartmgrSet *
partmgr_config_load(const char *key, bool missing_ok)
{
	Oid			argtypes[1] = {TEXTOID};
	Datum		values[1];
	PartmgrSet *set;

	values[0] = CStringGetTextDatum(key);
	/* not read-only: a set written earlier in this transaction must be seen */
	check_objects();
	if (partmgr_spi_exec_cached(load_sql, 1, argtypes, values, NULL, false,
								SPI_OK_SELECT) == 0)
	{
		if (missing_ok)
			return NULL;
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("table \"%s\" is not managed by pg_partmgr", key),
				 errhint("Register it with partmgr.create_parent() first.")));
	}

	set = read_row(0);
	partmgr_config_bind(set);
	return set;
}

/*
 * row_unchanged
 *		Whether the part_config row version a set was read from is the one
 *		a query would read now.  A row version is known by its place and its
 *		xmin: no other version is ever at that place with that xmin.  It is
 *		visible to a snapshot taken now only while no change to the row has
 *		committed (a change in progress leaves it visible to a query too).
 */
static bool
row_unchanged(const PartmgrSet *read)
{
	Relation	rel;
	HeapTupleData tuple;
	Buffer		buffer;
	bool		same = false;

	if (!OidIsValid(read->row_rel) || read->row_rel != config_relid)
		return false;			/* not read from a row, or the extension is
								 * new */
	rel = table_open(config_relid, AccessShareLock);
	/* VACUUM may have cut the table short after a change to the row */
	if (ItemPointerGetBlockNumber(&read->row_tid) <
		RelationGetNumberOfBlocks(rel))
	{
		tuple.t_self = read->row_tid;
		if (heap_fetch(rel, GetTransactionSnapshot(), &tuple, &buffer, false))
		{
			same = HeapTupleHeaderGetRawXmin(tuple.t_data) == read->row_xmin;
			ReleaseBuffer(buffer);
		}
	}
	table_close(rel, AccessShareLock);
	return same;
}

/*
 * has_eras
 *		Whether part_config_interval holds a row of the set now: a probe of
 *		its primary key (parent_table first), in the index's collation.
 */
static bool
has_eras(const char *key)
{
	Relation	rel = table_open(eras_relid, AccessShareLock);
	Oid			index = RelationGetPrimaryKeyIndex(rel);
	Relation	irel;
	ScanKeyData skey;
	SysScanDesc scan;
	bool		found;

	if (!OidIsValid(index))
	{
		table_close(rel, AccessShareLock);
		return true;			/* cannot tell: the caller loads the set */
	}
	irel = index_open(index, AccessShareLock);
	ScanKeyEntryInitialize(&skey, 0, 1, BTEqualStrategyNumber, InvalidOid,
						   irel->rd_indcollation[0], F_TEXTEQ,
						   CStringGetTextDatum(key));
	scan = systable_beginscan_ordered(rel, irel, GetTransactionSnapshot(), 1,
									  &skey);
	found = HeapTupleIsValid(systable_getnext_ordered(scan,
													  ForwardScanDirection));
	systable_endscan_ordered(scan);
	index_close(irel, AccessShareLock);
	table_close(rel, AccessShareLock);
	return found;
}

/*
 * partmgr_config_reload
 *		A set a run listed in an earlier transaction, as partmgr_config_load
 *		would read it now (NULL when its row is gone), bound in the current
 *		memory context.  The listed configuration serves when its row is
 *		the version the list read and the set had and has no earlier
 *		intervals: a probe of the row and of part_config_interval's key,
 *		not a query, for each of the many idle sets of a run.  Otherwise the
 *		set is loaded again.  read itself is left as it is.
 */
PartmgrSet *
partmgr_config_reload(const PartmgrSet *read)
{
	PartmgrSet *set;

	check_objects();
	/* what this transaction wrote before counts, as it does for a query */
	CommandCounterIncrement();
	if (read->neras > 0 || !row_unchanged(read) || has_eras(read->key))
		return partmgr_config_load(read->key, true);
	set = palloc(sizeof(PartmgrSet));
	*set = *read;
	set->constraint_cols = list_copy(read->constraint_cols);
	/* bind_eras adds the current era in place */
	set->eras = palloc0(sizeof(PartmgrEra));
	partmgr_config_bind(set);
	return set;
}

/*
 * read_eras
 *		The earlier intervals of a set (its part_config_interval rows, as
 *		the 2-D text array of LOAD_COLUMNS) as texts, with room for the
 *		current era after them; bind_eras parses them.  *neras counts the
 *		earlier ones.
 */
/* the fields of a part_config_interval row in LOAD_COLUMNS' array */
#define ERA_FIELDS	5

static PartmgrEra *
read_eras(uint64 row, int col, int *neras)
{
	bool		isnull;
	Datum		d = partmgr_spi_value(row, col, &isnull);
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	PartmgrEra *eras;

	*neras = 0;
	if (isnull)
		return palloc0(sizeof(PartmgrEra));
	deconstruct_array(DatumGetArrayTypeP(d), TEXTOID, -1, false, TYPALIGN_INT,
					  &elems, &nulls, &n);
	eras = palloc0(sizeof(PartmgrEra) * (n / ERA_FIELDS + 1));
	for (int i = 0; i + ERA_FIELDS - 1 < n; i += ERA_FIELDS)
	{
		PartmgrEra *era = &eras[(*neras)++];

		/* the table's NOT NULL constraints hold the first two and the last */
		era->end_text = TextDatumGetCString(elems[i]);
		era->interval_text = TextDatumGetCString(elems[i + 1]);
		era->datetime_string =
			nulls[i + 2] ? NULL : TextDatumGetCString(elems[i + 2]);
		era->date_trunc_interval =
			nulls[i + 3] ? NULL : TextDatumGetCString(elems[i + 3]);
		era->next_aligned = strcmp(TextDatumGetCString(elems[i + 4]),
								   "true") == 0;
	}
	return eras;
}

static int
compare_eras(const void *a, const void *b)
{
	PartmgrPoint x = ((const PartmgrEra *) a)->end;
	PartmgrPoint y = ((const PartmgrEra *) b)->end;

	return x < y ? -1 : x > y;
}

/*
 * bind_eras
 *		Parse a set's earlier intervals on its axis, order them, and add the
 *		current era (from the end of the last one on, part_config's
 *		interval).  Called by partmgr_config_bind once the set's own interval
 *		is parsed, as often as that is.
 */
static void
bind_eras(PartmgrSet *set)
{
	PartmgrEra *eras = set->eras;
	int			n = set->neras;
	PartmgrEra *current;

	/* bound before (a set maintained again): the current era goes last again */
	if (n > 0 && eras[n - 1].end_text == NULL)
		n--;

	if (eras == NULL)
		eras = palloc0(sizeof(PartmgrEra));
	for (int i = 0; i < n; i++)
	{
		PartmgrEra *era = &eras[i];

		era->end = partmgr_point_parse(&set->axis, era->end_text);
		partmgr_step_parse(&set->axis, era->interval_text,
						   PARTMGR_STEP_PARTITION,
						   &era->step);
		if (set->axis.kind == PARTMGR_KEY_TIME && era->datetime_string == NULL)
			era->datetime_string =
				pstrdup(partmgr_default_datetime_string(&era->step));
	}
	qsort(eras, n, sizeof(PartmgrEra), compare_eras);
	for (int i = 0; i < n; i++)
	{
		eras[i].start = i == 0 ? PARTMGR_POINT_MIN : eras[i - 1].end;
		eras[i].aligned = i == 0 || eras[i - 1].next_aligned;
	}

	current = &eras[n];
	current->start = n == 0 ? PARTMGR_POINT_MIN : eras[n - 1].end;
	current->end = PARTMGR_POINT_MAX;
	current->end_text = NULL;
	current->step = set->step;
	current->interval_text = set->interval_text;
	current->datetime_string = set->datetime_string;
	current->date_trunc_interval = set->date_trunc_interval;
	current->aligned = n == 0 || eras[n - 1].next_aligned;
	current->next_aligned = true;
	set->eras = eras;
	set->neras = n + 1;
}

/*
 * partmgr_strategy_of, partmgr_strategy_name
 *		part_config.partition_type to and from PostgreSQL's strategy letter.
 */
char
partmgr_strategy_of(const char *type)
{
	if (strcmp(type, "list") == 0)
		return PARTITION_STRATEGY_LIST;
	if (strcmp(type, "hash") == 0)
		return PARTITION_STRATEGY_HASH;
	return PARTITION_STRATEGY_RANGE;
}

const char *
partmgr_strategy_name(char strategy)
{
	return strategy == PARTITION_STRATEGY_LIST ? "list" :
		strategy == PARTITION_STRATEGY_HASH ? "hash" : "range";
}

/*
 * bind_hash
 *		The rest of partmgr_config_bind for a hash set: its interval is the
 *		modulus create_parent made its children with; it has no axis of
 *		points (its key may be of any type with a hash operator class), no
 *		eras, no time zone.
 */
static void
bind_hash(PartmgrSet *set, Oid key_type)
{
	char	   *end;
	long		modulus;

	errno = 0;
	modulus = strtol(set->interval_text, &end, 10);
	if (errno != 0 || *end != '\0' || modulus < 1 ||
		modulus > PARTMGR_MAX_HASH_MODULUS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partition interval \"%s\" of hash set \"%s\" is not a modulus from 1 to %d",
						set->interval_text, set->key,
						PARTMGR_MAX_HASH_MODULUS)));
	memset(&set->axis, 0, sizeof(set->axis));
	set->axis.kind = PARTMGR_KEY_ID;
	set->axis.typid = set->axis.column_typid = key_type;
	set->axis.zone_name = set->axis.calc_zone_name = "UTC";
	memset(&set->step, 0, sizeof(set->step));
	set->step.kind = PARTMGR_KEY_ID;
	set->step.id = modulus;
	set->datetime_string = NULL;
	set->neras = 0;
	set->eras = NULL;
	bind_eras(set);
}

/*
 * read_row
 *		A set as one row of LOAD_COLUMNS says it, not yet bound.
 */
static PartmgrSet *
read_row(uint64 row)
{
	PartmgrSet *set = palloc0(sizeof(PartmgrSet));
	bool		isnull;
	Datum		d;

	set->key = partmgr_spi_text(row, 1);
	set->control = partmgr_spi_text(row, 2);
	set->interval_text = partmgr_spi_text(row, 3);
	set->strategy = partmgr_strategy_of(partmgr_spi_text(row, 4));
	set->premake = DatumGetInt32(partmgr_spi_value(row, 5, &isnull));
	set->automatic_maintenance = strcmp(partmgr_spi_text(row, 6), "on") == 0;
	set->template_table = partmgr_spi_text(row, 7);
	set->retention = partmgr_spi_text(row, 8);
	set->retention_schema = partmgr_spi_text(row, 9);
	set->retention_keep_index = row_bool(row, 10);
	set->retention_keep_table = row_bool(row, 11);
	set->epoch = partmgr_spi_text(row, 12);
	set->constraint_cols = row_text_array(row, 13);
	set->optimize_constraint = DatumGetInt32(partmgr_spi_value(row, 14,
															   &isnull));
	set->infinite_time_partitions = row_bool(row, 15);
	set->datetime_string = partmgr_spi_text(row, 16);
	set->jobmon = row_bool(row, 17);
	set->sub_partition_set_full = row_bool(row, 18);
	set->undo_in_progress = row_bool(row, 19);
	set->inherit_privileges = row_bool(row, 20);
	set->constraint_valid = row_bool(row, 21);
	set->ignore_default_data = row_bool(row, 22);
	set->default_table = row_bool(row, 23);
	set->date_trunc_interval = partmgr_spi_text(row, 24);
	d = partmgr_spi_value(row, 25, &set->maintenance_order_isnull);
	set->maintenance_order =
		set->maintenance_order_isnull ? 0 : DatumGetInt32(d);
	set->retention_keep_publication = row_bool(row, 26);
	set->axis.zone_name = partmgr_spi_text(row, 27);
	d = partmgr_spi_value(row, 28, &set->maintenance_last_run_isnull);
	set->maintenance_last_run =
		set->maintenance_last_run_isnull ? 0 : DatumGetTimestampTz(d);
	set->time_encoder = partmgr_spi_text(row, 29);
	set->time_decoder = partmgr_spi_text(row, 30);
	set->async_in_progress = partmgr_spi_text(row, 31);
	set->partition_timezone = partmgr_spi_text(row, 32);
	set->eras = read_eras(row, 33, &set->neras);
	/* check_objects found part_config in this transaction */
	set->row_rel = config_relid;
	set->row_tid = *(ItemPointer) DatumGetPointer(partmgr_spi_value(row, 34,
																	&isnull));
	set->row_xmin = DatumGetTransactionId(partmgr_spi_value(row, 35, &isnull));
	return set;
}

/*
 * partmgr_config_load_table
 *		The set of a table named by a user (any spelling that
 *		partmgr_resolve_table accepts).  Raises an error if the table does
 *		not exist or is not registered.
 */
PartmgrSet *
partmgr_config_load_table(const char *table_name)
{
	Oid			relid = partmgr_resolve_table(table_name, false);

	return partmgr_config_load(partmgr_table_key(relid), false);
}

/*
 * partmgr_config_bind
 *		Check a configuration against the catalogs and fill in what they
 *		say: the parent's OID and names, the control column's number and
 *		type, the axis and the parsed interval.  Every error names the set.
 */
void
partmgr_config_bind(PartmgrSet *set)
{
	PartmgrErrorContext ctx;
	PartmgrParentInfo parent;
	Oid			key_type;

	partmgr_set_context_push(&ctx, set->key);

	set->parent_oid = partmgr_key_relid(set->key);
	if (!OidIsValid(set->parent_oid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("parent table \"%s\" of a partition set does not exist", set->key),
				 errhint("Remove the set with DELETE FROM partmgr.part_config WHERE parent_table = '%s', or recreate the table.",
						 set->key)));

	partmgr_read_parent(set->parent_oid, &parent);
	set->parent_schema = parent.schema;
	set->parent_name = parent.name;
	set->parent_owner = parent.owner;
	if (parent.strategy == 0)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("table \"%s\" is not partitioned", set->key)));

	/* by the key's number: its name is in the cache read_parent filled */
	if (parent.nkeys == 1 && parent.key_attnum != InvalidAttrNumber &&
		strcmp(parent.key_name ? parent.key_name :
			   get_attname(set->parent_oid, parent.key_attnum, false),
			   set->control) == 0)
		set->control_attnum = parent.key_attnum;
	else
		set->control_attnum = get_attnum(set->parent_oid, set->control);
	if (set->control_attnum == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("control column \"%s\" of partition set \"%s\" does not exist",
						set->control, set->key)));
	if (parent.nkeys != 1 || parent.key_attnum != set->control_attnum)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TABLE_DEFINITION),
				 errmsg("column \"%s\" is not the partition key of \"%s\"",
						set->control, set->key)));
	if (set->strategy != parent.strategy)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TABLE_DEFINITION),
				 errmsg("partition_type of \"%s\" does not match the table's partitioning strategy",
						set->key)));

	key_type = parent.key_type;
	if (set->strategy == PARTITION_STRATEGY_HASH)
	{
		bind_hash(set, key_type);
		partmgr_context_pop(&ctx);
		return;
	}
	if (set->time_decoder != NULL || set->time_encoder != NULL)
	{
		partmgr_axis_init(&set->axis, TIMESTAMPTZOID, set->axis.zone_name);
		partmgr_axis_set_codec(&set->axis, key_type,
							   partmgr_time_encoder_oid(set->time_encoder,
														key_type),
							   partmgr_time_decoder_oid(set->time_decoder));
	}
	else
		partmgr_axis_init(&set->axis, key_type, set->axis.zone_name);
	partmgr_axis_set_epoch(&set->axis, set->epoch);
	partmgr_step_parse(&set->axis, set->interval_text, PARTMGR_STEP_PARTITION,
					   &set->step);
	if (set->strategy == PARTITION_STRATEGY_LIST)
		partmgr_check_list_set(&set->axis, &set->step);
	if (set->axis.kind == PARTMGR_KEY_TIME && set->datetime_string == NULL)
		set->datetime_string =
			pstrdup(partmgr_default_datetime_string(&set->step));
	bind_eras(set);
	if (!parent.ispartition)
		set->has_limits = false;
	else if (OidIsValid(set->axis.decoder))
	{
		/*
		 * the bounds of an encoded key are read back with the owner's decoder
		 */
		PartmgrRights rights;

		partmgr_rights_enter_set(set, PARTMGR_RIGHTS_LOOK, &rights);
		set->has_limits = partmgr_read_limits(set, &set->limit_lower,
											  &set->limit_upper);
		partmgr_rights_leave(&rights);
	}
	else
		set->has_limits = partmgr_read_limits(set, &set->limit_lower,
											  &set->limit_upper);
	if (set->date_trunc_interval != NULL &&
		!partmgr_trunc_unit_is_valid(set->date_trunc_interval))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("date_trunc_interval \"%s\" is not a date_trunc() unit",
						set->date_trunc_interval)));

	partmgr_context_pop(&ctx);
}

/*
 * partmgr_config_insert
 *		Write a new set's part_config row.  Its partition_timezone is the
 *		set's zone when set->partition_timezone is, NULL otherwise.  A second
 *		registration of the same parent fails on the primary key.
 */
void
partmgr_config_insert(const PartmgrSet *set)
{
	static const char *const sql =
	"INSERT INTO partmgr.part_config"
	" (parent_table, control, partition_interval, partition_type,"
	"  premake, automatic_maintenance, template_table, epoch,"
	"  constraint_cols, datetime_string, jobmon,"
	"  inherit_privileges, default_table, date_trunc_interval,"
	"  time_encoder, time_decoder, partition_timezone)"
	" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,"
	"         $15, $16, $17)";
	Oid			types[17] = {TEXTOID, TEXTOID, TEXTOID, TEXTOID, INT4OID,
		TEXTOID, TEXTOID, TEXTOID, TEXTARRAYOID, TEXTOID, BOOLOID, BOOLOID,
	BOOLOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID};
	Datum		values[17];
	char		nulls[17];
	const char *texts[3] = {set->time_encoder, set->time_decoder, set->partition_timezone};

	memset(nulls, ' ', sizeof(nulls));
	values[0] = CStringGetTextDatum(set->key);
	values[1] = CStringGetTextDatum(set->control);
	values[2] = CStringGetTextDatum(set->interval_text);
	values[3] = CStringGetTextDatum(partmgr_strategy_name(set->strategy));
	values[4] = Int32GetDatum(set->premake);
	values[5] = CStringGetTextDatum(set->automatic_maintenance ? "on" : "off");
	if (set->template_table)
		values[6] = CStringGetTextDatum(set->template_table);
	else
		nulls[6] = 'n';
	values[7] = CStringGetTextDatum(set->epoch);
	if (set->constraint_cols != NIL)
	{
		int			n = list_length(set->constraint_cols);
		Datum	   *elems = palloc(sizeof(Datum) * n);
		int			i = 0;
		ListCell   *lc;

		foreach(lc, set->constraint_cols)
			elems[i++] = CStringGetTextDatum((char *) lfirst(lc));
		values[8] = PointerGetDatum(construct_array(elems, n, TEXTOID, -1,
													false,
													TYPALIGN_INT));
	}
	else
		nulls[8] = 'n';
	if (set->datetime_string)
		values[9] = CStringGetTextDatum(set->datetime_string);
	else
		nulls[9] = 'n';
	values[10] = BoolGetDatum(set->jobmon);
	values[11] = BoolGetDatum(set->inherit_privileges);
	values[12] = BoolGetDatum(set->default_table);
	if (set->date_trunc_interval)
		values[13] = CStringGetTextDatum(set->date_trunc_interval);
	else
		nulls[13] = 'n';
	for (int i = 0; i < lengthof(texts); i++)
	{
		if (texts[i] != NULL)
			values[14 + i] = CStringGetTextDatum(texts[i]);
		else
			nulls[14 + i] = 'n';
	}

	partmgr_spi_exec_cached(sql, 17, types, values, nulls, false,
							SPI_OK_INSERT);
}

/*
 * partmgr_config_template_in_use
 *		Whether a set in part_config names this template table (a key).
 *		Not read-only: the caller may just have deleted a set's own row.
 */
bool
partmgr_config_template_in_use(const char *template_table)
{
	static const char *const sql =
	"SELECT 1 FROM partmgr.part_config WHERE template_table = $1";
	Oid			types[1] = {TEXTOID};
	Datum		values[1];

	values[0] = CStringGetTextDatum(template_table);
	return partmgr_spi_exec_cached(sql, 1, types, values, NULL, false,
								   SPI_OK_SELECT) > 0;
}

/*
 * partmgr_config_list
 *		Keys of the sets to maintain, in maintenance order (maintenance_order
 *		ascending, NULLs last, then parent_table), leaving out sets being
 *		undone.  automatic_only keeps the sets with automatic_maintenance on.
 *		Allocated in the current memory context.
 */
List *
partmgr_config_list(bool automatic_only)
{
	List	   *sets = partmgr_config_list_sets(automatic_only);
	List	   *result = NIL;
	ListCell   *lc;

	foreach(lc, sets)
		result = lappend(result, ((PartmgrSet *) lfirst(lc))->key);
	return result;
}

/*
 * partmgr_config_list_sets
 *		The same sets, with their configuration as read now and not yet
 *		bound (partmgr_config_bind): one query for a whole run.
 */
List *
partmgr_config_list_sets(bool automatic_only)
{
	uint64		n;
	List	   *result = NIL;

	check_objects();
	n = partmgr_spi_exec_cached(automatic_only ? list_auto_sql : list_all_sql,
								0, NULL,
								NULL, NULL, false, SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
		result = lappend(result, read_row(i));
	return result;
}

/*
 * partmgr_stamps_init, partmgr_stamps_add, partmgr_stamps_write
 *		Record when each set of a run was maintained successfully, and write
 *		all of it into maintenance_last_run with one UPDATE at the end of the
 *		run: one UPDATE per set cost more than maintaining an idle set, and
 *		kept every set's transaction from being read-only.  Each set keeps
 *		the time its maintenance finished.  A row another transaction has
 *		locked (a configuration change in progress) keeps its time: the run
 *		never waits for it.  The memory is taken from the context current at
 *		init; write needs SPI and a snapshot, and empties the list.
 */
void
partmgr_stamps_init(PartmgrRunStamps *stamps)
{
	memset(stamps, 0, sizeof(*stamps));
	stamps->cxt = CurrentMemoryContext;
}

void
partmgr_stamps_add(PartmgrRunStamps *stamps, const char *key, TimestampTz when)
{
	MemoryContext caller = MemoryContextSwitchTo(stamps->cxt);

	if (stamps->n == stamps->size)
	{
		stamps->size = Max(16, stamps->size * 2);
		stamps->keys = (stamps->keys ?
						repalloc(stamps->keys, sizeof(Datum) * stamps->size) :
						palloc(sizeof(Datum) * stamps->size));
		stamps->times = (stamps->times ?
						 repalloc(stamps->times, sizeof(Datum) * stamps->size) :
						 palloc(sizeof(Datum) * stamps->size));
	}
	stamps->keys[stamps->n] = CStringGetTextDatum(key);
	stamps->times[stamps->n] = TimestampTzGetDatum(when);
	stamps->n++;
	MemoryContextSwitchTo(caller);
}

void
partmgr_stamps_write(PartmgrRunStamps *stamps)
{
	static const char *const sql =
	"WITH free AS (SELECT l.parent_table FROM partmgr.part_config l"
	"               WHERE l.parent_table OPERATOR(pg_catalog.=) ANY"
	" ($1::text[])"
	"                 FOR NO KEY UPDATE SKIP LOCKED)"
	"UPDATE partmgr.part_config c SET maintenance_last_run = s.t"
	"  FROM unnest($1::text[], $2::timestamptz[]) AS s(k, t), free f"
	" WHERE c.parent_table OPERATOR(pg_catalog.=) s.k"
	"   AND f.parent_table OPERATOR(pg_catalog.=) s.k";
	Oid			types[2] = {TEXTARRAYOID, TIMESTAMPTZARRAYOID};
	Datum		values[2];

	if (stamps->n == 0)
		return;
	values[0] = PointerGetDatum(construct_array(stamps->keys, stamps->n,
												TEXTOID,
												-1, false, TYPALIGN_INT));
	values[1] = PointerGetDatum(construct_array(stamps->times, stamps->n,
												TIMESTAMPTZOID,
												sizeof(TimestampTz),
												FLOAT8PASSBYVAL,
												TYPALIGN_DOUBLE));
	partmgr_spi_exec_cached(sql, 2, types, values, NULL, false, SPI_OK_UPDATE);
	stamps->n = 0;
}

/*
 * exec_on_key
 *		Run a statement on pg_partmgr's configuration whose one parameter, $1,
 *		is a set's key (cached plan); returns the rows it touched.
 */
static uint64
exec_on_key(const char *sql, const char *key, int expected)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1];

	values[0] = CStringGetTextDatum(key);
	return partmgr_spi_exec_cached(sql, 1, types, values, NULL, false,
								   expected);
}

/*
 * partmgr_config_change_interval
 *		Record that the set's children below era_end followed its interval so
 *		far (unless a row already says so for that bound: the interval
 *		changed again before any child was made with the last one; and not
 *		at all for era_end NULL, a set without children), and make
 *		new_interval, named with datetime_string (NULL for id sets) and cut
 *		by the new interval's default unit, the set's interval from there on.
 */
void
partmgr_config_change_interval(const PartmgrSet *set, const char *era_end,
							   const char *new_interval,
							   const char *datetime_string)
{
	Oid			types[5] = {TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID};
	Datum		values[5];
	char		nulls[5] = {' ', ' ', ' ', ' ', ' '};

	values[0] = CStringGetTextDatum(set->key);
	if (era_end != NULL)
	{
		values[1] = CStringGetTextDatum(era_end);
		values[2] = CStringGetTextDatum(set->interval_text);
		if (set->datetime_string != NULL)
			values[3] = CStringGetTextDatum(set->datetime_string);
		else
			nulls[3] = 'n';
		if (set->date_trunc_interval != NULL)
			values[4] = CStringGetTextDatum(set->date_trunc_interval);
		else
			nulls[4] = 'n';
		(void) partmgr_spi_exec("INSERT INTO partmgr.part_config_interval"
								" (parent_table, interval_end, partition_interval,"
								"  datetime_string, date_trunc_interval)"
								" VALUES ($1, $2, $3, $4, $5)"
								" ON CONFLICT (parent_table, interval_end) DO"
								" NOTHING",
								5, types, values, nulls, false, SPI_OK_INSERT);
	}

	values[1] = CStringGetTextDatum(new_interval);
	nulls[1] = ' ';
	if (datetime_string != NULL)
	{
		values[2] = CStringGetTextDatum(datetime_string);
		nulls[2] = ' ';
	}
	else
		nulls[2] = 'n';
	if (partmgr_spi_exec("UPDATE partmgr.part_config"
						 "   SET partition_interval = $2, datetime_string = $3,"
						 "       date_trunc_interval = NULL"
						 " WHERE parent_table = $1",
						 3, types, values, nulls, false, SPI_OK_UPDATE) != 1)
		elog(ERROR, "part_config row of \"%s\" vanished", set->key);
}

/*
 * partmgr_config_set_eras
 *		Write a set's earlier intervals (a reshape changed them): one
 *		part_config_interval row per era but the last, which is part_config's
 *		own (its interval does not change).
 */
void
partmgr_config_set_eras(const PartmgrSet *set, const PartmgrEra *eras,
						int neras)
{
	static const char *const insert_sql =
	"INSERT INTO partmgr.part_config_interval"
	" (parent_table, interval_end, partition_interval, datetime_string,"
	"  date_trunc_interval, next_aligned)"
	" VALUES ($1, $2, $3, $4, $5, $6)";
	Oid			types[6] = {TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, BOOLOID};
	Datum		values[6];
	char		nulls[6] = {' ', ' ', ' ', ' ', ' ', ' '};

	values[0] = CStringGetTextDatum(set->key);
	(void) partmgr_spi_exec_cached("DELETE FROM partmgr.part_config_interval"
								   " WHERE parent_table = $1",
								   1, types, values, NULL, false,
								   SPI_OK_DELETE);
	for (int i = 0; i + 1 < neras; i++)
	{
		const PartmgrEra *era = &eras[i];

		values[1] = CStringGetTextDatum(partmgr_point_display(&set->axis,
															  era->end));
		values[2] = CStringGetTextDatum(era->interval_text);
		values[3] = era->datetime_string ? CStringGetTextDatum(era->datetime_string) : (Datum) 0;
		nulls[3] = era->datetime_string ? ' ' : 'n';
		values[4] = era->date_trunc_interval ? CStringGetTextDatum(era->date_trunc_interval) : (Datum) 0;
		nulls[4] = era->date_trunc_interval ? ' ' : 'n';
		values[5] = BoolGetDatum(era->next_aligned);
		(void) partmgr_spi_exec_cached(insert_sql, 6, types, values, nulls,
									   false, SPI_OK_INSERT);
	}
}

/*
 * partmgr_config_set_undo
 *		Mark a set as being undone (maintenance leaves it alone), or not.
 */
void
partmgr_config_set_undo(const char *key, bool undo)
{
	static const char *const sql =
	"UPDATE partmgr.part_config SET undo_in_progress = $2 WHERE parent_table"
	" = $1";
	Oid			types[2] = {TEXTOID, BOOLOID};
	Datum		values[2];

	values[0] = CStringGetTextDatum(key);
	values[1] = BoolGetDatum(undo);
	partmgr_spi_exec_cached(sql, 2, types, values, NULL, false, SPI_OK_UPDATE);
}

/*
 * partmgr_config_delete
 *		Forget a set (its part_config_sub row goes with it).
 */
void
partmgr_config_delete(const char *key)
{
	(void) exec_on_key("DELETE FROM partmgr.part_config WHERE parent_table = $1", key,
					   SPI_OK_DELETE);
}

/*
 * partmgr_time_encoder_oid, partmgr_time_decoder_oid
 *		The functions a set's time encoder and decoder name (pg_partman
 *		5.2): encoder(timestamptz) returning the control column's type (text
 *		and varchar count as one), decoder(text) returning timestamptz.
 */
/*
 * lookup_function
 *		A function of one argument of type argtype, or InvalidOid.  Looked up
 *		with search_path pinned (pg_catalog, pg_temp): a stored name means
 *		the same function whoever reads it (partmgr_function_name qualifies
 *		a name a caller gives).
 */
static Oid
lookup_function(const char *name, Oid argtype)
{
	Oid			argtypes[1];
	PartmgrCallerRights saved;
	Oid			func;

	argtypes[0] = argtype;
	partmgr_caller_begin(&saved);
	func = LookupFuncName(qualified_name(name), 1, argtypes, true);
	partmgr_caller_end(&saved);
	return func;
}

/*
 * partmgr_function_name
 *		The schema-qualified name of the function of one argument of type
 *		argtype that name stands for in the caller's search_path, to be
 *		stored; name itself when there is none (the error comes when it is
 *		checked).  Called before entering an owner's scope.
 */
char *
partmgr_function_name(const char *name, Oid argtype)
{
	Oid			argtypes[1];
	Oid			func;

	if (name == NULL)
		return NULL;
	argtypes[0] = argtype;
	func = LookupFuncName(qualified_name(name), 1, argtypes, true);
	if (!OidIsValid(func))
		return pstrdup(name);
	return quote_qualified_identifier(get_namespace_name(get_func_namespace(func)),
									  get_func_name(func));
}

Oid
partmgr_time_encoder_oid(const char *name, Oid column_type)
{
	Oid			func = lookup_function(name, TIMESTAMPTZOID);
	Oid			rettype;

	if (!OidIsValid(func))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("time encoder function %s(timestamp with time zone) does not exist", name),
				 errhint("An encoder takes a timestamptz and returns the control column's value for it, such as partmgr.uuid7_time_encoder.")));
	rettype = get_func_rettype(func);
	if (rettype != column_type &&
		!((rettype == TEXTOID || rettype == VARCHAROID) &&
		  (column_type == TEXTOID || column_type == VARCHAROID)))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("time encoder %s returns %s, but the control column is %s",
						name, format_type_be(rettype),
						format_type_be(column_type))));
	return func;
}

Oid
partmgr_time_decoder_oid(const char *name)
{
	Oid			func = lookup_function(name, TEXTOID);

	if (!OidIsValid(func))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("time decoder function %s(text) does not exist", name),
				 errhint("A decoder takes the control column's value as text and returns its timestamptz, such as partmgr.uuid7_time_decoder.")));
	if (get_func_rettype(func) != TIMESTAMPTZOID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("time decoder %s returns %s, not timestamp with time zone",
						name, format_type_be(get_func_rettype(func)))));
	return func;
}

/* part_config_sub's columns, in the order partmgr_sub_spec_load reads them */
#define SUB_COLUMNS \
	"sub_control, sub_partition_interval, sub_partition_type, sub_premake," \
	" sub_automatic_maintenance, sub_template_table, sub_retention," \
	" sub_retention_schema, sub_retention_keep_index, sub_retention_keep_table," \
	" sub_epoch, sub_constraint_cols, sub_optimize_constraint," \
	" sub_infinite_time_partitions, sub_jobmon, sub_inherit_privileges," \
	" sub_constraint_valid, sub_date_trunc_interval, sub_ignore_default_data," \
	" sub_default_table, sub_maintenance_order, sub_retention_keep_publication," \
	" sub_control_not_null, sub_time_encoder, sub_time_decoder"

/*
 * partmgr_sub_spec_load
 *		How new children of the set are partitioned in turn, or NULL when
 *		they are not.  The sub-set's time zone is the set's own (the
 *		session's when the set has none recorded).
 */
PartmgrSubSpec *
partmgr_sub_spec_load(const char *key)
{
	static const char *const sql =
	"SELECT " SUB_COLUMNS ", c.partition_timezone"
	" FROM partmgr.part_config_sub s"
	" LEFT JOIN partmgr.part_config c ON c.parent_table = s.sub_parent"
	" WHERE s.sub_parent = $1";
	Oid			types[1] = {TEXTOID};
	Datum		values[1];
	PartmgrSubSpec *spec;
	PartmgrCreateArgs *a;
	bool		isnull;

	values[0] = CStringGetTextDatum(key);
	/* not read-only: create_sub_parent reads the row it has just written */
	if (partmgr_spi_exec_cached(sql, 1, types, values, NULL, false,
								SPI_OK_SELECT) == 0)
		return NULL;

	spec = palloc0(sizeof(PartmgrSubSpec));
	a = &spec->args;
	a->control = partmgr_spi_text(0, 1);
	a->interval = partmgr_spi_text(0, 2);
	a->type = partmgr_spi_text(0, 3);
	a->premake = DatumGetInt32(partmgr_spi_value(0, 4, &isnull));
	a->automatic = partmgr_spi_text(0, 5);
	a->template_table = partmgr_spi_text(0, 6);
	spec->retention = partmgr_spi_text(0, 7);
	spec->retention_schema = partmgr_spi_text(0, 8);
	spec->retention_keep_index = row_bool(0, 9);
	spec->retention_keep_table = row_bool(0, 10);
	a->epoch = partmgr_spi_text(0, 11);
	a->constraint_cols = row_text_array(0, 12);
	spec->optimize_constraint = DatumGetInt32(partmgr_spi_value(0, 13,
																&isnull));
	spec->infinite_time_partitions = row_bool(0, 14);
	a->jobmon = row_bool(0, 15);
	spec->inherit_privileges = row_bool(0, 16);
	spec->constraint_valid = row_bool(0, 17);
	a->trunc_unit = partmgr_spi_text(0, 18);
	spec->ignore_default_data = row_bool(0, 19);
	a->with_default = row_bool(0, 20);
	spec->maintenance_order = DatumGetInt32(partmgr_spi_value(0, 21, &isnull));
	spec->maintenance_order_isnull = isnull;
	spec->retention_keep_publication = row_bool(0, 22);
	a->control_not_null = row_bool(0, 23);
	a->encoder = partmgr_spi_text(0, 24);
	a->decoder = partmgr_spi_text(0, 25);
	a->zone = partmgr_spi_text(0, 26);
	if (a->zone == NULL)
		a->zone = GetConfigOption("TimeZone", false, false);
	return spec;
}

/*
 * partmgr_sub_spec_insert
 *		Write the part_config_sub row of a set (create_sub_parent): the
 *		parameters create_sub_parent takes, the rest at their defaults.
 */
void
partmgr_sub_spec_insert(const char *key, const PartmgrSubSpec *spec)
{
	const PartmgrCreateArgs *a = &spec->args;
	Oid			types[15] = {TEXTOID, TEXTOID, TEXTOID, TEXTOID, BOOLOID,
		TEXTARRAYOID, INT4OID, TEXTOID, TEXTOID, BOOLOID, TEXTOID, TEXTOID, BOOLOID,
	TEXTOID, TEXTOID};
	Datum		values[15];
	char		nulls[15];
	const char *texts[15] = {key, a->control, a->interval, a->type, NULL, NULL, NULL,
		a->automatic, a->epoch, NULL, a->template_table, a->trunc_unit, NULL,
	a->encoder, a->decoder};

	memset(nulls, ' ', sizeof(nulls));
	for (int i = 0; i < 15; i++)
	{
		if (types[i] != TEXTOID)
			continue;
		if (texts[i] == NULL)
			nulls[i] = 'n';
		else
			values[i] = CStringGetTextDatum(texts[i]);
	}
	values[4] = BoolGetDatum(a->with_default);
	if (a->constraint_cols == NIL)
		nulls[5] = 'n';
	else
	{
		Datum	   *elems = palloc(sizeof(Datum) *
								   list_length(a->constraint_cols));
		ListCell   *lc;

		foreach(lc, a->constraint_cols)
			elems[foreach_current_index(lc)] = CStringGetTextDatum((char *) lfirst(lc));
		values[5] = PointerGetDatum(construct_array(elems,
													list_length(a->constraint_cols),
													TEXTOID, -1, false,
													TYPALIGN_INT));
	}
	values[6] = Int32GetDatum(a->premake);
	values[9] = BoolGetDatum(a->jobmon);
	values[12] = BoolGetDatum(a->control_not_null);
	partmgr_spi_exec("INSERT INTO partmgr.part_config_sub"
					 " (sub_parent, sub_control, sub_partition_interval, sub_partition_type,"
					 "  sub_default_table, sub_constraint_cols, sub_premake,"
					 "  sub_automatic_maintenance, sub_epoch, sub_jobmon, sub_template_table,"
					 "  sub_date_trunc_interval, sub_control_not_null, sub_time_encoder,"
					 "  sub_time_decoder)"
					 " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,"
					 " $12, $13, $14, $15)",
					 15, types, values, nulls, false, SPI_OK_INSERT);
}

/*
 * partmgr_sub_spec_copy_sibling
 *		A new set whose table is (or is about to be) a partition of above,
 *		some of whose other partitions are sub-partitioned in turn (three
 *		levels or more), is sub-partitioned like them: the part_config_sub
 *		row of the first such sibling is copied for it, as pg_partman's
 *		create_parent does.  True if one was.
 */
bool
partmgr_sub_spec_copy_sibling(const char *key, Oid relid, Oid above)
{
	static const char *const sql =
	"INSERT INTO partmgr.part_config_sub (sub_parent, " SUB_COLUMNS ")"
	" SELECT $1, " SUB_COLUMNS " FROM partmgr.part_config_sub s"
	"  WHERE s.sub_parent = ANY ($2)"
	"  ORDER BY s.sub_parent COLLATE \"C\" LIMIT 1";
	Oid			types[2] = {TEXTOID, TEXTARRAYOID};
	Datum		values[2];
	List	   *siblings;
	Datum	   *keys;
	int			n = 0;
	ListCell   *lc;

	if (!OidIsValid(above))
		return false;
	siblings = find_inheritance_children(above, NoLock);
	keys = palloc(sizeof(Datum) * (list_length(siblings) + 1));
	foreach(lc, siblings)
	{
		if (lfirst_oid(lc) != relid)
			keys[n++] = CStringGetTextDatum(partmgr_table_key(lfirst_oid(lc)));
	}
	if (n == 0)
		return false;
	values[0] = CStringGetTextDatum(key);
	values[1] = PointerGetDatum(construct_array(keys, n, TEXTOID, -1, false,
												TYPALIGN_INT));
	return partmgr_spi_exec_cached(sql, 2, types, values, NULL, false,
								   SPI_OK_INSERT) > 0;
}

/*
 * partmgr_sub_spec_apply
 *		Give a new sub-set the settings of its part_config_sub row that
 *		create_parent has no parameter for.
 */
void
partmgr_sub_spec_apply(const char *key, const PartmgrSubSpec *spec)
{
	static const char *const sql =
	"UPDATE partmgr.part_config SET retention = $2, retention_schema = $3,"
	" retention_keep_index = $4, retention_keep_table = $5,"
	" retention_keep_publication = $6, optimize_constraint = $7,"
	" infinite_time_partitions = $8, inherit_privileges = $9,"
	" constraint_valid = $10, ignore_default_data = $11, maintenance_order = $12"
	" WHERE parent_table = $1";
	Oid			types[12] = {TEXTOID, TEXTOID, TEXTOID, BOOLOID, BOOLOID, BOOLOID,
	INT4OID, BOOLOID, BOOLOID, BOOLOID, BOOLOID, INT4OID};
	Datum		values[12];
	char		nulls[12];

	memset(nulls, ' ', sizeof(nulls));
	values[0] = CStringGetTextDatum(key);
	if (spec->retention)
		values[1] = CStringGetTextDatum(spec->retention);
	else
		nulls[1] = 'n';
	if (spec->retention_schema)
		values[2] = CStringGetTextDatum(spec->retention_schema);
	else
		nulls[2] = 'n';
	values[3] = BoolGetDatum(spec->retention_keep_index);
	values[4] = BoolGetDatum(spec->retention_keep_table);
	values[5] = BoolGetDatum(spec->retention_keep_publication);
	values[6] = Int32GetDatum(spec->optimize_constraint);
	values[7] = BoolGetDatum(spec->infinite_time_partitions);
	values[8] = BoolGetDatum(spec->inherit_privileges);
	values[9] = BoolGetDatum(spec->constraint_valid);
	values[10] = BoolGetDatum(spec->ignore_default_data);
	values[11] = Int32GetDatum(spec->maintenance_order);
	if (spec->maintenance_order_isnull)
		nulls[11] = 'n';
	partmgr_spi_exec_cached(sql, 12, types, values, nulls, false,
							SPI_OK_UPDATE);
}

/*
 * partmgr_sub_spec_delete
 *		stop_sub_partition: forget how new children of the set are
 *		partitioned.  True if there was such a row.
 */
bool
partmgr_sub_spec_delete(const char *key)
{
	return exec_on_key("DELETE FROM partmgr.part_config_sub WHERE sub_parent"
					   " = $1", key,
					   SPI_OK_DELETE) > 0;
}

/*
 * partmgr_config_set_full
 *		Mark a sub-set whose last child within its parent's bounds exists
 *		(part_config.sub_partition_set_full).
 */
void
partmgr_config_set_full(const char *key)
{
	(void) exec_on_key("UPDATE partmgr.part_config SET sub_partition_set_full"
					   " = true"
					   " WHERE parent_table = $1 AND NOT sub_partition_set_full",
					   key, SPI_OK_UPDATE);
}


/*
 * Sets forgotten in this transaction because retention or undo took their
 * table out of the set above (see work_forget_sub_sets in execute.c): a run
 * over many sets that listed them before skips them.  Kept for the
 * transaction that forgot them.
 */
static LocalTransactionId forgotten_lxid = InvalidLocalTransactionId;
static List *forgotten = NIL;

static void
note_forgotten(List *keys)
{
	MemoryContext caller;
	ListCell   *lc;

	if (forgotten_lxid != MyProc->lxid)
	{
		forgotten = NIL;		/* freed with its transaction's memory */
		forgotten_lxid = MyProc->lxid;
	}
	caller = MemoryContextSwitchTo(TopTransactionContext);
	foreach(lc, keys)
		forgotten = lappend(forgotten, pstrdup((char *) lfirst(lc)));
	MemoryContextSwitchTo(caller);
}

bool
partmgr_config_was_forgotten(const char *key)
{
	ListCell   *lc;

	if (forgotten_lxid != MyProc->lxid)
		return false;
	foreach(lc, forgotten)
	{
		if (strcmp((char *) lfirst(lc), key) == 0)
			return true;
	}
	return false;
}

/*
 * partmgr_config_set_async
 *		Record the lower bound of the child partition_data_async is filling
 *		(NULL: none).
 */
void
partmgr_config_set_async(const char *key, const char *child)
{
	static const char *const sql =
	"UPDATE partmgr.part_config SET async_partitioning_in_progress = $2"
	" WHERE parent_table = $1";
	Oid			types[2] = {TEXTOID, TEXTOID};
	Datum		values[2];
	char		nulls[2] = {' ', ' '};

	values[0] = CStringGetTextDatum(key);
	if (child != NULL)
		values[1] = CStringGetTextDatum(child);
	else
		nulls[1] = 'n';
	partmgr_spi_exec_cached(sql, 2, types, values, nulls, false, SPI_OK_UPDATE);
}

/*
 * partmgr_config_forget
 *		Forget the given sets (their part_config_sub rows follow by foreign
 *		key), and note them as forgotten in this
 *		transaction (see partmgr_config_was_forgotten).
 */
void
partmgr_config_forget(List *keys)
{
	static const char *const sql =
	"DELETE FROM partmgr.part_config WHERE parent_table = ANY ($1)";
	Oid			types[1] = {TEXTARRAYOID};
	Datum		values[1];
	Datum	   *elems = palloc(sizeof(Datum) * Max(list_length(keys), 1));
	ListCell   *lc;

	foreach(lc, keys)
		elems[foreach_current_index(lc)] = CStringGetTextDatum((char *) lfirst(lc));
	values[0] = PointerGetDatum(construct_array(elems, list_length(keys),
												TEXTOID, -1, false,
												TYPALIGN_INT));
	partmgr_spi_exec_cached(sql, 1, types, values, NULL, false, SPI_OK_DELETE);
	note_forgotten(keys);
}

/*
 * partmgr_config_keys
 *		The keys of the sets a call with an optional p_parent_table works on:
 *		the set of table (any spelling partmgr_resolve_table accepts; raises
 *		unless it is registered and the caller has its owner's privileges),
 *		or, when table is NULL, every set partmgr_config_list(automatic_only)
 *		lists, whoever owns it (the caller leaves out those it may not act
 *		on).  Allocated in the current memory context.
 */
List *
partmgr_config_keys(const char *table, bool automatic_only)
{
	PartmgrSet *set;

	if (table == NULL)
		return partmgr_config_list(automatic_only);
	set = partmgr_config_load_table(table);
	partmgr_check_may_act_on(set->parent_owner, set->key);
	return list_make1(set->key);
}

/*
 * partmgr_config_clear_template
 *		Forget the template table of a set (part_config.template_table set
 *		to NULL), leaving the table itself alone.
 */
void
partmgr_config_clear_template(const char *key)
{
	(void) exec_on_key("UPDATE partmgr.part_config SET template_table = NULL"
					   " WHERE parent_table = $1", key, SPI_OK_UPDATE);
}

/*
 * partmgr_config_insert_from_partman
 *		Write the part_config row of a set imported from pg_partman, column
 *		by column from partman_row, pg_partman's part_config row as jsonb
 *		text (to_jsonb of the row), so that 4.7's columns and 5.x's both do:
 *		a column pg_partman does not have gets pg_partmgr's default, its
 *		"native" type reads as range.  default_table is whether the parent
 *		has a default partition, as the catalog says (not pg_partman's row).
 *		A set registered already fails on the primary key.
 */
void
partmgr_config_insert_from_partman(const char *partman_row, bool default_table)
{
	static const char *const sql =
	"INSERT INTO partmgr.part_config"
	" (parent_table, control, partition_interval, partition_type, premake,"
	"  automatic_maintenance, epoch, constraint_cols, optimize_constraint,"
	"  retention, retention_schema, retention_keep_table, retention_keep_index,"
	"  retention_keep_publication, infinite_time_partitions, datetime_string, jobmon,"
	"  inherit_privileges, constraint_valid, ignore_default_data, default_table,"
	"  date_trunc_interval, maintenance_order, template_table, partition_timezone)"
	" SELECT j->>'parent_table', j->>'control', j->>'partition_interval',"
	"        CASE WHEN j->>'partition_type' = 'list' THEN 'list' ELSE 'range'"
	" END,"
	"        coalesce((j->>'premake')::int, 4), coalesce(j->>'automatic_maintenance', 'on'),"
	"        coalesce(j->>'epoch', 'none'), CASE WHEN"
	" jsonb_typeof(j->'constraint_cols') = 'array' THEN"
	"          (SELECT array_agg(c) FROM"
	" jsonb_array_elements_text(j->'constraint_cols') c) END,"
	"        coalesce((j->>'optimize_constraint')::int, 30), j->>'retention',"
	"        j->>'retention_schema', coalesce((j->>'retention_keep_table')::boolean, true),"
	"        coalesce((j->>'retention_keep_index')::boolean, true),"
	"        coalesce((j->>'retention_keep_publication')::boolean, false),"
	"        coalesce((j->>'infinite_time_partitions')::boolean, false),"
	"        nullif(j->>'datetime_string', ''), coalesce((j->>'jobmon')::boolean, true),"
	"        coalesce((j->>'inherit_privileges')::boolean, false),"
	"        coalesce((j->>'constraint_valid')::boolean, true),"
	"        coalesce((j->>'ignore_default_data')::boolean, true), $2,"
	"        j->>'date_trunc_interval', (j->>'maintenance_order')::int,"
	"        j->>'template_table',"
	"        coalesce(j->>'partition_timezone',"
	" pg_catalog.current_setting('TimeZone'))"
	"   FROM (SELECT $1::jsonb AS j) AS config";
	Oid			types[2] = {JSONBOID, BOOLOID};
	Datum		values[2];

	values[0] = DirectFunctionCall1(jsonb_in, CStringGetDatum(partman_row));
	values[1] = BoolGetDatum(default_table);
	partmgr_spi_exec_cached(sql, 2, types, values, NULL, false, SPI_OK_INSERT);
}

/*
 * partmgr_sub_spec_insert_from_partman
 *		Write the part_config_sub row of a set imported from pg_partman, from
 *		partman_row, pg_partman's part_config_sub row as jsonb text (4.7's
 *		columns or 5.x's; a column it does not have gets pg_partmgr's
 *		default, an interval word of 4.7's create_sub_parent its interval).
 */
void
partmgr_sub_spec_insert_from_partman(const char *partman_row)
{
	static const char *const sql =
	"INSERT INTO partmgr.part_config_sub"
	" (sub_parent, sub_control, sub_partition_interval, sub_partition_type, sub_premake,"
	"  sub_automatic_maintenance, sub_template_table, sub_retention, sub_retention_schema,"
	"  sub_retention_keep_index, sub_retention_keep_table, sub_epoch, sub_constraint_cols,"
	"  sub_optimize_constraint, sub_infinite_time_partitions, sub_jobmon,"
	"  sub_inherit_privileges, sub_constraint_valid, sub_ignore_default_data,"
	"  sub_default_table, sub_date_trunc_interval, sub_maintenance_order,"
	"  sub_retention_keep_publication, sub_control_not_null, sub_time_encoder,"
	"  sub_time_decoder)"
	" SELECT j->>'sub_parent', j->>'sub_control',"
	/* pg_partman 4 keeps create_sub_parent's p_interval as given */
	"        CASE j->>'sub_partition_interval' WHEN 'yearly' THEN '1 year'"
	"          WHEN 'quarterly' THEN '3 mons' WHEN 'monthly' THEN '1 mon'"
	"          WHEN 'weekly' THEN '7 days' WHEN 'daily' THEN '1 day'"
	"          WHEN 'hourly' THEN '01:00:00' WHEN 'half-hour' THEN '00:30:00'"
	"          WHEN 'quarter-hour' THEN '00:15:00' ELSE"
	" j->>'sub_partition_interval' END,"
	"        CASE WHEN j->>'sub_partition_type' = 'list' THEN 'list' ELSE"
	" 'range' END,"
	"        coalesce((j->>'sub_premake')::int, 4), coalesce(j->>'sub_automatic_maintenance', 'on'),"
	"        j->>'sub_template_table', j->>'sub_retention', j->>'sub_retention_schema',"
	"        coalesce((j->>'sub_retention_keep_index')::boolean, true),"
	"        coalesce((j->>'sub_retention_keep_table')::boolean, true),"
	"        coalesce(j->>'sub_epoch', 'none'),"
	"        CASE WHEN jsonb_typeof(j->'sub_constraint_cols') = 'array' THEN"
	"          (SELECT array_agg(c) FROM"
	" jsonb_array_elements_text(j->'sub_constraint_cols') c) END,"
	"        coalesce((j->>'sub_optimize_constraint')::int, 30),"
	"        coalesce((j->>'sub_infinite_time_partitions')::boolean, false),"
	"        coalesce((j->>'sub_jobmon')::boolean, true),"
	"        coalesce((j->>'sub_inherit_privileges')::boolean, false),"
	"        coalesce((j->>'sub_constraint_valid')::boolean, true),"
	"        coalesce((j->>'sub_ignore_default_data')::boolean, true),"
	"        coalesce((j->>'sub_default_table')::boolean, true),"
	"        j->>'sub_date_trunc_interval', (j->>'sub_maintenance_order')::int,"
	"        coalesce((j->>'sub_retention_keep_publication')::boolean, false),"
	"        coalesce((j->>'sub_control_not_null')::boolean, true),"
	"        j->>'sub_time_encoder', j->>'sub_time_decoder'"
	"   FROM (SELECT $1::jsonb AS j) AS config";
	Oid			types[1] = {JSONBOID};
	Datum		values[1];

	values[0] = DirectFunctionCall1(jsonb_in, CStringGetDatum(partman_row));
	partmgr_spi_exec_cached(sql, 1, types, values, NULL, false, SPI_OK_INSERT);
}

/*
 * partmgr_config_set_codec
 *		Give a set whose part_config row was written by hand (an import) its
 *		time encoder and decoder (pg_partman 5.2).  The table's check refuses
 *		one without the other.
 */
void
partmgr_config_set_codec(const char *key, const char *encoder,
						 const char *decoder)
{
	static const char *const sql =
	"UPDATE partmgr.part_config SET time_encoder = $2, time_decoder = $3"
	" WHERE parent_table = $1";
	Oid			types[3] = {TEXTOID, TEXTOID, TEXTOID};
	Datum		values[3];
	char		nulls[3] = {' ', 'n', 'n'};

	values[0] = CStringGetTextDatum(key);
	if (encoder != NULL)
	{
		values[1] = CStringGetTextDatum(encoder);
		nulls[1] = ' ';
	}
	if (decoder != NULL)
	{
		values[2] = CStringGetTextDatum(decoder);
		nulls[2] = ' ';
	}
	partmgr_spi_exec_cached(sql, 3, types, values, nulls, false, SPI_OK_UPDATE);
}
