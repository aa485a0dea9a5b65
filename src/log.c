/*-------------------------------------------------------------------------
 *
 * log.c
 *	  Write, prune and read back partmgr.maintenance_log.
 *
 * Rows are written in the caller's transaction, after the action they
 * describe has committed into it or been rolled back, so a row says what
 * really happened: if the caller's transaction is rolled back, the actions
 * and their rows go together.  The worker deletes rows older than
 * pg_partmgr.log_retention days.  Each row records the owner of the set's
 * parent: row security lets only roles with that owner's privileges see it
 * or write it.  Rows are written with the caller's rights (spi_util.c).
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
#include "utils/hsearch.h"
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
	" SELECT parent_table, max(finished_at) AS finished_at, count(*) AS children,"
	"        row_number() OVER (PARTITION BY parent_table ORDER BY max(log_id) DESC) AS n"
	"   FROM (SELECT parent_table, log_id, finished_at,"
	"                sum(new_run) OVER (PARTITION BY parent_table ORDER BY log_id) AS run"
	"           FROM (SELECT parent_table, log_id, finished_at,"
	"                        CASE WHEN finished_at - lag(finished_at) OVER w < interval '1 second'"
	"                             THEN 0 ELSE 1 END AS new_run"
	"                   FROM partmgr.maintenance_log"
	"                  WHERE action = 'create partition' AND outcome = 'done'"
	"                    AND run_by IN ('worker', 'run_maintenance', 'run_maintenance_proc')"
	"                 WINDOW w AS (PARTITION BY parent_table ORDER BY log_id)) AS made"
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

	n = partmgr_spi_exec_cached(errors_sql, 0, NULL, NULL, NULL, true, SPI_OK_SELECT);
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
	n = partmgr_spi_exec_cached(created_sql, 0, NULL, NULL, NULL, true, SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
	{
		PartmgrLogFacts *f = enter_facts(facts, partmgr_spi_text(i, 1));
		bool		isnull;

		if (f == NULL || f->ncreated >= 2)
			continue;
		if (f->ncreated == 0)
			f->latest_children = DatumGetInt64(partmgr_spi_value(i, 3, &isnull));
		f->created[f->ncreated++] = DatumGetTimestampTz(partmgr_spi_value(i, 2, &isnull));
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
