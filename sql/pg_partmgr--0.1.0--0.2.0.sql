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
