/*-------------------------------------------------------------------------
 *
 * log.c
 *	  Write, prune and read back partmgr.maintenance_log.
 *
 * Rows are written in the caller's transaction, after the action they
 * describe has committed into it or been rolled back, so a row says what
 * really happened: if the caller's transaction is rolled back, the actions
 * and their rows go together.  The rows of one plan's actions are kept as
 * each action ends and written by one statement after the last.  The
 * worker deletes rows older than pg_partmgr.log_retention days.  Each row
 * records the owner of the set's parent: row security lets only roles with
 * that owner's privileges see it or write it.  Rows are written with the
 * caller's rights (spi_util.c).
 *
 * What the log says of every set (the latest failure, the pace at which
 * children were made) is read back for the health view in two queries,
 * with the caller's rights: row security shows each role the rows of the
 * sets whose owner it has the privileges of.
 *
 * Locks: ROW EXCLUSIVE on the log table to write, ACCESS SHARE to read.
 * The caller is connected to SPI.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/log.c
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
#include "utils/hsearch.h"
#include "utils/timestamp.h"

#include "catalog.h"
#include "log.h"
#include "spi_util.h"

static const char *const outcome_words[] = {"done", "skipped", "failed"};

/* One action's row, kept until its batch is written. */
typedef struct PartmgrLogRow
{
	char	   *action;
	char	   *object;
	char	   *detail;
	TimestampTz started;
	TimestampTz finished;
	PartmgrOutcome outcome;
	char	   *sqlstate;		/* these four NULL when it did not fail */
	char	   *error;
	char	   *error_detail;
	char	   *error_hint;
	List	   *statements;		/* of char *: the SQL it ran */
} PartmgrLogRow;

/*
 * partmgr_log_action, partmgr_log_action_sql
 *		Record one action on a set: what (action, object, detail), who
 *		(run_by: worker, run_maintenance, ...), when (started, and now as its
 *		end) and how it ended, with the error's SQLSTATE, message, detail
 *		and hint when there is one, and the SQL statements it ran.  A batch
 *		of one row.
 */
void
partmgr_log_action(const char *parent_key, const char *run_by,
				   const char *action, const char *object, const char *detail,
				   TimestampTz started, PartmgrOutcome outcome,
				   const ErrorData *error)
{
	partmgr_log_action_sql(parent_key, run_by, action, object, detail, started,
						   outcome,
						   error, NIL);
}

void
partmgr_log_action_sql(const char *parent_key, const char *run_by,
					   const char *action, const char *object,
					   const char *detail,
					   TimestampTz started, PartmgrOutcome outcome,
					   const ErrorData *error, List *statements)
{
	PartmgrLogBatch batch;

	partmgr_log_batch_init(&batch, parent_key, run_by);
	partmgr_log_batch_add(&batch, action, object, detail, started, outcome,
						  error,
						  statements);
	partmgr_log_batch_write(&batch);
}

/*
 * partmgr_log_batch_init, partmgr_log_batch_add, partmgr_log_batch_write
 *		The rows of the actions of one set, kept in memory as each action
 *		ends (its end time taken then) and written by one INSERT, in the
 *		order they were added: a plan of ten actions costs one statement,
 *		not ten.  write must come before the caller's transaction ends, in
 *		the transaction the actions ran in, so that the rows still go
 *		together with what they describe; it empties the batch.  Strings are
 *		copied into the memory context current at add.
 */
void
partmgr_log_batch_init(PartmgrLogBatch *batch, const char *parent_key,
					   const char *run_by)
{
	batch->parent_key = parent_key;
	batch->run_by = run_by;
	batch->rows = NIL;
}

void
partmgr_log_batch_add(PartmgrLogBatch *batch, const char *action,
					  const char *object,
					  const char *detail, TimestampTz started,
					  PartmgrOutcome outcome,
					  const ErrorData *error, List *statements)
{
	PartmgrLogRow *row = palloc0(sizeof(PartmgrLogRow));
	ListCell   *lc;

	row->action = pstrdup(action);
	row->object = object ? pstrdup(object) : NULL;
	row->detail = detail ? pstrdup(detail) : NULL;
	row->started = started;
	row->finished = GetCurrentTimestamp();
	row->outcome = outcome;
	if (error != NULL)
	{
		row->sqlstate = pstrdup(unpack_sql_state(error->sqlerrcode));
		row->error = error->message ? pstrdup(error->message) : NULL;
		row->error_detail = error->detail ? pstrdup(error->detail) : NULL;
		row->error_hint = error->hint ? pstrdup(error->hint) : NULL;
	}
	foreach(lc, statements)
		row->statements = lappend(row->statements,
								  pstrdup((char *) lfirst(lc)));
	batch->rows = lappend(batch->rows, row);
}

