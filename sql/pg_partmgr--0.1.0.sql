/* pg_partmgr 0.1.0: install script */

\echo Use "CREATE EXTENSION pg_partmgr" to load this file. \quit

-- schema partmgr is made by CREATE EXTENSION (see pg_partmgr.control)
COMMENT ON SCHEMA partmgr IS
    'pg_partmgr: partition set configuration and maintenance functions';

/*
 * Checks used by the configuration tables' CHECK constraints.
 */
CREATE FUNCTION partmgr.is_valid_time_zone(p_time_zone text)
    RETURNS boolean
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    AS 'MODULE_PATHNAME', 'pg_partmgr_is_valid_time_zone';
COMMENT ON FUNCTION partmgr.is_valid_time_zone(text) IS
    'True if the text names a time zone the server knows (a full name from pg_timezone_names).';

/*
 * One row per partition set.  The columns, their order, types and defaults
 * are pg_partman 5.1's, so that scripts and tools written for pg_partman's
 * part_config keep working; pg_partmgr's own settings live in
 * part_config_ext.
 */
CREATE TABLE partmgr.part_config (
    parent_table text NOT NULL,
    control text NOT NULL,
    partition_interval text NOT NULL,
    partition_type text NOT NULL,
    premake int NOT NULL DEFAULT 4,
    automatic_maintenance text NOT NULL DEFAULT 'on',
    template_table text,
    retention text,
    retention_schema text,
    retention_keep_index boolean NOT NULL DEFAULT true,
    retention_keep_table boolean NOT NULL DEFAULT true,
    epoch text NOT NULL DEFAULT 'none',
    constraint_cols text[],
    optimize_constraint int NOT NULL DEFAULT 30,
    infinite_time_partitions boolean NOT NULL DEFAULT false,
    datetime_string text,
    jobmon boolean NOT NULL DEFAULT true,
    sub_partition_set_full boolean NOT NULL DEFAULT false,
    undo_in_progress boolean NOT NULL DEFAULT false,
    inherit_privileges boolean DEFAULT false,
    constraint_valid boolean NOT NULL DEFAULT true,
    ignore_default_data boolean NOT NULL DEFAULT true,
    default_table boolean DEFAULT true,
    date_trunc_interval text,
    maintenance_order int,
    retention_keep_publication boolean NOT NULL DEFAULT false,
    maintenance_last_run timestamptz,
    CONSTRAINT part_config_parent_table_pkey PRIMARY KEY (parent_table),
    CONSTRAINT part_config_parent_table_check CHECK (parent_table LIKE '_%._%'),
    CONSTRAINT part_config_premake_check CHECK (premake > 0),
    CONSTRAINT part_config_optimize_constraint_check CHECK (optimize_constraint >= 0),
    CONSTRAINT part_config_automatic_maintenance_check
        CHECK (automatic_maintenance IN ('on', 'off')),
    CONSTRAINT part_config_type_check CHECK (partition_type IN ('range', 'list')),
    CONSTRAINT part_config_epoch_check
        CHECK (epoch IN ('none', 'seconds', 'milliseconds', 'microseconds', 'nanoseconds')),
    CONSTRAINT part_config_partition_interval_check CHECK (partition_interval <> ''),
    CONSTRAINT part_config_datetime_string_check CHECK (datetime_string <> ''),
    CONSTRAINT part_config_retention_check CHECK (retention <> ''),
    CONSTRAINT part_config_retention_schema_check CHECK (retention_schema <> ''),
    CONSTRAINT part_config_control_constraint_col_check
        CHECK (NOT (constraint_cols @> ARRAY[control])),
    CONSTRAINT part_config_date_trunc_interval_check
        CHECK (lower(date_trunc_interval) IN ('microseconds', 'milliseconds', 'second', 'minute',
            'hour', 'day', 'week', 'month', 'quarter', 'year', 'decade', 'century',
            'millennium'))
);
CREATE INDEX part_config_type_idx ON partmgr.part_config (partition_type);
SELECT pg_catalog.pg_extension_config_dump('partmgr.part_config', '');

COMMENT ON TABLE partmgr.part_config IS
    'One row per partition set managed by pg_partmgr (pg_partman 5.1 columns).';
COMMENT ON COLUMN partmgr.part_config.parent_table IS
    'The partitioned parent as schema.table (unquoted, as pg_partman stores it).';
COMMENT ON COLUMN partmgr.part_config.control IS
    'The partition key column.';
COMMENT ON COLUMN partmgr.part_config.partition_interval IS
    'Width of each child: an interval for time sets, an integer for id sets.';
