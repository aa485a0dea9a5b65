/*-------------------------------------------------------------------------
 *
 * missing_grants.c
 *	  missing_grants(): what the owner of each set lacks for pg_partmgr to
 *	  act as it, one row per privilege, with the GRANT that gives it.
 *
 * Reads the configuration and the catalogs with the caller's rights; runs
 * nothing of the owner's.  Lists the sets whose owner's privileges the
 * caller has (every set for a superuser), as health does.  A set that
 * cannot be checked (its template is gone, say) gets one row saying why
 * and does not stop the others.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/missing_grants.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/elog.h"
#include "utils/lsyscache.h"
#include "utils/tuplestore.h"

#include "api.h"
#include "catalog.h"
#include "config.h"
#include "locks.h"
#include "owner_grants.h"
#include "rights.h"

PG_FUNCTION_INFO_V1(pg_partmgr_missing_grants);

/* One set (or table) of a call: what check_one reads and fills. */
typedef struct GrantsRun
{
	const char *key;			/* a set's parent_table */
	Oid			relid;			/* or a table that is not a set yet */
	Oid			target;			/* an undo target, or InvalidOid */
	List	   *missing;		/* of PartmgrMissingGrant * */
} GrantsRun;

static void
check_one(void *arg)
{
	GrantsRun  *run = (GrantsRun *) arg;

	if (run->key != NULL)
		run->missing = partmgr_set_missing_grants(partmgr_config_load(run->key,
																	  false),
												  run->target);
	else
		run->missing = partmgr_table_missing_grants(run->relid);
}

static void
put_rows(ReturnSetInfo *rsinfo, const char *table, Oid owner, List *missing,
		 const char *failure)
{
	ListCell   *lc;
	Datum		values[6];
	bool		nulls[6] = {false};

	values[0] = CStringGetTextDatum(table);
	values[1] = CStringGetTextDatum(GetUserNameFromId(owner, false));
	if (failure != NULL)
	{
		/* the set could not be checked: say why, in place of its rows */
		nulls[2] = nulls[5] = true;
		values[3] = BoolGetDatum(true);
		values[4] = CStringGetTextDatum(psprintf("not checked: %s", failure));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		return;
	}
	foreach(lc, missing)
	{
		PartmgrMissingGrant *m = (PartmgrMissingGrant *) lfirst(lc);

		values[2] = CStringGetTextDatum(psprintf("%s ON %s %s", m->privilege,
												 m->object_kind, m->object));
		values[3] = BoolGetDatum(m->required);
		values[4] = CStringGetTextDatum(m->needed_for);
		values[5] = CStringGetTextDatum(m->grant_sql);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
}

/*
 * pg_partmgr_missing_grants
 *		missing_grants(p_parent_table, p_target_table): for one set, or a
 *		table that is not a set yet (what create_parent() would need), or
 *		every set the caller may maintain, the privileges its owner lacks;
 *		with p_target_table, also what undo_partition() into that table
 *		needs.  Errors (42501) if the caller lacks the named table owner's
 *		privileges.
 */
Datum
pg_partmgr_missing_grants(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *table = partmgr_text_arg_or_null(fcinfo, 0);
	char	   *target = partmgr_text_arg_or_null(fcinfo, 1);
	List	   *runs = NIL;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	if (target != NULL && table == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_target_table \"%s\" needs p_parent_table", target),
				 errhint("Name the set that undo_partition() would move into it.")));
	if (table != NULL)
	{
		GrantsRun  *run = palloc0(sizeof(GrantsRun));
		PartmgrSet *set;

		run->relid = partmgr_resolve_table(table, false);
		run->key = partmgr_table_key(run->relid);
		set = partmgr_config_load(run->key, true);
		partmgr_check_may_act_on(partmgr_rel_owner(run->relid), table);
		if (set == NULL)
		{
			run->key = NULL;
			if (target != NULL)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("table \"%s\" is not a partition set, so nothing can be undone into \"%s\"",
								table, target)));
		}
		if (target != NULL)
			run->target = partmgr_resolve_table(target, false);
		runs = list_make1(run);
	}
	else
	{
		foreach(lc, partmgr_config_list(false))
		{
			GrantsRun  *run = palloc0(sizeof(GrantsRun));

			run->key = (const char *) lfirst(lc);
			run->relid = partmgr_key_relid(run->key);
			if (!OidIsValid(run->relid) ||
				!partmgr_may_act_on(partmgr_rel_owner(run->relid)))
				continue;		/* not the caller's to look into */
			runs = lappend(runs, run);
		}
	}
	foreach(lc, runs)
	{
		GrantsRun  *run = (GrantsRun *) lfirst(lc);
		ErrorData  *edata = NULL;
		bool		ok = partmgr_run_subxact(check_one, run, &edata);

		put_rows(rsinfo,
				 partmgr_table_key(run->relid),
				 partmgr_rel_owner(run->relid), run->missing,
				 ok ? NULL : edata->message);
	}
	SPI_finish();
	return (Datum) 0;
}
