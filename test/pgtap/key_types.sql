-- pgTAP tests of every kind of partition key, end to end.
--
-- For each key type -- timestamptz, timestamp, date, smallint, integer,
-- bigint, numeric, epoch integers (seconds, milliseconds, microseconds,
-- nanoseconds) and LIST sets of smallint, integer and bigint -- a set is
-- created, maintained or filled, and then checked three ways: the children's
-- names and bounds as the catalog holds them, the bounds being contiguous
-- (each child ends where the next begins: no gap, no overlap), and rows at
-- the boundaries (exactly a child's lower bound, and just below it) landing
-- in the right child.  Then sets in Europe/Berlin across both DST changes
-- (1 hour and 1 day children), months across February (2100 is not a leap
-- year, 2096 is), quarters and years, and the bad input of list and epoch
-- sets (SQLSTATE, message, and nothing changed).
--
-- Deterministic: every set starts in the far future (p_start_partition),
-- so the current date does not matter (the epoch set in an integer column
-- starts in October 2037, as int4 Unix time ends in January 2038); bounds
-- are printed with the session TimeZone UTC.  Calls that change the set go through tap_try / lives_ok, so
-- one broken call fails its own assertions and not the rest of the file.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = warning;

SELECT plan(184);

------------------------------------------------------------------------------
-- helpers
------------------------------------------------------------------------------

-- Children of a parent with their bounds as pg_get_expr prints them, by name.
CREATE FUNCTION public.tap_children(p_parent regclass)
RETURNS TABLE (child text, bound text)
LANGUAGE sql STABLE AS $$
    SELECT c.relname::text COLLATE "default", pg_get_expr(c.relpartbound, c.oid) COLLATE "default"
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent
     ORDER BY c.relname COLLATE "C"
$$;

-- The partition key column of a parent and its type.
CREATE FUNCTION public.tap_key(p_parent regclass, OUT col text, OUT typ text)
LANGUAGE sql STABLE AS $$
    SELECT a.attname::text, format_type(a.atttypid, a.atttypmod)
      FROM pg_partitioned_table p
      JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
     WHERE p.partrelid = p_parent
$$;

-- The RANGE children of a parent (default left out) with their bounds as
-- text (quotes removed), in the order of their lower bounds compared as
-- values of the key type, not as text.  n is the position in that order.
CREATE FUNCTION public.tap_ranges(p_parent regclass)
RETURNS TABLE (n int, child text, lo text, hi text)
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN QUERY EXECUTE format($q$
        SELECT (row_number() OVER (ORDER BY r.lo::%1$s))::int, r.child, r.lo, r.hi
          FROM (SELECT c.relname::text COLLATE "default" AS child,
                       btrim(m[1], '''') AS lo, btrim(m[2], '''') AS hi
                  FROM pg_inherits i
                  JOIN pg_class c ON c.oid = i.inhrelid,
                       regexp_match(pg_get_expr(c.relpartbound, c.oid),
                                    '^FOR VALUES FROM \((.*)\) TO \((.*)\)$') AS m
                 WHERE i.inhparent = $1 AND m IS NOT NULL) AS r
         ORDER BY 1$q$, (public.tap_key(p_parent)).typ) USING p_parent;
END
$$;

-- Everything wrong with the bounds of a RANGE set: a child whose upper bound
-- is not above its lower bound, and two neighbours where the upper bound of
-- one is not the lower bound of the next (a gap or an overlap).  Compared as
-- values of the key type.  Empty when the children tile one range exactly.
CREATE FUNCTION public.tap_range_problems(p_parent regclass)
RETURNS SETOF text
LANGUAGE plpgsql STABLE AS $$
DECLARE
    v_type text := (public.tap_key(p_parent)).typ;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.tap_ranges(p_parent)) THEN
        RETURN NEXT 'no range child at all';
    END IF;
    RETURN QUERY EXECUTE format($q$
        SELECT format('%%s [%%s, %%s) is empty or reversed', r.child, r.lo, r.hi)
          FROM public.tap_ranges($1) r
         WHERE r.hi NOT IN ('MAXVALUE') AND r.lo NOT IN ('MINVALUE')
           AND r.lo::%1$s >= r.hi::%1$s
        UNION ALL
        SELECT format('%%s ends at %%s but the next child %%s starts at %%s',
                      a.child, a.hi, b.child, b.lo)
          FROM public.tap_ranges($1) a
          JOIN public.tap_ranges($1) b ON b.n = a.n + 1
         WHERE a.hi IN ('MAXVALUE', 'MINVALUE') OR b.lo IN ('MAXVALUE', 'MINVALUE')
            OR a.hi::%1$s IS DISTINCT FROM b.lo::%1$s$q$, v_type) USING p_parent;
END
$$;

-- Insert one row with the given key value (cast to the key type) and return
-- the name of the table it landed in, or the error.
CREATE FUNCTION public.tap_route(p_parent regclass, p_value text)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    v_key record := public.tap_key(p_parent);
    v_table oid;
BEGIN
    EXECUTE format('INSERT INTO %s (%I) VALUES (%L::%s) RETURNING tableoid',
                   p_parent, v_key.col, p_value, v_key.typ)
       INTO v_table;
    RETURN (SELECT relname::text FROM pg_class WHERE oid = v_table);
EXCEPTION WHEN OTHERS THEN
    RETURN 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
END
$$;

-- tap_route for several values: (value, table it landed in), in the given order.
CREATE FUNCTION public.tap_routes(p_parent regclass, p_values text[])
RETURNS TABLE (value text, landed_in text)
LANGUAGE sql AS $$
    SELECT v, public.tap_route(p_parent, v) FROM unnest(p_values) WITH ORDINALITY AS u(v, o) ORDER BY o
$$;

-- Run a statement; return the first column of its first row as text, or the
-- error (so that a failing call does not abort the rest of the file).
CREATE FUNCTION public.tap_try(p_sql text)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    v_result text;
BEGIN
    EXECUTE p_sql INTO v_result;
    RETURN coalesce(v_result, 'NULL');
EXCEPTION WHEN OTHERS THEN
    RETURN 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
END
$$;

-- Unix time of a timestamptz in the given unit per second (1, 1000, ...).
CREATE FUNCTION public.tap_epoch(p_time timestamptz, p_per_second bigint)
RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
    SELECT (extract(epoch FROM p_time) * p_per_second)::bigint
$$;

-- A digest of what a refused call must not change: the configuration rows
-- and the relations outside temporary schemas.
CREATE FUNCTION public.tap_catalog_state()
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT format('part_config %s; part_config_sub %s; pg_class %s',
        (SELECT md5(coalesce(string_agg(c::text, E'\n' ORDER BY c.parent_table), ''))
           FROM partmgr.part_config c),
        (SELECT md5(coalesce(string_agg(s::text, E'\n' ORDER BY s.sub_parent), ''))
           FROM partmgr.part_config_sub s),
        (SELECT md5(string_agg(c.oid::text || ':' || c.relname, ',' ORDER BY c.oid))
           FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
          WHERE s.nspname NOT LIKE 'pg\_temp\_%' AND s.nspname NOT LIKE 'pg\_toast\_temp\_%'))
$$;

------------------------------------------------------------------------------
-- timestamptz, 1 day
------------------------------------------------------------------------------
CREATE TABLE public.kt_tstz_day (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_tstz_day', 'ts', '1 day',
                                                  p_start_partition => '2100-01-01', p_premake => 2)$$),
          'true', 'timestamptz, 1 day: create_parent succeeds');
INSERT INTO public.kt_tstz_day VALUES ('2100-01-01 12:00:00+00');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_tstz_day')$$,
                'timestamptz, 1 day: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_tstz_day')$$,
    $$VALUES ('kt_tstz_day_default', 'DEFAULT'),
             ('kt_tstz_day_p21000101', 'FOR VALUES FROM (''2100-01-01 00:00:00+00'') TO (''2100-01-02 00:00:00+00'')'),
             ('kt_tstz_day_p21000102', 'FOR VALUES FROM (''2100-01-02 00:00:00+00'') TO (''2100-01-03 00:00:00+00'')'),
             ('kt_tstz_day_p21000103', 'FOR VALUES FROM (''2100-01-03 00:00:00+00'') TO (''2100-01-04 00:00:00+00'')')$$,
    'timestamptz, 1 day: children _pYYYYMMDD at midnight UTC, two premade after the one holding a row');
SELECT is_empty($$SELECT tap_range_problems('public.kt_tstz_day')$$,
    'timestamptz, 1 day: bounds contiguous, no gap and no overlap');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_tstz_day',
        ARRAY['2100-01-02 00:00:00+00', '2100-01-01 23:59:59.999999+00', '2100-01-03 00:00:00+00'])$$,
    $$VALUES ('2100-01-02 00:00:00+00', 'kt_tstz_day_p21000102'),
             ('2100-01-01 23:59:59.999999+00', 'kt_tstz_day_p21000101'),
             ('2100-01-03 00:00:00+00', 'kt_tstz_day_p21000103')$$,
    'timestamptz, 1 day: a row at a lower bound lands in that child, a microsecond earlier in the one before');

