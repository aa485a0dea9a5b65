-- pgTAP tests of the configuration of storage tiers (part_config_tier):
-- what the trigger refuses, with its SQLSTATE and nothing written; who may
-- write a set's tiers; what plan_maintenance, health, missing_grants and
-- the dump say of them.  Moves into real tablespaces are in
-- test/t/021_tiers.pl (CREATE TABLESPACE cannot run in a transaction).
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET client_min_messages = warning;

SELECT plan(25);

CREATE ROLE tier_owner NOSUPERUSER;
CREATE ROLE tier_other NOSUPERUSER;
GRANT USAGE ON SCHEMA partmgr TO tier_owner, tier_other;
GRANT SELECT, INSERT, UPDATE, DELETE ON partmgr.part_config, partmgr.part_config_tier,
      partmgr.maintenance_log TO tier_owner, tier_other;
CREATE SCHEMA tr AUTHORIZATION tier_owner;
SET ROLE tier_owner;
CREATE TABLE tr.t (id bigint NOT NULL, ts timestamptz NOT NULL, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
RESET ROLE;
SELECT partmgr.create_parent('tr.t', 'ts', '1 day', p_premake => 2, p_start_partition => '2030-01-01');
SET ROLE tier_owner;
CREATE TABLE tr.i (id bigint PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE tr.h (id bigint PRIMARY KEY) PARTITION BY HASH (id);
CREATE TABLE tr.l (k int PRIMARY KEY) PARTITION BY LIST (k);
CREATE TABLE tr.s (id bigint PRIMARY KEY) PARTITION BY RANGE (id);
RESET ROLE;
SELECT partmgr.create_parent('tr.i', 'id', '100', p_premake => 2, p_start_partition => '0');
SELECT partmgr.create_parent('tr.h', 'id', '4', p_type => 'hash');
SELECT partmgr.create_parent('tr.l', 'k', '1', p_type => 'list', p_start_partition => '1');
SELECT partmgr.create_parent('tr.s', 'id', '100', p_premake => 1, p_start_partition => '0');
SELECT partmgr.create_sub_parent('tr.s', 'id', '10', p_premake => 1, p_declarative_check => 'yes');

-- the tiers and every child's tablespace, to show nothing changed
CREATE FUNCTION public.tr_state() RETURNS text LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT string_agg(parent_table || ' ' || tier_name || ' ' || older_than || ' ' || tablespace_name,
                                       ', ' ORDER BY parent_table, tier_name)
                       FROM partmgr.part_config_tier), '') || ' / ' ||
           (SELECT count(*) FROM partmgr.reshape_operation)
$$;
CREATE TEMP TABLE tr_before AS SELECT tr_state() AS state;

SELECT lives_ok($$INSERT INTO partmgr.part_config_tier VALUES ('tr.t', 'warm', '7 days', 'pg_default')$$,
                'a tier of a time set, in the database''s tablespace');
SELECT lives_ok($$INSERT INTO partmgr.part_config_tier VALUES ('tr.i', 'cold', '1000', 'pg_default')$$,
                'a tier of an id set');
UPDATE tr_before SET state = tr_state();

SELECT throws_ok($$INSERT INTO partmgr.part_config_tier VALUES ('tr.t', 'cold', 'soon', 'pg_default')$$,
                 '22023', NULL, 'an older_than that is no interval: 22023');
SELECT throws_ok($$INSERT INTO partmgr.part_config_tier VALUES ('tr.t', 'cold', '-3 days', 'pg_default')$$,
                 '22023', NULL, 'a negative interval: 22023');
SELECT throws_ok($$INSERT INTO partmgr.part_config_tier VALUES ('tr.i', 'colder', '10 days', 'pg_default')$$,
                 '22023', NULL, 'an interval for an id set: 22023');
SELECT throws_ok($$INSERT INTO partmgr.part_config_tier VALUES ('tr.i', 'colder', '0', 'pg_default')$$,
                 '22023', NULL, 'an amount of 0: 22023');
SELECT throws_ok($$INSERT INTO partmgr.part_config_tier VALUES ('tr.t', 'cold', '7 days', 'pg_default')$$,
                 '23505', 'tier "warm" of partition set "tr.t" has older_than "7 days" already',
                 'an older_than another tier of the set has: 23505');
