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

/*
 * Every set is loaded with its earlier intervals, so whoever reads
 * part_config reads this too: SELECT for everyone (a child's bounds, which
 * it restates, are in pg_class for everyone already).  Writing needs the
 * same grants as part_config, which the roles that had them there get here
 * too, and the owner trigger's check.
 */
GRANT SELECT ON partmgr.part_config_interval TO PUBLIC;
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
        EXECUTE pg_catalog.format('GRANT %s ON partmgr.part_config_interval TO %s',
                                  r.privilege_type,
                                  CASE WHEN r.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
                                       ELSE pg_catalog.quote_ident(r.grantee::pg_catalog.regrole::pg_catalog.text) END);
    END LOOP;
END
$$;

CREATE TRIGGER part_config_interval_owner_check
    BEFORE INSERT OR UPDATE OR DELETE ON partmgr.part_config_interval
    FOR EACH ROW EXECUTE FUNCTION partmgr.config_owner_check('parent_table');
CREATE TRIGGER part_config_interval_truncate_check
    BEFORE TRUNCATE ON partmgr.part_config_interval
    FOR EACH STATEMENT EXECUTE FUNCTION partmgr.config_owner_check();

CREATE FUNCTION partmgr.change_interval(
    p_parent_table text,
    p_new_interval text)
RETURNS text
    AS 'MODULE_PATHNAME', 'pg_partmgr_change_interval'
    LANGUAGE C VOLATILE;
COMMENT ON FUNCTION partmgr.change_interval(text, text) IS
    'Make the children of set p_parent_table follow p_new_interval from the end of its newest child on; the existing children keep their bounds and names. The suffix format becomes the new interval''s default when the old one was the old interval''s default or cannot tell the new children apart. Returns the bound the new interval starts at, or NULL when it already was the interval.';
