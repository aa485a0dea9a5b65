/*-------------------------------------------------------------------------
 *
 * mover.h
 *	  Moving rows from a table into new children in C, in one pass.  See
 *	  mover.c.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/mover.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_MOVER_H
#define PARTMGR_MOVER_H

#include "pg_partmgr.h"

/* A table rows move into, and the range of keys it takes. */
typedef struct PartmgrMoveTarget
{
	Oid			relid;
	PartmgrPoint lower;			/* inclusive */
	PartmgrPoint upper;			/* exclusive */
} PartmgrMoveTarget;

extern const char *partmgr_move_declined(Oid source,
										 const PartmgrMoveTarget *targets,
										 int ntargets);
extern int	partmgr_key_buckets(const PartmgrSet *set, Oid source,
								PartmgrPoint anchor,
								const PartmgrStep *step, bool finite_only,
								PartmgrPoint **keys);
extern uint64 partmgr_move_rows(const PartmgrSet *set, Oid source,
								const PartmgrMoveTarget *targets, int ntargets,
								PartmgrPoint lower, PartmgrPoint upper);

#endif							/* PARTMGR_MOVER_H */
