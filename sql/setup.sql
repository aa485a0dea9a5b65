--
-- Install the extension and look at what it created.  The other test files
-- run after this one, in the same database.
--
CREATE EXTENSION pg_partmgr;

-- the extension lives in schema partmgr, which CREATE EXTENSION made and
-- which is not a member (DROP EXTENSION leaves it, as with pg_partman)
SELECT e.extnamespace::regnamespace AS schema, e.extrelocatable
  FROM pg_extension e WHERE e.extname = 'pg_partmgr';
SELECT count(*) AS schema_is_member
  FROM pg_depend d
 WHERE d.classid = 'pg_namespace'::regclass AND d.objid = 'partmgr'::regnamespace
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pg_partmgr');

-- part_config has pg_partman 5.1's columns, types and defaults, in its order
SELECT a.attname, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull,
       pg_get_expr(d.adbin, d.adrelid) AS default
  FROM pg_attribute a
  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
 WHERE a.attrelid = 'partmgr.part_config'::regclass AND a.attnum > 0
   AND NOT a.attisdropped
 ORDER BY a.attnum;

-- the configuration tables are dumped by pg_dump
SELECT unnest(extconfig)::regclass AS config_table
  FROM pg_extension WHERE extname = 'pg_partmgr' ORDER BY 1::text;

-- every function of the extension has a comment
SELECT p.proname
  FROM pg_proc p
 WHERE p.pronamespace = 'partmgr'::regnamespace
   AND obj_description(p.oid, 'pg_proc') IS NULL;

-- the GUC exists with its default once the library is loaded
LOAD 'pg_partmgr';
SHOW pg_partmgr.lock_timeout;

-- helper for the following tests: children of a set with their bounds, in
-- show_partitions order, default first
CREATE FUNCTION children(p_parent text)
RETURNS TABLE (child text, bound text)
LANGUAGE sql AS $$
    SELECT p.partition_tablename, pg_get_expr(c.relpartbound, c.oid)
      FROM partmgr.show_partitions(p_parent, p_include_default => true)
           WITH ORDINALITY AS p
      JOIN pg_namespace n ON n.nspname = p.partition_schemaname
      JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = p.partition_tablename
     ORDER BY p.ordinality
$$;
