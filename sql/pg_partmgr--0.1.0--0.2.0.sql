/* pg_partmgr 0.1.0 -> 0.2.0: operability (dry run, health, pg_partman import) */

\echo Use "ALTER EXTENSION pg_partmgr UPDATE TO '0.2.0'" to load this file. \quit

/*
 * The SQL statements each action ran.
 */
ALTER TABLE partmgr.maintenance_log ADD COLUMN statements text[];
COMMENT ON COLUMN partmgr.maintenance_log.statements IS
    'The SQL statements the action ran, in order.';

CREATE FUNCTION partmgr.plan_maintenance(
    p_parent_table text DEFAULT NULL)
    RETURNS TABLE (parent_table text, step int, action text, object text, detail text,
                   statements text[], locks text[], reads text[], note text)
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_plan_maintenance';
COMMENT ON FUNCTION partmgr.plan_maintenance(text) IS
    'What the next maintenance run would do, changing nothing: each action in order, with the SQL it would run, the locks it would take and the tables it would read in full.';

CREATE FUNCTION partmgr.set_health(
    p_exact boolean DEFAULT false)
    RETURNS TABLE (parent_table text, children int, newest_upper text,
                   intervals_left numeric, runs_out_at timestamptz, default_rows bigint,
                   expired_children int, last_run timestamptz, status text, reason text,
                   last_error text, last_error_at timestamptz)
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_set_health';
COMMENT ON FUNCTION partmgr.set_health(boolean) IS
    'How each partition set stands: children, how far they reach ahead, rows in the default partition (exact with p_exact), expired children, the last run and error, and a status (ok, warning, critical) with its reasons.';

CREATE VIEW partmgr.health AS
    SELECT * FROM partmgr.set_health(false);
COMMENT ON VIEW partmgr.health IS
    'One row per partition set: partmgr.set_health() with estimated row counts; poll it for monitoring.';

CREATE FUNCTION partmgr.import_partman_config(
    p_partman_schema text DEFAULT 'partman',
    p_parent_table text DEFAULT NULL,
    p_disable_partman boolean DEFAULT true)
    RETURNS TABLE (parent_table text, imported boolean, children int, note text)
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_import_partman_config';
COMMENT ON FUNCTION partmgr.import_partman_config(text, text, boolean) IS
    'Register the partition sets of an installed pg_partman (4.7 or 5.x) with their settings, adopting their children as they are; p_disable_partman turns pg_partman''s automatic maintenance of them off.';

CREATE FUNCTION partmgr.dump_partitioned_table_definition(
    p_parent_table text,
    p_ignore_template_table boolean DEFAULT false)
    RETURNS text
    LANGUAGE C STABLE
    AS 'MODULE_PATHNAME', 'pg_partmgr_dump_partitioned_table_definition';
COMMENT ON FUNCTION partmgr.dump_partitioned_table_definition(text, boolean) IS
    'The SQL (a create_parent() call and an UPDATE of part_config) that registers the set again with its current configuration.';

CREATE FUNCTION partmgr.check_children(
    p_parent_table text)
    RETURNS TABLE (child_table text, property text, expected text, actual text)
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_check_children';
COMMENT ON FUNCTION partmgr.check_children(text) IS
    'Children (and the default partition) whose owner, grants (with inherit_privileges), persistence or storage parameters (against the template table) or replica identity (against the parent) differ from what the set says: one row per difference.';

CREATE FUNCTION partmgr.reapply_privileges(
    p_parent_table text)
    RETURNS void
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_reapply_privileges';
COMMENT ON FUNCTION partmgr.reapply_privileges(text) IS
    'Make the owner and grants of every child the parent''s: missing grants given, grants the parent lacks revoked with CASCADE.  Each child is locked on its own, without waiting.';

CREATE FUNCTION partmgr.reapply_child_properties(
    p_parent_table text)
    RETURNS void
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_reapply_child_properties';
COMMENT ON FUNCTION partmgr.reapply_child_properties(text) IS
    'Make the persistence (SET LOGGED / UNLOGGED rewrites the child) and storage parameters of every child the template table''s, and its replica identity the parent''s.  Each child is locked on its own, without waiting.';