------------------------------------------------------------------------------
-- timestamptz, 1 hour (across midnight)
------------------------------------------------------------------------------
CREATE TABLE public.kt_tstz_hour (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_tstz_hour', 'ts', '1 hour',
                                                  p_start_partition => '2100-01-01 22:20', p_premake => 2)$$),
          'true', 'timestamptz, 1 hour: create_parent succeeds');
INSERT INTO public.kt_tstz_hour VALUES ('2100-01-01 22:30:00+00');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_tstz_hour')$$,
                'timestamptz, 1 hour: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_tstz_hour')$$,
    $$VALUES ('kt_tstz_hour_default', 'DEFAULT'),
             ('kt_tstz_hour_p21000101_220000', 'FOR VALUES FROM (''2100-01-01 22:00:00+00'') TO (''2100-01-01 23:00:00+00'')'),
             ('kt_tstz_hour_p21000101_230000', 'FOR VALUES FROM (''2100-01-01 23:00:00+00'') TO (''2100-01-02 00:00:00+00'')'),
             ('kt_tstz_hour_p21000102_000000', 'FOR VALUES FROM (''2100-01-02 00:00:00+00'') TO (''2100-01-02 01:00:00+00'')')$$,
    'timestamptz, 1 hour: start 22:20 aligned to 22:00, children _pYYYYMMDD_HH24MISS across midnight');
SELECT is_empty($$SELECT tap_range_problems('public.kt_tstz_hour')$$,
    'timestamptz, 1 hour: bounds contiguous, no gap and no overlap');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_tstz_hour',
        ARRAY['2100-01-01 23:00:00+00', '2100-01-01 22:59:59.999999+00', '2100-01-02 00:00:00+00'])$$,
    $$VALUES ('2100-01-01 23:00:00+00', 'kt_tstz_hour_p21000101_230000'),
             ('2100-01-01 22:59:59.999999+00', 'kt_tstz_hour_p21000101_220000'),
             ('2100-01-02 00:00:00+00', 'kt_tstz_hour_p21000102_000000')$$,
    'timestamptz, 1 hour: rows at and just below the lower bounds land in the right child');

------------------------------------------------------------------------------
-- timestamp without time zone, 15 minutes (across midnight)
------------------------------------------------------------------------------
CREATE TABLE public.kt_ts_q15 (ts timestamp NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_ts_q15', 'ts', '15 minutes',
                                                  p_start_partition => '2100-01-01 23:00', p_premake => 4)$$),
          'true', 'timestamp, 15 minutes: create_parent succeeds');
INSERT INTO public.kt_ts_q15 VALUES ('2100-01-01 23:05:00');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_ts_q15')$$,
                'timestamp, 15 minutes: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_ts_q15')$$,
    $$VALUES ('kt_ts_q15_default', 'DEFAULT'),
             ('kt_ts_q15_p21000101_230000', 'FOR VALUES FROM (''2100-01-01 23:00:00'') TO (''2100-01-01 23:15:00'')'),
             ('kt_ts_q15_p21000101_231500', 'FOR VALUES FROM (''2100-01-01 23:15:00'') TO (''2100-01-01 23:30:00'')'),
             ('kt_ts_q15_p21000101_233000', 'FOR VALUES FROM (''2100-01-01 23:30:00'') TO (''2100-01-01 23:45:00'')'),
             ('kt_ts_q15_p21000101_234500', 'FOR VALUES FROM (''2100-01-01 23:45:00'') TO (''2100-01-02 00:00:00'')'),
             ('kt_ts_q15_p21000102_000000', 'FOR VALUES FROM (''2100-01-02 00:00:00'') TO (''2100-01-02 00:15:00'')')$$,
    'timestamp, 15 minutes: quarter-hour children named by their start, across midnight');
SELECT is_empty($$SELECT tap_range_problems('public.kt_ts_q15')$$,
    'timestamp, 15 minutes: bounds contiguous, no gap and no overlap');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_ts_q15',
        ARRAY['2100-01-01 23:45:00', '2100-01-01 23:44:59.999999', '2100-01-02 00:00:00', '2100-01-01 23:59:59.999999'])$$,
    $$VALUES ('2100-01-01 23:45:00', 'kt_ts_q15_p21000101_234500'),
             ('2100-01-01 23:44:59.999999', 'kt_ts_q15_p21000101_233000'),
             ('2100-01-02 00:00:00', 'kt_ts_q15_p21000102_000000'),
             ('2100-01-01 23:59:59.999999', 'kt_ts_q15_p21000101_234500')$$,
    'timestamp, 15 minutes: rows at and just below the lower bounds land in the right child');

------------------------------------------------------------------------------
-- weeks: date aligned to Monday, timestamptz aligned to the start day
------------------------------------------------------------------------------
CREATE TABLE public.kt_date_week (d date NOT NULL) PARTITION BY RANGE (d);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_date_week', 'd', '1 week', p_premake => 2,
                                                  p_start_partition => '2100-01-06',
                                                  p_date_trunc_interval => 'week')$$),
          'true', 'date, 1 week, p_date_trunc_interval week: create_parent succeeds');
INSERT INTO public.kt_date_week VALUES ('2100-01-06');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_date_week')$$,
                'date, 1 week: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_date_week')$$,
    $$VALUES ('kt_date_week_default', 'DEFAULT'),
             ('kt_date_week_p21000104', 'FOR VALUES FROM (''2100-01-04'') TO (''2100-01-11'')'),
             ('kt_date_week_p21000111', 'FOR VALUES FROM (''2100-01-11'') TO (''2100-01-18'')'),
             ('kt_date_week_p21000118', 'FOR VALUES FROM (''2100-01-18'') TO (''2100-01-25'')')$$,
    'date, 1 week: Wednesday 2100-01-06 aligned to Monday 2100-01-04, children of 7 days');
SELECT is_empty($$SELECT tap_range_problems('public.kt_date_week')$$,
    'date, 1 week: bounds contiguous, no gap and no overlap');
SELECT is((SELECT array_agg(DISTINCT extract(isodow FROM lo::date)::int) FROM tap_ranges('public.kt_date_week')),
          ARRAY[1], 'date, 1 week: every child starts on a Monday');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_date_week', ARRAY['2100-01-11', '2100-01-10', '2100-01-24'])$$,
    $$VALUES ('2100-01-11', 'kt_date_week_p21000111'),
             ('2100-01-10', 'kt_date_week_p21000104'),
             ('2100-01-24', 'kt_date_week_p21000118')$$,
    'date, 1 week: a row on a Monday lands in the week it starts, Sunday in the week before');

CREATE TABLE public.kt_tstz_week (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_tstz_week', 'ts', '1 week', p_premake => 2,
                                                  p_start_partition => '2100-01-06 15:00')$$),
          'true', 'timestamptz, 1 week: create_parent succeeds');
INSERT INTO public.kt_tstz_week VALUES ('2100-01-06 15:00:00+00');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_tstz_week')$$,
                'timestamptz, 1 week: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, lo, hi FROM tap_ranges('public.kt_tstz_week') ORDER BY n$$,
    $$VALUES ('kt_tstz_week_p21000106', '2100-01-06 00:00:00+00', '2100-01-13 00:00:00+00'),
             ('kt_tstz_week_p21000113', '2100-01-13 00:00:00+00', '2100-01-20 00:00:00+00'),
             ('kt_tstz_week_p21000120', '2100-01-20 00:00:00+00', '2100-01-27 00:00:00+00')$$,
    'timestamptz, 1 week without p_date_trunc_interval: weeks from the start day, contiguous');

------------------------------------------------------------------------------
-- months across February: 2100 is not a leap year, 2096 is
------------------------------------------------------------------------------
CREATE TABLE public.kt_tstz_month (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_tstz_month', 'ts', '1 month',
                                                  p_start_partition => '2100-01-01', p_premake => 3)$$),
          'true', 'timestamptz, 1 month: create_parent succeeds');
INSERT INTO public.kt_tstz_month VALUES ('2100-01-31 23:59:59+00');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_tstz_month')$$,
                'timestamptz, 1 month: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_tstz_month')$$,
    $$VALUES ('kt_tstz_month_default', 'DEFAULT'),
             ('kt_tstz_month_p21000101', 'FOR VALUES FROM (''2100-01-01 00:00:00+00'') TO (''2100-02-01 00:00:00+00'')'),
             ('kt_tstz_month_p21000201', 'FOR VALUES FROM (''2100-02-01 00:00:00+00'') TO (''2100-03-01 00:00:00+00'')'),
             ('kt_tstz_month_p21000301', 'FOR VALUES FROM (''2100-03-01 00:00:00+00'') TO (''2100-04-01 00:00:00+00'')'),
             ('kt_tstz_month_p21000401', 'FOR VALUES FROM (''2100-04-01 00:00:00+00'') TO (''2100-05-01 00:00:00+00'')')$$,
    'timestamptz, 1 month: bounds on the first of each month, named _pYYYYMMDD of that first');
