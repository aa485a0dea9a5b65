/*-------------------------------------------------------------------------
 *
 * execute.h
 *	  Carry out a plan: bounded lock acquisition, one subtransaction per
 *	  action, one LOG line per change.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/execute.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_EXECUTE_H
#define PARTMGR_EXECUTE_H

#include "storage/lockdefs.h"

#include "plan.h"

/* What partmgr_execute_plan did. */
typedef struct PartmgrExecResult
{
	int			ndone;			/* actions carried out */
	int			nskipped;		/* children skipped: default holds their rows */
	uint64		rows;			/* rows moved by the actions carried out */
	ErrorData  *error;			/* why execution stopped, or NULL */
	const PartmgrAction *failed;	/* the action that failed, or NULL */
	List	   *deferred;		/* actions to run after commit (concurrent
								 * detaches), see partmgr_retire_concurrently */
} PartmgrExecResult;

extern bool partmgr_in_worker;

extern void partmgr_lock_relation(Oid relid, LOCKMODE mode);
extern bool partmgr_try_lock_set(Oid parent_oid);
extern bool partmgr_run_subxact(void (*fn) (void *arg), void *arg,
								ErrorData **error);
extern void partmgr_execute_plan(const PartmgrPlan *plan, const char *run_by,
								 PartmgrExecResult *result);
extern void partmgr_retire_concurrently(const PartmgrPlan *plan,
										const PartmgrAction *action,
										const char *run_by, MemoryContext cxt);

#endif							/* PARTMGR_EXECUTE_H */
