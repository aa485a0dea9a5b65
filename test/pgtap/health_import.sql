-- pgTAP tests of the operator functions of 0.2.0: the partmgr.health view
-- (set_health()), import_partman_config() against the real pg_partman 4.7
-- (postgresql-15-partman), and dump_partitioned_table_definition().
--
-- health: one row per set (sets being undone left out) with a status --
-- critical (no child for now / the newest child holding rows is the last,
-- no child, a configuration maintenance would fail on, a failure after the
-- last successful run), warning (fewer intervals ahead than premake, rows in
-- the default, expired children, a skip after the last run) or ok -- and
-- its reasons; it changes nothing.
--
-- import: pg_partman 4.7 is installed in this transaction; its sets are
-- registered with their settings and children, pg_partman's automatic
-- maintenance of them is turned off (unless asked not to), and
-- run_maintenance() continues pg_partman's names and grid.
--
-- dump: the SQL it returns registers the set again exactly as configured.
--
-- Deterministic: pg_partmgr's sets live in 2100 (or 2000) with explicit ids;
-- pg_partman 4.7 makes its children around now(), so what is expected of
-- them is derived from the children that exist, never from today's date.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = error;
-- broken sets are part of the scenario: they are told by WARNING (maintenance.sql
-- tests the ERROR that ends a run by default)
SET pg_partmgr.on_set_failure = warning;

SELECT plan(86);

-- What a read-only call must leave alone: part_config, part_config_sub, every
-- relation outside temporary schemas, the size of the maintenance log and,
-- once pg_partman is installed, its part_config.
CREATE FUNCTION public.tap_hi_state()
RETURNS text
LANGUAGE plpgsql STABLE AS $$
DECLARE
    partman text := '';
BEGIN
    IF to_regclass('partman.part_config') IS NOT NULL THEN
        EXECUTE $q$SELECT md5(coalesce(string_agg(c::text, E'\n' ORDER BY c.parent_table), ''))
                     FROM partman.part_config c$q$ INTO partman;
    END IF;
    RETURN (SELECT md5(coalesce(string_agg(pc::text, E'\n' ORDER BY pc.parent_table), ''))
              FROM partmgr.part_config pc)
        || ' / ' ||
           (SELECT md5(coalesce(string_agg(s::text, E'\n' ORDER BY s.sub_parent), ''))
              FROM partmgr.part_config_sub s)
        || ' / ' ||
           (SELECT md5(string_agg(c.oid::text || ' ' || c.relnamespace::text || ' ' || c.relname
                                  || ' ' || c.relispartition::text, E'\n' ORDER BY c.oid))
              FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname NOT LIKE 'pg\_temp\_%' AND n.nspname NOT LIKE 'pg\_toast\_temp\_%')
        || ' / log ' || (SELECT count(*) FROM partmgr.maintenance_log)
        || ' / partman ' || partman;
END
$$;

-- The children of a set in the order of their bounds (not the default), with
-- their bounds as the catalog gives them.
CREATE FUNCTION public.tap_hi_bounds(p_parent text)
RETURNS TABLE (n bigint, child text, lo_t timestamptz, hi_t timestamptz, lo_i bigint, hi_i bigint)
LANGUAGE sql STABLE AS $$
    SELECT p.n, p.partition_tablename, i.child_start_time, i.child_end_time,
           i.child_start_id, i.child_end_id
      FROM partmgr.show_partitions(p_parent) WITH ORDINALITY AS p(s, partition_tablename, n),
           LATERAL partmgr.show_partition_info(p.s || '.' || p.partition_tablename) AS i
     ORDER BY p.n
$$;

-- How many children do not start where the previous one ends (a gap or an
-- overlap), in bound order.
CREATE FUNCTION public.tap_hi_breaks(p_parent text)
RETURNS int
LANGUAGE sql STABLE AS $$
    SELECT count(*)::int FROM (
        SELECT lo_t, lo_i, lag(hi_t) OVER w AS prev_t, lag(hi_i) OVER w AS prev_i, n
          FROM public.tap_hi_bounds(p_parent) WINDOW w AS (ORDER BY n)) AS b
     WHERE b.n > 1 AND (b.lo_t IS DISTINCT FROM b.prev_t OR b.lo_i IS DISTINCT FROM b.prev_i)
$$;

-- Attached children of a parent, the default partition not counted.
CREATE FUNCTION public.tap_hi_children(p_parent regclass)
RETURNS int
LANGUAGE sql STABLE AS $$
    SELECT count(*)::int
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent AND pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT'
$$;

-- A hand-written maintenance_log row (the facts health reads from the log).
CREATE FUNCTION public.tap_hi_log(p_set text, p_action text, p_outcome text, p_at timestamptz,
                                  p_sqlstate text, p_error text, p_run_by text)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO partmgr.maintenance_log (parent_table, action, started_at, finished_at, outcome,
                                         sqlstate, error, run_by)
    VALUES (p_set, p_action, p_at - interval '1 second', p_at, p_outcome, p_sqlstate, p_error, p_run_by)
$$;

------------------------------------------------------------------------------
-- health: one set per state
------------------------------------------------------------------------------
-- ok: a daily time set whose only child ends 2100-01-02
CREATE TABLE public.tap_h_ok (ts timestamptz NOT NULL, v int) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_h_ok', 'ts', '1 day', p_start_partition => '2100-01-01');
-- ok: an id set without a default, id 5 in the first of four children
CREATE TABLE public.tap_h_nd (id bigint NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_h_nd', 'id', '10', p_premake => 3, p_start_partition => '0',
                             p_default_table => false);