SELECT is_empty($$SELECT tap_range_problems('public.kt_tstz_month')$$,
    'timestamptz, 1 month: bounds contiguous, no gap and no overlap');
SELECT is((SELECT hi::timestamptz - lo::timestamptz FROM tap_ranges('public.kt_tstz_month')
            WHERE child = 'kt_tstz_month_p21000201'),
          interval '28 days', 'timestamptz, 1 month: February 2100 (no leap year) spans 28 days');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_tstz_month',
        ARRAY['2100-01-31 23:59:59+00', '2100-02-01 00:00:00+00', '2100-02-28 00:00:00+00',
              '2100-02-28 23:59:59.999999+00', '2100-03-01 00:00:00+00', '2100-03-31 23:59:59+00'])$$,
    $$VALUES ('2100-01-31 23:59:59+00', 'kt_tstz_month_p21000101'),
             ('2100-02-01 00:00:00+00', 'kt_tstz_month_p21000201'),
             ('2100-02-28 00:00:00+00', 'kt_tstz_month_p21000201'),
             ('2100-02-28 23:59:59.999999+00', 'kt_tstz_month_p21000201'),
             ('2100-03-01 00:00:00+00', 'kt_tstz_month_p21000301'),
             ('2100-03-31 23:59:59+00', 'kt_tstz_month_p21000301')$$,
    'timestamptz, 1 month: month-end rows stay in their month, the first of the month starts the next');

CREATE TABLE public.kt_date_leap (d date NOT NULL) PARTITION BY RANGE (d);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_date_leap', 'd', '1 month',
                                                  p_start_partition => '2096-01-15', p_premake => 2)$$),
          'true', 'date, 1 month in a leap year: create_parent succeeds');
INSERT INTO public.kt_date_leap VALUES ('2096-01-20');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_date_leap')$$,
                'date, 1 month in a leap year: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_date_leap')$$,
    $$VALUES ('kt_date_leap_default', 'DEFAULT'),
             ('kt_date_leap_p20960101', 'FOR VALUES FROM (''2096-01-01'') TO (''2096-02-01'')'),
             ('kt_date_leap_p20960201', 'FOR VALUES FROM (''2096-02-01'') TO (''2096-03-01'')'),
             ('kt_date_leap_p20960301', 'FOR VALUES FROM (''2096-03-01'') TO (''2096-04-01'')')$$,
    'date, 1 month: start 2096-01-15 aligned to 2096-01-01, February 2096 ends on March 1st');
SELECT is_empty($$SELECT tap_range_problems('public.kt_date_leap')$$,
    'date, 1 month in a leap year: bounds contiguous, no gap and no overlap');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_date_leap', ARRAY['2096-01-31', '2096-02-01', '2096-02-29', '2096-03-01'])$$,
    $$VALUES ('2096-01-31', 'kt_date_leap_p20960101'),
             ('2096-02-01', 'kt_date_leap_p20960201'),
             ('2096-02-29', 'kt_date_leap_p20960201'),
             ('2096-03-01', 'kt_date_leap_p20960301')$$,
    'date, 1 month: February 29th 2096 lands in February''s child');

------------------------------------------------------------------------------
-- quarters and years
------------------------------------------------------------------------------
-- timestamp, 3 months aligned to the quarter, into the next year
CREATE TABLE public.kt_ts_quarter (ts timestamp NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_ts_quarter', 'ts', '3 months', p_premake => 3,
                                                  p_start_partition => '2100-05-06',
                                                  p_date_trunc_interval => 'quarter')$$),
          'true', 'timestamp, 3 months, p_date_trunc_interval quarter: create_parent succeeds');
INSERT INTO public.kt_ts_quarter VALUES ('2100-05-06 12:00');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_ts_quarter')$$,
                'timestamp, 3 months: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_ts_quarter')$$,
    $$VALUES ('kt_ts_quarter_default', 'DEFAULT'),
             ('kt_ts_quarter_p21000401', 'FOR VALUES FROM (''2100-04-01 00:00:00'') TO (''2100-07-01 00:00:00'')'),
             ('kt_ts_quarter_p21000701', 'FOR VALUES FROM (''2100-07-01 00:00:00'') TO (''2100-10-01 00:00:00'')'),
             ('kt_ts_quarter_p21001001', 'FOR VALUES FROM (''2100-10-01 00:00:00'') TO (''2101-01-01 00:00:00'')'),
             ('kt_ts_quarter_p21010101', 'FOR VALUES FROM (''2101-01-01 00:00:00'') TO (''2101-04-01 00:00:00'')')$$,
    'timestamp, 3 months: 2100-05-06 aligned to the quarter 2100-04-01, bounds at quarter starts');
SELECT is_empty($$SELECT tap_range_problems('public.kt_ts_quarter')$$,
    'timestamp, 3 months: bounds contiguous, no gap and no overlap');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_ts_quarter',
        ARRAY['2100-07-01 00:00:00', '2100-06-30 23:59:59.999999', '2101-01-01 00:00:00', '2100-12-31 23:59:59.999999'])$$,
    $$VALUES ('2100-07-01 00:00:00', 'kt_ts_quarter_p21000701'),
             ('2100-06-30 23:59:59.999999', 'kt_ts_quarter_p21000401'),
             ('2101-01-01 00:00:00', 'kt_ts_quarter_p21010101'),
             ('2100-12-31 23:59:59.999999', 'kt_ts_quarter_p21001001')$$,
    'timestamp, 3 months: rows at and just below quarter starts land in the right child');

-- date, 3 months from January without p_date_trunc_interval: quarter starts too
CREATE TABLE public.kt_date_quarter (d date NOT NULL) PARTITION BY RANGE (d);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_date_quarter', 'd', '3 months', p_premake => 3,
                                                  p_start_partition => '2100-01-01')$$),
          'true', 'date, 3 months: create_parent succeeds');
INSERT INTO public.kt_date_quarter VALUES ('2100-03-31');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_date_quarter')$$,
                'date, 3 months: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, lo, hi FROM tap_ranges('public.kt_date_quarter') ORDER BY n$$,
    $$VALUES ('kt_date_quarter_p21000101', '2100-01-01', '2100-04-01'),
             ('kt_date_quarter_p21000401', '2100-04-01', '2100-07-01'),
             ('kt_date_quarter_p21000701', '2100-07-01', '2100-10-01'),
             ('kt_date_quarter_p21001001', '2100-10-01', '2101-01-01')$$,
    'date, 3 months from 2100-01-01: four quarters, contiguous');

-- date, 1 year
CREATE TABLE public.kt_date_year (d date NOT NULL) PARTITION BY RANGE (d);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_date_year', 'd', '1 year',
                                                  p_start_partition => '2100-06-01', p_premake => 2)$$),
          'true', 'date, 1 year: create_parent succeeds');
INSERT INTO public.kt_date_year VALUES ('2100-12-31');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_date_year')$$,
                'date, 1 year: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_date_year')$$,
    $$VALUES ('kt_date_year_default', 'DEFAULT'),
             ('kt_date_year_p21000101', 'FOR VALUES FROM (''2100-01-01'') TO (''2101-01-01'')'),
             ('kt_date_year_p21010101', 'FOR VALUES FROM (''2101-01-01'') TO (''2102-01-01'')'),
             ('kt_date_year_p21020101', 'FOR VALUES FROM (''2102-01-01'') TO (''2103-01-01'')')$$,
    'date, 1 year: start 2100-06-01 aligned to 2100-01-01, bounds at year starts');
SELECT is_empty($$SELECT tap_range_problems('public.kt_date_year')$$,
    'date, 1 year: bounds contiguous, no gap and no overlap');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_date_year', ARRAY['2101-01-01', '2100-12-31', '2102-01-01'])$$,
    $$VALUES ('2101-01-01', 'kt_date_year_p21010101'),
             ('2100-12-31', 'kt_date_year_p21000101'),
             ('2102-01-01', 'kt_date_year_p21020101')$$,
    'date, 1 year: January 1st lands in its year, December 31st in the year before');

-- timestamptz, 1 year in Europe/Berlin: bounds at Berlin's New Year midnight
CREATE TABLE public.kt_tstz_year_ber (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_tstz_year_ber', 'ts', '1 year', p_premake => 1,
                                                  p_start_partition => '2100-01-01',
                                                  p_time_zone => 'Europe/Berlin')$$),
          'true', 'timestamptz, 1 year, Europe/Berlin: create_parent succeeds');
