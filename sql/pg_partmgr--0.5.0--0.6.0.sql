/* pg_partmgr 0.5.0 -> 0.6.0: changing the interval of a live set */

\echo Use "ALTER EXTENSION pg_partmgr UPDATE TO '0.6.0'" to load this file. \quit

/*
 * A set whose interval was changed keeps, per earlier interval, where the
 * children made with it end: below interval_end, children followed
 * partition_interval and were named with datetime_string (NULL: that
 * interval's default) on a grid cut by date_trunc_interval.  From the
 * highest interval_end on, part_config says.  Rows are written by
 * change_interval(); the owner trigger keeps each role to its own sets.
 * See doc/reshaping.md.
 */
CREATE TABLE partmgr.part_config_interval (
    parent_table text NOT NULL,
    interval_end text NOT NULL,
    partition_interval text NOT NULL,
    datetime_string text,
    date_trunc_interval text,
    next_aligned boolean NOT NULL DEFAULT true,
    changed_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT part_config_interval_pkey PRIMARY KEY (parent_table, interval_end),
    CONSTRAINT part_config_interval_parent_table_fkey FOREIGN KEY (parent_table)
        REFERENCES partmgr.part_config (parent_table)
        ON DELETE CASCADE ON UPDATE CASCADE
);
SELECT pg_catalog.pg_extension_config_dump('partmgr.part_config_interval', '');
COMMENT ON TABLE partmgr.part_config_interval IS
    'The earlier intervals of sets whose interval was changed (change_interval): children below interval_end followed partition_interval, were named with datetime_string and cut by date_trunc_interval; part_config holds the interval from the highest interval_end on.';
COMMENT ON COLUMN partmgr.part_config_interval.interval_end IS
    'The bound (as the control column''s value, in the set''s zone for time sets) where the children of this interval end and those of the next one start.';
COMMENT ON COLUMN partmgr.part_config_interval.next_aligned IS
    'Whether the grid of the interval that starts at interval_end is aligned as create_parent aligns (an interval begun by change_interval), or starts exactly at interval_end (children a reshape made, or what a reshape left of an interval).';

/*
 * Every set is loaded with its earlier intervals, so whoever reads
 * part_config reads this too: SELECT for everyone (a child's bounds, which
 * it restates, are in pg_class for everyone already).  Writing needs the
 * same grants as part_config, which the roles that had them there get here
 * too, and the owner trigger's check.
 */
GRANT SELECT ON partmgr.part_config_interval TO PUBLIC;

CREATE TRIGGER part_config_interval_owner_check
    BEFORE INSERT OR UPDATE OR DELETE ON partmgr.part_config_interval
    FOR EACH ROW EXECUTE FUNCTION partmgr.config_owner_check('parent_table');
CREATE TRIGGER part_config_interval_truncate_check
    BEFORE TRUNCATE ON partmgr.part_config_interval
    FOR EACH STATEMENT EXECUTE FUNCTION partmgr.config_owner_check();

CREATE FUNCTION partmgr.change_interval(
    p_parent_table text,
    p_new_interval text,
    p_reshape_existing boolean DEFAULT false)
RETURNS text
    AS 'MODULE_PATHNAME', 'pg_partmgr_change_interval'
    LANGUAGE C VOLATILE;
COMMENT ON FUNCTION partmgr.change_interval(text, text, boolean) IS
    'Make the children of set p_parent_table follow p_new_interval from the end of its newest child on; the existing children keep their bounds and names, or with p_reshape_existing are registered to be reshaped to the new grid (CALL partmgr.run_reshape() carries that out). The suffix format becomes the new interval''s default when the old one was the old interval''s default or cannot tell the new children apart. Returns the bound the new interval starts at, or NULL when it already was the interval.';

/*
 * Hash sets (create_parent's p_type => 'hash', our addition): the table is
 * PARTITION BY HASH, partition_interval holds the modulus its children
 * were made with, and split_hash_partition / merge_hash_partitions change
 * the modulus of one child at a time.
 */
