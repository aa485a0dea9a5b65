/*-------------------------------------------------------------------------
 *
 * tiers.h
 *	  Storage tiers: which tablespace a set's child belongs in, the moves
 *	  that put it there, and the checks of a tier's configuration (see
 *	  tiers.c).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/tiers.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_TIERS_H
#define PARTMGR_TIERS_H

#include "catalog.h"
#include "plan.h"

/* rows a step of a tier's move copies (run_reshape's default) */
#define PARTMGR_MOVE_BATCH_ROWS	100000

/* One tier of a set, read and checked. */
typedef struct PartmgrTier
{
	char	   *name;
	char	   *older_than;
	PartmgrStep age;
	char	   *tablespace;		/* as configured */
	Oid			spcid;			/* InvalidOid: it does not exist (any more) */
	bool		usable;			/* it exists and the owner may create there */
	PartmgrPoint horizon;		/* children with an upper bound older than
								 * this belong in it (partmgr_tiers_read) */
} PartmgrTier;

/* A set's tiers, and where they stand now. */
typedef struct PartmgrTiers
{
	List	   *tiers;			/* of PartmgrTier *, oldest horizon first */
	bool		have_horizons;	/* false: an id set without rows yet */
} PartmgrTiers;

extern bool partmgr_tiers_apply(const PartmgrSet *set);
extern PartmgrTiers *partmgr_tiers_read(PartmgrSet *set, PartmgrTree *tree,
										TimestampTz now);
extern const PartmgrTier *partmgr_tier_of(const PartmgrSet *set,
										  const PartmgrTiers *tiers,
										  PartmgrPoint upper);
extern PartmgrPlan *partmgr_plan_tiers(PartmgrSet *set, PartmgrTree *tree,
									   TimestampTz now);
extern void partmgr_tiers_place_new(PartmgrPlan *plan, TimestampTz now);
extern void partmgr_tier_validate(const char *key, const char *name,
								  const char *older_than,
								  const char *tablespace, const char *other);
extern List *partmgr_tier_problems(PartmgrSet *set);
extern bool partmgr_tiers_next_move(const char *key, int64 *id,
									char **op_key);

#endif							/* PARTMGR_TIERS_H */
