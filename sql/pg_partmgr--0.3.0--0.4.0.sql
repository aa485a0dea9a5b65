/* pg_partmgr 0.3.0 -> 0.4.0: pg_partman 5.2 to 5.4.4 compatibility */

\echo Use "ALTER EXTENSION pg_partmgr UPDATE TO '0.4.0'" to load this file. \quit

/*
 * == Configuration columns, time zone, integer offset, dump ==
 */
ALTER TABLE partmgr.part_config ADD COLUMN partition_timezone text;

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