INSERT INTO public.kt_tstz_year_ber VALUES ('2100-06-01 00:00:00+00');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_tstz_year_ber')$$,
                'timestamptz, 1 year, Europe/Berlin: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, lo, hi FROM tap_ranges('public.kt_tstz_year_ber') ORDER BY n$$,
    $$VALUES ('kt_tstz_year_ber_p21000101', '2099-12-31 23:00:00+00', '2100-12-31 23:00:00+00'),
             ('kt_tstz_year_ber_p21010101', '2100-12-31 23:00:00+00', '2101-12-31 23:00:00+00')$$,
    'timestamptz, 1 year, Europe/Berlin: years start at Berlin midnight (23:00 UTC), contiguous');

------------------------------------------------------------------------------
-- id sets: smallint, integer, bigint, numeric
------------------------------------------------------------------------------
CREATE TABLE public.kt_small (id smallint NOT NULL) PARTITION BY RANGE (id);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_small', 'id', '10',
                                                  p_start_partition => '30', p_premake => 2)$$),
          'true', 'smallint, 10: create_parent succeeds');
INSERT INTO public.kt_small VALUES (45);
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_small')$$,
                'smallint, 10: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_small')$$,
    $$VALUES ('kt_small_default', 'DEFAULT'),
             ('kt_small_p30', 'FOR VALUES FROM (''30'') TO (''40'')'),
             ('kt_small_p40', 'FOR VALUES FROM (''40'') TO (''50'')'),
             ('kt_small_p50', 'FOR VALUES FROM (''50'') TO (''60'')'),
             ('kt_small_p60', 'FOR VALUES FROM (''60'') TO (''70'')')$$,
    'smallint, 10: children named by their lower bound; a row at 45 makes premake add 60');
SELECT is_empty($$SELECT tap_range_problems('public.kt_small')$$,
    'smallint, 10: bounds contiguous, no gap and no overlap');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_small', ARRAY['40', '39', '60', '69'])$$,
    $$VALUES ('40', 'kt_small_p40'), ('39', 'kt_small_p30'), ('60', 'kt_small_p60'), ('69', 'kt_small_p60')$$,
    'smallint, 10: a row at a lower bound lands in that child, one below in the child before');

CREATE TABLE public.kt_int (id integer NOT NULL) PARTITION BY RANGE (id);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_int', 'id', '100',
                                                  p_start_partition => '-150', p_premake => 2)$$),
          'true', 'integer, 100, negative start: create_parent succeeds');
INSERT INTO public.kt_int VALUES (-1);
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_int')$$,
                'integer, 100: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, lo, hi FROM tap_ranges('public.kt_int') ORDER BY n$$,
    $$VALUES ('kt_int_p-200', '-200', '-100'),
             ('kt_int_p-100', '-100', '0'),
             ('kt_int_p0', '0', '100'),
             ('kt_int_p100', '100', '200')$$,
    'integer, 100: start -150 floored to -200, a row at -1 makes premake add 100');
SELECT is_empty($$SELECT tap_range_problems('public.kt_int')$$,
    'integer, 100: bounds contiguous across zero, no gap and no overlap');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_int', ARRAY['0', '-1', '-100', '-101', '100'])$$,
    $$VALUES ('0', 'kt_int_p0'), ('-1', 'kt_int_p-100'), ('-100', 'kt_int_p-100'),
             ('-101', 'kt_int_p-200'), ('100', 'kt_int_p100')$$,
    'integer, 100: rows at and just below the lower bounds, negative ones too, land in the right child');

CREATE TABLE public.kt_big (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_big', 'id', '1000000000000',
                                                  p_start_partition => '5000000000000', p_premake => 2)$$),
          'true', 'bigint, 10^12: create_parent succeeds');
SELECT is_empty($$SELECT tap_range_problems('public.kt_big')$$,
    'bigint, 10^12: bounds contiguous, no gap and no overlap');
INSERT INTO public.kt_big VALUES (9500000000000);
SELECT is(tap_try($$SELECT partmgr.partition_data_id('public.kt_big', 10)$$), '1',
    'bigint, 10^12: partition_data_id moves the row out of the default partition');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_big')$$,
    $$VALUES ('kt_big_default', 'DEFAULT'),
             ('kt_big_p5000000000000', 'FOR VALUES FROM (''5000000000000'') TO (''6000000000000'')'),
             ('kt_big_p6000000000000', 'FOR VALUES FROM (''6000000000000'') TO (''7000000000000'')'),
             ('kt_big_p7000000000000', 'FOR VALUES FROM (''7000000000000'') TO (''8000000000000'')'),
             ('kt_big_p9000000000000', 'FOR VALUES FROM (''9000000000000'') TO (''10000000000000'')')$$,
    'bigint, 10^12: partition_data_id made the child 9000000000000 on the grid of the others');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_big',
        ARRAY['6000000000000', '5999999999999', '9000000000000', '9999999999999', '8999999999999'])$$,
    $$VALUES ('6000000000000', 'kt_big_p6000000000000'),
             ('5999999999999', 'kt_big_p5000000000000'),
             ('9000000000000', 'kt_big_p9000000000000'),
             ('9999999999999', 'kt_big_p9000000000000'),
             ('8999999999999', 'kt_big_default')$$,
    'bigint, 10^12: rows at and just below the lower bounds land in the right child, the gap in the default');

CREATE TABLE public.kt_num (n numeric NOT NULL) PARTITION BY RANGE (n);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_num', 'n', '100',
                                                  p_start_partition => '1000', p_premake => 2)$$),
          'true', 'numeric, 100: create_parent succeeds');
SELECT is_empty($$SELECT tap_range_problems('public.kt_num')$$,
    'numeric, 100: bounds contiguous, no gap and no overlap');
INSERT INTO public.kt_num VALUES (1550.25);
SELECT is(tap_try($$SELECT partmgr.partition_data_id('public.kt_num', 10)$$), '1',
    'numeric, 100: partition_data_id moves the fractional row out of the default partition');
SELECT results_eq(
    $$SELECT child, lo, hi FROM tap_ranges('public.kt_num') ORDER BY n$$,
    $$VALUES ('kt_num_p1000', '1000', '1100'),
             ('kt_num_p1100', '1100', '1200'),
             ('kt_num_p1200', '1200', '1300'),
             ('kt_num_p1500', '1500', '1600')$$,
    'numeric, 100: children 1000 .. 1200 and 1500 for the moved row 1550.25');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_num', ARRAY['1100', '1099.999999', '1200', '1199.5', '1599.99'])$$,
    $$VALUES ('1100', 'kt_num_p1100'), ('1099.999999', 'kt_num_p1000'), ('1200', 'kt_num_p1200'),
             ('1199.5', 'kt_num_p1100'), ('1599.99', 'kt_num_p1500')$$,
    'numeric, 100: fractional rows just below a lower bound land in the child before');
SELECT is((SELECT count(*)::int FROM ONLY public.kt_num_default), 0,
    'numeric, 100: the default partition is empty after the move');

------------------------------------------------------------------------------
-- epoch sets
------------------------------------------------------------------------------
-- milliseconds, 1 day
CREATE TABLE public.kt_ep_ms_day (ts bigint NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_ep_ms_day', 'ts', '1 day', p_epoch => 'milliseconds',
                                                  p_start_partition => '2100-01-01', p_premake => 2)$$),
          'true', 'epoch milliseconds, 1 day: create_parent succeeds');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_ep_ms_day')$$,
    $$VALUES ('kt_ep_ms_day_default', 'DEFAULT'),
             ('kt_ep_ms_day_p21000101', 'FOR VALUES FROM (''4102444800000'') TO (''4102531200000'')')$$,
    'epoch milliseconds, 1 day: the child for 2100-01-01 UTC is named by its date, bounded by Unix milliseconds');
SELECT results_eq(
    $$SELECT epoch, partition_interval, datetime_string, partition_type
        FROM partmgr.part_config WHERE parent_table = 'public.kt_ep_ms_day'$$,
    $$VALUES ('milliseconds'::text, '1 day'::text, 'YYYYMMDD'::text, 'range'::text)$$,
    'epoch milliseconds: part_config records the epoch, the time interval and the time suffix format');
INSERT INTO public.kt_ep_ms_day VALUES (4102444800000 + 1000);
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_ep_ms_day')$$,
                'epoch milliseconds, 1 day: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, lo, hi FROM tap_ranges('public.kt_ep_ms_day') ORDER BY n$$,
    $$VALUES ('kt_ep_ms_day_p21000101', '4102444800000', '4102531200000'),
             ('kt_ep_ms_day_p21000102', '4102531200000', '4102617600000'),
             ('kt_ep_ms_day_p21000103', '4102617600000', '4102704000000')$$,
    'epoch milliseconds, 1 day: premake adds the next days, contiguous');
SELECT results_eq(
    $$SELECT child_start_time, child_end_time, child_start_id, child_end_id, suffix
        FROM partmgr.show_partition_info('public.kt_ep_ms_day_p21000102')$$,
    $$VALUES ('2100-01-02 00:00:00+00'::timestamptz, '2100-01-03 00:00:00+00'::timestamptz,
              NULL::bigint, NULL::bigint, '21000102'::text)$$,
    'epoch milliseconds: show_partition_info gives the child''s bounds as timestamptz');
