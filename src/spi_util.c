/*-------------------------------------------------------------------------
 *
 * spi_util.c
 *	  Checked SPI wrappers.
 *
 * Every statement is compared with the single SPI_OK_* code it must
 * return; anything else is a bug and raises an internal error that names
 * the statement.  The caller's memory context is current again when a
 * wrapper returns (SPI itself leaves its procedure context current), so
 * callers decide where results live.  Statements run on every maintenance pass go through
 * partmgr_spi_exec_cached, which prepares each one once per backend and
 * keeps the plan (PostgreSQL's plan cache revalidates it when the tables
 * it reads change).
 *
 * No locks of its own; runs in the caller's transaction.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/spi_util.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"

#include "spi_util.h"

typedef struct KeptPlan
{
	const char *sql;			/* hash key: address of a string constant */
	SPIPlanPtr	plan;
} KeptPlan;

static HTAB *plan_cache = NULL;

static void
check_result(const char *sql, int ret, int expected)
{
	if (ret != expected)
		elog(ERROR, "SPI returned %s instead of %s for: %s",
			 SPI_result_code_string(ret), SPI_result_code_string(expected), sql);
}

/*
 * partmgr_spi_exec
 *		Run one statement with $n parameters; nulls as for SPI (' ' or 'n',
 *		NULL for none).  Returns SPI_processed.
 */
uint64
partmgr_spi_exec(const char *sql, int nargs, Oid *argtypes, Datum *values,
				 const char *nulls, bool read_only, int expected)
{
	MemoryContext caller = CurrentMemoryContext;
	int			ret;

	ret = SPI_execute_with_args(sql, nargs, argtypes, values, nulls,
								read_only, 0);
	MemoryContextSwitchTo(caller);
	check_result(sql, ret, expected);
	return SPI_processed;
}

/*
 * partmgr_spi_exec_cached
 *		As partmgr_spi_exec for a statement given as a string constant: it is
 *		prepared on first use in this backend and the plan is kept.
 */
uint64
partmgr_spi_exec_cached(const char *sql, int nargs, Oid *argtypes,
						Datum *values, const char *nulls, bool read_only,
						int expected)
{
	KeptPlan   *entry;
	bool		found;
	int			ret;
	MemoryContext caller = CurrentMemoryContext;

	if (plan_cache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(const char *);
		ctl.entrysize = sizeof(KeptPlan);
		plan_cache = hash_create("pg_partmgr SPI plans", 32, &ctl,
								 HASH_ELEM | HASH_BLOBS);
	}

	entry = hash_search(plan_cache, &sql, HASH_ENTER, &found);
	if (!found)
		entry->plan = NULL;
	if (entry->plan == NULL)
	{
		SPIPlanPtr	plan = SPI_prepare(sql, nargs, argtypes);

		if (plan == NULL)
			elog(ERROR, "SPI_prepare failed with %s for: %s",
				 SPI_result_code_string(SPI_result), sql);
		if (SPI_keepplan(plan) != 0)
			elog(ERROR, "SPI_keepplan failed for: %s", sql);
		entry->plan = plan;
	}

	ret = SPI_execute_plan(entry->plan, values, nulls, read_only, 0);
	MemoryContextSwitchTo(caller);
	check_result(sql, ret, expected);
	return SPI_processed;
}

/*
 * partmgr_spi_utility
 *		Run one utility statement (DDL) built by ddl.c.
 */
void
partmgr_spi_utility(const char *sql)
{
	MemoryContext caller = CurrentMemoryContext;
	int			ret = SPI_execute(sql, false, 0);

	MemoryContextSwitchTo(caller);
	check_result(sql, ret, SPI_OK_UTILITY);
}

/*
 * partmgr_spi_value
 *		Column col (1-based) of result row row, as a Datum in SPI memory.
 */
Datum
partmgr_spi_value(uint64 row, int col, bool *isnull)
{
	return SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc,
						 col, isnull);
}

/*
 * partmgr_spi_text
 *		Column col of row row as a C string palloc'd in the caller's memory
 *		context (SPI_getvalue allocates in the current context), or NULL.
 */
char *
partmgr_spi_text(uint64 row, int col)
{
	return SPI_getvalue(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col);
}
