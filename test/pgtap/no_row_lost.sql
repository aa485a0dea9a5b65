-- pgTAP tests that a path copying a child's rows somewhere before it drops
-- or empties the child never loses a row to row security, a trigger or a
-- rule: a policy that would hide rows from the owner (FORCE ROW LEVEL
-- SECURITY) makes the statement fail (row_security is off in the owner's
-- scope, rights.c), a trigger on the target that swallows rows makes the
-- move fail when the counts differ (09000), a rule on a table rows move
-- through is refused (42809).  Every refusal leaves every row where it was.
-- The paths: split_partition, merge_partitions, change_interval's reshape,
-- split_hash_partition, undo_partition, partition_data from a source table
-- and from the default, the maintenance that moves default rows, and
-- retention into an archive schema (which moves a child whole).
BEGIN;
SET search_path = public;
SET client_min_messages = warning;

SELECT plan(31);

CREATE ROLE tap_nrl_owner NOSUPERUSER;
GRANT USAGE ON SCHEMA partmgr TO tap_nrl_owner;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA partmgr TO tap_nrl_owner;
CREATE SCHEMA nrl AUTHORIZATION tap_nrl_owner;

SET ROLE tap_nrl_owner;
CREATE TABLE nrl.t (id bigint PRIMARY KEY, tenant int NOT NULL) PARTITION BY RANGE (id);
RESET ROLE;
SELECT ok(partmgr.create_parent('nrl.t', 'id', '100', p_premake => 2, p_start_partition => '0'),
          'a set of children of 100 owned by a plain role');
INSERT INTO nrl.t SELECT g, g % 2 FROM generate_series(0, 299) g;

-- the count and a checksum of every row of the set, seen by the superuser
CREATE FUNCTION pg_temp.nrl_rows() RETURNS text LANGUAGE sql AS $$
    SELECT count(*) || ' ' || coalesce(sum(id * 3 + tenant), 0) FROM nrl.t
$$;
CREATE TEMP TABLE nrl_before AS SELECT pg_temp.nrl_rows() AS rows_all;

-- a tenant policy on one child, forced on the owner
ALTER TABLE nrl.t_p0 ENABLE ROW LEVEL SECURITY;
ALTER TABLE nrl.t_p0 FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_0 ON nrl.t_p0 USING (tenant = 0);

SELECT throws_ok($$CALL partmgr.split_partition('nrl.t_p0', '50', p_quiet => true)$$,
                 '42501', 'query would be affected by row-level security policy for table "t_p0"',
                 'split_partition of a child whose policy hides rows from the owner is refused');
SELECT is(pg_temp.nrl_rows(), (SELECT rows_all FROM nrl_before), 'and every row is kept');
DO $$BEGIN PERFORM partmgr.cancel_reshape('nrl.t'); END$$;

SELECT throws_ok($$CALL partmgr.merge_partitions(ARRAY['nrl.t_p0', 'nrl.t_p100'], p_quiet => true)$$,
                 '42501', 'query would be affected by row-level security policy for table "t_p0"',
                 'merge_partitions of such a child is refused');
SELECT is(pg_temp.nrl_rows(), (SELECT rows_all FROM nrl_before), 'and every row is kept');
DO $$BEGIN PERFORM partmgr.cancel_reshape('nrl.t'); END$$;

SET ROLE tap_nrl_owner;
CREATE TABLE nrl.undo_target (id bigint, tenant int);
RESET ROLE;
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('nrl.t', p_target_table => 'nrl.undo_target',
                                                         p_keep_table => false, p_loop_count => 10)$$,
                 '42501', 'query would be affected by row-level security policy for table "t_p0"',
                 'undo_partition of a set with such a child is refused');
SELECT is(pg_temp.nrl_rows(), (SELECT rows_all FROM nrl_before), 'and every row is kept');
SELECT is((SELECT count(*)::int FROM nrl.undo_target), 0, 'none of them in the target either');

