-- pgTAP tests of the inspection and by-hand creation functions:
-- show_partitions, show_partition_name, show_partition_info, check_default,
-- partition_gap_fill, create_partition_time and create_partition_id.
--
-- Deterministic: every set has an explicit far-future (or fixed id) start.
-- Bad input to these functions is in bad_input.sql.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = error;

SELECT plan(66);

CREATE FUNCTION public.tap_children(p_parent regclass)
RETURNS TABLE (child text, bound text)
LANGUAGE sql STABLE AS $$
    SELECT c.relname::text COLLATE "default", pg_get_expr(c.relpartbound, c.oid) COLLATE "default"
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent
     ORDER BY c.relname COLLATE "C"
$$;

-- id set whose name order differs from its bound order: 900, 1000, 1100
CREATE TABLE public.tap_sid (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_sid', 'id', '100', p_start_partition => '900', p_premake => 2);
-- daily set 2100-01-01 .. 2100-01-05
CREATE TABLE public.tap_sday (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_sday', 'ts', '1 day', p_start_partition => '2100-01-01');
INSERT INTO public.tap_sday VALUES ('2100-01-01 10:00');
SELECT partmgr.run_maintenance('public.tap_sday');
-- sets without a default, with negative ids, hourly, in Berlin, mixed case
CREATE TABLE public.tap_snodef (id int NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_snodef', 'id', '10', p_start_partition => '0', p_premake => 1,
                             p_default_table => false);
CREATE TABLE public.tap_sneg (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_sneg', 'id', '100', p_start_partition => '-250', p_premake => 2);
CREATE TABLE public.tap_shour (ts timestamp NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_shour', 'ts', '1 hour', p_start_partition => '2100-01-01 10:00');
CREATE TABLE public.tap_sber (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_sber', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_time_zone => 'Europe/Berlin');
CREATE TABLE public.tap_ssmall (id smallint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_ssmall', 'id', '10000', p_start_partition => '30000', p_premake => 1);
CREATE SCHEMA "Tap Schema";
CREATE TABLE "Tap Schema"."Event Log" ("Created At" timestamptz NOT NULL) PARTITION BY RANGE ("Created At");
SELECT partmgr.create_parent('Tap Schema.Event Log', 'Created At', '1 day', p_start_partition => '2100-01-01');

------------------------------------------------------------------------------
-- show_partitions
------------------------------------------------------------------------------
SELECT results_eq($$SELECT partition_schemaname, partition_tablename FROM partmgr.show_partitions('public.tap_sid')$$,
    $$VALUES ('public'::text, 'tap_sid_p900'::text), ('public', 'tap_sid_p1000'), ('public', 'tap_sid_p1100')$$,
    'show_partitions: children in bound order (900 before 1000), default left out');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_sid', 'DESC')$$,
    $$VALUES ('tap_sid_p1100'::text), ('tap_sid_p1000'), ('tap_sid_p900')$$,
    'show_partitions DESC: highest bound first');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_sid', 'desc')$$,
    $$VALUES ('tap_sid_p1100'::text), ('tap_sid_p1000'), ('tap_sid_p900')$$,
    'show_partitions: p_order is case-insensitive');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_sid', p_include_default => true)$$,
    $$VALUES ('tap_sid_default'::text), ('tap_sid_p900'), ('tap_sid_p1000'), ('tap_sid_p1100')$$,
    'show_partitions with p_include_default: the default first');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_sid', 'DESC', true)$$,
    $$VALUES ('tap_sid_default'::text), ('tap_sid_p1100'), ('tap_sid_p1000'), ('tap_sid_p900')$$,
    'show_partitions DESC with p_include_default: the default still first');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_snodef', p_include_default => true)$$,
    $$VALUES ('tap_snodef_p0'::text), ('tap_snodef_p10')$$,
    'show_partitions with p_include_default on a set without a default: children only');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_sneg')$$,
    $$VALUES ('tap_sneg_p-300'::text), ('tap_sneg_p-200'), ('tap_sneg_p-100')$$,
    'show_partitions: negative bounds in numeric order');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_sday')$$,
    $$VALUES ('tap_sday_p21000101'::text), ('tap_sday_p21000102'), ('tap_sday_p21000103'),
             ('tap_sday_p21000104'), ('tap_sday_p21000105')$$,
    'show_partitions on a time set: children in time order');
