/*-------------------------------------------------------------------------
 *
 * retention.h
 *	  Which children of a set have expired, and what happens to them.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/retention.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_RETENTION_H
#define PARTMGR_RETENTION_H

#include "catalog.h"
#include "plan.h"

/* A retention policy: how old a child may get, and what happens then. */
typedef struct PartmgrRetention
{
	PartmgrStep age;			/* an interval (time sets) or a distance (id
								 * sets) */
	PartmgrRetirement retire;
	bool		have_reference;
	TimestampTz reference;		/* "now" for time sets; default: transaction
								 * start */
	bool		quiet;			/* no WARNING for an expired last child kept:
								 * a plan that only says what would go */
} PartmgrRetention;

extern void partmgr_retention_parse(const PartmgrSet *set, const char *text,
									PartmgrStep *age);
extern void partmgr_retention_settings(const PartmgrSet *set,
									   PartmgrRetention *retention);
extern bool partmgr_retention_from_config(const PartmgrSet *set,
										  PartmgrRetention *retention);
extern void partmgr_retention_check_schema(const PartmgrSet *set,
										   const char *schema,
										   Oid role);
extern bool partmgr_time_child_expired(PartmgrPoint upper,
									   PartmgrPoint horizon);
extern bool partmgr_creation_horizon(const PartmgrSet *set, TimestampTz now,
									 PartmgrPoint *horizon);
extern PartmgrPlan *partmgr_plan_retention(PartmgrSet *set, PartmgrTree *tree,
										   const PartmgrRetention *retention,
										   TimestampTz now, int limit);
extern PartmgrTree *partmgr_tree_without_expired(PartmgrSet *set,
												 PartmgrTree *tree,
												 TimestampTz now);

#endif							/* PARTMGR_RETENTION_H */
