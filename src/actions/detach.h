/*-------------------------------------------------------------------------
 *
 * detach.h
 *	  DETACH ... CONCURRENTLY outside any transaction (see detach.c).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/actions/detach.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_DETACH_H
#define PARTMGR_DETACH_H

#include "plan.h"

extern void partmgr_retire_concurrently(const PartmgrPlan *plan,
										const PartmgrAction *action,
										const char *run_by, MemoryContext cxt);

#endif							/* PARTMGR_DETACH_H */
