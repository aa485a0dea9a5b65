/*-------------------------------------------------------------------------
 *
 * reshape.h
 *	  Reshaping children online: which children replace which, and the
 *	  next step of a reshape as a plan (see reshape.c).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/reshape.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_RESHAPE_H
#define PARTMGR_RESHAPE_H

#include "catalog.h"
#include "plan.h"
#include "reshape_state.h"

/* What a caller asks for. */
typedef struct PartmgrReshapeRequest
{
	const char *kind;			/* "split", "merge", "hash split", "hash
								 * merge", "reshape", "move", "hash move" */
	int			nsources;
	Oid		   *sources;		/* the children to replace */
	const char *interval;		/* split: into children of this interval */
	List	   *bounds;			/* of char *, split: at these bounds */
	const char *tablespace;		/* move: into this tablespace (its name) */
} PartmgrReshapeRequest;

/* The kinds of step of a reshape (one transaction each). */
typedef enum PartmgrReshapeStep
{
	PARTMGR_RESHAPE_STEP_BUILD, /* working tables, new children, capture */
	PARTMGR_RESHAPE_STEP_COPY,	/* a batch of blocks copied */
	PARTMGR_RESHAPE_STEP_COPIED,	/* every block copied (no action) */
	PARTMGR_RESHAPE_STEP_RESTART,	/* copying again after a TRUNCATE */
	PARTMGR_RESHAPE_STEP_INDEX, /* changes applied, indexes and the rest built */
	PARTMGR_RESHAPE_STEP_EXCLUDE,	/* the default's CHECK added */
	PARTMGR_RESHAPE_STEP_VALIDATE,	/* and validated */
	PARTMGR_RESHAPE_STEP_REPLAY,	/* captured changes applied */
	PARTMGR_RESHAPE_STEP_SWAP,	/* the new children swapped in */
	PARTMGR_RESHAPE_STEP_DROP_OLD	/* the old ones and the log dropped */
} PartmgrReshapeStep;

/* What one step of an operation did (partmgr_reshape_run_step). */
typedef struct PartmgrReshapeStepRun
{
	PartmgrReshapeStep step;
	bool		finished;		/* the operation is over, or was undone
								 * meanwhile */
	uint64		rows;			/* what the step counted */
	int64		rows_copied;	/* the operation's totals */
	int64		rows_replayed;
	int64		bytes;			/* a copy step: the old child's blocks it
								 * read, in bytes */
} PartmgrReshapeStepRun;

/* longest list of children one reshape makes */
#define PARTMGR_RESHAPE_MAX_TARGETS	1000

extern PartmgrReshapeOp *partmgr_reshape_register(PartmgrSet *set,
												  PartmgrTree *tree,
												  const PartmgrReshapeRequest *req);
extern PartmgrReshapeOp *partmgr_reshape_prepare(PartmgrSet *set,
												 PartmgrTree *tree,
												 const PartmgrReshapeRequest *req);
extern List *partmgr_reshape_runs(PartmgrSet *set, PartmgrTree *tree,
								  PartmgrPoint upper,
								  const char *interval);
extern bool partmgr_reshape_same_request(const PartmgrSet *set,
										 PartmgrTree *tree,
										 const PartmgrReshapeOp *op,
										 const PartmgrReshapeRequest *req);
extern PartmgrPlan *partmgr_plan_reshape_step(PartmgrSet *set,
											  PartmgrTree *tree,
											  PartmgrReshapeOp *op,
											  int64 batch_rows,
											  int64 max_blocks,
											  PartmgrReshapeStep *step);
extern bool partmgr_reshape_step_done(PartmgrSet *set, PartmgrTree *tree,
									  PartmgrReshapeOp *op,
									  PartmgrReshapeStep step,
									  const PartmgrPlan *plan, uint64 rows);
extern PartmgrPlan *partmgr_plan_reshape_final(PartmgrSet *set,
											   PartmgrTree *tree,
											   const PartmgrReshapeOp *op);
extern PartmgrPlan *partmgr_plan_reshape_cancel(PartmgrSet *set,
												PartmgrTree *tree,
												const PartmgrReshapeOp *op);
extern const char *partmgr_reshape_step_name(PartmgrReshapeStep step);
extern bool partmgr_in_tablespace(Oid relid, Oid spcid);
extern bool partmgr_owner_may_create_in(const PartmgrSet *set, Oid spcid);
extern void partmgr_check_owner_tablespace(const PartmgrSet *set,
										   const char *tablespace,
										   const char *detail);
extern bool partmgr_reshape_is_move(const PartmgrReshapeOp *op);
extern void partmgr_reshape_record_error(int64 id, const ErrorData *edata);
extern void partmgr_reshape_run_step(const char *key, int64 id,
									 int64 batch_rows, int64 max_bytes,
									 const char *run_by,
									 PartmgrReshapeStepRun *out);
extern void partmgr_check_no_reshape(const PartmgrSet *set, const char *what);

#endif							/* PARTMGR_RESHAPE_H */