COMMENT ON COLUMN partmgr.part_config.premake IS
    'How many children to keep ahead of the newest child holding data.';
COMMENT ON COLUMN partmgr.part_config.automatic_maintenance IS
    'on: maintained by run_maintenance() without arguments and by the background worker.';
COMMENT ON COLUMN partmgr.part_config.infinite_time_partitions IS
    'Time sets: also keep premake children ahead of now() when no new data arrives.';
COMMENT ON COLUMN partmgr.part_config.ignore_default_data IS
    'true: rows in the default partition do not move the premake window.';
COMMENT ON COLUMN partmgr.part_config.datetime_string IS
    'to_char() format of time child suffixes.';
COMMENT ON COLUMN partmgr.part_config.date_trunc_interval IS
    'date_trunc() unit that aligned the first child; NULL means derived from the interval.';
COMMENT ON COLUMN partmgr.part_config.maintenance_order IS
    'Sets are maintained in ascending order of this column, NULLs last.';
COMMENT ON COLUMN partmgr.part_config.maintenance_last_run IS
    'When the last successful maintenance of this set finished (written when its run ends).';
COMMENT ON COLUMN partmgr.part_config.constraint_cols IS
    'Columns that get derived CHECK constraints (min .. max of their rows) on children that stopped changing.';
COMMENT ON COLUMN partmgr.part_config.optimize_constraint IS
    'Children more than this many below the newest child holding rows get the derived constraints.';
COMMENT ON COLUMN partmgr.part_config.constraint_valid IS
    'false: derived constraints are left NOT VALID (the planner then does not use them).';

/*
 * constraint_cols is checked against the parent table whenever it is
 * written: a column the parent lacks, the control column, a column named
 * twice or a type without ordering is refused at once.
 */
CREATE FUNCTION partmgr.part_config_check() RETURNS trigger
    LANGUAGE C
    AS 'MODULE_PATHNAME', 'pg_partmgr_part_config_check';
COMMENT ON FUNCTION partmgr.part_config_check() IS
    'Trigger of partmgr.part_config: refuses a constraint_cols list that cannot work.';
CREATE TRIGGER part_config_check
    BEFORE INSERT OR UPDATE OF constraint_cols, control ON partmgr.part_config
    FOR EACH ROW EXECUTE FUNCTION partmgr.part_config_check();

/*
 * pg_partmgr's own per-set settings, beyond pg_partman's columns.  A set
 * with no row here uses the defaults.
 */
CREATE TABLE partmgr.part_config_ext (
    parent_table text NOT NULL,
    time_zone text NOT NULL DEFAULT 'UTC',
    CONSTRAINT part_config_ext_pkey PRIMARY KEY (parent_table),
    CONSTRAINT part_config_ext_parent_table_fkey FOREIGN KEY (parent_table)
        REFERENCES partmgr.part_config (parent_table) ON UPDATE CASCADE ON DELETE CASCADE,
    CONSTRAINT part_config_ext_time_zone_check CHECK (partmgr.is_valid_time_zone(time_zone))
);
SELECT pg_catalog.pg_extension_config_dump('partmgr.part_config_ext', '');

COMMENT ON TABLE partmgr.part_config_ext IS
    'pg_partmgr settings of a partition set beyond pg_partman''s part_config.';
COMMENT ON COLUMN partmgr.part_config_ext.time_zone IS
    'Time zone in which bounds, alignment and names of time children are computed.';

CREATE TYPE partmgr.check_default_table AS (default_table text, count bigint);

/*
 * What maintenance did: one row per action taken (and per set that could
 * not be maintained), written by the background worker, run_maintenance(),
 * run_maintenance_proc and the functions that create children.  The worker
 * deletes rows older than pg_partmgr.log_retention days.  Not saved by
 * pg_dump: it is a record of this server's work, not configuration.
 */
CREATE TABLE partmgr.maintenance_log (
    log_id bigint GENERATED ALWAYS AS IDENTITY,
    parent_table text NOT NULL,
    action text NOT NULL,
    object text,
    detail text,
    started_at timestamptz NOT NULL,
    finished_at timestamptz NOT NULL,
    duration interval GENERATED ALWAYS AS (finished_at - started_at) STORED,
    outcome text NOT NULL,
    sqlstate text,
    error text,
    error_detail text,
    error_hint text,
    run_by text NOT NULL,
    pid int NOT NULL DEFAULT pg_catalog.pg_backend_pid(),
    CONSTRAINT maintenance_log_pkey PRIMARY KEY (log_id),
    CONSTRAINT maintenance_log_outcome_check CHECK (outcome IN ('done', 'skipped', 'failed'))
);
CREATE INDEX maintenance_log_finished_at_idx ON partmgr.maintenance_log (finished_at);
CREATE INDEX maintenance_log_parent_table_idx ON partmgr.maintenance_log (parent_table, finished_at);

