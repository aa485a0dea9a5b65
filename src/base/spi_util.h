/*-------------------------------------------------------------------------
 *
 * spi_util.h
 *	  Checked SPI wrappers: every call is compared with the one SPI_OK_*
 *	  code it must return, values always travel as $n parameters, and each
 *	  statement runs with the rights its kind calls for: pg_partmgr's own
 *	  tables with the caller's, a set's tables with its owner's (rights.h).
 *
 * The caller must be connected to SPI (SPI_connect) and inside a
 * transaction.  Results stay in SPI_tuptable until the next call.  A query
 * that must see what the same transaction changed before it (rows moved,
 * tables attached) is run with read_only false: a read-only SPI query sees
 * the snapshot of the statement that called us.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/spi_util.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_SPI_UTIL_H
#define PARTMGR_SPI_UTIL_H

#include "executor/spi.h"

extern uint64 partmgr_spi_exec(const char *sql, int nargs, Oid *argtypes,
							   Datum *values, const char *nulls,
							   bool read_only, int expected);
extern uint64 partmgr_spi_exec_cached(const char *sql, int nargs, Oid *argtypes,
									  Datum *values, const char *nulls,
									  bool read_only, int expected);
extern uint64 partmgr_spi_table_exec(const char *sql, int nargs, Oid *argtypes,
									 Datum *values, const char *nulls,
									 bool read_only, int expected);
extern SPIPlanPtr partmgr_spi_keep_plan(const char *sql, int nargs,
										Oid *argtypes);
extern uint64 partmgr_spi_table_exec_plan(SPIPlanPtr plan, const char *what,
										  Datum *values, const char *nulls,
										  int expected);
extern void partmgr_spi_table_utility(const char *sql);
extern void partmgr_spi_table_utilities(const List *statements);
extern Datum partmgr_spi_value(uint64 row, int col, bool *isnull);
extern char *partmgr_spi_text(uint64 row, int col);

#endif							/* PARTMGR_SPI_UTIL_H */