SELECT throws_ok($$INSERT INTO partmgr.part_config_tier VALUES ('tr.t', 'cold', '30 days', 'no_such_space')$$,
                 '42704', NULL, 'a tablespace that does not exist: 42704');
SELECT throws_ok($$INSERT INTO partmgr.part_config_tier VALUES ('tr.t', 'cold', '30 days', 'pg_global')$$,
                 '22023', NULL, 'pg_global: 22023');
SELECT throws_ok($$INSERT INTO partmgr.part_config_tier VALUES ('tr.h', 'cold', '30 days', 'pg_default')$$,
                 '0A000', NULL, 'a hash set: 0A000');
SELECT throws_ok($$INSERT INTO partmgr.part_config_tier VALUES ('tr.l', 'cold', '30', 'pg_default')$$,
                 '0A000', NULL, 'a list set: 0A000');
SELECT throws_ok($$INSERT INTO partmgr.part_config_tier VALUES ('tr.s_p0', 'cold', '30', 'pg_default')$$,
                 '0A000', 'partition set "tr.s_p0" is a sub-set of another set', 'a sub-set: 0A000');
SELECT throws_ok($$INSERT INTO partmgr.part_config_tier VALUES ('tr.nothing', 'cold', '30', 'pg_default')$$,
                 '42704', NULL, 'a table that is not a set: 42704');
SELECT throws_ok($$UPDATE partmgr.part_config_tier SET older_than = 'later' WHERE tier_name = 'warm'$$,
                 '22023', NULL, 'an UPDATE is checked too');
SELECT lives_ok($$UPDATE partmgr.part_config_tier SET tier_name = 'tepid' WHERE tier_name = 'warm'$$,
                'renaming a tier is no clash with itself');
UPDATE partmgr.part_config_tier SET tier_name = 'warm' WHERE tier_name = 'tepid';

-- who may write a set's tiers
SET ROLE tier_other;
SELECT throws_ok($$INSERT INTO partmgr.part_config_tier VALUES ('tr.t', 'cold', '30 days', 'pg_default')$$,
                 '42501', NULL, 'another role may not add a tier to the owner''s set');
SELECT throws_ok($$UPDATE partmgr.part_config_tier SET tablespace_name = 'pg_default' WHERE parent_table = 'tr.t'$$,
                 '42501', NULL, 'nor change one');
SELECT throws_ok($$DELETE FROM partmgr.part_config_tier WHERE parent_table = 'tr.t'$$,
                 '42501', NULL, 'nor remove one');
SELECT throws_ok($$TRUNCATE partmgr.part_config_tier$$, '42501', NULL, 'nor truncate them');
RESET ROLE;
SELECT is(tr_state(), (SELECT state FROM tr_before), 'after every refusal the tiers are as they were');

-- a child already where its tier is: nothing to move
SET ROLE tier_owner;
INSERT INTO tr.t SELECT g, '2030-01-01'::timestamptz + g * interval '1 hour' FROM generate_series(0, 47) g;
RESET ROLE;
SELECT is((SELECT count(*)::int FROM partmgr.plan_maintenance('tr.t') WHERE action = 'register move'), 0,
          'children in their tier''s tablespace: no move planned');
SELECT partmgr.run_maintenance('tr.t');
SELECT is((SELECT count(*)::int FROM partmgr.reshape_operation), 0, 'and none registered');
SELECT is((SELECT status FROM partmgr.health WHERE parent_table = 'tr.t'), 'ok', 'health: ok');
SELECT ok(partmgr.dump_partitioned_table_definition('tr.t') LIKE
          E'%\nINSERT INTO partmgr.part_config_tier (parent_table, tier_name, older_than, tablespace_name)\nVALUES (''tr.t'', ''warm'', ''7 days'', ''pg_default'') ON CONFLICT DO NOTHING;%',
          'the dump of the set ends with its tier');
DELETE FROM partmgr.part_config WHERE parent_table = 'tr.i';
SELECT is((SELECT count(*)::int FROM partmgr.part_config_tier WHERE parent_table = 'tr.i'), 0,
          'a set''s tiers go with its configuration');

SELECT * FROM finish();
ROLLBACK;
