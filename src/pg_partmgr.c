/*-------------------------------------------------------------------------
 *
 * pg_partmgr.c
 *	  Module entry point: defines the GUCs of the pg_partmgr. namespace.
 *
 * Nothing here touches a database.  The SQL functions work whether or not
 * the library is in shared_preload_libraries: it is loaded on first use and
 * the GUCs are defined then (a value set before that is picked up).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/pg_partmgr.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "fmgr.h"
#include "utils/guc.h"

#include "pg_partmgr.h"

PG_MODULE_MAGIC;

/* pg_partmgr.lock_timeout, in milliseconds */
int			partmgr_lock_timeout = 100;

void		_PG_init(void);

/*
 * _PG_init
 *		Define the GUCs and reserve their prefix.
 */
void
_PG_init(void)
{
	DefineCustomIntVariable("pg_partmgr.lock_timeout",
							"Longest time maintenance waits for any lock.",
							"Maintenance asks for table locks without queueing and "
							"retries until this much time has passed; statements it "
							"runs get it as lock_timeout. When it runs out, the work "
							"is skipped with a WARNING and done by the next run.",
							&partmgr_lock_timeout,
							100,
							1,
							INT_MAX,
							PGC_USERSET,
							GUC_UNIT_MS,
							NULL, NULL, NULL);

	MarkGUCPrefixReserved("pg_partmgr");
}
