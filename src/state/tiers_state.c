/*-------------------------------------------------------------------------
 *
 * tiers_state.c
 *	  partmgr.part_config_tier and part_config_archive: a set's storage
 *	  tiers and its archive set, read with the caller's rights (everyone
 *	  may read them, as part_config).
 *
 * The library works with 0.6.0's objects too, which have neither: a
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

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "tiers_state.h"

/*
 * life_rows
 *		The rows of set key in one of the life-cycle tables (part_config_tier,
 *		part_config_archive: text columns, the set first), each a palloc'd
 *		array of its natts values, in no order.  Every run asks for every
 *		set, so the table (a few rows) is read with a plain heap scan, under
 *		the latest snapshot, not with a query: while no row was ever written
 *		it has no block and costs a look at its size.  Everyone may read it
 *		(GRANT SELECT TO PUBLIC, no row security).  NIL when the table does
 *		not exist (0.6.0's objects).
 */
static List *
life_rows(const char *table, const char *key, int natts)
{
	Oid			nspid = get_namespace_oid("partmgr", true);
	Oid			relid = OidIsValid(nspid) ?
	get_relname_relid(table, nspid) : InvalidOid;
	List	   *rows = NIL;
	Relation	rel;
	TableScanDesc scan;
	Snapshot	snapshot;
	HeapTuple	tuple;
	TupleDesc	desc;
	Datum	   *values;
	bool	   *nulls;

	if (!OidIsValid(relid))
		return NIL;
	rel = table_open(relid, AccessShareLock);
	if (RelationGetNumberOfBlocks(rel) == 0)
	{
		table_close(rel, AccessShareLock);
		return NIL;
	}
	desc = RelationGetDescr(rel);
	values = palloc(sizeof(Datum) * desc->natts);
	nulls = palloc(sizeof(bool) * desc->natts);
	snapshot = RegisterSnapshot(GetLatestSnapshot());
	scan = table_beginscan(rel, snapshot, 0, NULL);
	while (desc->natts >= natts &&
		   (tuple = heap_getnext(scan, ForwardScanDirection)) != NULL)
	{
		char	  **row;
		bool		complete = true;

		heap_deform_tuple(tuple, desc, values, nulls);
		for (int i = 0; i < natts; i++)
			complete &= !nulls[i];
		if (!complete || strcmp(TextDatumGetCString(values[0]), key) != 0)
			continue;
		row = palloc(sizeof(char *) * natts);
		for (int i = 0; i < natts; i++)
			row[i] = TextDatumGetCString(values[i]);
		rows = lappend(rows, row);
	}
	table_endscan(scan);
	UnregisterSnapshot(snapshot);
	table_close(rel, AccessShareLock);
	return rows;
}

/*
 * partmgr_tier_rows
 *		The tiers of set key (a List of PartmgrTierRow), in no order.
 */
List *
partmgr_tier_rows(const char *key)
{
	List	   *rows = NIL;
	ListCell   *lc;

	foreach(lc, life_rows("part_config_tier", key, 4))
	{
		char	  **values = (char **) lfirst(lc);
		PartmgrTierRow *row = palloc(sizeof(PartmgrTierRow));

		row->name = values[1];
		row->older_than = values[2];
		row->tablespace = values[3];
		rows = lappend(rows, row);
	}
	return rows;
}

/*
 * partmgr_archive_of
 *		The archive_table of set key in part_config_archive, as written, or
 *		NULL when the set has none.
 */
char *
partmgr_archive_of(const char *key)
{
	List	   *rows = life_rows("part_config_archive", key, 2);

	return rows == NIL ? NULL : ((char **) linitial(rows))[1];
}