SELECT results_eq($$SELECT partition_schemaname, partition_tablename
                      FROM partmgr.show_partitions('Tap Schema.Event Log', p_include_default => true)$$,
    $$VALUES ('Tap Schema'::text, 'Event Log_default'::text), ('Tap Schema', 'Event Log_p21000101')$$,
    'show_partitions on a mixed-case set: schema and names unquoted, as stored');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('"Tap Schema"."Event Log"')$$,
    $$VALUES ('Event Log_p21000101'::text)$$,
    'show_partitions accepts the quoted "schema"."table" spelling');

------------------------------------------------------------------------------
-- show_partition_name
------------------------------------------------------------------------------
SELECT results_eq($$SELECT * FROM partmgr.show_partition_name('public.tap_sday', '2100-01-03 12:00')$$,
    $$VALUES ('public'::text, 'tap_sday_p21000103'::text, '2100-01-03 00:00+00'::timestamptz, NULL::bigint, true)$$,
    'show_partition_name: the existing child that holds a time value');
SELECT results_eq($$SELECT * FROM partmgr.show_partition_name('public.tap_sday', '2100-02-01 00:00')$$,
    $$VALUES ('public'::text, 'tap_sday_p21000201'::text, '2100-02-01 00:00+00'::timestamptz, NULL::bigint, false)$$,
    'show_partition_name: a value past the children gets the name on their grid, table_exists false');
SELECT results_eq($$SELECT partition_table, table_exists FROM partmgr.show_partition_name('public.tap_sday', '2099-12-30 23:59')$$,
    $$VALUES ('tap_sday_p20991230'::text, false)$$,
    'show_partition_name: a value below the children');
SET TimeZone = 'America/Los_Angeles';
SELECT results_eq($$SELECT partition_table, suffix_timestamp FROM partmgr.show_partition_name('public.tap_sday', '2100-01-03 20:00')$$,
    $$VALUES ('tap_sday_p21000103'::text, '2100-01-03 00:00+00'::timestamptz)$$,
    'show_partition_name: a value without zone is read in the set zone (UTC), not the session''s');
SELECT results_eq($$SELECT partition_table, suffix_timestamp FROM partmgr.show_partition_name('public.tap_sday', '2100-01-03 20:00-08')$$,
    $$VALUES ('tap_sday_p21000104'::text, '2100-01-04 00:00+00'::timestamptz)$$,
    'show_partition_name: a value with an explicit offset is that instant');
SET TimeZone = 'UTC';
SELECT results_eq($$SELECT partition_table, suffix_timestamp, table_exists
                      FROM partmgr.show_partition_name('public.tap_sber', '2100-01-01 00:30')$$,
    $$VALUES ('tap_sber_p21000101'::text, '2099-12-31 23:00+00'::timestamptz, true)$$,
    'show_partition_name on a Europe/Berlin set: the value is Berlin time, the lower bound Berlin midnight');
SELECT results_eq($$SELECT partition_table, suffix_timestamp FROM partmgr.show_partition_name('public.tap_shour', '2100-01-01 13:59:59')$$,
    $$VALUES ('tap_shour_p21000101_130000'::text, '2100-01-01 13:00+00'::timestamptz)$$,
    'show_partition_name on an hourly timestamp set');
SELECT results_eq($$SELECT * FROM partmgr.show_partition_name('public.tap_sid', '1050')$$,
    $$VALUES ('public'::text, 'tap_sid_p1000'::text, NULL::timestamptz, 1000::bigint, true)$$,
    'show_partition_name: the existing child that holds an id');
SELECT results_eq($$SELECT partition_table, suffix_id, table_exists FROM partmgr.show_partition_name('public.tap_sid', '99999')$$,
    $$VALUES ('tap_sid_p99900'::text, 99900::bigint, false)$$,
    'show_partition_name: an id past the children');
