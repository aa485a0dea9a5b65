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
 *	  src/state/config.h
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

extern char partmgr_strategy_of(const char *type);
extern const char *partmgr_strategy_name(char strategy);
extern PartmgrSet *partmgr_config_load(const char *key, bool missing_ok);
extern PartmgrSet *partmgr_config_load_table(const char *table_name);
extern PartmgrSet *partmgr_config_reload(const PartmgrSet *read);
extern void partmgr_config_bind(PartmgrSet *set);
extern void partmgr_config_insert(const PartmgrSet *set);
extern bool partmgr_config_template_in_use(const char *template_table);
extern List *partmgr_config_list(bool automatic_only);
extern List *partmgr_config_list_sets(bool automatic_only);
extern bool partmgr_config_present(void);

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
extern void partmgr_stamps_add(PartmgrRunStamps *stamps, const char *key,
							   TimestampTz when);
extern void partmgr_stamps_write(PartmgrRunStamps *stamps);
extern void partmgr_config_set_undo(const char *key, bool undo);
extern void partmgr_config_change_interval(const PartmgrSet *set,
										   const char *era_end,
										   const char *new_interval,
										   const char *datetime_string);
extern void partmgr_config_set_eras(const PartmgrSet *set,
									const PartmgrEra *eras,
									int neras);
extern void partmgr_config_delete(const char *key);
extern void partmgr_config_forget(List *keys);
extern bool partmgr_config_was_forgotten(const char *key);
extern char *partmgr_function_name(const char *name, Oid argtype);
extern Oid	partmgr_time_encoder_oid(const char *name, Oid column_type);
extern Oid	partmgr_time_decoder_oid(const char *name);

/*
 * The settings of a new partition set, as create_parent() takes them
 * (pg_partman 5's parameters; NULL where the parameter was NULL).
 */
typedef struct PartmgrCreateArgs
{
	const char *table;
	const char *control;
	const char *interval;
	const char *type;			/* "range" or "list" */
	const char *epoch;
	int			premake;
	const char *start;			/* p_start_partition */
	bool		with_default;
	const char *automatic;		/* "on" or "off" */
	List	   *constraint_cols;
	const char *template_table;
	bool		jobmon;
	const char *trunc_unit;		/* p_date_trunc_interval */
	bool		control_not_null;
	const char *encoder;
	const char *decoder;
	int64		offset_id;		/* p_offset_id */
	const char *zone;			/* p_timezone (or the session's TimeZone) */
} PartmgrCreateArgs;

/*
 * A row of partmgr.part_config_sub: how each new child of sub_parent is
 * partitioned in turn.  args.table is left NULL (the child fills it);
 * the rest is written into the new sub-set's part_config row afterwards.
 */
typedef struct PartmgrSubSpec
{
	PartmgrCreateArgs args;
	const char *retention;
	const char *retention_schema;
	bool		retention_keep_index;
	bool		retention_keep_table;
	bool		retention_keep_publication;
	int			optimize_constraint;
	bool		infinite_time_partitions;
	bool		inherit_privileges;
	bool		constraint_valid;
	bool		ignore_default_data;
	bool		maintenance_order_isnull;
	int			maintenance_order;
} PartmgrSubSpec;

extern PartmgrSubSpec *partmgr_sub_spec_load(const char *key);
extern void partmgr_sub_spec_insert(const char *key,
									const PartmgrSubSpec *spec);
extern void partmgr_sub_spec_apply(const char *key, const PartmgrSubSpec *spec);
extern bool partmgr_sub_spec_copy_sibling(const char *key, Oid relid,
										  Oid above);
extern bool partmgr_sub_spec_delete(const char *key);
extern void partmgr_config_set_full(const char *key);
extern void partmgr_config_set_async(const char *key, const char *child);

/* the sets a call with an optional p_parent_table works on */
extern List *partmgr_config_keys(const char *table, bool automatic_only);

/* what config_cleanup and import_partman_config write */
extern void partmgr_config_clear_template(const char *key);
extern void partmgr_config_insert_from_partman(const char *partman_row,
											   bool default_table);
extern void partmgr_sub_spec_insert_from_partman(const char *partman_row);
extern void partmgr_config_set_codec(const char *key, const char *encoder,
									 const char *decoder);

#endif							/* PARTMGR_CONFIG_H */
