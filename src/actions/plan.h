/*-------------------------------------------------------------------------
 *
 * plan.h
 *	  What maintenance will do to one partition set: an ordered list of
 *	  actions, computed by a job, worked out by work.c and carried out by
 *	  execute.c.
 *
 * Keeping "what" apart from "how" lets one executor handle locks,
 * transactions and logging for every job, and lets a plan be shown
 * without being run.  A plan holds everything its execution needs: what
 * the tables it creates get from the template and the parent, and how a
 * new child of a sub-partitioned set becomes a set of its own -- the job
 * that makes the plan fills that in (partmgr_plan_tables).  The executor
 * includes no job's header and keeps no hook or mode of its own: the one
 * piece of a job it runs inside an action, registering a new sub-parent
 * as a set (create_parent's work, in the same subtransaction as the child),
 * comes with the plan, as the function the job put there.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/actions/plan.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_PLAN_H
#define PARTMGR_PLAN_H

#include "catalog.h"
#include "statements.h"
#include "pg_partmgr.h"
#include "unique.h"

typedef enum PartmgrActionKind
{
	PARTMGR_ACTION_CREATE_CHILD,	/* create a table, attach it for a range */
	PARTMGR_ACTION_CREATE_DEFAULT,	/* create a table, attach it as DEFAULT */
	PARTMGR_ACTION_RETIRE_CHILD,	/* detach an expired child, then keep,
									 * move or drop it */
	PARTMGR_ACTION_FINALIZE_DETACH, /* finish an interrupted DETACH
									 * CONCURRENTLY */
	PARTMGR_ACTION_MOVE_ROWS,	/* move a range of rows from one table into
								 * another, in one statement */
	PARTMGR_ACTION_FILL_STAGED, /* move a range of rows of the default
								 * partition into the staged children, then
								 * attach them */
	PARTMGR_ACTION_ADD_CONSTRAINTS, /* add derived CHECK constraints to a
									 * child, NOT VALID */
	PARTMGR_ACTION_VALIDATE_CONSTRAINT, /* validate one of them */
	PARTMGR_ACTION_DROP_CONSTRAINTS,	/* drop derived CHECK constraints */
	PARTMGR_ACTION_ALTER_CHILD, /* make a child's properties what the set says */
	PARTMGR_ACTION_ATTACH_CHILD,	/* attach a child made unattached, after
									 * moving in the rows of its range the
									 * default partition still holds */
	PARTMGR_ACTION_UNIQUE_CLEANUP,	/* remove entries of children no longer in
									 * the set from a global unique side table
									 * (statements) */
	PARTMGR_ACTION_UNIQUE_CREATE,	/* make a global unique constraint: its
									 * side table, triggers, entries, indexes
									 * (action->unique) */
	PARTMGR_ACTION_UNIQUE_DROP, /* drop one: its triggers and side table */
	PARTMGR_ACTION_ANALYZE,		/* ANALYZE the parent: statistics of the whole
								 * partition tree */
	/* a reshape's steps (reshape.c), each on action->reshape */
	PARTMGR_ACTION_RESHAPE_PREPARE, /* create the change log and the staging
									 * table */
	PARTMGR_ACTION_RESHAPE_TARGET,	/* create one new child, unattached */
	PARTMGR_ACTION_RESHAPE_CAPTURE, /* start capturing the changes of one old
									 * child */
	PARTMGR_ACTION_RESHAPE_COPY,	/* copy blocks of an old child into the
									 * new ones */
	PARTMGR_ACTION_RESHAPE_REPLAY,	/* apply the captured changes */
	PARTMGR_ACTION_RESHAPE_RESTART, /* empty the new children and the log
									 * after a TRUNCATE of an old child */
	PARTMGR_ACTION_RESHAPE_FINISH,	/* give a new child the indexes,
									 * constraints and the rest of the old */
	PARTMGR_ACTION_RESHAPE_EXCLUDE, /* make the default partition prove it
									 * holds nothing of the range */
	PARTMGR_ACTION_RESHAPE_SWAP,	/* replace the old children by the new */
	PARTMGR_ACTION_RESHAPE_CANCEL,	/* drop what a reshape built */
	PARTMGR_ACTION_RESHAPE_DROP_OLD,	/* after the swap: drop the old
										 * children and the change log */
	PARTMGR_ACTION_REGISTER_MOVE	/* register the move of a child to the
									 * tablespace of its tier (the worker
									 * carries it out) */
} PartmgrActionKind;

