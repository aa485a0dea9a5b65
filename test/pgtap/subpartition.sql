-- pgTAP tests of sub-partitioning: create_sub_parent() (its refusal
-- without p_declarative_check, the rows of a recreated child kept in a
-- table of their own, each child registered as a set of its own),
-- part_config_sub, new children of maintenance made sub-parents with the
-- part_config_sub settings, each combination of levels (time in id, time
-- in time, id in id, id in time), sub-sets keyed by their parent's column
-- kept inside its range (sub_partition_set_full), retention and undo
-- through levels, stop_sub_partition(), config_cleanup(), bad input.
--
-- Deterministic: bounds are far-future (2100) or ids; where a sub-set is
-- made by maintenance without a start, only how many children it has and
-- where they stop is asserted, never names that depend on today.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = warning;

SELECT plan(96);

CREATE SCHEMA tap_sub;

-- relkind of a table ('' when it does not exist)
CREATE FUNCTION public.tap_sub_kind(p_table text)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT c.relkind::text FROM pg_class c
                      WHERE c.oid = to_regclass(p_table)), '')
$$;

-- the partitions of a table, by name, comma separated ('' for none)
CREATE FUNCTION public.tap_sub_children(p_table text)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce(string_agg(c.relname::text, ',' ORDER BY c.relname COLLATE "C"), '')
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = to_regclass(p_table)
$$;

-- the sets registered in part_config whose parent starts with a prefix
CREATE FUNCTION public.tap_sub_sets(p_prefix text)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce(string_agg(parent_table, ',' ORDER BY parent_table COLLATE "C"), '')
      FROM partmgr.part_config WHERE parent_table LIKE p_prefix || '%'
$$;

------------------------------------------------------------------------
-- Time in id: an id set (interval 10) whose children are partitioned by
-- day, with a template whose primary key the leaf children get.
------------------------------------------------------------------------
CREATE TABLE tap_sub.ids (
    id int NOT NULL,
    ts timestamptz NOT NULL,
    note text)
    PARTITION BY RANGE (id);
CREATE TABLE tap_sub.ids_tmpl (LIKE tap_sub.ids);
ALTER TABLE tap_sub.ids_tmpl ADD PRIMARY KEY (id);
SELECT partmgr.create_parent('tap_sub.ids', 'id', '10', p_premake => 2,
                             p_start_partition => '0', p_template_table => 'tap_sub.ids_tmpl');
INSERT INTO tap_sub.ids VALUES (1, '2100-01-01 10:00+00', 'a'), (2, '2100-01-01 11:00+00', 'b'),
                               (3, '2100-01-02 10:00+00', 'c');

-- refused without p_declarative_check => 'yes': nothing changes
SELECT throws_ok(
    $$SELECT partmgr.create_sub_parent('tap_sub.ids', 'ts', '1 day')$$,
    '22023', NULL, 'create_sub_parent without p_declarative_check is refused');
SELECT throws_ok(
    $$SELECT partmgr.create_sub_parent('tap_sub.ids', 'ts', '1 day', p_declarative_check => 'no')$$,
    '22023', NULL, 'create_sub_parent with p_declarative_check other than yes is refused');
SELECT is(tap_sub_kind('tap_sub.ids_p0'), 'r', 'a refused create_sub_parent leaves the child as it was');
SELECT is((SELECT count(*)::int FROM partmgr.part_config_sub), 0, 'and writes no part_config_sub row');
SELECT throws_ok(
    $$SELECT partmgr.create_sub_parent('tap_sub.ids', 'nosuch', '1 day', p_declarative_check => 'yes')$$,
    '42703', NULL, 'create_sub_parent on a column the table lacks is refused');
SELECT throws_ok(
    $$SELECT partmgr.create_sub_parent('tap_sub.ids_tmpl', 'ts', '1 day', p_declarative_check => 'yes')$$,
    '42704', NULL, 'create_sub_parent on a table that is not a partition set is refused');
