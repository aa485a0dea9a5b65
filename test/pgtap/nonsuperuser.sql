--
-- A role that is not a superuser, owns its tables and was given the use of
-- the extension runs a set's whole life cycle; tables it does not own stay
-- out of its reach.
--
BEGIN;
SELECT plan(31);

-- the grants pg_partman's documentation gives a non-superuser
CREATE ROLE tap_ns_owner NOSUPERUSER;
CREATE ROLE tap_ns_other NOSUPERUSER;
GRANT USAGE, CREATE ON SCHEMA partmgr TO tap_ns_owner;
GRANT ALL ON ALL TABLES IN SCHEMA partmgr TO tap_ns_owner;
GRANT ALL ON ALL SEQUENCES IN SCHEMA partmgr TO tap_ns_owner;
CREATE SCHEMA tap_ns AUTHORIZATION tap_ns_owner;

-- someone else's set (children and template are made with its owner's rights)
GRANT USAGE, CREATE ON SCHEMA partmgr TO tap_ns_other;
GRANT USAGE, CREATE ON SCHEMA tap_ns TO tap_ns_other;
CREATE TABLE tap_ns.theirs (id bigint NOT NULL) PARTITION BY RANGE (id);
ALTER TABLE tap_ns.theirs OWNER TO tap_ns_other;
SELECT partmgr.create_parent('tap_ns.theirs', 'id', '10', p_start_partition => '0', p_premake => 1);
INSERT INTO tap_ns.theirs SELECT generate_series(0, 15);
CREATE TABLE public.tap_ns_children (parent text, n int);
INSERT INTO public.tap_ns_children
    SELECT 'theirs', count(*)::int FROM pg_inherits WHERE inhparent = 'tap_ns.theirs'::regclass;

SET ROLE tap_ns_owner;

-- create_parent: children and template belong to the caller
CREATE TABLE tap_ns.mine (id bigint NOT NULL, ts timestamptz NOT NULL DEFAULT now(), v text)
    PARTITION BY RANGE (id);
SELECT ok(partmgr.create_parent('tap_ns.mine', 'id', '10', p_start_partition => '0', p_premake => 2,
                                p_constraint_cols => ARRAY['ts']),
          'create_parent as the owner, not a superuser');
SELECT is((SELECT count(*)::int FROM pg_inherits WHERE inhparent = 'tap_ns.mine'::regclass), 4,
          'its first children and default partition exist');
SELECT is((SELECT count(*)::int FROM pg_class c JOIN pg_inherits i ON i.inhrelid = c.oid
            WHERE i.inhparent = 'tap_ns.mine'::regclass AND c.relowner <> 'tap_ns_owner'::regrole), 0,
          'every child belongs to the owner');
SELECT is((SELECT pg_get_userbyid(relowner) FROM pg_class
            WHERE oid = 'partmgr.template_tap_ns_mine'::regclass), 'tap_ns_owner',
          'the template table made for it belongs to the owner');

-- configuration by UPDATE, maintenance, rows
UPDATE partmgr.part_config SET premake = 3, optimize_constraint = 1 WHERE parent_table = 'tap_ns.mine';
INSERT INTO tap_ns.mine (id, v) SELECT g, 'v' || g FROM generate_series(0, 29) g;
SELECT lives_ok($$SELECT partmgr.run_maintenance('tap_ns.mine')$$, 'run_maintenance of its set');
SELECT ok(to_regclass('tap_ns.mine_p50') IS NOT NULL, 'premake made the children ahead of id 29');
SELECT lives_ok($$SELECT partmgr.run_maintenance('tap_ns.mine')$$,
    'run_maintenance again (validates the derived constraints it added)');
SELECT cmp_ok((SELECT count(*)::int FROM pg_constraint WHERE conname LIKE 'partmanconstr\_mine\_%' AND convalidated), '>', 0,
    'derived constraints added and validated');

-- rows in the default partition, moved by partition_data
INSERT INTO tap_ns.mine (id, v) VALUES (95, 'far');
SELECT is(partmgr.partition_data_id('tap_ns.mine'), 1::bigint, 'partition_data_id moves its default partition''s row');
SELECT ok(to_regclass('tap_ns.mine_p90') IS NOT NULL, 'into a new child');

-- properties and privileges
GRANT SELECT ON tap_ns.mine TO tap_ns_other;
UPDATE partmgr.part_config SET inherit_privileges = true WHERE parent_table = 'tap_ns.mine';
SELECT lives_ok($$SELECT partmgr.reapply_privileges('tap_ns.mine')$$, 'reapply_privileges of its set');
SELECT is((SELECT count(*)::int FROM partmgr.check_children('tap_ns.mine')), 0,
    'check_children: every child matches');