SELECT results_eq($$SELECT partition_table, suffix_id FROM partmgr.show_partition_name('public.tap_sid', '5')$$,
    $$VALUES ('tap_sid_p0'::text, 0::bigint)$$,
    'show_partition_name: an id below the children, on their grid');
SELECT results_eq($$SELECT partition_table, suffix_id FROM partmgr.show_partition_name('public.tap_sid', '-5')$$,
    $$VALUES ('tap_sid_p-100'::text, -100::bigint)$$,
    'show_partition_name: a negative id is floored, not truncated toward zero');
SELECT results_eq($$SELECT partition_table, suffix_id FROM partmgr.show_partition_name('public.tap_sid', '1099.99')$$,
    $$VALUES ('tap_sid_p1000'::text, 1000::bigint)$$,
    'show_partition_name: a fractional id value');

------------------------------------------------------------------------------
-- show_partition_info
------------------------------------------------------------------------------
SELECT results_eq($$SELECT * FROM partmgr.show_partition_info('public.tap_sday_p21000103')$$,
    $$VALUES ('2100-01-03 00:00+00'::timestamptz, '2100-01-04 00:00+00'::timestamptz, NULL::bigint, NULL::bigint,
              '21000103'::text)$$,
    'show_partition_info on a daily child: start, exclusive end and suffix');
SELECT results_eq($$SELECT child_start_time, child_end_time FROM partmgr.show_partition_info('public.tap_sday_p21000103', '1 hour')$$,
    $$VALUES ('2100-01-03 00:00+00'::timestamptz, '2100-01-03 01:00+00'::timestamptz)$$,
    'show_partition_info with p_partition_interval: the end is start + that interval');
SELECT results_eq($$SELECT child_start_time, child_end_time
                      FROM partmgr.show_partition_info('tap_sday_p21000103', p_parent_table => 'public.tap_sday')$$,
    $$VALUES ('2100-01-03 00:00+00'::timestamptz, '2100-01-04 00:00+00'::timestamptz)$$,
    'show_partition_info with the right p_parent_table and an unqualified child');
SET TimeZone = 'Asia/Tokyo';
SELECT results_eq($$SELECT child_start_time, child_end_time FROM partmgr.show_partition_info('public.tap_sber_p21000101')$$,
    $$VALUES ('2099-12-31 23:00+00'::timestamptz, '2100-01-01 23:00+00'::timestamptz)$$,
    'show_partition_info on a Europe/Berlin child, from a Tokyo session: the catalog''s instants');
SET TimeZone = 'UTC';
SELECT results_eq($$SELECT child_start_time, child_end_time, suffix FROM partmgr.show_partition_info('public.tap_shour_p21000101_100000')$$,
    $$VALUES ('2100-01-01 10:00+00'::timestamptz, '2100-01-01 11:00+00'::timestamptz, '21000101_100000'::text)$$,
    'show_partition_info on an hourly timestamp child (bounds read as UTC)');
SELECT results_eq($$SELECT * FROM partmgr.show_partition_info('public.tap_sid_p1000')$$,
    $$VALUES (NULL::timestamptz, NULL::timestamptz, 1000::bigint, 1100::bigint, '1000'::text)$$,
    'show_partition_info on an id child: the end is exclusive (1100)');
SELECT results_eq($$SELECT child_start_id, child_end_id FROM partmgr.show_partition_info('public.tap_sid_p1000', '50')$$,
    $$VALUES (1000::bigint, 1050::bigint)$$,
    'show_partition_info on an id child with p_partition_interval');
SELECT results_eq($$SELECT child_start_id, child_end_id, suffix FROM partmgr.show_partition_info('public.tap_ssmall_p30000')$$,
    $$VALUES (30000::bigint, NULL::bigint, '30000'::text)$$,
    'show_partition_info on a child ending at MAXVALUE: the end is NULL');
