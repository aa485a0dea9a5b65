/*-------------------------------------------------------------------------
 *
 * locks.h
 *	  Bounded, conditional table locks; the per-set advisory lock;
 *	  subtransactions.  See locks.c.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/locks.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_LOCKS_H
#define PARTMGR_LOCKS_H

#include "datatype/timestamp.h"
#include "storage/lockdefs.h"

extern void partmgr_lock_relation(Oid relid, LOCKMODE mode);
extern int	partmgr_lock_relations_in_order(const Oid *relids, int n,
											LOCKMODE mode);
extern void partmgr_lock_unavailable(Oid relid, LOCKMODE mode);
extern char *partmgr_lock_holders(Oid relid, LOCKMODE mode, int *count);
extern bool partmgr_lock_relation_briefly(Oid relid, LOCKMODE mode);
extern void partmgr_lock_relation_queued(Oid relid, LOCKMODE mode);
extern bool partmgr_try_lock_set(Oid parent_oid);
extern void partmgr_lock_set_or_raise(Oid parent_oid, const char *key);
extern int	partmgr_older_snapshots(TransactionId limit, char **pids);
extern bool partmgr_try_lock_operation(int64 id);
extern void partmgr_unlock_operation(int64 id);
extern bool partmgr_run_subxact(void (*fn) (void *arg), void *arg,
								ErrorData **error);
extern const char *partmgr_lock_mode_name(LOCKMODE mode);
extern void partmgr_pause_seconds(int seconds);
extern bool partmgr_pause_within(TimestampTz start, int budget_ms,
								 long *pause_ms,
								 long max_ms);

#endif							/* PARTMGR_LOCKS_H */
