-- pgTAP tests of ANALYZE as an action (run_analyze, p_analyze) against a
-- plain role with the documented grants: a plain role cannot make
-- pg_partmgr analyze another role's set, nor write a log row of it; a
-- superuser's run analyzes every set in its owner's scope and logs it under
-- that owner, and the owner's code ANALYZE evaluates (an expression of
-- extended statistics) never runs as the superuser.  (PostgreSQL itself
-- runs ANALYZE's expressions as the table's owner; pg_partmgr's scope is
-- the same owner, so the two agree.)
BEGIN;
SET search_path = public;
SET client_min_messages = warning;

SELECT plan(9);

CREATE ROLE tap_an_att NOSUPERUSER;
CREATE ROLE tap_an_vic NOSUPERUSER;
GRANT USAGE, CREATE ON SCHEMA partmgr TO tap_an_att, tap_an_vic;
GRANT SELECT, INSERT, UPDATE, DELETE ON partmgr.part_config,
      partmgr.part_config_sub, partmgr.part_config_interval, partmgr.maintenance_log TO tap_an_att, tap_an_vic;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA partmgr TO tap_an_att, tap_an_vic;
CREATE SCHEMA tap_an_a AUTHORIZATION tap_an_att;
CREATE SCHEMA tap_an_v AUTHORIZATION tap_an_vic;

SET ROLE tap_an_vic;
CREATE TABLE tap_an_v.vt (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('tap_an_v.vt', 'id', '10', p_start_partition => '0', p_premake => 1);
INSERT INTO tap_an_v.vt SELECT generate_series(0, 9);
RESET ROLE;

SET ROLE tap_an_att;
-- the canary: fails whatever runs it as a superuser
CREATE FUNCTION tap_an_a.spy(x bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'tap_an: the owner''s code ran as superuser %', current_user
            USING ERRCODE = 'P0001';
    END IF;
    RETURN x;
END $$;
CREATE TABLE tap_an_a.at (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('tap_an_a.at', 'id', '10', p_start_partition => '0', p_premake => 1);
INSERT INTO tap_an_a.at SELECT generate_series(0, 19);
CREATE STATISTICS tap_an_a.st ON (tap_an_a.spy(id)) FROM tap_an_a.at;
RESET ROLE;

-- the canary is live
SELECT throws_ok($$SELECT tap_an_a.spy(1)$$, 'P0001', NULL,
                 'the owner''s statistics expression fails when a superuser runs it');

-- a superuser's run_analyze over every set: the attacker's code as the attacker
SELECT lives_ok($$CALL partmgr.run_analyze(p_quiet => true)$$,
                'run_analyze() by a superuser never runs the owner''s code as superuser');
SELECT ok(EXISTS (SELECT 1 FROM pg_statistic_ext s JOIN pg_statistic_ext_data d ON d.stxoid = s.oid
                   WHERE s.stxname = 'st' AND d.stxdinherit),
          'and the statistics were gathered, with the owner''s rights');
SELECT results_eq(
    $$SELECT parent_table, owner::text FROM partmgr.maintenance_log
       WHERE run_by = 'run_analyze' ORDER BY parent_table$$,
    $$VALUES ('tap_an_a.at', 'tap_an_att'), ('tap_an_v.vt', 'tap_an_vic')$$,
    'each set''s analyze is logged under its owner');

-- run_maintenance(p_analyze) after premake made a child: the same
UPDATE partmgr.part_config SET premake = 2 WHERE parent_table = 'tap_an_a.at';
SELECT lives_ok($$SELECT partmgr.run_maintenance('tap_an_a.at', p_analyze => true)$$,
                'run_maintenance(p_analyze) by a superuser, the same');
SELECT is((SELECT count(*)::int FROM partmgr.maintenance_log
            WHERE parent_table = 'tap_an_a.at' AND run_by = 'run_maintenance' AND action = 'analyze'
              AND outcome = 'done'), 1,
          'and analyzes after making a child');

-- the attacker cannot make pg_partmgr analyze the victim's set
SET ROLE tap_an_att;
SELECT throws_ok($$CALL partmgr.run_analyze(p_quiet => true, p_parent_table => 'tap_an_v.vt')$$,
                 '42501', NULL, 'run_analyze of another role''s set: 42501');
CALL partmgr.run_analyze(p_quiet => true);
RESET ROLE;
SELECT is((SELECT count(*)::int FROM partmgr.maintenance_log
            WHERE parent_table = 'tap_an_v.vt' AND run_by = 'run_analyze'), 1,
          'run_analyze() by the attacker over every set leaves the victim''s out');
SELECT is((SELECT count(*)::int FROM partmgr.maintenance_log
            WHERE parent_table = 'tap_an_a.at' AND run_by = 'run_analyze'), 2,
          'and analyzes its own');

SELECT * FROM finish();
ROLLBACK;