COMMENT ON TABLE partmgr.maintenance_log IS
    'One row per maintenance action (done, skipped or failed), with its error; kept pg_partmgr.log_retention days.';
COMMENT ON COLUMN partmgr.maintenance_log.action IS
    'create partition, create default partition, move rows, detach partition, drop partition, detach partition and move it, finish detaching partition, analyze, apply retention or maintain set (a set stopped before any action).';
COMMENT ON COLUMN partmgr.maintenance_log.outcome IS
    'done; skipped (left for the next run: a lock not granted in time, rows in the default); failed.';
COMMENT ON COLUMN partmgr.maintenance_log.run_by IS
    'The function or process that acted: worker, run_maintenance, run_maintenance_proc, create_parent, partition_data_time, partition_data_proc, undo_partition, drop_partition_time, ...';

/*
 * Functions.  All are SECURITY INVOKER: they act with the caller's rights,
 * and PostgreSQL's own checks apply to every table they touch.
 */
CREATE FUNCTION partmgr.create_parent(
    p_parent_table text,
    p_control text,
    p_interval text,
    p_type text DEFAULT 'range',
    p_epoch text DEFAULT 'none',
    p_premake int DEFAULT 4,
    p_start_partition text DEFAULT NULL,
    p_default_table boolean DEFAULT true,
    p_automatic_maintenance text DEFAULT 'on',
    p_constraint_cols text[] DEFAULT NULL,
    p_template_table text DEFAULT NULL,
    p_jobmon boolean DEFAULT true,
    p_date_trunc_interval text DEFAULT NULL,
    p_control_not_null boolean DEFAULT true,
    p_time_zone text DEFAULT 'UTC')
    RETURNS boolean
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_create_parent';
COMMENT ON FUNCTION partmgr.create_parent(text, text, text, text, text, int, text, boolean,
    text, text[], text, boolean, text, boolean, text) IS
    'Register an existing partitioned table as a partition set and create its first children (each as a plain table, then attached) and its default partition.';

CREATE FUNCTION partmgr.run_maintenance(
    p_parent_table text DEFAULT NULL,
    p_analyze boolean DEFAULT false,
    p_jobmon boolean DEFAULT true)
    RETURNS void
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_run_maintenance';
COMMENT ON FUNCTION partmgr.run_maintenance(text, boolean, boolean) IS
    'Create the children each set needs ahead of its data (premake), then apply its retention, for one set or for every set with automatic_maintenance on. Locks are bounded by pg_partmgr.lock_timeout; a set that cannot get them is skipped with a WARNING.';

CREATE PROCEDURE partmgr.run_maintenance_proc(
    p_wait int DEFAULT 0,
    p_analyze boolean DEFAULT false,
    p_jobmon boolean DEFAULT true)
    LANGUAGE C
    AS 'MODULE_PATHNAME', 'pg_partmgr_run_maintenance_proc';
COMMENT ON PROCEDURE partmgr.run_maintenance_proc(int, boolean, boolean) IS
    'Maintain every set with automatic_maintenance on, committing after each set and waiting p_wait seconds between sets. For pg_cron: CALL it as a top-level statement.';

CREATE FUNCTION partmgr.drop_partition_time(
    p_parent_table text,
    p_retention interval DEFAULT NULL,
    p_keep_table boolean DEFAULT NULL,
    p_keep_index boolean DEFAULT NULL,
    p_retention_schema text DEFAULT NULL,
    p_reference_timestamp timestamptz DEFAULT CURRENT_TIMESTAMP)
    RETURNS int
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_drop_partition_time';
COMMENT ON FUNCTION partmgr.drop_partition_time(text, interval, boolean, boolean, text, timestamptz) IS
    'Apply retention to a time set now: detach (and keep, move or drop) every child older than p_retention before p_reference_timestamp. NULL arguments take the set''s configuration. Returns how many children were retired.';

CREATE FUNCTION partmgr.drop_partition_id(
    p_parent_table text,
    p_retention bigint DEFAULT NULL,
    p_keep_table boolean DEFAULT NULL,
    p_keep_index boolean DEFAULT NULL,
    p_retention_schema text DEFAULT NULL)
    RETURNS int
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_drop_partition_id';
COMMENT ON FUNCTION partmgr.drop_partition_id(text, bigint, boolean, boolean, text) IS
    'Apply retention to an id set now: detach (and keep, move or drop) every child whose ids all lie more than p_retention below the largest id. NULL arguments take the set''s configuration. Returns how many children were retired.';

