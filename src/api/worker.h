/*-------------------------------------------------------------------------
 *
 * worker.h
 *	  The background launcher and its per-database maintenance workers.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/worker.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_WORKER_H
#define PARTMGR_WORKER_H

extern void partmgr_register_launcher(void);

extern PGDLLEXPORT void pg_partmgr_launcher_main(Datum arg) pg_attribute_noreturn();
extern PGDLLEXPORT void pg_partmgr_worker_main(Datum arg) pg_attribute_noreturn();

#endif							/* PARTMGR_WORKER_H */