/* element i of a text array being built: text, or NULL */
static void
set_text(Datum *values, bool *nulls, int i, const char *text)
{
	nulls[i] = (text == NULL);
	values[i] = text ? CStringGetTextDatum(text) : (Datum) 0;
}

static Datum
text_array(Datum *values, bool *nulls, int n)
{
	int			dims[1] = {n};
	int			lbs[1] = {1};

	return PointerGetDatum(construct_md_array(values, nulls, 1, dims, lbs,
											  TEXTOID,
											  -1, false, TYPALIGN_INT));
}

void
partmgr_log_batch_write(PartmgrLogBatch *batch)
{
	/*
	 * One array per column, and all the rows' statements in one array: row
	 * k's are the elements first[k] .. last[k] of it (none when last <
	 * first).
	 */
	static const char *const sql =
	"INSERT INTO partmgr.maintenance_log"
	" (parent_table, action, object, detail, started_at, finished_at, outcome,"
	"  sqlstate, error, error_detail, error_hint, run_by, statements, owner)"
	" SELECT $1, r.action, r.object, r.detail, r.started, r.finished,"
	" r.outcome,"
	"        r.sqlstate, r.error, r.error_detail, r.error_hint, $2,"
	"        CASE WHEN r.last OPERATOR(pg_catalog.>=) r.first"
	"             THEN ($3::pg_catalog.text[])[r.first:r.last] END, $4"
	"   FROM ROWS FROM (pg_catalog.unnest($5::pg_catalog.text[]),"
	"                   pg_catalog.unnest($6::pg_catalog.text[]),"
	"                   pg_catalog.unnest($7::pg_catalog.text[]),"
	"                   pg_catalog.unnest($8::pg_catalog.timestamptz[]),"
	"                   pg_catalog.unnest($9::pg_catalog.timestamptz[]),"
	"                   pg_catalog.unnest($10::pg_catalog.text[]),"
	"                   pg_catalog.unnest($11::pg_catalog.text[]),"
	"                   pg_catalog.unnest($12::pg_catalog.text[]),"
	"                   pg_catalog.unnest($13::pg_catalog.text[]),"
	"                   pg_catalog.unnest($14::pg_catalog.text[]),"
	"                   pg_catalog.unnest($15::pg_catalog.int4[]),"
	"                   pg_catalog.unnest($16::pg_catalog.int4[]))"
	"        WITH ORDINALITY AS r(action, object, detail, started, finished,"
	" outcome,"
	"                            sqlstate, error, error_detail, error_hint,"
	"                            first, last, n)"
	"  ORDER BY r.n";
	enum
	{
		C_ACTION, C_OBJECT, C_DETAIL, C_OUTCOME, C_SQLSTATE, C_ERROR,
		C_ERROR_DETAIL, C_ERROR_HINT, NTEXT
	};
	Oid			types[16] = {TEXTOID, TEXTOID, TEXTARRAYOID, REGROLEOID,
		TEXTARRAYOID, TEXTARRAYOID, TEXTARRAYOID, TIMESTAMPTZARRAYOID,
		TIMESTAMPTZARRAYOID, TEXTARRAYOID, TEXTARRAYOID, TEXTARRAYOID,
	TEXTARRAYOID, TEXTARRAYOID, INT4ARRAYOID, INT4ARRAYOID};
	Datum		values[16];
	char		nulls[16];
	int			n = list_length(batch->rows);
	int			nstatements = 0;
	Datum	   *texts[NTEXT];
	bool	   *textnulls[NTEXT];
	Datum	   *started;
	Datum	   *finished;
	Datum	   *first;
	Datum	   *last;
	Datum	   *statements;
	bool	   *statement_nulls;
	Oid			parent;
	ListCell   *lc;

	if (n == 0)
		return;
	started = palloc(sizeof(Datum) * n);
	finished = palloc(sizeof(Datum) * n);
	first = palloc(sizeof(Datum) * n);
	last = palloc(sizeof(Datum) * n);
	foreach(lc, batch->rows)
		nstatements += list_length(((PartmgrLogRow *) lfirst(lc))->statements);
	statements = palloc(sizeof(Datum) * Max(nstatements, 1));
	statement_nulls = palloc0(sizeof(bool) * Max(nstatements, 1));
	for (int c = 0; c < NTEXT; c++)
	{
		texts[c] = palloc(sizeof(Datum) * n);
		textnulls[c] = palloc(sizeof(bool) * n);
	}
	nstatements = 0;
	foreach(lc, batch->rows)
	{
		PartmgrLogRow *row = (PartmgrLogRow *) lfirst(lc);
		int			k = foreach_current_index(lc);
		ListCell   *sc;

		set_text(texts[C_ACTION], textnulls[C_ACTION], k, row->action);
		set_text(texts[C_OBJECT], textnulls[C_OBJECT], k, row->object);
		set_text(texts[C_DETAIL], textnulls[C_DETAIL], k, row->detail);
		set_text(texts[C_OUTCOME], textnulls[C_OUTCOME], k,
				 outcome_words[row->outcome]);
		set_text(texts[C_SQLSTATE], textnulls[C_SQLSTATE], k, row->sqlstate);
		set_text(texts[C_ERROR], textnulls[C_ERROR], k, row->error);
		set_text(texts[C_ERROR_DETAIL], textnulls[C_ERROR_DETAIL], k,
				 row->error_detail);
		set_text(texts[C_ERROR_HINT], textnulls[C_ERROR_HINT], k,
				 row->error_hint);
		started[k] = TimestampTzGetDatum(row->started);
		finished[k] = TimestampTzGetDatum(row->finished);
		first[k] = Int32GetDatum(nstatements + 1);
		foreach(sc, row->statements)
			statements[nstatements++] = CStringGetTextDatum((char *) lfirst(sc));
		last[k] = Int32GetDatum(nstatements);
	}

	memset(nulls, ' ', sizeof(nulls));
	values[0] = CStringGetTextDatum(batch->parent_key);
	values[1] = CStringGetTextDatum(batch->run_by);
	values[2] = text_array(statements, statement_nulls, nstatements);

	/*
	 * the rows belong to the set's owner: only roles with its privileges see
	 * them
	 */
	parent = partmgr_key_relid(batch->parent_key);
	if (OidIsValid(parent))
	{
		PartmgrParentInfo info;

		partmgr_read_parent(parent, &info);
		values[3] = ObjectIdGetDatum(info.owner);
	}
	else
		nulls[3] = 'n';
	for (int c = 0; c < NTEXT; c++)
	{
		static const int param[NTEXT] = {4, 5, 6, 9, 10, 11, 12, 13};

		values[param[c]] = text_array(texts[c], textnulls[c], n);
	}
	values[7] = PointerGetDatum(construct_array(started, n, TIMESTAMPTZOID,
												sizeof(TimestampTz),
												FLOAT8PASSBYVAL,
												TYPALIGN_DOUBLE));
	values[8] = PointerGetDatum(construct_array(finished, n, TIMESTAMPTZOID,
												sizeof(TimestampTz),
												FLOAT8PASSBYVAL,
												TYPALIGN_DOUBLE));
	values[14] = PointerGetDatum(construct_array(first, n, INT4OID,
												 sizeof(int32), true,
												 TYPALIGN_INT));
	values[15] = PointerGetDatum(construct_array(last, n, INT4OID,
												 sizeof(int32), true,
												 TYPALIGN_INT));
	partmgr_spi_exec_cached(sql, 16, types, values, nulls, false,
							SPI_OK_INSERT);
	batch->rows = NIL;
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
	return partmgr_spi_exec_cached(sql, 1, types, values, NULL, false,
								   SPI_OK_DELETE);
}

