/*-------------------------------------------------------------------------
 *
 * spi_util.c
 *	  Checked SPI wrappers, and whose rights each statement runs with.
 *
 * Two kinds of statements, two families of functions:
 *
 *	partmgr_spi_exec, partmgr_spi_exec_cached: pg_partmgr's own tables
 *		(partmgr.*) and the system catalogs, with the caller's rights and
 *		search_path pinned (rights.c); before the first of them that may
 *		write, our own tables are checked for triggers pg_partmgr did not
 *		create, which would run with those rights (own_tables.c).
 *	partmgr_spi_table_exec, partmgr_spi_table_utility: a partition set's
 *		tables, only inside the scope of its owner's rights (rights.c), as a
 *		door into the owner's code.
 *
 * Every statement is compared with the single SPI_OK_* code it must
 * return; anything else is a bug and raises an internal error that names
 * the statement.  The caller's memory context is current again when a
 * wrapper returns (SPI itself leaves its procedure context current), so
 * callers decide where results live.  Statements run on every maintenance
 * pass go through partmgr_spi_exec_cached, which prepares each one once per
 * backend and keeps the plan (PostgreSQL's plan cache revalidates it when
 * the tables it reads change).
 *
 * Locks: those of the trigger check (own_tables.c).
 * Runs in the caller's transaction.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/spi_util.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"

#include "own_tables.h"
#include "pg_partmgr.h"
#include "rights.h"
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
			 SPI_result_code_string(ret), SPI_result_code_string(expected),
			 sql);
}

/*
 * run_with_args, run_plan
 *		The statement itself, in the current rights; results as SPI leaves
 *		them.
 */
static uint64
run_with_args(const char *sql, int nargs, Oid *argtypes, Datum *values,
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
 * partmgr_spi_keep_plan
 *		Prepare a statement and keep its plan for the life of the backend
 *		(until SPI_freeplan); the caller must be connected to SPI.
 */
SPIPlanPtr
partmgr_spi_keep_plan(const char *sql, int nargs, Oid *argtypes)
{
	SPIPlanPtr	plan = SPI_prepare(sql, nargs, argtypes);

	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed with %s for: %s",
			 SPI_result_code_string(SPI_result), sql);
	if (SPI_keepplan(plan) != 0)
		elog(ERROR, "SPI_keepplan failed for: %s", sql);
	return plan;
}

static uint64
run_cached(const char *sql, int nargs, Oid *argtypes, Datum *values,
		   const char *nulls, bool read_only, int expected)
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
		entry->plan = partmgr_spi_keep_plan(sql, nargs, argtypes);

	ret = SPI_execute_plan(entry->plan, values, nulls, read_only, 0);
	MemoryContextSwitchTo(caller);
	check_result(sql, ret, expected);
	return SPI_processed;
}

/*
 * run_as_caller
 *		One statement on pg_partmgr's own tables or the system catalogs, with
 *		the caller's rights (see the file header), kept plan or not.
 */
static uint64
run_as_caller(const char *sql, int nargs, Oid *argtypes, Datum *values,
			  const char *nulls, bool read_only, int expected, bool cached)
{
	PartmgrCallerRights saved;
	uint64		n;

	if (!read_only)
		partmgr_own_check_triggers();
	partmgr_caller_begin(&saved);
	n = cached ? run_cached(sql, nargs, argtypes, values, nulls, read_only,
							expected) :
		run_with_args(sql, nargs, argtypes, values, nulls, read_only, expected);
	partmgr_caller_end(&saved);
	return n;
}

/*
 * partmgr_spi_exec
 *		Run one statement on pg_partmgr's own tables or the system catalogs
 *		with $n parameters, with the caller's rights (see the file header);
 *		nulls as for SPI (' ' or 'n', NULL for none).  Returns SPI_processed.
 */
uint64
partmgr_spi_exec(const char *sql, int nargs, Oid *argtypes, Datum *values,
				 const char *nulls, bool read_only, int expected)
{
	return run_as_caller(sql, nargs, argtypes, values, nulls, read_only,
						 expected, false);
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
	return run_as_caller(sql, nargs, argtypes, values, nulls, read_only,
						 expected, true);
}

/*
 * partmgr_spi_table_exec
 *		Run one statement on a partition set's tables, with $n parameters,
 *		with the rights of the owner whose scope is current (rights.c); an
 *		internal error outside such a scope.  Returns SPI_processed.
 */
uint64
partmgr_spi_table_exec(const char *sql, int nargs, Oid *argtypes, Datum *values,
					   const char *nulls, bool read_only, int expected)
{
	int			level = partmgr_rights_require(PARTMGR_RIGHTS_ACT, sql);
	uint64		n;

	partmgr_owner_code_begin(level);
	PG_TRY();
	{
		n = run_with_args(sql, nargs, argtypes, values, nulls, read_only,
						  expected);
	}
	PG_FINALLY();
	{
		partmgr_owner_code_end(level);
	}
	PG_END_TRY();
	return n;
}

/*
 * partmgr_spi_table_exec_plan
 *		partmgr_spi_table_exec for a plan the caller prepared and keeps
 *		(what names it in errors): the statements a trigger runs for each
 *		row.
 */
uint64
partmgr_spi_table_exec_plan(SPIPlanPtr plan, const char *what, Datum *values,
							const char *nulls, int expected)
{
	int			level = partmgr_rights_require(PARTMGR_RIGHTS_ACT, what);
	MemoryContext caller = CurrentMemoryContext;
	int			ret;

	partmgr_owner_code_begin(level);
	PG_TRY();
	{
		ret = SPI_execute_plan(plan, values, nulls, false, 0);
	}
	PG_FINALLY();
	{
		partmgr_owner_code_end(level);
	}
	PG_END_TRY();
	MemoryContextSwitchTo(caller);
	check_result(what, ret, expected);
	return SPI_processed;
}

/*
 * partmgr_spi_table_utility
 *		Run one utility statement (DDL built by statements.c) on a set's
 *		tables, as partmgr_spi_table_exec.
 */
void
partmgr_spi_table_utility(const char *sql)
{
	(void) partmgr_spi_table_exec(sql, 0, NULL, NULL, NULL, false,
								  SPI_OK_UTILITY);
}

/* Run each of a list of utility statements, in order, as above. */
void
partmgr_spi_table_utilities(const List *statements)
{
	ListCell   *lc;

	foreach(lc, statements)
		partmgr_spi_table_utility((const char *) lfirst(lc));
}

/*
 * partmgr_spi_value
 *		Column col (1-based) of result row row, as a Datum in SPI memory.
 *		The row must be one the last statement returned.
 */
Datum
partmgr_spi_value(uint64 row, int col, bool *isnull)
{
	Assert(SPI_tuptable != NULL && row < SPI_tuptable->numvals);
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
	Assert(SPI_tuptable != NULL && row < SPI_tuptable->numvals);
	return SPI_getvalue(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col);
}