-- a nullable sub control column fails while registering the first sub-set: all of it is undone
ALTER TABLE tap_sub.ids ALTER COLUMN ts DROP NOT NULL;
SELECT throws_ok(
    $$SELECT partmgr.create_sub_parent('tap_sub.ids', 'ts', '1 day', p_declarative_check => 'yes')$$,
    '55000', NULL, 'a sub-set that cannot be registered fails create_sub_parent');
SELECT ok(tap_sub_kind('tap_sub.ids_p0') = 'r' AND tap_sub_kind('tap_sub.ids_p0_presub') = ''
          AND (SELECT count(*) FROM tap_sub.ids_p0) = 3
          AND (SELECT count(*) FROM partmgr.part_config_sub) = 0,
          'and leaves the children, their rows and part_config_sub as they were');
ALTER TABLE tap_sub.ids ALTER COLUMN ts SET NOT NULL;

SELECT ok(partmgr.create_sub_parent('tap_sub.ids', 'ts', '1 day', p_declarative_check => 'yes',
                                    p_premake => 1, p_start_partition => '2100-01-01'),
          'create_sub_parent returns true');
SELECT is(tap_sub_kind('tap_sub.ids_p0') || tap_sub_kind('tap_sub.ids_p10') || tap_sub_kind('tap_sub.ids_p20'),
          'ppp', 'every child is now a partitioned table');
SELECT is(tap_sub_sets('tap_sub.ids'), 'tap_sub.ids,tap_sub.ids_p0,tap_sub.ids_p10,tap_sub.ids_p20',
          'and each is registered as a set of its own');
SELECT results_eq(
    $$SELECT control, partition_interval, partition_type, premake, template_table
        FROM partmgr.part_config WHERE parent_table = 'tap_sub.ids_p10'$$,
    $$VALUES ('ts'::text, '1 day'::text, 'range'::text, 1, 'tap_sub.ids_tmpl'::text)$$,
    'a sub-set has the given control, interval, type and premake, and the set''s template');
SELECT results_eq(
    $$SELECT sub_parent, sub_control, sub_partition_interval, sub_partition_type, sub_premake,
             sub_template_table, sub_default_table
        FROM partmgr.part_config_sub$$,
    $$VALUES ('tap_sub.ids'::text, 'ts'::text, '1 day'::text, 'range'::text, 1,
              'tap_sub.ids_tmpl'::text, true)$$,
    'part_config_sub holds how new children are partitioned');
SELECT is(tap_sub_children('tap_sub.ids_p10'), 'ids_p10_default,ids_p10_p21000101',
          'a sub-set gets its first child from p_start_partition, and a default partition');
-- the child that held rows is kept under a new name, out of the set
SELECT is(tap_sub_kind('tap_sub.ids_p0_presub'), 'r', 'rows of a recreated child are kept in <child>_presub');
SELECT is((SELECT count(*)::int FROM tap_sub.ids_p0_presub), 3, 'with every row');
SELECT ok(NOT (SELECT relispartition FROM pg_class WHERE oid = 'tap_sub.ids_p0_presub'::regclass),
          'and it is not a partition');
SELECT is((SELECT count(*)::int FROM tap_sub.ids), 0, 'the set itself no longer holds those rows');
-- the template's primary key goes to leaf children, not to sub-parents
SELECT ok(EXISTS (SELECT 1 FROM pg_index WHERE indrelid = 'tap_sub.ids_p10_p21000101'::regclass
                                             AND indisprimary),
          'a leaf child gets the template''s primary key');
SELECT ok(NOT EXISTS (SELECT 1 FROM pg_index WHERE indrelid = 'tap_sub.ids_p10'::regclass),
          'a sub-parent does not');
-- the rows come back with partition_data_id from the kept table
SELECT is(partmgr.partition_data_id('tap_sub.ids', p_source_table => 'tap_sub.ids_p0_presub',
                                    p_batch_count => 10), 3::bigint,
          'partition_data_id moves the kept rows back into the set');
SELECT is((SELECT count(*)::int FROM ONLY tap_sub.ids_p0_p21000101), 2,
          'into the sub-set''s child of their day');
