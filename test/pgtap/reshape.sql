-- pgTAP tests of the online reshapes of range sets: split_partition,
-- merge_partitions, run_reshape and cancel_reshape.  Inside a transaction a
-- CALL is atomic, so each reshape runs whole in the test's transaction.
-- A split keeps every row and every property of the child it replaces,
-- records the new children's interval in part_config_interval, and leaves
-- nothing of its work behind; the functions that compute a child's range or
-- name follow the new grid; a registered reshape is shown, resumed, carried
-- out or cancelled; bad input gets its SQLSTATE and changes nothing; only
-- the set's owner reshapes its set, the statements run as that owner, the
-- change capture trigger writes no other role's table, and a reshape row
-- another role writes under a set of its own binds none of the owner's
-- children.  Dates lie in 2030, so that no child depends on today's date
-- (the one set retention expires starts three days before now()).
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = warning;

SELECT plan(167);

-- each child of a set but the default, with its bound, by name
CREATE FUNCTION public.rs_bounds(p_parent regclass)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT string_agg(c.relname || ' ' || pg_get_expr(c.relpartbound, c.oid), E'\n'
                      ORDER BY c.relname COLLATE "C")
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent AND c.relname !~ '_default$'
$$;

-- how many rows a table holds and a checksum of them
CREATE FUNCTION public.rs_rows(p_table text)
RETURNS text
LANGUAGE plpgsql STABLE AS $$
DECLARE
    r text;
BEGIN
    EXECUTE format('SELECT count(*) || '' '' || coalesce(sum(hashtext(t::text)), 0) FROM %s t', p_table::regclass)
       INTO r;
    RETURN r;
END
$$;

-- the configuration of every set, the registered reshapes, the tables,
-- triggers and constraints of the test's schemas and the rows of the
-- main set: what a call that fails must leave as it was
CREATE FUNCTION public.rs_state()
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT concat_ws(E'\n',
        (SELECT string_agg(parent_table || ' ' || partition_interval || ' ' || coalesce(datetime_string, '-'),
                           ';' ORDER BY parent_table) FROM partmgr.part_config),
        (SELECT string_agg(parent_table || ' ' || interval_end || ' ' || partition_interval || ' ' ||
                           coalesce(datetime_string, '-') || ' ' || next_aligned,
                           ';' ORDER BY parent_table, interval_end) FROM partmgr.part_config_interval),
        (SELECT string_agg(parent_table || ' ' || kind || ' ' || source_tables::text || ' ' ||
                           target_tables::text || ' ' || target_bounds::text || ' ' || phase || ' ' ||
                           coalesce(last_error, '-'), ';' ORDER BY operation_id)
           FROM partmgr.reshape_operation),
        (SELECT string_agg(n.nspname || '.' || c.relname || ' ' || c.relkind::text, ';'
                           ORDER BY n.nspname, c.relname COLLATE "C")
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname IN ('rs', 'rs_mal', 'public')),
        (SELECT string_agg(t.tgrelid::regclass || ' ' || t.tgname, ';' ORDER BY 1)
           FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname IN ('rs', 'rs_mal', 'public') AND NOT t.tgisinternal),
        (SELECT string_agg(c.conrelid::regclass || ' ' || c.conname || ' ' || c.convalidated, ';' ORDER BY 1)
           FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
          WHERE n.nspname IN ('rs', 'rs_mal')),
        (SELECT public.rs_rows('rs.t')))
$$;

------------------------------------------------------------------------------
-- roles: the owner of the sets, a role the owner grants to, an attacker;
-- each with the grants the documentation asks for
------------------------------------------------------------------------------
CREATE ROLE rs_owner NOSUPERUSER;
CREATE ROLE rs_other NOSUPERUSER;
CREATE ROLE rs_mallory NOSUPERUSER;
GRANT USAGE, CREATE ON SCHEMA partmgr TO rs_owner, rs_mallory;
GRANT SELECT, INSERT, UPDATE, DELETE ON partmgr.part_config, partmgr.part_config_sub,
      partmgr.part_config_interval, partmgr.reshape_operation, partmgr.maintenance_log
   TO rs_owner, rs_mallory;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA partmgr TO rs_owner, rs_mallory;
CREATE SCHEMA rs AUTHORIZATION rs_owner;
CREATE SCHEMA rs_mal AUTHORIZATION rs_mallory;
GRANT USAGE ON SCHEMA rs TO rs_mallory;

-- a superuser's table no plain role may write; shaped like a change log
CREATE TABLE public.rs_secret (id bigint, partmgr_claimed boolean NOT NULL DEFAULT false,
                               partmgr_truncated boolean NOT NULL DEFAULT false);