SELECT results_eq(
    $$SELECT partition_table, suffix_timestamp, suffix_id, table_exists
        FROM partmgr.show_partition_name('public.kt_ep_ms_day', '2100-01-02 05:00:00+00')$$,
    $$VALUES ('kt_ep_ms_day_p21000102'::text, '2100-01-02 00:00:00+00'::timestamptz, NULL::bigint, true)$$,
    'epoch milliseconds: show_partition_name takes a timestamp and gives its day''s child');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_ep_ms_day', ARRAY['4102531200000', '4102531199999', '4102617600000'])$$,
    $$VALUES ('4102531200000', 'kt_ep_ms_day_p21000102'),
             ('4102531199999', 'kt_ep_ms_day_p21000101'),
             ('4102617600000', 'kt_ep_ms_day_p21000103')$$,
    'epoch milliseconds: a row at a lower bound lands in that child, a millisecond earlier in the one before');
-- rows far outside the children go to the default, and partition_data_time
-- moves them into children named by their day
INSERT INTO public.kt_ep_ms_day VALUES
    (tap_epoch('2100-02-01 05:00:00+00', 1000)),
    (tap_epoch('2100-02-01 23:59:59.999+00', 1000)),
    (tap_epoch('2100-03-15 12:00:00+00', 1000));
SELECT is((SELECT count(*)::int FROM ONLY public.kt_ep_ms_day_default), 3,
    'epoch milliseconds: rows of days without a child are in the default partition');
SELECT is(tap_try($$SELECT partmgr.partition_data_time('public.kt_ep_ms_day', 10)$$), '3',
    'epoch milliseconds: partition_data_time moves the three rows');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_ep_ms_day') WHERE child IN ('kt_ep_ms_day_p21000201', 'kt_ep_ms_day_p21000315')$$,
    $$VALUES ('kt_ep_ms_day_p21000201', 'FOR VALUES FROM (''4105123200000'') TO (''4105209600000'')'),
             ('kt_ep_ms_day_p21000315', 'FOR VALUES FROM (''4108752000000'') TO (''4108838400000'')')$$,
    'epoch milliseconds: partition_data_time made a time-named child per day, bounded in milliseconds');
SELECT results_eq(
    $$SELECT c.relname::text COLLATE "default", t.ts FROM public.kt_ep_ms_day t JOIN pg_class c ON c.oid = t.tableoid
       WHERE t.ts >= 4105123200000 ORDER BY t.ts$$,
    $$VALUES ('kt_ep_ms_day_p21000201', 4105141200000::bigint),
             ('kt_ep_ms_day_p21000201', 4105209599999::bigint),
             ('kt_ep_ms_day_p21000315', 4108795200000::bigint)$$,
    'epoch milliseconds: each moved row is in its day''s child, the default is left empty');

-- seconds (bigint), 1 week from Monday
CREATE TABLE public.kt_ep_s_week (ts bigint NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_ep_s_week', 'ts', '1 week', p_epoch => 'seconds',
                                                  p_start_partition => '2100-01-06', p_premake => 2,
                                                  p_date_trunc_interval => 'week')$$),
          'true', 'epoch seconds, 1 week: create_parent succeeds');
INSERT INTO public.kt_ep_s_week VALUES (4102704000);
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_ep_s_week')$$,
                'epoch seconds, 1 week: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, lo, hi FROM tap_ranges('public.kt_ep_s_week') ORDER BY n$$,
    $$VALUES ('kt_ep_s_week_p21000104', '4102704000', '4103308800'),
             ('kt_ep_s_week_p21000111', '4103308800', '4103913600'),
             ('kt_ep_s_week_p21000118', '4103913600', '4104518400')$$,
    'epoch seconds, 1 week: Monday-aligned weeks of 604800 seconds, contiguous');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_ep_s_week', ARRAY['4103308800', '4103308799'])$$,
    $$VALUES ('4103308800', 'kt_ep_s_week_p21000111'), ('4103308799', 'kt_ep_s_week_p21000104')$$,
    'epoch seconds, 1 week: rows at and a second below a lower bound land in the right child');

-- microseconds, 1 hour across midnight
CREATE TABLE public.kt_ep_us_hour (ts bigint NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_ep_us_hour', 'ts', '1 hour', p_epoch => 'microseconds',
                                                  p_start_partition => '2100-01-01 23:00', p_premake => 2)$$),
          'true', 'epoch microseconds, 1 hour: create_parent succeeds');
INSERT INTO public.kt_ep_us_hour VALUES (4102527600000000);
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_ep_us_hour')$$,
                'epoch microseconds, 1 hour: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, lo, hi FROM tap_ranges('public.kt_ep_us_hour') ORDER BY n$$,
    $$VALUES ('kt_ep_us_hour_p21000101_230000', '4102527600000000', '4102531200000000'),
             ('kt_ep_us_hour_p21000102_000000', '4102531200000000', '4102534800000000'),
             ('kt_ep_us_hour_p21000102_010000', '4102534800000000', '4102538400000000')$$,
    'epoch microseconds, 1 hour: hourly children named _pYYYYMMDD_HH24MISS, bounded in microseconds');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_ep_us_hour', ARRAY['4102531200000000', '4102531199999999'])$$,
    $$VALUES ('4102531200000000', 'kt_ep_us_hour_p21000102_000000'),
             ('4102531199999999', 'kt_ep_us_hour_p21000101_230000')$$,
    'epoch microseconds: rows at and a microsecond below midnight land in the right child');

-- nanoseconds, 15 minutes
CREATE TABLE public.kt_ep_ns_q15 (ts bigint NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_ep_ns_q15', 'ts', '15 minutes', p_epoch => 'nanoseconds',
                                                  p_start_partition => '2100-01-01 10:00', p_premake => 2)$$),
          'true', 'epoch nanoseconds, 15 minutes: create_parent succeeds');
INSERT INTO public.kt_ep_ns_q15 VALUES (4102480800000000001);
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_ep_ns_q15')$$,
                'epoch nanoseconds, 15 minutes: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, lo, hi FROM tap_ranges('public.kt_ep_ns_q15') ORDER BY n$$,
    $$VALUES ('kt_ep_ns_q15_p21000101_100000', '4102480800000000000', '4102481700000000000'),
             ('kt_ep_ns_q15_p21000101_101500', '4102481700000000000', '4102482600000000000'),
             ('kt_ep_ns_q15_p21000101_103000', '4102482600000000000', '4102483500000000000')$$,
    'epoch nanoseconds, 15 minutes: quarter-hour children bounded in nanoseconds, contiguous');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_ep_ns_q15', ARRAY['4102481700000000000', '4102481699999999999'])$$,
    $$VALUES ('4102481700000000000', 'kt_ep_ns_q15_p21000101_101500'),
             ('4102481699999999999', 'kt_ep_ns_q15_p21000101_100000')$$,
    'epoch nanoseconds: rows at and a nanosecond below a lower bound land in the right child');

-- milliseconds, 3 months and 1 year
CREATE TABLE public.kt_ep_ms_quarter (ts bigint NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_ep_ms_quarter', 'ts', '3 months', p_epoch => 'milliseconds',
                                                  p_start_partition => '2100-02-10', p_premake => 3,
                                                  p_date_trunc_interval => 'quarter')$$),
          'true', 'epoch milliseconds, 3 months: create_parent succeeds');
INSERT INTO public.kt_ep_ms_quarter VALUES (tap_epoch('2100-02-10', 1000));
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_ep_ms_quarter')$$,
                'epoch milliseconds, 3 months: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, lo, hi FROM tap_ranges('public.kt_ep_ms_quarter') ORDER BY n$$,
    $$VALUES ('kt_ep_ms_quarter_p21000101', '4102444800000', '4110220800000'),
             ('kt_ep_ms_quarter_p21000401', '4110220800000', '4118083200000'),
             ('kt_ep_ms_quarter_p21000701', '4118083200000', '4126032000000'),
             ('kt_ep_ms_quarter_p21001001', '4126032000000', '4133980800000')$$,
    'epoch milliseconds, 3 months: bounds at quarter starts in milliseconds, contiguous');

CREATE TABLE public.kt_ep_ms_year (ts bigint NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_ep_ms_year', 'ts', '1 year', p_epoch => 'milliseconds',
                                                  p_start_partition => '2100-06-06', p_premake => 2)$$),
          'true', 'epoch milliseconds, 1 year: create_parent succeeds');
INSERT INTO public.kt_ep_ms_year VALUES (tap_epoch('2100-06-06', 1000));
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_ep_ms_year')$$,
                'epoch milliseconds, 1 year: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, lo, hi FROM tap_ranges('public.kt_ep_ms_year') ORDER BY n$$,
    $$VALUES ('kt_ep_ms_year_p21000101', '4102444800000', '4133980800000'),
             ('kt_ep_ms_year_p21010101', '4133980800000', '4165516800000'),
             ('kt_ep_ms_year_p21020101', '4165516800000', '4197052800000')$$,
    'epoch milliseconds, 1 year: start 2100-06-06 aligned to the year, bounds at year starts, contiguous');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_ep_ms_year', ARRAY['4133980800000', '4133980799999'])$$,
    $$VALUES ('4133980800000', 'kt_ep_ms_year_p21010101'), ('4133980799999', 'kt_ep_ms_year_p21000101')$$,
    'epoch milliseconds, 1 year: the first millisecond of 2101 lands in 2101''s child, the last of 2100 in 2100''s');