CREATE FUNCTION partmgr.create_partition(
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
    p_time_encoder text DEFAULT NULL,
    p_time_decoder text DEFAULT NULL,
    p_time_zone text DEFAULT 'UTC')
    RETURNS boolean
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_create_partition';
COMMENT ON FUNCTION partmgr.create_partition(text, text, text, text, text, int, text, boolean,
    text, text[], text, boolean, text, boolean, text, text, text) IS
    'pg_partman 5.4''s name for create_parent(), with the same parameters and behaviour.';

CREATE FUNCTION partmgr.config_cleanup(
    p_parent_table text,
    p_config_table boolean DEFAULT true,
    p_config_sub_table boolean DEFAULT true,
    p_template_table boolean DEFAULT true)
    RETURNS void
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_config_cleanup';
COMMENT ON FUNCTION partmgr.config_cleanup(text, boolean, boolean, boolean) IS
    'Forget a partition set and leave its tables as they are: its part_config row (p_config_table), its part_config_sub row (p_config_sub_table) and its template table unless another set uses it (p_template_table).';

CREATE FUNCTION partmgr.inherit_template_properties(
    p_parent_table text,
    p_child_schema text,
    p_child_tablename text)
    RETURNS boolean
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_inherit_template_properties';
COMMENT ON FUNCTION partmgr.inherit_template_properties(text, text, text) IS
    'Give one child of the set (for one attached by hand) the template table''s unique indexes it lacks, its persistence and its storage parameters; false for a child that is partitioned itself.';

-- text and uuid keys whose values stand for times (pg_partman 5.2)
ALTER TABLE partmgr.part_config_ext
    ADD COLUMN time_encoder text,
    ADD COLUMN time_decoder text,
    ADD CONSTRAINT part_config_ext_time_codec_check
        CHECK ((time_encoder IS NULL) = (time_decoder IS NULL));
COMMENT ON COLUMN partmgr.part_config_ext.time_encoder IS
    'Text or uuid keys: the function(timestamptz) giving the control column''s value for a time (bounds); NULL otherwise.';
COMMENT ON COLUMN partmgr.part_config_ext.time_decoder IS
    'Text or uuid keys: the function(text) giving the time a control column''s value stands for; NULL otherwise.';

-- partition_data_async (pg_partman 5.3)
ALTER TABLE partmgr.part_config_ext ADD COLUMN async_partitioning_in_progress text;
COMMENT ON COLUMN partmgr.part_config_ext.async_partitioning_in_progress IS
    'Lower bound of the child partition_data_async is filling, not attached yet (its rows are not visible through the parent until it is); NULL otherwise. Maintenance, partition_data and undo_partition leave the set alone meanwhile.';

DROP FUNCTION partmgr.create_parent(text, text, text, text, text, int, text, boolean,
    text, text[], text, boolean, text, boolean, text);
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
    p_time_encoder text DEFAULT NULL,
    p_time_decoder text DEFAULT NULL,
    p_time_zone text DEFAULT 'UTC')
    RETURNS boolean
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_create_parent';
COMMENT ON FUNCTION partmgr.create_parent(text, text, text, text, text, int, text, boolean,
    text, text[], text, boolean, text, boolean, text, text, text) IS
    'Register an existing partitioned table as a partition set and create its first children (each as a plain table, then attached) and its default partition.';

CREATE FUNCTION partmgr.uuid7_time_encoder(p_timestamp timestamptz)
    RETURNS uuid
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    AS 'MODULE_PATHNAME', 'pg_partmgr_uuid7_time_encoder';
COMMENT ON FUNCTION partmgr.uuid7_time_encoder(timestamptz) IS
    'The smallest UUIDv7 of the millisecond a time falls in: the time encoder of a set keyed by UUIDv7.';

CREATE FUNCTION partmgr.uuid7_time_decoder(p_uuid text)
    RETURNS timestamptz
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    AS 'MODULE_PATHNAME', 'pg_partmgr_uuid7_time_decoder';
COMMENT ON FUNCTION partmgr.uuid7_time_decoder(text) IS
    'The time a UUIDv7 was made, to the millisecond: the time decoder of a set keyed by UUIDv7.';