SELECT ok(has_table_privilege('tap_ns_other', 'tap_ns.mine_p0', 'SELECT'), 'the grant reached the children');

-- retention, drop_partition_id
UPDATE partmgr.part_config SET retention = '30', retention_keep_table = false WHERE parent_table = 'tap_ns.mine';
SELECT is(partmgr.drop_partition_id('tap_ns.mine'), 6, 'drop_partition_id drops the expired children below 65');
SELECT ok(to_regclass('tap_ns.mine_p0') IS NULL, 'tap_ns.mine_p0 is gone');

-- the dry run, the health view, the dump
SELECT lives_ok($$SELECT * FROM partmgr.plan_maintenance('tap_ns.mine')$$, 'plan_maintenance of its set');
SELECT is((SELECT count(*)::int FROM partmgr.health WHERE parent_table = 'tap_ns.mine'), 1, 'its row in partmgr.health');
SELECT alike(partmgr.dump_partitioned_table_definition('tap_ns.mine'), 'SELECT partmgr.create_parent(%',
    'dump_partitioned_table_definition of its set');

-- sub-partitioning of its own set, and someone else's refused
CREATE TABLE tap_ns.subbed (id bigint NOT NULL, ts timestamptz NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('tap_ns.subbed', 'id', '10', p_start_partition => '0', p_premake => 1,
                             p_template_table => 'false');
SELECT ok(partmgr.create_sub_parent('tap_ns.subbed', 'ts', '1 day', p_declarative_check => 'yes',
                                    p_premake => 1, p_start_partition => '2100-01-01'),
          'create_sub_parent of its own set');
INSERT INTO tap_ns.subbed VALUES (15, '2100-01-01 10:00+00');
SELECT partmgr.run_maintenance('tap_ns.subbed');
SELECT is((SELECT pg_get_userbyid(c.relowner) || ' ' || c.relkind::text
             FROM pg_class c WHERE c.oid = 'tap_ns.subbed_p20'::regclass)
          || ' ' || (SELECT count(*)::text FROM pg_inherits WHERE inhparent = 'tap_ns.subbed_p20'::regclass),
          'tap_ns_owner p 4', 'maintenance makes its new sub-parent, with its sub-set''s children and default');
CREATE TABLE tap_ns.subbed_flat (id bigint, ts timestamptz);
SELECT is((SELECT rows_undone FROM partmgr.undo_partition('tap_ns.subbed', 'tap_ns.subbed_flat',
                                                          p_loop_count => 100, p_keep_table => false)),
          1::bigint, 'undo_partition of its sub-partitioned set');
SELECT ok(NOT EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table LIKE 'tap_ns.subbed%'),
          'forgets every level');
SELECT throws_ok($$SELECT partmgr.create_sub_parent('tap_ns.theirs', 'id', '5', p_declarative_check => 'yes')$$,
    '42501', NULL, 'create_sub_parent of a set it does not own: 42501');

-- someone else's tables: refused, nothing changed
SELECT throws_ok($$SELECT partmgr.run_maintenance('tap_ns.theirs')$$, '42501', NULL,
    'run_maintenance of a set whose table it does not own: 42501');
SELECT throws_ok($$SELECT partmgr.drop_partition_id('tap_ns.theirs', 5)$$, '42501', NULL,
    'drop_partition_id on a set it does not own: 42501');
SELECT throws_ok($$SELECT partmgr.partition_data_id('tap_ns.theirs')$$, '42501', NULL,
    'partition_data_id on a set it does not own: 42501');
CREATE TABLE tap_ns.theirs_target (id bigint);
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('tap_ns.theirs', 'tap_ns.theirs_target', p_loop_count => 5)$$,
    '42501', NULL, 'undo_partition of a set it does not own: 42501');
RESET ROLE;
SELECT is((SELECT count(*)::int FROM pg_inherits WHERE inhparent = 'tap_ns.theirs'::regclass),
          (SELECT n FROM public.tap_ns_children WHERE parent = 'theirs'),
          'the other role''s set has the same children as before');
SELECT is((SELECT count(*)::int FROM tap_ns.theirs), 16, 'and all its rows');

-- undo of its own set, to the end
SET ROLE tap_ns_owner;
CREATE TABLE tap_ns.mine_flat (id bigint, ts timestamptz, v text);
SELECT lives_ok($$SELECT * FROM partmgr.undo_partition('tap_ns.mine', 'tap_ns.mine_flat', p_loop_count => 100,
                                                       p_keep_table => false)$$,
    'undo_partition of its own set');
RESET ROLE;
SELECT ok(NOT EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table = 'tap_ns.mine')
          AND to_regclass('partmgr.template_tap_ns_mine') IS NULL,
          'the set is forgotten and its template dropped');

SELECT * FROM finish();
ROLLBACK;
