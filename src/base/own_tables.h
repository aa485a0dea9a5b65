/*-------------------------------------------------------------------------
 *
 * own_tables.h
 *	  pg_partmgr's own relations: which they are, the order every run locks
 *	  them in, and the triggers pg_partmgr refuses on them.  See
 *	  own_tables.c.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/own_tables.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_OWN_TABLES_H
#define PARTMGR_OWN_TABLES_H

extern void partmgr_own_forget(void);
extern Oid	partmgr_own_try_lock(void);
extern void partmgr_own_lock(void);
extern void partmgr_own_check_triggers(void);
extern void partmgr_check_table_triggers(Oid relid, Oid ext);

#endif							/* PARTMGR_OWN_TABLES_H */
