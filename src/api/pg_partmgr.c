/*-------------------------------------------------------------------------
 *
 * pg_partmgr.c
 *	  Module entry point: defines the GUCs of the pg_partmgr. namespace
 *	  (base/settings.c) and, when loaded through shared_preload_libraries,
 *	  registers the launcher background worker (worker.c).
 *
 * Nothing here touches a database.  The SQL functions work whether or not
 * the library is preloaded: it is loaded on first use and the GUCs are
 * defined then (a value set before that is picked up).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/pg_partmgr.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"

#include "api.h"
#include "pg_partmgr.h"
#include "worker.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/*
 * _PG_init
 *		Define the GUCs and, at server start, register the launcher.
 */
void
_PG_init(void)
{
	partmgr_define_settings();
	partmgr_unique_hooks_install();
	if (process_shared_preload_libraries_in_progress && !IsBinaryUpgrade)
		partmgr_register_launcher();
}
