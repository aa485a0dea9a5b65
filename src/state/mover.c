/*-------------------------------------------------------------------------
 *
 * mover.c
 *	  Move rows from a table into new children in C, in one pass: each row
 *	  of the source read once, routed to its child by the child's bounds,
 *	  written with the table access method's multi-insert (as COPY does)
 *	  and deleted from the source; and the one scan before it that finds
 *	  which children the rows need (partmgr_key_buckets).
 *
 * partition_data moves the default partition's rows of a run of new
 * children with two statements, INSERT ... SELECT through a staging table
 * that routes them and DELETE: two scans of the source, and every row
 * inserted (and its WAL written) on its own.  Here one scan does both, and
 * the rows go into each child a thousand at a time.
 *
 * It is the same move.  The rows move in the caller's transaction, all or
 * nothing; the new rows carry its xid and the old ones its xmax, so a
 * reader sees each row once whatever its snapshot; each child's NOT NULL
 * and CHECK constraints (its bound CHECK among them) are checked and its
 * indexes filled, row by row, as INSERT does; the row counts of the tables
 * are kept by the table access method as for statements.  What a statement
 * would add it does not do, so it declines those cases
 * (partmgr_move_declined) and the statements run: a trigger on the source
 * or a target (a user's, a foreign key's, a global unique constraint's),
 * row security, a stored generated column, a deferrable unique or
 * exclusion index, a table that is not a plain table, a table Citus
 * manages (its rows are in its shards on the workers).
 *
 * Rights: in the scope of the set owner's rights (rights.c), which the
 * index expressions and constraints evaluated here run with.  Locks: the
 * caller holds ACCESS EXCLUSIVE on the source and the targets.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/mover.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/genam.h"
#include "access/heapam.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/tupconvert.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "bounds.h"
#include "citus.h"
#include "locks.h"
#include "mover.h"
#include "rights.h"

/*
 * Rows buffered per target before a multi-insert: COPY's figures, but no
 * more than MOVE_ROWS_IN_ALL over all targets (a move into hundreds of
 * children keeps its memory bounded), and no fewer than MOVE_ROWS_AT_LEAST.
 */
#define MOVE_BUFFERED_ROWS	1000
#define MOVE_BUFFERED_BYTES	65535
#define MOVE_ROWS_IN_ALL	10000
#define MOVE_ROWS_AT_LEAST	64

/* A target while rows move into it. */
typedef struct MoveInto
{
	PartmgrMoveTarget target;
	Relation	rel;
	ResultRelInfo *rri;
	TupleConversionMap *map;	/* from the source's columns, or NULL */
	BulkInsertState bistate;
	TupleTableSlot *slots[MOVE_BUFFERED_ROWS];
	int			nbuffered;
	int			nslots;			/* slots made so far */
	Size		bytes;
} MoveInto;

/*
 * declined
 *		Why rows cannot move into or out of one table in C (see the file
 *		header), or NULL.  The table is locked by the caller.
 */
static const char *
declined(Relation rel, bool target)
{
	TriggerDesc *trigdesc = rel->trigdesc;

	if (rel->rd_rel->relkind != RELKIND_RELATION)
		return "it is not a plain table";
	if (partmgr_citus_table(RelationGetRelid(rel)))
		return "Citus keeps its rows in shards";
	if (trigdesc != NULL && trigdesc->numtriggers > 0)
		return "it has triggers";
	if (rel->rd_rel->relrowsecurity)
		return "it has row security";
	if (!target)
		return NULL;
	if (rel->rd_att->constr != NULL &&
		rel->rd_att->constr->has_generated_stored)
		return "it has a generated column";
	if (rel->rd_rel->relhasindex)
	{
		List	   *indexes = RelationGetIndexList(rel);
		ListCell   *lc;

		foreach(lc, indexes)
		{
			Relation	index = index_open(lfirst_oid(lc), AccessShareLock);
			bool		deferred = !index->rd_index->indimmediate;

			index_close(index, AccessShareLock);
			if (deferred)
				return "it has a deferrable unique or exclusion index";
		}
	}
	return NULL;
}

