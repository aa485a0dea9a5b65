-- pgTAP tests of partmgr.run_maintenance(): premake.
--
-- Premake follows the newest child holding rows, catches up after a raised
-- premake, follows now() for infinite_time_partitions, counts rows in the
-- default partition only when ignore_default_data is false, skips (only) the
-- child the default partition blocks, honours automatic_maintenance,
-- maintenance_order and maintenance_last_run, isolates a broken set, and
-- computes bounds in the set's time zone.
--
-- Deterministic: far-future sets (2100) with explicit rows, or names derived
-- from now() of this transaction (which maintenance uses) with margins where
-- the premake rounding depends on the time of day.  Lock timeouts need a
-- second session and are covered by the isolation specs.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = error;

SELECT plan(59);

-- Children of a parent (names, C order) and with their bounds.
CREATE FUNCTION public.tap_child_names(p_parent regclass)
RETURNS SETOF text
LANGUAGE sql STABLE AS $$
    SELECT c.relname::text COLLATE "default"
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent
     ORDER BY c.relname COLLATE "C"
$$;
CREATE FUNCTION public.tap_children(p_parent regclass)
RETURNS TABLE (child text, bound text)
LANGUAGE sql STABLE AS $$
    SELECT c.relname::text COLLATE "default", pg_get_expr(c.relpartbound, c.oid) COLLATE "default"
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent
     ORDER BY c.relname COLLATE "C"
$$;
-- Whether the daily child of a set for today (UTC) + k days exists.
CREATE FUNCTION public.tap_day_child_exists(p_parent text, k int)
RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT to_regclass(format('public.%I', p_parent || '_p'
                       || to_char((now() AT TIME ZONE 'UTC')::date + k, 'YYYYMMDD'))) IS NOT NULL
$$;
-- How many daily children of a set lie beyond today (UTC) + k days.
CREATE FUNCTION public.tap_day_children_after(p_parent text, k int)
RETURNS int
LANGUAGE sql STABLE AS $$
    SELECT count(*)::int FROM public.tap_child_names(p_parent::regclass) n
     WHERE n > p_parent || '_p' || to_char((now() AT TIME ZONE 'UTC')::date + k, 'YYYYMMDD')
       AND n <> p_parent || '_default'
$$;

