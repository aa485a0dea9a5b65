/*-------------------------------------------------------------------------
 *
 * log.h
 *	  The maintenance log: one row of partmgr.maintenance_log per action
 *	  taken, and per set that could not be maintained.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/log.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_LOG_H
#define PARTMGR_LOG_H

#include "datatype/timestamp.h"

/* How an action ended. */
typedef enum PartmgrOutcome
{
	PARTMGR_OUTCOME_DONE,
	PARTMGR_OUTCOME_SKIPPED,	/* left for the next run (locks, default rows) */
	PARTMGR_OUTCOME_FAILED
} PartmgrOutcome;

extern void partmgr_log_action(const char *parent_key, const char *run_by,
							   const char *action, const char *object,
							   const char *detail, TimestampTz started,
							   PartmgrOutcome outcome, const ErrorData *error);
extern void partmgr_log_action_sql(const char *parent_key, const char *run_by,
								   const char *action, const char *object,
								   const char *detail, TimestampTz started,
								   PartmgrOutcome outcome, const ErrorData *error,
								   List *statements);
extern uint64 partmgr_log_prune(int days);

#endif							/* PARTMGR_LOG_H */