CREATE PROCEDURE partmgr.run_analyze(
    p_skip_locked boolean DEFAULT false,
    p_quiet boolean DEFAULT false,
    p_parent_table text DEFAULT NULL)
    LANGUAGE C
    AS 'MODULE_PATHNAME', 'pg_partmgr_run_analyze';
COMMENT ON PROCEDURE partmgr.run_analyze(boolean, boolean, text) IS
    'ANALYZE the parent of every partition set (or of one), gathering the statistics of the whole partition tree, committing after each when called outside a transaction block; p_skip_locked skips a tree a lock is held on.';

/*
 * Sub-partitioning (pg_partman 5): how each new child of a set is itself
 * partitioned.  Rows are written by create_sub_parent(); the foreign key is
 * deferred because pg_partman writes a row before its parent's.
 */
CREATE TABLE partmgr.part_config_sub (
    sub_parent text NOT NULL,
    sub_control text NOT NULL,
    sub_partition_interval text NOT NULL,
    sub_partition_type text NOT NULL,
    sub_premake int NOT NULL DEFAULT 4,
    sub_automatic_maintenance text NOT NULL DEFAULT 'on',
    sub_template_table text,
    sub_retention text,
    sub_retention_schema text,
    sub_retention_keep_index boolean NOT NULL DEFAULT true,
    sub_retention_keep_table boolean NOT NULL DEFAULT true,
    sub_epoch text NOT NULL DEFAULT 'none',
    sub_constraint_cols text[],
    sub_optimize_constraint int NOT NULL DEFAULT 30,
    sub_infinite_time_partitions boolean NOT NULL DEFAULT false,
    sub_jobmon boolean NOT NULL DEFAULT true,
    sub_inherit_privileges boolean DEFAULT false,
    sub_constraint_valid boolean NOT NULL DEFAULT true,
    sub_ignore_default_data boolean NOT NULL DEFAULT true,
    sub_default_table boolean DEFAULT true,
    sub_date_trunc_interval text,
    sub_maintenance_order int,
    sub_retention_keep_publication boolean NOT NULL DEFAULT false,
    sub_control_not_null boolean DEFAULT true,
    sub_time_encoder text,
    sub_time_decoder text,
    CONSTRAINT part_config_sub_pkey PRIMARY KEY (sub_parent),
    CONSTRAINT part_config_sub_sub_parent_fkey FOREIGN KEY (sub_parent)
        REFERENCES partmgr.part_config (parent_table)
        ON DELETE CASCADE ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT part_config_sub_premake_check CHECK (sub_premake > 0),
    CONSTRAINT part_config_sub_automatic_maintenance_check
        CHECK (sub_automatic_maintenance IN ('on', 'off')),
    CONSTRAINT part_config_sub_type_check CHECK (sub_partition_type IN ('range', 'list')),
    CONSTRAINT part_config_sub_epoch_check
        CHECK (sub_epoch IN ('none', 'seconds', 'milliseconds', 'microseconds', 'nanoseconds'))
);
SELECT pg_catalog.pg_extension_config_dump('partmgr.part_config_sub', '');
COMMENT ON TABLE partmgr.part_config_sub IS
    'Sub-partitioning: each row says how every new child of the set sub_parent is partitioned in turn (the sub_* columns are the part_config settings of those sub-sets). Written by create_sub_parent(), removed by stop_sub_partition().';

CREATE FUNCTION partmgr.create_sub_parent(
    p_top_parent text,
    p_control text,
    p_interval text,
    p_type text DEFAULT 'range',
    p_default_table boolean DEFAULT true,
    p_declarative_check text DEFAULT NULL,
    p_constraint_cols text[] DEFAULT NULL,
    p_premake int DEFAULT 4,
    p_start_partition text DEFAULT NULL,
    p_epoch text DEFAULT 'none',
    p_jobmon boolean DEFAULT true,
    p_date_trunc_interval text DEFAULT NULL,
    p_control_not_null boolean DEFAULT true,
    p_time_encoder text DEFAULT NULL,
    p_time_decoder text DEFAULT NULL)
    RETURNS boolean
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_create_sub_parent';
COMMENT ON FUNCTION partmgr.create_sub_parent(text, text, text, text, boolean, text, text[],
    int, text, text, boolean, text, boolean, text, text) IS
    'Partition every child of a set in turn (p_declarative_check => ''yes''): each child is recreated as a partitioned table registered as a set of its own, and every child made later is too. Rows of a recreated child are kept in a table of their own, named in a NOTICE.';