ALTER TABLE partmgr.part_config DROP CONSTRAINT part_config_type_check;
ALTER TABLE partmgr.part_config ADD CONSTRAINT part_config_type_check
    CHECK (partition_type IN ('range', 'list', 'hash'));

/*
 * Each child's share of the rows (the planner's estimates), and for a hash
 * set the share its bounds give it: imbalance shows.  An overload of
 * pg_partman's show_partitions, told apart by p_row_share, which has no
 * default: calls of pg_partman's forms reach pg_partman's.
 */
CREATE FUNCTION partmgr.show_partitions(
    p_parent_table text,
    p_row_share boolean,
    p_order text DEFAULT 'ASC',
    p_include_default boolean DEFAULT false)
    RETURNS TABLE (partition_schemaname text, partition_tablename text, row_estimate bigint,
                   row_share numeric, expected_share numeric)
    LANGUAGE C STABLE
    AS 'MODULE_PATHNAME', 'pg_partmgr_show_partitions';
COMMENT ON FUNCTION partmgr.show_partitions(text, boolean, text, boolean) IS
    'List the children of a partition set in order of their bounds (a hash set''s by remainder), with p_row_share each child''s estimated rows (pg_class.reltuples, NULL if never counted), its share of the rows so counted, and for a hash set the share its modulus gives it (1 / modulus).';

/*
 * Reshaping children online: split_partition, merge_partitions,
 * split_hash_partition, merge_hash_partitions and change_interval's
 * p_reshape_existing register an operation here; run_reshape (which the
 * four procedures call) carries it out phase by phase, committing after
 * each step, and removes the row when the new children have replaced the
 * old ones.  A row left by a crash or a cancel is taken up by the next
 * run_reshape, or undone by cancel_reshape.  See doc/reshaping.md.
 */
CREATE TABLE partmgr.reshape_operation (
    operation_id bigint GENERATED ALWAYS AS IDENTITY,
    parent_table text NOT NULL,
    kind text NOT NULL,
    source_tables text[] NOT NULL,
    target_tables text[] NOT NULL,
    target_bounds text[] NOT NULL,
    target_interval text,
    target_format text,
    target_aligned boolean NOT NULL DEFAULT false,
    phase text NOT NULL DEFAULT 'planned',
    copy_source integer NOT NULL DEFAULT 0,
    copy_block bigint NOT NULL DEFAULT 0,
    copy_filenodes oid[],
    rows_copied bigint NOT NULL DEFAULT 0,
    rows_replayed bigint NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    updated_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    last_error text,
    CONSTRAINT reshape_operation_pkey PRIMARY KEY (operation_id),
    CONSTRAINT reshape_operation_parent_table_fkey FOREIGN KEY (parent_table)
        REFERENCES partmgr.part_config (parent_table)
        ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT reshape_operation_kind_check
        CHECK (kind OPERATOR(pg_catalog.=) ANY (ARRAY['split', 'merge', 'reshape', 'hash split', 'hash merge'])),
    CONSTRAINT reshape_operation_phase_check
        CHECK (phase OPERATOR(pg_catalog.=) ANY (ARRAY['planned', 'copy', 'index', 'catch up']))
);
COMMENT ON TABLE partmgr.reshape_operation IS
    'Reshapes of children not finished yet (split_partition, merge_partitions, split_hash_partition, merge_hash_partitions, change_interval with p_reshape_existing): which children are replaced by which new ones, and how far the work has got. run_reshape() carries them out; cancel_reshape() undoes them.';
COMMENT ON COLUMN partmgr.reshape_operation.source_tables IS
    'The children being replaced, schema-qualified.';
COMMENT ON COLUMN partmgr.reshape_operation.target_tables IS
    'The names the new children will have, in the parent''s schema (they are built under working names until the swap).';