SELECT is((SELECT count(*)::int FROM ONLY tap_sub.ids_p0_default), 1,
          'a row of a day without a child lands in the sub-set''s default partition');
SELECT is(partmgr.partition_data_time('tap_sub.ids_p0'), 1::bigint,
          'partition_data_time of the sub-set moves it into a new child');
SELECT is(tap_sub_children('tap_sub.ids_p0'), 'ids_p0_default,ids_p0_p21000101,ids_p0_p21000102',
          'which the sub-set creates');
SELECT throws_ok(
    $$SELECT partmgr.create_sub_parent('tap_sub.ids', 'ts', '1 hour', p_declarative_check => 'yes')$$,
    '42710', NULL, 'a second create_sub_parent on a sub-partitioned set is refused');

-- settings of part_config_sub go to the sub-sets maintenance makes
UPDATE partmgr.part_config_sub SET sub_retention = '30 days', sub_optimize_constraint = 5,
       sub_infinite_time_partitions = true WHERE sub_parent = 'tap_sub.ids';
INSERT INTO tap_sub.ids VALUES (25, '2100-01-01 10:00+00', 'd');
SELECT lives_ok($$SELECT partmgr.run_maintenance('tap_sub.ids')$$, 'run_maintenance of the top set');
SELECT is(tap_sub_kind('tap_sub.ids_p30') || tap_sub_kind('tap_sub.ids_p40'), 'pp',
          'children maintenance makes are sub-parents');
SELECT results_eq(
    $$SELECT control, partition_interval, retention, optimize_constraint, infinite_time_partitions
        FROM partmgr.part_config WHERE parent_table = 'tap_sub.ids_p40'$$,
    $$VALUES ('ts'::text, '1 day'::text, '30 days'::text, 5, true)$$,
    'registered with the part_config_sub settings, those create_parent takes no parameter for included');
SELECT ok((SELECT count(*) FROM pg_inherits WHERE inhparent = 'tap_sub.ids_p40'::regclass) >= 2
          AND tap_sub_kind('tap_sub.ids_p40_default') = 'r',
          'with first children (made around now, no start given) and a default partition');
SELECT ok(EXISTS (SELECT 1 FROM partmgr.plan_maintenance('tap_sub.ids')) IS NOT NULL,
          'plan_maintenance of a sub-partitioned set runs');

-- dry run of a new sub-parent: its registration is one of its statements
UPDATE partmgr.part_config SET premake = 3 WHERE parent_table = 'tap_sub.ids';
SELECT ok(EXISTS (SELECT 1 FROM partmgr.plan_maintenance('tap_sub.ids') p, unnest(p.statements) s
                   WHERE p.object = 'tap_sub.ids_p50' AND s LIKE '%PARTITION BY RANGE (ts)%')
          AND EXISTS (SELECT 1 FROM partmgr.plan_maintenance('tap_sub.ids') p, unnest(p.statements) s
                   WHERE p.object = 'tap_sub.ids_p50' AND s LIKE 'SELECT partmgr.create_parent(%part_config_sub%'),
          'plan_maintenance shows a new child created partitioned and registered');
SELECT is(tap_sub_kind('tap_sub.ids_p50'), '', 'and creates nothing');
UPDATE partmgr.part_config SET premake = 2 WHERE parent_table = 'tap_sub.ids';

-- retention through levels: a dropped sub-parent takes its children and its set along;
-- a run over every set skips the sub-set it listed before retention forgot it
UPDATE partmgr.part_config SET retention = '15', retention_keep_table = false
 WHERE parent_table = 'tap_sub.ids';
SELECT lives_ok($$SELECT partmgr.run_maintenance()$$, 'run_maintenance of every set, with retention');
UPDATE partmgr.part_config SET retention = NULL WHERE parent_table = 'tap_sub.ids';
SELECT is((SELECT count(*)::int FROM partmgr.maintenance_log
            WHERE parent_table = 'tap_sub.ids' AND action = 'drop partition'
              AND object = 'tap_sub.ids_p0' AND outcome = 'done'), 1,
          'retention drops the expired sub-parent');
