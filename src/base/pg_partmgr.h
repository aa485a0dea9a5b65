/*-------------------------------------------------------------------------
 *
 * pg_partmgr.h
 *	  Types shared by every room of pg_partmgr: the in-memory form of one
 *	  partition set (PartmgrSet), a point on a set's key axis
 *	  (PartmgrPoint) and the GUC variables.
 *
 * A partition set is one row of partmgr.part_config plus what the system
 * catalogs say about its parent table.  Every job works on one set at a
 * time; nothing here is shared between backends.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/pg_partmgr.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PG_PARTMGR_H
#define PG_PARTMGR_H

#include "access/attnum.h"
#include "datatype/timestamp.h"
#include "nodes/pg_list.h"
#include "storage/itemptr.h"
#include "pgtime.h"

/* Schema that holds every SQL object of the extension. */
#define PARTMGR_SCHEMA			"partmgr"

/*
 * First key of the transaction-level advisory lock that keeps two
 * maintenance runs off one set; the second key is the parent's OID.  Shown
 * in pg_locks as locktype 'advisory', classid 1886414701, objsubid 2.
 */
#define PARTMGR_ADVISORY_KEY	0x7070676D	/* "ppgm" */

/*
 * A position on a set's key axis.  Time sets use microseconds as in
 * Timestamp: real instants for timestamptz keys, wall-clock time read as UTC
 * for timestamp and date keys.  Id sets use the integer itself.  The two
 * extremes stand for MINVALUE and MAXVALUE bounds (and for -infinity and
 * infinity, which sort the same way).
 */
typedef int64 PartmgrPoint;

#define PARTMGR_POINT_MIN		PG_INT64_MIN
#define PARTMGR_POINT_MAX		PG_INT64_MAX

typedef enum PartmgrKeyKind
{
	PARTMGR_KEY_TIME,
	PARTMGR_KEY_ID
} PartmgrKeyKind;

/* The partition interval of a set: a time span or an integer width. */
typedef struct PartmgrStep
{
	PartmgrKeyKind kind;
	Interval	time;			/* PARTMGR_KEY_TIME */
	int64		id;				/* PARTMGR_KEY_ID */
} PartmgrStep;

/*
 * How points of one set are computed: the key's type and the time zone in
 * which calendar arithmetic (days, months, truncation, names) happens.
 */
typedef struct PartmgrAxis
{
	PartmgrKeyKind kind;
	Oid			typid;			/* type of the control column; timestamptz for
								 * an epoch set */
	Oid			column_typid;	/* the control column's own type */
	int64		epoch_unit;		/* epoch sets: units of the column per second
								 * (1, 1000, ...); 0 otherwise */
	Oid			encoder;		/* text/uuid keys: function(timestamptz)
								 * giving the column's value for a time, or
								 * InvalidOid */
	Oid			decoder;		/* and function(text) giving the time of a
								 * value */
	const char *zone_name;		/* the set's time zone, e.g. "UTC" */
	pg_tz	   *zone;			/* the same, loaded */
	const char *calc_zone_name; /* zone used for arithmetic on points */
	pg_tz	   *calc_zone;		/* UTC unless the key is timestamptz */
} PartmgrAxis;

/*
 * The span of a set's key over which one interval was in force
 * (change_interval, and the spans split_partition / merge_partitions
 * reshaped): children from start (the end of the era before; MIN for the
 * first) to end (MAX for the current era) follow step and are named with
 * datetime_string.  The first era's grid is the one its children define, as
 * for a set whose interval never changed.  A later era's grid starts at
 * start: aligned as create_parent aligns (date_trunc_interval, NULL: the
 * interval's default unit) when the era was begun by change_interval, or
 * exactly at start when it holds children a reshape made (or what a
 * reshape left of an era, whose grid goes on through start).
 */
typedef struct PartmgrEra
{
	PartmgrPoint start;
	PartmgrPoint end;
	char	   *end_text;		/* part_config_interval.interval_end; NULL for
								 * the current era */
	PartmgrStep step;
	char	   *interval_text;
	char	   *datetime_string;
	char	   *date_trunc_interval;
	bool		aligned;		/* see above */
	bool		next_aligned;	/* the era after this one is aligned
								 * (part_config_interval.next_aligned, which
								 * the row of the era before says) */
} PartmgrEra;