-- a source table with such a policy
SET ROLE tap_nrl_owner;
CREATE TABLE nrl.src (id bigint NOT NULL, tenant int NOT NULL);
INSERT INTO nrl.src SELECT g, g % 2 FROM generate_series(300, 399) g;
ALTER TABLE nrl.src ENABLE ROW LEVEL SECURITY;
ALTER TABLE nrl.src FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_0 ON nrl.src USING (tenant = 0);
RESET ROLE;
SELECT throws_ok($$SELECT partmgr.partition_data_id('nrl.t', p_batch_count => 10, p_source_table => 'nrl.src')$$,
                 '42501', 'query would be affected by row-level security policy for table "src"',
                 'partition_data_id from a source table whose policy hides rows is refused');
SELECT is((SELECT count(*)::int FROM nrl.src), 100, 'and the source keeps every row');
ALTER TABLE nrl.t_p0 NO FORCE ROW LEVEL SECURITY;

-- change_interval's reshape of a set with such a child
SET ROLE tap_nrl_owner;
CREATE TABLE nrl.ci (id bigint PRIMARY KEY, tenant int NOT NULL) PARTITION BY RANGE (id);
RESET ROLE;
SELECT partmgr.create_parent('nrl.ci', 'id', '100', p_premake => 1, p_start_partition => '0');
INSERT INTO nrl.ci SELECT g, g % 2 FROM generate_series(0, 199) g;
ALTER TABLE nrl.ci_p0 ENABLE ROW LEVEL SECURITY;
ALTER TABLE nrl.ci_p0 FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_0 ON nrl.ci_p0 USING (tenant = 0);
SELECT lives_ok($$SELECT partmgr.change_interval('nrl.ci', '50', p_reshape_existing => true)$$,
                'change_interval registers the reshape of the existing children');
SELECT throws_ok($$CALL partmgr.run_reshape('nrl.ci', p_quiet => true)$$,
                 '42501', 'query would be affected by row-level security policy for table "ci_p0"',
                 'run_reshape of a child whose policy hides rows from the owner is refused');
SELECT is((SELECT count(*)::int FROM nrl.ci), 200, 'and every row is kept');

-- split_hash_partition of such a child
SET ROLE tap_nrl_owner;
CREATE TABLE nrl.h (id bigint PRIMARY KEY, tenant int NOT NULL) PARTITION BY HASH (id);
RESET ROLE;
SELECT partmgr.create_parent('nrl.h', 'id', '2', p_type => 'hash');
INSERT INTO nrl.h SELECT g, g % 2 FROM generate_series(0, 399) g;
ALTER TABLE nrl.h_h2_0 ENABLE ROW LEVEL SECURITY;
ALTER TABLE nrl.h_h2_0 FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_0 ON nrl.h_h2_0 USING (tenant = 0);
SELECT throws_ok($$CALL partmgr.split_hash_partition('nrl.h_h2_0', p_quiet => true)$$,
                 '42501', 'query would be affected by row-level security policy for table "h_h2_0"',
                 'split_hash_partition of such a child is refused');
SELECT is((SELECT count(*)::int FROM nrl.h), 400, 'and every row is kept');

-- partition_data from the default partition into new children: the rows
-- are moved, not inserted anew, so a BEFORE INSERT trigger of the parent
-- (cloned onto children once they are attached) does not see them: every
-- row reaches its child; a policy that hides rows of the default from the
-- owner makes the move fail
SET ROLE tap_nrl_owner;
CREATE TABLE nrl.d (id bigint NOT NULL, tenant int NOT NULL) PARTITION BY RANGE (id);
RESET ROLE;
SELECT partmgr.create_parent('nrl.d', 'id', '100', p_premake => 1, p_start_partition => '0');
INSERT INTO nrl.d SELECT g, g % 2 FROM generate_series(0, 399) g;
SET ROLE tap_nrl_owner;
CREATE FUNCTION nrl.drop_odd_d() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.tenant = 1 AND NEW.id >= 200 THEN RETURN NULL; END IF;
    RETURN NEW;
END
$$;
RESET ROLE;
SELECT is((SELECT count(*)::int FROM ONLY nrl.d_default), 200, 'the default holds 200 rows');
ALTER TABLE nrl.d_default ENABLE ROW LEVEL SECURITY;
ALTER TABLE nrl.d_default FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_0 ON nrl.d_default USING (tenant = 0);
SELECT throws_ok($$SELECT partmgr.partition_data_id('nrl.d', p_batch_count => 10)$$,
                 '42501', 'query would be affected by row-level security policy for table "d_default"',
                 'partition_data_id from a default whose policy hides rows from the owner is refused');
