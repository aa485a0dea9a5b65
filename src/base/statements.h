/*-------------------------------------------------------------------------
 *
 * statements.h
 *	  The SQL text pg_partmgr runs: the only place that quotes names and
 *	  writes values into statements.  partmgr_ddl_ builds DDL,
 *	  partmgr_dml_ statements that change rows, partmgr_query_ queries.
 *
 * Names come from the catalogs and go through quote_identifier; bounds go
 * through partmgr_point_literal (DDL cannot take $n parameters).  A leaf:
 * it takes plain values and PartmgrRowSource, defined here (where the rows
 * that a statement moves come from), and knows nothing of plans.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/statements.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_STATEMENTS_H
#define PARTMGR_STATEMENTS_H

#include "nodes/pg_list.h"

#include "pg_partmgr.h"

/*
 * Where rows come from and which columns travel (MOVE_ROWS, filled children).
 */
typedef struct PartmgrRowSource
{
	Oid			relid;			/* InvalidOid: none */
	char	   *schema;
	char	   *name;
	List	   *columns;		/* of char *: the columns that travel */
	List	   *computed;		/* of char *: columns of the target given a
								 * value computed per row, not taken from the
								 * source */
	List	   *computed_exprs; /* of char *: the SQL expression for each */
} PartmgrRowSource;

/* A table whose shards' locks partmgr_query_shard_lock_probe asks about. */
typedef struct PartmgrShardLockAsk
{
	const char *schema;
	const char *name;
	const char *label;			/* what the answer calls it */
	const char *modes;			/* pg_locks' names of the modes that conflict,
								 * a text[] literal */
} PartmgrShardLockAsk;

/* name of the temporary CHECK that lets a loaded child attach without a scan */
#define PARTMGR_BOUND_CHECK		"partmgr_bound_check"
/* and of the one that lets children attach without a scan of the default */
#define PARTMGR_MOVED_CHECK		"partmgr_moved_check"

extern char *partmgr_ddl_set_default_tablespace(const char *tablespace);
extern char *partmgr_ddl_create_like(const PartmgrSet *set, bool unlogged,
									 List *reloptions, const char *tablespace,
									 const char *schema, const char *name);
extern char *partmgr_ddl_create_template(const char *parent_schema,
										 const char *parent_name,
										 const char *schema, const char *name);
extern char *partmgr_ddl_set_owner(const char *schema, const char *name,
								   Oid role);
extern char *partmgr_ddl_grant_on(const char *privilege, const char *kind,
								  const char *object, Oid role);
extern char *partmgr_ddl_grant(const char *schema, const char *name,
							   const char *privileges,
							   const char *grantee, bool grantable);
extern char *partmgr_ddl_revoke(const char *schema, const char *name,
								const char *privileges,
								const char *grantee);
extern char *partmgr_ddl_join(const List *statements);
extern char *partmgr_ddl_unique_index(const char *schema, const char *name,
									  bool primary,
									  const char *index_name,
									  const char *columns,
									  const char *definition,
									  const char *tablespace);
extern char *partmgr_ddl_replica_identity(const char *schema, const char *name,
										  char ident,
										  const char *index_name);
extern char *partmgr_ddl_alter_columns(const char *schema, const char *name,
									   const char *option, List *columns,
									   List *values);
extern char *partmgr_ddl_create_statistics(const char *schema,
										   const char *stat_name,
										   const char *kinds,
										   const char *columns,
										   const char *table_schema,
										   const char *table_name);
extern char *partmgr_ddl_statistics_target(const char *schema,
										   const char *stat_name,
										   int target);
extern char *partmgr_ddl_statistics_owner(const char *schema,
										  const char *stat_name,
										  Oid role);
extern char *partmgr_ddl_set_persistence(const char *schema, const char *name,
										 bool unlogged);
extern char *partmgr_ddl_set_reloptions(const char *schema, const char *name,
										List *options,
										bool reset);
extern char *partmgr_ddl_attach_range(const PartmgrSet *set, const char *schema,
									  const char *name, PartmgrPoint lower,
									  PartmgrPoint upper);
extern char *partmgr_ddl_attach_default(const PartmgrSet *set,
										const char *schema,
										const char *name);
extern char *partmgr_ddl_detach(const PartmgrSet *set, const char *schema,
								const char *name, const char *how);
extern char *partmgr_ddl_drop_table(const char *schema, const char *name,
									bool cascade);
extern char *partmgr_ddl_drop_index(const char *schema, const char *index);
extern char *partmgr_ddl_drop_constraint(const char *schema, const char *name,
										 const char *constraint);
extern char *partmgr_ddl_drop_from_publication(const char *publication,
											   const char *schema,
											   const char *name);
extern char *partmgr_ddl_statistics_set_schema(const char *schema,
											   const char *name,
											   const char *new_schema);
extern char *partmgr_ddl_set_schema(const char *schema, const char *name,
									const char *new_schema);
extern char *partmgr_dml_move_rows(const PartmgrSet *set,
								   const PartmgrRowSource *from,
								   const char *to_schema, const char *to_name,
								   PartmgrPoint lower, PartmgrPoint upper);
