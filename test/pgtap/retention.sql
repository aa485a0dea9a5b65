-- pgTAP tests of retention: drop_partition_time(), drop_partition_id() and
-- the retention step of run_maintenance().
--
-- Expired children (time: upper bound strictly before reference - retention,
-- in the set's zone; id: upper bound at most the largest id of the newest
-- child holding rows minus retention) are detached oldest first, then kept,
-- moved to retention_schema or dropped; kept ones lose their indexes and
-- publications when asked.  The last child of a set stays, a child whose
-- rows a foreign key still references stays (the key keeps working), bad
-- settings and arguments are refused before anything changes, and every
-- action is in maintenance_log.
--
-- Deterministic: sets in 2100 with explicit reference timestamps and ids;
-- the one set that run_maintenance() ages against now() has its old
-- children in 2000.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = error;
-- broken sets are part of the scenario: they are told by WARNING (maintenance.sql
-- tests the ERROR that ends a run by default)
SET pg_partmgr.on_set_failure = warning;

SELECT plan(93);

-- Attached children of a parent, by name (C order).
CREATE FUNCTION public.tap_ret_attached(p_parent regclass)
RETURNS SETOF text
LANGUAGE sql STABLE AS $$
    SELECT c.relname::text COLLATE "default"
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent
     ORDER BY c.relname COLLATE "C"
$$;

-- Where a table of that name lives and whether it is a partition:
-- 'schema.name partition' / 'schema.name standalone', NULL when there is none.
CREATE FUNCTION public.tap_ret_table(p_name text)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT string_agg(n.nspname || '.' || c.relname
                      || CASE WHEN c.relispartition THEN ' partition' ELSE ' standalone' END,
                      ', ' ORDER BY n.nspname)
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relname = p_name AND c.relkind IN ('r', 'p')
$$;

-- Retention rows of the maintenance log of a set, oldest first.
CREATE FUNCTION public.tap_ret_log(p_set text)
RETURNS TABLE (action text, object text, outcome text, sqlstate text, run_by text)
LANGUAGE sql STABLE AS $$
    SELECT l.action::text, l.object::text, l.outcome::text, l.sqlstate::text, l.run_by::text
      FROM partmgr.maintenance_log l
     WHERE l.parent_table = p_set AND l.action NOT IN ('create partition', 'create default partition')
     ORDER BY l.log_id
$$;

-- What a refused call must leave alone: every part_config row and every
-- relation (name, schema, partition or not) outside temporary schemas.
CREATE FUNCTION public.tap_ret_state()
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT (SELECT md5(coalesce(string_agg(pc::text, E'\n' ORDER BY pc.parent_table), ''))
              FROM partmgr.part_config pc)
        || ' / ' ||
           (SELECT md5(string_agg(c.oid::text || ' ' || c.relnamespace::text || ' ' || c.relname
                                  || ' ' || c.relispartition::text, E'\n' ORDER BY c.oid))
              FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname NOT LIKE 'pg\_temp\_%' AND n.nspname NOT LIKE 'pg\_toast\_temp\_%')
        || ' / log ' || (SELECT count(*) FROM partmgr.maintenance_log)
$$;

-- A daily time set with children for 2100-01-01 .. 2100-01-05 (UTC) and two
-- rows in each child, no retention configured.
CREATE FUNCTION public.tap_ret_daily(p_table text)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('CREATE TABLE public.%I (ts timestamptz NOT NULL, v int) PARTITION BY RANGE (ts)', p_table);
    PERFORM partmgr.create_parent('public.' || p_table, 'ts', '1 day', p_start_partition => '2100-01-01');
    PERFORM partmgr.create_partition_time('public.' || p_table,
        ARRAY['2100-01-02', '2100-01-03', '2100-01-04', '2100-01-05']::timestamptz[]);
    EXECUTE format('INSERT INTO public.%I SELECT timestamptz ''2100-01-01 03:00+00'' + g * interval ''12 hours'', g
                      FROM generate_series(0, 9) g', p_table);
END
$$;

------------------------------------------------------------------------------
-- time retention by drop_partition_time: detach, keep where it is
------------------------------------------------------------------------------
SELECT tap_ret_daily('tap_rt');

SELECT is(partmgr.drop_partition_time('public.tap_rt', '2 days', p_reference_timestamp => '2100-01-05 00:00+00'),
    1, 'horizon 2100-01-03: one child (ending 2100-01-02) retired, the one ending at the horizon kept');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_rt')$$,
    $$VALUES ('tap_rt_p21000102'), ('tap_rt_p21000103'), ('tap_rt_p21000104'), ('tap_rt_p21000105')$$,
    'show_partitions no longer lists the retired child');
