/*-------------------------------------------------------------------------
 *
 * properties.h
 *	  What a child gets that PostgreSQL does not carry over from the parent:
 *	  from the template table its persistence, storage parameters and
 *	  PRIMARY KEY / UNIQUE indexes the parent lacks; from the parent each
 *	  column's statistics target (CREATE TABLE ... LIKE copies its
 *	  compression and storage), its extended statistics, its replica
 *	  identity and, with inherit_privileges, its grants.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/properties.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_PROPERTIES_H
#define PARTMGR_PROPERTIES_H

#include "pg_partmgr.h"

/* A PRIMARY KEY or UNIQUE index to give a child. */
typedef struct PartmgrUniqueIndex
{
	bool		primary;
	char	   *columns;		/* "a, b", quoted: its key columns */
	char	   *definition;		/* "USING btree (a, b) WHERE ...", as
								 * pg_get_indexdef() ends */
	char	   *tablespace;		/* quoted, or NULL: the default */
	Oid			spcid;			/* its oid, or InvalidOid */
	bool		plain;			/* no expression and no predicate: building it
								 * evaluates nothing its owner wrote */
} PartmgrUniqueIndex;

/* The grants of one grantee on a table. */
typedef struct PartmgrGrant
{
	char	   *grantee;		/* a role name, or "PUBLIC" */
	char	   *privileges;		/* "INSERT, SELECT", sorted */
	bool		grantable;
} PartmgrGrant;

/* What a column of the parent gives the same column of a child. */
typedef struct PartmgrColumn
{
	char	   *name;			/* attname, unquoted */
	const char *compression;	/* "pglz", "lz4" or "default" */
	const char *storage;		/* "plain", "external", "extended", "main" */
	int			stattarget;		/* attstattarget; -1: the default */
} PartmgrColumn;

typedef struct PartmgrProperties
{
	Oid			template_oid;	/* InvalidOid: no template */
	bool		unlogged;		/* from the template */
	List	   *reloptions;		/* of char *: "fillfactor='70'", ... and
								 * "toast.autovacuum_enabled='false'", ... */
	List	   *unique_indexes; /* of PartmgrUniqueIndex *: the template's the
								 * parent lacks */
	bool		parent_has_primary; /* then the template's primary key becomes
									 * a unique index */
	char		replica_identity;	/* the parent's: 'd', 'f', 'n' or 'i' */
	PartmgrUniqueIndex *replica_index;	/* for 'i': its index */
	Oid			replica_index_oid;
	List	   *grants;			/* of PartmgrGrant *: the parent's (new
								 * children get them with inherit_privileges) */
	List	   *columns;		/* of PartmgrColumn *: the parent's */
	List	   *statistics;		/* of PartmgrStatistics * (catalog.h): the
								 * parent's */
} PartmgrProperties;

extern char *partmgr_template_name(const char *schema, const char *table);
extern Oid	partmgr_check_template(Oid parent, const char *template_table,
								   Oid relid);
extern void partmgr_drop_unused_template(const PartmgrSet *set);
extern void partmgr_read_properties(const PartmgrSet *set,
									PartmgrProperties *props);

/* How one existing child differs from what the parent and template say. */
typedef enum PartmgrDriftKind
{
	PARTMGR_DRIFT_OWNER,
	PARTMGR_DRIFT_GRANTS,
	PARTMGR_DRIFT_PERSISTENCE,
	PARTMGR_DRIFT_RELOPTIONS,
	PARTMGR_DRIFT_REPLICA_IDENTITY,
	PARTMGR_DRIFT_COMPRESSION,
	PARTMGR_DRIFT_STORAGE,
	PARTMGR_DRIFT_STATISTICS_TARGET,
	PARTMGR_DRIFT_EXTENDED_STATISTICS,
	PARTMGR_DRIFT_GLOBAL_UNIQUE /* a leaf without a global unique constraint's
								 * TRUNCATE trigger */
} PartmgrDriftKind;

typedef struct PartmgrDrift
{
	PartmgrDriftKind kind;
	const char *property;		/* "owner", "grants", ... */
	char	   *expected;
	char	   *actual;
	List	   *fix;			/* of char *: the statements that fix it; NIL
								 * when none can */
	List	   *caller_fix;		/* of char *: run before fix with the caller's
								 * rights: objects the owner may not create in
								 * the child's schema, made by the caller and
								 * given to the owner */
} PartmgrDrift;

extern List *partmgr_child_drift(const PartmgrSet *set,
								 const PartmgrProperties *props,
								 Oid child, bool grants);
extern List *partmgr_template_statements(const PartmgrSet *set,
										 const PartmgrProperties *props,
										 Oid child);

struct PartmgrPlan;
extern void partmgr_plan_table_properties(struct PartmgrPlan *plan);

/* what a child that replaces another gets of it (reshapes) */
extern List *partmgr_replacement_key_statements(Oid source, Oid key_index,
												const char *schema,
												const char *name,
												bool move);
extern List *partmgr_replacement_statements(Oid source, Oid target,
											const char *schema,
											const char *name,
											bool move);

#endif							/* PARTMGR_PROPERTIES_H */
