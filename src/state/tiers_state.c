/*-------------------------------------------------------------------------
 *
 * tiers_state.c
 *	  partmgr.part_config_tier: a set's storage tiers, read with the
 *	  caller's rights (everyone may read them, as part_config).
 *
 * The library works with 0.6.0's objects too, which have no tiers: a
 * database whose extension is not updated yet has none.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/tiers_state.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "spi_util.h"
#include "tiers_state.h"

/*
 * partmgr_tier_rows
 *		The tiers of set key (a List of PartmgrTierRow), in no order.  While
 *		no tier was ever written the table has no block, and this costs no
 *		query: every run asks for every set.
 */
List *
partmgr_tier_rows(const char *key)
{
	Oid			nspid = get_namespace_oid("partmgr", true);
	Oid			relid = OidIsValid(nspid) ?
	get_relname_relid("part_config_tier", nspid) : InvalidOid;
	Oid			types[1] = {TEXTOID};
	Datum		values[1];
	List	   *rows = NIL;
	uint64		n;
	Relation	rel;
	bool		empty;

	if (!OidIsValid(relid))
		return NIL;
	rel = table_open(relid, AccessShareLock);
	empty = RelationGetNumberOfBlocks(rel) == 0;
	table_close(rel, AccessShareLock);
	if (empty)
		return NIL;
	values[0] = CStringGetTextDatum(key);
	n = partmgr_spi_exec_cached("SELECT tier_name, older_than, tablespace_name"
								"  FROM partmgr.part_config_tier"
								" WHERE parent_table = $1",
								1, types, values, NULL, true, SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
	{
		PartmgrTierRow *row = palloc(sizeof(PartmgrTierRow));

		row->name = partmgr_spi_text(i, 1);
		row->older_than = partmgr_spi_text(i, 2);
		row->tablespace = partmgr_spi_text(i, 3);
		rows = lappend(rows, row);
	}
	return rows;
}