SELECT is(tap_ret_table('tap_rt_p21000101'), 'public.tap_rt_p21000101 standalone',
    'the retired child is kept in its schema, no longer a partition');
SELECT is((SELECT count(*)::int FROM public.tap_rt_p21000101), 2, 'the kept child still holds its rows');
SELECT is((SELECT count(*)::int FROM public.tap_rt), 8, 'the parent no longer sees the retired child''s rows');
SELECT results_eq($$SELECT l.action::text, l.object::text, l.detail::text, l.outcome::text, l.run_by::text
                      FROM partmgr.maintenance_log l
                     WHERE l.parent_table = 'public.tap_rt' AND l.action = 'detach partition'$$,
    $$VALUES ('detach partition', 'public.tap_rt_p21000101',
              'for values from ''2100-01-01 00:00:00+00'' to ''2100-01-02 00:00:00+00''', 'done',
              'drop_partition_time')$$,
    'maintenance_log: one detach partition row with the bounds, done, run by drop_partition_time');

SELECT is(partmgr.drop_partition_time('public.tap_rt', '2 days', p_reference_timestamp => '2100-01-05 00:00:00.000001+00'),
    1, 'a microsecond later the child ending 2100-01-03 is strictly older than the horizon and retired');
SELECT is(tap_ret_table('tap_rt_p21000102'), 'public.tap_rt_p21000102 standalone',
    'the child ending 2100-01-03 is now detached');

UPDATE partmgr.part_config SET retention = '1 day' WHERE parent_table = 'public.tap_rt';
SELECT is(partmgr.drop_partition_time('public.tap_rt', p_reference_timestamp => '2100-01-05 00:00:01+00'),
    1, 'p_retention NULL: part_config.retention (1 day) is used');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_rt')$$,
    $$VALUES ('tap_rt_p21000104'), ('tap_rt_p21000105')$$,
    'configured retention of 1 day at 2100-01-05 00:00:01 retired the child ending 2100-01-04');

-- the last child of a set is never retired
SELECT is(partmgr.drop_partition_time('public.tap_rt', '1 day', p_reference_timestamp => '2101-01-01 00:00+00'),
    1, 'everything expired: all but the last child retired');
SELECT results_eq($$SELECT tap_ret_attached('public.tap_rt')$$,
    $$VALUES ('tap_rt_default'), ('tap_rt_p21000105')$$,
    'the last child (and the default partition) stay attached');
SELECT is(partmgr.drop_partition_time('public.tap_rt', '1 day', p_reference_timestamp => '2101-01-01 00:00+00'),
    0, 'a second call still keeps the last child');

------------------------------------------------------------------------------
-- keep_table = false drops
------------------------------------------------------------------------------
SELECT tap_ret_daily('tap_rd');

SELECT is(partmgr.drop_partition_time('public.tap_rd', '1 day', p_keep_table => false,
                                      p_reference_timestamp => '2100-01-04 00:00:01+00'),
    2, 'p_keep_table false: two expired children retired');
SELECT ok(to_regclass('public.tap_rd_p21000101') IS NULL AND to_regclass('public.tap_rd_p21000102') IS NULL,
    'p_keep_table false: the retired children are dropped');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_rd')$$,
    $$VALUES ('tap_rd_p21000103'), ('tap_rd_p21000104'), ('tap_rd_p21000105')$$,
    'the younger children stay attached');
SELECT results_eq($$SELECT * FROM tap_ret_log('public.tap_rd')$$,
    $$VALUES ('drop partition', 'public.tap_rd_p21000101', 'done', NULL, 'drop_partition_time'),
             ('drop partition', 'public.tap_rd_p21000102', 'done', NULL, 'drop_partition_time')$$,
    'maintenance_log: drop partition rows, oldest first');

UPDATE partmgr.part_config SET retention_keep_table = false WHERE parent_table = 'public.tap_rd';
SELECT partmgr.drop_partition_time('public.tap_rd', '1 day', p_reference_timestamp => '2100-01-05 00:00:01+00');
SELECT is(to_regclass('public.tap_rd_p21000103'), NULL,
    'p_retention given, p_keep_table NULL: retention_keep_table false from part_config drops');
SELECT partmgr.drop_partition_time('public.tap_rd', '1 day', p_keep_table => true,
                                   p_reference_timestamp => '2100-01-06 00:00:01+00');
SELECT is(tap_ret_table('tap_rd_p21000104'), 'public.tap_rd_p21000104 standalone',
    'p_keep_table true overrides retention_keep_table false: the child is kept');

------------------------------------------------------------------------------
-- retention_schema moves (keep_table is then ignored)
------------------------------------------------------------------------------
CREATE SCHEMA tap_arch;
CREATE SCHEMA "Tap Arch 2";
SELECT tap_ret_daily('tap_rs');

