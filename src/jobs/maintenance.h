/*-------------------------------------------------------------------------
 *
 * maintenance.h
 *	  The maintenance of one partition set (see maintenance.c).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/maintenance.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_MAINTENANCE_H
#define PARTMGR_MAINTENANCE_H

#include "catalog.h"
#include "plan.h"

/* What partmgr_maintain_set did with one set. */
typedef struct PartmgrSetOutcome
{
	int			created;		/* children created */
	int			retired;		/* children retired (not counting deferred) */
	PartmgrPlan *deferred_plan; /* the retention plan of deferred actions */
	List	   *deferred;		/* concurrent detaches to run after commit */
	bool		skipped;		/* undo in progress, or another run holds it */
	bool		not_permitted;	/* skipped: the caller lacks the owner's
								 * privileges (maintaining all sets) */
	bool		more;			/* children were left for the limit
								 * (pg_partmgr.children_per_transaction):
								 * maintaining it again in a new transaction
								 * goes on */
	ErrorData  *error;			/* why it stopped, or NULL */
	TimestampTz finished;		/* when it succeeded (for
								 * maintenance_last_run), or 0 */
	bool		to_validate;	/* derived constraints were added NOT VALID: a
								 * caller that can commit validates them in a
								 * transaction of their own
								 * (partmgr_validate_set) */
	bool		tiers;			/* the set has storage tiers: a caller that
								 * can commit carries its moves on */
} PartmgrSetOutcome;

/* How partmgr_maintain_set works on a set: the caller's choices. */
typedef struct PartmgrMaintainOptions
{
	const char *run_by;			/* who maintains it (maintenance_log) */
	bool		analyze;		/* ANALYZE the parent when children were made */
	bool		all_sets;		/* one of all sets: skip it quietly when the
								 * caller lacks its owner's privileges */
	bool		concurrent_detach;	/* retention detaches CONCURRENTLY where
									 * PostgreSQL allows it, after the caller
									 * has committed (outcome->deferred) */
	bool		lock_first;		/* take the set's advisory lock before looking
								 * (the caller's transaction goes on after the
								 * run), not only to act */
	bool		read_earlier;	/* the configuration passed was read in an
								 * earlier transaction: check it is still
								 * current (partmgr_config_reload) */
} PartmgrMaintainOptions;

/*
 * The steps of a set's maintenance, in the order a run takes them:
 * premake, derived constraints, the removal of global unique entries of
 * children gone, retention (last, so that its ACCESS EXCLUSIVE locks are
 * held the least).  A run plans each from the children as they are when it
 * gets there; the dry run (plan_maintenance) walks the same list, planning
 * each from the children the steps before would leave.  ANALYZE, which a
 * run takes after premake when asked and children were made, plans
 * nothing of its own and is not among them.
 */
typedef enum PartmgrStepKind
{
	PARTMGR_STEP_PREMAKE,
	PARTMGR_STEP_CONSTRAINTS,
	PARTMGR_STEP_UNIQUE_CLEANUP,
	PARTMGR_STEP_RETENTION,
	PARTMGR_STEP_TIERS
} PartmgrStepKind;

typedef struct PartmgrStepInput
{
	PartmgrSet *set;
	PartmgrTree *tree;			/* the children as the step finds them */
	TimestampTz now;
	bool		concurrent_detach;	/* retention: DETACH CONCURRENTLY where it
									 * can (the worker, after commit) */
	List	   *archive_wait;	/* retention: children (OIDs) kept for the
								 * next run, their bound CHECK for the archive
								 * added NOT VALID by this one (archive.c) */
} PartmgrStepInput;

typedef struct PartmgrMaintenanceStep
{
	PartmgrStepKind kind;
	const char *name;			/* in maintenance_log and plan_maintenance */
	bool		changes_tree;	/* the steps after it find the children it
								 * leaves */
	bool		(*applies) (const PartmgrSet *set);
	PartmgrPlan *(*plan) (const PartmgrStepInput *in);
} PartmgrMaintenanceStep;

extern const PartmgrMaintenanceStep partmgr_maintenance_steps[];
extern const int partmgr_maintenance_nsteps;
extern const char *partmgr_set_skip_reason(const PartmgrSet *set);

extern void partmgr_maintain_set(const char *key, PartmgrSet *read,
								 const PartmgrMaintainOptions *opts,
								 PartmgrSetOutcome *outcome);
extern ErrorData *partmgr_analyze_set(PartmgrSet *set, bool skip_locked,
									  const char *run_by,
									  bool raise);
extern void partmgr_validate_set(const char *key, const char *run_by,
								 PartmgrSetOutcome *outcome);

#endif							/* PARTMGR_MAINTENANCE_H */
