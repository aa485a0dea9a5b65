/*-------------------------------------------------------------------------
 *
 * analyze.c
 *	  run_analyze() (pg_partman 5): ANALYZE the parent of every set, or of
 *	  one, which gathers the statistics of the whole partition tree that
 *	  the planner uses for queries on the parent and autovacuum never
 *	  gathers.
 *
 * Each ANALYZE is a one-action plan (partmgr_analyze_set): logged in
 * maintenance_log and as a LOG line, run with the rights of the parent's
 * owner in a security-restricted operation (rights.c); a set the caller
 * may not act on is passed over when all sets are analyzed, and refused
 * when it is named.  A set whose parent is gone gets a WARNING.
 *
 * Locks: those ANALYZE takes: SHARE UPDATE EXCLUSIVE on the parent (with
 * p_skip_locked, a table that cannot be locked at once is skipped) and on
 * each child it samples, each wait bounded by lock_timeout, which the
 * executor sets to pg_partmgr.lock_timeout.
 *
 * Transactions: called with CALL outside a transaction block (a non-atomic
 * context), it commits after each set, so the locks of one set are let go
 * before the next; otherwise everything runs in the caller's transaction.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/analyze.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/spi.h"
#include "fmgr.h"
#include "nodes/parsenodes.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "api.h"
#include "catalog.h"
#include "config.h"
#include "maintenance.h"
#include "rights.h"
#include "spi_util.h"

PG_FUNCTION_INFO_V1(pg_partmgr_run_analyze);

/*
 * pg_partmgr_run_analyze
 *		PROCEDURE run_analyze(p_skip_locked, p_quiet, p_parent_table)
 *		(pg_partman 5): ANALYZE the parent of every set (or of one), which
 *		gathers the statistics of the whole partition tree that autovacuum
 *		does not, committing after each when called with CALL outside a
 *		transaction block.  p_skip_locked skips a tree a lock is held on;
 *		each set gets a NOTICE unless p_quiet.
 */
Datum
pg_partmgr_run_analyze(PG_FUNCTION_ARGS)
{
	bool		skip_locked = !PG_ARGISNULL(0) && PG_GETARG_BOOL(0);
	bool		quiet = !PG_ARGISNULL(1) && PG_GETARG_BOOL(1);
	char	   *table = partmgr_text_arg_or_null(fcinfo, 2);
	bool		nonatomic = (fcinfo->context != NULL &&
							 IsA(fcinfo->context, CallContext) &&
							 !castNode(CallContext, fcinfo->context)->atomic);
	List	   *keys;
	ListCell   *lc;

	SPI_connect_ext(nonatomic ? SPI_OPT_NONATOMIC : 0);
	keys = partmgr_config_keys(table, false);
	foreach(lc, keys)
	{
		const char *key = (const char *) lfirst(lc);
		Oid			relid = partmgr_key_relid(key);
		TimestampTz started = GetCurrentTimestamp();
		PartmgrParentInfo parent;
		PartmgrSet *set;
		PartmgrRights rights;
		ErrorData  *edata;

		if (!OidIsValid(relid))
		{
			ereport(WARNING,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("parent table of partition set \"%s\" does not exist", key)));
			continue;
		}
		partmgr_read_parent(relid, &parent);
		if (!partmgr_may_act_on(parent.owner))
			continue;			/* someone else's set */
		set = partmgr_config_load(key, false);
		partmgr_rights_enter_set(set, PARTMGR_RIGHTS_ACT, &rights);
		edata = partmgr_analyze_set(set, skip_locked, "run_analyze", false);
		partmgr_rights_leave(&rights);
		if (edata != NULL)
		{
			/* a parent held by someone else is left for the next call */
			if (edata->sqlerrcode != ERRCODE_LOCK_NOT_AVAILABLE ||
				table != NULL)
				ReThrowError(edata);
			edata->elevel = WARNING;
			ThrowErrorData(edata);
			continue;
		}
		if (!quiet)
			ereport(NOTICE,
					(errmsg("analyzed %s in %ld ms", key,
							TimestampDifferenceMilliseconds(started,
															GetCurrentTimestamp()))));
		if (nonatomic)
			SPI_commit();
	}
	SPI_finish();
	PG_RETURN_VOID();
}
