/* pg_partmgr 0.3.0 -> 0.4.0: pg_partman 5.2 to 5.4.4 compatibility */

\echo Use "ALTER EXTENSION pg_partmgr UPDATE TO '0.4.0'" to load this file. \quit

/*
 * == Configuration columns, time zone, integer offset, dump ==
 */

/*
 * pg_partman 5.2 to 5.4.4 keep these in part_config; pg_partmgr kept them in
 * part_config_ext.  They move, values and all, and part_config_ext (which
 * held nothing else) goes.  The zone of a set is partition_timezone, as in
 * pg_partman 5.4.4: 0.3.0's time_zone of each set (UTC for a set without a
 * part_config_ext row) is carried over, so no set changes zone.
 */
ALTER TABLE partmgr.part_config
    ADD COLUMN time_encoder text,
    ADD COLUMN time_decoder text,
    ADD COLUMN async_partitioning_in_progress text,
    ADD COLUMN partition_timezone text,
    ADD CONSTRAINT part_config_time_codec_check
        CHECK ((time_encoder IS NULL) = (time_decoder IS NULL)),
    ADD CONSTRAINT part_config_partition_timezone_check
        CHECK (partmgr.is_valid_time_zone(partition_timezone));

-- the owner trigger is satisfied: the rows' parent_table does not change
UPDATE partmgr.part_config c
   SET time_encoder = e.time_encoder,
       time_decoder = e.time_decoder,
       async_partitioning_in_progress = e.async_partitioning_in_progress,
       partition_timezone = e.time_zone
  FROM partmgr.part_config_ext e
 WHERE e.parent_table OPERATOR(pg_catalog.=) c.parent_table;
UPDATE partmgr.part_config SET partition_timezone = 'UTC' WHERE partition_timezone IS NULL;

ALTER EXTENSION pg_partmgr DROP TABLE partmgr.part_config_ext;
DROP TABLE partmgr.part_config_ext;

COMMENT ON COLUMN partmgr.part_config.time_encoder IS
    'Text or uuid keys: the function(timestamptz) giving the control column''s value for a time (bounds); NULL otherwise.';
COMMENT ON COLUMN partmgr.part_config.time_decoder IS
    'Text or uuid keys: the function(text) giving the time a control column''s value stands for; NULL otherwise.';
COMMENT ON COLUMN partmgr.part_config.async_partitioning_in_progress IS
    'Lower bound of the child partition_data_async is filling, not attached yet (its rows are not visible through the parent until it is); NULL otherwise. Maintenance, partition_data and undo_partition leave the set alone meanwhile.';
COMMENT ON COLUMN partmgr.part_config.partition_timezone IS
    'Time zone in which the bounds, alignment and names of the set''s time children are computed (create_parent''s p_timezone, else the creating session''s TimeZone); NULL: the TimeZone of the session that maintains it, as pg_partman before 5.4.4.';
COMMENT ON FUNCTION partmgr.is_valid_time_zone(text) IS
    'Whether a text names a time zone PostgreSQL knows (part_config.partition_timezone''s check; NULL passes).';
COMMENT ON TABLE partmgr.part_config IS
    'One row per partition set managed by pg_partmgr (pg_partman 5.4.4 columns); a row may be written only by roles with the privileges of the owner of the table it names.';

/*
 * create_parent / create_partition: pg_partman 5.3's p_offset_id and 5.4.4's
 * p_timezone, at their positions; 0.3.0's p_time_zone stays, named last, as
 * another spelling of p_timezone.
 */
DROP FUNCTION partmgr.create_parent(text, text, text, text, text, int, text, boolean,
    text, text[], text, boolean, text, boolean, text, text, text);
DROP FUNCTION partmgr.create_partition(text, text, text, text, text, int, text, boolean,
    text, text[], text, boolean, text, boolean, text, text, text);
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
    p_offset_id bigint DEFAULT 0,
    p_timezone text DEFAULT NULL,
    p_time_zone text DEFAULT NULL)
    RETURNS boolean
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_create_parent';
COMMENT ON FUNCTION partmgr.create_parent(text, text, text, text, text, int, text, boolean,
    text, text[], text, boolean, text, boolean, text, text, bigint, text, text) IS
    'Register an existing partitioned table as a partition set and create its first children (each as a plain table, then attached) and its default partition. Time sets are aligned in p_timezone (p_time_zone is another name for it), else in the session''s TimeZone, which is recorded; integer sets'' bounds are offset by p_offset_id.';
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
    p_offset_id bigint DEFAULT 0,
    p_timezone text DEFAULT NULL,
    p_time_zone text DEFAULT NULL)
    RETURNS boolean
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_create_partition';
COMMENT ON FUNCTION partmgr.create_partition(text, text, text, text, text, int, text, boolean,
    text, text[], text, boolean, text, boolean, text, text, bigint, text, text) IS
    'pg_partman 5.4''s name for create_parent(), with the same parameters and behaviour.';