-- seconds in an integer column, 1 month: the child that reaches past
-- 2038-01-19 (the end of int4 Unix time) ends at MAXVALUE.  (The start is in
-- the future until October 2037.)
CREATE TABLE public.kt_ep_int_month (ts integer NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_ep_int_month', 'ts', '1 month', p_epoch => 'seconds',
                                                  p_start_partition => '2037-10-15', p_premake => 3)$$),
          'true', 'epoch seconds in an integer column, 1 month: create_parent succeeds');
INSERT INTO public.kt_ep_int_month VALUES (2137968000);
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_ep_int_month')$$,
                'epoch seconds in an integer column: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_ep_int_month')$$,
    $$VALUES ('kt_ep_int_month_default', 'DEFAULT'),
             ('kt_ep_int_month_p20371001', 'FOR VALUES FROM (2137968000) TO (2140646400)'),
             ('kt_ep_int_month_p20371101', 'FOR VALUES FROM (2140646400) TO (2143238400)'),
             ('kt_ep_int_month_p20371201', 'FOR VALUES FROM (2143238400) TO (2145916800)'),
             ('kt_ep_int_month_p20380101', 'FOR VALUES FROM (2145916800) TO (MAXVALUE)')$$,
    'epoch seconds in an integer column: monthly children, the one past the int4 range ends at MAXVALUE');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_ep_int_month', ARRAY['2140646400', '2140646399', '2147483647'])$$,
    $$VALUES ('2140646400', 'kt_ep_int_month_p20371101'), ('2140646399', 'kt_ep_int_month_p20371001'),
             ('2147483647', 'kt_ep_int_month_p20380101')$$,
    'epoch seconds in an integer column: boundary rows and the largest integer land in the right child');

-- seconds, 1 day in Europe/Berlin across the spring DST change
CREATE TABLE public.kt_ep_ber_day (ts bigint NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_ep_ber_day', 'ts', '1 day', p_epoch => 'seconds',
                                                  p_start_partition => '2100-03-27', p_premake => 2,
                                                  p_time_zone => 'Europe/Berlin')$$),
          'true', 'epoch seconds, 1 day, Europe/Berlin: create_parent succeeds');
INSERT INTO public.kt_ep_ber_day VALUES (tap_epoch('2100-03-27 12:00 Europe/Berlin', 1));
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_ep_ber_day')$$,
                'epoch seconds, 1 day, Europe/Berlin: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, lo::bigint, hi::bigint, hi::bigint - lo::bigint FROM tap_ranges('public.kt_ep_ber_day') ORDER BY n$$,
    $$VALUES ('kt_ep_ber_day_p21000327', 4109785200::bigint, 4109871600::bigint, 86400::bigint),
             ('kt_ep_ber_day_p21000328', 4109871600, 4109954400, 82800),
             ('kt_ep_ber_day_p21000329', 4109954400, 4110040800, 86400)$$,
    'epoch seconds, Europe/Berlin: days start at Berlin midnight, the DST day is 82800 seconds');

------------------------------------------------------------------------------
-- LIST sets
------------------------------------------------------------------------------
CREATE TABLE public.kt_list_int (id integer NOT NULL, note text) PARTITION BY LIST (id);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_list_int', 'id', '1', p_type => 'list',
                                                  p_start_partition => '10', p_premake => 2)$$),
          'true', 'list integer: create_parent succeeds');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_list_int')$$,
    $$VALUES ('kt_list_int_default', 'DEFAULT'),
             ('kt_list_int_p10', 'FOR VALUES IN (10)'),
             ('kt_list_int_p11', 'FOR VALUES IN (11)'),
             ('kt_list_int_p12', 'FOR VALUES IN (12)')$$,
    'list integer: one child per value, named _p<value>, from the start and premake above');
SELECT results_eq(
    $$SELECT partition_type, partition_interval, epoch, datetime_string
        FROM partmgr.part_config WHERE parent_table = 'public.kt_list_int'$$,
    $$VALUES ('list'::text, '1'::text, 'none'::text, NULL::text)$$,
    'list integer: part_config records partition_type list and interval 1');
INSERT INTO public.kt_list_int VALUES (11, 'a');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_list_int')$$,
                'list integer: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child FROM tap_children('public.kt_list_int')$$,
    $$VALUES ('kt_list_int_default'::text), ('kt_list_int_p10'), ('kt_list_int_p11'),
             ('kt_list_int_p12'), ('kt_list_int_p13')$$,
    'list integer: premake adds values above the highest one holding rows (11 + 2 = 13)');
SELECT is((SELECT bound FROM tap_children('public.kt_list_int') WHERE child = 'kt_list_int_p13'),
          'FOR VALUES IN (13)', 'list integer: a premade child holds exactly its one value');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_list_int', ARRAY['10', '13', '14', '9'])$$,
    $$VALUES ('10', 'kt_list_int_p10'), ('13', 'kt_list_int_p13'),
             ('14', 'kt_list_int_default'), ('9', 'kt_list_int_default')$$,
    'list integer: a value lands in its child, values without a child in the default');
-- rows for values without a child move into new children of their own
DELETE FROM public.kt_list_int WHERE id IN (9, 14);
INSERT INTO public.kt_list_int VALUES (50, 'x'), (50, 'y'), (51, 'z');
SELECT is(tap_try($$SELECT partmgr.partition_data_id('public.kt_list_int', 10)$$), '3',
    'list integer: partition_data_id moves the three rows out of the default partition');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_list_int') WHERE child IN ('kt_list_int_p50', 'kt_list_int_p51')$$,
    $$VALUES ('kt_list_int_p50', 'FOR VALUES IN (50)'), ('kt_list_int_p51', 'FOR VALUES IN (51)')$$,
    'list integer: partition_data_id made one child FOR VALUES IN (n) per value');
SELECT results_eq(
    $$SELECT c.relname::text COLLATE "default", t.id, t.note FROM public.kt_list_int t JOIN pg_class c ON c.oid = t.tableoid
       WHERE t.id >= 50 ORDER BY t.note$$,
    $$VALUES ('kt_list_int_p50', 50, 'x'), ('kt_list_int_p50', 50, 'y'), ('kt_list_int_p51', 51, 'z')$$,
    'list integer: the moved rows are in their value''s child');
SELECT is((SELECT count(*)::int FROM ONLY public.kt_list_int_default), 0,
    'list integer: the default partition is empty after partition_data_id');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_list_int')$$,
                'list integer: run_maintenance after the move succeeds');
SELECT results_eq(
    $$SELECT child FROM tap_children('public.kt_list_int') WHERE child > 'kt_list_int_p13' COLLATE "C"$$,
    $$VALUES ('kt_list_int_p50'::text), ('kt_list_int_p51'), ('kt_list_int_p52'), ('kt_list_int_p53')$$,
    'list integer: premake continues above the highest value holding rows (51 + 2 = 53)');
SELECT results_eq(
    $$SELECT partition_table, suffix_id, table_exists FROM partmgr.show_partition_name('public.kt_list_int', '12')$$,
    $$VALUES ('kt_list_int_p12'::text, 12::bigint, true)$$,
    'list integer: show_partition_name gives the value''s child');
SELECT results_eq(
    $$SELECT child_start_id, child_end_id, suffix FROM partmgr.show_partition_info('public.kt_list_int_p50')$$,
    $$VALUES (50::bigint, 51::bigint, '50'::text)$$,
    'list integer: show_partition_info gives the value and the exclusive end value + 1');

-- smallint at the top of its range: premake stops at 32767
CREATE TABLE public.kt_list_small (id smallint NOT NULL) PARTITION BY LIST (id);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_list_small', 'id', '1', p_type => 'list',
                                                  p_start_partition => '32764', p_premake => 2)$$),
          'true', 'list smallint: create_parent succeeds');
INSERT INTO public.kt_list_small VALUES (32766);
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_list_small')$$,
                'list smallint: run_maintenance at the top of the type''s range succeeds');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_list_small')$$,
    $$VALUES ('kt_list_small_default', 'DEFAULT'),
             ('kt_list_small_p32764', 'FOR VALUES IN (''32764'')'),
             ('kt_list_small_p32765', 'FOR VALUES IN (''32765'')'),
             ('kt_list_small_p32766', 'FOR VALUES IN (''32766'')'),
             ('kt_list_small_p32767', 'FOR VALUES IN (''32767'')')$$,
    'list smallint: premake makes the child for 32767 and none beyond the type');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_list_small', ARRAY['32767', '32764'])$$,
    $$VALUES ('32767', 'kt_list_small_p32767'), ('32764', 'kt_list_small_p32764')$$,
    'list smallint: values land in their children');

