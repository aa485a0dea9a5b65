/*-------------------------------------------------------------------------
 *
 * citus.h
 *	  What a Citus cluster changes for pg_partmgr: which node this is,
 *	  which tables Citus manages, and the settings maintenance needs on
 *	  them.  See citus.c.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/citus.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_CITUS_H
#define PARTMGR_CITUS_H

/* What this node is to Citus. */
typedef enum PartmgrCitusNode
{
	PARTMGR_CITUS_NONE,			/* no citus extension in this database */
	PARTMGR_CITUS_COORDINATOR,	/* Citus's group 0: maintenance runs here */
	PARTMGR_CITUS_WORKER		/* a worker: its shards are the coordinator's */
} PartmgrCitusNode;

extern PartmgrCitusNode partmgr_citus_node(void);
extern bool partmgr_citus_table(Oid relid);
extern char *partmgr_citus_distribution_column(Oid relid);
extern char *partmgr_citus_reference_target(Oid relid);
extern bool partmgr_citus_sequential(Oid relid);
extern void partmgr_citus_propagate_set_local(void);
extern void partmgr_citus_refuse(Oid parent, const char *key, const char *what,
								 const char *why);
extern void partmgr_citus_report(Oid parent, const char *key,
								 int lock_timeout_ms);

#endif							/* PARTMGR_CITUS_H */