------------------------------------------------------------------------------
-- 1. a daily child split into children of 6 hours, by a superuser
------------------------------------------------------------------------------
SET ROLE rs_owner;
CREATE TABLE rs.t (id bigint NOT NULL, ts timestamptz NOT NULL, v text,
                   PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('rs.t', 'ts', '1 day', p_premake => 3, p_start_partition => '2030-01-01');
INSERT INTO rs.t VALUES (0, '2030-01-01 10:00', 'first');
SELECT partmgr.run_maintenance('rs.t');
-- 85 rows every 17 minutes through 2030-01-02, 24 hourly ones on 2030-01-03
INSERT INTO rs.t SELECT g, '2030-01-02'::timestamptz + (g - 1) * interval '17 minutes', 'v' || g
  FROM generate_series(1, 85) g;
INSERT INTO rs.t SELECT 100 + g, '2030-01-03'::timestamptz + g * interval '1 hour', 'w' || g
  FROM generate_series(0, 23) g;
-- what the child to split has of its own: a grant, an index, CHECK
-- constraints (one of them calls a function that records who evaluates
-- it and with which search_path, and tries the superuser's table), a
-- statistics target
CREATE TABLE rs.audit (who text, path text);
CREATE FUNCTION rs.seen(p text) RETURNS boolean
LANGUAGE plpgsql AS $f$
BEGIN
    INSERT INTO rs.audit VALUES (current_user, current_setting('search_path'));
    BEGIN
        INSERT INTO public.rs_secret (id) VALUES (length(p));
    EXCEPTION WHEN insufficient_privilege THEN
        NULL;
    END;
    RETURN true;
END
$f$;
GRANT SELECT ON rs.t_p20300102 TO rs_other;
CREATE INDEX t_p20300102_v_idx ON rs.t_p20300102 (v);
ALTER TABLE rs.t_p20300102 ADD CONSTRAINT v_short CHECK (length(v) < 50);
ALTER TABLE rs.t_p20300102 ADD CONSTRAINT v_seen CHECK (rs.seen(v));
ALTER TABLE rs.t_p20300102 ALTER COLUMN v SET STATISTICS 500;
DELETE FROM rs.audit;
RESET ROLE;

CREATE TEMP TABLE rs_before AS
SELECT public.rs_rows('rs.t') AS rows_all, public.rs_state() AS state,
       (SELECT coalesce(string_agg(parent_table || ' ' || interval_end || ' ' || partition_interval, ';'
                                   ORDER BY interval_end), '')
          FROM partmgr.part_config_interval WHERE parent_table = 'rs.t') AS eras;

SELECT lives_ok($$CALL partmgr.split_partition('rs.t_p20300102', p_interval => '6 hours', p_quiet => true)$$,
                'split_partition splits a daily child into children of 6 hours, called by a superuser');
SELECT is(rs_bounds('rs.t'),
$$t_p20300101 FOR VALUES FROM ('2030-01-01 00:00:00+00') TO ('2030-01-02 00:00:00+00')
t_p20300102_000000 FOR VALUES FROM ('2030-01-02 00:00:00+00') TO ('2030-01-02 06:00:00+00')
t_p20300102_060000 FOR VALUES FROM ('2030-01-02 06:00:00+00') TO ('2030-01-02 12:00:00+00')
t_p20300102_120000 FOR VALUES FROM ('2030-01-02 12:00:00+00') TO ('2030-01-02 18:00:00+00')
t_p20300102_180000 FOR VALUES FROM ('2030-01-02 18:00:00+00') TO ('2030-01-03 00:00:00+00')
t_p20300103 FOR VALUES FROM ('2030-01-03 00:00:00+00') TO ('2030-01-04 00:00:00+00')
t_p20300104 FOR VALUES FROM ('2030-01-04 00:00:00+00') TO ('2030-01-05 00:00:00+00')$$,
          'four children of 6 hours, named with the YYYYMMDD_HH24MISS suffix, replace the daily one');
SELECT is(to_regclass('rs.t_p20300102'), NULL, 'the old child is gone');
SELECT is(rs_rows('rs.t'), (SELECT rows_all FROM rs_before), 'every row is kept: count and checksum as before');
SELECT results_eq($$SELECT tableoid::regclass::text, count(*)::int, min(ts), max(ts) FROM rs.t
                     WHERE ts >= '2030-01-02' AND ts < '2030-01-03' GROUP BY 1 ORDER BY 1$$,
                  $$VALUES ('rs.t_p20300102_000000', 22, '2030-01-02 00:00+00'::timestamptz, '2030-01-02 05:57+00'::timestamptz),
                           ('rs.t_p20300102_060000', 21, '2030-01-02 06:14+00', '2030-01-02 11:54+00'),
                           ('rs.t_p20300102_120000', 21, '2030-01-02 12:11+00', '2030-01-02 17:51+00'),
                           ('rs.t_p20300102_180000', 21, '2030-01-02 18:08+00', '2030-01-02 23:48+00')$$,
                  'each row is in the new child of its six hours');
SELECT is((SELECT count(*)::int FROM ONLY rs.t_default), 0, 'no row went to the default partition');
SELECT is((SELECT string_agg(interval_end || ' ' || partition_interval || ' ' || datetime_string || ' ' || next_aligned, ';'
                             ORDER BY interval_end)
             FROM partmgr.part_config_interval WHERE parent_table = 'rs.t'),
          '2030-01-02 00:00:00+00 1 day YYYYMMDD true;2030-01-03 00:00:00+00 06:00:00 YYYYMMDD_HH24MISS false',
          'part_config_interval: days up to the split child, then its 6 hours, starting at its bound');
SELECT is((SELECT partition_interval || ' ' || datetime_string FROM partmgr.part_config WHERE parent_table = 'rs.t'),
          '1 day YYYYMMDD', 'part_config keeps the daily interval for the children after it');

-- what the new children got
CREATE TEMP VIEW rs_new AS
SELECT c.oid, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'rs' AND c.relname ~ '^t_p20300102_\d{6}$';
SELECT is((SELECT count(*)::int FROM rs_new), 4, 'four new children');
SELECT is((SELECT count(*)::int FROM rs_new n JOIN pg_index i ON i.indrelid = n.oid AND i.indisprimary
             JOIN pg_inherits h ON h.inhrelid = i.indexrelid AND h.inhparent = 'rs.t_pkey'::regclass),
          4, 'each has a primary key, attached to the parent''s');
SELECT is((SELECT count(*)::int FROM rs_new n JOIN pg_class c ON c.oid = n.oid
            WHERE c.relowner = 'rs_owner'::regrole), 4, 'each belongs to the parent''s owner');
SELECT is((SELECT count(*)::int FROM rs_new n
            WHERE has_table_privilege('rs_other', n.oid, 'SELECT')
              AND NOT has_table_privilege('rs_other', n.oid, 'INSERT')), 4,
          'each has the old child''s grant of SELECT to another role');
SELECT is((SELECT count(*)::int FROM rs_new n JOIN pg_index i ON i.indrelid = n.oid
            WHERE pg_get_indexdef(i.indexrelid) LIKE '%USING btree (v)'
              AND NOT i.indisprimary), 4, 'each has the old child''s own index on v');
SELECT is((SELECT count(*)::int FROM rs_new n JOIN pg_constraint c ON c.conrelid = n.oid
            WHERE c.conname = 'v_short' AND pg_get_constraintdef(c.oid) = 'CHECK ((length(v) < 50))'
              AND c.convalidated), 4, 'each has the old child''s CHECK constraint, validated');
SELECT is((SELECT count(*)::int FROM rs_new n JOIN pg_constraint c ON c.conrelid = n.oid
            WHERE c.conname LIKE 'partmgr%'), 0, 'none keeps a CHECK of pg_partmgr''s own (its bound)');
SELECT is((SELECT count(*)::int FROM rs_new n JOIN pg_attribute a ON a.attrelid = n.oid
            WHERE a.attname = 'v' AND a.attstattarget = 500), 4,
          'each has the old child''s statistics target on v');
SELECT results_eq($$SELECT DISTINCT who, path FROM rs.audit$$, $$VALUES ('rs_owner'::text, 'pg_catalog, pg_temp'::text)$$,
                  'the owner''s CHECK function ran as the owner, not as the superuser who called, search_path pinned');
SELECT is((SELECT count(*)::int FROM public.rs_secret), 0,
          'and could not write the superuser''s table');
SELECT is((SELECT count(*)::int FROM pg_constraint WHERE conrelid = 'rs.t_default'::regclass
            AND conname LIKE 'partmgr_reshape%'), 0,
          'the default partition keeps no partmgr_reshape_* constraint');
SELECT is((SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'rs' AND c.relname ~ '_reshape\d'), 0,
          'no working table (staging table, change log) is left');
SELECT is((SELECT count(*)::int FROM pg_trigger WHERE tgname LIKE 'partmgr_reshape%'), 0,
          'no change capture trigger is left');
SELECT is((SELECT count(*)::int FROM partmgr.reshape_operation), 0, 'reshape_operation is empty');
SELECT is((SELECT string_agg(action || ' ' || outcome, ',' ORDER BY log_id) FROM partmgr.maintenance_log
            WHERE parent_table = 'rs.t' AND action IN ('register reshape', 'swap partitions')),
          'register reshape done,swap partitions done', 'maintenance_log has the registration and the swap');

------------------------------------------------------------------------------
-- 2. splits at explicit bounds, id sets, merges
------------------------------------------------------------------------------
UPDATE rs_before SET rows_all = rs_rows('rs.t_p20300103');
SELECT lives_ok($$CALL partmgr.split_partition('rs.t_p20300103',
                      p_bounds => ARRAY['2030-01-03 18:00', '2030-01-03 06:00'], p_quiet => true)$$,
                'split_partition at explicit bounds given out of order');
SELECT is(rs_bounds('rs.t'),
$$t_p20300101 FOR VALUES FROM ('2030-01-01 00:00:00+00') TO ('2030-01-02 00:00:00+00')
t_p20300102_000000 FOR VALUES FROM ('2030-01-02 00:00:00+00') TO ('2030-01-02 06:00:00+00')
t_p20300102_060000 FOR VALUES FROM ('2030-01-02 06:00:00+00') TO ('2030-01-02 12:00:00+00')
t_p20300102_120000 FOR VALUES FROM ('2030-01-02 12:00:00+00') TO ('2030-01-02 18:00:00+00')
t_p20300102_180000 FOR VALUES FROM ('2030-01-02 18:00:00+00') TO ('2030-01-03 00:00:00+00')
t_p20300103_000000 FOR VALUES FROM ('2030-01-03 00:00:00+00') TO ('2030-01-03 06:00:00+00')
t_p20300103_060000 FOR VALUES FROM ('2030-01-03 06:00:00+00') TO ('2030-01-03 18:00:00+00')
t_p20300103_180000 FOR VALUES FROM ('2030-01-03 18:00:00+00') TO ('2030-01-04 00:00:00+00')
t_p20300104 FOR VALUES FROM ('2030-01-04 00:00:00+00') TO ('2030-01-05 00:00:00+00')$$,
          'the bounds are sorted: three children, of 6, 12 and 6 hours, named to the second');
SELECT results_eq($$SELECT tableoid::regclass::text, count(*)::int FROM rs.t
                     WHERE ts >= '2030-01-03' AND ts < '2030-01-04' GROUP BY 1 ORDER BY 1$$,
                  $$VALUES ('rs.t_p20300103_000000', 6), ('rs.t_p20300103_060000', 12), ('rs.t_p20300103_180000', 6)$$,
                  'the 24 hourly rows are split 6, 12, 6');
SELECT is((SELECT count(*) || ' ' || sum(hashtext(t::text)) FROM rs.t t
            WHERE ts >= '2030-01-03' AND ts < '2030-01-04'), (SELECT rows_all FROM rs_before),
          'and they are the rows of the old child');
SELECT is((SELECT string_agg(interval_end || ' ' || partition_interval, ';' ORDER BY interval_end)
             FROM partmgr.part_config_interval WHERE parent_table = 'rs.t'),
          '2030-01-02 00:00:00+00 1 day;2030-01-03 06:00:00+00 06:00:00;' ||
          '2030-01-03 18:00:00+00 12:00:00;2030-01-04 00:00:00+00 06:00:00',
          'part_config_interval: each piece cut at explicit bounds follows an interval of its own length (the first 6 hours continue the split''s)');

-- an id set: children of 100 split into 25, at bounds, and merged
SET ROLE rs_owner;
CREATE TABLE rs.i (id bigint PRIMARY KEY, v text) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('rs.i', 'id', '100', p_premake => 4, p_start_partition => '0');
INSERT INTO rs.i SELECT g, 'v' || g FROM generate_series(0, 450, 3) g;
SELECT partmgr.run_maintenance('rs.i');
RESET ROLE;
UPDATE rs_before SET rows_all = rs_rows('rs.i'),
       eras = (SELECT coalesce(string_agg(interval_end || ' ' || partition_interval, ';' ORDER BY interval_end), '')
                 FROM partmgr.part_config_interval WHERE parent_table = 'rs.i');
SELECT lives_ok($$CALL partmgr.split_partition('rs.i_p100', '25', p_quiet => true)$$,
                'split_partition of an id child of 100 into children of 25');
SELECT is(rs_bounds('rs.i'),
$$i_p0 FOR VALUES FROM ('0') TO ('100')
i_p100 FOR VALUES FROM ('100') TO ('125')
i_p125 FOR VALUES FROM ('125') TO ('150')
i_p150 FOR VALUES FROM ('150') TO ('175')
i_p175 FOR VALUES FROM ('175') TO ('200')
i_p200 FOR VALUES FROM ('200') TO ('300')
i_p300 FOR VALUES FROM ('300') TO ('400')
i_p400 FOR VALUES FROM ('400') TO ('500')
i_p500 FOR VALUES FROM ('500') TO ('600')
i_p600 FOR VALUES FROM ('600') TO ('700')
i_p700 FOR VALUES FROM ('700') TO ('800')
i_p800 FOR VALUES FROM ('800') TO ('900')$$,
          'four children of 25 named by their lower bound, the first taking the old child''s name');
SELECT is((SELECT string_agg(tableoid::regclass || ':' || n, ',' ORDER BY tableoid::regclass::text)
             FROM (SELECT tableoid, count(*) AS n FROM rs.i WHERE id >= 100 AND id < 200 GROUP BY 1) x),
          'rs.i_p100:8,rs.i_p125:8,rs.i_p150:9,rs.i_p175:8', 'the rows of the old child are in the new ones');
SELECT is(rs_rows('rs.i'), (SELECT rows_all FROM rs_before), 'every row of the id set is kept');
SELECT is((SELECT string_agg(interval_end || ' ' || partition_interval, ';' ORDER BY interval_end)
             FROM partmgr.part_config_interval WHERE parent_table = 'rs.i'),
          '100 100;200 25', 'part_config_interval: hundreds to 100, then 25 to 200');
SELECT lives_ok($$CALL partmgr.merge_partitions(ARRAY['rs.i_p100', 'rs.i_p125', 'rs.i_p150', 'rs.i_p175'],
                                                 p_quiet => true)$$,
                'merge_partitions merges the four pieces back');
SELECT is((SELECT pg_get_expr(relpartbound, oid) FROM pg_class WHERE oid = 'rs.i_p100'::regclass),
          $$FOR VALUES FROM ('100') TO ('200')$$, 'into one child of 100, named as before');
SELECT is(to_regclass('rs.i_p125'), NULL, 'the pieces are gone');
SELECT is((SELECT coalesce(string_agg(interval_end || ' ' || partition_interval, ';' ORDER BY interval_end), '')
             FROM partmgr.part_config_interval WHERE parent_table = 'rs.i'), (SELECT eras FROM rs_before),
          'merging back the pieces of a split leaves part_config_interval as before the split');
SELECT lives_ok($$CALL partmgr.merge_partitions(ARRAY['rs.i_p400', 'rs.i_p200', 'rs.i_p300'], p_quiet => true)$$,
                'merge_partitions of three children given out of order');
SELECT is(rs_bounds('rs.i'),
$$i_p0 FOR VALUES FROM ('0') TO ('100')
i_p100 FOR VALUES FROM ('100') TO ('200')
i_p200 FOR VALUES FROM ('200') TO ('500')
i_p500 FOR VALUES FROM ('500') TO ('600')
i_p600 FOR VALUES FROM ('600') TO ('700')
i_p700 FOR VALUES FROM ('700') TO ('800')
i_p800 FOR VALUES FROM ('800') TO ('900')$$,
          'one child from 200 to 500, named by its lower bound');
SELECT is(rs_rows('rs.i'), (SELECT rows_all FROM rs_before), 'every row of the id set is still there');
SELECT lives_ok($$CALL partmgr.split_partition('rs.i_p500', p_bounds => ARRAY['550', '520'], p_quiet => true)$$,
                'split_partition of an id child at bounds given out of order');
SELECT is((SELECT string_agg(relname || ' ' || pg_get_expr(relpartbound, oid), ';' ORDER BY relname)
             FROM pg_class WHERE relname IN ('i_p500', 'i_p520', 'i_p550') AND relnamespace = 'rs'::regnamespace),
          $$i_p500 FOR VALUES FROM ('500') TO ('520');i_p520 FOR VALUES FROM ('520') TO ('550');i_p550 FOR VALUES FROM ('550') TO ('600')$$,
          'three children cut at 520 and 550');

-- a parent with an identity, a generated and a dropped column; a child
-- unlogged and with a fillfactor of its own
SET ROLE rs_owner;
CREATE TABLE rs.gc (id bigint GENERATED ALWAYS AS IDENTITY, ts timestamptz NOT NULL, gone int, a int,
                    b int GENERATED ALWAYS AS (a * 2) STORED, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
ALTER TABLE rs.gc DROP COLUMN gone;
SELECT partmgr.create_parent('rs.gc', 'ts', '1 day', p_premake => 1, p_start_partition => '2030-01-01');
INSERT INTO rs.gc (ts, a) SELECT '2030-01-01'::timestamptz + g * interval '1 hour', g FROM generate_series(0, 23) g;
ALTER TABLE rs.gc_p20300101 SET UNLOGGED;
ALTER TABLE rs.gc_p20300101 SET (fillfactor = 70);
RESET ROLE;
UPDATE rs_before SET rows_all = rs_rows('rs.gc');
SELECT lives_ok($$CALL partmgr.split_partition('rs.gc_p20300101', '8 hours', p_quiet => true)$$,
                'split_partition of a set with identity, generated and dropped columns');
SELECT is(rs_rows('rs.gc'), (SELECT rows_all FROM rs_before), 'every row is kept, generated values included');
SELECT is((SELECT string_agg(relname || ' ' || relpersistence::text || ' ' || array_to_string(reloptions, ','), ';' ORDER BY relname)
             FROM pg_class WHERE relnamespace = 'rs'::regnamespace AND relname LIKE 'gc_p20300101%' AND relkind = 'r'),
          'gc_p20300101_000000 u fillfactor=70;gc_p20300101_080000 u fillfactor=70;gc_p20300101_160000 u fillfactor=70',
          'the new children are unlogged and have the old child''s fillfactor');
SET ROLE rs_owner;
INSERT INTO rs.gc (ts, a) VALUES ('2030-01-01 05:00', 100);
RESET ROLE;
SELECT is((SELECT id || ' ' || b || ' ' || tableoid::regclass FROM rs.gc WHERE a = 100),
          '25 200 rs.gc_p20300101_000000', 'a new row gets the next identity value and its generated column');

------------------------------------------------------------------------------
-- 3. the rest of pg_partmgr on the new grid
------------------------------------------------------------------------------
SELECT is((SELECT partition_table || ' ' || table_exists FROM partmgr.show_partition_name('rs.t', '2030-01-02 07:30')),
          't_p20300102_060000 true', 'show_partition_name names the new child of 6 hours holding a value');
SELECT is((SELECT partition_table || ' ' || table_exists FROM partmgr.show_partition_name('rs.t', '2030-01-03 12:00')),
          't_p20300103_060000 true', 'and the child of 12 hours cut at explicit bounds');
SELECT is((SELECT partition_table || ' ' || table_exists FROM partmgr.show_partition_name('rs.t', '2030-01-04 12:00')),
          't_p20300104 true', 'and a daily child after them');
SELECT is((SELECT child_start_time || ' ' || child_end_time || ' ' || suffix
             FROM partmgr.show_partition_info('rs.t_p20300102_120000')),
          '2030-01-02 12:00:00+00 2030-01-02 18:00:00+00 20300102_120000',
          'show_partition_info of a new child: its bounds and suffix');
SELECT is((SELECT child_start_time || ' ' || child_end_time || ' ' || suffix
             FROM partmgr.show_partition_info('rs.t_p20300103_060000')),
          '2030-01-03 06:00:00+00 2030-01-03 18:00:00+00 20300103_060000',
          'show_partition_info of the child of 12 hours');

SET ROLE rs_owner;
INSERT INTO rs.t VALUES (200, '2030-01-04 12:00', 'later');
RESET ROLE;
SELECT partmgr.run_maintenance('rs.t');
SELECT is((SELECT string_agg(relname || ' ' || pg_get_expr(relpartbound, oid), E'\n' ORDER BY relname)
             FROM pg_class WHERE relnamespace = 'rs'::regnamespace AND relkind = 'r'
              AND relname ~ '^t_p203001(0[5-9]|1)'),
$$t_p20300105 FOR VALUES FROM ('2030-01-05 00:00:00+00') TO ('2030-01-06 00:00:00+00')
t_p20300106 FOR VALUES FROM ('2030-01-06 00:00:00+00') TO ('2030-01-07 00:00:00+00')
t_p20300107 FOR VALUES FROM ('2030-01-07 00:00:00+00') TO ('2030-01-08 00:00:00+00')$$,
          'run_maintenance premakes the next three daily children, named as daily ones');

-- a gap among the children of 6 hours: rows that fall in it, and gap fill
SET ROLE rs_owner;
ALTER TABLE rs.t DETACH PARTITION rs.t_p20300102_120000;
DROP TABLE rs.t_p20300102_120000;
ALTER TABLE rs.t DETACH PARTITION rs.t_p20300102_180000;
DROP TABLE rs.t_p20300102_180000;
ALTER TABLE rs.t DETACH PARTITION rs.t_p20300103_060000;
DROP TABLE rs.t_p20300103_060000;
INSERT INTO rs.t VALUES (300, '2030-01-02 13:00', 'gap');
RESET ROLE;
SELECT is(partmgr.partition_data_time('rs.t', 10), 1::bigint,
          'partition_data_time moves a row of the default that falls in a gap among the new children');
SELECT is((SELECT relname || ' ' || pg_get_expr(relpartbound, oid) FROM pg_class c
            WHERE c.oid = (SELECT tableoid FROM rs.t WHERE id = 300)),
          $$t_p20300102_120000 FOR VALUES FROM ('2030-01-02 12:00:00+00') TO ('2030-01-02 18:00:00+00')$$,
          'into a child of 6 hours, as the split made there');
SELECT is(partmgr.partition_gap_fill('rs.t'), 2, 'partition_gap_fill makes two children');
SELECT is((SELECT string_agg(relname || ' ' || pg_get_expr(relpartbound, oid), E'\n' ORDER BY relname)
             FROM pg_class WHERE relnamespace = 'rs'::regnamespace
              AND relname IN ('t_p20300102_180000', 't_p20300103_060000')),
$$t_p20300102_180000 FOR VALUES FROM ('2030-01-02 18:00:00+00') TO ('2030-01-03 00:00:00+00')
t_p20300103_060000 FOR VALUES FROM ('2030-01-03 06:00:00+00') TO ('2030-01-03 18:00:00+00')$$,
          'of 6 hours and of 12 hours, each as the era it lies in');

-- the pieces of both splits merged back: the set is as before them
UPDATE rs_before SET rows_all = rs_rows('rs.t');
SELECT lives_ok($$CALL partmgr.merge_partitions(ARRAY['rs.t_p20300102_180000', 'rs.t_p20300102_000000',
                                                       'rs.t_p20300102_120000', 'rs.t_p20300102_060000'],
                                                 p_quiet => true)$$,
                'merge_partitions merges the four children of 6 hours back');
SELECT lives_ok($$CALL partmgr.merge_partitions(ARRAY['rs.t_p20300103_000000', 'rs.t_p20300103_060000',
                                                       'rs.t_p20300103_180000'], p_quiet => true)$$,
                'and the three pieces cut at bounds');
SELECT is(rs_bounds('rs.t'),
$$t_p20300101 FOR VALUES FROM ('2030-01-01 00:00:00+00') TO ('2030-01-02 00:00:00+00')
t_p20300102 FOR VALUES FROM ('2030-01-02 00:00:00+00') TO ('2030-01-03 00:00:00+00')
t_p20300103 FOR VALUES FROM ('2030-01-03 00:00:00+00') TO ('2030-01-04 00:00:00+00')
t_p20300104 FOR VALUES FROM ('2030-01-04 00:00:00+00') TO ('2030-01-05 00:00:00+00')
t_p20300105 FOR VALUES FROM ('2030-01-05 00:00:00+00') TO ('2030-01-06 00:00:00+00')
t_p20300106 FOR VALUES FROM ('2030-01-06 00:00:00+00') TO ('2030-01-07 00:00:00+00')
t_p20300107 FOR VALUES FROM ('2030-01-07 00:00:00+00') TO ('2030-01-08 00:00:00+00')$$,
          'daily children again, with their daily names');
SELECT is(rs_rows('rs.t'), (SELECT rows_all FROM rs_before), 'the merges keep every row');
SELECT is((SELECT count(*)::int FROM partmgr.part_config_interval WHERE parent_table = 'rs.t'), 0,
          'part_config_interval holds nothing for the set any more, as before the splits');
SELECT is((SELECT count(*)::int FROM pg_constraint WHERE conrelid = 'rs.t_p20300102'::regclass
            AND conname IN ('v_short', 'v_seen')), 2, 'the merged child has the CHECK constraints of the first piece');

------------------------------------------------------------------------------
-- 4. registered, shown, resumed, carried out, cancelled
------------------------------------------------------------------------------
UPDATE rs_before SET rows_all = rs_rows('rs.t_p20300104');
SELECT lives_ok($$CALL partmgr.split_partition('rs.t_p20300104', '12 hours', p_start => false, p_quiet => true)$$,
                'split_partition with p_start => false');
SELECT results_eq($$SELECT parent_table, kind, source_tables, target_tables, target_bounds, target_interval, phase
                      FROM partmgr.reshape_operation$$,
                  $$VALUES ('rs.t'::text, 'split'::text, ARRAY['rs.t_p20300104'], ARRAY['t_p20300104_000000', 't_p20300104_120000'],
                            ARRAY['2030-01-04 00:00:00+00', '2030-01-04 12:00:00+00', '2030-01-05 00:00:00+00'],
                            '12:00:00'::text, 'planned'::text)$$,
                  'registers the split only: one reshape_operation row, phase planned');
SELECT ok(to_regclass('rs.t_p20300104') IS NOT NULL AND
          to_regclass('rs.t_reshape' || (SELECT operation_id FROM partmgr.reshape_operation)) IS NULL AND
          NOT EXISTS (SELECT FROM pg_trigger WHERE tgrelid = 'rs.t_p20300104'::regclass AND NOT tgisinternal),
          'the child is untouched and nothing is built: no staging table, no capture trigger');
SELECT is((SELECT string_agg(action || ' ' || object, ',' ORDER BY step) FROM partmgr.plan_maintenance('rs.t')
            WHERE action IN ('prepare reshape', 'create new partition', 'capture changes', 'swap partitions')),
          (SELECT format('prepare reshape rs.t_reshape%1$s,create new partition rs.t_reshape%1$s_0,'
                         'create new partition rs.t_reshape%1$s_1,capture changes rs.t_p20300104,swap partitions rs.t',
                         operation_id) FROM partmgr.reshape_operation),
          'plan_maintenance shows its next step (the build) and the swap that ends it');
SELECT is((SELECT locks FROM partmgr.plan_maintenance('rs.t') WHERE action = 'swap partitions'),
          ARRAY['rs.t ACCESS EXCLUSIVE (queued)', 'rs.t_default ACCESS EXCLUSIVE (queued)',
                'rs.t_p20300104 ACCESS EXCLUSIVE (queued)'],
          'with the locks of the swap');
SELECT lives_ok($$CALL partmgr.split_partition('rs.t_p20300104', '12 hours', p_start => false, p_quiet => true)$$,
                'split_partition again with the same arguments');
SELECT is((SELECT count(*)::int FROM partmgr.reshape_operation), 1, 'registers nothing more');
SELECT throws_ok($$CALL partmgr.split_partition('rs.t_p20300104', '6 hours', p_start => false, p_quiet => true)$$,
                 '55006', NULL, 'split_partition of the child with other arguments: 55006');

------------------------------------------------------------------------------
-- 5. bad input: each call fails with its SQLSTATE and changes nothing
------------------------------------------------------------------------------
SET ROLE rs_owner;
CREATE TABLE rs.plain (id bigint PRIMARY KEY);
CREATE TABLE rs.unmanaged (id bigint PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE rs.unmanaged_c PARTITION OF rs.unmanaged FOR VALUES FROM (0) TO (10);
CREATE TABLE rs.sp (id bigint PRIMARY KEY) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('rs.sp', 'id', '100', p_premake => 1, p_start_partition => '0');
SELECT partmgr.create_sub_parent('rs.sp', 'id', '10', p_premake => 1, p_declarative_check => 'yes');
CREATE TABLE rs.mm (id bigint PRIMARY KEY) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('rs.mm', 'id', '100', p_premake => 1, p_start_partition => '0');
CREATE TABLE rs.mm_top PARTITION OF rs.mm FOR VALUES FROM (200) TO (MAXVALUE);
CREATE TABLE rs.mm_low PARTITION OF rs.mm FOR VALUES FROM (MINVALUE) TO (0);
CREATE TABLE rs.nopk (id bigint, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('rs.nopk', 'ts', '1 day', p_premake => 1, p_start_partition => '2030-01-01');
CREATE TABLE rs.l (k int PRIMARY KEY) PARTITION BY LIST (k);
SELECT partmgr.create_parent('rs.l', 'k', '1', p_type => 'list', p_start_partition => '1');
CREATE TABLE rs.r (id bigint PRIMARY KEY) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('rs.r', 'id', '100', p_premake => 1, p_start_partition => '0');
CREATE TABLE rs.ref (rid bigint REFERENCES rs.r (id));
CREATE VIEW rs.v AS SELECT * FROM rs.t_p20300107;
CREATE TABLE rs.t_p20300101_120000 (x int);
CREATE FUNCTION rs.trg() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN RETURN NEW; END $f$;
CREATE TRIGGER own_trigger BEFORE INSERT ON rs.t_p20300105 FOR EACH ROW EXECUTE FUNCTION rs.trg();
RESET ROLE;
SET client_min_messages = error;   -- wal_level need not be logical here
CREATE PUBLICATION rs_pub FOR TABLE rs.t_p20300106;
SET client_min_messages = warning;
UPDATE rs_before SET state = rs_state();

SELECT throws_ok($$CALL partmgr.split_partition('rs.t_p20300101', '6 hours', ARRAY['2030-01-01 12:00'])$$,
                 '22023', NULL, 'both p_interval and p_bounds: 22023');
SELECT throws_ok($$CALL partmgr.split_partition('rs.t_p20300101')$$, '22023', NULL,
                 'neither p_interval nor p_bounds: 22023');
SELECT throws_ok($$CALL partmgr.split_partition('rs.t_p20300101', p_bounds => ARRAY[]::text[])$$, '22023', NULL,
                 'an empty p_bounds: 22023');
SELECT throws_ok($$CALL partmgr.split_partition('rs.plain', '6 hours')$$, '42704', NULL,
                 'a table that is no child: 42704');
SELECT throws_ok($$CALL partmgr.split_partition('rs.unmanaged_c', '5')$$, '42704', NULL,
                 'a child of a partitioned table that is not a set: 42704');
SELECT throws_ok($$CALL partmgr.split_partition('rs.sp_p0', '50')$$, '0A000', NULL,
                 'a child that is partitioned itself (a sub-set''s parent): 0A000');
SELECT throws_ok($$CALL partmgr.merge_partitions(ARRAY['rs.t_p20300101', 'rs.i_p0'])$$, '22023', NULL,
                 'children of two different sets: 22023');
SELECT throws_ok($$CALL partmgr.merge_partitions(ARRAY['rs.t_p20300101', 'rs.t_p20300103'])$$, '22023', NULL,
                 'children that are not adjacent: 22023');
SELECT throws_ok($$CALL partmgr.merge_partitions(ARRAY['rs.t_p20300101'])$$, '22023', NULL,
                 'a single child to merge: 22023');
SELECT throws_ok($$CALL partmgr.merge_partitions(ARRAY['rs.t_p20300101', 'rs.t_p20300101'])$$, '22023', NULL,
                 'a child named twice: 22023');
SELECT throws_ok($$CALL partmgr.split_partition('rs.t_p20300101', p_bounds => ARRAY['2030-01-05'])$$, '22023', NULL,
                 'a bound outside the child: 22023');
SELECT throws_ok($$CALL partmgr.split_partition('rs.t_p20300101', p_bounds => ARRAY['2030-01-01'])$$, '22023', NULL,
                 'a bound equal to the child''s lower edge: 22023');
SELECT throws_ok($$CALL partmgr.split_partition('rs.t_p20300101', p_bounds => ARRAY['2030-01-02'])$$, '22023', NULL,
                 'a bound equal to the child''s upper edge: 22023');
SELECT throws_ok($$CALL partmgr.split_partition('rs.t_p20300101', p_bounds => ARRAY['2030-01-01 12:00', '2030-01-01 12:00'])$$,
                 '22023', NULL, 'a bound given twice: 22023');
SELECT throws_ok($$CALL partmgr.split_partition('rs.t_p20300101', '1 day')$$, '22023', NULL,
                 'an interval as long as the child: 22023');
SELECT throws_ok($$CALL partmgr.split_partition('rs.t_p20300101', '12 hours')$$, '42P07', NULL,
                 'a name a new child needs held by another table: 42P07');
SELECT throws_ok($$CALL partmgr.split_partition('rs.i_p0', '1')$$, '22023', NULL,
                 'an id interval of 1: 22023');
SELECT throws_ok($$CALL partmgr.split_partition('rs.mm_top', p_bounds => ARRAY['300'])$$, '22023', NULL,
                 'a child bounded by MAXVALUE: 22023');
SELECT throws_ok($$CALL partmgr.split_partition('rs.mm_low', p_bounds => ARRAY['-10'])$$, '22023', NULL,
                 'a child bounded by MINVALUE: 22023');
SELECT throws_ok($$CALL partmgr.split_partition('rs.nopk_p20300101', '6 hours')$$, '55000', NULL,
                 'a set without a primary key: 55000');
SELECT throws_ok($$CALL partmgr.split_partition('rs.l_p1', '2')$$, '22023', NULL,
                 'a child of a list set: 22023');
SELECT throws_ok($$CALL partmgr.merge_partitions(ARRAY['rs.t_p20300103', 'rs.t_p20300104'])$$, '55006', NULL,
                 'a child another reshape already replaces: 55006');
SELECT throws_ok($$CALL partmgr.split_partition('rs.t_p20300107', '6 hours')$$, '2BP01', NULL,
                 'a child a view reads: 2BP01');
SELECT throws_ok($$CALL partmgr.split_partition('rs.r_p0', '50')$$, '0A000', NULL,
                 'a set a foreign key references: 0A000');
SELECT throws_ok($$CALL partmgr.split_partition('rs.t_p20300105', '6 hours')$$, '0A000', NULL,
                 'a child with a trigger of its own: 0A000');
SELECT throws_ok($$CALL partmgr.split_partition('rs.t_p20300106', '6 hours')$$, '0A000', NULL,
                 'a child in a publication: 0A000');
SELECT throws_ok($$CALL partmgr.split_partition('rs.t_p20300101', '6 hours', p_batch_rows => 0)$$, '22023', NULL,
                 'p_batch_rows 0: 22023');
SELECT throws_ok($$CALL partmgr.run_reshape('rs.t', p_batch_rows => 0)$$, '22023', NULL,
                 'run_reshape with p_batch_rows 0: 22023');
-- move_partition (its tablespaces are real ones in test/t/015 and 020)
SELECT throws_ok($$CALL partmgr.move_partition('rs.t_p20300101', 'no_such_space')$$, '42704', NULL,
                 'move_partition into a tablespace that does not exist: 42704');
SELECT throws_ok($$CALL partmgr.move_partition('rs.t_p20300101', NULL)$$, '22004', NULL,
                 'move_partition without a tablespace: 22004');
SELECT throws_ok($$CALL partmgr.move_partition('rs.t_p20300101', 'pg_global')$$, '22023', NULL,
                 'move_partition into pg_global: 22023');
SELECT throws_ok($$CALL partmgr.move_partition('rs.plain', 'pg_global')$$, '42704', NULL,
                 'move_partition of a table that is no child: 42704');
SELECT throws_ok($$CALL partmgr.move_partition('rs.sp_p0', 'pg_global')$$, '0A000', NULL,
                 'move_partition of a sub-set''s parent: 0A000');
SELECT throws_ok($$CALL partmgr.move_partition('rs.l_p1', 'pg_global')$$, '0A000',
                 'the children of list set "rs.l" cannot be moved online',
                 'move_partition of a child of a list set: 0A000');
SELECT throws_ok($$CALL partmgr.move_partition('rs.t_p20300104', 'pg_global')$$, '55006', NULL,
                 'move_partition of a child another reshape replaces: 55006');
SELECT throws_ok($$CALL partmgr.move_partition('rs.nopk_p20300101', 'pg_global')$$, '55000', NULL,
                 'move_partition of a child without a key: 55000');
SELECT throws_ok($$CALL partmgr.move_partition('rs.t_p20300105', 'pg_global')$$, '0A000', NULL,
                 'move_partition of a child with a trigger of its own: 0A000');
SET client_min_messages = notice;
SELECT lives_ok($$CALL partmgr.move_partition('rs.t_p20300102', 'pg_default')$$,
                'move_partition into the tablespace the child and its indexes are in');
SET client_min_messages = warning;
SELECT is(rs_state(), (SELECT state FROM rs_before),
          'after the bad calls and the move with nothing to move, the configuration, the reshapes, the tables and the rows are as they were');
SET ROLE rs_owner;
CREATE TABLE rs.t_undo (LIKE rs.t);
RESET ROLE;
UPDATE rs_before SET state = rs_state();
SELECT throws_ok($$SELECT partmgr.undo_partition('rs.t', 'rs.t_undo')$$, '55000', NULL,
                 'undo_partition while a reshape is registered: 55000');
SELECT throws_ok($$SELECT partmgr.config_cleanup('rs.t')$$, '55000', NULL,
                 'config_cleanup while a reshape is registered: 55000');
SELECT throws_ok($$SELECT partmgr.change_interval('rs.t', '1 hour')$$, '55000', NULL,
                 'change_interval while a reshape is registered: 55000');
SELECT is(rs_state(), (SELECT state FROM rs_before),
          'after all of them the configuration, the reshapes, the tables and the rows are as they were');

-- a child whose replica identity is its primary key, the key a reshape
-- builds first
SET ROLE rs_owner;
CREATE TABLE rs.ri (id bigint NOT NULL, ts timestamptz NOT NULL, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('rs.ri', 'ts', '1 day', p_premake => 1, p_start_partition => '2030-01-01');
INSERT INTO rs.ri SELECT g, '2030-01-01'::timestamptz + g * interval '1 minute' FROM generate_series(1, 100) g;
ALTER TABLE rs.ri_p20300101 REPLICA IDENTITY USING INDEX ri_p20300101_pkey;
RESET ROLE;
SELECT lives_ok($$CALL partmgr.split_partition('rs.ri_p20300101', '12 hours', p_quiet => true)$$,
                'split_partition of a child whose replica identity is its primary key');
SELECT is((SELECT string_agg(c.relname || ' ' || c.relreplident::text || ' ' || i.indexrelid::regclass::text, ', '
                             ORDER BY c.relname)
             FROM pg_class c JOIN pg_index i ON i.indrelid = c.oid AND i.indisreplident
            WHERE c.relname LIKE 'ri\_p20300101\_%'),
          'ri_p20300101_000000 i rs.ri_p20300101_000000_pkey, ri_p20300101_120000 i rs.ri_p20300101_120000_pkey',
          'the new children have it as their replica identity too');

-- a leaf of a sub-set
SET ROLE rs_owner;
INSERT INTO rs.sp SELECT generate_series(0, 19);
RESET ROLE;
SELECT lives_ok($$CALL partmgr.split_partition('rs.sp_p0_p0', '5', p_quiet => true)$$,
                'split_partition of a child of a sub-set');
SELECT is(rs_bounds('rs.sp_p0'),
$$sp_p0_p0 FOR VALUES FROM ('0') TO ('5')
sp_p0_p10 FOR VALUES FROM ('10') TO ('20')
sp_p0_p5 FOR VALUES FROM ('5') TO ('10')$$,
          'two children of 5 in the sub-set');
SELECT is((SELECT string_agg(interval_end || ' ' || partition_interval, ';') FROM partmgr.part_config_interval
            WHERE parent_table = 'rs.sp_p0'), '10 5', 'the sub-set''s part_config_interval records them');
SELECT is((SELECT count(*)::int FROM rs.sp), 20, 'the sub-set keeps its rows');

------------------------------------------------------------------------------
-- 6. the trust boundary: another role cannot reshape the owner's set, nor
-- write its reshapes, nor make the change capture write another role's table
------------------------------------------------------------------------------
GRANT SELECT, INSERT ON rs.t, rs.t_p20300101 TO rs_mallory;
SET ROLE rs_owner;
CREATE TABLE rs.fake_log (id bigint, partmgr_claimed boolean NOT NULL DEFAULT false,
                          partmgr_truncated boolean NOT NULL DEFAULT false);
RESET ROLE;
UPDATE rs_before SET state = rs_state();
SET ROLE rs_mallory;
SELECT throws_ok($$CALL partmgr.split_partition('rs.t_p20300101', '6 hours')$$, '42501', NULL,
                 'another role cannot split a child of the owner''s set: 42501');
SELECT throws_ok($$CALL partmgr.merge_partitions(ARRAY['rs.t_p20300101', 'rs.t_p20300102'])$$, '42501', NULL,
                 'nor merge its children: 42501');
SELECT throws_ok($$CALL partmgr.run_reshape('rs.t')$$, '42501', NULL,
                 'nor carry out its registered reshape: 42501');
SELECT throws_ok($$SELECT partmgr.cancel_reshape('rs.t')$$, '42501', NULL,
                 'nor cancel it: 42501');
SELECT lives_ok($$CALL partmgr.run_reshape(p_quiet => true)$$,
                'run_reshape() of every set it may act on passes the owner''s reshape over');
SELECT throws_ok($$INSERT INTO partmgr.reshape_operation (parent_table, kind, source_tables, target_tables, target_bounds)
                   VALUES ('rs.t', 'split', ARRAY['rs.t_p20300101'], ARRAY['t_p20300101_000000', 't_p20300101_120000'],
                           ARRAY['2030-01-01 00:00:00+00', '2030-01-01 12:00:00+00', '2030-01-02 00:00:00+00'])$$,
                 '42501', NULL, 'nor register a reshape of it by INSERT into reshape_operation: 42501');
-- since 0.7.0 row security hides the owner's reshape from it: its UPDATE
-- and DELETE find no row (the state compared at the end of this part
-- shows that nothing changed)
SELECT is((SELECT count(*)::int FROM partmgr.reshape_operation WHERE parent_table = 'rs.t'), 0,
          'nor see the owner''s reshape: row security hides it');
SELECT lives_ok($$UPDATE partmgr.reshape_operation SET phase = 'catch up' WHERE parent_table = 'rs.t';
                  DELETE FROM partmgr.reshape_operation WHERE parent_table = 'rs.t'$$,
                'so its UPDATE and DELETE of it change nothing');
CREATE TABLE rs_mal.m (id bigint PRIMARY KEY, ts timestamptz NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('rs_mal.m', 'id', '100', p_premake => 1, p_start_partition => '0');
CALL partmgr.split_partition('rs_mal.m_p0', '50', p_start => false, p_quiet => true);
SELECT throws_ok($$UPDATE partmgr.reshape_operation SET parent_table = 'rs.t' WHERE parent_table = 'rs_mal.m'$$,
                 '42501', NULL, 'nor move a reshape of its own set onto the owner''s: 42501');
-- its own reshape made to name the owner's child: a reshape works only on
-- children of its own set, so it is refused before anything is done
UPDATE partmgr.reshape_operation SET source_tables = ARRAY['rs.t_p20300101'] WHERE parent_table = 'rs_mal.m';
SELECT throws_ok($$CALL partmgr.run_reshape('rs_mal.m', p_quiet => true)$$, '22023', NULL,
                 'its own reshape forged to replace the owner''s child is refused: it names no child of its set (22023)');
SELECT is(partmgr.cancel_reshape('rs_mal.m'), 1, 'cancel_reshape of its own set undoes the forged reshape, touching nothing of the owner''s');
-- the change capture trigger on a table of its own, naming a table of
-- another role shaped like a change log
CREATE TABLE rs_mal.cap (id bigint);
CREATE TRIGGER forge AFTER INSERT ON rs_mal.cap FOR EACH ROW
    EXECUTE FUNCTION partmgr.reshape_capture('rs', 'fake_log', 'id');
SELECT throws_ok($$INSERT INTO rs_mal.cap VALUES (1)$$, '22023', NULL,
                 'reshape_capture() on its own table refuses to write the owner''s table: 22023');
DROP TRIGGER forge ON rs_mal.cap;
CREATE TRIGGER forge AFTER INSERT ON rs_mal.cap FOR EACH ROW
    EXECUTE FUNCTION partmgr.reshape_capture('public', 'rs_secret', 'id');
SELECT throws_ok($$INSERT INTO rs_mal.cap VALUES (2)$$, '22023', NULL,
                 'or the superuser''s: 22023');
CREATE TRIGGER forge_truncate AFTER TRUNCATE ON rs_mal.cap FOR EACH STATEMENT
    EXECUTE FUNCTION partmgr.reshape_capture('public', 'rs_secret', 'id');
SELECT throws_ok($$TRUNCATE rs_mal.cap$$, '22023', NULL, 'also as a TRUNCATE trigger: 22023');
DROP TRIGGER forge ON rs_mal.cap;
DROP TRIGGER forge_truncate ON rs_mal.cap;
CREATE TRIGGER forge_stmt AFTER INSERT ON rs_mal.cap FOR EACH STATEMENT
    EXECUTE FUNCTION partmgr.reshape_capture('public', 'rs_secret', 'id');
SELECT throws_ok($$INSERT INTO rs_mal.cap VALUES (3)$$, '39P01', NULL,
                 'as a statement trigger of INSERT it refuses to fire: 39P01');
-- the attacker's own objects go, for the comparison below
DROP TABLE rs_mal.cap;
SELECT partmgr.config_cleanup('rs_mal.m');
DROP TABLE rs_mal.m;
RESET ROLE;
SELECT is((SELECT count(*)::int FROM public.rs_secret), 0, 'the superuser''s table stays empty');
SELECT is((SELECT count(*)::int FROM rs.fake_log), 0, 'and so does the owner''s');
SELECT is((SELECT count(*)::int FROM pg_trigger WHERE tgrelid = 'rs.t_p20300101'::regclass AND NOT tgisinternal), 0,
          'the owner''s child got no trigger');
SELECT is(rs_state(), (SELECT state FROM rs_before),
          'the owner''s set, its reshape and its tables are as they were');

------------------------------------------------------------------------------
-- 4 (continued). the registered split resumed, a merge carried out by
-- run_reshape, a registered split cancelled
------------------------------------------------------------------------------
SELECT lives_ok($$CALL partmgr.split_partition('rs.t_p20300104', '12 hours', p_quiet => true)$$,
                'split_partition again with the same arguments goes on with the registered split');
SELECT is((SELECT count(*)::int FROM partmgr.reshape_operation), 0, 'which is then finished');
SELECT is((SELECT string_agg(relname || ' ' || pg_get_expr(relpartbound, oid), E'\n' ORDER BY relname)
             FROM pg_class WHERE relnamespace = 'rs'::regnamespace AND relname LIKE 't_p20300104%' AND relkind = 'r'),
$$t_p20300104_000000 FOR VALUES FROM ('2030-01-04 00:00:00+00') TO ('2030-01-04 12:00:00+00')
t_p20300104_120000 FOR VALUES FROM ('2030-01-04 12:00:00+00') TO ('2030-01-05 00:00:00+00')$$,
          'two children of 12 hours replace the daily one');
SELECT is((SELECT count(*) || ' ' || sum(hashtext(t::text)) FROM rs.t t WHERE ts >= '2030-01-04' AND ts < '2030-01-05'),
          (SELECT rows_all FROM rs_before), 'with its rows');
SELECT is((SELECT count(*)::int FROM partmgr.maintenance_log WHERE parent_table = 'rs.t'
              AND action = 'register reshape' AND object = 'rs.t_p20300104'), 1,
          'it was registered once');
SELECT lives_ok($$CALL partmgr.merge_partitions(ARRAY['rs.t_p20300104_120000', 'rs.t_p20300104_000000'],
                                                 p_start => false, p_quiet => true)$$,
                'merge_partitions with p_start => false');
SELECT results_eq($$SELECT kind, source_tables, target_tables, target_bounds, phase FROM partmgr.reshape_operation$$,
                  $$VALUES ('merge'::text, ARRAY['rs.t_p20300104_000000', 'rs.t_p20300104_120000'], ARRAY['t_p20300104'],
                            ARRAY['2030-01-04 00:00:00+00', '2030-01-05 00:00:00+00'], 'planned'::text)$$,
                  'registers the merge, its children lowest first, the new child named as a daily one');
SELECT lives_ok($$CALL partmgr.run_reshape('rs.t', p_quiet => true)$$, 'run_reshape carries it out');
SELECT is((SELECT count(*)::int FROM partmgr.reshape_operation), 0, 'and it is finished');
SELECT is((SELECT pg_get_expr(relpartbound, oid) FROM pg_class WHERE oid = 'rs.t_p20300104'::regclass),
          $$FOR VALUES FROM ('2030-01-04 00:00:00+00') TO ('2030-01-05 00:00:00+00')$$, 'the daily child is back');
SELECT is((SELECT count(*) || ' ' || sum(hashtext(t::text)) FROM rs.t_p20300104 t),
          (SELECT rows_all FROM rs_before), 'with every row');

UPDATE rs_before SET rows_all = rs_rows('rs.t_p20300102'), state = rs_state();
CALL partmgr.split_partition('rs.t_p20300102', '8 hours', p_start => false, p_quiet => true);
SELECT is((SELECT count(*)::int FROM partmgr.reshape_operation WHERE phase = 'planned'), 1, 'a split registered');
SELECT is(partmgr.cancel_reshape('rs.t'), 1, 'cancel_reshape undoes one reshape');
SELECT is((SELECT count(*)::int FROM partmgr.reshape_operation), 0, 'and removes its row');
SELECT is(rs_rows('rs.t_p20300102'), (SELECT rows_all FROM rs_before), 'the child keeps its rows');
SELECT is(rs_state(), (SELECT state FROM rs_before), 'the set, its children and their triggers are as they were');

------------------------------------------------------------------------------
-- 7. a global unique constraint across a split
------------------------------------------------------------------------------
SET ROLE rs_owner;
CREATE TABLE rs.g (id bigint NOT NULL, ts timestamptz NOT NULL, order_no text,
                   PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('rs.g', 'ts', '1 day', p_premake => 2, p_start_partition => '2030-01-01');
INSERT INTO rs.g VALUES (0, '2030-01-01 00:30', 'o0');
SELECT partmgr.run_maintenance('rs.g');
INSERT INTO rs.g SELECT g, '2030-01-01'::timestamptz + g * interval '1 hour', 'o' || g FROM generate_series(1, 47) g;
SELECT partmgr.create_global_unique('rs.g', ARRAY['order_no']);
RESET ROLE;
SELECT lives_ok($$CALL partmgr.split_partition('rs.g_p20300102', '12 hours', p_quiet => true)$$,
                'split_partition of a child of a set with a global unique constraint');
SELECT throws_ok($$INSERT INTO rs.g VALUES (1000, '2030-01-01 05:00', 'o30')$$, '23505', NULL,
                 'a key a new child holds is refused in another child: 23505');
SELECT throws_ok($$INSERT INTO rs.g VALUES (1001, '2030-01-02 20:00', 'o3')$$, '23505', NULL,
                 'a key another child holds is refused in a new child: 23505');
SELECT throws_ok($$INSERT INTO rs.g VALUES (1002, '2030-01-02 20:00', 'o30')$$, '23505', NULL,
                 'a key of one new child is refused in the other: 23505');
SELECT lives_ok($$INSERT INTO rs.g VALUES (1003, '2030-01-02 20:00', 'new1')$$, 'a new key goes into a new child');
SELECT is((SELECT count(*)::int FROM rs.g_order_no_gkey s JOIN rs.g r ON r.order_no = s.order_no AND r.tableoid = s.child),
          (SELECT count(*)::int FROM rs.g), 'each entry of the side table names the child holding its row');
SELECT is((SELECT string_agg(child::text || ':' || n, ',' ORDER BY child::text)
             FROM (SELECT child, count(*) AS n FROM rs.g_order_no_gkey
                    WHERE child::text LIKE 'rs.g_p20300102%' GROUP BY 1) x),
          'rs.g_p20300102_000000:12,rs.g_p20300102_120000:13', 'the entries of the split child''s rows name the new children');
SELECT is((SELECT waiting_cleanup FROM partmgr.global_unique_constraints WHERE parent_table = 'rs.g'::regclass), 0::bigint,
          'no entry of the old child is left waiting for cleanup');
SELECT is((SELECT count(*)::int FROM partmgr.check_children('rs.g') WHERE property = 'global unique TRUNCATE trigger'), 0,
          'the new children have the constraint''s TRUNCATE trigger');

------------------------------------------------------------------------------
-- 8. a reshape another role registers under a set of its own, naming the
-- owner's children, binds none of them: the owner's reshapes and the set's
-- retention go on, and nobody takes up the forged row for the owner's set
------------------------------------------------------------------------------
SET ROLE rs_owner;
CREATE TABLE rs.fv (id bigint NOT NULL, ts timestamptz NOT NULL, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('rs.fv', 'ts', '1 day', p_premake => 2, p_start_partition => '2030-01-01');
INSERT INTO rs.fv VALUES (0, '2030-01-01 00:00');
SELECT partmgr.run_maintenance('rs.fv');
INSERT INTO rs.fv SELECT g, '2030-01-01'::timestamptz + g * interval '1 hour' FROM generate_series(1, 47) g;
-- a set whose lowest child ended two days ago: expired with a retention of
-- one day, whatever the day the test runs
CREATE TABLE rs.old (id bigint NOT NULL, ts timestamptz NOT NULL, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('rs.old', 'ts', '1 day', p_premake => 1,
                             p_start_partition => (date_trunc('day', now()) - interval '3 days')::text);
RESET ROLE;
CREATE TEMP TABLE rs_old_child AS
SELECT c.oid::regclass::text AS child FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
 WHERE i.inhparent = 'rs.old'::regclass AND c.relname !~ '_default$' ORDER BY c.relname LIMIT 1;
GRANT SELECT ON rs_old_child TO rs_mallory;
SET ROLE rs_mallory;
CREATE TABLE rs_mal.m2 (id bigint PRIMARY KEY) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('rs_mal.m2', 'id', '100', p_premake => 1, p_start_partition => '0');
INSERT INTO partmgr.reshape_operation (parent_table, kind, source_tables, target_tables, target_bounds,
                                       target_interval, target_format, target_aligned)
VALUES ('rs_mal.m2', 'split', ARRAY['rs.fv_p20300101'], ARRAY['mallory_a', 'mallory_b'],
        ARRAY['2030-01-01 00:00:00+00', '2030-01-01 12:00:00+00', '2030-01-02 00:00:00+00'],
        '12:00:00', 'YYYYMMDD_HH24MISS', true),
       ('rs_mal.m2', 'split', ARRAY['rs.fv_p20300102'], ARRAY['mallory_c'], ARRAY['0', '1'], NULL, NULL, false),
       ('rs_mal.m2', 'split', ARRAY[(SELECT child FROM rs_old_child)], ARRAY['mallory_d'], ARRAY['0', '1'], NULL, NULL, false);
RESET ROLE;
SET ROLE rs_owner;
SELECT lives_ok($$CALL partmgr.split_partition('rs.fv_p20300102', '12 hours', p_quiet => true)$$,
                'the owner splits its child though another role''s reshape row names it');
RESET ROLE;
SELECT lives_ok($$CALL partmgr.split_partition('rs.fv_p20300101', '12 hours', p_quiet => true)$$,
                'a superuser splits the owner''s other child another role''s row names, with the same bounds');
SELECT is(rs_bounds('rs.fv'),
$$fv_p20300101_000000 FOR VALUES FROM ('2030-01-01 00:00:00+00') TO ('2030-01-01 12:00:00+00')
fv_p20300101_120000 FOR VALUES FROM ('2030-01-01 12:00:00+00') TO ('2030-01-02 00:00:00+00')
fv_p20300102_000000 FOR VALUES FROM ('2030-01-02 00:00:00+00') TO ('2030-01-02 12:00:00+00')
fv_p20300102_120000 FOR VALUES FROM ('2030-01-02 12:00:00+00') TO ('2030-01-03 00:00:00+00')
fv_p20300103 FOR VALUES FROM ('2030-01-03 00:00:00+00') TO ('2030-01-04 00:00:00+00')$$,
          'the new children have the names pg_partmgr gives them, not those the other role wrote');
UPDATE partmgr.part_config SET retention = '1 day', retention_keep_table = false WHERE parent_table = 'rs.old';
SELECT partmgr.run_maintenance('rs.old');
SELECT is(to_regclass((SELECT child FROM rs_old_child)), NULL,
          'retention drops the owner''s expired child another role''s reshape row names');

SELECT * FROM finish();
ROLLBACK;
