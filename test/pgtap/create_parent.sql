-- pgTAP tests of partmgr.create_parent(): valid registrations.
--
-- Every supported key type and the usual intervals, the children's names
-- and bounds as the catalog holds them, the part_config rows, time zone
-- handling (the zone recorded at creation vs. the session's), names that need
-- quoting and names cut to 63 bytes.  Bad input is in bad_input.sql.
--
-- Deterministic: sets get an explicit far-future p_start_partition, or are
-- checked against now() of this same transaction (which create_parent uses).
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = warning;

SELECT plan(62);

-- Children of a parent with their bounds as pg_get_expr prints them (in the
-- session's TimeZone, so read them with TimeZone = 'UTC').
CREATE FUNCTION public.tap_children(p_parent regclass)
RETURNS TABLE (child text, bound text)
LANGUAGE sql STABLE AS $$
    SELECT c.relname::text COLLATE "default", pg_get_expr(c.relpartbound, c.oid) COLLATE "default"
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent
     ORDER BY c.relname COLLATE "C"
$$;

-- The bounds of a parent's children, without the children's names.
CREATE FUNCTION public.tap_bounds(p_parent regclass)
RETURNS SETOF text
LANGUAGE sql STABLE AS $$
    SELECT bound FROM public.tap_children(p_parent) ORDER BY bound COLLATE "C"
$$;

------------------------------------------------------------------------------
-- timestamptz, 1 day, far-future start: one child and the default
------------------------------------------------------------------------------
CREATE TABLE public.tap_day (id bigint, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT ok(partmgr.create_parent('public.tap_day', 'ts', '1 day',
                                p_start_partition => '2100-01-01'),
          'create_parent returns true for a timestamptz set with a 1 day interval');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_day')$$,
    $$VALUES ('tap_day_default', 'DEFAULT'),
             ('tap_day_p21000101', 'FOR VALUES FROM (''2100-01-01 00:00:00+00'') TO (''2100-01-02 00:00:00+00'')')$$,
    '1 day set: child <parent>_p21000101 for [2100-01-01, 2100-01-02) and <parent>_default');
SELECT results_eq(
    $$SELECT control, partition_interval, partition_type, premake, automatic_maintenance,
             template_table, epoch, constraint_cols, datetime_string, jobmon,
             infinite_time_partitions, ignore_default_data, default_table,
             date_trunc_interval, maintenance_order, maintenance_last_run IS NULL,
             undo_in_progress, optimize_constraint, retention
        FROM partmgr.part_config WHERE parent_table = 'public.tap_day'$$,
    $$VALUES ('ts'::text, '1 day'::text, 'range'::text, 4, 'on'::text,
              'partmgr.template_public_tap_day'::text, 'none'::text, NULL::text[], 'YYYYMMDD'::text, true,
              false, true, true,
              NULL::text, NULL::int, true,
              false, 30, NULL::text)$$,
    '1 day set: part_config row holds the given and default settings');
SELECT results_eq(
    $$SELECT partition_timezone FROM partmgr.part_config WHERE parent_table = 'public.tap_day'$$,
    $$VALUES ('UTC'::text)$$,
    '1 day set: part_config.partition_timezone records the session''s TimeZone (UTC)');
SELECT results_eq(
    $$SELECT c.relkind::text, c.relispartition, pg_get_expr(c.relpartbound, c.oid) COLLATE "default"
        FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partdefid
       WHERE p.partrelid = 'public.tap_day'::regclass$$,
    $$VALUES ('r'::text, true, 'DEFAULT'::text)$$,
    '1 day set: the default partition is a plain table attached as DEFAULT');
SELECT results_eq(
    $$SELECT a.attname::text COLLATE "default"
        FROM pg_attribute a
       WHERE a.attrelid = 'public.tap_day_p21000101'::regclass AND a.attnum > 0
         AND NOT a.attisdropped ORDER BY a.attnum$$,
    $$VALUES ('id'::text), ('ts'::text)$$,
    '1 day set: the child has the parent''s columns');

------------------------------------------------------------------------------
-- every key type and the usual intervals
------------------------------------------------------------------------------
-- timestamp without time zone, 15 minutes: aligned to the hour (pg_partman 5)
CREATE TABLE public.tap_q15 (ts timestamp NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_q15', 'ts', '15 minutes',
                             p_start_partition => '2100-01-01 10:20:00');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_q15')$$,
    $$VALUES ('tap_q15_default', 'DEFAULT'),
             ('tap_q15_p21000101_100000', 'FOR VALUES FROM (''2100-01-01 10:00:00'') TO (''2100-01-01 10:15:00'')')$$,
    'timestamp, 15 minutes: start 10:20 aligned to 10:00, suffix YYYYMMDD_HH24MISS');
SELECT results_eq(
    $$SELECT partition_interval::interval, datetime_string FROM partmgr.part_config
       WHERE parent_table = 'public.tap_q15'$$,
    $$VALUES ('15 minutes'::interval, 'YYYYMMDD_HH24MISS'::text)$$,
    'timestamp, 15 minutes: part_config has the interval and the sub-day suffix format');

-- timestamptz, 1 hour
CREATE TABLE public.tap_hour (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_hour', 'ts', '1 hour',
                             p_start_partition => '2100-01-01 10:20:00');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_hour')$$,
    $$VALUES ('tap_hour_default', 'DEFAULT'),
             ('tap_hour_p21000101_100000', 'FOR VALUES FROM (''2100-01-01 10:00:00+00'') TO (''2100-01-01 11:00:00+00'')')$$,
    'timestamptz, 1 hour: start aligned to the hour');