/* Sets are keyed by part_config.parent_table, "schema.table". */
#define FACTS_KEY_SIZE	(NAMEDATALEN * 2 + 2)

/*
 * enter_facts
 *		The facts of a set in the table, made empty the first time; NULL for
 *		a key too long to be one.
 */
static PartmgrLogFacts *
enter_facts(HTAB *facts, const char *key)
{
	char		name[FACTS_KEY_SIZE];
	bool		found;
	char	   *entry;

	if (strlen(key) >= FACTS_KEY_SIZE)
		return NULL;
	memset(name, 0, sizeof(name));
	strlcpy(name, key, sizeof(name));
	entry = hash_search(facts, name, HASH_ENTER, &found);
	if (!found)
		memset(entry + FACTS_KEY_SIZE, 0, sizeof(PartmgrLogFacts));
	return (PartmgrLogFacts *) (entry + FACTS_KEY_SIZE);
}

/*
 * partmgr_log_read_facts
 *		What the log says of every set at once, in two queries: the latest
 *		action that did not end "done" (failed or skipped), and the latest
 *		two runs that created children, with how many the latest made (the
 *		pace of an id set).  Read with the caller's rights, so row security
 *		leaves out the rows of sets the caller may not see.  Returns a hash
 *		table allocated in the current memory context, to be asked with
 *		partmgr_log_find_facts.
 */