------------------------------------------------------------------------------
-- premake follows the newest child holding rows
------------------------------------------------------------------------------
CREATE TABLE public.tap_md (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_md', 'ts', '1 day', p_start_partition => '2100-01-01');

SELECT lives_ok($$SELECT partmgr.run_maintenance('public.tap_md')$$,
    'run_maintenance on a set with no rows succeeds');
SELECT results_eq($$SELECT tap_child_names('public.tap_md')$$,
    $$VALUES ('tap_md_default'), ('tap_md_p21000101')$$,
    'no rows and not infinite: nothing is created');

INSERT INTO public.tap_md VALUES ('2100-01-01 12:00');
SELECT partmgr.run_maintenance('public.tap_md');
SELECT results_eq($$SELECT tap_child_names('public.tap_md')$$,
    $$VALUES ('tap_md_default'), ('tap_md_p21000101'), ('tap_md_p21000102'), ('tap_md_p21000103'),
             ('tap_md_p21000104'), ('tap_md_p21000105')$$,
    'a row in 2100-01-01: premake (4) children after it are created');
SELECT results_eq($$SELECT bound FROM tap_children('public.tap_md') WHERE child = 'tap_md_p21000105'$$,
    $$VALUES ('FOR VALUES FROM (''2100-01-05 00:00:00+00'') TO (''2100-01-06 00:00:00+00'')')$$,
    'the premade child has the next day''s bounds');

SELECT partmgr.run_maintenance('public.tap_md');
SELECT is((SELECT count(*)::int FROM tap_child_names('public.tap_md')), 6,
    'a second run with the same rows creates nothing');

INSERT INTO public.tap_md VALUES ('2100-01-04 08:00');
SELECT partmgr.run_maintenance('public.tap_md');
SELECT results_eq($$SELECT tap_child_names('public.tap_md') OFFSET 5$$,
    $$VALUES ('tap_md_p21000105'), ('tap_md_p21000106'), ('tap_md_p21000107'), ('tap_md_p21000108')$$,
    'a row in 2100-01-04: children up to 2100-01-08, premake ahead of the newest child with rows');

-- catch-up after a raised premake
UPDATE partmgr.part_config SET premake = 7 WHERE parent_table = 'public.tap_md';
SELECT partmgr.run_maintenance('public.tap_md');
SELECT results_eq($$SELECT tap_child_names('public.tap_md') OFFSET 8$$,
    $$VALUES ('tap_md_p21000108'), ('tap_md_p21000109'), ('tap_md_p21000110'), ('tap_md_p21000111')$$,
    'premake raised to 7: one run catches up to 2100-01-11');

-- monthly: steps of a month from a row on the 31st
CREATE TABLE public.tap_mm (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_mm', 'ts', '1 month', p_start_partition => '2100-01-01');
INSERT INTO public.tap_mm VALUES ('2100-01-31 23:00');
SELECT partmgr.run_maintenance('public.tap_mm');
SELECT results_eq($$SELECT tap_child_names('public.tap_mm')$$,
    $$VALUES ('tap_mm_default'), ('tap_mm_p21000101'), ('tap_mm_p21000201'), ('tap_mm_p21000301'),
             ('tap_mm_p21000401'), ('tap_mm_p21000501')$$,
    'monthly set, row on January 31: children through May');
SELECT results_eq($$SELECT bound FROM tap_children('public.tap_mm') WHERE child = 'tap_mm_p21000201'$$,
    $$VALUES ('FOR VALUES FROM (''2100-02-01 00:00:00+00'') TO (''2100-03-01 00:00:00+00'')')$$,
    'monthly set: February spans the calendar month');
UPDATE partmgr.part_config SET premake = 6 WHERE parent_table = 'public.tap_mm';
SELECT partmgr.run_maintenance('public.tap_mm');
SELECT is((SELECT max(n) FROM tap_child_names('public.tap_mm') n WHERE n <> 'tap_mm_default'),
    'tap_mm_p21000701', 'monthly set, premake raised to 6: children through July');

-- id set
CREATE TABLE public.tap_mi (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_mi', 'id', '10', p_start_partition => '100', p_premake => 2);
INSERT INTO public.tap_mi VALUES (105);
SELECT partmgr.run_maintenance('public.tap_mi');
SELECT results_eq($$SELECT tap_child_names('public.tap_mi')$$,
    $$VALUES ('tap_mi_default'), ('tap_mi_p100'), ('tap_mi_p110'), ('tap_mi_p120')$$,
    'id set, row in the lowest child: premake (2) children already there, nothing created');
INSERT INTO public.tap_mi VALUES (125);
SELECT partmgr.run_maintenance('public.tap_mi');
SELECT results_eq($$SELECT child, bound FROM tap_children('public.tap_mi')$$,
    $$VALUES ('tap_mi_default', 'DEFAULT'),
             ('tap_mi_p100', 'FOR VALUES FROM (''100'') TO (''110'')'),
             ('tap_mi_p110', 'FOR VALUES FROM (''110'') TO (''120'')'),
             ('tap_mi_p120', 'FOR VALUES FROM (''120'') TO (''130'')'),
             ('tap_mi_p130', 'FOR VALUES FROM (''130'') TO (''140'')'),
             ('tap_mi_p140', 'FOR VALUES FROM (''140'') TO (''150'')')$$,
    'id set, row 125: children 130 and 140 created');

-- a set whose children were all dropped gets create_parent's initial children
CREATE TABLE public.tap_mempty (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_mempty', 'id', '10', p_start_partition => '500', p_premake => 1,
                             p_default_table => false);
DROP TABLE public.tap_mempty_p500, public.tap_mempty_p510;
SELECT partmgr.run_maintenance('public.tap_mempty');
SELECT results_eq($$SELECT tap_child_names('public.tap_mempty')$$,
    $$VALUES ('tap_mempty_p0'), ('tap_mempty_p10')$$,
    'all children dropped, no rows: the initial children (from 0) are created again');

------------------------------------------------------------------------------
-- infinite_time_partitions: premake ahead of now() without rows
------------------------------------------------------------------------------
CREATE TABLE public.tap_minf (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_minf', 'ts', '1 day');
UPDATE partmgr.part_config SET premake = 6 WHERE parent_table = 'public.tap_minf';
CREATE TEMP TABLE tap_minf_before AS SELECT tap_child_names('public.tap_minf') AS n;
SELECT partmgr.run_maintenance('public.tap_minf');
SELECT set_eq($$SELECT tap_child_names('public.tap_minf')$$, $$SELECT n FROM tap_minf_before$$,
    'no rows, infinite_time_partitions false: raising premake creates nothing');
UPDATE partmgr.part_config SET infinite_time_partitions = true WHERE parent_table = 'public.tap_minf';
SELECT partmgr.run_maintenance('public.tap_minf');
SELECT ok(tap_day_child_exists('tap_minf', 5) AND tap_day_child_exists('tap_minf', 6),
    'infinite_time_partitions, no rows, premake 6: children through today + 6 (UTC)');
SELECT is(tap_day_children_after('tap_minf', 7), 0,
    'infinite_time_partitions, no rows, premake 6: nothing beyond today + 7');

-- rows only in the past: without infinite premake counts from them, with it from now()
CREATE TABLE public.tap_mold (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_mold', 'ts', '1 day', p_premake => 2);
INSERT INTO public.tap_mold VALUES (now() - interval '2 days');
UPDATE partmgr.part_config SET premake = 5 WHERE parent_table = 'public.tap_mold';
SELECT partmgr.run_maintenance('public.tap_mold');
SELECT ok(tap_day_child_exists('tap_mold', 3) AND tap_day_children_after('tap_mold', 3) = 0,
    'rows two days ago, premake 5, not infinite: children exactly through today + 3');
UPDATE partmgr.part_config SET infinite_time_partitions = true WHERE parent_table = 'public.tap_mold';
SELECT partmgr.run_maintenance('public.tap_mold');
SELECT ok(tap_day_child_exists('tap_mold', 4) AND tap_day_child_exists('tap_mold', 5),
    'rows two days ago, premake 5, infinite: children through today + 5');
SELECT is(tap_day_children_after('tap_mold', 6), 0,
    'rows two days ago, premake 5, infinite: nothing beyond today + 6');

-- infinite_time_partitions does not pull a set with future rows back to now()
UPDATE partmgr.part_config SET infinite_time_partitions = true WHERE parent_table = 'public.tap_md';
SELECT partmgr.run_maintenance('public.tap_md');
SELECT is((SELECT max(n) FROM tap_child_names('public.tap_md') n WHERE n <> 'tap_md_default'),
    'tap_md_p21000111', 'infinite set with rows in 2100: premake still counts from its newest rows');

------------------------------------------------------------------------------
-- the default partition
------------------------------------------------------------------------------
-- with pg_partmgr.default_move_limit = 0 (maintenance moves no rows itself;
-- moving them is tested in partition_data.sql), rows in the default block
-- exactly the child of their range (WARNING), the others are created
SET LOCAL pg_partmgr.default_move_limit = 0;
CREATE TABLE public.tap_mblock (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_mblock', 'ts', '1 day', p_start_partition => '2100-01-01');
INSERT INTO public.tap_mblock VALUES ('2100-01-01 05:00'), ('2100-01-03 05:00');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.tap_mblock')$$,
    'a child blocked by rows in the default partition is not an error');
SELECT results_eq($$SELECT tap_child_names('public.tap_mblock')$$,
    $$VALUES ('tap_mblock_default'), ('tap_mblock_p21000101'), ('tap_mblock_p21000102'),
             ('tap_mblock_p21000104'), ('tap_mblock_p21000105')$$,
    'rows for 2100-01-03 in the default: that child is skipped, the others are created');
SELECT results_eq($$SELECT ts FROM ONLY public.tap_mblock_default$$,
    $$VALUES ('2100-01-03 05:00+00'::timestamptz)$$,
    'the blocking row stays in the default partition');
SELECT isnt((SELECT maintenance_last_run FROM partmgr.part_config WHERE parent_table = 'public.tap_mblock'),
    NULL, 'a run that skipped a blocked child still records maintenance_last_run');
SELECT partmgr.run_maintenance('public.tap_mblock');
SELECT is((SELECT count(*)::int FROM tap_child_names('public.tap_mblock')), 5,
    'a second run skips the blocked child again and creates nothing else');

-- ignore_default_data
CREATE TABLE public.tap_mign (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_mign', 'ts', '1 day', p_start_partition => '2100-01-01', p_premake => 2);
INSERT INTO public.tap_mign VALUES ('2100-01-01 05:00'), ('2100-01-08 05:00');
SELECT partmgr.run_maintenance('public.tap_mign');
SELECT results_eq($$SELECT tap_child_names('public.tap_mign')$$,
    $$VALUES ('tap_mign_default'), ('tap_mign_p21000101'), ('tap_mign_p21000102'), ('tap_mign_p21000103')$$,
    'ignore_default_data true (default): a row for 2100-01-08 in the default does not move premake');
UPDATE partmgr.part_config SET ignore_default_data = false WHERE parent_table = 'public.tap_mign';
SELECT partmgr.run_maintenance('public.tap_mign');
SELECT results_eq($$SELECT tap_child_names('public.tap_mign')$$,
    $$VALUES ('tap_mign_default'), ('tap_mign_p21000101'), ('tap_mign_p21000102'), ('tap_mign_p21000103'),
             ('tap_mign_p21000104'), ('tap_mign_p21000105'), ('tap_mign_p21000106'), ('tap_mign_p21000107'),
             ('tap_mign_p21000109'), ('tap_mign_p21000110')$$,
    'ignore_default_data false: premake counts from 2100-01-08; its own child stays blocked');
RESET pg_partmgr.default_move_limit;

------------------------------------------------------------------------------
-- time zones
------------------------------------------------------------------------------
SET TimeZone = 'Pacific/Kiritimati';
CREATE TABLE public.tap_mtz (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_mtz', 'ts', '1 day', p_start_partition => '2100-01-01 00:00+00',
                             p_premake => 2, p_timezone => 'UTC');
INSERT INTO public.tap_mtz VALUES ('2100-01-01 12:00+00');
SELECT partmgr.run_maintenance('public.tap_mtz');
CREATE TABLE public.tap_mber (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_mber', 'ts', '1 day', p_start_partition => '2100-03-26',
                             p_premake => 3, p_time_zone => 'Europe/Berlin');
INSERT INTO public.tap_mber VALUES ('2100-03-26 12:00+01');
SELECT partmgr.run_maintenance('public.tap_mber');
SET TimeZone = 'UTC';
SELECT results_eq($$SELECT child, bound FROM tap_children('public.tap_mtz')$$,
    $$VALUES ('tap_mtz_default', 'DEFAULT'),
             ('tap_mtz_p21000101', 'FOR VALUES FROM (''2100-01-01 00:00:00+00'') TO (''2100-01-02 00:00:00+00'')'),
             ('tap_mtz_p21000102', 'FOR VALUES FROM (''2100-01-02 00:00:00+00'') TO (''2100-01-03 00:00:00+00'')'),
             ('tap_mtz_p21000103', 'FOR VALUES FROM (''2100-01-03 00:00:00+00'') TO (''2100-01-04 00:00:00+00'')')$$,
    'maintenance under session zone Pacific/Kiritimati: a UTC set still gets UTC days');
SELECT results_eq($$SELECT child, bound FROM tap_children('public.tap_mber')$$,
    $$VALUES ('tap_mber_default', 'DEFAULT'),
             ('tap_mber_p21000326', 'FOR VALUES FROM (''2100-03-25 23:00:00+00'') TO (''2100-03-26 23:00:00+00'')'),
             ('tap_mber_p21000327', 'FOR VALUES FROM (''2100-03-26 23:00:00+00'') TO (''2100-03-27 23:00:00+00'')'),
             ('tap_mber_p21000328', 'FOR VALUES FROM (''2100-03-27 23:00:00+00'') TO (''2100-03-28 22:00:00+00'')'),
             ('tap_mber_p21000329', 'FOR VALUES FROM (''2100-03-28 22:00:00+00'') TO (''2100-03-29 22:00:00+00'')')$$,
    'Europe/Berlin daily set across the spring DST change: Berlin midnights, a 23 hour day');

------------------------------------------------------------------------------
-- run_maintenance() without arguments: automatic_maintenance, order, last run
------------------------------------------------------------------------------
CREATE TABLE public.tap_ord_a (id bigint NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE public.tap_ord_b (id bigint NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE public.tap_ord_c (id bigint NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE public.tap_ord_d (id bigint NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE public.tap_ord_off (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.' || t, 'id', '10', p_start_partition => '100', p_premake => 1,
                             p_automatic_maintenance => CASE WHEN t = 'tap_ord_off' THEN 'off' ELSE 'on' END)
  FROM unnest(ARRAY['tap_ord_a', 'tap_ord_b', 'tap_ord_c', 'tap_ord_d', 'tap_ord_off']) t;
INSERT INTO public.tap_ord_a VALUES (115);
INSERT INTO public.tap_ord_b VALUES (115);
INSERT INTO public.tap_ord_c VALUES (115);
INSERT INTO public.tap_ord_d VALUES (115);
INSERT INTO public.tap_ord_off VALUES (115);
UPDATE partmgr.part_config
   SET maintenance_order = CASE parent_table WHEN 'public.tap_ord_a' THEN 2 WHEN 'public.tap_ord_c' THEN 1
                                             WHEN 'public.tap_ord_off' THEN 0 END
 WHERE parent_table LIKE 'public.tap\_ord\_%';

SELECT is((SELECT count(*)::int FROM partmgr.part_config
            WHERE parent_table LIKE 'public.tap\_ord\_%' AND maintenance_last_run IS NOT NULL),
    0, 'maintenance_last_run is NULL before the first run');
SELECT lives_ok($$SELECT partmgr.run_maintenance()$$, 'run_maintenance() without arguments succeeds');
SELECT results_eq(
    $$SELECT parent_table FROM partmgr.part_config
       WHERE parent_table LIKE 'public.tap\_ord\_%' AND maintenance_last_run IS NOT NULL
       ORDER BY maintenance_last_run$$,
    $$VALUES ('public.tap_ord_c'::text), ('public.tap_ord_a'), ('public.tap_ord_b'), ('public.tap_ord_d')$$,
    'sets run in maintenance_order (1, 2), NULLs last by parent_table, and maintenance_last_run says so');
SELECT ok((SELECT bool_and(maintenance_last_run >= now()) FROM partmgr.part_config
            WHERE parent_table LIKE 'public.tap\_ord\_%' AND maintenance_last_run IS NOT NULL),
    'maintenance_last_run is a time of this run (clock_timestamp())');
SELECT ok(to_regclass('public.tap_ord_a_p120') IS NOT NULL AND to_regclass('public.tap_ord_d_p120') IS NOT NULL,
    'run_maintenance() creates the children of sets with automatic_maintenance on');
SELECT ok(to_regclass('public.tap_ord_off_p120') IS NULL,
    'run_maintenance() leaves out a set with automatic_maintenance off');
SELECT is((SELECT maintenance_last_run FROM partmgr.part_config WHERE parent_table = 'public.tap_ord_off'),
    NULL, 'the automatic_maintenance off set has no maintenance_last_run');
SELECT partmgr.run_maintenance('public.tap_ord_off');
SELECT ok(to_regclass('public.tap_ord_off_p120') IS NOT NULL,
    'run_maintenance(set) maintains a set with automatic_maintenance off');
SELECT isnt((SELECT maintenance_last_run FROM partmgr.part_config WHERE parent_table = 'public.tap_ord_off'),
    NULL, 'run_maintenance(set) records maintenance_last_run of the named set');

SELECT lives_ok($$SELECT partmgr.run_maintenance('public.tap_ord_a', p_analyze => true)$$,
    'run_maintenance with p_analyze succeeds');

------------------------------------------------------------------------------
-- one broken set does not stop the others
------------------------------------------------------------------------------
CREATE TABLE public.tap_brk_interval (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_brk_interval', 'id', '10', p_start_partition => '100', p_premake => 1);
UPDATE partmgr.part_config SET partition_interval = 'banana' WHERE parent_table = 'public.tap_brk_interval';
CREATE TABLE public.tap_brk_dropped (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_brk_dropped', 'id', '10', p_start_partition => '100', p_premake => 1);
DROP TABLE public.tap_brk_dropped;
CREATE TABLE public.tap_brk_ok (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_brk_ok', 'id', '10', p_start_partition => '100', p_premake => 1);
UPDATE partmgr.part_config SET maintenance_order = 100 WHERE parent_table = 'public.tap_brk_ok';
INSERT INTO public.tap_brk_ok VALUES (115);
CREATE FUNCTION pg_temp.brk_run() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    state text;
    message text;
BEGIN
    PERFORM partmgr.run_maintenance();
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
    RETURN state || ': ' || message;
END
$$;
SELECT is(current_setting('pg_partmgr.on_set_failure'), 'error', 'pg_partmgr.on_set_failure defaults to error');
SELECT matches(pg_temp.brk_run(),
    '^[0-9A-Z]{5}: maintenance of 2 partition sets failed: "public.tap_brk_(dropped|interval)", "public.tap_brk_(dropped|interval)"$',
    'run_maintenance() with broken sets ends with an ERROR naming them, with the first failure''s SQLSTATE');
SELECT ok(to_regclass('public.tap_brk_ok_p120') IS NULL,
    'the ERROR rolls back the run''s transaction, the healthy set''s child too');
SET LOCAL pg_partmgr.on_set_failure = warning;
SELECT lives_ok($$SELECT partmgr.run_maintenance()$$,
    'with pg_partmgr.on_set_failure = warning, run_maintenance() with a broken set (bad interval, dropped parent) succeeds');
SELECT ok(to_regclass('public.tap_brk_ok_p120') IS NOT NULL,
    'the healthy set maintained after the broken ones got its child');
SELECT is((SELECT count(*)::int FROM partmgr.part_config
            WHERE parent_table IN ('public.tap_brk_interval', 'public.tap_brk_dropped')
              AND maintenance_last_run IS NOT NULL),
    0, 'broken sets get no maintenance_last_run');
SELECT throws_ok($$SELECT partmgr.run_maintenance('public.tap_brk_interval')$$,
    '22023', 'partition interval "banana" is not an integer',
    'run_maintenance(set) on a set with a bad interval raises the error');
DELETE FROM partmgr.part_config WHERE parent_table IN ('public.tap_brk_interval', 'public.tap_brk_dropped');
RESET pg_partmgr.on_set_failure;

------------------------------------------------------------------------------
-- pg_partmgr.lock_timeout (waiting for a lock needs a second session: see the
-- isolation specs)
------------------------------------------------------------------------------
SELECT is(current_setting('pg_partmgr.lock_timeout'), '100ms',
    'pg_partmgr.lock_timeout defaults to 100ms');
SELECT throws_ok($$SET LOCAL pg_partmgr.lock_timeout = 0$$, '22023', NULL,
    'pg_partmgr.lock_timeout refuses 0');
SELECT throws_ok($$SET LOCAL pg_partmgr.lock_timout = 5$$, '42602', NULL,
    'a misspelled pg_partmgr. setting is refused (reserved prefix)');

------------------------------------------------------------------------------
-- undo_in_progress
------------------------------------------------------------------------------
CREATE TABLE public.tap_mundo (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_mundo', 'id', '10', p_start_partition => '100', p_premake => 1);
INSERT INTO public.tap_mundo VALUES (115);
UPDATE partmgr.part_config SET undo_in_progress = true WHERE parent_table = 'public.tap_mundo';
SELECT partmgr.run_maintenance();
SELECT ok(to_regclass('public.tap_mundo_p120') IS NULL,
    'run_maintenance() skips a set with undo_in_progress');
-- a set being undone is left alone also when it is named (as in pg_partman)
SELECT partmgr.run_maintenance('public.tap_mundo');
SELECT ok(to_regclass('public.tap_mundo_p120') IS NULL,
    'run_maintenance(set) skips a set with undo_in_progress too');

------------------------------------------------------------------------------
-- hourly set across the autumn DST change of its zone
------------------------------------------------------------------------------
-- In Europe/Berlin the hour 02:00-03:00 happens twice on 2100-10-31.  The
-- first one (summer time) gets the suffix _dst, so the two children keep
-- names of their own and maintenance goes on past that hour.
CREATE TABLE public.tap_mdst (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_mdst', 'ts', '1 hour', p_start_partition => '2100-10-31 00:00',
                             p_time_zone => 'Europe/Berlin');
INSERT INTO public.tap_mdst VALUES ('2100-10-31 00:30+02');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.tap_mdst')$$,
    'hourly Europe/Berlin set: maintenance across the autumn DST change succeeds');
SELECT ok(EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                   WHERE i.inhparent = 'public.tap_mdst'::regclass
                     AND pg_get_expr(c.relpartbound, c.oid) LIKE '%''2100-10-31 01:00:00+00''%TO%'),
    'hourly Europe/Berlin set: the second 02:00 hour (01:00 UTC) gets a child');
SELECT is(
    (SELECT array_agg(c.relname::text ORDER BY c.relname)
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'public.tap_mdst'::regclass AND c.relname LIKE '%21001031_02%'),
    ARRAY['tap_mdst_p21001031_020000', 'tap_mdst_p21001031_020000_dst'],
    'hourly Europe/Berlin set: the summer-time 02:00 hour is named _dst, the winter one plainly');

-- run_analyze: the statistics of the whole tree, gathered on the parent
CREATE TABLE public.tap_ra (id bigint NOT NULL, v text) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_ra', 'id', '100', p_start_partition => '0', p_premake => 1);
INSERT INTO public.tap_ra SELECT g, 'v' || g FROM generate_series(0, 150) g;
SELECT ok(NOT EXISTS (SELECT 1 FROM pg_statistic WHERE starelid = 'public.tap_ra'::regclass AND stainherit),
    'before run_analyze the parent has no statistics of its tree');
CALL partmgr.run_analyze(p_quiet => true, p_parent_table => 'public.tap_ra');
SELECT ok(EXISTS (SELECT 1 FROM pg_statistic WHERE starelid = 'public.tap_ra'::regclass AND stainherit),
    'run_analyze(p_parent_table) gathered them');
SELECT throws_ok($$CALL partmgr.run_analyze(p_parent_table => 'public.tap_ra_p0')$$, '42704', NULL,
    'run_analyze of a table that is not managed: 42704');

-- the stamps every run writes are HOT updates (part_config's fillfactor):
-- forty sets whose rows would fill their pages, one run over all sets
DO $$
BEGIN
    FOR i IN 1 .. 40 LOOP
        EXECUTE format('CREATE TABLE public.tap_hot_%s (id bigint NOT NULL) PARTITION BY RANGE (id)', i);
        PERFORM partmgr.create_parent(format('public.tap_hot_%s', i), 'id', '100',
                                      p_start_partition => '0', p_premake => 1,
                                      p_default_table => false);
    END LOOP;
END
$$;
CREATE TEMP TABLE tap_hot_before AS
SELECT pg_stat_get_xact_tuples_updated('partmgr.part_config'::regclass) AS upd,
       pg_stat_get_xact_tuples_hot_updated('partmgr.part_config'::regclass) AS hot;
SELECT partmgr.run_maintenance();
SELECT cmp_ok(pg_stat_get_xact_tuples_updated('partmgr.part_config'::regclass) - (SELECT upd FROM tap_hot_before),
    '>=', 40::bigint, 'a run over all sets writes maintenance_last_run of each');
-- (rows updated earlier in this transaction may have used their page's room:
-- old versions are pruned only once the transaction is over)
SELECT cmp_ok(pg_stat_get_xact_tuples_hot_updated('partmgr.part_config'::regclass) - (SELECT hot FROM tap_hot_before),
    '>=', 40::bigint,
    'the forty new sets'' stamps are HOT updates: part_config keeps room on its pages (fillfactor 50)');

SELECT * FROM finish();
ROLLBACK;
