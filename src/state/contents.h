/*-------------------------------------------------------------------------
 *
 * contents.h
 *	  What the tables of a set hold: whether a child has rows, its largest
 *	  key value, the newest child holding rows.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/contents.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_CONTENTS_H
#define PARTMGR_CONTENTS_H

#include "catalog.h"

extern bool partmgr_has_no_blocks(Oid relid);
extern bool partmgr_child_has_rows(const PartmgrChild *child);
extern bool partmgr_max_control(const PartmgrSet *set, const char *schema,
								const char *name, bool only,
								PartmgrPoint *result);
extern const PartmgrChild *partmgr_newest_child_with_rows(const PartmgrTree *tree);

#endif							/* PARTMGR_CONTENTS_H */