/*
 * The tables one reshape works with (reshape.c fills it in): its working
 * tables in the parent's schema, the old children, the new ones and the
 * key that identifies a row in both.
 */
typedef struct PartmgrReshapeTables
{
	int64		id;				/* reshape_operation.operation_id */
	const char *schema;			/* the parent's, where everything lives */
	char	   *stage;			/* partitioned like the parent, routing rows
								 * into the new children */
	char	   *log;			/* the change log */
	char	   *trigger;		/* the capture trigger on each old child */
	char	   *exclusion;		/* the default partition's CHECK, or NULL */
	int			nsources;
	Oid		   *source_oids;
	char	  **source_schemas;
	char	  **source_names;
	List	   *columns;		/* of char *: the columns that travel */
	int			ntargets;
	char	  **work_names;		/* the new children while they are built */
	char	  **final_names;	/* and once swapped in */
	char	  **old_names;		/* the old children's once swapped out, until
								 * they are dropped (drop_later) */
	bool		drop_later;		/* the swap renames the old children, a step
								 * of its own drops them */
	PartmgrPoint *lowers;		/* range sets: their bounds */
	PartmgrPoint *uppers;
	int		   *moduli;			/* hash sets */
	int		   *remainders;
	bool		unlogged;		/* the old child's persistence, */
	List	   *reloptions;		/* storage parameters */
	Oid			tablespace;		/* and tablespace (a move's: the target) */
	const char *move_tablespace;	/* a move: where the new child and its
									 * indexes go (a name), else NULL */
	int			nkeys;			/* the key: a unique index of the old child */
	char	  **key_columns;
	char	  **key_types;		/* format_type with typmod and COLLATE */
	char	  **key_equals;		/* OPERATOR(schema.=) of each */
	Oid			default_oid;	/* range sets: the default partition */
	List	   *referenced;		/* of Oid: tables the set's foreign keys
								 * reference (ATTACH adopts the new children's
								 * keys, locking them) */
	TransactionId settled_xid;	/* the transaction of the last step: every row
								 * of the new children but those the swap
								 * replays was written by it or before */
} PartmgrReshapeTables;

/* What happens to a child once retention has detached it. */
typedef struct PartmgrRetirement
{
	bool		keep_table;		/* false: drop it */
	bool		keep_index;		/* false: drop its indexes */
	bool		keep_publication;	/* false: take it out of publications */
	char	   *schema;			/* move it there (implies keeping it) */
	bool		schema_by_caller;	/* the caller named it in the call: moved
									 * with the caller's rights, not the
									 * owner's */
	char	   *rename_to;		/* keep it under this name (implies keeping
								 * it, its indexes and publications) */
	bool		concurrently;	/* DETACH ... CONCURRENTLY (top level only) */
	bool		cascade;		/* drop with CASCADE (undo_partition) */
	PartmgrSet *archive;		/* move it into this set (archive.c) */
	char	   *archive_as;		/* with archive: attach it there as it is,
								 * under this name; NULL: move its rows there
								 * and drop it */
	bool		archive_check;	/* with archive_as: it has a valid CHECK of
								 * its bounds (PARTMGR_BOUND_CHECK), which
								 * spares ATTACH the scan and goes after */
} PartmgrRetirement;

