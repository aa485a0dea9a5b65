/*-------------------------------------------------------------------------
 *
 * execute.h
 *	  Carry out a plan: one subtransaction per action, one LOG line and one
 *	  maintenance_log row per action.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/actions/execute.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_EXECUTE_H
#define PARTMGR_EXECUTE_H

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

extern void partmgr_execute_plan(const PartmgrPlan *plan, const char *run_by,
								 PartmgrExecResult *result);
extern void partmgr_report_done(const PartmgrPlan *plan,
								const PartmgrAction *action,
								uint64 rows, const char *rows_from,
								bool concurrently);
extern bool partmgr_explain_failure(const PartmgrPlan *plan,
									const PartmgrAction *action,
									ErrorData *edata);
extern int	partmgr_execute_or_raise(const PartmgrPlan *plan,
									 const char *run_by,
									 uint64 *rows);

#endif							/* PARTMGR_EXECUTE_H */
