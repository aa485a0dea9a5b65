-- pgTAP tests of partition_data_async (pg_partman 5.3): rows out of the
-- default partition in batches narrower than a partition interval, each
-- child created unattached, filled, then attached; the progress kept in
-- part_config.async_partitioning_in_progress, so that a later call goes
-- on with the same child; maintenance, partition_data and undo_partition
-- leaving the set alone meanwhile; rows arriving in the default for the
-- child's range during the fill; descending order; id sets; bad input.
--
-- The procedure runs here inside the test's transaction (no commits); the
-- pg_regress test partition_data_async runs it with CALL, committing.
-- Deterministic: every key is in 2100 or an id.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = warning;

SELECT plan(31);

-- the partitions of a table with whether they are attached, by name
CREATE FUNCTION public.tap_async_children(p_parent regclass)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce(string_agg(c.relname::text, ',' ORDER BY c.relname COLLATE "C"), '')
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent
$$;

CREATE FUNCTION public.tap_async_progress(p_parent text)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT async_partitioning_in_progress FROM partmgr.part_config
     WHERE parent_table = p_parent
$$;

CREATE TABLE public.tap_as (ts timestamptz NOT NULL, v int, note text DEFAULT 'n')
    PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_as', 'ts', '1 day', p_premake => 1,
                             p_start_partition => '2100-01-10', p_template_table => 'false');
-- two days of hourly rows land in the default partition
INSERT INTO public.tap_as (ts, v)
    SELECT '2100-01-01'::timestamptz + g * interval '1 hour', g FROM generate_series(0, 47) g;

-- bad input
SELECT throws_ok($$CALL partmgr.partition_data_async('public.tap_as', p_interval => '2 days')$$,
    '22023', NULL, 'a batch wider than the partition interval is refused');
SELECT throws_ok($$CALL partmgr.partition_data_async('public.tap_as', p_interval => 'soon')$$,
    '22023', NULL, 'a batch that is not an interval is refused');
SELECT throws_ok($$CALL partmgr.partition_data_async('public.tap_as', p_order => 'UP')$$,
    '22023', NULL, 'p_order other than ASC or DESC is refused');
SELECT throws_ok($$CALL partmgr.partition_data_async('public.tap_as', p_loop_count => 0)$$,
    '22023', NULL, 'p_loop_count below 1 is refused');
SELECT throws_ok($$CALL partmgr.partition_data_async('public.nosuch')$$,
    '42P01', NULL, 'a missing table is refused');
SELECT is(tap_async_progress('public.tap_as'), NULL, 'bad input leaves no progress behind');

-- the first call: the child of the first day made unattached, two batches of six hours moved
CALL partmgr.partition_data_async('public.tap_as', p_interval => '6 hours', p_loop_count => 2,
                                  p_wait => 0, p_quiet => true);
SELECT is(tap_async_progress('public.tap_as'), '2100-01-01 00:00:00+00',
    'the child being filled is recorded by its lower bound');
SELECT ok(to_regclass('public.tap_as_p21000101') IS NOT NULL
          AND NOT (SELECT relispartition FROM pg_class WHERE oid = 'public.tap_as_p21000101'::regclass),
    'the child exists, unattached');
SELECT is((SELECT count(*)::int FROM public.tap_as_p21000101), 12, 'it holds the two batches moved');
SELECT is((SELECT min(ts)::text || ' ' || max(ts)::text FROM public.tap_as_p21000101),
    '2100-01-01 00:00:00+00 2100-01-01 11:00:00+00', 'the first twelve hours, in ascending order');
SELECT is((SELECT count(*)::int FROM ONLY public.tap_as_default), 36, 'they left the default partition');
SELECT is((SELECT count(*)::int FROM public.tap_as), 36,
    'rows in transit are not visible through the parent');
SELECT ok(EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'public.tap_as_p21000101'::regclass
                                                AND contype = 'c'),
    'the unattached child carries the CHECK of its bound');

-- meanwhile maintenance, partition_data and undo leave the set alone
INSERT INTO public.tap_as (ts, v) VALUES ('2100-01-10 05:00+00', 200);
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.tap_as')$$, 'run_maintenance of the set');
SELECT is(to_regclass('public.tap_as_p21000111'), NULL,
    'skips it: a row in its newest child and no child premade above');
