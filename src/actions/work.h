/*-------------------------------------------------------------------------
 *
 * work.h
 *	  How an action of a plan is carried out (see work.c).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/actions/work.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_WORK_H
#define PARTMGR_WORK_H

#include "storage/lockdefs.h"

#include "mover.h"
#include "plan.h"

/* How an action will be carried out: see partmgr_action_work. */
typedef struct PartmgrWorkLock
{
	Oid			relid;
	LOCKMODE	mode;
	bool		queued;			/* asked for in the lock queue once half of
								 * pg_partmgr.lock_timeout has passed (see
								 * partmgr_lock_relation_queued) */
} PartmgrWorkLock;

typedef enum PartmgrStatementKind
{
	PARTMGR_STMT_UTILITY,		/* DDL */
	PARTMGR_STMT_CALLER_UTILITY,	/* DDL with the caller's rights: a new
									 * table, for an owner that may not create
									 * it (see work_new_table) */
	PARTMGR_STMT_MOVE,			/* one statement that moves rows */
	PARTMGR_STMT_COPY,			/* copies rows ... */
	PARTMGR_STMT_DELETE,		/* ... then deletes as many from the source */
	PARTMGR_STMT_VALIDATE,		/* VALIDATE CONSTRAINT of a derived constraint */
	PARTMGR_STMT_SUB_SET,		/* register the new child as a set of its own
								 * (plan->register_sub_set) */
	PARTMGR_STMT_FORGET,		/* DELETE part_config rows of sub-sets */
	PARTMGR_STMT_UNIQUE_FORGET, /* DELETE a retired child's entries from a
								 * global unique side table a foreign key
								 * references */
	PARTMGR_STMT_ROWS,			/* a statement on rows of a reshape's tables
								 * (expected says its SPI_OK_* code) */
	PARTMGR_STMT_HASH_CHECK,	/* the CHECK a new child of a hash set is
								 * attached behind, added in C (see
								 * partmgr_add_hash_check): sql says it */
	PARTMGR_STMT_UNIQUE_FILL,	/* enter the keys of every row of the set into
								 * a new side table, then add its unique key
								 * (partmgr_unique_fill): sql says it */
	PARTMGR_STMT_REGISTER_MOVE, /* register a move (move): sql says it */
	PARTMGR_STMT_COUNT_ARCHIVE, /* count an archive's rows of the action's
								 * range: before its rows move, and after,
								 * when the count must have grown by the rows
								 * moved */
	PARTMGR_STMT_SIZE,			/* the bytes of a table with its indexes (and
								 * TOAST), for the log row */
	PARTMGR_STMT_PRIVATE		/* leave a table of pg_partmgr's own with its
								 * owner's privileges alone: sql says what
								 * default privileges give it, the run revokes
								 * what it has (see partmgr_private_table_sql) */
} PartmgrStatementKind;

typedef struct PartmgrWorkStatement
{
	char	   *sql;
	PartmgrStatementKind kind;
	const char *rows_from;		/* MOVE, COPY, DELETE: the source */
	List	   *keys;			/* FORGET: the sets */
	const PartmgrUnique *unique;	/* UNIQUE_FILL: the constraint */
	const struct PartmgrReshapeOp *move;	/* REGISTER_MOVE: the operation */
	int			expected;		/* ROWS: SPI_OK_INSERT, _UPDATE, _DELETE */
	const char *counted_as;		/* ROWS: the rows it touches are the action's,
								 * in these words ("rows copied"), or NULL */
	char	   *on_duplicate;	/* ROWS: run instead when sql fails on a
								 * unique violation (sql runs in a
								 * subtransaction then), or NULL */
	const char *schema;			/* HASH_CHECK, PRIVATE: the table; MOVE, COPY,
								 * DELETE: the target, */
	const char *name;
	Oid			parent;			/* the parent it will be attached to, */
	int			modulus;		/* and its bounds there */
	int			remainder;

	/*
	 * COPY of a staged fill: the move mover.c makes in one pass, with the
	 * DELETE that follows, when it does not decline
	 */
	Oid			move_source;
	PartmgrMoveTarget *move_targets;
	int			move_ntargets;
	PartmgrPoint move_lower;
	PartmgrPoint move_upper;
} PartmgrWorkStatement;

typedef struct PartmgrActionWork
{
	bool		take_locks;		/* take each lock as it is listed (a run) */
	List	   *locks;			/* of PartmgrWorkLock *, in the order taken */
	List	   *statements;		/* of PartmgrWorkStatement *, in order */
	List	   *reads;			/* of char *: "table: why" for each table read
								 * in full */
	const char *skip;			/* why a run would skip the action, or NULL */
	Oid			owner;			/* the set's owner (partmgr_action_work) */
	const char *refused;		/* why a run would refuse the action (a dry
								 * run's), or NULL */
} PartmgrActionWork;

extern void partmgr_action_work(const PartmgrPlan *plan,
								const PartmgrAction *action,
								PartmgrActionWork *work);
extern void partmgr_work_unique_forget(PartmgrActionWork *work, Oid parent,
									   Oid child);
extern void partmgr_work_retire(PartmgrActionWork *work,
								const PartmgrAction *action);

#endif							/* PARTMGR_WORK_H */
