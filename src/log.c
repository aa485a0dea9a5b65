/*-------------------------------------------------------------------------
 *
 * log.c
 *	  Write and prune partmgr.maintenance_log.
 *
 * Rows are written in the caller's transaction, after the action they
 * describe has committed into it or been rolled back, so a row says what
 * really happened: if the caller's transaction is rolled back, the actions
 * and their rows go together.  The worker deletes rows older than
 * pg_partmgr.log_retention days.  Each row records the owner of the set's
 * parent: row security lets only roles with that owner's privileges see it
 * or write it.  Rows are written with the caller's rights (spi_util.c).
 *
 * Locks: ROW EXCLUSIVE on the log table.  The caller is connected to SPI.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/log.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "storage/proc.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/builtins.h"
#include "utils/elog.h"
#include "utils/timestamp.h"

#include "catalog.h"
#include "log.h"
#include "spi_util.h"

static const char *const outcome_words[] = {"done", "skipped", "failed"};

static void
set_text(Datum *values, char *nulls, int i, const char *text)
{
	if (text == NULL)
		nulls[i] = 'n';
	else
		values[i] = CStringGetTextDatum(text);
}

/*
 * partmgr_log_action, partmgr_log_action_sql
 *		Record one action on a set: what (action, object, detail), who
 *		(run_by: worker, run_maintenance, ...), when (started, and now as its
 *		end) and how it ended, with the error's SQLSTATE, message, detail
 *		and hint when there is one, and the SQL statements it ran.
 */
void
partmgr_log_action(const char *parent_key, const char *run_by,
				   const char *action, const char *object, const char *detail,
				   TimestampTz started, PartmgrOutcome outcome,
				   const ErrorData *error)
{
	partmgr_log_action_sql(parent_key, run_by, action, object, detail, started, outcome,
						   error, NIL);
}

void
partmgr_log_action_sql(const char *parent_key, const char *run_by,
					   const char *action, const char *object, const char *detail,
					   TimestampTz started, PartmgrOutcome outcome,
					   const ErrorData *error, List *statements)
{
	static const char *const sql =
	"INSERT INTO partmgr.maintenance_log"
	" (parent_table, action, object, detail, started_at, finished_at, outcome,"
	"  sqlstate, error, error_detail, error_hint, run_by, statements, owner)"
	" VALUES ($1, $2, $3, $4, $5, clock_timestamp(), $6, $7, $8, $9, $10, $11, $12, $13)";
	Oid			types[13] = {TEXTOID, TEXTOID, TEXTOID, TEXTOID, TIMESTAMPTZOID,
		TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTARRAYOID, REGROLEOID};
	Datum		values[13];
	char		nulls[13];
	Oid			parent = partmgr_key_relid(parent_key);

	memset(nulls, ' ', sizeof(nulls));
	values[0] = CStringGetTextDatum(parent_key);
	values[1] = CStringGetTextDatum(action);
	set_text(values, nulls, 2, object);
	set_text(values, nulls, 3, detail);
	values[4] = TimestampTzGetDatum(started);
	values[5] = CStringGetTextDatum(outcome_words[outcome]);
	set_text(values, nulls, 6, error ? unpack_sql_state(error->sqlerrcode) : NULL);
	set_text(values, nulls, 7, error ? error->message : NULL);
	set_text(values, nulls, 8, error ? error->detail : NULL);
	set_text(values, nulls, 9, error ? error->hint : NULL);
	values[10] = CStringGetTextDatum(run_by);
	if (statements == NIL)
		nulls[11] = 'n';
	else
	{
		Datum	   *elems = palloc(sizeof(Datum) * list_length(statements));
		ListCell   *lc;

		foreach(lc, statements)
			elems[foreach_current_index(lc)] = CStringGetTextDatum((char *) lfirst(lc));
		values[11] = PointerGetDatum(construct_array(elems, list_length(statements),
													 TEXTOID, -1, false, TYPALIGN_INT));
	}
	/* the row belongs to the set's owner: only roles with its privileges see it */
	if (OidIsValid(parent))
	{
		PartmgrParentInfo info;

		partmgr_read_parent(parent, &info);
		values[12] = ObjectIdGetDatum(info.owner);
	}
	else
		nulls[12] = 'n';
	partmgr_spi_exec_cached(sql, 13, types, values, nulls, false, SPI_OK_INSERT);
}

/*
 * partmgr_log_prune
 *		Delete log rows that finished more than days days ago; 0 keeps all.
 *		Returns the number of rows deleted.
 */
uint64
partmgr_log_prune(int days)
{
	static const char *const sql =
	"DELETE FROM partmgr.maintenance_log"
	" WHERE finished_at < now() - make_interval(days => $1)";
	Oid			types[1] = {INT4OID};
	Datum		values[1];

	if (days <= 0)
		return 0;
	values[0] = Int32GetDatum(days);
	return partmgr_spi_exec_cached(sql, 1, types, values, NULL, false, SPI_OK_DELETE);
}