/*
 * partmgr_move_declined
 *		Why rows of source cannot move into targets in C, in words for a
 *		debug line, or NULL when they can.  The caller holds the tables'
 *		locks.
 */
const char *
partmgr_move_declined(Oid source, const PartmgrMoveTarget *targets,
					  int ntargets)
{
	Relation	rel;
	const char *why;

	if (ntargets <= 0)
		return "there is no target";
	rel = table_open(source, NoLock);
	why = declined(rel, false);
	table_close(rel, NoLock);
	for (int i = 0; i < ntargets && why == NULL; i++)
	{
		if (!OidIsValid(targets[i].relid))
			return "a target does not exist yet";
		rel = table_open(targets[i].relid, NoLock);
		why = declined(rel, true);
		table_close(rel, NoLock);
	}
	return why;
}

/* The number of the set's control column in a table that must have it. */
static AttrNumber
control_attnum(const PartmgrSet *set, Oid relid)
{
	AttrNumber	attnum = get_attnum(relid, set->control);

	if (attnum == InvalidAttrNumber)
		elog(ERROR,
			 "control column \"%s\" of partition set \"%s\" is missing from table %u",
			 set->control, set->key, relid);
	return attnum;
}

/*
 * push_current_snapshot
 *		What an SPI statement would read with: after a CommandCounterIncrement,
 *		the transaction's snapshot (a new one in READ COMMITTED) with the
 *		current command id, so that rows this transaction wrote or removed
 *		before are seen as such in any isolation level.  It is pushed as the
 *		active snapshot and returned; the caller pops it.
 */
static Snapshot
push_current_snapshot(void)
{
	CommandCounterIncrement();
	PushCopiedSnapshot(GetTransactionSnapshot());
	UpdateActiveSnapshotCommandId();
	return GetActiveSnapshot();
}

/*
 * flush
 *		Write the rows buffered for a target: one multi-insert, then each
 *		row's index entries.
 */
static void
flush(MoveInto *into, EState *estate, CommandId cid)
{
	if (into->nbuffered == 0)
		return;
	table_multi_insert(into->rel, into->slots, into->nbuffered, cid, 0,
					   into->bistate);
	for (int i = 0; i < into->nbuffered; i++)
	{
		TupleTableSlot *slot = into->slots[i];

		if (into->rri->ri_NumIndices > 0)
		{
			List	   *recheck;

			ResetPerTupleExprContext(estate);
			recheck = ExecInsertIndexTuples(into->rri, slot, estate, false,
											false,
											NULL, NIL);
			Assert(recheck == NIL);
			list_free(recheck);
		}
		ExecClearTuple(slot);
	}
	into->nbuffered = 0;
	into->bytes = 0;
}

/* The target whose range holds point, or NULL (targets sorted, apart). */
static MoveInto *
target_of(MoveInto *intos, int n, PartmgrPoint point)
{
	int			lo = 0;
	int			hi = n - 1;

	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (point < intos[mid].target.lower)
			hi = mid - 1;
		else if (point >= intos[mid].target.upper)
			lo = mid + 1;
		else
			return &intos[mid];
	}
	return NULL;
}

static int
compare_targets(const void *a, const void *b)
{
	PartmgrPoint x = ((const MoveInto *) a)->target.lower;
	PartmgrPoint y = ((const MoveInto *) b)->target.lower;

	return x < y ? -1 : x > y;
}

/*
 * partmgr_move_rows
 *		Move the rows of source whose key (the set's control column) lies
 *		in [lower, upper) into targets, each row into the one whose range
 *		holds its key, and return how many moved.  A row of that range that
 *		no target takes is an error (the caller's targets cover the rows it
 *		found).  Only for a move partmgr_move_declined accepts; in the scope
 *		of the owner's rights, with the tables locked (see the file header).
 */
