/*-------------------------------------------------------------------------
 *
 * config_owner.c
 *	  The trigger that keeps each role to its own configuration rows.
 *
 * partmgr.config_owner_check() guards part_config and part_config_sub: a row
 * names a table (the column given as the trigger's argument), and only a role
 * with the privileges of that table's owner may insert, update or delete it --
 * checked on the row before and after an UPDATE, so a row cannot be pointed at
 * someone else's table.  Maintenance acts on a set with the rights of its
 * parent's owner (rights.c); without this check, any role granted UPDATE on
 * the configuration could make it drop another owner's children.  Superusers
 * may write any row (pg_dump's restore included).  A new row must name an
 * existing table; an old row whose table no longer exists may be removed or
 * repaired by anyone who may write the table.  As a statement trigger it
 * refuses TRUNCATE, which would take every role's rows, to all but superusers.
 *
 * Locks: none.  Runs in the writing statement.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/config_owner.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/trigger.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "catalog.h"

PG_FUNCTION_INFO_V1(pg_partmgr_config_owner_check);

/*
 * check_row
 *		Raise unless the current user may write a row that names the table
 *		key (new: the row as it will be; otherwise as it was).
 */
static void
check_row(Relation rel, const char *key, bool new)
{
	Oid			relid = partmgr_key_relid(key);
	PartmgrParentInfo table;

	if (!OidIsValid(relid))
	{
		if (!new)
			return;				/* a row that names no table any more */
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("table \"%s\" named in %s does not exist", key,
						RelationGetRelationName(rel)),
				 errhint("Only a superuser may configure a table that does not exist.")));
	}
	partmgr_read_parent(relid, &table);
	if (!has_privs_of_role(GetUserId(), table.owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to change the configuration of \"%s\"", key),
				 errdetail("Only roles with the privileges of role \"%s\", which owns the table, may write the rows of %s that name it.",
						   GetUserNameFromId(table.owner, false),
						   RelationGetRelationName(rel))));
}

/*
 * pg_partmgr_config_owner_check
 *		The trigger (see the file header).  Its argument names the column
 *		that holds the table's key; without one it is the TRUNCATE guard.
 */
Datum
pg_partmgr_config_owner_check(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;
	Relation	rel;
	int			column;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("partmgr.config_owner_check() must be called as a trigger")));
	rel = trigdata->tg_relation;
	if (TRIGGER_FIRED_BY_TRUNCATE(trigdata->tg_event))
	{
		if (!superuser())
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("permission denied to truncate %s.%s",
							quote_identifier(get_namespace_name(RelationGetNamespace(rel))),
							quote_identifier(RelationGetRelationName(rel))),
					 errdetail("It holds the rows of every role's partition sets."),
					 errhint("DELETE the rows of your own sets instead.")));
		return PointerGetDatum(NULL);
	}
	/* anyone may put the function in a trigger of their own: check how */
	if (!TRIGGER_FIRED_FOR_ROW(trigdata->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("partmgr.config_owner_check() must be fired for each row, or for TRUNCATE")));
	if (trigdata->tg_trigger->tgnargs != 1)
		ereport(ERROR,
				(errcode(ERRCODE_TRIGGERED_ACTION_EXCEPTION),
				 errmsg("trigger \"%s\" on %s must give partmgr.config_owner_check() one argument, the name of a column",
						trigdata->tg_trigger->tgname,
						RelationGetRelationName(rel))));
	column = SPI_fnumber(RelationGetDescr(rel),
						 trigdata->tg_trigger->tgargs[0]);
	if (column <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" named by trigger \"%s\" does not exist in %s",
						trigdata->tg_trigger->tgargs[0],
						trigdata->tg_trigger->tgname,
						RelationGetRelationName(rel))));

	if (!superuser())
	{
		if (!TRIGGER_FIRED_BY_INSERT(trigdata->tg_event))
			check_row(rel,
					  SPI_getvalue(trigdata->tg_trigtuple,
								   RelationGetDescr(rel), column),
					  false);
		if (TRIGGER_FIRED_BY_INSERT(trigdata->tg_event))
			check_row(rel,
					  SPI_getvalue(trigdata->tg_trigtuple,
								   RelationGetDescr(rel), column),
					  true);
		else if (TRIGGER_FIRED_BY_UPDATE(trigdata->tg_event))
			check_row(rel,
					  SPI_getvalue(trigdata->tg_newtuple,
								   RelationGetDescr(rel), column),
					  true);
	}
	return PointerGetDatum(TRIGGER_FIRED_BY_UPDATE(trigdata->tg_event) ?
						   trigdata->tg_newtuple : trigdata->tg_trigtuple);
}
