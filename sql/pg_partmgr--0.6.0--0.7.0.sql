/* pg_partmgr 0.6.0 -> 0.7.0 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_partmgr UPDATE TO '0.7.0'" to load this file. \quit

/*
 * A reshape's row names the children it replaces, its phase and its last
 * error: seen only by roles with the privileges of the owner of the set's
 * parent (superusers: all), as maintenance_log's rows are.  pg_partmgr
 * reads the rows of the sets it acts on, which are the caller's to act on.
 * part_config_interval stays readable by all: every set is read with its
 * earlier intervals, whoever reads part_config, and the bounds it restates
 * are in pg_class for everyone.
 */
ALTER TABLE partmgr.reshape_operation ENABLE ROW LEVEL SECURITY;
CREATE POLICY reshape_operation_owner ON partmgr.reshape_operation
    USING (pg_catalog.pg_has_role(
               (SELECT c.relowner FROM pg_catalog.pg_class c
                 WHERE c.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass(parent_table)),
               'USAGE'))
    WITH CHECK (pg_catalog.pg_has_role(
               (SELECT c.relowner FROM pg_catalog.pg_class c
                 WHERE c.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass(parent_table)),
               'USAGE'));
COMMENT ON POLICY reshape_operation_owner ON partmgr.reshape_operation IS
    'A reshape''s row is seen, written and deleted only by roles with the privileges of the owner of its set''s parent (superusers: all).';

-- A global unique constraint's row names its set, key columns and side
-- table: shown only to roles with the privileges of the set's owner, as
-- the log's rows (partmgr.global_unique_info() leaves the others out).
COMMENT ON VIEW partmgr.global_unique_constraints IS
    'One row per global unique constraint of a set whose owner''s privileges you have (superusers: all): its set, key columns, side table, state (enabled, disabled, replica, always: the trigger''s), entries (the planner''s estimate), the side table''s size, and how many entries of children no longer in the set wait for cleanup (NULL when the side table is not the set owner''s).';