extern char *partmgr_ddl_copy_rows(const PartmgrSet *set,
								   const PartmgrRowSource *from,
								   const char *to_schema, const char *to_name,
								   PartmgrPoint lower, PartmgrPoint upper);
extern char *partmgr_dml_delete_rows(const PartmgrSet *set, const char *schema,
									 const char *name, PartmgrPoint lower,
									 PartmgrPoint upper);
extern char *partmgr_query_count_in(const PartmgrSet *set, const char *schema,
									const char *name, PartmgrPoint lower,
									PartmgrPoint upper);
extern char *partmgr_query_count_range(const PartmgrSet *set,
									   const char *schema,
									   const char *name, PartmgrPoint lower,
									   PartmgrPoint upper, int64 limit);
extern char *partmgr_bound_check_expr(const PartmgrSet *set,
									  PartmgrPoint lower, PartmgrPoint upper);
extern char *partmgr_ddl_add_bound_check(const PartmgrSet *set,
										 const char *schema,
										 const char *name, PartmgrPoint lower,
										 PartmgrPoint upper);
extern char *partmgr_ddl_drop_bound_check(const char *schema, const char *name);
extern char *partmgr_ddl_min_control(const PartmgrSet *set, const char *schema,
									 const char *name, bool descending,
									 bool finite_only);
extern char *partmgr_ddl_attach_range_to(const PartmgrSet *set,
										 const char *into_schema,
										 const char *into_name,
										 const char *schema,
										 const char *name, PartmgrPoint lower,
										 PartmgrPoint upper);
extern char *partmgr_ddl_create_stage(const PartmgrSet *set, const char *name);
extern char *partmgr_ddl_detach_from(const char *into_schema,
									 const char *into_name,
									 const char *schema, const char *name);
extern char *partmgr_ddl_add_range_exclusion(const PartmgrSet *set,
											 const char *schema,
											 const char *name,
											 PartmgrPoint lower,
											 PartmgrPoint upper);
extern char *partmgr_ddl_drop_range_exclusion(const char *schema,
											  const char *name);
extern char *partmgr_ddl_key_time(const PartmgrSet *set);
extern char *partmgr_ddl_drop_constraints(const char *schema, const char *name,
										  List *constraints);
extern char *partmgr_ddl_add_checks(const char *schema, const char *name,
									List *constraints,
									List *checks);
extern char *partmgr_ddl_validate_constraint(const char *schema,
											 const char *name,
											 const char *constraint);
extern char *partmgr_query_column_ranges(const char *schema, const char *name,
										 List *columns,
										 const bool *by_aggregate);
extern char *partmgr_ddl_range_check(const char *column, const char *min,
									 const char *max);
extern char *partmgr_query_dump_definition(const PartmgrSet *set,
										   bool ignore_template,
										   bool control_not_null,
										   int64 offset_id);
extern char *partmgr_ddl_analyze(const PartmgrSet *set, bool skip_locked);
extern char *partmgr_ddl_max_control(const PartmgrSet *set, const char *schema,
									 const char *name, bool only);
extern char *partmgr_query_count_rows(const char *schema, const char *name,
									  bool exact, bool only);
extern char *partmgr_query_distribute_like_parent(const PartmgrSet *set,
												  const char *schema,
												  const char *name,
												  const char *column);
extern char *partmgr_query_shard_lock_probe(List *asks);
extern char *partmgr_ddl_remote_lock_timeout(int ms);
extern char *partmgr_ddl_finite_key(const PartmgrSet *set);
extern char *partmgr_query_count_finite_rows(const PartmgrSet *set,
											 const char *schema,
											 const char *name, bool exact);

extern char *partmgr_dml_forget_sets(List *keys);
extern char *partmgr_ddl_create_sub_parent(const PartmgrSet *set,
										   const char *tablespace,
										   const char *schema,
										   const char *name, const char *type,
										   const char *control);
extern char *partmgr_query_describe_sub_set(const char *schema,
											const char *name,
											const char *control,
											const char *interval,
											const char *type);

extern char *partmgr_ddl_rename_table(const char *schema, const char *name,
									  const char *new_name);

extern char *partmgr_ddl_min_control_in(const PartmgrSet *set,
										const char *schema,
										const char *name, bool descending,
										PartmgrPoint lower, PartmgrPoint upper);

extern char *partmgr_ddl_unique_side_table(const char *schema,
										   const char *name, int ncols,
										   char **columns, const Oid *types,
										   const int32 *typmods,
										   const Oid *collations);
extern char *partmgr_ddl_unique_key(const char *schema, const char *table,
									const char *name,
									int ncols, char **columns);
extern char *partmgr_ddl_unique_child_index(const char *schema,
											const char *name);
extern char *partmgr_ddl_unique_row_trigger(const char *schema,
											const char *table,
											const char *name,
											const char *side_schema,
											int ncols, char **columns);
extern char *partmgr_ddl_unique_truncate_trigger(const char *schema,
												 const char *table,
												 const char *name,
												 const char *side_schema,
												 int ncols, char **columns);