SELECT throws_ok($$SELECT partmgr.run_maintenance('nrl.d')$$,
                 '42501', 'query would be affected by row-level security policy for table "d_default"',
                 'and so is the maintenance that would move them');
SELECT is((SELECT count(*)::int FROM ONLY nrl.d_default), 200, 'and the default keeps its rows');
ALTER TABLE nrl.d_default NO FORCE ROW LEVEL SECURITY;
CREATE TRIGGER drop_odd BEFORE INSERT ON nrl.d FOR EACH ROW EXECUTE FUNCTION nrl.drop_odd_d();
SELECT is(partmgr.partition_data_id('nrl.d', p_batch_count => 10), 200::bigint,
          'partition_data_id moves the 200 rows of the default');
SELECT is((SELECT count(*) || ' ' || sum(id) FROM nrl.d), '400 79800',
          'every row is in the set once: the parent''s trigger swallowed none of the moved rows');
SELECT is((SELECT count(*)::int FROM ONLY nrl.d_default), 0, 'none is left in the default');
DROP TRIGGER drop_odd ON nrl.d;

-- retention into an archive schema moves the child whole, hidden rows too
CREATE SCHEMA nrl_archive AUTHORIZATION tap_nrl_owner;
ALTER TABLE nrl.d_p0 ENABLE ROW LEVEL SECURITY;
ALTER TABLE nrl.d_p0 FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_0 ON nrl.d_p0 USING (tenant = 0);
UPDATE partmgr.part_config SET retention = '250', retention_schema = 'nrl_archive'
 WHERE parent_table = 'nrl.d';
SELECT lives_ok($$SELECT partmgr.run_maintenance('nrl.d')$$, 'maintenance retires the expired children');
SELECT is((SELECT count(*)::int FROM nrl_archive.d_p0), 100,
          'the archived child has all of its 100 rows, those its policy hides as well');

-- a target whose trigger swallows rows
SET ROLE tap_nrl_owner;
CREATE FUNCTION nrl.drop_odd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.tenant = 1 THEN RETURN NULL; END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER drop_odd BEFORE INSERT ON nrl.undo_target FOR EACH ROW EXECUTE FUNCTION nrl.drop_odd();
RESET ROLE;
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('nrl.t', p_target_table => 'nrl.undo_target',
                                                         p_keep_table => false, p_loop_count => 10)$$,
                 '09000', 'not every row of nrl.t_p0 reached nrl.undo_target: 100 read, 50 written',
                 'undo_partition into a target whose trigger swallows rows fails, saying how many');
SELECT is(pg_temp.nrl_rows(), (SELECT rows_all FROM nrl_before), 'and every row is kept in the set');
SELECT is((SELECT count(*)::int FROM nrl.undo_target), 0, 'none in the target');

-- a target with a rule that does nothing
SET ROLE tap_nrl_owner;
CREATE TABLE nrl.undo_nothing (id bigint, tenant int);
CREATE RULE nothing AS ON INSERT TO nrl.undo_nothing DO INSTEAD NOTHING;
RESET ROLE;
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('nrl.t', p_target_table => 'nrl.undo_nothing',
                                                         p_keep_table => false, p_loop_count => 10)$$,
                 '42809', 'pg_partmgr does not move rows of table nrl.undo_nothing, which has rule "nothing"',
                 'undo_partition into a target with a DO INSTEAD NOTHING rule is refused');
SELECT is(pg_temp.nrl_rows(), (SELECT rows_all FROM nrl_before), 'and every row is kept in the set');

-- with the trigger gone, the undo places every row
DROP TRIGGER drop_odd ON nrl.undo_target;
SELECT results_eq($$SELECT * FROM partmgr.undo_partition('nrl.t', p_target_table => 'nrl.undo_target',
                                                          p_keep_table => false, p_loop_count => 10)$$,
                  $$VALUES (4, 300::bigint)$$,
                  'without trigger or policy, undo_partition moves all 300 rows out of its four tables');
SELECT is((SELECT count(*) || ' ' || sum(id * 3 + tenant) FROM nrl.undo_target),
          (SELECT rows_all FROM nrl_before), 'and the target has every one of them');

SELECT * FROM finish();
ROLLBACK;
