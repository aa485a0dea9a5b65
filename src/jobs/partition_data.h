/*-------------------------------------------------------------------------
 *
 * partition_data.h
 *	  Moving rows: out of the default partition or a source table into the
 *	  right children (partition_data), and out of the children into a plain
 *	  table (undo_partition), one batch at a time.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/partition_data.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_PARTITION_DATA_H
#define PARTMGR_PARTITION_DATA_H

#include "catalog.h"
#include "plan.h"

/* A move of rows into a set, as partition_data asks for it. */
typedef struct PartmgrDataMove
{
	PartmgrRowSource source;	/* relid InvalidOid: nothing to move */
	bool		from_default;	/* the source is the set's default partition */
	PartmgrStep batch;			/* how much key range one batch covers */
	bool		descending;		/* newest rows first */
	bool		ignore_infinity;	/* rows keyed at +-infinity stay (time
									 * sets) */
} PartmgrDataMove;

/* An undo of a set into a plain table, as undo_partition asks for it. */
typedef struct PartmgrUndo
{
	Oid			target_oid;
	char	   *target_schema;
	char	   *target_name;
	List	   *columns;
	bool		have_batch;
	PartmgrStep batch;
	PartmgrRetirement retire;	/* what happens to emptied children */
} PartmgrUndo;

extern void partmgr_data_move_init(PartmgrSet *set, PartmgrTree *tree,
								   Oid source_oid, const char *batch_text,
								   bool descending, List *ignored,
								   PartmgrDataMove *move);
extern PartmgrPlan *partmgr_plan_data_batches(PartmgrSet *set,
											  PartmgrTree *tree,
											  const PartmgrDataMove *move,
											  int max_batches, int *nbatches,
											  bool *last);
extern int64 partmgr_count_rows(const char *schema, const char *name,
								bool only);
extern int64 partmgr_count_source_rows(const PartmgrSet *set,
									   const PartmgrDataMove *move);
extern void partmgr_undo_init(PartmgrSet *set, Oid target_oid,
							  const char *batch_text, bool keep_table,
							  bool drop_cascade, List *ignored,
							  PartmgrUndo *undo);
extern PartmgrPlan *partmgr_plan_undo_step(PartmgrSet *set, PartmgrTree *tree,
										   const PartmgrUndo *undo);

/* What a step of partition_data_async does. */
typedef enum PartmgrAsyncOutcome
{
	PARTMGR_ASYNC_NOTHING,		/* the default partition holds no row */
	PARTMGR_ASYNC_STARTED,		/* a child was made, unattached */
	PARTMGR_ASYNC_MOVED,		/* a batch was moved into it */
	PARTMGR_ASYNC_ATTACHED		/* it was attached */
} PartmgrAsyncOutcome;

extern void partmgr_async_init(PartmgrSet *set, PartmgrTree *tree,
							   const char *batch_text,
							   bool descending, List *ignored,
							   PartmgrDataMove *move);
extern PartmgrPlan *partmgr_plan_async_step(PartmgrSet *set, PartmgrTree *tree,
											const PartmgrDataMove *move,
											PartmgrAsyncOutcome *outcome,
											PartmgrPoint *lower);

#endif							/* PARTMGR_PARTITION_DATA_H */
