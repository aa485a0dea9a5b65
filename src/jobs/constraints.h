/*-------------------------------------------------------------------------
 *
 * constraints.h
 *	  Derived constraints: CHECK constraints computed from the rows of
 *	  children that stopped changing, on the columns of constraint_cols, so
 *	  that the planner can skip those children for predicates on columns
 *	  other than the partition key.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/constraints.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_CONSTRAINTS_H
#define PARTMGR_CONSTRAINTS_H

#include "catalog.h"
#include "plan.h"

/* Prefix of the names of derived constraints (pg_partman's). */
#define PARTMGR_CONSTRAINT_PREFIX	"partmanconstr_"

/*
 * At most this many children of a set get constraints in one maintenance pass.
 */
#define PARTMGR_CONSTRAINT_CHILDREN_PER_PASS	10

/* Which children a constraint plan looks at. */
typedef enum PartmgrConstraintScope
{
	PARTMGR_CONSTRAIN_PASS,		/* a maintenance pass: the newest eligible
								 * children, capped; NOT VALID constraints
								 * validated first */
	PARTMGR_CONSTRAIN_ELIGIBLE, /* every eligible child */
	PARTMGR_CONSTRAIN_VALIDATE	/* only validate NOT VALID constraints */
} PartmgrConstraintScope;

extern void partmgr_check_constraint_cols(Oid parent, const char *control,
										  List *columns);
extern List *partmgr_eligible_children(const PartmgrSet *set,
									   const PartmgrTree *tree);
extern PartmgrPlan *partmgr_plan_constraints(PartmgrSet *set, PartmgrTree *tree,
											 PartmgrConstraintScope scope);
extern void partmgr_plan_child_constraints(PartmgrPlan *plan,
										   const PartmgrChild *child,
										   bool validate);
extern void partmgr_plan_child_validations(PartmgrPlan *plan,
										   const PartmgrChild *child);
extern void partmgr_plan_drop_constraints(PartmgrPlan *plan,
										  const PartmgrChild *child);

#endif							/* PARTMGR_CONSTRAINTS_H */