SELECT is((SELECT count(*)::int FROM partmgr.maintenance_log
            WHERE parent_table = 'tap_sub.ids_p0' AND outcome <> 'done'), 0,
          'and the run does not try to maintain its forgotten sub-set');
SELECT is(tap_sub_kind('tap_sub.ids_p0') || tap_sub_kind('tap_sub.ids_p0_p21000101')
          || tap_sub_kind('tap_sub.ids_p0_default'), '', 'with its children and default partition');
SELECT ok(NOT EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table = 'tap_sub.ids_p0')
          AND NOT EXISTS (SELECT 1 FROM partmgr.part_config_sub WHERE sub_parent = 'tap_sub.ids_p0'),
          'and its sub-set is forgotten');
SELECT ok(EXISTS (SELECT 1 FROM partmgr.part_config_sub WHERE sub_parent = 'tap_sub.ids'),
          'while the top set stays sub-partitioned');
-- kept by retention: detached with its children, its set forgotten
SELECT is(partmgr.drop_partition_id('tap_sub.ids', 5, p_keep_table => true), 1,
          'drop_partition_id with p_keep_table detaches the expired sub-parent');
SELECT ok(tap_sub_kind('tap_sub.ids_p10') = 'p'
          AND NOT (SELECT relispartition FROM pg_class WHERE oid = 'tap_sub.ids_p10'::regclass)
          AND tap_sub_children('tap_sub.ids_p10') = 'ids_p10_default,ids_p10_p21000101',
          'it is kept as a partitioned table with its children');
SELECT ok(NOT EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table = 'tap_sub.ids_p10'),
          'and its sub-set is forgotten');

-- undo through levels: rows of every sub-set go to the target; everything is forgotten
CREATE TABLE tap_sub.ids_target (LIKE tap_sub.ids);
SELECT is((SELECT rows_undone FROM partmgr.undo_partition('tap_sub.ids', 'tap_sub.ids_target',
                                                          p_loop_count => 100, p_keep_table => false)),
          1::bigint, 'undo_partition moves the rows held in sub-sets');
SELECT is((SELECT count(*)::int FROM tap_sub.ids_target WHERE id = 25), 1, 'into the target');
SELECT is(tap_sub_children('tap_sub.ids'), '', 'and drops every sub-parent');
SELECT is(tap_sub_sets('tap_sub.ids'), '', 'and forgets the top set and every sub-set');
SELECT is((SELECT count(*)::int FROM partmgr.part_config_sub), 0, 'part_config_sub goes with the top set');

-- a set without children: the settings are still checked before anything is written
CREATE TABLE tap_sub.bare (id int NOT NULL, ts timestamptz NOT NULL, label text) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('tap_sub.bare', 'id', '10', p_start_partition => '0', p_premake => 1,
                             p_template_table => 'false');
DROP TABLE tap_sub.bare_p0, tap_sub.bare_p10, tap_sub.bare_default;
SELECT throws_ok(
    $$SELECT partmgr.create_sub_parent('tap_sub.bare', 'ts', 'fortnightly', p_declarative_check => 'yes')$$,
    '22023', NULL, 'a sub-set interval that is not one is refused, even with no child to recreate');
SELECT throws_ok(
    $$SELECT partmgr.create_sub_parent('tap_sub.bare', 'ts', '1 day', p_type => 'hash', p_declarative_check => 'yes')$$,
    '22023', NULL, 'so is a p_type other than range or list');
SELECT throws_ok(
    $$SELECT partmgr.create_sub_parent('tap_sub.bare', 'label', '1 day', p_declarative_check => 'yes')$$,
    '0A000', NULL, 'and a control column of a type pg_partmgr cannot partition by');
SELECT is((SELECT count(*)::int FROM partmgr.part_config_sub WHERE sub_parent = 'tap_sub.bare'), 0,
          'none of them wrote a part_config_sub row');