uint64
partmgr_move_rows(const PartmgrSet *set, Oid source,
				  const PartmgrMoveTarget *targets,
				  int ntargets, PartmgrPoint lower, PartmgrPoint upper)
{
	EState	   *estate = CreateExecutorState();
	MoveInto   *intos = palloc0(sizeof(MoveInto) * ntargets);
	Relation	src;
	AttrNumber	keyatt;
	TableScanDesc scan;
	TupleTableSlot *row;
	Snapshot	snapshot;
	CommandId	cid;
	uint64		moved = 0;
	int			batch = Max(MOVE_ROWS_AT_LEAST,
							Min(MOVE_BUFFERED_ROWS,
								MOVE_ROWS_IN_ALL / ntargets));

	(void) partmgr_rights_require(PARTMGR_RIGHTS_ACT, "moving rows");
	src = table_open(source, NoLock);
	keyatt = control_attnum(set, source);

	/* rows this transaction wrote before count; the moves are one command */
	snapshot = push_current_snapshot();
	cid = GetCurrentCommandId(true);
	estate->es_output_cid = cid;

	for (int i = 0; i < ntargets; i++)
	{
		MoveInto   *into = &intos[i];

		into->target = targets[i];
		into->rel = table_open(targets[i].relid, NoLock);
		into->rri = makeNode(ResultRelInfo);
		InitResultRelInfo(into->rri, into->rel, 0, NULL, 0);
		ExecOpenIndices(into->rri, false);
		into->map = convert_tuples_by_name(RelationGetDescr(src),
										   RelationGetDescr(into->rel));
		into->bistate = GetBulkInsertState();
	}
	qsort(intos, ntargets, sizeof(MoveInto), compare_targets);

	scan = table_beginscan(src, snapshot, 0, NULL);
	row = table_slot_create(src, NULL);
	while (table_scan_getnextslot(scan, ForwardScanDirection, row))
	{
		bool		isnull;
		Datum		key = slot_getattr(row, keyatt, &isnull);
		PartmgrPoint point;
		MoveInto   *into;
		TupleTableSlot *slot;

		CHECK_FOR_INTERRUPTS();
		if (isnull)
			continue;
		point = partmgr_point_from_datum(&set->axis, key);
		if (point < lower || point >= upper)
			continue;
		into = target_of(intos, ntargets, point);
		if (into == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_CHECK_VIOLATION),
					 errmsg("a row of %s in the range being moved belongs to no new child of \"%s\"",
							RelationGetRelationName(src), set->key)));

		if (into->nbuffered == into->nslots)
			into->slots[into->nslots++] = table_slot_create(into->rel, NULL);
		slot = into->slots[into->nbuffered];
		if (into->map != NULL)
			execute_attr_map_slot(into->map->attrMap, row, slot);
		else
			ExecCopySlot(slot, row);
		ExecMaterializeSlot(slot);
		if (into->rel->rd_att->constr != NULL)
		{
			ResetPerTupleExprContext(estate);
			ExecConstraints(into->rri, slot, estate);
		}
		into->nbuffered++;
		into->bytes += ExecFetchSlotHeapTuple(slot, false, NULL)->t_len;
		simple_table_tuple_delete(src, &row->tts_tid, snapshot);
		moved++;
		if (into->nbuffered == batch || into->bytes >= MOVE_BUFFERED_BYTES)
			flush(into, estate, cid);
	}
	table_endscan(scan);
	ExecDropSingleTupleTableSlot(row);

	for (int i = 0; i < ntargets; i++)
	{
		MoveInto   *into = &intos[i];

		flush(into, estate, cid);
		for (int s = 0; s < into->nslots; s++)
			ExecDropSingleTupleTableSlot(into->slots[s]);
		FreeBulkInsertState(into->bistate);
		table_finish_bulk_insert(into->rel, 0);
		ExecCloseIndices(into->rri);
		table_close(into->rel, NoLock);
	}
	PopActiveSnapshot();
	table_close(src, NoLock);
	FreeExecutorState(estate);
	CommandCounterIncrement();
	return moved;
}

/* One bucket of partmgr_key_buckets: its number and the keys seen in it. */
typedef struct KeyBucket
{
	int64		number;			/* hash key */
	PartmgrPoint smallest;
	PartmgrPoint largest;
} KeyBucket;