-- bigint with rows already in a child of its own: no start, built around it
CREATE TABLE public.kt_list_big (id bigint NOT NULL) PARTITION BY LIST (id);
CREATE TABLE public.kt_list_big_mine PARTITION OF public.kt_list_big FOR VALUES IN (5000000007);
INSERT INTO public.kt_list_big VALUES (5000000007);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_list_big', 'id', '1', p_type => 'list',
                                                  p_premake => 2)$$),
          'true', 'list bigint with an existing child: create_parent succeeds');
SELECT results_eq(
    $$SELECT child, bound FROM tap_children('public.kt_list_big')$$,
    $$VALUES ('kt_list_big_default', 'DEFAULT'),
             ('kt_list_big_mine', 'FOR VALUES IN (''5000000007'')'),
             ('kt_list_big_p5000000005', 'FOR VALUES IN (''5000000005'')'),
             ('kt_list_big_p5000000006', 'FOR VALUES IN (''5000000006'')'),
             ('kt_list_big_p5000000008', 'FOR VALUES IN (''5000000008'')'),
             ('kt_list_big_p5000000009', 'FOR VALUES IN (''5000000009'')')$$,
    'list bigint: the existing child is kept, premake values below and above the largest value');

------------------------------------------------------------------------------
-- Europe/Berlin across the DST changes of 2100 (last Sundays of March and
-- October, computed here rather than assumed)
------------------------------------------------------------------------------
SELECT results_eq(
    $$SELECT max(d)::date FROM generate_series(date '2100-03-01', '2100-03-31', '1 day') d WHERE extract(isodow FROM d) = 7
      UNION ALL
      SELECT max(d)::date FROM generate_series(date '2100-10-01', '2100-10-31', '1 day') d WHERE extract(isodow FROM d) = 7$$,
    $$VALUES (date '2100-03-28'), (date '2100-10-31')$$,
    'the last Sundays of March and October 2100 are the 28th and the 31st');
SELECT results_eq(
    $$SELECT timestamptz '2100-03-29 00:00 Europe/Berlin' - timestamptz '2100-03-28 00:00 Europe/Berlin'
      UNION ALL
      SELECT timestamptz '2100-11-01 00:00 Europe/Berlin' - timestamptz '2100-10-31 00:00 Europe/Berlin'$$,
    $$VALUES (interval '23 hours'), (interval '25 hours')$$,
    'in Europe/Berlin 2100-03-28 lasts 23 hours and 2100-10-31 lasts 25 hours');

-- 1 hour, spring: the hour 02:00 .. 03:00 does not exist
CREATE TABLE public.kt_ber_h_spring (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_ber_h_spring', 'ts', '1 hour', p_premake => 24,
                                                  p_start_partition => '2100-03-28 00:00',
                                                  p_time_zone => 'Europe/Berlin')$$),
          'true', 'Berlin, 1 hour, spring: create_parent succeeds');
INSERT INTO public.kt_ber_h_spring VALUES ('2100-03-28 00:30 Europe/Berlin');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_ber_h_spring')$$,
                'Berlin, 1 hour, spring: run_maintenance succeeds');
SELECT is_empty($$SELECT tap_range_problems('public.kt_ber_h_spring')$$,
    'Berlin, 1 hour, spring: bounds contiguous across the change, no gap and no overlap');
SELECT results_eq(
    $$SELECT count(*)::int, count(*) FILTER (WHERE hi::timestamptz - lo::timestamptz = interval '1 hour')::int
        FROM tap_ranges('public.kt_ber_h_spring')$$,
    $$VALUES (25, 25)$$,
    'Berlin, 1 hour, spring: 25 children (the row''s hour and 24 ahead), each exactly 1 hour long');
SELECT results_eq(
    $$SELECT count(*)::int, min(lo::timestamptz), max(hi::timestamptz)
        FROM tap_ranges('public.kt_ber_h_spring')
       WHERE lo::timestamptz >= '2100-03-28 00:00 Europe/Berlin' AND hi::timestamptz <= '2100-03-29 00:00 Europe/Berlin'$$,
    $$VALUES (23, timestamptz '2100-03-27 23:00:00+00', timestamptz '2100-03-28 22:00:00+00')$$,
    'Berlin, 1 hour, spring: 23 children cover the 23-hour day from midnight to midnight');
SELECT results_eq(
    $$SELECT child FROM tap_ranges('public.kt_ber_h_spring')
       WHERE lo::timestamptz >= '2100-03-28 00:00 Europe/Berlin' AND hi::timestamptz <= '2100-03-29 00:00 Europe/Berlin'
       ORDER BY n$$,
    $$SELECT 'kt_ber_h_spring_p21000328_' || to_char(h, 'HH24MISS')
        FROM generate_series(timestamp '2100-03-28 00:00', '2100-03-28 23:00', '1 hour') h
       WHERE h::time <> '02:00' ORDER BY h$$,
    'Berlin, 1 hour, spring: children named by Berlin''s wall-clock hour, 01:00 followed by 03:00');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_ber_h_spring',
        ARRAY['2100-03-28 01:00:00+00', '2100-03-28 00:59:59.999999+00', '2100-03-28 03:00 Europe/Berlin'])$$,
    $$VALUES ('2100-03-28 01:00:00+00', 'kt_ber_h_spring_p21000328_030000'),
             ('2100-03-28 00:59:59.999999+00', 'kt_ber_h_spring_p21000328_010000'),
             ('2100-03-28 03:00 Europe/Berlin', 'kt_ber_h_spring_p21000328_030000')$$,
    'Berlin, 1 hour, spring: the first instant of summer time lands in the 03:00 child');

-- 1 hour, autumn: the hour 02:00 .. 03:00 happens twice
CREATE TABLE public.kt_ber_h_autumn (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_ber_h_autumn', 'ts', '1 hour', p_premake => 25,
                                                  p_start_partition => '2100-10-31 00:00',
                                                  p_time_zone => 'Europe/Berlin')$$),
          'true', 'Berlin, 1 hour, autumn: create_parent succeeds');
INSERT INTO public.kt_ber_h_autumn VALUES ('2100-10-31 00:30 Europe/Berlin');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_ber_h_autumn')$$,
                'Berlin, 1 hour, autumn: run_maintenance succeeds');
SELECT is_empty($$SELECT tap_range_problems('public.kt_ber_h_autumn')$$,
    'Berlin, 1 hour, autumn: bounds contiguous across the change, no gap and no overlap');
SELECT results_eq(
    $$SELECT count(*)::int, count(*) FILTER (WHERE hi::timestamptz - lo::timestamptz = interval '1 hour')::int
        FROM tap_ranges('public.kt_ber_h_autumn')$$,
    $$VALUES (26, 26)$$,
    'Berlin, 1 hour, autumn: 26 children (the row''s hour and 25 ahead), each exactly 1 hour long');
SELECT results_eq(
    $$SELECT count(*)::int, min(lo::timestamptz), max(hi::timestamptz)
        FROM tap_ranges('public.kt_ber_h_autumn')
       WHERE lo::timestamptz >= '2100-10-31 00:00 Europe/Berlin' AND hi::timestamptz <= '2100-11-01 00:00 Europe/Berlin'$$,
    $$VALUES (25, timestamptz '2100-10-30 22:00:00+00', timestamptz '2100-10-31 23:00:00+00')$$,
    'Berlin, 1 hour, autumn: 25 children cover the 25-hour day from midnight to midnight');
SELECT results_eq(
    $$SELECT child, lo, hi FROM tap_ranges('public.kt_ber_h_autumn')
       WHERE child LIKE 'kt\_ber\_h\_autumn\_p21001031\_020000%' ORDER BY n$$,
    $$VALUES ('kt_ber_h_autumn_p21001031_020000_dst', '2100-10-31 00:00:00+00', '2100-10-31 01:00:00+00'),
             ('kt_ber_h_autumn_p21001031_020000', '2100-10-31 01:00:00+00', '2100-10-31 02:00:00+00')$$,
    'Berlin, 1 hour, autumn: the repeated 02:00 hour gets two children, the summer-time one suffixed _dst');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_ber_h_autumn',
        ARRAY['2100-10-31 00:30:00+00', '2100-10-31 01:00:00+00', '2100-10-31 00:59:59.999999+00', '2100-10-31 02:00:00+00'])$$,
    $$VALUES ('2100-10-31 00:30:00+00', 'kt_ber_h_autumn_p21001031_020000_dst'),
             ('2100-10-31 01:00:00+00', 'kt_ber_h_autumn_p21001031_020000'),
             ('2100-10-31 00:59:59.999999+00', 'kt_ber_h_autumn_p21001031_020000_dst'),
             ('2100-10-31 02:00:00+00', 'kt_ber_h_autumn_p21001031_030000')$$,
    'Berlin, 1 hour, autumn: 02:30 summer time and 02:30 winter time land in different children');