CREATE FUNCTION partmgr.partition_data_time(
    p_parent_table text,
    p_batch_count int DEFAULT 1,
    p_batch_interval interval DEFAULT NULL,
    p_lock_wait numeric DEFAULT 0,
    p_order text DEFAULT 'ASC',
    p_analyze boolean DEFAULT true,
    p_source_table text DEFAULT NULL,
    p_ignored_columns text[] DEFAULT NULL,
    p_override_system_value boolean DEFAULT false)
    RETURNS bigint
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_partition_data_time';
COMMENT ON FUNCTION partmgr.partition_data_time(text, int, interval, numeric, text, boolean, text, text[], boolean) IS
    'Move rows of a time set out of its default partition (or out of p_source_table) into the right children, creating them as needed, p_batch_count batches in this transaction. Returns the number of rows moved.';

CREATE FUNCTION partmgr.partition_data_id(
    p_parent_table text,
    p_batch_count int DEFAULT 1,
    p_batch_interval bigint DEFAULT NULL,
    p_lock_wait numeric DEFAULT 0,
    p_order text DEFAULT 'ASC',
    p_analyze boolean DEFAULT true,
    p_source_table text DEFAULT NULL,
    p_ignored_columns text[] DEFAULT NULL,
    p_override_system_value boolean DEFAULT false)
    RETURNS bigint
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_partition_data_id';
COMMENT ON FUNCTION partmgr.partition_data_id(text, int, bigint, numeric, text, boolean, text, text[], boolean) IS
    'Move rows of an id set out of its default partition (or out of p_source_table) into the right children, creating them as needed, p_batch_count batches in this transaction. Returns the number of rows moved.';

CREATE PROCEDURE partmgr.partition_data_proc(
    p_parent_table text,
    p_loop_count int DEFAULT NULL,
    p_interval text DEFAULT NULL,
    p_lock_wait int DEFAULT 0,
    p_lock_wait_tries int DEFAULT 10,
    p_wait int DEFAULT 1,
    p_order text DEFAULT 'ASC',
    p_source_table text DEFAULT NULL,
    p_ignored_columns text[] DEFAULT NULL,
    p_quiet boolean DEFAULT false)
    LANGUAGE C
    AS 'MODULE_PATHNAME', 'pg_partmgr_partition_data_proc';
COMMENT ON PROCEDURE partmgr.partition_data_proc(text, int, text, int, int, int, text, text, text[], boolean) IS
    'Move rows out of the default partition (or p_source_table) into the right children batch by batch, committing after each batch, with progress NOTICEs.';

CREATE FUNCTION partmgr.undo_partition(
    p_parent_table text,
    p_target_table text,
    p_loop_count int DEFAULT 1,
    p_batch_interval text DEFAULT NULL,
    p_keep_table boolean DEFAULT true,
    p_lock_wait numeric DEFAULT 0,
    p_ignored_columns text[] DEFAULT NULL,
    p_drop_cascade boolean DEFAULT false,
    OUT partitions_undone int,
    OUT rows_undone bigint)
    RETURNS record
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_undo_partition';
COMMENT ON FUNCTION partmgr.undo_partition(text, text, int, text, boolean, numeric, text[], boolean) IS
    'Move the rows of a set into the plain table p_target_table, p_loop_count batches in this transaction; emptied children are detached (dropped unless p_keep_table); once none is left the set is forgotten.';

CREATE PROCEDURE partmgr.undo_partition_proc(
    p_parent_table text,
    p_target_table text DEFAULT NULL,
    p_loop_count int DEFAULT NULL,
    p_interval text DEFAULT NULL,
    p_keep_table boolean DEFAULT true,
    p_lock_wait int DEFAULT 0,
    p_lock_wait_tries int DEFAULT 10,
    p_wait int DEFAULT 1,
    p_ignored_columns text[] DEFAULT NULL,
    p_drop_cascade boolean DEFAULT false,
    p_quiet boolean DEFAULT false)
    LANGUAGE C
    AS 'MODULE_PATHNAME', 'pg_partmgr_undo_partition_proc';
COMMENT ON PROCEDURE partmgr.undo_partition_proc(text, text, int, text, boolean, int, int, int, text[], boolean, boolean) IS
    'Undo a set into p_target_table batch by batch, committing after each batch, until no child is left.';

