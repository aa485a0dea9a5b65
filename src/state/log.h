/*-------------------------------------------------------------------------
 *
 * log.h
 *	  The maintenance log: one row of partmgr.maintenance_log per action
 *	  taken, and per set that could not be maintained; and what it says of
 *	  each set, read back for the health view.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/log.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_LOG_H
#define PARTMGR_LOG_H

#include "datatype/timestamp.h"
#include "utils/hsearch.h"

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
								   PartmgrOutcome outcome,
								   const ErrorData *error,
								   List *statements);

/* The rows of one set's actions, written by one statement. */
typedef struct PartmgrLogBatch
{
	const char *parent_key;
	const char *run_by;
	List	   *rows;			/* of log.c's rows, in order */
} PartmgrLogBatch;

extern void partmgr_log_batch_init(PartmgrLogBatch *batch,
								   const char *parent_key,
								   const char *run_by);
extern void partmgr_log_batch_add(PartmgrLogBatch *batch, const char *action,
								  const char *object, const char *detail,
								  TimestampTz started, PartmgrOutcome outcome,
								  const ErrorData *error, List *statements);
extern void partmgr_log_batch_write(PartmgrLogBatch *batch);
extern uint64 partmgr_log_prune(int days);

/*
 * What the maintenance log says of one set, for the health view: the
 * latest action that did not end "done", and the latest two runs that
 * created children (partmgr_log_read_facts).
 */
typedef struct PartmgrLogFacts
{
	char	   *error;			/* "SQLSTATE: message" (or the action) of the
								 * latest failure or skip, or NULL */
	char	   *error_outcome;	/* its outcome word: "failed" or "skipped" */
	TimestampTz error_at;		/* when it finished */
	TimestampTz created[2];		/* the latest two runs that made children,
								 * newest first */
	int			ncreated;		/* how many of created[] are set */
	int64		latest_children;	/* how many the newest of them made */
} PartmgrLogFacts;

extern HTAB *partmgr_log_read_facts(void);
extern PartmgrLogFacts *partmgr_log_find_facts(HTAB *facts, const char *key);

#endif							/* PARTMGR_LOG_H */