-- date, 1 week: aligned to the day (weekly sets start on the given day)
CREATE TABLE public.tap_week (d date NOT NULL) PARTITION BY RANGE (d);
SELECT partmgr.create_parent('public.tap_week', 'd', '1 week', p_start_partition => '2100-01-06');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_week')$$,
    $$VALUES ('tap_week_default', 'DEFAULT'),
             ('tap_week_p21000106', 'FOR VALUES FROM (''2100-01-06'') TO (''2100-01-13'')')$$,
    'date, 1 week: child of 7 days from the start day');
SELECT results_eq(
    $$SELECT partition_interval::interval, datetime_string FROM partmgr.part_config
       WHERE parent_table = 'public.tap_week'$$,
    $$VALUES ('1 week'::interval, 'YYYYMMDD'::text)$$,
    'date, 1 week: part_config has a 7 day interval and suffix format YYYYMMDD');

-- date, 3 months: aligned to the month
CREATE TABLE public.tap_quarter (d date NOT NULL) PARTITION BY RANGE (d);
SELECT partmgr.create_parent('public.tap_quarter', 'd', '3 months', p_start_partition => '2100-05-06');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_quarter')$$,
    $$VALUES ('tap_quarter_default', 'DEFAULT'),
             ('tap_quarter_p21000501', 'FOR VALUES FROM (''2100-05-01'') TO (''2100-08-01'')')$$,
    'date, 3 months: start aligned to the first of the month, child of 3 months');

-- timestamptz, 1 month
CREATE TABLE public.tap_month (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_month', 'ts', '1 month', p_start_partition => '2100-05-21');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_month')$$,
    $$VALUES ('tap_month_default', 'DEFAULT'),
             ('tap_month_p21000501', 'FOR VALUES FROM (''2100-05-01 00:00:00+00'') TO (''2100-06-01 00:00:00+00'')')$$,
    'timestamptz, 1 month: start aligned to the month');

-- timestamptz, 1 year
CREATE TABLE public.tap_year (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_year', 'ts', '1 year', p_start_partition => '2100-05-01');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_year')$$,
    $$VALUES ('tap_year_default', 'DEFAULT'),
             ('tap_year_p21000101', 'FOR VALUES FROM (''2100-01-01 00:00:00+00'') TO (''2101-01-01 00:00:00+00'')')$$,
    'timestamptz, 1 year: start aligned to the year');