CREATE FUNCTION partmgr.create_sub_partition(
    p_top_parent text,
    p_control text,
    p_interval text,
    p_type text DEFAULT 'range',
    p_default_table boolean DEFAULT true,
    p_declarative_check text DEFAULT NULL,
    p_constraint_cols text[] DEFAULT NULL,
    p_premake int DEFAULT 4,
    p_start_partition text DEFAULT NULL,
    p_epoch text DEFAULT 'none',
    p_jobmon boolean DEFAULT true,
    p_date_trunc_interval text DEFAULT NULL,
    p_control_not_null boolean DEFAULT true,
    p_time_encoder text DEFAULT NULL,
    p_time_decoder text DEFAULT NULL)
    RETURNS boolean
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_create_sub_parent';
COMMENT ON FUNCTION partmgr.create_sub_partition(text, text, text, text, boolean, text, text[],
    int, text, text, boolean, text, boolean, text, text) IS
    'pg_partman 5.4''s name for create_sub_parent(), with the same parameters and behaviour.';

CREATE FUNCTION partmgr.stop_sub_partition(
    p_parent_table text,
    p_jobmon boolean DEFAULT true)
    RETURNS boolean
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_stop_sub_partition';
COMMENT ON FUNCTION partmgr.stop_sub_partition(text, boolean) IS
    'Stop partitioning new children of a set in turn (delete its part_config_sub row); existing sub-sets stay as they are. False if the set was not sub-partitioned.';

CREATE PROCEDURE partmgr.partition_data_async(
    p_parent_table text,
    p_loop_count int DEFAULT NULL,
    p_interval text DEFAULT NULL,
    p_lock_wait int DEFAULT 0,
    p_lock_wait_tries int DEFAULT 10,
    p_wait int DEFAULT 1,
    p_order text DEFAULT 'ASC',
    p_ignored_columns text[] DEFAULT NULL,
    p_quiet boolean DEFAULT false)
    LANGUAGE C
    AS 'MODULE_PATHNAME', 'pg_partmgr_partition_data_async';
COMMENT ON PROCEDURE partmgr.partition_data_async(text, int, text, int, int, int, text, text[], boolean) IS
    'Move rows out of the default partition in batches of p_interval, smaller than the partition interval, committing after each: each child is created unattached, filled batch by batch, then attached. Rows in transit are not visible through the parent.';

-- pg_partman's helpers that users' scripts call
CREATE FUNCTION partmgr.check_control_type(
    p_parent_schema text,
    p_parent_tablename text,
    p_control text)
    RETURNS TABLE (general_type text, exact_type text)
    LANGUAGE C STABLE
    AS 'MODULE_PATHNAME', 'pg_partmgr_check_control_type';
COMMENT ON FUNCTION partmgr.check_control_type(text, text, text) IS
    'The kind of a column as a control column: time, id, text or uuid (NULL for other types), and its type''s name; no row when the column does not exist.';

CREATE FUNCTION partmgr.check_name_length(
    p_object_name text,
    p_suffix text DEFAULT NULL,
    p_table_partition boolean DEFAULT false)
    RETURNS text
    LANGUAGE C IMMUTABLE
    AS 'MODULE_PATHNAME', 'pg_partmgr_check_name_length';
COMMENT ON FUNCTION partmgr.check_name_length(text, text, boolean) IS
    'p_object_name with p_suffix (after ''_p'' with p_table_partition) appended, cut so that the whole suffix fits in 63 bytes, as pg_partmgr names children.';

CREATE FUNCTION partmgr.check_subpartition_limits(
    p_parent_table text,
    p_type text,
    OUT sub_min text,
    OUT sub_max text)
    RETURNS record
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_check_subpartition_limits';
COMMENT ON FUNCTION partmgr.check_subpartition_limits(text, text) IS
    'The range a sub-set''s children stay in (the range its table covers in the set above, when keyed by the same column and p_type, time or id, is its kind); NULLs otherwise.';