SELECT results_eq($$SELECT child_start_id, suffix FROM partmgr.show_partition_info('public.tap_sneg_p-200')$$,
    $$VALUES (-200::bigint, '-200'::text)$$,
    'show_partition_info on a negative id child');
SELECT results_eq($$SELECT child_start_time, suffix FROM partmgr.show_partition_info('Tap Schema.Event Log_p21000101')$$,
    $$VALUES ('2100-01-01 00:00+00'::timestamptz, '21000101'::text)$$,
    'show_partition_info on a mixed-case child given as schema.table');

------------------------------------------------------------------------------
-- check_default
------------------------------------------------------------------------------
SELECT is_empty($$SELECT * FROM partmgr.check_default()$$,
    'check_default: nothing when no default partition holds rows');
INSERT INTO public.tap_sday VALUES ('2100-03-01'), ('2100-03-02'), ('2100-03-03');
INSERT INTO public.tap_sid VALUES (5000);
INSERT INTO "Tap Schema"."Event Log" VALUES ('2100-06-01');
SELECT set_eq($$SELECT default_table, count FROM partmgr.check_default()$$,
    $$VALUES ('public.tap_sday_default'::text, 3::bigint), ('public.tap_sid_default', 1),
             ('Tap Schema.Event Log_default', 1)$$,
    'check_default: each default partition holding rows, with its exact count');
SELECT set_eq($$SELECT default_table, count FROM partmgr.check_default(false)$$,
    $$VALUES ('public.tap_sday_default'::text, 1::bigint), ('public.tap_sid_default', 1),
             ('Tap Schema.Event Log_default', 1)$$,
    'check_default(false): 1 for every default partition holding rows');
DELETE FROM public.tap_sid WHERE id = 5000;
SELECT set_eq($$SELECT default_table FROM partmgr.check_default()$$,
    $$VALUES ('public.tap_sday_default'::text), ('Tap Schema.Event Log_default')$$,
    'check_default: an emptied default is no longer listed');