CREATE FUNCTION partmgr.apply_constraints(
    p_parent_table text,
    p_child_table text DEFAULT NULL,
    p_analyze boolean DEFAULT false,
    p_job_id bigint DEFAULT NULL)
    RETURNS void
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_apply_constraints';
COMMENT ON FUNCTION partmgr.apply_constraints(text, text, boolean, bigint) IS
    'Add the derived constraints of constraint_cols to one child (p_child_table) or to every child old enough (optimize_constraint), and validate them, in this transaction.';

CREATE FUNCTION partmgr.drop_constraints(
    p_parent_table text,
    p_child_table text,
    p_debug boolean DEFAULT false)
    RETURNS void
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_drop_constraints';
COMMENT ON FUNCTION partmgr.drop_constraints(text, text, boolean) IS
    'Drop every derived constraint (partmanconstr_*) of one child.';

CREATE PROCEDURE partmgr.reapply_constraints_proc(
    p_parent_table text,
    p_drop_constraints boolean DEFAULT false,
    p_apply_constraints boolean DEFAULT false,
    p_wait int DEFAULT 0,
    p_dryrun boolean DEFAULT false)
    LANGUAGE C
    AS 'MODULE_PATHNAME', 'pg_partmgr_reapply_constraints_proc';
COMMENT ON PROCEDURE partmgr.reapply_constraints_proc(text, boolean, boolean, int, boolean) IS
    'Drop the derived constraints of every child and/or add and validate those of every child old enough, committing after each child; p_dryrun only reports.';

CREATE FUNCTION partmgr.show_partitions(
    p_parent_table text,
    p_order text DEFAULT 'ASC',
    p_include_default boolean DEFAULT false)
    RETURNS TABLE (partition_schemaname text, partition_tablename text)
    LANGUAGE C STABLE
    AS 'MODULE_PATHNAME', 'pg_partmgr_show_partitions';
COMMENT ON FUNCTION partmgr.show_partitions(text, text, boolean) IS
    'List the children of a partition set in order of their bounds (the default partition first when included).';

CREATE FUNCTION partmgr.show_partition_name(
    p_parent_table text,
    p_value text,
    OUT partition_schema text,
    OUT partition_table text,
    OUT suffix_timestamp timestamptz,
    OUT suffix_id bigint,
    OUT table_exists boolean)
    RETURNS record
    LANGUAGE C STABLE
    AS 'MODULE_PATHNAME', 'pg_partmgr_show_partition_name';
COMMENT ON FUNCTION partmgr.show_partition_name(text, text) IS
    'Name and lower bound of the child a value belongs in, and whether that child exists.';

CREATE FUNCTION partmgr.show_partition_info(
    p_child_table text,
    p_partition_interval text DEFAULT NULL,
    p_parent_table text DEFAULT NULL,
    OUT child_start_time timestamptz,
    OUT child_end_time timestamptz,
    OUT child_start_id bigint,
    OUT child_end_id bigint,
    OUT suffix text)
    RETURNS record
    LANGUAGE C STABLE
    AS 'MODULE_PATHNAME', 'pg_partmgr_show_partition_info';
COMMENT ON FUNCTION partmgr.show_partition_info(text, text, text) IS
    'Bounds of a child as its catalog entry gives them (end bounds are exclusive) and its name suffix.';

CREATE FUNCTION partmgr.check_default(p_exact_count boolean DEFAULT true)
    RETURNS SETOF partmgr.check_default_table
    LANGUAGE C STABLE
    AS 'MODULE_PATHNAME', 'pg_partmgr_check_default';
COMMENT ON FUNCTION partmgr.check_default(boolean) IS
    'Default partitions of managed sets that hold rows, with the row count (or 1 when p_exact_count is false).';

CREATE FUNCTION partmgr.partition_gap_fill(p_parent_table text)
    RETURNS integer
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_partition_gap_fill';
COMMENT ON FUNCTION partmgr.partition_gap_fill(text) IS
    'Create the missing children between the lowest and the highest child of a set; returns how many were created.';

CREATE FUNCTION partmgr.create_partition_time(
    p_parent_table text,
    p_partition_times timestamptz[],
    p_start_partition text DEFAULT NULL)
    RETURNS boolean
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_create_partition_time';
COMMENT ON FUNCTION partmgr.create_partition_time(text, timestamptz[], text) IS
    'Create one child per given lower bound of a time set (existing children are skipped); true if any was created.';

CREATE FUNCTION partmgr.create_partition_id(
    p_parent_table text,
    p_partition_ids bigint[],
    p_start_partition text DEFAULT NULL)
    RETURNS boolean
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_create_partition_id';
COMMENT ON FUNCTION partmgr.create_partition_id(text, bigint[], text) IS
    'Create one child per given lower bound of an id set (existing children are skipped); true if any was created.';