-- 1 day across both changes: children from Berlin midnight to Berlin midnight
CREATE TABLE public.kt_ber_d_spring (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_ber_d_spring', 'ts', '1 day', p_premake => 2,
                                                  p_start_partition => '2100-03-27',
                                                  p_time_zone => 'Europe/Berlin')$$),
          'true', 'Berlin, 1 day, spring: create_parent succeeds');
INSERT INTO public.kt_ber_d_spring VALUES ('2100-03-27 12:00 Europe/Berlin');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_ber_d_spring')$$,
                'Berlin, 1 day, spring: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, lo, hi, hi::timestamptz - lo::timestamptz FROM tap_ranges('public.kt_ber_d_spring') ORDER BY n$$,
    $$VALUES ('kt_ber_d_spring_p21000327', '2100-03-26 23:00:00+00', '2100-03-27 23:00:00+00', interval '24 hours'),
             ('kt_ber_d_spring_p21000328', '2100-03-27 23:00:00+00', '2100-03-28 22:00:00+00', interval '23 hours'),
             ('kt_ber_d_spring_p21000329', '2100-03-28 22:00:00+00', '2100-03-29 22:00:00+00', interval '24 hours')$$,
    'Berlin, 1 day, spring: bounds at local midnight, the change day spans 23 hours, contiguous');
SELECT results_eq(
    $$SELECT * FROM tap_routes('public.kt_ber_d_spring', ARRAY['2100-03-28 22:00:00+00', '2100-03-28 21:59:59.999999+00'])$$,
    $$VALUES ('2100-03-28 22:00:00+00', 'kt_ber_d_spring_p21000329'),
             ('2100-03-28 21:59:59.999999+00', 'kt_ber_d_spring_p21000328')$$,
    'Berlin, 1 day, spring: Berlin midnight after the change starts the next day''s child');

CREATE TABLE public.kt_ber_d_autumn (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT is(tap_try($$SELECT partmgr.create_parent('public.kt_ber_d_autumn', 'ts', '1 day', p_premake => 2,
                                                  p_start_partition => '2100-10-30',
                                                  p_time_zone => 'Europe/Berlin')$$),
          'true', 'Berlin, 1 day, autumn: create_parent succeeds');
INSERT INTO public.kt_ber_d_autumn VALUES ('2100-10-30 12:00 Europe/Berlin');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.kt_ber_d_autumn')$$,
                'Berlin, 1 day, autumn: run_maintenance succeeds');
SELECT results_eq(
    $$SELECT child, lo, hi, hi::timestamptz - lo::timestamptz FROM tap_ranges('public.kt_ber_d_autumn') ORDER BY n$$,
    $$VALUES ('kt_ber_d_autumn_p21001030', '2100-10-29 22:00:00+00', '2100-10-30 22:00:00+00', interval '24 hours'),
             ('kt_ber_d_autumn_p21001031', '2100-10-30 22:00:00+00', '2100-10-31 23:00:00+00', interval '25 hours'),
             ('kt_ber_d_autumn_p21001101', '2100-10-31 23:00:00+00', '2100-11-01 23:00:00+00', interval '24 hours')$$,
    'Berlin, 1 day, autumn: bounds at local midnight, the change day spans 25 hours, contiguous');

------------------------------------------------------------------------------
-- bad input: SQLSTATE, message, and nothing changed
------------------------------------------------------------------------------
CREATE TABLE public.kt_bad_list_int (id integer NOT NULL) PARTITION BY LIST (id);
CREATE TABLE public.kt_bad_list_num (id numeric NOT NULL) PARTITION BY LIST (id);
CREATE TABLE public.kt_bad_list_tstz (ts timestamptz NOT NULL) PARTITION BY LIST (ts);
CREATE TABLE public.kt_bad_range_int (id integer NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE public.kt_bad_range_small (id smallint NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE public.kt_bad_range_num (n numeric NOT NULL) PARTITION BY RANGE (n);
CREATE TABLE public.kt_bad_range_tstz (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
CREATE TEMP TABLE tap_before AS SELECT public.tap_catalog_state() AS state;

-- throws_ok plus the unchanged-catalog check
CREATE FUNCTION public.tap_bad(p_sql text, p_state text, p_message text, p_description text)
RETURNS SETOF text
LANGUAGE plpgsql AS $$
BEGIN
    RETURN NEXT throws_ok(p_sql, p_state, p_message, p_description);
    RETURN NEXT is(public.tap_catalog_state(), (SELECT state FROM tap_before),
                   p_description || ': part_config and the tables unchanged');
END
$$;

SELECT tap_bad($$SELECT partmgr.create_parent('public.kt_bad_list_int', 'id', '2', p_type => 'list')$$,
    '22023', 'the partition interval of a list partition set must be 1',
    'list set with interval 2');
SELECT tap_bad($$SELECT partmgr.create_parent('public.kt_bad_list_int', 'id', '1 day', p_type => 'list')$$,
    '22023', 'partition interval "1 day" is not an integer',
    'list set with a time interval');
SELECT tap_bad($$SELECT partmgr.create_parent('public.kt_bad_list_num', 'id', '1', p_type => 'list')$$,
    '42804', 'a list partition set needs a smallint, integer or bigint control column, not numeric',
    'list set on a numeric column');
SELECT tap_bad($$SELECT partmgr.create_parent('public.kt_bad_list_tstz', 'ts', '1', p_type => 'list')$$,
    '42804', 'a list partition set needs a smallint, integer or bigint control column, not timestamp with time zone',
    'list set on a timestamptz column');
SELECT tap_bad($$SELECT partmgr.create_parent('public.kt_bad_range_int', 'id', '1', p_type => 'list')$$,
    '22023', 'table "public.kt_bad_range_int" is partitioned by RANGE, but p_type is "list"',
    'p_type list on a RANGE partitioned table');
SELECT tap_bad($$SELECT partmgr.create_parent('public.kt_bad_list_int', 'id', '1', p_type => 'list',
                                               p_epoch => 'seconds')$$,
    '22023', 'a list partition set cannot be an epoch set',
    'list set with an epoch');
SELECT tap_bad($$SELECT partmgr.create_parent('public.kt_bad_list_int', 'id', '1', p_type => 'list',
                                               p_date_trunc_interval => 'day')$$,
    '22023', 'p_date_trunc_interval applies only to time partition sets',
    'list set with p_date_trunc_interval');
SELECT tap_bad($$SELECT partmgr.create_parent('public.kt_bad_range_num', 'n', '1 day', p_epoch => 'seconds')$$,
    '42804', 'epoch "seconds" needs an integer or bigint control column, not numeric',
    'epoch set on a numeric column');
SELECT tap_bad($$SELECT partmgr.create_parent('public.kt_bad_range_tstz', 'ts', '1 day', p_epoch => 'milliseconds')$$,
    '42804', 'epoch "milliseconds" needs an integer or bigint control column, not timestamp with time zone',
    'epoch set on a timestamptz column');
SELECT tap_bad($$SELECT partmgr.create_parent('public.kt_bad_range_small', 'id', '1 day', p_epoch => 'seconds')$$,
    '42804', 'epoch "seconds" needs an integer or bigint control column, not smallint',
    'epoch set on a smallint column');
SELECT tap_bad($$SELECT partmgr.create_parent('public.kt_bad_range_int', 'id', '1 day', p_epoch => 'minutes')$$,
    '22023', 'invalid value "minutes" for p_epoch',
    'epoch set with an unknown unit');
SELECT tap_bad($$SELECT partmgr.create_parent('public.kt_bad_range_int', 'id', '500 milliseconds',
                                               p_epoch => 'milliseconds')$$,
    '22023', 'partition interval "500 milliseconds" is shorter than one second',
    'epoch set with an interval under a second');
SELECT tap_bad($$SELECT partmgr.create_parent('public.kt_bad_range_int', 'id', '1 day', p_epoch => 'seconds',
                                               p_start_partition => '2100-01-01')$$,
    '22008', 'p_start_partition "2100-01-01" is out of range for type integer',
    'epoch seconds in an integer column with a start past 2038');
SELECT tap_bad($$SELECT partmgr.create_parent('public.kt_bad_range_tstz', 'ts', '1 week',
                                               p_start_partition => '2100-01-06',
                                               p_date_trunc_interval => 'month')$$,
    '22023', 'p_date_trunc_interval "month" does not fit partition interval "7 days"',
    '1 week interval with p_date_trunc_interval month');

SELECT tap_bad($$SELECT partmgr.create_parent('public.kt_bad_range_tstz', 'ts', '1 month',
                                               p_start_partition => '2100-01-06',
                                               p_date_trunc_interval => 'week')$$,
    '22023', 'p_date_trunc_interval "week" does not fit partition interval "1 mon"',
    '1 month interval with p_date_trunc_interval week');

SELECT * FROM finish();
ROLLBACK;