SELECT is(partmgr.drop_partition_time('public.tap_rs', '1 day', p_keep_table => false,
                                      p_retention_schema => 'tap_arch',
                                      p_reference_timestamp => '2100-01-04 00:00:01+00'),
    2, 'p_retention_schema: two expired children retired');
SELECT ok(tap_ret_table('tap_rs_p21000101') = 'tap_arch.tap_rs_p21000101 standalone'
          AND tap_ret_table('tap_rs_p21000102') = 'tap_arch.tap_rs_p21000102 standalone',
    'moved to the retention schema, detached, and not dropped although p_keep_table is false');
SELECT is((SELECT count(*)::int FROM tap_arch.tap_rs_p21000101), 2, 'the moved child keeps its rows');
SELECT results_eq($$SELECT * FROM tap_ret_log('public.tap_rs')$$,
    $$VALUES ('detach partition and move it', 'public.tap_rs_p21000101', 'done', NULL, 'drop_partition_time'),
             ('detach partition and move it', 'public.tap_rs_p21000102', 'done', NULL, 'drop_partition_time')$$,
    'maintenance_log: detach partition and move it rows');

-- the child's statistics objects go with it, but for one of another role
CREATE ROLE tap_ret_stats_other NOSUPERUSER;
CREATE STATISTICS public.tap_rs_st_a ON v, ts FROM public.tap_rs_p21000103;
CREATE STATISTICS public.tap_rs_st_b (ndistinct) ON v, ts FROM public.tap_rs_p21000103;
ALTER STATISTICS public.tap_rs_st_b OWNER TO tap_ret_stats_other;
UPDATE partmgr.part_config SET retention = '1 day', retention_schema = 'Tap Arch 2', retention_keep_table = false
 WHERE parent_table = 'public.tap_rs';
SELECT is(partmgr.drop_partition_time('public.tap_rs', p_reference_timestamp => '2100-01-05 00:00:01+00'),
    1, 'retention_schema from part_config: one child retired');
SELECT is(tap_ret_table('tap_rs_p21000103'), 'Tap Arch 2.tap_rs_p21000103 standalone',
    'moved into a configured schema whose name needs quoting');
SELECT results_eq($$SELECT s.stxname::text COLLATE "default", n.nspname::text COLLATE "default" FROM pg_statistic_ext s
                      JOIN pg_namespace n ON n.oid = s.stxnamespace
                     WHERE s.stxname IN ('tap_rs_st_a', 'tap_rs_st_b') ORDER BY 1$$,
    $$VALUES ('tap_rs_st_a', 'Tap Arch 2'), ('tap_rs_st_b', 'public')$$,
    'the moved child''s statistics object of its owner moves with it; another role''s stays');

------------------------------------------------------------------------------
-- keep_index = false drops indexes and constraint-backed indexes
------------------------------------------------------------------------------
CREATE TABLE public.tap_rx (id bigint NOT NULL, ts timestamptz NOT NULL, v int,
                            PRIMARY KEY (id, ts), UNIQUE (v, ts)) PARTITION BY RANGE (ts);
CREATE INDEX tap_rx_v ON public.tap_rx (v);
SELECT partmgr.create_parent('public.tap_rx', 'ts', '1 day', p_start_partition => '2100-01-01');
SELECT partmgr.create_partition_time('public.tap_rx', ARRAY['2100-01-02', '2100-01-03', '2100-01-04']::timestamptz[]);
CREATE INDEX tap_rx_p21000101_own ON public.tap_rx_p21000101 (id, v);
INSERT INTO public.tap_rx VALUES (1, '2100-01-01 01:00', 1), (2, '2100-01-02 01:00', 2);

SELECT is((SELECT count(*)::int FROM pg_index WHERE indrelid = 'public.tap_rx_p21000101'::regclass),
    4, 'before retention the oldest child has four indexes (pkey, unique, inherited, its own)');
SELECT is(partmgr.drop_partition_time('public.tap_rx', '1 day', p_keep_index => false,
                                      p_reference_timestamp => '2100-01-03 00:00:01+00'),
    1, 'p_keep_index false: one child retired');
SELECT is((SELECT count(*)::int FROM pg_index WHERE indrelid = 'public.tap_rx_p21000101'::regclass),
    0, 'p_keep_index false: the detached child has no index left');
SELECT is((SELECT count(*)::int FROM pg_constraint
            WHERE conrelid = 'public.tap_rx_p21000101'::regclass AND contype IN ('p', 'u')),
    0, 'p_keep_index false: its primary key and unique constraints are dropped');
SELECT is(tap_ret_table('tap_rx_p21000101'), 'public.tap_rx_p21000101 standalone',
    'p_keep_index false: the table itself is kept, detached');
