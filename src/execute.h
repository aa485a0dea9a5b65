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

/* How an action will be carried out: see partmgr_action_work. */
typedef struct PartmgrWorkLock
{
	Oid			relid;
	LOCKMODE	mode;
} PartmgrWorkLock;

typedef enum PartmgrStatementKind
{
	PARTMGR_STMT_UTILITY,		/* DDL */
	PARTMGR_STMT_CALLER_UTILITY,	/* DDL with the caller's rights: a new
									 * table, for an owner that may not
									 * create it (see work_new_table) */
	PARTMGR_STMT_MOVE,			/* one statement that moves rows */
	PARTMGR_STMT_COPY,			/* copies rows ... */
	PARTMGR_STMT_DELETE,		/* ... then deletes as many from the source */
	PARTMGR_STMT_VALIDATE,		/* VALIDATE CONSTRAINT of a derived constraint */
	PARTMGR_STMT_SUB_SET,		/* register the new child as a set of its own
								 * (partmgr_sub_set_hook) */
	PARTMGR_STMT_FORGET			/* DELETE part_config rows of sub-sets */
} PartmgrStatementKind;

typedef struct PartmgrWorkStatement
{
	char	   *sql;
	PartmgrStatementKind kind;
	const char *rows_from;		/* MOVE, COPY, DELETE: the source */
	List	   *keys;			/* FORGET: the sets */
} PartmgrWorkStatement;

typedef struct PartmgrActionWork
{
	bool		take_locks;		/* take each lock as it is listed (a run) */
	List	   *locks;			/* of PartmgrWorkLock *, in the order taken */
	List	   *statements;		/* of PartmgrWorkStatement *, in order */
	List	   *reads;			/* of char *: "table: why" for each table read
								 * in full */
	const char *skip;			/* why a run would skip the action, or NULL */
} PartmgrActionWork;

extern bool partmgr_in_worker;

/*
 * Registers a new child of a sub-partitioned set as a set of its own, with
 * its first children (setup.c sets it at load: registering is
 * create_parent's work, a layer above this one).
 */
typedef void (*PartmgrSubSetHook) (const PartmgrPlan *plan, const PartmgrAction *action,
								   const char *run_by);
extern PartmgrSubSetHook partmgr_sub_set_hook;

extern void partmgr_lock_relation(Oid relid, LOCKMODE mode);
extern bool partmgr_try_lock_set(Oid parent_oid);
extern bool partmgr_run_subxact(void (*fn) (void *arg), void *arg,
								ErrorData **error);
extern const char *partmgr_lock_mode_name(LOCKMODE mode);
extern void partmgr_action_work(const PartmgrPlan *plan, const PartmgrAction *action,
								PartmgrActionWork *work);
extern void partmgr_execute_plan(const PartmgrPlan *plan, const char *run_by,
								 PartmgrExecResult *result);
extern void partmgr_retire_concurrently(const PartmgrPlan *plan,
										const PartmgrAction *action,
										const char *run_by, MemoryContext cxt);

#endif							/* PARTMGR_EXECUTE_H */