------------------------------------------------------------------------
-- Time in time, same column: a monthly set with daily sub-sets, which
-- stay inside their month.
------------------------------------------------------------------------
CREATE TABLE tap_sub.months (ts timestamptz NOT NULL, v int) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('tap_sub.months', 'ts', '1 month', p_premake => 1,
                             p_start_partition => '2100-01-01', p_template_table => 'false');
SELECT throws_ok(
    $$SELECT partmgr.create_sub_parent('tap_sub.months', 'ts', '1 month', p_declarative_check => 'yes')$$,
    '22023', NULL, 'a sub-set interval not smaller than the set''s is refused');
SELECT throws_ok(
    $$SELECT partmgr.create_sub_parent('tap_sub.months', 'ts', '1 week', p_declarative_check => 'yes')$$,
    '22023', NULL, 'weekly sub-sets of a monthly set are refused');
SELECT ok(partmgr.create_sub_parent('tap_sub.months', 'ts', '1 day', p_declarative_check => 'yes',
                                    p_premake => 2, p_start_partition => '2100-01-27'),
          'create_sub_parent: daily in monthly');
SELECT is(tap_sub_children('tap_sub.months_p21000101'), 'months_p21000101_default,months_p21000101_p21000127',
          'the January sub-set starts at p_start_partition');
INSERT INTO tap_sub.months VALUES ('2100-01-27 12:00+00', 1);
SELECT partmgr.run_maintenance('tap_sub.months_p21000101');
SELECT is(tap_sub_children('tap_sub.months_p21000101'),
          'months_p21000101_default,months_p21000101_p21000127,months_p21000101_p21000128,months_p21000101_p21000129',
          'premake of a sub-set works like any set''s');
INSERT INTO tap_sub.months VALUES ('2100-01-29 12:00+00', 2);
SELECT partmgr.run_maintenance('tap_sub.months_p21000101');
SELECT is(tap_sub_children('tap_sub.months_p21000101'),
          'months_p21000101_default,months_p21000101_p21000127,months_p21000101_p21000128,months_p21000101_p21000129,months_p21000101_p21000130,months_p21000101_p21000131',
          'but stops at the end of the month its table covers');
SELECT ok((SELECT sub_partition_set_full FROM partmgr.part_config
            WHERE parent_table = 'tap_sub.months_p21000101'),
          'and the sub-set is marked full');
SELECT is((SELECT status || coalesce(': ' || reason, '') FROM partmgr.set_health()
            WHERE parent_table = 'tap_sub.months_p21000101'), 'ok',
          'health: a full sub-set has nothing missing ahead');
SELECT ok(NOT (SELECT sub_partition_set_full FROM partmgr.part_config
                WHERE parent_table = 'tap_sub.months'),
          'the top set is not');
-- a sub-set made by maintenance, whose first children would fall outside its month
SELECT partmgr.run_maintenance('tap_sub.months');
SELECT is(tap_sub_kind('tap_sub.months_p21000201'), 'p', 'maintenance makes the February sub-parent');
SELECT is(tap_sub_children('tap_sub.months_p21000201'), 'months_p21000201_default,months_p21000201_p21000201',
          'whose sub-set starts at the beginning of its month, not around now');
SELECT is(partmgr.partition_gap_fill('tap_sub.months_p21000201'), 0,
          'partition_gap_fill of a sub-set has nothing to fill');
SELECT is((SELECT count(*)::int FROM partmgr.create_partition_time('tap_sub.months_p21000201',
                ARRAY['2100-03-05 00:00+00'::timestamptz]) AS made WHERE made), 0,
          'create_partition_time makes no child outside the sub-set''s month');

SELECT results_eq($$SELECT * FROM partmgr.check_subpartition_limits('tap_sub.months_p21000101', 'time')$$,
    $$VALUES ('2100-01-01 00:00:00+00'::text, '2100-02-01 00:00:00+00'::text)$$,
    'check_subpartition_limits gives the range a time sub-set stays in');