SELECT throws_ok($$SELECT partmgr.partition_data_time('public.tap_as')$$,
    '55000', NULL, 'partition_data_time is refused while a child is being filled');
CREATE TABLE public.tap_as_target (LIKE public.tap_as);
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('public.tap_as', 'public.tap_as_target')$$,
    '55000', NULL, 'undo_partition is refused too');
SELECT ok((SELECT status || reason FROM partmgr.set_health() WHERE parent_table = 'public.tap_as')
          LIKE 'warning%partition_data_async is filling the child from 2100-01-01%',
    'health says a child is being filled and its rows are out of sight');

-- a row of the child's range reaches the default partition while it is filled
INSERT INTO public.tap_as (ts, v) VALUES ('2100-01-01 01:30+00', 100);
-- the next call goes on with the same child, then the next day's
CALL partmgr.partition_data_async('public.tap_as', p_interval => '6 hours', p_wait => 0,
                                  p_quiet => true);
SELECT is(tap_async_progress('public.tap_as'), NULL, 'when the default partition is empty, no child is in progress');
SELECT is(tap_async_children('public.tap_as'),
    'tap_as_default,tap_as_p21000101,tap_as_p21000102,tap_as_p21000110',
    'both days got their child, attached');
SELECT is((SELECT count(*)::int FROM public.tap_as_p21000101), 25,
    'the first day''s child holds its rows and the one that arrived during the fill');
SELECT is((SELECT count(*)::int FROM public.tap_as_p21000102), 24, 'the second day''s holds its rows');
SELECT is((SELECT count(*)::int FROM ONLY public.tap_as_default), 0, 'the default partition is empty');
SELECT is((SELECT count(*)::int FROM public.tap_as), 50, 'every row is visible again, none lost');
SELECT ok(NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'public.tap_as_p21000101'::regclass
                                                    AND contype = 'c'),
    'the bound CHECK is gone once attached');
SELECT is((SELECT string_agg(DISTINCT action, ',' ORDER BY action) FROM partmgr.maintenance_log
            WHERE run_by = 'partition_data_async' AND parent_table = 'public.tap_as'),
    'attach partition,create unattached partition,move rows',
    'each step is in the maintenance log');

-- descending, on an id set, with a batch of the whole interval (the default)
CREATE TABLE public.tap_asi (id bigint NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_asi', 'id', '100', p_premake => 1,
                             p_start_partition => '1000', p_template_table => 'false');
INSERT INTO public.tap_asi SELECT g, g FROM generate_series(1, 250) g;
CALL partmgr.partition_data_async('public.tap_asi', p_interval => '30', p_order => 'DESC',
                                  p_loop_count => 1, p_wait => 0, p_quiet => true);
SELECT is(tap_async_progress('public.tap_asi'), '200', 'descending: the highest child is filled first');
SELECT is((SELECT min(id)::text || '-' || max(id)::text FROM public.tap_asi_p200), '221-250',
    'with the top batch of its range');
CALL partmgr.partition_data_async('public.tap_asi', p_order => 'DESC', p_wait => 0, p_quiet => true);
SELECT is(tap_async_children('public.tap_asi'),
    'tap_asi_default,tap_asi_p0,tap_asi_p100,tap_asi_p1000,tap_asi_p1100,tap_asi_p200',
    'an id set gets every child it needs');
SELECT is((SELECT count(*)::int FROM public.tap_asi), 250, 'and keeps every row');

-- a sub-partitioned set is refused
CREATE TABLE public.tap_ass (id bigint NOT NULL, ts timestamptz NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_ass', 'id', '10', p_premake => 1,
                             p_start_partition => '0', p_template_table => 'false');
SELECT partmgr.create_sub_parent('public.tap_ass', 'ts', '1 day', p_declarative_check => 'yes',
                                 p_premake => 1, p_start_partition => '2100-01-01');
SELECT throws_ok($$CALL partmgr.partition_data_async('public.tap_ass')$$,
    '0A000', NULL, 'partition_data_async of a sub-partitioned set is refused');

SELECT * FROM finish();
ROLLBACK;