SELECT is((SELECT count(*)::int FROM pg_constraint
            WHERE conrelid = 'public.tap_rx_p21000102'::regclass AND contype IN ('p', 'u')),
    2, 'the attached child keeps its primary key and unique constraints');

SELECT partmgr.drop_partition_time('public.tap_rx', '1 day', p_reference_timestamp => '2100-01-04 00:00:01+00');
SELECT is(tap_ret_table('tap_rx_p21000102'), 'public.tap_rx_p21000102 standalone',
    'keep_index true (default): the next child is detached');
SELECT results_eq($$SELECT conname::text COLLATE "default", contype::text FROM pg_constraint
                     WHERE conrelid = 'public.tap_rx_p21000102'::regclass AND contype IN ('p', 'u')
                     ORDER BY conname$$,
    $$VALUES ('tap_rx_p21000102_pkey', 'p'), ('tap_rx_p21000102_v_ts_key', 'u')$$,
    'keep_index true: the detached child keeps its primary key and unique constraint');
SELECT is((SELECT count(*)::int FROM pg_index WHERE indrelid = 'public.tap_rx_p21000102'::regclass),
    3, 'keep_index true: the detached child keeps its three indexes');

------------------------------------------------------------------------------
-- publications: removed when keep_publication is false (default), kept when true
------------------------------------------------------------------------------
SELECT tap_ret_daily('tap_rp');
CREATE PUBLICATION tap_pub_a FOR TABLE public.tap_rp_p21000101, public.tap_rp_p21000102;
CREATE PUBLICATION tap_pub_b FOR TABLE public.tap_rp_p21000101;

SELECT is(partmgr.drop_partition_time('public.tap_rp', '1 day', p_reference_timestamp => '2100-01-03 00:00:01+00'),
    1, 'publication set: one child retired');
SELECT is((SELECT count(*)::int FROM pg_publication_rel WHERE prrelid = 'public.tap_rp_p21000101'::regclass),
    0, 'keep_publication false: the child, kept and detached, left both publications that listed it');
SELECT results_eq($$SELECT p.pubname::text COLLATE "default" FROM pg_publication_rel r JOIN pg_publication p ON p.oid = r.prpubid
                     WHERE r.prrelid = 'public.tap_rp_p21000102'::regclass$$,
    $$VALUES ('tap_pub_a')$$,
    'the attached child is still published');

UPDATE partmgr.part_config SET retention_keep_publication = true WHERE parent_table = 'public.tap_rp';
SELECT partmgr.drop_partition_time('public.tap_rp', '1 day', p_reference_timestamp => '2100-01-04 00:00:01+00');
SELECT is(tap_ret_table('tap_rp_p21000102'), 'public.tap_rp_p21000102 standalone',
    'retention_keep_publication true: the next child is detached');
SELECT results_eq($$SELECT p.pubname::text COLLATE "default" FROM pg_publication_rel r JOIN pg_publication p ON p.oid = r.prpubid
                     WHERE r.prrelid = 'public.tap_rp_p21000102'::regclass$$,
    $$VALUES ('tap_pub_a')$$,
    'retention_keep_publication true: the detached child stays in its publication');

------------------------------------------------------------------------------
-- id retention by drop_partition_id
------------------------------------------------------------------------------
CREATE TABLE public.tap_ri (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_ri', 'id', '10', p_start_partition => '100', p_premake => 2);
SELECT partmgr.create_partition_id('public.tap_ri', ARRAY[130, 140, 150]::bigint[]);
INSERT INTO public.tap_ri VALUES (5000);   -- in the default partition only

SELECT is(partmgr.drop_partition_id('public.tap_ri', 0), 0,
    'id set without rows in its children (only in the default): nothing expires');

INSERT INTO public.tap_ri VALUES (101), (115), (125), (139);
SELECT is(partmgr.drop_partition_id('public.tap_ri', 20), 1,
    'largest id 139, retention 20: only the child ending at 110 (<= 119) is retired');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_ri')$$,
    $$VALUES ('tap_ri_p110'), ('tap_ri_p120'), ('tap_ri_p130'), ('tap_ri_p140'), ('tap_ri_p150')$$,
    'id set: the child ending at 120 is kept');
SELECT is(partmgr.drop_partition_id('public.tap_ri', 0), 2,
    'retention 0: children ending at 120 and 130 (<= 139) retired, the one ending at 140 kept');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_ri')$$,
    $$VALUES ('tap_ri_p130'), ('tap_ri_p140'), ('tap_ri_p150')$$,
    'id set after retention 0: the child holding the largest id and the empty ones above remain');
