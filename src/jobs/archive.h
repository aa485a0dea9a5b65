/*-------------------------------------------------------------------------
 *
 * archive.h
 *	  Archive sets: where retention puts a set's expired children.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/archive.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_ARCHIVE_H
#define PARTMGR_ARCHIVE_H

#include "catalog.h"
#include "plan.h"
#include "retention.h"

extern void partmgr_archive_validate(const char *key, const char *archive);
extern PartmgrSet *partmgr_archive_load(const PartmgrSet *set);
extern List *partmgr_archive_problems(PartmgrSet *set);
extern char *partmgr_archive_fit(const PartmgrSet *set,
								 const PartmgrSet *archive,
								 const PartmgrTree *archive_tree,
								 const PartmgrChild *child);
extern PartmgrPlan *partmgr_plan_archive_children(PartmgrSet *archive,
												  const List *ranges);

extern bool partmgr_archive_retention(const PartmgrSet *set,
									  PartmgrRetention *retention);
extern void partmgr_archive_place(const PartmgrSet *set, PartmgrPlan *plan,
								  List *wait);
extern PartmgrPlan *partmgr_plan_archive_checks(PartmgrSet *set,
												PartmgrTree *tree,
												const PartmgrPlan *retire,
												List **wait);
extern PartmgrPlan *partmgr_plan_archive_moves(PartmgrSet *set,
											   PartmgrTree *tree,
											   const PartmgrPlan *retire,
											   List **ranges, List **wait);

#endif							/* PARTMGR_ARCHIVE_H */
