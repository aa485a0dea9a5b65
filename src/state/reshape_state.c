/*-------------------------------------------------------------------------
 *
 * reshape_state.c
 *	  partmgr.reshape_operation to and from C structs.
 *
 * A reshape (split_partition, merge_partitions, the hash splits and merges,
 * change_interval's p_reshape_existing) spans many transactions: its row
 * says which children it replaces by which, how far the copy has got and
 * in which phase it stands, so that a call after a crash or a cancel goes
 * on where the last committed step left it.  The row is written in the
 * same transaction as the step it records, and deleted in the transaction
 * of the swap.
 *
 * Locks: those of the statements on reshape_operation (ROW EXCLUSIVE).
 * Runs in the caller's transaction, with the caller's rights (our own
 * table, spi_util.c); the table's owner trigger keeps each role to the
 * rows of its own sets.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/reshape_state.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "reshape_state.h"
#include "spi_util.h"

/*
 * The columns of an operation; target_tablespace is 0.7.0's (the library
 * works with 0.6.0's objects too: no moves there).
 */
#define OP_COLUMNS_OF(tablespace) \
"SELECT operation_id, parent_table, kind, source_tables, target_tables, target_bounds," \
"       target_interval, target_format, target_aligned, phase, copy_source," \
"       copy_block, rows_copied, rows_replayed, created_at," \
"       updated_at, last_error, copy_filenodes, " tablespace \
"  FROM partmgr.reshape_operation"
#define OP_COLUMNS OP_COLUMNS_OF("target_tablespace")
#define OP_COLUMNS_060 OP_COLUMNS_OF("NULL::pg_catalog.text")

/* Whether reshape_operation has 0.7.0's target_tablespace. */
static bool
have_tablespace_column(void)
{
	Oid			nspid = get_namespace_oid("partmgr", true);
	Oid			relid = OidIsValid(nspid) ?
	get_relname_relid("reshape_operation", nspid) : InvalidOid;

	return OidIsValid(relid) &&
		get_attnum(relid, "target_tablespace") != InvalidAttrNumber;
}

/*
 * partmgr_reshape_drops_later
 *		Whether a swap may leave the old children to a step of their own
 *		(phase swapped, 0.7.0's objects): dropping a large table at commit
 *		takes time, which the swap would spend holding its locks.
 */
bool
partmgr_reshape_drops_later(void)
{
	return have_tablespace_column();
}

/* sql060 instead of sql on 0.6.0's objects */
#define OP_SQL(sql, sql060) (have_tablespace_column() ? (sql) : (sql060))

static const char *const phase_names[] = {"planned", "copy", "index", "catch up",
"swapped"};

/*
 * partmgr_reshape_phase_name
 *		A phase as reshape_operation.phase spells it.
 */
const char *
partmgr_reshape_phase_name(PartmgrReshapePhase phase)
{
	return phase_names[phase];
}

static PartmgrReshapePhase
phase_of(const char *name)
{
	for (int i = 0; i < lengthof(phase_names); i++)
	{
		if (strcmp(name, phase_names[i]) == 0)
			return (PartmgrReshapePhase) i;
	}
	elog(ERROR, "unknown reshape phase \"%s\"", name);
	return PARTMGR_RESHAPE_PLANNED; /* keep compiler quiet */
}

/* A text[] of n strings. */
static Datum
text_array(int n, char **items)
{
	Datum	   *elems = palloc(sizeof(Datum) * Max(n, 1));

	for (int i = 0; i < n; i++)
		elems[i] = CStringGetTextDatum(items[i]);
	return PointerGetDatum(construct_array(elems, n, TEXTOID, -1, false,
										   TYPALIGN_INT));
}

/* The strings of a text[] column of the current SPI row; *n says how many. */
static char **
text_items(uint64 row, int col, int *n)
{
	bool		isnull;
	Datum		d = partmgr_spi_value(row, col, &isnull);
	Datum	   *elems;
	bool	   *nulls;
	char	  **items;

	*n = 0;
	if (isnull)
		return NULL;
	deconstruct_array(DatumGetArrayTypeP(d), TEXTOID, -1, false, TYPALIGN_INT,
					  &elems, &nulls, n);
	items = palloc(sizeof(char *) * Max(*n, 1));
	for (int i = 0; i < *n; i++)
		items[i] = nulls[i] ? NULL : TextDatumGetCString(elems[i]);
	return items;
}