-- ISO 8601 interval input
CREATE TABLE public.tap_iso (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_iso', 'ts', 'P1D', p_start_partition => '2100-01-01');
SELECT results_eq(
    $$SELECT partition_interval::interval FROM partmgr.part_config WHERE parent_table = 'public.tap_iso'$$,
    $$VALUES ('1 day'::interval)$$,
    'an ISO 8601 interval (P1D) is accepted and stored as 1 day');

-- bigint with a start: the child holding the start and premake above, none below
CREATE TABLE public.tap_big (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_big', 'id', '100', p_start_partition => '1050');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_big')$$,
    $$VALUES ('tap_big_default', 'DEFAULT'),
             ('tap_big_p1000', 'FOR VALUES FROM (''1000'') TO (''1100'')'),
             ('tap_big_p1100', 'FOR VALUES FROM (''1100'') TO (''1200'')'),
             ('tap_big_p1200', 'FOR VALUES FROM (''1200'') TO (''1300'')'),
             ('tap_big_p1300', 'FOR VALUES FROM (''1300'') TO (''1400'')'),
             ('tap_big_p1400', 'FOR VALUES FROM (''1400'') TO (''1500'')')$$,
    'bigint, start 1050: children 1000 .. 1400, none below the start');
SELECT results_eq(
    $$SELECT partition_interval, datetime_string, date_trunc_interval FROM partmgr.part_config
       WHERE parent_table = 'public.tap_big'$$,
    $$VALUES ('100'::text, NULL::text, NULL::text)$$,
    'bigint: part_config has the integer interval and no datetime_string');

-- integer, no start and no rows: base 0, no children below 0
CREATE TABLE public.tap_int (id integer NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_int', 'id', '100');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_int')$$,
    $$VALUES ('tap_int_default', 'DEFAULT'),
             ('tap_int_p0', 'FOR VALUES FROM (0) TO (100)'),
             ('tap_int_p100', 'FOR VALUES FROM (100) TO (200)'),
             ('tap_int_p200', 'FOR VALUES FROM (200) TO (300)'),
             ('tap_int_p300', 'FOR VALUES FROM (300) TO (400)'),
             ('tap_int_p400', 'FOR VALUES FROM (400) TO (500)')$$,
    'integer, no start, empty table: children 0 .. 400');

-- integer, no start, rows present: based on max(id), premake children below too
CREATE TABLE public.tap_intdata (id integer NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE public.tap_intdata_old PARTITION OF public.tap_intdata FOR VALUES FROM (2000) TO (2100);
INSERT INTO public.tap_intdata VALUES (2010), (2050);
SELECT partmgr.create_parent('public.tap_intdata', 'id', '100');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_intdata')$$,
    $$VALUES ('tap_intdata_default', 'DEFAULT'),
             ('tap_intdata_old', 'FOR VALUES FROM (2000) TO (2100)'),
             ('tap_intdata_p1600', 'FOR VALUES FROM (1600) TO (1700)'),
             ('tap_intdata_p1700', 'FOR VALUES FROM (1700) TO (1800)'),
             ('tap_intdata_p1800', 'FOR VALUES FROM (1800) TO (1900)'),
             ('tap_intdata_p1900', 'FOR VALUES FROM (1900) TO (2000)'),
             ('tap_intdata_p2100', 'FOR VALUES FROM (2100) TO (2200)'),
             ('tap_intdata_p2200', 'FOR VALUES FROM (2200) TO (2300)'),
             ('tap_intdata_p2300', 'FOR VALUES FROM (2300) TO (2400)'),
             ('tap_intdata_p2400', 'FOR VALUES FROM (2400) TO (2500)')$$,
    'integer, no start, max(id) 2050: premake children below and above the existing child holding it');

-- smallint: the child past the type's range is cut at MAXVALUE
CREATE TABLE public.tap_small (id smallint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_small', 'id', '10000');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_small')$$,
    $$VALUES ('tap_small_default', 'DEFAULT'),
             ('tap_small_p0', 'FOR VALUES FROM (''0'') TO (''10000'')'),
             ('tap_small_p10000', 'FOR VALUES FROM (''10000'') TO (''20000'')'),
             ('tap_small_p20000', 'FOR VALUES FROM (''20000'') TO (''30000'')'),
             ('tap_small_p30000', 'FOR VALUES FROM (''30000'') TO (MAXVALUE)')$$,
    'smallint, 10000: children up to the type''s limit, the last one to MAXVALUE');