COMMENT ON COLUMN partmgr.reshape_operation.target_bounds IS
    'Range sets: the bounds of the new children, lowest first, one more than there are children. Hash sets: modulus and remainder of each new child, as ''modulus/remainder''.';
COMMENT ON COLUMN partmgr.reshape_operation.phase IS
    'planned: nothing built yet; copy: the new children exist and rows are copied into them in batches while changes are captured; index: their indexes and constraints are built; catch up: captured changes are applied until the swap can take place.';
COMMENT ON COLUMN partmgr.reshape_operation.copy_source IS
    'The old child being copied (an index into source_tables, from 0) in the copy phase.';
COMMENT ON COLUMN partmgr.reshape_operation.copy_block IS
    'Its first block not copied yet.';
COMMENT ON COLUMN partmgr.reshape_operation.copy_filenodes IS
    'The storage (pg_relation_filenode) of each old child when its copy began: a table rewritten meanwhile (VACUUM FULL, CLUSTER, a restore) has its rows elsewhere, and the copy starts again.';
SELECT pg_catalog.pg_extension_config_dump('partmgr.reshape_operation', '');
GRANT SELECT ON partmgr.reshape_operation TO PUBLIC;
CREATE TRIGGER reshape_operation_owner_check
    BEFORE INSERT OR UPDATE OR DELETE ON partmgr.reshape_operation
    FOR EACH ROW EXECUTE FUNCTION partmgr.config_owner_check('parent_table');
CREATE TRIGGER reshape_operation_truncate_check
    BEFORE TRUNCATE ON partmgr.reshape_operation
    FOR EACH STATEMENT EXECUTE FUNCTION partmgr.config_owner_check();

CREATE FUNCTION partmgr.reshape_capture() RETURNS trigger
    AS 'MODULE_PATHNAME', 'pg_partmgr_reshape_capture'
    LANGUAGE C;
COMMENT ON FUNCTION partmgr.reshape_capture() IS
    'Trigger of a child being reshaped (AFTER INSERT, UPDATE, DELETE FOR EACH ROW, and AFTER TRUNCATE): records the key of each row that changed in the operation''s change log, so that the new children catch up before they replace it.';

CREATE PROCEDURE partmgr.split_partition(
    p_child_table text,
    p_interval text DEFAULT NULL,
    p_bounds text[] DEFAULT NULL,
    p_batch_rows integer DEFAULT 100000,
    p_lock_wait_tries integer DEFAULT 10,
    p_wait integer DEFAULT 1,
    p_start boolean DEFAULT true,
    p_quiet boolean DEFAULT false)
    AS 'MODULE_PATHNAME', 'pg_partmgr_split_partition'
    LANGUAGE C;
COMMENT ON PROCEDURE partmgr.split_partition(text, text, text[], integer, integer, integer, boolean, boolean) IS
    'Replace child p_child_table of a range set by children of p_interval, or by children cut at p_bounds, online: the new children are built and filled in batches while changes to the old child are captured and applied, then swapped in under short, conditional locks. Commits after each step when called as a top-level CALL; a call after a crash or a cancel goes on. With p_start false the split is only registered (plan_maintenance shows it, run_reshape carries it out).';

CREATE PROCEDURE partmgr.merge_partitions(
    p_child_tables text[],
    p_batch_rows integer DEFAULT 100000,
    p_lock_wait_tries integer DEFAULT 10,
    p_wait integer DEFAULT 1,
    p_start boolean DEFAULT true,
    p_quiet boolean DEFAULT false)
    AS 'MODULE_PATHNAME', 'pg_partmgr_merge_partitions'
    LANGUAGE C;
COMMENT ON PROCEDURE partmgr.merge_partitions(text[], integer, integer, integer, boolean, boolean) IS
    'Replace adjacent children p_child_tables of one range set by one child covering them all, online, as split_partition does.';