/*
 * One partition set: its configuration row and the catalog facts every job
 * needs.  Filled by config.c (from partmgr.part_config) or by create_parent.
 */
typedef struct PartmgrSet
{
	/* identity */
	char	   *key;			/* part_config.parent_table: "schema.table" */
	Oid			parent_oid;
	char	   *parent_schema;
	char	   *parent_name;
	Oid			parent_owner;

	/* partition key */
	char	   *control;		/* control column name */
	AttrNumber	control_attnum;
	char		strategy;		/* PARTITION_STRATEGY_RANGE, _LIST or _HASH (a
								 * hash set's step.id is the modulus it was
								 * made with; its axis holds only the key's
								 * type) */
	PartmgrAxis axis;
	PartmgrStep step;
	char	   *interval_text;	/* part_config.partition_interval */
	char	   *epoch;			/* part_config.epoch ("none") */

	/* behaviour */
	int			premake;
	bool		automatic_maintenance;
	bool		infinite_time_partitions;
	bool		ignore_default_data;
	bool		undo_in_progress;
	bool		jobmon;
	bool		default_table;
	bool		inherit_privileges;
	bool		constraint_valid;
	TimestampTz maintenance_last_run;
	bool		maintenance_last_run_isnull;
	bool		retention_keep_table;
	bool		retention_keep_index;
	bool		retention_keep_publication;
	bool		sub_partition_set_full;
	bool		has_limits;		/* a sub-set keyed by its parent's column: */
	PartmgrPoint limit_lower;	/* the range the table covers in its */
	PartmgrPoint limit_upper;	/* parent, which its children stay in */
	int			optimize_constraint;
	char	   *datetime_string;	/* to_char() format of time suffixes */
	char	   *date_trunc_interval;	/* NULL: derived from the interval */
	char	   *template_table;
	char	   *time_encoder;	/* text/uuid keys, or NULL */
	char	   *time_decoder;
	char	   *async_in_progress;	/* lower bound of the unattached child
									 * partition_data_async is filling, or
									 * NULL */
	char	   *partition_timezone; /* the zone recorded for the set (NULL:
									 * the session's, axis.zone_name) */
	char	   *retention;
	char	   *retention_schema;
	List	   *constraint_cols;	/* List of char * */
	bool		maintenance_order_isnull;
	int			maintenance_order;

	/*
	 * eras, by start ascending: one per earlier interval
	 * (part_config_interval) and the current one last, which holds step,
	 * interval_text, datetime_string and date_trunc_interval as above
	 */
	int			neras;
	PartmgrEra *eras;

	/*
	 * the part_config row version it was read from (config.c; row_rel is
	 * InvalidOid for a set not read from a row)
	 */
	Oid			row_rel;
	ItemPointerData row_tid;
	TransactionId row_xmin;
} PartmgrSet;

/* Version of this library (and of the newest SQL objects it works with). */
#define PARTMGR_EXTVERSION		"0.7.0"
/* versions of the SQL objects this library works with (see extension_ready) */
#define PARTMGR_SQL_VERSIONS	{"0.6.0", "0.7.0"}

/* GUC variables, defined in settings.c */
extern int	partmgr_lock_timeout;
extern bool partmgr_enabled;
extern int	partmgr_interval;
extern char *partmgr_role;
extern int	partmgr_max_workers;
extern char *partmgr_databases;
extern int	partmgr_log_retention;
extern int	partmgr_default_move_limit;
extern bool partmgr_keep_user_templates;
extern int	partmgr_children_per_transaction;
extern int	partmgr_on_set_failure;
extern int	partmgr_tier_bytes_per_run;

/* pg_partmgr.on_set_failure */
#define PARTMGR_ON_FAILURE_ERROR	0
#define PARTMGR_ON_FAILURE_WARNING	1

extern void partmgr_define_settings(void);

/* Largest modulus a hash set is made with, or split to. */
#define PARTMGR_MAX_HASH_MODULUS	1024

/* Largest premake a set may have (part_config's CHECK says the same). */
#define PARTMGR_MAX_PREMAKE		1000

#endif							/* PG_PARTMGR_H */
