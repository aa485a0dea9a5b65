/*-------------------------------------------------------------------------
 *
 * unique.h
 *	  Global unique constraints: uniqueness of columns outside the
 *	  partition key across every child of a set, kept in a side table.
 *
 * A constraint is its triggers: an AFTER INSERT OR UPDATE OR DELETE row
 * trigger named after it on the set's top parent (PostgreSQL clones it to
 * every child), and an AFTER TRUNCATE statement trigger (<name>_truncate)
 * on every leaf.  Their arguments name the side table (schema, table) and
 * the key columns; the side table is called as the constraint and holds
 * one entry per row whose key has no NULL: the key and the child holding the row, under a unique btree on the
 * key.  Nothing else records a constraint, so pg_dump restores it whole.
 *
 * An entry whose child is no longer in the set (dropped or detached) no
 * longer counts: an insert that meets one removes it, and cleanup removes
 * the others in batches.
 *
 * See doc/global-unique.md.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/unique.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_UNIQUE_H
#define PARTMGR_UNIQUE_H

#include "commands/trigger.h"
#include "nodes/pg_list.h"
#include "utils/relcache.h"

/* longest constraint name: room for the "_truncate" suffix */
#define PARTMGR_UNIQUE_NAME_MAX		(NAMEDATALEN - 1 - 9)

/* entries of children no longer in a set that one maintenance run removes */
#define PARTMGR_UNIQUE_CLEANUP_PER_RUN	100000

/* new keys a statement's batch keeps before they are entered: how many, */
#define PARTMGR_UNIQUE_BATCH	10000
/* and how much memory they may take */
#define PARTMGR_UNIQUE_BATCH_BYTES	(8 * 1024 * 1024)

#define PARTMGR_UNIQUE_ROW_FUNCTION		"global_unique_row"

/* One constraint, as its triggers on the top parent say. */
typedef struct PartmgrUnique
{
	char	   *name;			/* constraint, trigger and side table */
	Oid			root;			/* the set's top parent */
	char		enabled;		/* pg_trigger.tgenabled of its trigger */
	char	   *side_schema;
	char	   *side_name;
	Oid			side;			/* InvalidOid when it is missing */
	int			ncols;
	char	  **columns;		/* key columns, in order */
} PartmgrUnique;

extern Oid	partmgr_unique_top(Oid relid);
extern bool partmgr_unique_in_set(Oid child, Oid root);
extern List *partmgr_unique_list(Relation root);
extern List *partmgr_unique_list_of(Oid root);
extern bool partmgr_unique_none(Oid root);
extern PartmgrUnique *partmgr_unique_find(Relation root, const char *name);
extern bool partmgr_unique_is_row_function(Oid fn);
extern Oid	partmgr_unique_owner(Oid relid);
extern Oid	partmgr_unique_row_function(void);
extern void partmgr_unique_check_side(const PartmgrUnique *u, Oid owner);
extern bool partmgr_unique_side_is_owners(const PartmgrUnique *u, Oid owner);

extern void partmgr_unique_row(TriggerData *trigdata);
extern int	partmgr_unique_batch_open(void);
extern void partmgr_unique_batch_close(int depth, bool enter);
extern void partmgr_unique_truncate(TriggerData *trigdata);

extern void partmgr_unique_fill(const PartmgrUnique *u, Oid table, bool attach);
extern List *partmgr_unique_children(const PartmgrUnique *u);
extern int64 partmgr_unique_count_of(const PartmgrUnique *u, Oid child);
extern int64 partmgr_unique_waiting(const PartmgrUnique *u);
extern void partmgr_unique_leaves_unguarded(const PartmgrUnique *u,
											int64 *no_truncate,
											int64 *disabled);
extern bool partmgr_unique_referenced(const PartmgrUnique *u);
extern void partmgr_unique_forget_child(const PartmgrUnique *u, Oid child);

#endif							/* PARTMGR_UNIQUE_H */