/*
 * == Moving rows: p_ignore_infinity, reapply_constraints_proc's p_analyze ==
 */
DROP FUNCTION partmgr.partition_data_time(text, int, interval, numeric, text, boolean, text,
    text[], boolean);
CREATE FUNCTION partmgr.partition_data_time(
    p_parent_table text,
    p_batch_count int DEFAULT 1,
    p_batch_interval interval DEFAULT NULL,
    p_lock_wait numeric DEFAULT 0,
    p_order text DEFAULT 'ASC',
    p_analyze boolean DEFAULT true,
    p_source_table text DEFAULT NULL,
    p_ignored_columns text[] DEFAULT NULL,
    p_override_system_value boolean DEFAULT false,
    p_ignore_infinity boolean DEFAULT false)
    RETURNS bigint
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_partition_data_time';
COMMENT ON FUNCTION partmgr.partition_data_time(text, int, interval, numeric, text, boolean, text,
    text[], boolean, boolean) IS
    'Move rows of a time set out of its default partition (or out of p_source_table) into the right children, creating them as needed, p_batch_count batches in this transaction. Returns the number of rows moved. p_ignore_infinity leaves rows keyed at infinity or -infinity where they are.';

DROP PROCEDURE partmgr.partition_data_proc(text, int, text, int, int, int, text, text, text[],
    boolean);
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
    p_quiet boolean DEFAULT false,
    p_ignore_infinity boolean DEFAULT false)
    LANGUAGE C
    AS 'MODULE_PATHNAME', 'pg_partmgr_partition_data_proc';
COMMENT ON PROCEDURE partmgr.partition_data_proc(text, int, text, int, int, int, text, text,
    text[], boolean, boolean) IS
    'Move rows out of the default partition (or p_source_table) into the right children batch by batch, committing after each batch, with progress NOTICEs. p_ignore_infinity (time sets) leaves rows keyed at infinity or -infinity where they are.';

DROP FUNCTION partmgr.check_default(boolean);
CREATE FUNCTION partmgr.check_default(
    p_exact_count boolean DEFAULT true,
    p_ignore_infinity boolean DEFAULT false)
    RETURNS SETOF partmgr.check_default_table
    LANGUAGE C STABLE
    AS 'MODULE_PATHNAME', 'pg_partmgr_check_default';
COMMENT ON FUNCTION partmgr.check_default(boolean, boolean) IS
    'Default partitions of managed sets that hold rows, with the row count (or 1 when p_exact_count is false); p_ignore_infinity leaves rows keyed at infinity or -infinity uncounted.';

DROP PROCEDURE partmgr.reapply_constraints_proc(text, boolean, boolean, int, boolean);
CREATE PROCEDURE partmgr.reapply_constraints_proc(
    p_parent_table text,
    p_drop_constraints boolean DEFAULT false,
    p_apply_constraints boolean DEFAULT false,
    p_analyze boolean DEFAULT true,
    p_wait int DEFAULT 0,
    p_dryrun boolean DEFAULT false)
    LANGUAGE C
    AS 'MODULE_PATHNAME', 'pg_partmgr_reapply_constraints_proc';
COMMENT ON PROCEDURE partmgr.reapply_constraints_proc(text, boolean, boolean, boolean, int,
    boolean) IS
    'Drop the derived constraints of every child and/or add and validate those of every child old enough, committing after each child, then ANALYZE the parent unless p_analyze is false; p_dryrun only reports (and never analyzes).';

/*
 * == New children: column properties, retention and creation ==
 */
COMMENT ON FUNCTION partmgr.check_children(text) IS
    'Children (and the default partition) whose owner, grants (with inherit_privileges), column compression, storage or statistics target, extended statistics (against the parent), persistence or storage parameters (against the template table) or replica identity (against the parent) differ from what the set says: one row per difference.';
COMMENT ON FUNCTION partmgr.reapply_child_properties(text) IS
    'Make the persistence (SET LOGGED / UNLOGGED rewrites the child) and storage parameters of every child the template table''s, and its replica identity, column compression, storage and statistics targets and extended statistics the parent''s.  Each child is locked on its own, without waiting.';