typedef struct PartmgrAction
{
	PartmgrActionKind kind;
	char	   *schema;			/* schema of the table acted on */
	char	   *name;			/* table acted on */
	Oid			relid;			/* RETIRE, FINALIZE: the child */
	PartmgrPoint lower;			/* CREATE_CHILD, RETIRE: inclusive */
	PartmgrPoint upper;			/* CREATE_CHILD, RETIRE: exclusive */
	PartmgrRetirement retire;	/* RETIRE */
	PartmgrRowSource from;		/* CREATE_CHILD: fill from there first;
								 * MOVE_ROWS, FILL_STAGED: the source */
	bool		staged;			/* CREATE_CHILD: attach to the plan's staging
								 * table, for FILL_STAGED to fill */
	bool		unattached;		/* CREATE_CHILD: leave it unattached, behind
								 * its bound CHECK (partition_data_async) */
	char	   *to_schema;		/* MOVE_ROWS: the target table */
	char	   *to_name;
	List	   *constraints;	/* ADD, VALIDATE, DROP_CONSTRAINTS: names */
	List	   *checks;			/* ADD_CONSTRAINTS: the CHECK expression of
								 * each */
	List	   *statements;		/* ALTER_CHILD: of char *, what to run */
	List	   *caller_statements;	/* ALTER_CHILD: of char *, run first with
									 * the caller's rights: giving a table of
									 * another role to the owner, which only
									 * the caller may do */
	bool		gives_back;		/* ALTER_CHILD: caller_statements give the
								 * child, another role's, to the set's owner
								 * (work.c checks its owner otherwise) */
	List	   *index_sql;		/* CREATE_CHILD, CREATE_DEFAULT: of char *,
								 * the template's indexes for the new table */
	bool		skip_locked;	/* ANALYZE: (SKIP_LOCKED) */
	bool		plain_indexes;	/* none of them evaluates code of the owner's
								 * (no expression, no predicate) */
	List	   *property_sql;	/* CREATE_CHILD, CREATE_DEFAULT: of char *,
								 * what the template and the parent give the
								 * new table before it holds a row */
	List	   *statistics_sql; /* CREATE_CHILD, CREATE_DEFAULT: of char *,
								 * CREATE STATISTICS of the parent's extended
								 * statistics for the new table, run like its
								 * CREATE TABLE (both need CREATE on the
								 * schema), before property_sql */
	List	   *statistics_owner_sql;	/* of char *: for each, ALTER
										 * STATISTICS ... OWNER TO the
										 * parent's owner, run when the caller
										 * made them */
	int			modulus;		/* CREATE_CHILD of a hash set: its bounds */
	int			remainder;
	const PartmgrReshapeTables *reshape;	/* RESHAPE_*: the reshape */
	const struct PartmgrReshapeOp *move;	/* REGISTER_MOVE: the operation */
	const char *tier;			/* REGISTER_MOVE, CREATE_CHILD: the tier the
								 * child belongs to, or NULL */
	const char *tier_tablespace;	/* and its tablespace (CREATE_CHILD: made
									 * there, with its indexes) */
	int			index;			/* RESHAPE_TARGET, _FINISH: which new child;
								 * _CAPTURE, _COPY: which old one */
	int64		first_block;	/* RESHAPE_COPY: blocks [first, end) */
	int64		end_block;
	const PartmgrUnique *unique;	/* UNIQUE_CREATE, _DROP: the constraint;
									 * statements are the DDL before its
									 * entries are filled in, the side table's
									 * CREATE TABLE first (CREATE), or all of
									 * it (DROP), after_statements the DDL
									 * after, tables the tree's tables (locked
									 * SHARE ROW EXCLUSIVE) */
	List	   *after_statements;
	List	   *tables;
} PartmgrAction;

struct PartmgrPlan;

/*
 * Registers the partitioned child a CREATE_CHILD action has just made as a
 * set of its own, with its first children, as plan->sub says: the work of
 * create_parent, which the job that makes the plan supplies with it.
 */
typedef void (*PartmgrRegisterSubSet) (const struct PartmgrPlan *plan,
									   const PartmgrAction *action,
									   const char *run_by);

typedef struct PartmgrPlan
{
	PartmgrSet *set;
	PartmgrTree *tree;			/* children when the plan was made */
	List	   *actions;		/* of PartmgrAction *, in execution order */
	bool		moving_data;	/* partition_data: a new child takes every row
								 * of its range from the default partition,
								 * however many, and an action that fails is
								 * an error, never skipped */
	char	   *stage_name;		/* staged children: the partitioned table, in
								 * the parent's schema, that routes rows into
								 * them before they are attached */

	/*
	 * What the tables it creates get beyond CREATE TABLE (LIKE parent),
	 * filled in by the job that makes the plan (partmgr_plan_tables) once
	 * every action is in it: the executor reads, never computes, them.
	 */
	bool		tables_read;	/* filled in */
	bool		unlogged;		/* CREATE UNLOGGED (the template) */
	List	   *reloptions;		/* of char *: WITH (...) (the template) */
	struct PartmgrSubSpec *sub; /* how new children are partitioned in turn
								 * (part_config_sub), or NULL */
	const char *sub_start;		/* p_start_partition of the sub-sets made
								 * (create_sub_parent), or NULL */
	PartmgrRegisterSubSet register_sub_set; /* with sub: registers the new
											 * child as a set of its own */
	int			limit;			/* most children it may create, and most it
								 * may retire; 0: no limit */
	int			ncreated;		/* children it creates */
	int			nretired;		/* children it retires */
	bool		truncated;		/* a child was left out for the limit: more is
								 * left for another transaction */
} PartmgrPlan;