CREATE PROCEDURE partmgr.split_hash_partition(
    p_child_table text,
    p_batch_rows integer DEFAULT 100000,
    p_lock_wait_tries integer DEFAULT 10,
    p_wait integer DEFAULT 1,
    p_start boolean DEFAULT true,
    p_quiet boolean DEFAULT false)
    AS 'MODULE_PATHNAME', 'pg_partmgr_split_hash_partition'
    LANGUAGE C;
COMMENT ON PROCEDURE partmgr.split_hash_partition(text, integer, integer, integer, boolean, boolean) IS
    'Replace child p_child_table of a hash set, which holds remainder r of modulus m, by two children holding remainders r and r + m of modulus 2m, online, as split_partition does: the other children are not touched.';

CREATE PROCEDURE partmgr.merge_hash_partitions(
    p_child_tables text[],
    p_batch_rows integer DEFAULT 100000,
    p_lock_wait_tries integer DEFAULT 10,
    p_wait integer DEFAULT 1,
    p_start boolean DEFAULT true,
    p_quiet boolean DEFAULT false)
    AS 'MODULE_PATHNAME', 'pg_partmgr_merge_hash_partitions'
    LANGUAGE C;
COMMENT ON PROCEDURE partmgr.merge_hash_partitions(text[], integer, integer, integer, boolean, boolean) IS
    'Replace the two children of a hash set holding remainders r and r + m of modulus 2m by one child holding remainder r of modulus m, online: the inverse of split_hash_partition.';

CREATE PROCEDURE partmgr.run_reshape(
    p_parent_table text DEFAULT NULL,
    p_batch_rows integer DEFAULT 100000,
    p_lock_wait_tries integer DEFAULT 10,
    p_wait integer DEFAULT 1,
    p_quiet boolean DEFAULT false)
    AS 'MODULE_PATHNAME', 'pg_partmgr_run_reshape'
    LANGUAGE C;
COMMENT ON PROCEDURE partmgr.run_reshape(text, integer, integer, integer, boolean) IS
    'Carry out every registered reshape of set p_parent_table (of every set the caller may act on, when NULL), one after the other, committing after each step: those registered and not started, and those a crash or a cancel interrupted.';

CREATE FUNCTION partmgr.cancel_reshape(p_parent_table text)
RETURNS integer
    AS 'MODULE_PATHNAME', 'pg_partmgr_cancel_reshape'
    LANGUAGE C VOLATILE;
COMMENT ON FUNCTION partmgr.cancel_reshape(text) IS
    'Undo every unfinished reshape of set p_parent_table: drop the new children built so far, the change capture and the working tables; the old children stay as they are. Returns how many reshapes were undone.';

/*
 * The roles that may write part_config may write the new configuration
 * tables too (the owner trigger still keeps each to its own sets).
 */
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT a.privilege_type, a.grantee
               FROM pg_catalog.pg_class c,
                    LATERAL pg_catalog.aclexplode(c.relacl) a
              WHERE c.oid OPERATOR(pg_catalog.=) 'partmgr.part_config'::pg_catalog.regclass
                AND a.privilege_type OPERATOR(pg_catalog.=) ANY (ARRAY['INSERT', 'UPDATE', 'DELETE'])
                AND a.grantee OPERATOR(pg_catalog.<>) c.relowner
    LOOP
        EXECUTE pg_catalog.format('GRANT %s ON partmgr.part_config_interval, partmgr.reshape_operation TO %s',
                                  r.privilege_type,
                                  CASE WHEN r.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
                                       ELSE pg_catalog.quote_ident(r.grantee::pg_catalog.regrole::pg_catalog.text) END);
    END LOOP;
END
$$;

/*
 * Every maintenance run writes maintenance_last_run of every set it ran
 * (one UPDATE at the end).  Room for the new row versions on each page
 * keeps those updates HOT: no new index entries, and the old versions are
 * pruned in place, so part_config does not grow from run to run between
 * two VACUUMs (10,000 sets maintained every few seconds made it ten times
 * its size in twenty runs).
 */
ALTER TABLE partmgr.part_config SET (fillfactor = 50);
