/*-------------------------------------------------------------------------
 *
 * prefetch.h
 *	  What a maintenance run reads of the system catalogs at once: every
 *	  partitioned table and every partition, one scan per catalog, kept
 *	  exact by invalidations.  See prefetch.c.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/prefetch.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_PREFETCH_H
#define PARTMGR_PREFETCH_H

#include "nodes/parsenodes.h"

/* a partition as pg_inherits lists it under its parent */
typedef struct PartmgrKnownChild
{
	Oid			relid;
	bool		detach_pending;
} PartmgrKnownChild;

/*
 * One relation as the catalogs described it when the run read them: its
 * pg_class row, its bound (a partition), its pg_partitioned_table row, key
 * column and partitions (a partitioned table).  Read-only to callers, and
 * valid only until the next point where invalidations are taken in (a
 * lock, a new command): ask partmgr_prefetched again rather than keeping
 * the pointer.
 */
typedef struct PartmgrKnownRel
{
	Oid			relid;
	bool		stale;			/* invalidated since: not to be used */
	bool		filled;			/* its pg_class row was read */
	char	   *name;
	Oid			nspoid;
	Oid			owner;
	char		relkind;
	char		persistence;
	bool		ispartition;
	bool		hastriggers;
	Oid			filenode;
	Oid			tablespace;

	/* a partition whose bound is a range, a hash bound or the default */
	bool		bound_known;
	bool		is_default;
	char		bound_strategy;
	PartitionRangeDatumKind lower_kind;
	PartitionRangeDatumKind upper_kind;
	Datum		lower;			/* the first column's value, when a value */
	Datum		upper;
	int			modulus;
	int			remainder;

	/* a partitioned table */
	bool		partitioned;
	char		strategy;
	int			nkeys;
	AttrNumber	key_attnum;
	Oid			default_oid;
	char	   *key_name;		/* the key column's name and type, or NULL */
	Oid			key_type;		/* when not read (see read_keys) */
	int			nchildren;		/* its partitions, from pg_inherits */
	int			children_room;
	PartmgrKnownChild *children;
} PartmgrKnownRel;

extern bool partmgr_prefetch_begin(int nsets);
extern void partmgr_prefetch_end(void);
extern const PartmgrKnownRel *partmgr_prefetched(Oid relid);
extern Oid	partmgr_prefetched_relid(Oid nspoid, const char *name);

#endif							/* PARTMGR_PREFETCH_H */
