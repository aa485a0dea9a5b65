/*-------------------------------------------------------------------------
 *
 * setup.h
 *	  Register a partition set (create_parent's work).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/setup.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_SETUP_H
#define PARTMGR_SETUP_H

#include "config.h"
#include "pg_partmgr.h"
#include "plan.h"

/*
 * Where a sub-parent made before it is attached will be: the table above
 * and, for a range parent, the range it will cover there, keyed by control.
 */
typedef struct PartmgrSubLimits
{
	Oid			above;
	bool		ranged;			/* lower and upper hold the range */
	const char *control;
	PartmgrPoint lower;
	PartmgrPoint upper;
} PartmgrSubLimits;

extern void partmgr_check_owner(Oid relid, const char *name);
extern void partmgr_check_create_args(const PartmgrCreateArgs *args);
extern PartmgrSet *partmgr_create_set(const PartmgrCreateArgs *args,
									  const PartmgrSubLimits *within,
									  const char *run_by);
extern void partmgr_plan_tables(PartmgrPlan *plan);
extern PartmgrSet *partmgr_create_sub_set(const PartmgrSubSpec *spec,
										  const char *table,
										  const char *start,
										  const PartmgrSubLimits *within,
										  const char *run_by);

#endif							/* PARTMGR_SETUP_H */
