/* pg_partmgr 0.3.0 -> 0.4.0: pg_partman 5.2 to 5.4.4 compatibility */

\echo Use "ALTER EXTENSION pg_partmgr UPDATE TO '0.4.0'" to load this file. \quit

/*
 * == Configuration columns, time zone, integer offset, dump ==
 */
ALTER TABLE partmgr.part_config ADD COLUMN partition_timezone text;

/*
 * == Moving rows: p_ignore_infinity, reapply_constraints_proc's p_analyze ==
 */

/*
 * == New children: column properties, retention and creation ==
 */
COMMENT ON FUNCTION partmgr.check_children(text) IS
    'Children (and the default partition) whose owner, grants (with inherit_privileges), column compression, storage or statistics target, extended statistics (against the parent), persistence or storage parameters (against the template table) or replica identity (against the parent) differ from what the set says: one row per difference.';
COMMENT ON FUNCTION partmgr.reapply_child_properties(text) IS
    'Make the persistence (SET LOGGED / UNLOGGED rewrites the child) and storage parameters of every child the template table''s, and its replica identity, column compression, storage and statistics targets and extended statistics the parent''s.  Each child is locked on its own, without waiting.';
