/*-------------------------------------------------------------------------
 *
 * tiers_state.h
 *	  partmgr.part_config_tier and part_config_archive: a set's storage
 *	  tiers and its archive set, as stored.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/tiers_state.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_TIERS_STATE_H
#define PARTMGR_TIERS_STATE_H

#include "nodes/pg_list.h"

/* One row of part_config_tier. */
typedef struct PartmgrTierRow
{
	char	   *name;
	char	   *older_than;		/* an interval or an amount, as written */
	char	   *tablespace;		/* a tablespace's name, as written */
} PartmgrTierRow;

extern List *partmgr_tier_rows(const char *key);
extern char *partmgr_archive_of(const char *key);

#endif							/* PARTMGR_TIERS_STATE_H */