/* Outcome of asking for one child range. */
typedef enum PartmgrSlotResult
{
	PARTMGR_SLOT_ADDED,			/* a CREATE_CHILD action was appended */
	PARTMGR_SLOT_EXISTS,		/* a child with exactly this range exists */
	PARTMGR_SLOT_OVERLAP,		/* skipped, with a WARNING: would overlap */
	PARTMGR_SLOT_OUT_OF_RANGE,	/* lower bound beyond the key type */
	PARTMGR_SLOT_OUTSIDE_PARENT,	/* a sub-set's child outside the range its
									 * parent covers in the set above */
	PARTMGR_SLOT_LIMIT			/* the plan holds as many children as its
								 * limit allows */
} PartmgrSlotResult;

extern PartmgrPlan *partmgr_plan_new(PartmgrSet *set, PartmgrTree *tree);
extern PartmgrSlotResult partmgr_plan_add_child(PartmgrPlan *plan,
												PartmgrPoint lower,
												PartmgrPoint upper);
extern void partmgr_plan_add_move(PartmgrPlan *plan,
								  const PartmgrRowSource *from,
								  const char *to_schema, const char *to_name,
								  PartmgrPoint lower, PartmgrPoint upper);
extern List *partmgr_archive_sources(const PartmgrSet *set, Oid child);
extern void partmgr_plan_add_fill_staged(PartmgrPlan *plan,
										 const PartmgrRowSource *from,
										 PartmgrPoint lower,
										 PartmgrPoint upper);
extern void partmgr_plan_add_default(PartmgrPlan *plan);
extern PartmgrAction *partmgr_plan_add_on_child(PartmgrPlan *plan,
												PartmgrActionKind kind,
												const PartmgrChild *child);
extern bool partmgr_plan_add_retire(PartmgrPlan *plan,
									const PartmgrChild *child,
									const PartmgrRetirement *retire);
extern void partmgr_plan_add_analyze(PartmgrPlan *plan, bool skip_locked);
extern PartmgrPlan *partmgr_plan_unique_cleanup(PartmgrSet *set, int64 limit);
extern void partmgr_plan_add_unique(PartmgrPlan *plan, PartmgrActionKind kind,
									const PartmgrUnique *u, List *tables,
									List *statements,
									List *after_statements);
extern void partmgr_plan_add_finalize(PartmgrPlan *plan,
									  const PartmgrChild *child);
extern void partmgr_plan_add_attach(PartmgrPlan *plan,
									const PartmgrRowSource *from,
									const char *schema, const char *name,
									Oid relid,
									PartmgrPoint lower, PartmgrPoint upper);
extern PartmgrAction *partmgr_plan_add_reshape(PartmgrPlan *plan,
											   PartmgrActionKind kind,
											   const PartmgrReshapeTables *reshape,
											   const char *schema,
											   const char *name,
											   int index);
extern PartmgrTree *partmgr_tree_after(const PartmgrTree *tree,
									   const PartmgrPlan *plan);
extern char *partmgr_child_name(const PartmgrSet *set, PartmgrPoint lower);
extern char *partmgr_hash_child_name(const PartmgrSet *set, int modulus,
									 int remainder);
extern bool partmgr_plan_add_hash_child(PartmgrPlan *plan, int modulus,
										int remainder);
extern const char *partmgr_action_name(const PartmgrAction *action);
extern char *partmgr_action_bounds(const PartmgrPlan *plan,
								   const PartmgrAction *action);

#endif							/* PARTMGR_PLAN_H */
