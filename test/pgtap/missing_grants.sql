-- pgTAP tests of missing_grants(): what a set's owner lacks for pg_partmgr
-- to act as it, each with the GRANT that gives it, found before a run
-- meets it:
--   * a table a superuser made and gave to a role without any grant (as
--     pg_partman's own suites do): the call lists USAGE on its schema as
--     required, create_parent refuses with that GRANT, and after the GRANTs
--     the call printed the set is registered and maintained;
--   * a retention schema the owner may not create in, a template whose
--     expression index only the owner may build, an undo target the owner
--     may not write: each is listed as required, health shows it with its
--     GRANT, the work fails with the same GRANT in its hint, and after the
--     printed GRANT the row is gone and the work succeeds;
--   * a plain role sees neither the rows nor the names of another owner's
--     sets, and is refused when it names one;
--   * bad calls are clear errors.
-- Tablespaces are covered by test/t/020_missing_grants.pl (CREATE
-- TABLESPACE cannot run in this file's transaction).
BEGIN;
SET search_path = public;
SET client_min_messages = warning;

SELECT plan(30);

-- the hint of the error a statement raises (NULL if it raises none)
CREATE FUNCTION pg_temp.hint_of(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    h text;
BEGIN
    EXECUTE q;
    RETURN NULL;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS h = PG_EXCEPTION_HINT;
    RETURN h;
END
$$;

CREATE ROLE tap_mg_owner NOSUPERUSER;
CREATE ROLE tap_mg_other NOSUPERUSER;
-- schemas a superuser made: the owner has no grant on them
CREATE SCHEMA mgx;
CREATE SCHEMA mgx_archive;
CREATE SCHEMA mgx_flat;
CREATE TABLE mgx.t (id bigint NOT NULL, v text) PARTITION BY RANGE (id);
ALTER TABLE mgx.t OWNER TO tap_mg_owner;
CREATE TABLE mgx_flat.t (id bigint NOT NULL, v text);

-- == before create_parent ==
SELECT results_eq(
    $$SELECT parent_table, owner, privilege, required, grant_statement
        FROM partmgr.missing_grants('mgx.t') ORDER BY privilege, grant_statement$$,
    $$VALUES ('mgx.t', 'tap_mg_owner', 'CREATE ON SCHEMA mgx', false,
              'GRANT CREATE ON SCHEMA mgx TO tap_mg_owner'),
             ('mgx.t', 'tap_mg_owner', 'USAGE ON SCHEMA mgx', true,
              'GRANT USAGE ON SCHEMA mgx TO tap_mg_owner'),
             ('mgx.t', 'tap_mg_owner', 'USAGE ON SCHEMA partmgr', false,
              'GRANT USAGE ON SCHEMA partmgr TO tap_mg_owner')$$,
    'a table that is not a set yet: what create_parent() and its set need of the owner');
SELECT alike((SELECT needed_for FROM partmgr.missing_grants('mgx.t') WHERE privilege = 'USAGE ON SCHEMA mgx'),
            'create_parent() and every action on the set%',
            'USAGE on the schema is needed for create_parent() itself');
SELECT throws_ok($$SELECT partmgr.create_parent('mgx.t', 'id', '100', p_premake => 2, p_start_partition => '0')$$,
                 '42501', 'role "tap_mg_owner", which owns "mgx.t", may not use schema "mgx"',
                 'create_parent refuses, as the call said it would');
SELECT is((SELECT count(*)::int FROM partmgr.part_config WHERE parent_table = 'mgx.t'), 0,
          'and registers nothing');

-- the GRANTs the call printed, and nothing else
DO $$
DECLARE g text;
BEGIN
    FOR g IN SELECT grant_statement FROM partmgr.missing_grants('mgx.t') LOOP
        EXECUTE g;
    END LOOP;
END
$$;
SELECT is((SELECT count(*)::int FROM partmgr.missing_grants('mgx.t')), 0,
          'after the printed GRANTs nothing is missing');
SELECT ok(partmgr.create_parent('mgx.t', 'id', '100', p_premake => 4, p_start_partition => '0'),
          'and create_parent registers the set');
INSERT INTO mgx.t SELECT g, 'v' || g FROM generate_series(0, 449) g;
SELECT lives_ok($$SELECT partmgr.run_maintenance('mgx.t')$$, 'its maintenance runs');
SELECT is((SELECT count(*)::int FROM pg_inherits WHERE inhparent = 'mgx.t'::regclass AND inhrelid <> 'mgx.t_default'::regclass), 9,
          'and makes the children the data needs (0 to 900: four ahead of the child of id 449)');
SELECT results_eq($$SELECT status, reason FROM partmgr.health WHERE parent_table = 'mgx.t'$$,
                  $$VALUES ('ok', NULL::text)$$, 'health: ok');

-- == a retention schema the owner may not create in ==
UPDATE partmgr.part_config SET retention = '200', retention_schema = 'mgx_archive'
 WHERE parent_table = 'mgx.t';
SELECT results_eq(
    $$SELECT privilege, required, needed_for, grant_statement FROM partmgr.missing_grants()
       WHERE parent_table = 'mgx.t'$$,
    $$VALUES ('CREATE ON SCHEMA mgx_archive', true,
              'retention: expired children are moved into this schema',
              'GRANT CREATE ON SCHEMA mgx_archive TO tap_mg_owner')$$,
    'every set: the retention schema is listed as required');
SELECT results_eq(
    $$SELECT status, reason FROM partmgr.health WHERE parent_table = 'mgx.t'$$,
    $$VALUES ('critical', 'the owner lacks CREATE ON SCHEMA mgx_archive, needed for retention: expired children are moved into this schema (GRANT CREATE ON SCHEMA mgx_archive TO tap_mg_owner)')$$,
    'health: critical, with the GRANT');
SELECT throws_ok($$SELECT partmgr.run_maintenance('mgx.t')$$,
                 '42501', 'role "tap_mg_owner" may not create tables in retention schema "mgx_archive" of partition set "mgx.t"',
                 'and retention fails on exactly that');
SELECT is(pg_temp.hint_of($$SELECT partmgr.run_maintenance('mgx.t')$$),
          (SELECT grant_statement || '.' FROM partmgr.missing_grants('mgx.t')),
          'with the GRANT the call printed as hint');
GRANT CREATE ON SCHEMA mgx_archive TO tap_mg_owner;
SELECT is((SELECT count(*)::int FROM partmgr.missing_grants('mgx.t')), 0, 'after the GRANT the row is gone');
SELECT lives_ok($$SELECT partmgr.run_maintenance('mgx.t')$$, 'and retention runs');
SELECT ok((SELECT count(*) FROM pg_tables WHERE schemaname = 'mgx_archive') > 0,
          'moving expired children into the schema');
UPDATE partmgr.part_config SET retention = NULL, retention_schema = NULL WHERE parent_table = 'mgx.t';

-- == a template index only the owner may build ==
REVOKE CREATE ON SCHEMA mgx FROM tap_mg_owner;
SELECT results_eq(
    $$SELECT privilege, required FROM partmgr.missing_grants('mgx.t') ORDER BY 1$$,
    $$VALUES ('CREATE ON SCHEMA mgx', false)$$,
    'without CREATE on its schema: listed, not required (a superuser''s run makes the children)');
SELECT lives_ok($$SELECT partmgr.run_maintenance('mgx.t')$$, 'and a superuser''s run maintains the set');
DO $$
BEGIN
    EXECUTE (SELECT format('CREATE UNIQUE INDEX mgx_tmpl_lower ON %s (lower(v), id)', template_table)
               FROM partmgr.part_config WHERE parent_table = 'mgx.t');
END
$$;
SELECT results_eq(
    $$SELECT privilege, required, needed_for FROM partmgr.missing_grants('mgx.t') ORDER BY 1$$,
    $$VALUES ('CREATE ON SCHEMA mgx', true,
              'new children: the template''s expression or partial indexes are built by the owner alone')$$,
    'with an expression index on the template, CREATE is required');
SELECT results_eq($$SELECT status, reason FROM partmgr.health WHERE parent_table = 'mgx.t'$$,
                  $$VALUES ('critical', 'the owner lacks CREATE ON SCHEMA mgx, needed for new children: the template''s expression or partial indexes are built by the owner alone (GRANT CREATE ON SCHEMA mgx TO tap_mg_owner)')$$,
                  'health: critical, with the GRANT');
INSERT INTO mgx.t VALUES (650, 'near the top');
SELECT throws_ok($$SELECT partmgr.run_maintenance('mgx.t', p_analyze => false)$$,
                 '42501', 'role "tap_mg_owner", which owns "mgx.t", may not create the indexes of the template on new children in schema "mgx"',
                 'and a new child cannot be made without it');
SELECT is(pg_temp.hint_of($$SELECT partmgr.run_maintenance('mgx.t', p_analyze => false)$$),
          (SELECT grant_statement || '.' FROM partmgr.missing_grants('mgx.t')),
          'with the GRANT the call printed as hint');
GRANT CREATE ON SCHEMA mgx TO tap_mg_owner;
SELECT lives_ok($$SELECT partmgr.run_maintenance('mgx.t', p_analyze => false)$$,
                'after the GRANT the child is made');

-- == an undo target the owner may not write ==
SELECT results_eq(
    $$SELECT privilege, required, grant_statement FROM partmgr.missing_grants('mgx.t', 'mgx_flat.t') ORDER BY 1$$,
    $$VALUES ('INSERT ON TABLE mgx_flat.t', true, 'GRANT INSERT ON TABLE mgx_flat.t TO tap_mg_owner'),
             ('USAGE ON SCHEMA mgx_flat', true, 'GRANT USAGE ON SCHEMA mgx_flat TO tap_mg_owner')$$,
    'with p_target_table: USAGE on its schema and INSERT on it');
SELECT throws_ok($$SELECT partmgr.undo_partition('mgx.t', 'mgx_flat.t', p_loop_count => 100)$$,
                 '42501', 'role "tap_mg_owner", the owner of "mgx.t", lacks INSERT on target table mgx_flat.t',
                 'undo_partition into it is refused');
GRANT USAGE ON SCHEMA mgx_flat TO tap_mg_owner;
GRANT INSERT ON mgx_flat.t TO tap_mg_owner;
SELECT results_eq($$SELECT rows_undone FROM partmgr.undo_partition('mgx.t', 'mgx_flat.t', p_loop_count => 100)$$,
                  $$VALUES (251::bigint)$$,
                  'after the printed GRANTs every row is undone into it (450, less the 200 retention moved, and 650)');

-- == another role ==
CREATE TABLE mgx.u (id bigint NOT NULL) PARTITION BY RANGE (id);
ALTER TABLE mgx.u OWNER TO tap_mg_owner;
SELECT ok(partmgr.create_parent('mgx.u', 'id', '100', p_start_partition => '0'), 'another set of the owner');
-- what doc/operations.md gives a monitoring role
GRANT USAGE ON SCHEMA partmgr TO tap_mg_other;
GRANT SELECT ON partmgr.health, partmgr.part_config, partmgr.part_config_interval, partmgr.maintenance_log TO tap_mg_other;
REVOKE CREATE ON SCHEMA mgx FROM tap_mg_owner;
SET ROLE tap_mg_other;
SELECT is((SELECT count(*)::int FROM partmgr.missing_grants()), 0,
          'a plain role sees no row of another owner''s sets');
SELECT throws_ok($$SELECT * FROM partmgr.missing_grants('mgx.u')$$, '42501', NULL,
                 'and is refused when it names one');
RESET ROLE;

-- == bad calls ==
SELECT throws_ok($$SELECT * FROM partmgr.missing_grants(NULL, 'mgx_flat.t')$$, '22023',
                 'p_target_table "mgx_flat.t" needs p_parent_table',
                 'a target without a set');
SELECT * FROM finish();
ROLLBACK;
