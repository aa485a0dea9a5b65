/*-------------------------------------------------------------------------
 *
 * children.h
 *	  Which children a partition set needs (see children.c).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/children.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_CHILDREN_H
#define PARTMGR_CHILDREN_H

#include "catalog.h"
#include "plan.h"

extern PartmgrPlan *partmgr_plan_initial(PartmgrSet *set, PartmgrTree *tree,
										 bool have_start, PartmgrPoint start,
										 int64 offset, bool with_default,
										 TimestampTz now);
extern PartmgrPlan *partmgr_plan_premake(PartmgrSet *set, PartmgrTree *tree,
										 TimestampTz now, int limit);
extern PartmgrPlan *partmgr_plan_gap_fill(PartmgrSet *set, PartmgrTree *tree);
extern PartmgrPlan *partmgr_plan_hash_initial(PartmgrSet *set,
											  PartmgrTree *tree);
extern PartmgrPlan *partmgr_plan_explicit(PartmgrSet *set, PartmgrTree *tree,
										  const PartmgrPoint *lowers, int n);
extern PartmgrPoint partmgr_slot_lower(const PartmgrSet *set,
									   const PartmgrTree *tree,
									   PartmgrPoint value);

#endif							/* PARTMGR_CHILDREN_H */
