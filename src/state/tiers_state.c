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
 * partmgr_tier_rows
 *		The tiers of set key (a List of PartmgrTierRow), in no order.  Every
 *		run asks for every set, so the table (a few rows) is read with a
 *		plain heap scan, under the latest snapshot, not with a query: while
 *		no tier was ever written it has no block and costs a look at its
 *		size.  Everyone may read it (GRANT SELECT TO PUBLIC, no row
 *		security).
 */
List *
partmgr_tier_rows(const char *key)
{
	Oid			nspid = get_namespace_oid("partmgr", true);
	Oid			relid = OidIsValid(nspid) ?
	get_relname_relid("part_config_tier", nspid) : InvalidOid;
	List	   *rows = NIL;
	Relation	rel;
	TableScanDesc scan;
	Snapshot	snapshot;
	HeapTuple	tuple;
	TupleDesc	desc;

	if (!OidIsValid(relid))
		return NIL;
	rel = table_open(relid, AccessShareLock);
	if (RelationGetNumberOfBlocks(rel) == 0)
	{
		table_close(rel, AccessShareLock);
		return NIL;
	}
	desc = RelationGetDescr(rel);
	snapshot = RegisterSnapshot(GetLatestSnapshot());
	scan = table_beginscan(rel, snapshot, 0, NULL);
	while ((tuple = heap_getnext(scan, ForwardScanDirection)) != NULL)
	{
		Datum		values[4];
		bool		nulls[4];
		PartmgrTierRow *row;

		if (desc->natts < 4)
			break;
		heap_deform_tuple(tuple, desc, values, nulls);
		if (nulls[0] || nulls[1] || nulls[2] || nulls[3] ||
			strcmp(TextDatumGetCString(values[0]), key) != 0)
			continue;
		row = palloc(sizeof(PartmgrTierRow));
		row->name = TextDatumGetCString(values[1]);
		row->older_than = TextDatumGetCString(values[2]);
		row->tablespace = TextDatumGetCString(values[3]);
		rows = lappend(rows, row);
	}
	table_endscan(scan);
	UnregisterSnapshot(snapshot);
	table_close(rel, AccessShareLock);
	return rows;
}
