/*-------------------------------------------------------------------------
 *
 * reshape_state.h
 *	  partmgr.reshape_operation to and from C: the reshapes of children
 *	  registered and not finished (see reshape_state.c).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/reshape_state.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_RESHAPE_STATE_H
#define PARTMGR_RESHAPE_STATE_H

#include "datatype/timestamp.h"
#include "nodes/pg_list.h"

/* Where an operation stands (reshape_operation.phase). */
typedef enum PartmgrReshapePhase
{
	PARTMGR_RESHAPE_PLANNED,	/* registered, nothing built */
	PARTMGR_RESHAPE_COPY,		/* new children built, rows being copied */
	PARTMGR_RESHAPE_INDEX,		/* indexes and constraints being built */
	PARTMGR_RESHAPE_CATCH_UP,	/* captured changes applied until the swap */
	PARTMGR_RESHAPE_SWAPPED		/* swapped in; the old children, renamed, and
								 * the change log are dropped next */
} PartmgrReshapePhase;

/* One row of partmgr.reshape_operation. */
typedef struct PartmgrReshapeOp
{
	int64		id;
	char	   *key;			/* the set's part_config.parent_table */
	char	   *kind;			/* "split", "merge", "reshape", "hash split",
								 * "hash merge", "move", "hash move" */
	int			nsources;
	char	  **sources;		/* schema-qualified, quoted */
	int			ntargets;
	char	  **targets;		/* final names, in the parent's schema */
	char	  **bounds;			/* range: ntargets + 1 points as text; hash:
								 * "modulus/remainder" per target */
	char	   *interval;		/* the targets' interval (their era), or NULL:
								 * each its own width */
	char	   *format;			/* datetime_string of the targets' era */
	bool		aligned;		/* that era's grid is aligned (PartmgrEra) */
	char	   *tablespace;		/* a move's: where the child and its indexes
								 * go (a name), else NULL */
	PartmgrReshapePhase phase;
	int			copy_source;	/* the old child being copied */
	int64		copy_block;		/* and its next block to copy */
	Oid		   *copy_filenodes; /* each old child's relfilenode when the copy
								 * began, or NULL */
	int64		rows_copied;
	int64		rows_replayed;
	TimestampTz created_at;
	TimestampTz updated_at;
	char	   *last_error;		/* or NULL */
} PartmgrReshapeOp;

extern const char *partmgr_reshape_phase_name(PartmgrReshapePhase phase);
extern int64 partmgr_reshape_insert(const PartmgrReshapeOp *op);
extern List *partmgr_reshape_list(const char *key);
extern PartmgrReshapeOp *partmgr_reshape_load(int64 id, bool missing_ok);
extern PartmgrReshapeOp *partmgr_reshape_of_table(const char *key,
												  const char *table_key);
extern void partmgr_reshape_set_progress(const PartmgrReshapeOp *op);
extern void partmgr_reshape_set_error(int64 id, const char *error);
extern void partmgr_reshape_delete(int64 id);
extern bool partmgr_reshape_any(const char *key);
extern bool partmgr_reshape_drops_later(void);

#endif							/* PARTMGR_RESHAPE_STATE_H */
