/*-------------------------------------------------------------------------
 *
 * settings.c
 *	  The GUCs of the pg_partmgr. namespace: their variables, which every
 *	  layer reads (pg_partmgr.h declares them), and their definitions.
 *
 * partmgr_define_settings is called once, by _PG_init (api/pg_partmgr.c);
 * nothing here touches a database.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/settings.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "utils/guc.h"

#include "pg_partmgr.h"

/* GUC variables; see partmgr_define_settings for their meaning */
int			partmgr_lock_timeout = 100;
bool		partmgr_enabled = true;
int			partmgr_interval = 600;
char	   *partmgr_role = NULL;
int			partmgr_max_workers = 2;
char	   *partmgr_databases = NULL;
int			partmgr_log_retention = 30;
int			partmgr_default_move_limit = 10000;
bool		partmgr_keep_user_templates = false;
int			partmgr_children_per_transaction = 100;
int			partmgr_on_set_failure = PARTMGR_ON_FAILURE_ERROR;
int			partmgr_tier_bytes_per_run = 1024 * 1024;	/* kB */

static const struct config_enum_entry on_set_failure_options[] = {
	{"error", PARTMGR_ON_FAILURE_ERROR, false},
	{"warning", PARTMGR_ON_FAILURE_WARNING, false},
	{NULL, 0, false}
};

/*
 * partmgr_define_settings
 *		Define the GUCs and reserve their prefix.
 */
void
partmgr_define_settings(void)
{
	DefineCustomIntVariable("pg_partmgr.lock_timeout",
							"Longest time maintenance waits for any lock.",
							"Maintenance asks for table locks without queueing and "
							"retries until this much time has passed; statements it "
							"runs get it as lock_timeout. When it runs out, the work "
							"is skipped with a WARNING and done by the next run.",
							&partmgr_lock_timeout,
							100, 1, INT_MAX,
							PGC_USERSET, GUC_UNIT_MS,
							NULL, NULL, NULL);

	DefineCustomEnumVariable("pg_partmgr.on_set_failure",
							 "How run_maintenance() and run_maintenance_proc() tell that a set failed.",
							 "error: each failure is a WARNING as it happens, and the call ends "
							 "with an ERROR naming the failed sets once every other set was "
							 "maintained (as pg_partman does); warning: the WARNINGs only. "
							 "A lock not granted in time is not a failure; the worker only logs.",
							 &partmgr_on_set_failure,
							 PARTMGR_ON_FAILURE_ERROR, on_set_failure_options,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("pg_partmgr.keep_user_templates",
							 "Whether undo_partition and config_cleanup keep template tables a user named.",
							 "By default, as in pg_partman, they drop a forgotten set's "
							 "template table unless another set names it. When on, "
							 "only the template create_parent made is dropped.",
							 &partmgr_keep_user_templates,
							 false,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("pg_partmgr.enabled",
							 "Whether the background worker runs maintenance.",
							 NULL,
							 &partmgr_enabled,
							 true,
							 PGC_SIGHUP, 0,
							 NULL, NULL, NULL);

	DefineCustomIntVariable("pg_partmgr.interval",
							"Time between two maintenance runs of the background worker.",
							"Runs are aligned to the wall clock: they start at every "
							"whole multiple of this interval after midnight, in the "
							"server's time zone.",
							&partmgr_interval,
							600, 1, 7 * 24 * 3600,
							PGC_SIGHUP, GUC_UNIT_S,
							NULL, NULL, NULL);

	DefineCustomStringVariable("pg_partmgr.role",
							   "Role the background worker connects as.",
							   "Empty means the bootstrap superuser. Each set is "
							   "maintained with its parent table owner's rights; sets "
							   "whose owner's privileges this role lacks are skipped.",
							   &partmgr_role,
							   "",
							   PGC_SIGHUP, 0,
							   NULL, NULL, NULL);

	DefineCustomIntVariable("pg_partmgr.max_workers",
							"Most databases maintained at the same time by the background worker.",
							NULL,
							&partmgr_max_workers,
							2, 1, 64,
							PGC_SIGHUP, 0,
							NULL, NULL, NULL);

	DefineCustomStringVariable("pg_partmgr.databases",
							   "Databases the background worker maintains (comma-separated).",
							   "Empty means every database that has the extension.",
							   &partmgr_databases,
							   "",
							   PGC_SIGHUP, GUC_LIST_INPUT,
							   NULL, NULL, NULL);

	DefineCustomIntVariable("pg_partmgr.log_retention",
							"Days of partmgr.maintenance_log that the"
							" background worker keeps.",
							"0 keeps every row.",
							&partmgr_log_retention,
							30, 0, 36500,
							PGC_SIGHUP, 0,
							NULL, NULL, NULL);

	DefineCustomIntVariable("pg_partmgr.default_move_limit",
							"Most rows of the default partition that maintenance moves into a child it creates.",
							"When the default partition holds rows in the range of a child "
							"that maintenance is about to create, it moves them into the "
							"new child if there are at most this many; otherwise the child "
							"is skipped and reported. 0 never moves rows.",
							&partmgr_default_move_limit,
							10000, 0, INT_MAX,
							PGC_USERSET, 0,
							NULL, NULL, NULL);

	DefineCustomIntVariable("pg_partmgr.children_per_transaction",
							"Most children maintenance creates, and most it retires, for one set in one transaction.",
							"The background worker and the procedures commit and go on with "
							"the set in a new transaction; run_maintenance() leaves the rest "
							"to its next call. Keeps the locks one transaction holds bounded.",
							&partmgr_children_per_transaction,
							100, 1, 10000,
							PGC_USERSET, 0,
							NULL, NULL, NULL);

	DefineCustomIntVariable("pg_partmgr.tier_bytes_per_run",
							"Most table data one background worker pass, or one run_maintenance_proc() call, copies for the moves of children to their tier.",
							"Moves go on step by step, a batch of rows a step, until this "
							"much of the children's tables has been copied in the pass; the "
							"next pass goes on where this one stopped. 0 moves nothing "
							"(run_reshape() still does). Retention into an archive set "
							"moves the rows of at most this much of a set's expired "
							"children a run (at least one child).",
							&partmgr_tier_bytes_per_run,
							1024 * 1024, 0, INT_MAX,
							PGC_SUSET, GUC_UNIT_KB,
							NULL, NULL, NULL);

	MarkGUCPrefixReserved("pg_partmgr");
}