SELECT results_eq($$SELECT * FROM tap_ret_log('public.tap_ri')$$,
    $$VALUES ('detach partition', 'public.tap_ri_p100', 'done', NULL, 'drop_partition_id'),
             ('detach partition', 'public.tap_ri_p110', 'done', NULL, 'drop_partition_id'),
             ('detach partition', 'public.tap_ri_p120', 'done', NULL, 'drop_partition_id')$$,
    'maintenance_log: detach partition rows run by drop_partition_id');

------------------------------------------------------------------------------
-- a set in Asia/Tokyo: the horizon is computed in the set's zone
------------------------------------------------------------------------------
CREATE TABLE public.tap_rz (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_rz', 'ts', '1 day', p_start_partition => '2100-01-25',
                             p_time_zone => 'Asia/Tokyo');
SELECT partmgr.create_partition_time('public.tap_rz',
    (SELECT array_agg(timestamptz '2100-01-25 00:00+09' + g * interval '1 day') FROM generate_series(1, 8) g));
SET TimeZone = 'America/New_York';
-- 2100-03-01 00:00 in Tokyo minus one month is 2100-02-01 00:00 in Tokyo; in
-- UTC (or New York) it would be 2100-01-28 15:00 UTC and retire 3 children
SELECT is(partmgr.drop_partition_time('public.tap_rz', '1 month', p_reference_timestamp => '2100-03-01 00:00+09'),
    6, 'Tokyo set: one month before 2100-03-01 (Tokyo) retires the six children up to 2100-01-30');
SELECT is(partmgr.drop_partition_time('public.tap_rz', '1 month', p_reference_timestamp => '2100-03-01 05:00+09'),
    1, 'Tokyo set: five hours later the child of 2100-01-31 (ending at Tokyo midnight) expires');
SET TimeZone = 'UTC';
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_rz')$$,
    $$VALUES ('tap_rz_p21000201'), ('tap_rz_p21000202')$$,
    'Tokyo set: the February children remain');

------------------------------------------------------------------------------
-- foreign keys: a referenced child is kept attached, the others are retired
------------------------------------------------------------------------------
CREATE TABLE public.tap_rf (id bigint NOT NULL PRIMARY KEY) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_rf', 'id', '10', p_start_partition => '100', p_premake => 3);
CREATE TABLE public.tap_rf_ref (ref bigint REFERENCES public.tap_rf (id));
INSERT INTO public.tap_rf VALUES (101), (111), (125), (131);
INSERT INTO public.tap_rf_ref VALUES (101);

SELECT is(partmgr.drop_partition_id('public.tap_rf', 10, p_keep_table => false), 1,
    'FK: of two expired children only the unreferenced one counts as retired');
SELECT is(tap_ret_table('tap_rf_p100'), 'public.tap_rf_p100 partition',
    'FK: the referenced (older) child is kept, still attached');
SELECT is(to_regclass('public.tap_rf_p110'), NULL,
    'FK: the unreferenced expired child after it is still detached and dropped');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_rf')$$,
    $$VALUES ('tap_rf_p100'), ('tap_rf_p120'), ('tap_rf_p130')$$,
    'FK: show_partitions lists the kept child');
SELECT results_eq($$SELECT l.object::text, l.outcome::text, l.sqlstate::text, l.error::text
                      FROM partmgr.maintenance_log l
                     WHERE l.parent_table = 'public.tap_rf' AND l.action = 'drop partition' ORDER BY l.log_id$$,
    $$VALUES ('public.tap_rf_p100', 'skipped', '23503',
              'kept partition "tap_rf_p100" of "public.tap_rf": rows in it are still referenced by a foreign key'),
             ('public.tap_rf_p110', 'done', NULL, NULL)$$,
    'maintenance_log: the referenced child skipped with 23503, the other done');
SELECT is((SELECT count(*)::int FROM pg_constraint
            WHERE conrelid = 'public.tap_rf_ref'::regclass AND confrelid = 'public.tap_rf'::regclass
              AND contype = 'f'),
    1, 'FK: the foreign key of the referencing table still points at the parent');
SELECT throws_ok($$INSERT INTO public.tap_rf_ref VALUES (111)$$, '23503',
    'insert or update on table "tap_rf_ref" violates foreign key constraint "tap_rf_ref_ref_fkey"',
    'FK: a row referencing an id of the dropped child is rejected');
SELECT lives_ok($$INSERT INTO public.tap_rf_ref VALUES (101), (131)$$,
    'FK: rows referencing ids still in the set are accepted');

DELETE FROM public.tap_rf_ref WHERE ref = 101;
SELECT is(partmgr.drop_partition_id('public.tap_rf', 10, p_keep_table => false), 1,
    'FK: once no longer referenced the child is retired by the next call');
