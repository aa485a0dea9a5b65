/*-------------------------------------------------------------------------
 *
 * config.h
 *	  partmgr.part_config <-> PartmgrSet.
 *
 * Reads, validates and writes the configuration of partition sets.  The
 * caller is connected to SPI and inside a transaction.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/config.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_CONFIG_H
#define PARTMGR_CONFIG_H

#include "pg_partmgr.h"

/* A line added to the CONTEXT of errors raised while it is pushed. */
typedef struct PartmgrErrorContext
{
	ErrorContextCallback callback;
	const char *format;			/* with one %s */
	const char *name;
} PartmgrErrorContext;

extern void partmgr_context_push(PartmgrErrorContext *ctx, const char *format,
								 const char *name);
extern void partmgr_context_pop(PartmgrErrorContext *ctx);
extern void partmgr_set_context_push(PartmgrErrorContext *ctx, const char *key);

extern PartmgrSet *partmgr_config_load(const char *key, bool missing_ok);
extern PartmgrSet *partmgr_config_load_table(const char *table_name);
extern void partmgr_config_bind(PartmgrSet *set);
extern void partmgr_config_insert(const PartmgrSet *set);
extern List *partmgr_config_list(bool automatic_only);
extern List *partmgr_config_list_sets(bool automatic_only);
/* maintenance_last_run of the sets a run maintained, written once at its end */
typedef struct PartmgrRunStamps
{
	MemoryContext cxt;			/* where keys and times live */
	int			n;
	int			size;
	Datum	   *keys;			/* text */
	Datum	   *times;			/* timestamptz */
} PartmgrRunStamps;

extern void partmgr_stamps_init(PartmgrRunStamps *stamps);
extern void partmgr_stamps_add(PartmgrRunStamps *stamps, const char *key, TimestampTz when);
extern void partmgr_stamps_write(PartmgrRunStamps *stamps);
extern void partmgr_config_set_undo(const char *key, bool undo);
extern void partmgr_config_delete(const char *key);
extern Oid	partmgr_time_encoder_oid(const char *name, Oid column_type);
extern Oid	partmgr_time_decoder_oid(const char *name);

#endif							/* PARTMGR_CONFIG_H */