CREATE TABLE public.tap_sgone (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_sgone', 'ts', '1 day', p_start_partition => '2100-01-01');
DROP TABLE public.tap_sgone;
SELECT lives_ok($$SELECT * FROM partmgr.check_default()$$,
    'check_default passes over a set whose parent was dropped');
DELETE FROM partmgr.part_config WHERE parent_table = 'public.tap_sgone';
DELETE FROM public.tap_sday WHERE ts >= '2100-03-01';
DELETE FROM "Tap Schema"."Event Log";

------------------------------------------------------------------------------
-- partition_gap_fill
------------------------------------------------------------------------------
CREATE TABLE public.tap_sgap (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_sgap', 'id', '100', p_start_partition => '1000', p_premake => 1);
SELECT partmgr.create_partition_id('public.tap_sgap', ARRAY[1500, 1700]);
SELECT is(partmgr.partition_gap_fill('public.tap_sgap'), 4,
    'partition_gap_fill returns the number of children it created (1200, 1300, 1400, 1600)');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_sgap')$$,
    $$VALUES ('tap_sgap_p1000'::text), ('tap_sgap_p1100'), ('tap_sgap_p1200'), ('tap_sgap_p1300'),
             ('tap_sgap_p1400'), ('tap_sgap_p1500'), ('tap_sgap_p1600'), ('tap_sgap_p1700')$$,
    'partition_gap_fill: every interval between the lowest and the highest child now has a child');
SELECT is(partmgr.partition_gap_fill('public.tap_sgap'), 0,
    'partition_gap_fill on a set without gaps creates nothing');
SELECT partmgr.create_partition_id('public.tap_sgap', ARRAY[1850]);
SELECT is(partmgr.partition_gap_fill('public.tap_sgap'), 1,
    'partition_gap_fill: a gap that is not a whole interval gets one child');
SELECT results_eq($$SELECT bound FROM tap_children('public.tap_sgap') WHERE child = 'tap_sgap_p1800'$$,
    $$VALUES ('FOR VALUES FROM (''1800'') TO (''1850'')')$$,
    'partition_gap_fill: the child of a partial gap ends at the next child, no overlap');

CREATE TABLE public.tap_sgapm (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_sgapm', 'ts', '1 month', p_start_partition => '2100-01-01', p_premake => 1);
SELECT partmgr.create_partition_time('public.tap_sgapm', ARRAY['2100-05-01 00:00+00'::timestamptz]);
SELECT is(partmgr.partition_gap_fill('public.tap_sgapm'), 3,
    'partition_gap_fill on a monthly set: February to April');
SELECT results_eq($$SELECT child, bound FROM tap_children('public.tap_sgapm') WHERE child <> 'tap_sgapm_default'$$,
    $$VALUES ('tap_sgapm_p21000101', 'FOR VALUES FROM (''2100-01-01 00:00:00+00'') TO (''2100-02-01 00:00:00+00'')'),
             ('tap_sgapm_p21000201', 'FOR VALUES FROM (''2100-02-01 00:00:00+00'') TO (''2100-03-01 00:00:00+00'')'),
             ('tap_sgapm_p21000301', 'FOR VALUES FROM (''2100-03-01 00:00:00+00'') TO (''2100-04-01 00:00:00+00'')'),
             ('tap_sgapm_p21000401', 'FOR VALUES FROM (''2100-04-01 00:00:00+00'') TO (''2100-05-01 00:00:00+00'')'),
             ('tap_sgapm_p21000501', 'FOR VALUES FROM (''2100-05-01 00:00:00+00'') TO (''2100-06-01 00:00:00+00'')')$$,
    'partition_gap_fill on a monthly set: calendar months');

------------------------------------------------------------------------------
-- create_partition_time, create_partition_id
------------------------------------------------------------------------------
SELECT ok(partmgr.create_partition_time('public.tap_sday', ARRAY['2100-03-01 00:00+00', '2100-03-05 00:00+00']::timestamptz[]),
    'create_partition_time returns true when it creates children');
SELECT results_eq($$SELECT child, bound FROM tap_children('public.tap_sday') WHERE child >= 'tap_sday_p210003'$$,
    $$VALUES ('tap_sday_p21000301', 'FOR VALUES FROM (''2100-03-01 00:00:00+00'') TO (''2100-03-02 00:00:00+00'')'),
             ('tap_sday_p21000305', 'FOR VALUES FROM (''2100-03-05 00:00:00+00'') TO (''2100-03-06 00:00:00+00'')')$$,
    'create_partition_time: one child of one interval per lower bound');
SELECT ok(NOT partmgr.create_partition_time('public.tap_sday', ARRAY['2100-03-01 00:00+00']::timestamptz[]),
    'create_partition_time returns false when the child exists already');
SELECT ok(NOT partmgr.create_partition_time('public.tap_sday', ARRAY['2100-03-05 12:00+00']::timestamptz[]),
    'create_partition_time returns false for a range that would overlap a child');
SELECT ok(to_regclass('public.tap_sday_p21000305') IS NOT NULL
          AND (SELECT count(*) FROM tap_children('public.tap_sday') WHERE child >= 'tap_sday_p210003') = 2,
    'create_partition_time: the overlapping child was skipped, nothing else changed');
SELECT ok(partmgr.create_partition_time('public.tap_sday', ARRAY[NULL, '2100-03-07 00:00+00']::timestamptz[]),
    'create_partition_time ignores NULL elements');
SELECT ok(NOT partmgr.create_partition_time('public.tap_sday', '{}'::timestamptz[]),
    'create_partition_time with an empty array creates nothing');
SET TimeZone = 'Asia/Tokyo';
SELECT partmgr.create_partition_time('public.tap_sday', ARRAY['2100-04-01 09:00+09']::timestamptz[]);
SET TimeZone = 'UTC';
SELECT results_eq($$SELECT child, bound FROM tap_children('public.tap_sday') WHERE child >= 'tap_sday_p210004'$$,
    $$VALUES ('tap_sday_p21000401', 'FOR VALUES FROM (''2100-04-01 00:00:00+00'') TO (''2100-04-02 00:00:00+00'')')$$,
    'create_partition_time from a Tokyo session: named by the set zone (UTC)');
SELECT partmgr.create_partition_time('public.tap_sber', ARRAY['2099-12-31 23:00+00', '2100-01-01 23:00+00']::timestamptz[]);
SELECT results_eq($$SELECT child, bound FROM tap_children('public.tap_sber') WHERE child <> 'tap_sber_default'$$,
    $$VALUES ('tap_sber_p21000101', 'FOR VALUES FROM (''2099-12-31 23:00:00+00'') TO (''2100-01-01 23:00:00+00'')'),
             ('tap_sber_p21000102', 'FOR VALUES FROM (''2100-01-01 23:00:00+00'') TO (''2100-01-02 23:00:00+00'')')$$,
    'create_partition_time on a Europe/Berlin set: the new child is named by Berlin''s date');

SELECT ok(partmgr.create_partition_id('public.tap_sid', ARRAY[2000, 2100]::bigint[]),
    'create_partition_id returns true when it creates children');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_sid')$$,
    $$VALUES ('tap_sid_p900'::text), ('tap_sid_p1000'), ('tap_sid_p1100'), ('tap_sid_p2000'), ('tap_sid_p2100')$$,
    'create_partition_id: the children exist, in bound order');
SELECT results_eq($$SELECT bound FROM tap_children('public.tap_sid') WHERE child = 'tap_sid_p2100'$$,
    $$VALUES ('FOR VALUES FROM (''2100'') TO (''2200'')')$$,
    'create_partition_id: one interval per lower bound');
SELECT ok(NOT partmgr.create_partition_id('public.tap_sid', ARRAY[2000]::bigint[]),
    'create_partition_id returns false when the child exists already');
SELECT ok(NOT partmgr.create_partition_id('public.tap_sid', ARRAY[2050]::bigint[]),
    'create_partition_id returns false for a range that would overlap a child');
SELECT is((SELECT count(*)::int FROM partmgr.show_partitions('public.tap_sid')), 5,
    'create_partition_id: the overlapping child was not created');
SELECT ok(partmgr.create_partition_id('public.tap_sid', ARRAY[2100, 2200]::bigint[]),
    'create_partition_id with one existing and one new lower bound creates the new one');

-- pg_partman's helpers: check_control_type, check_name_length
CREATE TABLE public.tap_shelp (t timestamptz, d date, i int, n numeric, x text, v varchar(5),
                               u uuid, j jsonb);
SELECT results_eq(
    $$SELECT a.attname::text COLLATE "default", c.general_type, c.exact_type
        FROM pg_attribute a,
             LATERAL partmgr.check_control_type('public', 'tap_shelp', a.attname) c
       WHERE a.attrelid = 'public.tap_shelp'::regclass AND a.attnum > 0 ORDER BY a.attnum$$,
    $$VALUES ('t', 'time', 'timestamptz'), ('d', 'time', 'date'), ('i', 'id', 'int4'),
             ('n', 'id', 'numeric'), ('x', 'text', 'text'), ('v', 'text', 'varchar'),
             ('u', 'uuid', 'uuid'), ('j', NULL, 'jsonb')$$,
    'check_control_type: the kind and type name of each column');
SELECT is_empty($$SELECT * FROM partmgr.check_control_type('public', 'tap_shelp', 'nosuch')$$,
    'check_control_type: no row for a column that does not exist');
SELECT is(partmgr.check_name_length('events', '_default'), 'events_default',
    'check_name_length: a short name gets its suffix');
SELECT is(partmgr.check_name_length(repeat('a', 70), '20250101', true),
    repeat('a', 53) || '_p20250101', 'a long child name is cut to keep the whole suffix in 63 bytes');
SELECT is(octet_length(partmgr.check_name_length(repeat('é', 40), '_default')), 62,
    'cut on a character boundary (62 bytes: one more 2-byte character would not fit)');
SELECT throws_ok($$SELECT partmgr.check_name_length('events', NULL, true)$$, '22023', NULL,
    'check_name_length: a child''s name without a suffix is refused');

SELECT * FROM finish();
ROLLBACK;