static PartmgrReshapeOp *
read_op(uint64 row)
{
	PartmgrReshapeOp *op = palloc0(sizeof(PartmgrReshapeOp));
	bool		isnull;
	int			nbounds;

	op->id = DatumGetInt64(partmgr_spi_value(row, 1, &isnull));
	op->key = partmgr_spi_text(row, 2);
	op->kind = partmgr_spi_text(row, 3);
	op->sources = text_items(row, 4, &op->nsources);
	op->targets = text_items(row, 5, &op->ntargets);
	op->bounds = text_items(row, 6, &nbounds);
	op->interval = partmgr_spi_text(row, 7);
	op->format = partmgr_spi_text(row, 8);
	op->aligned = DatumGetBool(partmgr_spi_value(row, 9, &isnull));
	op->phase = phase_of(partmgr_spi_text(row, 10));
	op->copy_source = DatumGetInt32(partmgr_spi_value(row, 11, &isnull));
	op->copy_block = DatumGetInt64(partmgr_spi_value(row, 12, &isnull));
	op->rows_copied = DatumGetInt64(partmgr_spi_value(row, 13, &isnull));
	op->rows_replayed = DatumGetInt64(partmgr_spi_value(row, 14, &isnull));
	op->created_at = DatumGetTimestampTz(partmgr_spi_value(row, 15, &isnull));
	op->updated_at = DatumGetTimestampTz(partmgr_spi_value(row, 16, &isnull));
	op->last_error = partmgr_spi_text(row, 17);
	{
		Datum		d = partmgr_spi_value(row, 18, &isnull);

		if (!isnull)
		{
			Datum	   *elems;
			bool	   *nulls;
			int			n;

			deconstruct_array(DatumGetArrayTypeP(d), OIDOID, sizeof(Oid), true,
							  TYPALIGN_INT,
							  &elems, &nulls, &n);
			op->copy_filenodes = palloc0(sizeof(Oid) * Max(n, op->nsources));
			for (int i = 0; i < n && i < op->nsources; i++)
				op->copy_filenodes[i] = nulls[i] ? InvalidOid : DatumGetObjectId(elems[i]);
		}
	}
	op->tablespace = partmgr_spi_text(row, 19);
	return op;
}

/*
 * partmgr_reshape_insert
 *		Register an operation (phase planned); returns its id.
 */
int64
partmgr_reshape_insert(const PartmgrReshapeOp *op)
{
	static const char *const sql =
	"INSERT INTO partmgr.reshape_operation"
	" (parent_table, kind, source_tables, target_tables, target_bounds, target_interval,"
	"  target_format, target_aligned, target_tablespace)"
	" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING operation_id";
	static const char *const sql060 =
	"INSERT INTO partmgr.reshape_operation"
	" (parent_table, kind, source_tables, target_tables, target_bounds, target_interval,"
	"  target_format, target_aligned)"
	" VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING operation_id";
	Oid			types[9] = {TEXTOID, TEXTOID, TEXTARRAYOID, TEXTARRAYOID, TEXTARRAYOID,
	TEXTOID, TEXTOID, BOOLOID, TEXTOID};
	Datum		values[9];
	char		nulls[9] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};
	bool		isnull;
	int			nbounds = (strncmp(op->kind, "hash ", 5) == 0 ? op->ntargets :
						   op->ntargets + 1);

	values[0] = CStringGetTextDatum(op->key);
	values[1] = CStringGetTextDatum(op->kind);
	values[2] = text_array(op->nsources, op->sources);
	values[3] = text_array(op->ntargets, op->targets);
	values[4] = text_array(nbounds, op->bounds);
	if (op->interval != NULL)
		values[5] = CStringGetTextDatum(op->interval);
	else
		nulls[5] = 'n';
	if (op->format != NULL)
		values[6] = CStringGetTextDatum(op->format);
	else
		nulls[6] = 'n';
	values[7] = BoolGetDatum(op->aligned);
	if (op->tablespace != NULL)
		values[8] = CStringGetTextDatum(op->tablespace);
	else
		nulls[8] = 'n';
	if (op->tablespace == NULL && !have_tablespace_column())
		(void) partmgr_spi_exec(sql060, 8, types, values, nulls, false,
								SPI_OK_INSERT_RETURNING);
	else
		(void) partmgr_spi_exec(sql, 9, types, values, nulls, false,
								SPI_OK_INSERT_RETURNING);
	return DatumGetInt64(partmgr_spi_value(0, 1, &isnull));
}

/*
 * partmgr_reshape_list
 *		The operations of a set (of every set, for NULL), oldest first.
 */
List *
partmgr_reshape_list(const char *key)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1];
	char		nulls[1] = {' '};
	List	   *ops = NIL;
	uint64		n;

	if (key != NULL)
		values[0] = CStringGetTextDatum(key);
	else
		nulls[0] = 'n';
	n = partmgr_spi_exec_cached(OP_SQL(OP_COLUMNS " WHERE $1 IS NULL OR"
									   " parent_table = $1 ORDER BY operation_id",
									   OP_COLUMNS_060 " WHERE $1 IS NULL OR"
									   " parent_table = $1 ORDER BY operation_id"),
								1, types, values, nulls, false, SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
		ops = lappend(ops, read_op(i));
	return ops;
}

/*
 * partmgr_reshape_load
 *		One operation, read afresh; NULL when it is gone and missing_ok.
 */
