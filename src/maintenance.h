/*-------------------------------------------------------------------------
 *
 * maintenance.h
 *	  Child creation for one partition set: the initial children of
 *	  create_parent, premake, gap fill, explicit bounds; and the
 *	  maintenance run over many sets.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/maintenance.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_MAINTENANCE_H
#define PARTMGR_MAINTENANCE_H

#include "catalog.h"
#include "plan.h"

extern PartmgrPlan *partmgr_plan_initial(PartmgrSet *set, PartmgrTree *tree,
										 bool have_start, PartmgrPoint start,
										 bool with_default, TimestampTz now);
extern PartmgrPlan *partmgr_plan_premake(PartmgrSet *set, PartmgrTree *tree,
										 TimestampTz now, int limit);
extern PartmgrPlan *partmgr_plan_gap_fill(PartmgrSet *set, PartmgrTree *tree);
extern PartmgrPlan *partmgr_plan_explicit(PartmgrSet *set, PartmgrTree *tree,
										  const PartmgrPoint *lowers, int n);
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
	TimestampTz finished;		/* when it succeeded (for maintenance_last_run),
								 * or 0 */
	bool		to_validate;	/* derived constraints were added NOT VALID: a
								 * caller that can commit validates them in a
								 * transaction of their own
								 * (partmgr_validate_set) */
} PartmgrSetOutcome;

extern int	partmgr_execute_or_raise(const PartmgrPlan *plan, const char *run_by,
									 uint64 *rows);
extern PartmgrPoint partmgr_slot_lower(const PartmgrSet *set,
									   const PartmgrTree *tree,
									   PartmgrPoint value);
extern void partmgr_maintain_set(const char *key, PartmgrSet *read, bool analyze,
								 const char *run_by, bool all_sets,
								 PartmgrSetOutcome *outcome);
extern void partmgr_validate_set(const char *key, const char *run_by,
								 PartmgrSetOutcome *outcome);
extern void partmgr_report_more(const char *key);
extern void partmgr_report_set_failure(const char *key, const ErrorData *edata);
extern void partmgr_run_maintenance(const char *table_name, bool analyze,
									const char *run_by);

#endif							/* PARTMGR_MAINTENANCE_H */