-- bigint at the top of its range: the child whose upper bound would pass
-- the type's maximum ends at MAXVALUE, as for smallint above (the bound
-- arithmetic once overflowed here and create_parent failed with 22003).
CREATE TABLE public.tap_bigtop (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT lives_ok(
    $$SELECT partmgr.create_parent('public.tap_bigtop', 'id', '1000',
                                   p_start_partition => '9223372036854775000')$$,
    'bigint, start in the last interval below the type''s maximum: create_parent succeeds');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_bigtop')$$,
    $$VALUES ('tap_bigtop_default', 'DEFAULT'),
             ('tap_bigtop_p9223372036854775000', 'FOR VALUES FROM (''9223372036854775000'') TO (MAXVALUE)')$$,
    'bigint at the top of its range: the last child ends at MAXVALUE');

-- numeric with a fractional start: floored
CREATE TABLE public.tap_num (n numeric NOT NULL) PARTITION BY RANGE (n);
SELECT partmgr.create_parent('public.tap_num', 'n', '100', p_start_partition => '1050.7', p_premake => 2);
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_num')$$,
    $$VALUES ('tap_num_default', 'DEFAULT'),
             ('tap_num_p1000', 'FOR VALUES FROM (''1000'') TO (''1100'')'),
             ('tap_num_p1100', 'FOR VALUES FROM (''1100'') TO (''1200'')'),
             ('tap_num_p1200', 'FOR VALUES FROM (''1200'') TO (''1300'')')$$,
    'numeric, start 1050.7, premake 2: children 1000 .. 1200');

-- negative start
CREATE TABLE public.tap_neg (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_neg', 'id', '100', p_start_partition => '-250', p_premake => 2);
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_neg')$$,
    $$VALUES ('tap_neg_default', 'DEFAULT'),
             ('tap_neg_p-100', 'FOR VALUES FROM (''-100'') TO (''0'')'),
             ('tap_neg_p-200', 'FOR VALUES FROM (''-200'') TO (''-100'')'),
             ('tap_neg_p-300', 'FOR VALUES FROM (''-300'') TO (''-200'')')$$,
    'bigint, start -250: aligned down to -300 (floor), suffixes keep the sign');

------------------------------------------------------------------------------
-- optional arguments
------------------------------------------------------------------------------
CREATE TABLE public.tap_opts (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_opts', 'ts', '1 hour', p_start_partition => '2100-01-01 05:00',
                             p_default_table => false, p_jobmon => false,
                             p_automatic_maintenance => 'off', p_premake => 7);
SELECT results_eq(
    $$SELECT premake, automatic_maintenance, jobmon, default_table FROM partmgr.part_config
       WHERE parent_table = 'public.tap_opts'$$,
    $$VALUES (7, 'off'::text, false, false)$$,
    'p_premake, p_automatic_maintenance, p_jobmon and p_default_table are stored');
SELECT results_eq(
    $$SELECT child FROM tap_children('public.tap_opts')$$,
    $$VALUES ('tap_opts_p21000101_050000'::text)$$,
    'p_default_table => false: no default partition is created');

-- p_date_trunc_interval: 'WEEK' (any case) aligns a date set to Monday
CREATE TABLE public.tap_trunc_week (d date NOT NULL) PARTITION BY RANGE (d);
SELECT partmgr.create_parent('public.tap_trunc_week', 'd', '1 week',
                             p_start_partition => '2100-01-06', p_date_trunc_interval => 'WEEK');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_trunc_week')$$,
    $$VALUES ('tap_trunc_week_default', 'DEFAULT'),
             ('tap_trunc_week_p21000104', 'FOR VALUES FROM (''2100-01-04'') TO (''2100-01-11'')')$$,
    'p_date_trunc_interval => WEEK: Wednesday 2100-01-06 aligned to Monday 2100-01-04');
SELECT is((SELECT date_trunc_interval FROM partmgr.part_config WHERE parent_table = 'public.tap_trunc_week'),
          'WEEK', 'p_date_trunc_interval is stored in part_config.date_trunc_interval');

CREATE TABLE public.tap_trunc_q (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_trunc_q', 'ts', '3 months',
                             p_start_partition => '2100-05-06', p_date_trunc_interval => 'quarter');
SELECT results_eq(
    $$SELECT child FROM tap_children('public.tap_trunc_q')$$,
    $$VALUES ('tap_trunc_q_default'::text), ('tap_trunc_q_p21000401')$$,
    'p_date_trunc_interval => quarter: 2100-05-06 aligned to 2100-04-01');