SELECT results_eq($$SELECT * FROM partmgr.check_subpartition_limits('tap_sub.months_p21000101', 'id')$$,
    $$VALUES (NULL::text, NULL::text)$$, 'and NULLs for the other kind');
SELECT results_eq($$SELECT * FROM partmgr.check_subpartition_limits('tap_sub.months', 'time')$$,
    $$VALUES (NULL::text, NULL::text)$$, 'and for a set that is not a sub-set');

-- three levels: the January sub-set's days partitioned by v in turn
SELECT ok(partmgr.create_sub_parent('tap_sub.months_p21000101', 'v', '10', p_declarative_check => 'yes',
                                    p_premake => 1, p_control_not_null => false),
          'create_sub_parent on a sub-set: a third level');
SELECT is(tap_sub_kind('tap_sub.months_p21000101_p21000128') || tap_sub_kind('tap_sub.months_p21000101_p21000131'),
          'pp', 'the sub-set''s children are sub-parents now');
SELECT ok(EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table = 'tap_sub.months_p21000101_p21000131'),
          'registered as sets of their own');
SELECT is((SELECT count(*)::int FROM tap_sub.months_p21000101_p21000127_presub), 1,
          'the row of a recreated day is kept');
-- a new top child: its sub-set takes the part_config_sub row of its sub-partitioned sibling
INSERT INTO tap_sub.months VALUES ('2100-02-01 12:00+00', 5);
SELECT partmgr.run_maintenance('tap_sub.months');
SELECT is((SELECT sub_control || ' ' || sub_partition_interval FROM partmgr.part_config_sub
            WHERE sub_parent = 'tap_sub.months_p21000301'), 'v 10',
          'a new sub-set among sub-partitioned siblings is sub-partitioned like them');
SELECT is(tap_sub_kind('tap_sub.months_p21000301_p21000301'), 'p',
          'so its first child is a sub-parent of the third level');
SELECT is(tap_sub_children('tap_sub.months_p21000301_p21000301'),
          'months_p21000301_p21000301_default,months_p21000301_p21000301_p0,months_p21000301_p21000301_p10',
          'with its own children');
INSERT INTO tap_sub.months VALUES ('2100-03-01 06:00+00', 7);
SELECT is((SELECT tableoid::regclass::text FROM tap_sub.months WHERE v = 7),
          'tap_sub.months_p21000301_p21000301_p0', 'a row is routed through three levels');

