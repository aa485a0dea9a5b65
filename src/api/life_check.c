/*-------------------------------------------------------------------------
 *
 * life_check.c
 *	  partmgr.tier_check() and partmgr.archive_check(): the triggers that
 *	  check a row of part_config_tier or part_config_archive before it is
 *	  written (see jobs' tiers.c and archive.c for what they are and the
 *	  checks).
 *
 * They fire after the owner trigger (<table>_owner_check comes first by
 * name), so a role that may not write the set's rows learns nothing of its
 * tablespaces or of other tables from them.
 *
 * Locks: none.  Run in the writing statement.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/life_check.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/trigger.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "utils/rel.h"

#include "api.h"
#include "archive.h"
#include "tiers.h"

PG_FUNCTION_INFO_V1(pg_partmgr_tier_check);
PG_FUNCTION_INFO_V1(pg_partmgr_archive_check);

/* A column of the row, by name; NULL when it is NULL. */
static char *
column(HeapTuple tuple, TupleDesc desc, const char *name)
{
	int			attnum = SPI_fnumber(desc, name);

	if (attnum <= 0)
		elog(ERROR, "the configuration table has no column \"%s\"", name);
	return SPI_getvalue(tuple, desc, attnum);
}

/*
 * row_written
 *		The row a BEFORE INSERT OR UPDATE FOR EACH ROW trigger (function) is
 *		about to write, with its descriptor; *old the row before an UPDATE.
 */
static HeapTuple
row_written(FunctionCallInfo fcinfo, const char *function, TupleDesc *desc,
			HeapTuple *old)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;

	if (!CALLED_AS_TRIGGER(fcinfo) ||
		!TRIGGER_FIRED_FOR_ROW(trigdata->tg_event) ||
		!TRIGGER_FIRED_BEFORE(trigdata->tg_event) ||
		TRIGGER_FIRED_BY_DELETE(trigdata->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("partmgr.%s() must be fired before INSERT or UPDATE, for each row",
						function)));
	*desc = RelationGetDescr(trigdata->tg_relation);
	*old = TRIGGER_FIRED_BY_UPDATE(trigdata->tg_event) ?
		trigdata->tg_trigtuple : NULL;
	return TRIGGER_FIRED_BY_UPDATE(trigdata->tg_event) ?
		trigdata->tg_newtuple : trigdata->tg_trigtuple;
}

/*
 * pg_partmgr_tier_check
 *		BEFORE INSERT OR UPDATE FOR EACH ROW on part_config_tier.
 */
Datum
pg_partmgr_tier_check(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	HeapTuple	old;
	HeapTuple	tuple = row_written(fcinfo, "tier_check", &desc, &old);
	char	   *key = column(tuple, desc, "parent_table");
	char	   *name = column(tuple, desc, "tier_name");
	char	   *older_than = column(tuple, desc, "older_than");
	char	   *tablespace = column(tuple, desc, "tablespace_name");

	if (key == NULL || name == NULL || older_than == NULL ||
		tablespace == NULL)
		return PointerGetDatum(tuple);	/* NOT NULL says it */
	SPI_connect();
	partmgr_tier_validate(key, name, older_than, tablespace,
						  old != NULL ? column(old, desc, "tier_name") : NULL);
	SPI_finish();
	return PointerGetDatum(tuple);
}

/*
 * pg_partmgr_archive_check
 *		BEFORE INSERT OR UPDATE FOR EACH ROW on part_config_archive.
 */
Datum
pg_partmgr_archive_check(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	HeapTuple	old;
	HeapTuple	tuple = row_written(fcinfo, "archive_check", &desc, &old);
	char	   *key = column(tuple, desc, "parent_table");
	char	   *archive = column(tuple, desc, "archive_table");

	if (key == NULL || archive == NULL)
		return PointerGetDatum(tuple);	/* NOT NULL says it */
	SPI_connect();
	partmgr_archive_validate(key, archive);
	SPI_finish();
	return PointerGetDatum(tuple);
}