-- nullable control column allowed when asked
CREATE TABLE public.tap_nullable (ts timestamptz) PARTITION BY RANGE (ts);
SELECT ok(partmgr.create_parent('public.tap_nullable', 'ts', '1 day',
                                p_start_partition => '2100-01-01', p_control_not_null => false),
          'p_control_not_null => false accepts a nullable control column');
SELECT is((SELECT count(*)::int FROM partmgr.part_config WHERE parent_table = 'public.tap_nullable'),
          1, 'the set with a nullable control column is registered');

-- an existing default partition is kept, not duplicated
CREATE TABLE public.tap_owndef (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
CREATE TABLE public.tap_owndef_mine PARTITION OF public.tap_owndef DEFAULT;
SELECT partmgr.create_parent('public.tap_owndef', 'ts', '1 day', p_start_partition => '2100-01-01');
SELECT results_eq(
    $$SELECT child FROM tap_children('public.tap_owndef')$$,
    $$VALUES ('tap_owndef_mine'::text), ('tap_owndef_p21000101')$$,
    'a parent with its own default partition keeps it and gets no second one');

------------------------------------------------------------------------------
-- sets relative to now(): create_parent uses the transaction's now()
------------------------------------------------------------------------------
CREATE TABLE public.tap_now (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_now', 'ts', '1 day');
SELECT is((SELECT min(child) FROM tap_children('public.tap_now') WHERE child <> 'tap_now_default'),
          'tap_now_p' || to_char((now() AT TIME ZONE 'UTC')::date - 4, 'YYYYMMDD'),
          'no start: the first child is premake (4) days before today (UTC)');
SELECT ok((SELECT bool_and(to_regclass('public.tap_now_p' || to_char((now() AT TIME ZONE 'UTC')::date + k, 'YYYYMMDD')) IS NOT NULL)
             FROM generate_series(-4, 3) k),
          'no start: a child for every day from today - 4 to today + 3');
SELECT is((SELECT count(*)::int FROM tap_children('public.tap_now')
            WHERE child > 'tap_now_p' || to_char((now() AT TIME ZONE 'UTC')::date + 4, 'YYYYMMDD')
              AND child <> 'tap_now_default'),
          0, 'no start: no child beyond today + 4');

-- a start in the past: every interval from it up to now + premake
CREATE TABLE public.tap_past (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_past', 'ts', '1 day', p_premake => 2,
                             p_start_partition => ((now() AT TIME ZONE 'UTC')::date - 10)::text);
SELECT ok((SELECT bool_and(to_regclass('public.tap_past_p' || to_char((now() AT TIME ZONE 'UTC')::date + k, 'YYYYMMDD')) IS NOT NULL)
             FROM generate_series(-10, 1) k),
          'start 10 days ago, premake 2: children from the start through tomorrow');
SELECT is((SELECT count(*)::int FROM tap_children('public.tap_past')
            WHERE child > 'tap_past_p' || to_char((now() AT TIME ZONE 'UTC')::date + 2, 'YYYYMMDD')
               OR (child < 'tap_past_p' || to_char((now() AT TIME ZONE 'UTC')::date - 10, 'YYYYMMDD')
                   AND child <> 'tap_past_default')),
          0, 'start 10 days ago, premake 2: nothing before the start, nothing beyond today + 2');

------------------------------------------------------------------------------
-- time zones: a set is aligned in p_timezone / p_time_zone, else in the
-- TimeZone of the session that creates it, which is recorded (pg_partman
-- 5.4.4); maintenance then uses the recorded zone, whatever the session's
------------------------------------------------------------------------------
SET TimeZone = 'America/New_York';
CREATE TABLE public.tap_tz_ny (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_tz_ny', 'ts', '1 day', p_start_partition => '2100-01-01');
CREATE TABLE public.tap_tznow_ny_d (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_tznow_ny_d', 'ts', '1 day');
CREATE TABLE public.tap_tznow_ny_h (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_tznow_ny_h', 'ts', '1 hour');
CREATE TABLE public.tap_tznow_ny_m (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_tznow_ny_m', 'ts', '1 month');
SET TimeZone = 'Asia/Kolkata';
CREATE TABLE public.tap_tz_kol (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_tz_kol', 'ts', '1 day', p_start_partition => '2100-01-01');
CREATE TABLE public.tap_tznow_kol_d (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_tznow_kol_d', 'ts', '1 day');
CREATE TABLE public.tap_tznow_kol_h (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_tznow_kol_h', 'ts', '1 hour');
CREATE TABLE public.tap_tznow_kol_m (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_tznow_kol_m', 'ts', '1 month');
-- Berlin zone, created from a Tokyo session
SET TimeZone = 'Asia/Tokyo';
CREATE TABLE public.tap_tz_ber (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_tz_ber', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_time_zone => 'Europe/Berlin');
CREATE TABLE public.tap_tz_dst (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_tz_dst', 'ts', '1 day', p_start_partition => '2100-03-28',
                             p_time_zone => 'Europe/Berlin');
CREATE TABLE public.tap_tz_local (ts timestamp NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_tz_local', 'ts', '1 hour', p_time_zone => 'Asia/Kolkata');
CREATE TABLE public.tap_tz_date (d date NOT NULL) PARTITION BY RANGE (d);
SELECT partmgr.create_parent('public.tap_tz_date', 'd', '1 day', p_time_zone => 'Pacific/Kiritimati');
SET TimeZone = 'UTC';

SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_tz_ny')$$,
    $$VALUES ('tap_tz_ny_default', 'DEFAULT'),
             ('tap_tz_ny_p21000101', 'FOR VALUES FROM (''2100-01-01 05:00:00+00'') TO (''2100-01-02 05:00:00+00'')')$$,
    'session TimeZone America/New_York: the start is read and aligned in New York, the recorded zone');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_tz_kol')$$,
    $$VALUES ('tap_tz_kol_default', 'DEFAULT'),
             ('tap_tz_kol_p21000101', 'FOR VALUES FROM (''2099-12-31 18:30:00+00'') TO (''2100-01-01 18:30:00+00'')')$$,
    'the same start under session TimeZone Asia/Kolkata: Kolkata''s midnight');
SELECT results_eq(
    $$SELECT parent_table, partition_timezone FROM partmgr.part_config
       WHERE parent_table ~ '^public\.tap_tz(now)?_(ny|kol)' ORDER BY parent_table$$,
    $$VALUES ('public.tap_tz_kol', 'Asia/Kolkata'), ('public.tap_tz_ny', 'America/New_York'),
             ('public.tap_tznow_kol_d', 'Asia/Kolkata'), ('public.tap_tznow_kol_h', 'Asia/Kolkata'),
             ('public.tap_tznow_kol_m', 'Asia/Kolkata'), ('public.tap_tznow_ny_d', 'America/New_York'),
             ('public.tap_tznow_ny_h', 'America/New_York'), ('public.tap_tznow_ny_m', 'America/New_York')$$,
    'each set records the TimeZone of the session that created it');
SELECT is((SELECT count(*)::int FROM tap_children('public.tap_tznow_kol_h')
            WHERE bound <> 'DEFAULT' AND bound !~ ':30:00\+00'), 0,
    'no start, 1 hour, created in Kolkata: every hour starts at half past a UTC hour, on Kolkata''s clock');
SELECT is((SELECT min(bound) FROM tap_children('public.tap_tznow_kol_m') WHERE bound <> 'DEFAULT'),
          format('FOR VALUES FROM (%L) TO (%L)',
                 to_char(date_trunc('month', now() AT TIME ZONE 'Asia/Kolkata') - interval '4 months'
                         - interval '5 hours 30 minutes', 'YYYY-MM-DD HH24:MI:SS') || '+00',
                 to_char(date_trunc('month', now() AT TIME ZONE 'Asia/Kolkata') - interval '3 months'
                         - interval '5 hours 30 minutes', 'YYYY-MM-DD HH24:MI:SS') || '+00'),
          'no start, 1 month, created in Kolkata: months start at Kolkata''s midnight');
SELECT is((SELECT min(bound) FROM tap_children('public.tap_tznow_ny_d') WHERE bound <> 'DEFAULT'),
          format('FOR VALUES FROM (%L) TO (%L)',
                 to_char(timezone('America/New_York', date_trunc('day', now() AT TIME ZONE 'America/New_York') - interval '4 days') AT TIME ZONE 'UTC',
                         'YYYY-MM-DD HH24:MI:SS') || '+00',
                 to_char(timezone('America/New_York', date_trunc('day', now() AT TIME ZONE 'America/New_York') - interval '3 days') AT TIME ZONE 'UTC',
                         'YYYY-MM-DD HH24:MI:SS') || '+00'),
          'no start, created in New York: days start at New York''s midnight');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_tz_ber')$$,
    $$VALUES ('tap_tz_ber_default', 'DEFAULT'),
             ('tap_tz_ber_p21000101', 'FOR VALUES FROM (''2099-12-31 23:00:00+00'') TO (''2100-01-01 23:00:00+00'')')$$,
    'p_time_zone Europe/Berlin: a day is Berlin''s midnight to midnight, named by Berlin''s date');
SELECT results_eq(
    $$SELECT partition_timezone FROM partmgr.part_config WHERE parent_table = 'public.tap_tz_ber'$$,
    $$VALUES ('Europe/Berlin'::text)$$,
    'p_time_zone (from a Tokyo session) is stored in part_config.partition_timezone');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.tap_tz_dst')$$,
    $$VALUES ('tap_tz_dst_default', 'DEFAULT'),
             ('tap_tz_dst_p21000328', 'FOR VALUES FROM (''2100-03-27 23:00:00+00'') TO (''2100-03-28 22:00:00+00'')')$$,
    'Europe/Berlin, day of the spring DST change: the child spans 23 hours');
SELECT ok(to_regclass('public.tap_tz_local_p'
                      || to_char(date_trunc('hour', now() AT TIME ZONE 'Asia/Kolkata'), 'YYYYMMDD_HH24MISS')) IS NOT NULL,
          'timestamp key, p_time_zone Asia/Kolkata: the child for the current Kolkata hour exists');
SELECT ok(to_regclass('public.tap_tz_date_p'
                      || to_char((now() AT TIME ZONE 'Pacific/Kiritimati')::date + 3, 'YYYYMMDD')) IS NOT NULL
          AND to_regclass('public.tap_tz_date_p'
                          || to_char((now() AT TIME ZONE 'Pacific/Kiritimati')::date - 4, 'YYYYMMDD')) IS NOT NULL,
          'date key, p_time_zone Pacific/Kiritimati: children from today - 4 to today + 3 of that zone''s date');

------------------------------------------------------------------------------
-- names: mixed case, spaces, search_path, quoting
------------------------------------------------------------------------------
CREATE SCHEMA "Tap Schema";
CREATE TABLE "Tap Schema"."Event Log" ("Created At" timestamptz NOT NULL) PARTITION BY RANGE ("Created At");
SELECT ok(partmgr.create_parent('Tap Schema.Event Log', 'Created At', '1 day',
                                p_start_partition => '2100-01-01'),
          'pg_partman''s unquoted schema.table form finds a mixed-case name with spaces');
SELECT results_eq(
    $$SELECT parent_table, control FROM partmgr.part_config WHERE parent_table LIKE 'Tap Schema.%'$$,
    $$VALUES ('Tap Schema.Event Log'::text, 'Created At'::text)$$,
    'mixed-case set: part_config holds schema.table and the column unquoted');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('"Tap Schema"."Event Log"')$$,
    $$VALUES ('Event Log_default', 'DEFAULT'),
             ('Event Log_p21000101', 'FOR VALUES FROM (''2100-01-01 00:00:00+00'') TO (''2100-01-02 00:00:00+00'')')$$,
    'mixed-case set: children keep the case and spaces of the parent''s name');
SELECT is((SELECT n.nspname::text COLLATE "default" FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relname = 'Event Log_p21000101'),
          'Tap Schema', 'mixed-case set: the child is in the parent''s schema');

CREATE TABLE "Tap Schema"."Other Log" (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('"Tap Schema"."Other Log"', 'ts', '1 day', p_start_partition => '2100-01-01');
SELECT ok(EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table = 'Tap Schema.Other Log'),
          'a quoted "schema"."table" argument is registered as schema.table');

CREATE TABLE public.tap_unqualified (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('tap_unqualified', 'ts', '1 day', p_start_partition => '2100-01-01');
SELECT ok(EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table = 'public.tap_unqualified'),
          'an unqualified name is found through search_path and registered with its schema');

------------------------------------------------------------------------------
-- names cut to 63 bytes, the suffix kept whole
------------------------------------------------------------------------------
CREATE TABLE public.abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefgh
    (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefgh',
                             'ts', '1 hour', p_start_partition => '2100-01-01');
SELECT results_eq(
    $$SELECT child, octet_length(child) FROM tap_children('public.abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefgh')$$,
    $$VALUES ('abcdefghij_abcdefghij_abcdefghij_abcdefghij_ab_p21000101_000000'::text, 63),
             ('abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefghij__default', 63)$$,
    '63-byte parent name: the parent part is cut so child and default names are 63 bytes, suffixes whole');

CREATE TABLE public."tap_ééééééééééééééééééééééééééééé" (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_ééééééééééééééééééééééééééééé', 'id', '1000000000',
                             p_start_partition => '1000000000', p_premake => 1);
SELECT results_eq(
    $$SELECT child, octet_length(child) FROM tap_children('public."tap_ééééééééééééééééééééééééééééé"')$$,
    $$VALUES ('tap_ééééééééééééééééééééééé_p1000000000'::text, 62),
             ('tap_ééééééééééééééééééééééé_p2000000000', 62),
             ('tap_ééééééééééééééééééééééééé_default', 62)$$,
    'multibyte parent name: cut at a character boundary (62 bytes), never inside a character');

-- two parents that differ only beyond the cut: the second one's child name
-- collides with the first's, which is refused rather than reusing the table
CREATE TABLE public.abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefgX
    (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT throws_ok(
    $$SELECT partmgr.create_parent('public.abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefgX',
                                   'ts', '1 hour', p_start_partition => '2100-01-01')$$,
    '42P07', NULL,
    'a cut child name that another table already holds is refused with 42P07');

SELECT is((SELECT string_agg(c.parent_table, ', ') FROM partmgr.part_config c
             JOIN pg_class r ON c.parent_table IN (r.relnamespace::regnamespace::text || '.' || r.relname,
                                                   format('%I.%I', r.relnamespace::regnamespace, r.relname))
             JOIN pg_attribute a ON a.attrelid = r.oid AND a.attname = c.control
            WHERE (c.partition_timezone IS NOT NULL) <>
                  (a.atttypid IN ('timestamptz'::regtype, 'timestamp'::regtype, 'date'::regtype)
                   OR c.epoch <> 'none' OR c.time_encoder IS NOT NULL)),
          NULL,
          'every time set has its zone recorded, and no integer set has one');

-- children belong to the parent's owner, also when a superuser creates
-- them and the owner could not create tables in that schema itself (they
-- are made with the caller's rights and given to the owner; everything
-- else is done as the owner, who can use the schema of its own table)
CREATE ROLE tap_app_owner;
CREATE SCHEMA tap_owned;
GRANT USAGE ON SCHEMA tap_owned TO tap_app_owner;
CREATE TABLE tap_owned.orders (id int NOT NULL) PARTITION BY RANGE (id);
ALTER TABLE tap_owned.orders OWNER TO tap_app_owner;
SELECT lives_ok(
    $$SELECT partmgr.create_parent('tap_owned.orders', 'id', '10', p_premake => 1)$$,
    'a superuser registers a table whose owner may not create tables in its schema');
SELECT is(
    (SELECT string_agg(DISTINCT pg_get_userbyid(c.relowner)::text, ',')
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'tap_owned.orders'::regclass),
    'tap_app_owner',
    'every child, the default included, belongs to the parent''s owner');

-- create_partition: pg_partman 5.4's name for create_parent
CREATE TABLE public.tap_cp54 (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT ok(partmgr.create_partition('public.tap_cp54', 'ts', '1 day', p_start_partition => '2100-01-01',
                                   p_premake => 2),
          'create_partition returns true');
SELECT results_eq(
    $$SELECT child FROM tap_children('public.tap_cp54')$$,
    $$VALUES ('tap_cp54_default'::text), ('tap_cp54_p21000101')$$,
    'create_partition registers the set and makes its children as create_parent does');

SELECT * FROM finish();
ROLLBACK;
