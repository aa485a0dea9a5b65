/* pg_partmgr 0.4.0 -> 0.5.0: global unique constraints */

\echo Use "ALTER EXTENSION pg_partmgr UPDATE TO '0.5.0'" to load this file. \quit

/*
 * A global unique constraint is its triggers (on the set's top parent and
 * on every leaf) and its side table, named after it in the parent's schema
 * and owned by the parent's owner; nothing in schema partmgr records it.
 * See doc/global-unique.md.
 */

CREATE FUNCTION partmgr.create_global_unique(
    p_parent_table text,
    p_columns text[],
    p_name text DEFAULT NULL)
RETURNS text
    AS 'MODULE_PATHNAME', 'pg_partmgr_create_global_unique'
    LANGUAGE C VOLATILE;
COMMENT ON FUNCTION partmgr.create_global_unique(text, text[], text) IS
    'Make a unique constraint on p_columns that holds across every child of the set of top parent p_parent_table, at every level; kept in a side table named p_name (default <parent>_<columns>_gkey) in the parent''s schema, owned by its owner. Checks the rows there already (duplicates are named). Returns the name.';

CREATE FUNCTION partmgr.drop_global_unique(
    p_parent_table text,
    p_name text,
    p_cascade boolean DEFAULT false)
RETURNS void
    AS 'MODULE_PATHNAME', 'pg_partmgr_drop_global_unique'
    LANGUAGE C VOLATILE;
COMMENT ON FUNCTION partmgr.drop_global_unique(text, text, boolean) IS
    'Drop the global unique constraint p_name of set p_parent_table: its triggers and its side table (with p_cascade, the foreign keys referencing the side table too).';

CREATE FUNCTION partmgr.global_unique_cleanup(p_parent_table text DEFAULT NULL)
RETURNS bigint
    AS 'MODULE_PATHNAME', 'pg_partmgr_global_unique_cleanup'
    LANGUAGE C VOLATILE;
COMMENT ON FUNCTION partmgr.global_unique_cleanup(text) IS
    'Remove the side-table entries of children that left the set (dropped or detached), for one set''s global unique constraints or, NULL, for those of every set the caller may act on; returns how many went. Such entries no longer count before they are removed.';

CREATE FUNCTION partmgr.global_unique_row()
RETURNS trigger
    AS 'MODULE_PATHNAME', 'pg_partmgr_global_unique_row'
    LANGUAGE C;
COMMENT ON FUNCTION partmgr.global_unique_row() IS
    'Row trigger of a global unique constraint (made by create_global_unique): keeps the side table named by its arguments in step with the rows, with the rights of the set''s owner.';

CREATE FUNCTION partmgr.global_unique_truncate()
RETURNS trigger
    AS 'MODULE_PATHNAME', 'pg_partmgr_global_unique_truncate'
    LANGUAGE C;
COMMENT ON FUNCTION partmgr.global_unique_truncate() IS
    'TRUNCATE trigger of a global unique constraint on a leaf: removes the leaf''s entries from the side table, with the rights of the set''s owner.';

CREATE FUNCTION partmgr.global_unique_ddl()
RETURNS event_trigger
    AS 'MODULE_PATHNAME', 'pg_partmgr_global_unique_ddl'
    LANGUAGE C;
COMMENT ON FUNCTION partmgr.global_unique_ddl() IS
    'Event trigger of global unique constraints: a table attached to a set has its keys checked and entered, new leaves get the TRUNCATE trigger, and a key column cannot be renamed, dropped or retyped.';

CREATE EVENT TRIGGER partmgr_global_unique_ddl ON ddl_command_end
    WHEN TAG IN ('CREATE TABLE', 'ALTER TABLE')
    EXECUTE FUNCTION partmgr.global_unique_ddl();

CREATE FUNCTION partmgr.global_unique_info(
    OUT constraint_name text,
    OUT parent_table regclass,
    OUT columns text[],
    OUT side_table regclass,
    OUT state text,
    OUT waiting_cleanup bigint)
RETURNS SETOF record
    AS 'MODULE_PATHNAME', 'pg_partmgr_global_unique_info'
    LANGUAGE C STABLE;
COMMENT ON FUNCTION partmgr.global_unique_info() IS
    'The rows of partmgr.global_unique_constraints.';

CREATE VIEW partmgr.global_unique_constraints AS
SELECT i.constraint_name,
       i.parent_table,
       i.columns,
       i.side_table,
       i.state,
       CASE WHEN c.reltuples OPERATOR(pg_catalog.>=) 0 THEN c.reltuples::bigint END AS entries_estimate,
       pg_catalog.pg_total_relation_size(i.side_table) AS size_bytes,
       i.waiting_cleanup
  FROM partmgr.global_unique_info() i
  LEFT JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) i.side_table;
COMMENT ON VIEW partmgr.global_unique_constraints IS
    'One row per global unique constraint: its set, key columns, side table, state (enabled, disabled, replica, always: the trigger''s), entries (the planner''s estimate), the side table''s size, and how many entries of children no longer in the set wait for cleanup (NULL unless you have the owner''s privileges).';
GRANT SELECT ON partmgr.global_unique_constraints TO PUBLIC;
