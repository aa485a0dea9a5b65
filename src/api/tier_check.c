/*-------------------------------------------------------------------------
 *
 * tier_check.c
 *	  partmgr.tier_check(): the trigger that checks a row of
 *	  part_config_tier before it is written (see jobs' tiers.c for what a
 *	  tier is and partmgr_tier_validate for the checks).
 *
 * It fires after the owner trigger (part_config_tier_owner_check comes
 * first by name), so a role that may not write the set's rows learns
 * nothing of its tablespaces from it.
 *
 * Locks: none.  Runs in the writing statement.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/tier_check.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/trigger.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "utils/rel.h"

#include "api.h"
#include "tiers.h"

PG_FUNCTION_INFO_V1(pg_partmgr_tier_check);

/* A column of a part_config_tier row, by name; NULL when it is NULL. */
static char *
column(HeapTuple tuple, TupleDesc desc, const char *name)
{
	int			attnum = SPI_fnumber(desc, name);

	if (attnum <= 0)
		elog(ERROR, "part_config_tier has no column \"%s\"", name);
	return SPI_getvalue(tuple, desc, attnum);
}

/*
 * pg_partmgr_tier_check
 *		BEFORE INSERT OR UPDATE FOR EACH ROW on part_config_tier.
 */
Datum
pg_partmgr_tier_check(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;
	TupleDesc	desc;
	HeapTuple	tuple;
	char	   *key;
	char	   *name;
	char	   *older_than;
	char	   *tablespace;
	char	   *other = NULL;

	if (!CALLED_AS_TRIGGER(fcinfo) ||
		!TRIGGER_FIRED_FOR_ROW(trigdata->tg_event) ||
		!TRIGGER_FIRED_BEFORE(trigdata->tg_event) ||
		TRIGGER_FIRED_BY_DELETE(trigdata->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("partmgr.tier_check() must be fired before INSERT or UPDATE, for each row")));
	desc = RelationGetDescr(trigdata->tg_relation);
	tuple = TRIGGER_FIRED_BY_UPDATE(trigdata->tg_event) ?
		trigdata->tg_newtuple : trigdata->tg_trigtuple;
	key = column(tuple, desc, "parent_table");
	name = column(tuple, desc, "tier_name");
	older_than = column(tuple, desc, "older_than");
	tablespace = column(tuple, desc, "tablespace_name");
	if (key == NULL || name == NULL || older_than == NULL ||
		tablespace == NULL)
		return PointerGetDatum(tuple);	/* NOT NULL says it */
	if (TRIGGER_FIRED_BY_UPDATE(trigdata->tg_event))
		other = column(trigdata->tg_trigtuple, desc, "tier_name");
	SPI_connect();
	partmgr_tier_validate(key, name, older_than, tablespace, other);
	SPI_finish();
	return PointerGetDatum(tuple);
}