extern char *partmgr_dml_unique_forget(const char *side_schema,
									   const char *side_name,
									   List *tables);
extern char *partmgr_dml_unique_cleanup(const char *side_schema,
										const char *side_name,
										Oid child, int64 limit);
extern char *partmgr_ddl_dump_archive(const char *key, const char *archive);
extern char *partmgr_ddl_dump_tier(const char *key, const char *name,
								   const char *older_than,
								   const char *tablespace);
extern char *partmgr_ddl_dump_eras(const PartmgrSet *set);

/* reshapes (see reshape.c) */
#define PARTMGR_CAPTURE_CLAIMED_COLUMN		"partmgr_claimed"
#define PARTMGR_CAPTURE_TRUNCATED_COLUMN	"partmgr_truncated"
/* the CHECK on the default partition that excludes a range being reshaped */
#define PARTMGR_RESHAPE_CHECK		"partmgr_reshape_check"

extern char *partmgr_ddl_create_replacement(const PartmgrSet *set,
											bool unlogged,
											List *reloptions, Oid spcid,
											const char *schema,
											const char *name);
extern char *partmgr_ddl_hash_check_text(const PartmgrSet *set,
										 const char *schema,
										 const char *name, int modulus,
										 int remainder);
extern char *partmgr_ddl_attach_hash_to(const char *into_schema,
										const char *into_name,
										const char *schema, const char *name,
										int modulus, int remainder);
extern char *partmgr_ddl_capture_log(const char *schema, const char *name,
									 int nkeys,
									 char **columns, char **types);
extern List *partmgr_ddl_capture_triggers(const char *schema, const char *table,
										  const char *trigger,
										  const char *log_schema,
										  const char *log_name, int nkeys,
										  char **columns);
extern char *partmgr_ddl_reshape_copy(const PartmgrRowSource *from,
									  const char *stage_schema,
									  const char *stage_name, int64 first,
									  int64 end,
									  bool skip_existing);
extern char *partmgr_dml_reshape_claim(const char *log_schema,
									   const char *log_name);
extern char *partmgr_dml_reshape_unset(const char *stage_schema,
									   const char *stage_name,
									   const char *log_schema,
									   const char *log_name,
									   int nkeys, char **columns,
									   char **equals);
extern char *partmgr_ddl_reshape_fetch(const PartmgrRowSource *from,
									   const char *stage_schema,
									   const char *stage_name,
									   const char *log_schema,
									   const char *log_name, int nkeys,
									   char **columns,
									   char **equals);
extern char *partmgr_dml_reshape_forget(const char *log_schema,
										const char *log_name);
extern List *partmgr_dml_reshape_restart(const char *stage_schema,
										 const char *stage_name,
										 const char *log_schema,
										 const char *log_name);
extern char *partmgr_ddl_add_range_exclusion_named(const PartmgrSet *set,
												   const char *schema,
												   const char *name,
												   const char *constraint,
												   PartmgrPoint lower,
												   PartmgrPoint upper);
extern char *partmgr_query_dump_global_unique(const char *schema,
											  const char *table,
											  const char *name, int ncols,
											  char **columns);
extern char *partmgr_ddl_drop_trigger(const char *schema, const char *table,
									  const char *trigger, bool if_exists);

extern char *partmgr_dml_side_insert(const char *schema, const char *name,
									 int ncols,
									 char **columns);
extern char *partmgr_dml_side_delete_key(const char *schema, const char *name,
										 int ncols,
										 char **columns, char **ops);
extern char *partmgr_dml_side_delete_tid(const char *schema, const char *name);
extern char *partmgr_dml_side_delete_children(const char *schema,
											  const char *name);
extern char *partmgr_dml_side_delete_met(const char *schema, const char *name,
										 const char *from_schema,
										 const char *from_name,
										 int ncols, char **columns, char **ops);
extern char *partmgr_dml_side_fill(const char *schema, const char *name,
								   const char *from_schema,
								   const char *from_name,
								   int ncols, char **columns);
extern char *partmgr_query_side_duplicates(const char *schema, const char *name,
										   const char *from_schema,
										   const char *from_name,
										   int ncols, char **columns,
										   char **ops,
										   bool attach);
extern char *partmgr_query_side_child_entries(const char *schema,
											  const char *name);
extern char *partmgr_query_side_children(const char *schema, const char *name);
extern char *partmgr_query_partman_set(const char *schema);
extern char *partmgr_query_partman_sub_set(const char *schema);
extern char *partmgr_dml_partman_maintenance_off(const char *schema);
extern char *partmgr_query_partman_sets(const char *schema, bool one);
extern char *partmgr_query_log_backlog(const char *schema, const char *log,
									   int64 limit);
extern char *partmgr_query_log_flagged(const char *schema, const char *log,
									   const char *column);
extern char *partmgr_ddl_rename(const char *kind, const char *schema,
								const char *name,
								const char *new_name);

#endif							/* PARTMGR_STATEMENTS_H */