------------------------------------------------------------------------
-- Id in id, same column, and id in time (epoch).
------------------------------------------------------------------------
CREATE TABLE tap_sub.nums (id bigint NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('tap_sub.nums', 'id', '100', p_premake => 1,
                             p_start_partition => '0', p_template_table => 'false');
SELECT throws_ok(
    $$SELECT partmgr.create_sub_parent('tap_sub.nums', 'id', '100', p_declarative_check => 'yes')$$,
    '22023', NULL, 'an id sub-set interval not smaller than the set''s is refused');
SELECT ok(partmgr.create_sub_parent('tap_sub.nums', 'id', '25', p_declarative_check => 'yes',
                                    p_premake => 1),
          'create_sub_parent: id in id');
SELECT is(tap_sub_children('tap_sub.nums_p0'), 'nums_p0_default,nums_p0_p0,nums_p0_p25',
          'the sub-set of [0, 100) starts at 0');
SELECT is(tap_sub_children('tap_sub.nums_p100'), 'nums_p100_default,nums_p100_p100',
          'the sub-set of [100, 200) starts at 100, inside its range');
INSERT INTO tap_sub.nums SELECT g, g FROM generate_series(100, 199) g;
-- each run premakes one child above the newest with rows, moving in the rows the default holds for it
SELECT partmgr.run_maintenance('tap_sub.nums_p100');
SELECT partmgr.run_maintenance('tap_sub.nums_p100');
SELECT partmgr.run_maintenance('tap_sub.nums_p100');
SELECT partmgr.run_maintenance('tap_sub.nums_p100');
SELECT is(tap_sub_children('tap_sub.nums_p100'),
          'nums_p100_default,nums_p100_p100,nums_p100_p125,nums_p100_p150,nums_p100_p175',
          'an id sub-set stops at the end of its range');
SELECT is((SELECT count(*)::int FROM ONLY tap_sub.nums_p100_default), 0, 'every row is in a child');
SELECT ok((SELECT sub_partition_set_full FROM partmgr.part_config WHERE parent_table = 'tap_sub.nums_p100'),
          'and it is marked full');
SELECT is((SELECT status || coalesce(': ' || reason, '') FROM partmgr.set_health()
            WHERE parent_table = 'tap_sub.nums_p100'), 'ok',
          'health: a full id sub-set whose last child holds rows is fine');
-- undo of one sub-set: its rows leave, the top set stays
CREATE TABLE tap_sub.nums_target (LIKE tap_sub.nums);
SELECT is((SELECT rows_undone FROM partmgr.undo_partition('tap_sub.nums_p100', 'tap_sub.nums_target',
                                                          p_loop_count => 100, p_keep_table => false)),
          100::bigint, 'undo_partition of a sub-set moves its rows');
SELECT is(tap_sub_sets('tap_sub.nums'), 'tap_sub.nums,tap_sub.nums_p0',
          'and forgets that sub-set only');
SELECT is(tap_sub_children('tap_sub.nums_p100'), '', 'the sub-parent stays, without children');
-- stop_sub_partition: children made later are plain tables
SELECT ok(partmgr.stop_sub_partition('tap_sub.nums'), 'stop_sub_partition returns true');
SELECT ok(NOT partmgr.stop_sub_partition('tap_sub.nums'), 'and false when there is nothing to stop');
SELECT is((SELECT count(*)::int FROM partmgr.create_partition_id('tap_sub.nums', ARRAY[300::bigint]) AS made
            WHERE made), 1, 'create_partition_id after it');
SELECT is(tap_sub_kind('tap_sub.nums_p300'), 'r', 'makes a plain child');

-- id sub-sets of an epoch (time) set: no range limit between different kinds
CREATE TABLE tap_sub.epochs (ts bigint NOT NULL, id int NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('tap_sub.epochs', 'ts', '1 day', p_epoch => 'seconds', p_premake => 1,
                             p_start_partition => '2100-01-01', p_template_table => 'false');
SELECT ok(partmgr.create_sub_parent('tap_sub.epochs', 'id', '20', p_declarative_check => 'yes',
                                    p_premake => 2),
          'create_sub_parent: id in epoch time');
SELECT is(tap_sub_children('tap_sub.epochs_p21000101'),
          'epochs_p21000101_default,epochs_p21000101_p0,epochs_p21000101_p20,epochs_p21000101_p40',
          'an empty id sub-set starts at 0 with premake children above');
INSERT INTO tap_sub.epochs VALUES (extract(epoch FROM timestamptz '2100-01-01 05:00+00')::bigint, 30);
SELECT is((SELECT tableoid::regclass::text FROM tap_sub.epochs), 'tap_sub.epochs_p21000101_p20',
          'a row is routed through both levels');

-- config_cleanup: p_config_sub_table alone stops sub-partitioning
SELECT lives_ok($$SELECT partmgr.config_cleanup('tap_sub.epochs', p_config_table => false,
                                                 p_config_sub_table => true, p_template_table => false)$$,
                'config_cleanup with p_config_sub_table only');
SELECT ok(NOT EXISTS (SELECT 1 FROM partmgr.part_config_sub WHERE sub_parent = 'tap_sub.epochs')
          AND EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table = 'tap_sub.epochs'),
          'deletes the part_config_sub row and keeps the set');

-- part_config_sub is configuration pg_dump dumps
SELECT ok((SELECT 'partmgr.part_config_sub'::regclass::oid = ANY (extconfig)
             FROM pg_extension WHERE extname = 'pg_partmgr'),
          'part_config_sub is marked for pg_dump');

SELECT * FROM finish();
ROLLBACK;