INSERT INTO public.tap_h_nd VALUES (5, 5);
-- critical: a time set whose only child lies in 2000
CREATE TABLE public.tap_h_tc (ts timestamptz NOT NULL, v int) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_h_tc', 'ts', '1 day', p_start_partition => '2100-01-01');
CREATE TABLE public.tap_h_tc_p20000101 PARTITION OF public.tap_h_tc
    FOR VALUES FROM ('2000-01-01 00:00+00') TO ('2000-01-02 00:00+00');
DROP TABLE public.tap_h_tc_p21000101;
-- critical: an id set whose newest child holding rows (id 15) is its last (10..20)
CREATE TABLE public.tap_h_ic (id bigint NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_h_ic', 'id', '10', p_premake => 1, p_start_partition => '0');
INSERT INTO public.tap_h_ic VALUES (1, 1), (15, 15);
-- warning: id 25, children up to 50, premake 4: 2.5 intervals ahead
CREATE TABLE public.tap_h_iw (id bigint NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_h_iw', 'id', '10', p_premake => 4, p_start_partition => '0');
INSERT INTO public.tap_h_iw VALUES (25, 25);
-- critical: no child at all
CREATE TABLE public.tap_h_none (id bigint NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_h_none', 'id', '10', p_premake => 1, p_start_partition => '0');
DROP TABLE public.tap_h_none_p0, public.tap_h_none_p10;
-- critical: a configuration maintenance fails on
CREATE TABLE public.tap_h_br (ts timestamptz NOT NULL, v int) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_h_br', 'ts', '1 day', p_start_partition => '2100-01-01');
UPDATE partmgr.part_config SET partition_interval = 'banana' WHERE parent_table = 'public.tap_h_br';
-- warning: three rows in the default (automatic maintenance off: still listed)
CREATE TABLE public.tap_h_def (ts timestamptz NOT NULL, v int) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_h_def', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_automatic_maintenance => 'off');
INSERT INTO public.tap_h_def VALUES ('2200-01-01 00:00+00', 1), ('2200-01-02 00:00+00', 2), ('2200-01-03 00:00+00', 3);
-- warning: retention 10 with id 35 the largest: 0..10 and 10..20 expired
CREATE TABLE public.tap_h_exp (id bigint NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_h_exp', 'id', '10', p_premake => 1, p_start_partition => '0');
SELECT partmgr.create_partition_id('public.tap_h_exp', ARRAY[20, 30, 40]::bigint[]);
INSERT INTO public.tap_h_exp VALUES (1, 1), (35, 35);
UPDATE partmgr.part_config SET retention = '10' WHERE parent_table = 'public.tap_h_exp';
-- left out: being undone
CREATE TABLE public.tap_h_undo (id bigint NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_h_undo', 'id', '10', p_premake => 1, p_start_partition => '0');
UPDATE partmgr.part_config SET undo_in_progress = true WHERE parent_table = 'public.tap_h_undo';
-- for the log: a healthy time set
CREATE TABLE public.tap_h_log (ts timestamptz NOT NULL, v int) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_h_log', 'ts', '1 day', p_start_partition => '2100-01-01');

CREATE TEMP TABLE tap_hi_before AS SELECT public.tap_hi_state() AS state;
CREATE TEMP TABLE tap_h AS SELECT * FROM partmgr.health WHERE parent_table LIKE 'public.tap\_h\_%';
CREATE TEMP TABLE tap_hx AS SELECT * FROM partmgr.set_health(true) WHERE parent_table LIKE 'public.tap\_h\_%';

SELECT is(public.tap_hi_state(), (SELECT state FROM tap_hi_before),
    'health and set_health(true) change nothing: configuration, relations, log');
SELECT results_eq($$SELECT * FROM partmgr.health ORDER BY parent_table$$,
    $$SELECT * FROM partmgr.set_health(false) ORDER BY parent_table$$,
    'the health view is set_health(false)');
SELECT results_eq($$SELECT parent_table FROM tap_h ORDER BY parent_table COLLATE "C"$$,
    $$VALUES ('public.tap_h_br'), ('public.tap_h_def'), ('public.tap_h_exp'), ('public.tap_h_ic'),
             ('public.tap_h_iw'), ('public.tap_h_log'), ('public.tap_h_nd'), ('public.tap_h_none'),
             ('public.tap_h_ok'), ('public.tap_h_tc')$$,
    'one row per set, automatic maintenance off included, the set being undone left out');

-- ok
SELECT results_eq($$SELECT children, newest_upper, runs_out_at, default_rows, expired_children, last_run,
                           status, reason, last_error, last_error_at
                      FROM tap_h WHERE parent_table = 'public.tap_h_ok'$$,
    $$VALUES (1, '2100-01-02 00:00:00+00', timestamptz '2100-01-02 00:00+00', 0::bigint, 0,
              NULL::timestamptz, 'ok', NULL::text, NULL::text, NULL::timestamptz)$$,
    'time set in 2100: 1 child, its upper bound, runs out then, empty default, ok without reasons');
SELECT is((SELECT intervals_left FROM tap_h WHERE parent_table = 'public.tap_h_ok'),
    round((extract(epoch FROM timestamptz '2100-01-02 00:00+00' - now()) / 86400)::numeric, 1),
    'time set: intervals_left = days from now to the highest upper bound, one decimal');
SELECT results_eq($$SELECT children, newest_upper, intervals_left, runs_out_at, default_rows, status, reason
                      FROM tap_h WHERE parent_table = 'public.tap_h_nd'$$,
    $$VALUES (4, '40', 3.5, NULL::timestamptz, NULL::bigint, 'ok', NULL::text)$$,
    'id set, id 5, children up to 40, premake 3: 3.5 intervals left, no pace, no default (NULL), ok');

-- critical
SELECT results_eq($$SELECT children, newest_upper, runs_out_at, status FROM tap_h WHERE parent_table = 'public.tap_h_tc'$$,
    $$VALUES (1, '2000-01-02 00:00:00+00', timestamptz '2000-01-02 00:00+00', 'critical')$$,
    'time set whose children all lie in the past: critical, ran out 2000-01-02');
SELECT ok((SELECT intervals_left < 0 FROM tap_h WHERE parent_table = 'public.tap_h_tc'),
    'time set in the past: intervals_left is negative');
SELECT alike((SELECT reason FROM tap_h WHERE parent_table = 'public.tap_h_tc'),
    'no child for the current time%',
    'reason: no child for the current time');
SELECT results_eq($$SELECT intervals_left, status, reason FROM tap_h WHERE parent_table = 'public.tap_h_ic'$$,
    $$VALUES (0.5, 'critical', 'the newest child holding rows is the last child')$$,
    'id set, id 15 in its last child 10..20: 0.5 intervals left, critical, reason says so');
SELECT results_eq($$SELECT children, newest_upper, intervals_left, status, reason FROM tap_h WHERE parent_table = 'public.tap_h_none'$$,
    $$VALUES (0, NULL::text, NULL::numeric, 'critical', 'no child')$$,
    'set without any child: critical, reason no child');
SELECT results_eq($$SELECT status, children, default_rows FROM tap_h WHERE parent_table = 'public.tap_h_br'$$,
    $$VALUES ('critical', 0, NULL::bigint)$$,
    'broken configuration (interval banana): critical');
SELECT matches((SELECT reason FROM tap_h WHERE parent_table = 'public.tap_h_br'),
    '^maintenance would fail \(22023\): .*banana',
    'reason: maintenance would fail, with SQLSTATE and the error');

-- warning
SELECT results_eq($$SELECT intervals_left, runs_out_at, status, reason FROM tap_h WHERE parent_table = 'public.tap_h_iw'$$,
    $$VALUES (2.5, NULL::timestamptz, 'warning', '2.5 intervals of children ahead, premake is 4')$$,
    'id set with 2.5 intervals ahead and premake 4: warning, no pace without maintenance-made children');
SELECT results_eq($$SELECT expired_children, status, reason FROM tap_h WHERE parent_table = 'public.tap_h_exp'$$,
    $$VALUES (2, 'warning', '2 expired children not retired yet')$$,
    'retention 10, id 35: two expired children, warning');
SELECT results_eq($$SELECT default_rows, status FROM tap_h WHERE parent_table = 'public.tap_h_def'$$,
    $$VALUES (1::bigint, 'warning')$$,
    'default with 3 rows never analyzed: the estimate is at least 1, warning');
SELECT alike((SELECT reason FROM tap_h WHERE parent_table = 'public.tap_h_def'),
    '%(estimated) rows in the default partition',
    'reason: estimated rows in the default partition');
SELECT results_eq($$SELECT default_rows, status, reason FROM tap_hx WHERE parent_table = 'public.tap_h_def'$$,
    $$VALUES (3::bigint, 'warning', '3 rows in the default partition')$$,
    'p_exact: the 3 rows counted, not estimated');
SELECT results_eq($$SELECT parent_table, default_rows FROM tap_hx WHERE parent_table <> 'public.tap_h_def' ORDER BY 1$$,
    $$SELECT parent_table, default_rows FROM tap_h WHERE parent_table <> 'public.tap_h_def' ORDER BY 1$$,
    'p_exact: empty defaults stay 0, no default stays NULL');
ANALYZE public.tap_h_def_default;
SELECT is((SELECT default_rows FROM partmgr.health WHERE parent_table = 'public.tap_h_def'), 3::bigint,
    'after ANALYZE the estimate is 3');
SELECT is((SELECT default_rows FROM partmgr.set_health(true) WHERE parent_table = 'public.tap_h_def'), 3::bigint,
    'after ANALYZE p_exact still says 3');

-- the log: failures and skips after the last successful run
UPDATE partmgr.part_config SET maintenance_last_run = '2099-01-01 00:00+00' WHERE parent_table = 'public.tap_h_log';
SELECT tap_hi_log('public.tap_h_log', 'create partition', 'failed', '2099-01-02 00:00+00',
                  '57014', 'canceling statement due to statement timeout', 'worker');
SELECT results_eq($$SELECT last_run, status, last_error, last_error_at FROM partmgr.health WHERE parent_table = 'public.tap_h_log'$$,
    $$VALUES (timestamptz '2099-01-01 00:00+00', 'critical', '57014: canceling statement due to statement timeout',
              timestamptz '2099-01-02 00:00+00')$$,
    'a failure after the last run: critical, last_error SQLSTATE: message, and when');
SELECT is((SELECT reason FROM partmgr.health WHERE parent_table = 'public.tap_h_log'),
    'since the last successful run: 57014: canceling statement due to statement timeout',
    'reason: the failure since the last successful run');
UPDATE partmgr.part_config SET maintenance_last_run = '2099-01-03 00:00+00' WHERE parent_table = 'public.tap_h_log';
SELECT results_eq($$SELECT status, reason, last_error FROM partmgr.health WHERE parent_table = 'public.tap_h_log'$$,
    $$VALUES ('ok', NULL::text, '57014: canceling statement due to statement timeout')$$,
    'a successful run after the failure: ok again, the failure still shown as last_error');
SELECT tap_hi_log('public.tap_h_log', 'detach partition', 'skipped', '2099-01-04 00:00+00',
                  '55P03', 'could not obtain lock on relation', 'worker');
SELECT results_eq($$SELECT status, reason, last_error, last_error_at FROM partmgr.health WHERE parent_table = 'public.tap_h_log'$$,
    $$VALUES ('warning', 'since the last successful run: 55P03: could not obtain lock on relation',
              '55P03: could not obtain lock on relation', timestamptz '2099-01-04 00:00+00')$$,
    'a skip after the last run: warning; the skip is the latest error');

-- a set whose default partition is gone, and one with a hole between children
CREATE TABLE public.tap_hg_nodef (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_hg_nodef', 'ts', '1 day', p_start_partition => '2100-01-01');
DROP TABLE public.tap_hg_nodef_default;
SELECT results_eq($$SELECT status, reason FROM partmgr.health WHERE parent_table = 'public.tap_hg_nodef'$$,
    $$VALUES ('warning', 'no default partition: a row outside every child is refused')$$,
    'health: a set whose default partition is missing is a warning that says so');
CREATE TABLE public.tap_hg_gap (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_hg_gap', 'ts', '1 day', p_start_partition => '2100-01-01');
SELECT partmgr.create_partition_time('public.tap_hg_gap', ARRAY['2100-01-03 00:00+00'::timestamptz]);
SELECT results_eq($$SELECT status, reason FROM partmgr.health WHERE parent_table = 'public.tap_hg_gap'$$,
    $$VALUES ('warning', '1 gap between children: rows there go to the default partition (partition_gap_fill() fills them)')$$,
    'health: a hole between two children is a warning that says so');
SELECT is(partmgr.partition_gap_fill('public.tap_hg_gap'), 1, 'partition_gap_fill makes the missing child');
SELECT results_eq($$SELECT status, reason FROM partmgr.health WHERE parent_table = 'public.tap_hg_gap'$$,
    $$VALUES ('ok', NULL::text)$$,
    'health: after the gap is filled, ok again');

-- the pace of an id set: two children maintenance made an hour apart
SELECT tap_hi_log('public.tap_h_iw', 'create partition', 'done', '2099-01-01 00:00+00', NULL, NULL, 'worker');
SELECT tap_hi_log('public.tap_h_iw', 'create partition', 'done', '2099-01-01 01:00+00', NULL, NULL, 'run_maintenance');
SELECT is((SELECT runs_out_at FROM partmgr.health WHERE parent_table = 'public.tap_h_iw'),
    now() + interval '150 minutes',
    'id set: one child an hour, 2.5 intervals left: runs out 2.5 hours from now');

-- a real failure of run_maintenance() is the set's last error
SELECT partmgr.run_maintenance();
SELECT results_eq($$SELECT action, outcome, sqlstate, run_by FROM partmgr.maintenance_log
                     WHERE parent_table = 'public.tap_h_br' AND outcome <> 'done'$$,
    $$VALUES ('maintain set', 'failed', '22023', 'run_maintenance')$$,
    'run_maintenance() logs the broken set as failed');
SELECT results_eq($$SELECT h.status, h.last_error, h.last_error_at
                      FROM partmgr.health h WHERE h.parent_table = 'public.tap_h_br'$$,
    $$SELECT 'critical', l.sqlstate || ': ' || l.error, l.finished_at
        FROM partmgr.maintenance_log l WHERE l.parent_table = 'public.tap_h_br' AND l.outcome = 'failed'$$,
    'health: critical, last_error and last_error_at from that log row');

------------------------------------------------------------------------------
-- import_partman_config: pg_partman 4.7.2
------------------------------------------------------------------------------
CREATE SCHEMA partman;
CREATE EXTENSION pg_partman SCHEMA partman;
CREATE TABLE public.tap_px (ts timestamptz NOT NULL, v int) PARTITION BY RANGE (ts);
CREATE TABLE public.tap_py (id bigint NOT NULL, v int) PARTITION BY RANGE (id);
CREATE TABLE public.tap_pz (id bigint NOT NULL, v int) PARTITION BY RANGE (id);
CREATE TABLE public.tap_pw (id bigint NOT NULL, v int) PARTITION BY RANGE (id);
CREATE TABLE public.tap_pt (id bigint NOT NULL, v int);
SELECT partman.create_parent('public.tap_px', 'ts', 'native', 'daily', p_premake => 2);
SELECT partman.create_parent('public.tap_py', 'id', 'native', '100', p_premake => 2);
SELECT partman.create_parent('public.tap_pz', 'id', 'native', '10', p_premake => 3);
SELECT partman.create_parent('public.tap_pw', 'id', 'native', '10', p_premake => 2);
SELECT partman.create_parent('public.tap_pt', 'id', 'partman', '10', p_premake => 1);
DROP TABLE public.tap_pw;
UPDATE partman.part_config
   SET retention = '30 days', retention_keep_index = false, constraint_cols = ARRAY['v'],
       optimize_constraint = 5, infinite_time_partitions = true
 WHERE parent_table = 'public.tap_px';
UPDATE partman.part_config
   SET retention = '100', retention_keep_table = false, ignore_default_data = true
 WHERE parent_table = 'public.tap_py';
INSERT INTO public.tap_px SELECT now() - g * interval '1 hour', g FROM generate_series(0, 5) g;
INSERT INTO public.tap_py SELECT g, g FROM generate_series(1, 250) g;

-- bad input first: nothing changes
DELETE FROM tap_hi_before;
INSERT INTO tap_hi_before SELECT public.tap_hi_state();
SELECT throws_ok($$SELECT * FROM partmgr.import_partman_config('public')$$,
    '42P01', 'no pg_partman configuration table public.part_config',
    'a schema without part_config');
SELECT throws_ok($$SELECT * FROM partmgr.import_partman_config('partman', 'public.tap_nope')$$,
    '42704', 'table "public.tap_nope" is not in partman.part_config',
    'a p_parent_table pg_partman does not manage');
SELECT is(public.tap_hi_state(), (SELECT state FROM tap_hi_before),
    'after the refused imports: both configurations and the relations unchanged');

-- one set
CREATE TEMP TABLE tap_imp_x AS SELECT * FROM partmgr.import_partman_config('partman', 'public.tap_px');
SELECT results_eq($$SELECT parent_table, imported, children FROM tap_imp_x$$,
    $$VALUES ('public.tap_px', true, public.tap_hi_children('public.tap_px'))$$,
    'p_parent_table: one row, imported, children = the attached children');
SELECT is((SELECT children FROM tap_imp_x), 5, 'pg_partman 4.7 premake 2: five daily children adopted');
SELECT matches((SELECT note FROM tap_imp_x), '^time zone UTC; pg_partman''s automatic maintenance turned off',
    'note: the time zone taken, pg_partman''s automatic maintenance turned off');
SELECT is((SELECT automatic_maintenance FROM partman.part_config WHERE parent_table = 'public.tap_px'), 'off',
    'pg_partman''s automatic maintenance of the set is off');
SELECT results_eq($$SELECT control, partition_interval, premake, datetime_string, retention, retention_schema,
                           retention_keep_table, retention_keep_index, infinite_time_partitions,
                           optimize_constraint, constraint_cols, ignore_default_data, constraint_valid, epoch
                      FROM partmgr.part_config WHERE parent_table = 'public.tap_px'$$,
    $$SELECT control, partition_interval, premake, datetime_string, retention, retention_schema,
             retention_keep_table, retention_keep_index, infinite_time_partitions,
             optimize_constraint, constraint_cols, ignore_default_data, constraint_valid, epoch
        FROM partman.part_config WHERE parent_table = 'public.tap_px'$$,
    'time set: the settings are pg_partman''s');
SELECT results_eq($$SELECT c.datetime_string, c.partition_type, c.automatic_maintenance, c.partition_timezone
                      FROM partmgr.part_config c
                     WHERE c.parent_table = 'public.tap_px'$$,
    $$VALUES ('YYYY_MM_DD', 'range', 'on', 'UTC')$$,
    'pg_partman 4''s datetime_string kept, range, maintained by pg_partmgr, the session''s zone');

-- one set, pg_partman left on
CREATE TEMP TABLE tap_imp_z AS SELECT * FROM partmgr.import_partman_config('partman', 'public.tap_pz', false);
SELECT results_eq($$SELECT parent_table, imported, children FROM tap_imp_z$$,
    $$VALUES ('public.tap_pz', true, 4)$$,
    'p_disable_partman false: imported with its four children');
SELECT unalike((SELECT note FROM tap_imp_z), '%turned off%',
    'p_disable_partman false: the note does not say turned off');
SELECT is((SELECT automatic_maintenance FROM partman.part_config WHERE parent_table = 'public.tap_pz'), 'on',
    'p_disable_partman false: pg_partman''s automatic maintenance stays on');

-- all sets
CREATE TEMP TABLE tap_imp_all AS SELECT * FROM partmgr.import_partman_config();
SELECT results_eq($$SELECT parent_table, imported, children, note FROM tap_imp_all
                     WHERE parent_table <> 'public.tap_py' ORDER BY parent_table COLLATE "C"$$,
    $$VALUES ('public.tap_pt', false, 0, 'partition_type ''partman'' is not supported (only native range and list sets are)'),
             ('public.tap_pw', false, 0, 'the parent table does not exist'),
             ('public.tap_px', false, 0, 'already managed by pg_partmgr'),
             ('public.tap_pz', false, 0, 'already managed by pg_partmgr')$$,
    'all sets: trigger-based and dropped-parent sets refused, a second import says already managed');
SELECT results_eq($$SELECT imported, children FROM tap_imp_all WHERE parent_table = 'public.tap_py'$$,
    $$VALUES (true, 3)$$,
    'all sets: the id set imported with its three children');

SELECT matches((SELECT note FROM tap_imp_all WHERE parent_table = 'public.tap_py'),
    '^time zone UTC; pg_partman''s automatic maintenance turned off',
    'id set note: time zone and pg_partman turned off');
SELECT results_eq($$SELECT parent_table FROM partmgr.part_config WHERE parent_table LIKE 'public.tap\_p_' ORDER BY 1$$,
    $$VALUES ('public.tap_px'), ('public.tap_py'), ('public.tap_pz')$$,
    'pg_partmgr manages exactly the three imported sets');
SELECT results_eq($$SELECT parent_table, automatic_maintenance FROM partman.part_config ORDER BY 1$$,
    $$VALUES ('public.tap_pt', 'on'), ('public.tap_pw', 'on'), ('public.tap_px', 'off'),
             ('public.tap_py', 'off'), ('public.tap_pz', 'on')$$,
    'pg_partman is turned off only for the sets imported with p_disable_partman');

-- a set whose owner lacks USAGE on the table's schema (a superuser made the
-- table and gave it away, as pg_partman's own suites do): not imported, and
-- the note gives the GRANT; with it, the set is imported
CREATE ROLE tap_imp_owner NOSUPERUSER;
CREATE SCHEMA tap_imp_s;
CREATE TABLE tap_imp_s.t (id bigint NOT NULL, v int) PARTITION BY RANGE (id);
ALTER TABLE tap_imp_s.t OWNER TO tap_imp_owner;
SELECT partman.create_parent('tap_imp_s.t', 'id', 'native', '10', p_premake => 1);
CREATE TEMP TABLE tap_imp_g AS SELECT * FROM partmgr.import_partman_config('partman', 'tap_imp_s.t');
SELECT results_eq($$SELECT imported, note FROM tap_imp_g$$,
    $$VALUES (false, '42501: role "tap_imp_owner", which owns "tap_imp_s.t", may not use schema "tap_imp_s"; the owner lacks what maintenance needs: GRANT USAGE ON SCHEMA tap_imp_s TO tap_imp_owner; 2 more grants only some operations need: see missing_grants()')$$,
    'an owner without USAGE on its schema: not imported, the note gives the GRANT');
GRANT USAGE ON SCHEMA tap_imp_s TO tap_imp_owner;
CREATE TEMP TABLE tap_imp_g2 AS SELECT * FROM partmgr.import_partman_config('partman', 'tap_imp_s.t');
SELECT results_eq($$SELECT imported, children FROM tap_imp_g2$$, $$VALUES (true, 2)$$,
    'after that GRANT alone the set is imported');
SELECT matches((SELECT note FROM tap_imp_g2), '; 2 more grants only some operations need: see missing_grants\(\)$',
    'its note counts the grants only some operations need');
SELECT results_eq($$SELECT privilege, required FROM partmgr.missing_grants('tap_imp_s.t') ORDER BY 1$$,
    $$VALUES ('CREATE ON SCHEMA tap_imp_s', false), ('USAGE ON SCHEMA partmgr', false)$$,
    'which missing_grants() lists');
SELECT results_eq($$SELECT control, partition_interval, premake, datetime_string, retention,
                           retention_keep_table, retention_keep_index, ignore_default_data
                      FROM partmgr.part_config WHERE parent_table = 'public.tap_py'$$,
    $$SELECT control, partition_interval, premake, datetime_string, retention,
             retention_keep_table, retention_keep_index, ignore_default_data
        FROM partman.part_config WHERE parent_table = 'public.tap_py'$$,
    'id set: interval, premake, retention, keep_table false and ignore_default_data true are pg_partman''s');
SELECT results_eq($$SELECT intervals_left, expired_children, status FROM partmgr.health WHERE parent_table = 'public.tap_py'$$,
    $$VALUES (0.5, 1, 'critical')$$,
    'health of the imported id set: id 250 in its last child, 0..100 expired: critical');

-- pg_partmgr maintains them, continuing pg_partman's names and grid
CREATE TEMP TABLE tap_px_old AS SELECT * FROM public.tap_hi_bounds('public.tap_px');
UPDATE partmgr.part_config SET premake = 5 WHERE parent_table = 'public.tap_px';
SELECT partmgr.run_maintenance();
SELECT cmp_ok(public.tap_hi_children('public.tap_px'), '>=', 8,
    'time set, premake raised to 5: at least three children added');
SELECT is((SELECT count(*)::int FROM public.tap_hi_bounds('public.tap_px') b
            WHERE b.child <> 'tap_px_p' || to_char(b.lo_t, 'YYYY_MM_DD')), 0,
    'every child is named tap_px_pYYYY_MM_DD after its lower bound, new ones too');
SELECT is((SELECT count(*)::int FROM public.tap_hi_bounds('public.tap_px') b
            WHERE b.hi_t <> b.lo_t + interval '1 day'), 0,
    'every child spans one day');
SELECT is(public.tap_hi_breaks('public.tap_px'), 0,
    'time set: every child starts where the previous one ends (no gap, no overlap)');
SELECT results_eq($$SELECT child, lo_t FROM public.tap_hi_bounds('public.tap_px') ORDER BY n LIMIT 5$$,
    $$SELECT child, lo_t FROM tap_px_old ORDER BY n$$,
    'pg_partman''s children are still the first five');
SELECT results_eq($$SELECT child, lo_i, hi_i FROM public.tap_hi_bounds('public.tap_py')$$,
    $$VALUES ('tap_py_p100', 100::bigint, 200::bigint), ('tap_py_p200', 200, 300),
             ('tap_py_p300', 300, 400), ('tap_py_p400', 400, 500)$$,
    'id set, id 250: tap_py_p300 and tap_py_p400 added, tap_py_p0 retired by the imported retention');
SELECT is(to_regclass('public.tap_py_p0'), NULL, 'retention_keep_table false from pg_partman: tap_py_p0 dropped');
SELECT is(public.tap_hi_breaks('public.tap_py'), 0, 'id set: no gap, no overlap');
SELECT is((SELECT count(*)::int FROM partmgr.maintenance_log
            WHERE parent_table IN ('public.tap_px', 'public.tap_py') AND run_by = 'run_maintenance'
              AND outcome <> 'done'), 0,
    'nothing failed or was skipped in the imported sets');
SELECT results_eq($$SELECT intervals_left, expired_children, status FROM partmgr.health WHERE parent_table = 'public.tap_py'$$,
    $$VALUES (2.5, 0, 'ok')$$,
    'health of the imported id set after maintenance: 2.5 intervals ahead, ok');
-- the two children come from one run, made about a millisecond apart: that is no pace
SELECT cmp_ok((SELECT coalesce(runs_out_at, 'infinity') FROM partmgr.health WHERE parent_table = 'public.tap_py'),
    '>', clock_timestamp(),
    'id set: two children made by one run give no pace that says the set has already run out');

------------------------------------------------------------------------------
-- dump_partitioned_table_definition
------------------------------------------------------------------------------
CREATE SCHEMA tap_arch;
CREATE TABLE public.tap_d (ts timestamptz NOT NULL, v int, w text) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_d', 'ts', '1 day', p_premake => 3, p_constraint_cols => ARRAY['v', 'w'],
                             p_time_zone => 'Europe/Berlin', p_automatic_maintenance => 'off',
                             p_jobmon => false, p_date_trunc_interval => 'day');
UPDATE partmgr.part_config
   SET retention = '30 days', retention_keep_table = false, retention_keep_index = false,
       retention_schema = 'tap_arch', optimize_constraint = 5, maintenance_order = 7,
       infinite_time_partitions = true, ignore_default_data = false, constraint_valid = false,
       retention_keep_publication = true, inherit_privileges = true
 WHERE parent_table = 'public.tap_d';
CREATE TEMP TABLE tap_d_dump AS SELECT partmgr.dump_partitioned_table_definition('public.tap_d') AS sql;
CREATE TEMP TABLE tap_d_conf AS
    SELECT to_jsonb(c) - 'maintenance_last_run' AS conf
      FROM partmgr.part_config c
     WHERE c.parent_table = 'public.tap_d';
CREATE TEMP TABLE tap_d_children AS
    SELECT i.inhrelid FROM pg_inherits i WHERE i.inhparent = 'public.tap_d'::regclass;

SELECT matches((SELECT sql FROM tap_d_dump),
    'partmgr\.create_parent\(.*p_premake := 3,.*p_constraint_cols := ARRAY\[''v'', ''w''\]::text\[\],.*p_control_not_null := ''t'',.*p_timezone := ''Europe/Berlin''',
    'the dump calls create_parent with the premake, constraint columns and time zone');
SELECT matches((SELECT sql FROM tap_d_dump),
    'UPDATE partmgr\.part_config SET.*retention = ''30 days'',.*retention_keep_table = ''f'',.*maintenance_order = 7,.*WHERE parent_table = ''public\.tap_d''',
    'the dump updates the settings create_parent does not take');
DELETE FROM partmgr.part_config WHERE parent_table = 'public.tap_d';
SELECT is((SELECT count(*)::int FROM partmgr.part_config WHERE parent_table = 'public.tap_d'), 0,
    'the set is deleted before the dump is run');
DO $$ BEGIN EXECUTE (SELECT sql FROM tap_d_dump); END $$;
SELECT is((SELECT to_jsonb(c) - 'maintenance_last_run' FROM partmgr.part_config c WHERE c.parent_table = 'public.tap_d'),
    (SELECT conf FROM tap_d_conf),
    'after running the dump: part_config is what it was');
SELECT is((SELECT partition_timezone FROM partmgr.part_config WHERE parent_table = 'public.tap_d'),
    'Europe/Berlin',
    'after running the dump: the set''s zone (Europe/Berlin) is what it was');
SELECT set_eq($$SELECT inhrelid FROM pg_inherits WHERE inhparent = 'public.tap_d'::regclass$$,
    $$SELECT inhrelid FROM tap_d_children$$,
    'the existing children were adopted, none added or replaced');
SELECT is(partmgr.dump_partitioned_table_definition('public.tap_d'), (SELECT sql FROM tap_d_dump),
    'the re-registered set dumps the same text');

UPDATE partmgr.part_config SET template_table = 'public.tap_d_tpl' WHERE parent_table = 'public.tap_d';
SELECT alike(partmgr.dump_partitioned_table_definition('public.tap_d'), '%p_template_table := ''public.tap_d_tpl'',%',
    'a template table is dumped');
SELECT alike(partmgr.dump_partitioned_table_definition('public.tap_d', p_ignore_template_table => true),
    '%p_template_table := NULL,%',
    'p_ignore_template_table: the template table is left out');

-- the text, word for word, is pg_partman 5's for a set in UTC
CREATE TABLE public.tap_dx (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_dx', 'id', '100', p_premake => 2, p_template_table => 'false');
SELECT is(partmgr.dump_partitioned_table_definition('public.tap_dx'),
    E'SELECT partmgr.create_parent(\n\tp_parent_table := ''public.tap_dx'',\n\tp_control := ''id'',\n' ||
    E'\tp_interval := ''100'',\n\tp_type := ''range'',\n\tp_epoch := ''none'',\n\tp_premake := 2,\n' ||
    E'\tp_default_table := ''t'',\n\tp_automatic_maintenance := ''on'',\n\tp_constraint_cols := NULL,\n' ||
    E'\tp_template_table := NULL,\n\tp_jobmon := ''t'',\n\tp_date_trunc_interval := NULL,\n' ||
    E'\tp_control_not_null := ''t''\n);\n' ||
    E'UPDATE partmgr.part_config SET\n\toptimize_constraint = 30,\n\tretention = NULL,\n' ||
    E'\tretention_schema = NULL,\n\tretention_keep_index = ''t'',\n\tretention_keep_table = ''t'',\n' ||
    E'\tinfinite_time_partitions = ''f'',\n\tdatetime_string = NULL,\n\tsub_partition_set_full = ''f'',\n' ||
    E'\tinherit_privileges = ''f'',\n\tconstraint_valid = ''t'',\n\tignore_default_data = ''t'',\n' ||
    E'\tmaintenance_order = NULL,\n\tretention_keep_publication = ''f'',\n\tpartition_timezone = NULL\n' ||
    E'WHERE parent_table = ''public.tap_dx'';',
    'an integer set dumps pg_partman 5''s text exactly: one named argument per line, booleans as t/f');

CREATE TABLE public.tap_du (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT throws_ok($$SELECT partmgr.dump_partitioned_table_definition('public.tap_du')$$,
    '42704', 'table "public.tap_du" is not managed by pg_partmgr',
    'a table not managed by pg_partmgr');
SELECT alike(partmgr.dump_partitioned_table_definition('public.tap_px'), '%datetime_string = ''YYYY_MM_DD'',%',
    'an imported set dumps pg_partman 4''s datetime_string');
-- replaying it: create_parent runs before the UPDATE that restores datetime_string, so
-- a child it back-fills below the existing ones gets pg_partmgr's default name, as with
-- pg_partman's dump; the existing children stay as they are
CREATE TEMP TABLE tap_px_before AS SELECT * FROM public.tap_hi_bounds('public.tap_px');
DO $$
DECLARE
    s text := partmgr.dump_partitioned_table_definition('public.tap_px');
BEGIN
    DELETE FROM partmgr.part_config WHERE parent_table = 'public.tap_px';
    EXECUTE s;
END
$$;
SELECT is((SELECT count(*)::int FROM tap_px_before o
            WHERE NOT EXISTS (SELECT 1 FROM public.tap_hi_bounds('public.tap_px') n
                               WHERE n.child = o.child AND n.lo_t = o.lo_t)), 0,
    'replaying the dump of an imported set keeps every existing child, with its name and bounds');
SELECT is((SELECT datetime_string FROM partmgr.part_config WHERE parent_table = 'public.tap_px'), 'YYYY_MM_DD',
    'and restores pg_partman 4''s datetime_string for the children made later');

-- an epoch set (seconds) made by pg_partman 4.7
CREATE TABLE public.tap_pe (ts bigint NOT NULL, v int) PARTITION BY RANGE (ts);
SELECT partman.create_parent('public.tap_pe', 'ts', 'native', 'daily', p_epoch => 'seconds',
                             p_premake => 2);
CREATE TEMP TABLE tap_imp_e AS SELECT * FROM partmgr.import_partman_config('partman', 'public.tap_pe');
SELECT results_eq($$SELECT imported, children FROM tap_imp_e$$, $$VALUES (true, 5)$$,
    'epoch set from pg_partman 4.7 imported with its five children');
SELECT results_eq($$SELECT partition_type, epoch, template_table FROM partmgr.part_config
                     WHERE parent_table = 'public.tap_pe'$$,
    $$VALUES ('range'::text, 'seconds'::text, 'partman.template_public_tap_pe'::text)$$,
    'epoch set: its epoch and pg_partman''s template table are kept');
UPDATE partmgr.part_config SET premake = 4 WHERE parent_table = 'public.tap_pe';
INSERT INTO public.tap_pe VALUES (extract(epoch FROM now())::bigint, 1);
SELECT partmgr.run_maintenance('public.tap_pe');
SELECT results_eq(
    $$SELECT c.relname::text COLLATE "default", pg_get_expr(c.relpartbound, c.oid) COLLATE "default"
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'public.tap_pe'::regclass AND c.relname <> 'tap_pe_default'
       ORDER BY c.relname COLLATE "C" DESC LIMIT 1$$,
    $$SELECT 'tap_pe_p' || to_char(current_date + 4, 'YYYY_MM_DD'),
             format('FOR VALUES FROM (''%s'') TO (''%s'')',
                    extract(epoch FROM (current_date + 4)::timestamptz)::bigint,
                    extract(epoch FROM (current_date + 5)::timestamptz)::bigint)$$,
    'the imported epoch set maintained by pg_partmgr: the new child continues pg_partman''s names, bounds in seconds');

-- a sub-partitioned set made by pg_partman 4.7: ids by ten, each child by day
CREATE TABLE public.tap_ps (id bigint NOT NULL, ts timestamptz NOT NULL) PARTITION BY RANGE (id);
SELECT partman.create_parent('public.tap_ps', 'id', 'native', '10', p_premake => 1,
                             p_start_partition => '0');
SELECT partman.create_sub_parent('public.tap_ps', 'ts', 'native', 'daily', p_native_check => 'yes',
                                 p_premake => 1);
CREATE TEMP TABLE tap_imp_s AS
    SELECT i.* FROM partman.part_config c,
           LATERAL partmgr.import_partman_config('partman', c.parent_table) i
     WHERE c.parent_table LIKE 'public.tap_ps%';
SELECT results_eq($$SELECT parent_table, imported FROM tap_imp_s ORDER BY 1$$,
    $$VALUES ('public.tap_ps'::text, true), ('public.tap_ps_p0', true), ('public.tap_ps_p10', true)$$,
    'a sub-partitioned set from pg_partman 4.7 is imported with each of its sub-sets');
SELECT results_eq($$SELECT sub_control, sub_partition_interval, sub_partition_type, sub_premake
                      FROM partmgr.part_config_sub WHERE sub_parent = 'public.tap_ps'$$,
    $$VALUES ('ts'::text, '1 day'::text, 'range'::text, 1)$$,
    'with its part_config_sub row (pg_partman 4''s ''native'' type read as range, ''daily'' as 1 day)');
INSERT INTO public.tap_ps VALUES (15, now());
SELECT partmgr.run_maintenance('public.tap_ps');
SELECT results_eq($$SELECT c.relkind::text, p.partition_interval
                      FROM pg_class c, partmgr.part_config p
                     WHERE c.oid = 'public.tap_ps_p20'::regclass AND p.parent_table = 'public.tap_ps_p20'$$,
    $$VALUES ('p'::text, '1 day'::text)$$,
    'the imported set''s next child is made a sub-parent and registered, as pg_partman would');

SELECT * FROM finish();
ROLLBACK;
