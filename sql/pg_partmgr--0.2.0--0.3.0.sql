/* pg_partmgr 0.2.0 -> 0.3.0: the trust boundary */

\echo Use "ALTER EXTENSION pg_partmgr UPDATE TO '0.3.0'" to load this file. \quit

/*
 * Only members of the role that owns a table may write the configuration
 * rows that name it -- whatever the grants on these tables say, for direct
 * INSERT, UPDATE and DELETE too, before and after the change (so a row
 * cannot be pointed at someone else's table).  A trigger rather than row
 * security: a refusal is an error that says why, and no role attribute
 * (BYPASSRLS) skips it.  TRUNCATE, which would take every role's rows, is
 * left to superusers.
 */
CREATE FUNCTION partmgr.config_owner_check() RETURNS trigger
    LANGUAGE C
    AS 'MODULE_PATHNAME', 'pg_partmgr_config_owner_check';
COMMENT ON FUNCTION partmgr.config_owner_check() IS
    'Trigger of the configuration tables and the log: a row naming a table may be written only by a role with the privileges of the table''s owner (superusers: any row); TRUNCATE only by a superuser.';

CREATE TRIGGER part_config_owner_check
    BEFORE INSERT OR UPDATE OR DELETE ON partmgr.part_config
    FOR EACH ROW EXECUTE FUNCTION partmgr.config_owner_check('parent_table');
CREATE TRIGGER part_config_ext_owner_check
    BEFORE INSERT OR UPDATE OR DELETE ON partmgr.part_config_ext
    FOR EACH ROW EXECUTE FUNCTION partmgr.config_owner_check('parent_table');
CREATE TRIGGER part_config_sub_owner_check
    BEFORE INSERT OR UPDATE OR DELETE ON partmgr.part_config_sub
    FOR EACH ROW EXECUTE FUNCTION partmgr.config_owner_check('sub_parent');
CREATE TRIGGER part_config_truncate_check
    BEFORE TRUNCATE ON partmgr.part_config
    FOR EACH STATEMENT EXECUTE FUNCTION partmgr.config_owner_check();
CREATE TRIGGER part_config_ext_truncate_check
    BEFORE TRUNCATE ON partmgr.part_config_ext
    FOR EACH STATEMENT EXECUTE FUNCTION partmgr.config_owner_check();
CREATE TRIGGER part_config_sub_truncate_check
    BEFORE TRUNCATE ON partmgr.part_config_sub
    FOR EACH STATEMENT EXECUTE FUNCTION partmgr.config_owner_check();
CREATE TRIGGER maintenance_log_truncate_check
    BEFORE TRUNCATE ON partmgr.maintenance_log
    FOR EACH STATEMENT EXECUTE FUNCTION partmgr.config_owner_check();

/*
 * Keys read back exactly: a name holding a double quote was stored
 * unquoted by 0.2.0 (which refused names with a period), and read back
 * through identifier parsing, which could name another table.  Such keys are
 * now written as SQL identifiers, "schema"."table".  The foreign keys carry
 * the change to part_config_ext and part_config_sub.
 */
UPDATE partmgr.part_config
   SET parent_table = pg_catalog.format('%I.%I', pg_catalog.split_part(parent_table, '.', 1),
                                        pg_catalog.split_part(parent_table, '.', 2))
 WHERE parent_table OPERATOR(pg_catalog.~~) '%"%';
UPDATE partmgr.part_config
   SET template_table = pg_catalog.format('%I.%I', pg_catalog.split_part(template_table, '.', 1),
                                          pg_catalog.split_part(template_table, '.', 2))
 WHERE template_table OPERATOR(pg_catalog.~~) '%"%';
UPDATE partmgr.part_config_sub
   SET sub_template_table = pg_catalog.format('%I.%I', pg_catalog.split_part(sub_template_table, '.', 1),
                                              pg_catalog.split_part(sub_template_table, '.', 2))
 WHERE sub_template_table OPERATOR(pg_catalog.~~) '%"%';

/*
 * Bounded work: a documented maximum for premake (each child ahead is a
 * table every maintenance pass and the planner look at).  Sets above it are
 * brought down to it, and said so.
 */
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT parent_table, premake FROM partmgr.part_config
              WHERE premake OPERATOR(pg_catalog.>) 1000 LOOP
        RAISE NOTICE 'premake of partition set "%" lowered from % to 1000, the new maximum',
            r.parent_table, r.premake;
    END LOOP;
    FOR r IN SELECT sub_parent, sub_premake FROM partmgr.part_config_sub
              WHERE sub_premake OPERATOR(pg_catalog.>) 1000 LOOP
        RAISE NOTICE 'sub_premake of partition set "%" lowered from % to 1000, the new maximum',
            r.sub_parent, r.sub_premake;
    END LOOP;
END
$$;
UPDATE partmgr.part_config SET premake = 1000 WHERE premake OPERATOR(pg_catalog.>) 1000;
UPDATE partmgr.part_config_sub SET sub_premake = 1000 WHERE sub_premake OPERATOR(pg_catalog.>) 1000;
ALTER TABLE partmgr.part_config
    DROP CONSTRAINT part_config_premake_check,
    ADD CONSTRAINT part_config_premake_check CHECK (premake > 0 AND premake <= 1000);
ALTER TABLE partmgr.part_config_sub
    DROP CONSTRAINT part_config_sub_premake_check,
    ADD CONSTRAINT part_config_sub_premake_check CHECK (sub_premake > 0 AND sub_premake <= 1000);
COMMENT ON COLUMN partmgr.part_config.premake IS
    'How many children to keep ahead of the newest child holding data (1 to 1000).';

/*
 * The log belongs to the owners of the sets: each row records the owner of
 * the set's parent when it was written, and only roles with that owner's
 * privileges (and superusers) see, write or remove it.
 */
ALTER TABLE partmgr.maintenance_log ADD COLUMN owner regrole;
COMMENT ON COLUMN partmgr.maintenance_log.owner IS
    'Owner of the set''s parent table when the row was written: only roles with its privileges see the row.';
UPDATE partmgr.maintenance_log l
   SET owner = c.relowner::regrole
  FROM pg_catalog.pg_class c
  JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
 WHERE ARRAY[n.nspname::text, c.relname::text] OPERATOR(pg_catalog.=)
       CASE WHEN l.parent_table OPERATOR(pg_catalog.~~) '%"%'
            THEN pg_catalog.parse_ident(l.parent_table)
            ELSE pg_catalog.string_to_array(l.parent_table, '.') END;
ALTER TABLE partmgr.maintenance_log ENABLE ROW LEVEL SECURITY;
CREATE POLICY maintenance_log_owner ON partmgr.maintenance_log
    USING (pg_catalog.pg_has_role(owner, 'USAGE'))
    WITH CHECK (pg_catalog.pg_has_role(owner, 'USAGE'));
COMMENT ON POLICY maintenance_log_owner ON partmgr.maintenance_log IS
    'A log row is seen, written and deleted only by roles with the privileges of the owner of its set''s parent (superusers: all).';
COMMENT ON TABLE partmgr.maintenance_log IS
    'One row per maintenance action (done, skipped or failed), with its error; kept pg_partmgr.log_retention days; each role sees the rows of the sets it may maintain.';
COMMENT ON TABLE partmgr.part_config IS
    'One row per partition set managed by pg_partmgr (pg_partman 5.1 columns); a row may be written only by roles with the privileges of the owner of the table it names.';
COMMENT ON COLUMN partmgr.part_config.parent_table IS
    'The partitioned parent as schema.table: unquoted, as pg_partman stores it, unless a name holds a period or a double quote (then both are SQL identifiers).';
