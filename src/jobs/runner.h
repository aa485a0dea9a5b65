/*-------------------------------------------------------------------------
 *
 * runner.h
 *	  Maintain a list of partition sets (see runner.c).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/runner.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_RUNNER_H
#define PARTMGR_RUNNER_H

#include "nodes/pg_list.h"

/* Which transactions a run maintains its sets in (see runner.c). */
typedef enum PartmgrRunTransactions
{
	PARTMGR_RUN_IN_CALLERS,		/* all in the caller's transaction */
	PARTMGR_RUN_COMMIT_SPI,		/* the caller's, committed through SPI after
								 * each set (a nonatomic CALL) */
	PARTMGR_RUN_OWN_TRANSACTIONS	/* one started and committed per set (a
									 * background process, no transaction
									 * open) */
} PartmgrRunTransactions;

/* What a caller of partmgr_run_sets chooses. */
typedef struct PartmgrRunOptions
{
	const char *run_by;			/* who runs it (maintenance_log) */
	const char *table;			/* the one set named, or NULL: every set with
								 * automatic maintenance on */
	bool		analyze;		/* ANALYZE parents that got children */
	PartmgrRunTransactions transactions;
	int			pause_seconds;	/* between two sets */
	bool		warn_not_permitted; /* a set left out for its owner's
									 * privileges is a WARNING */
	bool		raise_failures; /* end with an ERROR naming the sets that
								 * failed (pg_partmgr.on_set_failure) */
} PartmgrRunOptions;

extern bool partmgr_run_lock_own(void);
extern List *partmgr_run_list(const char *table, bool said_before);
extern void partmgr_run_sets(List *sets, const PartmgrRunOptions *opts);

#endif							/* PARTMGR_RUNNER_H */