/*
 * partmgr_key_buckets
 *		One scan of a table (ONLY it) that finds the children its rows
 *		belong in: the smallest and largest key (as points on the set's
 *		axis) of each bucket of keys, a bucket being one step of the grid of
 *		step through anchor -- the caller passes the shortest interval the
 *		set has had and maps both keys of each bucket to their child, so a
 *		bucket that straddles two children (around a daylight saving
 *		change) still names both.  Rows without a key are left out; so are
 *		infinite keys with finite_only, else each is a bucket of its own
 *		(the caller refuses them).  Returns the number of keys, in *keys
 *		(palloc'd, two per bucket), or -1 for a step of months and days,
 *		which has no regular buckets, and for a table Citus manages, whose
 *		rows are in its shards.  Takes ACCESS SHARE on the table,
 *		bounded; in the scope of the owner's rights.
 *
 *		What a GROUP BY over the keys would find, without computing a bucket
 *		for every row: consecutive rows mostly share one, which is kept.
 */
int
partmgr_key_buckets(const PartmgrSet *set, Oid source, PartmgrPoint anchor,
					const PartmgrStep *step, bool finite_only,
					PartmgrPoint **keys)
{
	const PartmgrAxis *axis = &set->axis;
	Relation	rel;
	AttrNumber	keyatt;
	TableScanDesc scan;
	TupleTableSlot *row;
	HASHCTL		ctl;
	HTAB	   *buckets;
	HASH_SEQ_STATUS seq;
	KeyBucket  *bucket = NULL;
	PartmgrPoint lo = 0;
	PartmgrPoint hi = 0;
	int			n = 0;
	int			size = 16;

	if (step->kind == PARTMGR_KEY_TIME && step->time.month != 0 &&
		(step->time.day != 0 || step->time.time != 0))
		return -1;
	/* a Citus table's rows are in its shards, not in what this scan reads */
	if (partmgr_citus_table(source))
		return -1;
	(void) partmgr_rights_require(PARTMGR_RIGHTS_ACT, "reading a table's keys");
	partmgr_lock_relation(source, AccessShareLock);
	rel = table_open(source, NoLock);
	keyatt = control_attnum(set, source);

	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(int64);
	ctl.entrysize = sizeof(KeyBucket);
	ctl.hcxt = CurrentMemoryContext;
	buckets = hash_create("pg_partmgr key buckets", 64, &ctl,
						  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	*keys = palloc(sizeof(PartmgrPoint) * size);

	scan = table_beginscan(rel, push_current_snapshot(), 0, NULL);
	row = table_slot_create(rel, NULL);
	while (table_scan_getnextslot(scan, ForwardScanDirection, row))
	{
		bool		isnull;
		Datum		value = slot_getattr(row, keyatt, &isnull);
		PartmgrPoint point;

		CHECK_FOR_INTERRUPTS();
		if (isnull)
			continue;
		point = partmgr_point_from_datum(axis, value);
		if (axis->kind == PARTMGR_KEY_TIME &&
			(point == PARTMGR_POINT_MIN || point == PARTMGR_POINT_MAX))
		{
			if (finite_only)
				continue;
			if (n + 2 > size)
				*keys = repalloc(*keys, sizeof(PartmgrPoint) * (size *= 2));
			(*keys)[n++] = point;
			(*keys)[n++] = point;
			continue;
		}
		if (bucket == NULL || point < lo || point >= hi)
		{
			int64		number = (int64) floor(partmgr_steps_between(axis,
																	 step,
																	 anchor,
																	 point));
			bool		found;

			lo = partmgr_point_add(axis, step, anchor, number);
			hi = partmgr_point_add(axis, step, anchor, number + 1);
			bucket = hash_search(buckets, &number, HASH_ENTER, &found);
			if (!found)
				bucket->smallest = bucket->largest = point;
		}
		if (point < bucket->smallest)
			bucket->smallest = point;
		if (point > bucket->largest)
			bucket->largest = point;
	}
	table_endscan(scan);
	PopActiveSnapshot();
	ExecDropSingleTupleTableSlot(row);
	table_close(rel, NoLock);

	hash_seq_init(&seq, buckets);
	while ((bucket = hash_seq_search(&seq)) != NULL)
	{
		if (n + 2 > size)
			*keys = repalloc(*keys, sizeof(PartmgrPoint) * (size *= 2));
		(*keys)[n++] = bucket->smallest;
		(*keys)[n++] = bucket->largest;
	}
	hash_destroy(buckets);
	return n;
}