PartmgrReshapeOp *
partmgr_reshape_load(int64 id, bool missing_ok)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1];

	values[0] = Int64GetDatum(id);
	if (partmgr_spi_exec_cached(OP_SQL(OP_COLUMNS " WHERE operation_id = $1",
									   OP_COLUMNS_060 " WHERE operation_id = $1"),
								1, types, values, NULL, false,
								SPI_OK_SELECT) == 0)
	{
		if (!missing_ok)
			elog(ERROR, "reshape operation " INT64_FORMAT " vanished", id);
		return NULL;
	}
	return read_op(0);
}

/*
 * partmgr_reshape_of_table
 *		The operation of set key that replaces a table (a key as catalog.c
 *		writes it), or NULL.  Only the set's own rows count: the owner
 *		trigger lets a role write rows for its own sets only, but such a row
 *		could name any table.
 */
PartmgrReshapeOp *
partmgr_reshape_of_table(const char *key, const char *table_key)
{
	Oid			types[2] = {TEXTOID, TEXTOID};
	Datum		values[2];

	values[0] = CStringGetTextDatum(key);
	values[1] = CStringGetTextDatum(table_key);
	if (partmgr_spi_exec_cached(OP_SQL(OP_COLUMNS " WHERE parent_table = $1"
									   " AND $2 = ANY (source_tables)"
									   " ORDER BY operation_id LIMIT 1",
									   OP_COLUMNS_060 " WHERE parent_table = $1"
									   " AND $2 = ANY (source_tables)"
									   " ORDER BY operation_id LIMIT 1"),
								2, types, values, NULL, false,
								SPI_OK_SELECT) == 0)
		return NULL;
	return read_op(0);
}

/*
 * partmgr_reshape_set_progress
 *		Write an operation's phase and progress (and clear its last error).
 */
void
partmgr_reshape_set_progress(const PartmgrReshapeOp *op)
{
	static const char *const sql =
	"UPDATE partmgr.reshape_operation"
	"   SET phase = $2, copy_source = $3, copy_block = $4, rows_copied = $5,"
	"       rows_replayed = $6, copy_filenodes = $7,"
	"       updated_at = pg_catalog.clock_timestamp(), last_error = NULL"
	" WHERE operation_id = $1";
	Oid			types[7] = {INT8OID, TEXTOID, INT4OID, INT8OID, INT8OID, INT8OID, OIDARRAYOID};
	Datum		values[7];
	char		nulls[7] = {' ', ' ', ' ', ' ', ' ', ' ', ' '};

	values[0] = Int64GetDatum(op->id);
	values[1] = CStringGetTextDatum(partmgr_reshape_phase_name(op->phase));
	values[2] = Int32GetDatum(op->copy_source);
	values[3] = Int64GetDatum(op->copy_block);
	values[4] = Int64GetDatum(op->rows_copied);
	values[5] = Int64GetDatum(op->rows_replayed);
	if (op->copy_filenodes != NULL)
	{
		Datum	   *elems = palloc(sizeof(Datum) * op->nsources);

		for (int i = 0; i < op->nsources; i++)
			elems[i] = ObjectIdGetDatum(op->copy_filenodes[i]);
		values[6] = PointerGetDatum(construct_array(elems, op->nsources,
													OIDOID, sizeof(Oid),
													true, TYPALIGN_INT));
	}
	else
		nulls[6] = 'n';
	if (partmgr_spi_exec_cached(sql, 7, types, values, nulls, false,
								SPI_OK_UPDATE) != 1)
		elog(ERROR, "reshape operation " INT64_FORMAT " vanished", op->id);
}

/*
 * partmgr_reshape_set_error
 *		Record why the last step of an operation failed (NULL: clear it).
 */
void
partmgr_reshape_set_error(int64 id, const char *error)
{
	static const char *const sql =
	"UPDATE partmgr.reshape_operation"
	"   SET last_error = $2, updated_at = pg_catalog.clock_timestamp()"
	" WHERE operation_id = $1";
	Oid			types[2] = {INT8OID, TEXTOID};
	Datum		values[2];
	char		nulls[2] = {' ', ' '};

	values[0] = Int64GetDatum(id);
	if (error != NULL)
		values[1] = CStringGetTextDatum(error);
	else
		nulls[1] = 'n';
	(void) partmgr_spi_exec_cached(sql, 2, types, values, nulls, false,
								   SPI_OK_UPDATE);
}

/*
 * partmgr_reshape_delete
 *		Forget an operation: it is finished, or undone.
 */
void
partmgr_reshape_delete(int64 id)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1];

	values[0] = Int64GetDatum(id);
	(void) partmgr_spi_exec_cached("DELETE FROM partmgr.reshape_operation"
								   " WHERE operation_id = $1",
								   1, types, values, NULL, false,
								   SPI_OK_DELETE);
}

/*
 * partmgr_reshape_any
 *		Whether a set has an unfinished operation.
 */
bool
partmgr_reshape_any(const char *key)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1];

	values[0] = CStringGetTextDatum(key);
	return partmgr_spi_exec_cached("SELECT 1 FROM partmgr.reshape_operation"
								   " WHERE parent_table = $1 LIMIT 1",
								   1, types, values, NULL, false,
								   SPI_OK_SELECT) > 0;
}