HTAB *
partmgr_log_read_facts(void)
{
	static const char *const errors_sql =
	"SELECT DISTINCT ON (parent_table) parent_table,"
	"       coalesce(sqlstate || ': ', '') || coalesce(error, action), outcome, finished_at"
	"  FROM partmgr.maintenance_log WHERE outcome <> 'done'"
	" ORDER BY parent_table, log_id DESC";

	/* children made less than a second apart were made by one run */
	static const char *const created_sql =
	"SELECT parent_table, finished_at, children FROM ("
	" SELECT parent_table, max(finished_at) AS finished_at, count(*) AS"
	" children,"
	"        row_number() OVER (PARTITION BY parent_table ORDER BY"
	" max(log_id) DESC) AS n"
	"   FROM (SELECT parent_table, log_id, finished_at,"
	"                sum(new_run) OVER (PARTITION BY parent_table ORDER BY"
	" log_id) AS run"
	"           FROM (SELECT parent_table, log_id, finished_at,"
	"                        CASE WHEN finished_at - lag(finished_at) OVER w"
	" < interval '1 second'"
	"                             THEN 0 ELSE 1 END AS new_run"
	"                   FROM partmgr.maintenance_log"
	"                  WHERE action = 'create partition' AND outcome = 'done'"
	"                    AND run_by IN ('worker', 'run_maintenance',"
	" 'run_maintenance_proc')"
	"                 WINDOW w AS (PARTITION BY parent_table ORDER BY"
	" log_id)) AS made"
	"        ) AS numbered"
	"  GROUP BY parent_table, run) AS runs"
	" WHERE n <= 2 ORDER BY parent_table, n";
	HASHCTL		ctl;
	HTAB	   *facts;
	uint64		n;

	ctl.keysize = FACTS_KEY_SIZE;
	ctl.entrysize = ctl.keysize + sizeof(PartmgrLogFacts);
	ctl.hcxt = CurrentMemoryContext;
	facts = hash_create("pg_partmgr log facts", 256, &ctl,
						HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);

	n = partmgr_spi_exec_cached(errors_sql, 0, NULL, NULL, NULL, true,
								SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
	{
		PartmgrLogFacts *f = enter_facts(facts, partmgr_spi_text(i, 1));
		bool		isnull;

		if (f == NULL)
			continue;
		f->error = partmgr_spi_text(i, 2);
		f->error_outcome = partmgr_spi_text(i, 3);
		f->error_at = DatumGetTimestampTz(partmgr_spi_value(i, 4, &isnull));
	}
	n = partmgr_spi_exec_cached(created_sql, 0, NULL, NULL, NULL, true,
								SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
	{
		PartmgrLogFacts *f = enter_facts(facts, partmgr_spi_text(i, 1));
		bool		isnull;

		if (f == NULL || f->ncreated >= 2)
			continue;
		if (f->ncreated == 0)
			f->latest_children = DatumGetInt64(partmgr_spi_value(i, 3,
																 &isnull));
		f->created[f->ncreated++] = DatumGetTimestampTz(partmgr_spi_value(i, 2,
																		  &isnull));
	}
	return facts;
}

/*
 * partmgr_log_find_facts
 *		The facts partmgr_log_read_facts found for a set, or NULL when the
 *		log says nothing of it (that the caller may see).
 */
PartmgrLogFacts *
partmgr_log_find_facts(HTAB *facts, const char *key)
{
	char		name[FACTS_KEY_SIZE];
	char	   *entry;

	if (strlen(key) >= FACTS_KEY_SIZE)
		return NULL;
	strlcpy(name, key, sizeof(name));
	entry = hash_search(facts, name, HASH_FIND, NULL);
	return entry ? (PartmgrLogFacts *) (entry + FACTS_KEY_SIZE) : NULL;
}