SELECT is(to_regclass('public.tap_rf_p100'), NULL, 'FK: ... and dropped');

------------------------------------------------------------------------------
-- bad input: refused with its SQLSTATE, nothing changed
------------------------------------------------------------------------------
SELECT tap_ret_daily('tap_rb');
CREATE TABLE public.tap_rbi (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_rbi', 'id', '10', p_start_partition => '100', p_premake => 2);
INSERT INTO public.tap_rbi VALUES (101), (125);
CREATE ROLE tap_ret_owner;
CREATE TABLE public.tap_rown (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
ALTER TABLE public.tap_rown OWNER TO tap_ret_owner;
GRANT USAGE ON SCHEMA partmgr TO tap_ret_owner;
GRANT ALL ON ALL TABLES IN SCHEMA partmgr TO tap_ret_owner;
GRANT ALL ON ALL SEQUENCES IN SCHEMA partmgr TO tap_ret_owner;
SELECT partmgr.create_parent('public.tap_rown', 'ts', '1 day', p_start_partition => '2100-01-01');
SELECT partmgr.create_partition_time('public.tap_rown', ARRAY['2100-01-02', '2100-01-03']::timestamptz[]);

CREATE TEMP TABLE tap_ret_before AS SELECT tap_ret_state() AS state;

SELECT throws_ok($$SELECT partmgr.drop_partition_time('public.tap_rbi', '1 day')$$, '22023',
    '"public.tap_rbi" is not a time partition set', 'drop_partition_time on an id set');
SELECT throws_ok($$SELECT partmgr.drop_partition_id('public.tap_rb', 1)$$, '22023',
    '"public.tap_rb" is not an id partition set', 'drop_partition_id on a time set');
SELECT throws_ok($$SELECT partmgr.drop_partition_id('public.tap_rbi', -1)$$, '22023',
    'p_retention must not be negative, not -1', 'drop_partition_id with a negative p_retention');
SELECT throws_ok($$SELECT partmgr.drop_partition_time('public.tap_rb', '-1 day', p_reference_timestamp => '2101-01-01')$$,
    '22023', 'p_retention must be a positive interval', 'drop_partition_time with a negative p_retention');
SELECT throws_ok($$SELECT partmgr.drop_partition_time('public.tap_rb', '0 seconds', p_reference_timestamp => '2101-01-01')$$,
    '22023', 'p_retention must be a positive interval', 'drop_partition_time with a zero p_retention');
SELECT throws_ok($$SELECT partmgr.drop_partition_time('public.tap_rb', p_reference_timestamp => '2101-01-01')$$,
    '55000', 'partition set "public.tap_rb" has no retention',
    'drop_partition_time without p_retention on a set without retention');
SELECT throws_ok($$SELECT partmgr.drop_partition_id('public.tap_rbi')$$,
    '55000', 'partition set "public.tap_rbi" has no retention',
    'drop_partition_id without p_retention on a set without retention');
SELECT throws_ok($$SELECT partmgr.drop_partition_time('public.tap_rb', '1 day', p_retention_schema => 'tap_nowhere',
                                                      p_reference_timestamp => '2101-01-01')$$,
    '3F000', 'retention schema "tap_nowhere" of partition set "public.tap_rb" does not exist',
    'p_retention_schema that does not exist');
-- functions act with the caller's rights: the owner calling, the owner's rights count
SET ROLE tap_ret_owner;
SELECT throws_ok($$SELECT partmgr.drop_partition_time('public.tap_rown', '1 day', p_retention_schema => 'tap_arch',
                                                      p_reference_timestamp => '2101-01-01')$$,
    '42501', 'role "tap_ret_owner" may not create tables in retention schema "tap_arch" of partition set "public.tap_rown"',
    'retention schema where the calling table owner may not create tables');
RESET ROLE;
SELECT is(tap_ret_state(), (SELECT state FROM tap_ret_before),
    'refused drop_partition_* calls changed neither part_config nor any relation');

-- bad configured values
UPDATE partmgr.part_config SET retention = 'thirty days' WHERE parent_table = 'public.tap_rb';
UPDATE partmgr.part_config SET retention = '2.5' WHERE parent_table = 'public.tap_rbi';
UPDATE partmgr.part_config SET retention = '1 day', retention_schema = 'tap_arch' WHERE parent_table = 'public.tap_rown';
DELETE FROM tap_ret_before;
INSERT INTO tap_ret_before SELECT tap_ret_state();

SELECT throws_ok($$SELECT partmgr.drop_partition_time('public.tap_rb', p_reference_timestamp => '2101-01-01')$$,
    '22023', 'retention "thirty days" of partition set "public.tap_rb" is not a positive interval',
    'configured time retention that is not an interval');
SELECT throws_ok($$SELECT partmgr.run_maintenance('public.tap_rb')$$,
    '22023', 'retention "thirty days" of partition set "public.tap_rb" is not a positive interval',
    'run_maintenance of the named set with a bad time retention is an ERROR');
UPDATE partmgr.part_config SET retention = '-30 days' WHERE parent_table = 'public.tap_rb';
SELECT throws_ok($$SELECT partmgr.drop_partition_time('public.tap_rb', p_reference_timestamp => '2101-01-01')$$,
    '22023', 'retention "-30 days" of partition set "public.tap_rb" is not a positive interval',
    'configured negative time retention');
UPDATE partmgr.part_config SET retention = '0 days' WHERE parent_table = 'public.tap_rb';
SELECT throws_ok($$SELECT partmgr.drop_partition_time('public.tap_rb', p_reference_timestamp => '2101-01-01')$$,
    '22023', 'retention "0 days" of partition set "public.tap_rb" is not a positive interval',
    'configured zero time retention');
SELECT throws_ok($$SELECT partmgr.drop_partition_id('public.tap_rbi')$$,
    '22023', 'retention "2.5" of partition set "public.tap_rbi" is not a whole number of zero or more',
    'configured id retention that is not a whole number');
UPDATE partmgr.part_config SET retention = '-5' WHERE parent_table = 'public.tap_rbi';
SELECT throws_ok($$SELECT partmgr.drop_partition_id('public.tap_rbi')$$,
    '22023', 'retention "-5" of partition set "public.tap_rbi" is not a whole number of zero or more',
    'configured negative id retention');
SELECT throws_ok($$SELECT partmgr.run_maintenance('public.tap_rbi')$$,
    '22023', 'retention "-5" of partition set "public.tap_rbi" is not a whole number of zero or more',
    'run_maintenance of the named set with a bad id retention is an ERROR');
SET ROLE tap_ret_owner;
SELECT throws_ok($$SELECT partmgr.drop_partition_time('public.tap_rown', p_reference_timestamp => '2101-01-01')$$,
    '42501', 'role "tap_ret_owner" may not create tables in retention schema "tap_arch" of partition set "public.tap_rown"',
    'configured retention schema where the calling table owner may not create tables');
SELECT throws_ok($$SELECT partmgr.run_maintenance('public.tap_rown')$$,
    '42501', 'role "tap_ret_owner" may not create tables in retention schema "tap_arch" of partition set "public.tap_rown"',
    'run_maintenance of the named set with a forbidden retention schema is an ERROR');
RESET ROLE;
UPDATE partmgr.part_config SET retention_schema = 'tap_nowhere' WHERE parent_table = 'public.tap_rown';
SELECT throws_ok($$SELECT partmgr.drop_partition_time('public.tap_rown', p_reference_timestamp => '2101-01-01')$$,
    '3F000', 'retention schema "tap_nowhere" of partition set "public.tap_rown" does not exist',
    'configured retention schema that does not exist');
UPDATE partmgr.part_config SET retention = 'thirty days' WHERE parent_table = 'public.tap_rb';
UPDATE partmgr.part_config SET retention = '2.5' WHERE parent_table = 'public.tap_rbi';
UPDATE partmgr.part_config SET retention_schema = 'tap_arch' WHERE parent_table = 'public.tap_rown';
SELECT is(tap_ret_state(), (SELECT state FROM tap_ret_before),
    'refused calls with bad configured retention changed neither part_config nor any relation');

-- explicit arguments replace the configured values (pg_partman: NULL arguments
-- take part_config's), so a bad configured value they replace is not in the way
-- (both once failed: the configured values were read and checked first)
SELECT lives_ok($$SELECT partmgr.drop_partition_time('public.tap_rb', '1 day',
                                                     p_reference_timestamp => '2100-01-02 00:00:01+00')$$,
    'p_retention given: a bad part_config.retention is not used, so not an error');
UPDATE partmgr.part_config SET retention_schema = 'tap_nowhere' WHERE parent_table = 'public.tap_rt';
SELECT lives_ok($$SELECT partmgr.drop_partition_time('public.tap_rt', p_retention_schema => 'tap_arch',
                                                     p_reference_timestamp => '2100-01-02 00:00:01+00')$$,
    'p_retention_schema given: a missing configured retention_schema is not used, so not an error');
UPDATE partmgr.part_config SET retention_schema = NULL WHERE parent_table = 'public.tap_rt';

------------------------------------------------------------------------------
-- run_maintenance(): premake then retention in the same run; a bad
-- retention is a WARNING for its set only
------------------------------------------------------------------------------
UPDATE partmgr.part_config SET automatic_maintenance = 'off';

-- id set, retention from part_config
CREATE TABLE public.tap_rm (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_rm', 'id', '10', p_start_partition => '100', p_premake => 2);
INSERT INTO public.tap_rm VALUES (125);
UPDATE partmgr.part_config SET retention = '10' WHERE parent_table = 'public.tap_rm';

-- time set aged against now(): children in 2000 and 2100, rows in both
CREATE TABLE public.tap_rmt (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_rmt', 'ts', '1 day', p_start_partition => '2100-01-01', p_premake => 2);
SELECT partmgr.create_partition_time('public.tap_rmt', ARRAY['2000-01-01', '2000-01-02', '2000-01-03']::timestamptz[]);
INSERT INTO public.tap_rmt VALUES ('2000-01-02 05:00'), ('2100-01-01 05:00');
UPDATE partmgr.part_config SET retention = '1 day', retention_keep_table = false WHERE parent_table = 'public.tap_rmt';

-- broken: a premake to do and an id retention that does not parse; maintained first
UPDATE partmgr.part_config SET retention = 'ten', automatic_maintenance = 'on', maintenance_order = 1
 WHERE parent_table = 'public.tap_rbi';
UPDATE partmgr.part_config SET maintenance_order = 2 WHERE parent_table IN ('public.tap_rm', 'public.tap_rmt');

SELECT lives_ok($$SELECT partmgr.run_maintenance()$$,
    'run_maintenance() with one set''s retention broken is not an error');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_rm')$$,
    $$VALUES ('tap_rm_p110'), ('tap_rm_p120'), ('tap_rm_p130'), ('tap_rm_p140')$$,
    'id set: the same run created 130 and 140 (premake) and retired 100 (largest id 125, retention 10)');
SELECT is(tap_ret_table('tap_rm_p100'), 'public.tap_rm_p100 standalone',
    'id set: the retired child is kept (retention_keep_table true)');
SELECT results_eq($$SELECT l.action::text, l.object::text, l.outcome::text, l.run_by::text
                      FROM partmgr.maintenance_log l
                     WHERE l.parent_table = 'public.tap_rm' AND l.run_by = 'run_maintenance' ORDER BY l.log_id$$,
    $$VALUES ('create partition', 'public.tap_rm_p130', 'done', 'run_maintenance'),
             ('create partition', 'public.tap_rm_p140', 'done', 'run_maintenance'),
             ('detach partition', 'public.tap_rm_p100', 'done', 'run_maintenance')$$,
    'maintenance_log: premake first, then retention, run by run_maintenance');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_rmt')$$,
    $$VALUES ('tap_rmt_p21000101'), ('tap_rmt_p21000102'), ('tap_rmt_p21000103')$$,
    'time set: the children of 2000 retired and the 2100 premake created in the same run');
SELECT ok(to_regclass('public.tap_rmt_p20000101') IS NULL AND to_regclass('public.tap_rmt_p20000102') IS NULL
          AND to_regclass('public.tap_rmt_p20000103') IS NULL,
    'time set: the children of 2000 are dropped (retention_keep_table false)');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_rbi')$$,
    $$VALUES ('tap_rbi_p100'), ('tap_rbi_p110'), ('tap_rbi_p120'), ('tap_rbi_p130'), ('tap_rbi_p140')$$,
    'broken set: its premake was still done (130, 140) and no child was retired');
SELECT results_eq($$SELECT l.action::text, l.outcome::text, l.sqlstate::text, l.error::text, l.run_by::text
                      FROM partmgr.maintenance_log l
                     WHERE l.parent_table = 'public.tap_rbi' AND l.run_by = 'run_maintenance'
                       AND l.action <> 'create partition'$$,
    $$VALUES ('apply retention', 'failed', '22023',
              'retention "ten" of partition set "public.tap_rbi" is not a whole number of zero or more',
              'run_maintenance')$$,
    'maintenance_log: the broken set''s retention failed with 22023 and a message naming the set');
SELECT is((SELECT retention FROM partmgr.part_config WHERE parent_table = 'public.tap_rbi'), 'ten',
    'broken set: its configuration is left as it was');

-- a superuser calling moves the owner's expired child into a schema the owner
-- may not create tables in, as pg_partman does (the caller's rights count)
SELECT is(partmgr.drop_partition_time('public.tap_rown', '1 day', p_retention_schema => 'tap_arch',
                                      p_reference_timestamp => '2100-01-03 00:00:01+00'),
          1, 'superuser caller: the expired child of the owner''s set is moved');
SELECT is(tap_ret_table('tap_rown_p21000101'), 'tap_arch.tap_rown_p21000101 standalone',
          'superuser caller: it is in tap_arch now');

SELECT * FROM finish();
ROLLBACK;
