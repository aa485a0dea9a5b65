/*-------------------------------------------------------------------------
 *
 * catalog.h
 *	  What the system catalogs say about a partition set: table names,
 *	  the parent's partition key, and every child with its bounds; and of
 *	  any table, its extended statistics objects and key indexes.
 *
 * Reads catalogs through the syscache and index scans only (no SPI, no
 * locks on the tables described), so an idle maintenance pass costs no
 * query per child.  Bounds always come from pg_class.relpartbound, never
 * from child names.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/catalog.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_CATALOG_H
#define PARTMGR_CATALOG_H

#include "executor/tuptable.h"

#include "pg_partmgr.h"

/* The partitioning facts of a parent table. */
typedef struct PartmgrParentInfo
{
	Oid			relid;
	char	   *schema;
	char	   *name;
	char		relkind;
	Oid			owner;
	bool		ispartition;	/* a partition itself */
	bool		hastriggers;	/* pg_class.relhastriggers */
	char		strategy;		/* 0 when the table is not partitioned */
	int			nkeys;			/* number of partition key columns */
	AttrNumber	key_attnum;		/* first key column, 0 for an expression */
	Oid			key_type;
	const char *key_name;		/* its name when known already, or NULL */
	Oid			default_oid;	/* InvalidOid when there is none */
} PartmgrParentInfo;

/* One child of a partition set with its bounds on the set's axis. */
typedef struct PartmgrChild
{
	Oid			relid;
	char	   *schema;
	char	   *name;
	char		relkind;
	bool		detach_pending; /* DETACH ... CONCURRENTLY not finished */
	PartmgrPoint lower;			/* inclusive; PARTMGR_POINT_MIN for MINVALUE */
	PartmgrPoint upper;			/* exclusive; PARTMGR_POINT_MAX for MAXVALUE */
	int			modulus;		/* hash sets: FOR VALUES WITH (MODULUS, */
	int			remainder;		/* REMAINDER); lower and upper are then
								 * remainder and remainder + 1 */
} PartmgrChild;

/* Every child of a set, sorted by lower bound, and its default partition. */
typedef struct PartmgrTree
{
	int			nchildren;
	PartmgrChild *children;
	Oid			default_oid;
	char	   *default_schema;
	char	   *default_name;
} PartmgrTree;

extern Oid	partmgr_resolve_table(const char *name, bool missing_ok);
extern char *partmgr_names_key(const char *schema, const char *name);
extern char *partmgr_table_key(Oid relid);
extern Oid	partmgr_key_relid(const char *key);
extern bool partmgr_key_split(const char *key, char **schema, char **name);
extern char *partmgr_key_display(const char *key);
extern Oid	partmgr_rel_owner(Oid relid);
extern Oid	partmgr_foreign_owner(Oid relid, Oid owner);
extern void partmgr_read_parent(Oid relid, PartmgrParentInfo *info);
extern PartmgrTree *partmgr_read_tree(const PartmgrSet *set);
extern const PartmgrChild *partmgr_tree_find_overlap(const PartmgrTree *tree,
													 PartmgrPoint lower,
													 PartmgrPoint upper);
extern const PartmgrChild *partmgr_tree_find_child(const PartmgrTree *tree,
												   Oid relid);
extern List *partmgr_movable_columns(Oid relid, List *ignored);

/* An extended statistics object defined on a table (pg_statistic_ext). */
typedef struct PartmgrStatistics
{
	char	   *schema;			/* its schema's name */
	char	   *name;			/* stxname, unquoted */
	Oid			owner;
	char	   *kinds;			/* "ndistinct, dependencies", or NULL: only
								 * expression statistics */
	char	   *columns;		/* "a, (b || c)", as
								 * pg_get_statisticsobjdef_columns says */
	int			target;			/* stxstattarget; -1: the default */
} PartmgrStatistics;

extern List *partmgr_statistics_on(Oid relid);
extern List *partmgr_statistics_of(Oid relid);
extern void partmgr_index_flags(Oid relid, Oid *primary, Oid *replident);
extern List *partmgr_sub_parents_below(Oid relid);
extern int64 partmgr_total_bytes(Oid relid);
extern bool partmgr_slot_key(TupleTableSlot *slot, int ncols,
							 const AttrNumber *attnums,
							 const int16 *typlen, Datum *values);
extern void partmgr_add_hash_check(Oid relid, Oid parent, int modulus,
								   int remainder,
								   const char *conname);
extern List *partmgr_private_table_plan(Oid nspid, const char *name,
										Oid creator, Oid owner);
extern List *partmgr_private_table_sql(Oid relid);
extern bool partmgr_read_limits(const PartmgrSet *set, PartmgrPoint *lower,
								PartmgrPoint *upper);

#endif							/* PARTMGR_CATALOG_H */
