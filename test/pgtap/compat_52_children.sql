-- pgTAP tests of pg_partman 5.2's behaviours for new children and
-- retention, as pg_partmgr has them:
--
-- 1. every new child -- made by create_parent, by maintenance (premake), by
--    partition_data, by partition_gap_fill, and the default partition --
--    gets each column's compression, storage and statistics target and the
--    parent's extended statistics (with their statistics targets);
--    check_children reports a child that lacks them, reapply_child_properties
--    gives them back; for a parent owned by a plain role that may not create
--    tables in the parent's schema, the children and their statistics
--    objects are the owner's, and the owner's code (an expression of an
--    extended statistics object) never runs as a superuser;
-- 2. no child is made that retention would retire at once: premake after a
--    pause longer than the retention, create_parent's initial children made
--    again for a set that lost them all, partition_gap_fill; partition_data
--    still makes the child its rows need;
-- 3. retention's detach and drop come after everything else a run does
--    (plan_maintenance's steps, the maintenance log's order), and derived
--    constraints are not derived for a child retention then retires.
--
-- Column properties use far-future bounds (2100).  Retention counts from
-- now(), fixed in the transaction: bounds are computed from now() in UTC
-- and never depend on the time of day.  lz4 is used when the server has it,
-- else pglz (a method other than the default is what is copied).
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = warning;
SET default_toast_compression = 'pglz';

SELECT plan(49);

-- the compression method the parent's column uses, and its letter
CREATE TABLE public.tap_c52_method (method text, letter text);
DO $$
BEGIN
    CREATE TEMP TABLE tap_c52_probe (t text COMPRESSION lz4);
    INSERT INTO public.tap_c52_method VALUES ('lz4', 'l');
EXCEPTION WHEN OTHERS THEN
    INSERT INTO public.tap_c52_method VALUES ('pglz', 'p');
END $$;

-- A table's columns a, b, c, d as name=compression/storage/statistics
-- target ('-' for the default compression).
CREATE FUNCTION public.tap_c52_cols(p_table regclass) RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT string_agg(attname || '=' || coalesce(nullif(attcompression::text, ''), '-')
                      || '/' || attstorage::text || '/' || attstattarget, ' ' ORDER BY attnum)
      FROM pg_attribute
     WHERE attrelid = p_table AND attname IN ('a', 'b', 'c', 'd')
$$;

-- A table's extended statistics: columns, kinds, target, owner; sorted.
CREATE FUNCTION public.tap_c52_stats(p_table regclass) RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce(string_agg(d, '; ' ORDER BY d COLLATE "C"), 'none')
      FROM (SELECT pg_get_statisticsobjdef_columns(oid) || ' ' || stxkind::text || ' '
                   || stxstattarget || ' ' || pg_get_userbyid(stxowner) AS d
              FROM pg_statistic_ext WHERE stxrelid = p_table) AS s
$$;

CREATE FUNCTION public.tap_c52_expected_cols() RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT format('a=%s/x/-1 b=-/e/-1 c=-/p/500 d=-/m/-1', letter) FROM public.tap_c52_method
$$;

-- The lower bounds of the children a plan_maintenance would create.
CREATE FUNCTION public.tap_c52_planned(p_parent text) RETURNS timestamptz[]
LANGUAGE sql AS $$
    SELECT coalesce(array_agg(substring(detail FROM 'from ''([^'']*)''')::timestamptz ORDER BY step),
                    '{}')
      FROM partmgr.plan_maintenance(p_parent) WHERE action = 'create partition'
$$;

-- The lower bounds of a set's children.
CREATE FUNCTION public.tap_c52_lowers(p_parent regclass) RETURNS timestamptz[]
LANGUAGE sql STABLE AS $$
    SELECT coalesce(array_agg(substring(pg_get_expr(c.relpartbound, c.oid)
                                        FROM 'FROM \(''([^'']*)''')::timestamptz ORDER BY 1), '{}')
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent AND pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT'
$$;

-- Drop every child of a set whose lower bound is in [p_from, p_to).
CREATE FUNCTION public.tap_c52_drop(p_parent regclass, p_from timestamptz, p_to timestamptz)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT c.oid::regclass AS child
               FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
              WHERE i.inhparent = p_parent AND pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT'
                AND substring(pg_get_expr(c.relpartbound, c.oid)
                              FROM 'FROM \(''([^'']*)''')::timestamptz >= p_from
                AND substring(pg_get_expr(c.relpartbound, c.oid)
                              FROM 'FROM \(''([^'']*)''')::timestamptz < p_to LOOP
        EXECUTE format('DROP TABLE %s', r.child);
    END LOOP;
END $$;

-------------------------------------------------------------------------------
-- 1. Column properties and extended statistics of new children
-------------------------------------------------------------------------------
DO $$
BEGIN
    EXECUTE format('CREATE TABLE public.tap_c52 (id bigint NOT NULL, ts timestamptz NOT NULL,'
                   ' a text COMPRESSION %s, b text, c int, d text) PARTITION BY RANGE (ts)',
                   (SELECT method FROM public.tap_c52_method));
END $$;
ALTER TABLE public.tap_c52 ALTER COLUMN b SET STORAGE EXTERNAL,
    ALTER COLUMN d SET STORAGE MAIN, ALTER COLUMN c SET STATISTICS 500;
CREATE STATISTICS public.tap_c52_dep (dependencies) ON id, c FROM public.tap_c52;
ALTER STATISTICS public.tap_c52_dep SET STATISTICS 50;
CREATE STATISTICS public.tap_c52_expr ON (a || b) FROM public.tap_c52;

SELECT is(public.tap_c52_cols('public.tap_c52'), public.tap_c52_expected_cols(),
          'setup: the parent''s columns have their compression, storage and statistics target');

SELECT partmgr.create_parent('public.tap_c52', 'ts', '1 day', p_premake => 1,
                             p_start_partition => '2100-01-01');
INSERT INTO public.tap_c52 (id, ts) VALUES (1, '2100-01-01 10:00+00');
SELECT partmgr.run_maintenance('public.tap_c52');
INSERT INTO public.tap_c52 (id, ts) VALUES (2, '2100-01-05 10:00+00');
SELECT is(partmgr.partition_data_time('public.tap_c52'), 1::bigint,
          'partition_data_time moves the row of 2100-01-05 out of the default partition');
SELECT is(partmgr.partition_gap_fill('public.tap_c52'), 2, 'partition_gap_fill makes 2100-01-03 and 2100-01-04');

SELECT is(public.tap_c52_cols('public.tap_c52_p21000101'), public.tap_c52_expected_cols(),
          'create_parent''s child: compression, storage, statistics target');
SELECT is(public.tap_c52_cols('public.tap_c52_default'), public.tap_c52_expected_cols(),
          'the default partition: compression, storage, statistics target');
SELECT is(public.tap_c52_cols('public.tap_c52_p21000102'), public.tap_c52_expected_cols(),
          'premake''s child: compression, storage, statistics target');
SELECT is(public.tap_c52_cols('public.tap_c52_p21000105'), public.tap_c52_expected_cols(),
          'partition_data''s child: compression, storage, statistics target');
SELECT is(public.tap_c52_cols('public.tap_c52_p21000103'), public.tap_c52_expected_cols(),
          'gap fill''s child: compression, storage, statistics target');

SELECT is(public.tap_c52_stats('public.tap_c52_p21000101'),
          '(a || b) {e} -1 postgres; id, c {f} 50 postgres',
          'create_parent''s child: the parent''s extended statistics, with their target');
SELECT is(public.tap_c52_stats('public.tap_c52_default'),
          '(a || b) {e} -1 postgres; id, c {f} 50 postgres',
          'the default partition: the parent''s extended statistics');
SELECT is(public.tap_c52_stats('public.tap_c52_p21000102'),
          '(a || b) {e} -1 postgres; id, c {f} 50 postgres',
          'premake''s child: the parent''s extended statistics');
SELECT is(public.tap_c52_stats('public.tap_c52_p21000105'),
          '(a || b) {e} -1 postgres; id, c {f} 50 postgres',
          'partition_data''s child: the parent''s extended statistics');
SELECT is(public.tap_c52_stats('public.tap_c52_p21000104'),
          '(a || b) {e} -1 postgres; id, c {f} 50 postgres',
          'gap fill''s child: the parent''s extended statistics');
SELECT is((SELECT string_agg(stxname, ', ' ORDER BY stxname) FROM pg_statistic_ext
            WHERE stxrelid = 'public.tap_c52_p21000102'::regclass),
          'tap_c52_p21000102_tap_c52_dep, tap_c52_p21000102_tap_c52_expr',
          'a child''s statistics objects are named <child>_<parent''s object>');
SELECT ok((SELECT statements @> ARRAY['ALTER TABLE ONLY public.tap_c52_p21000102 ALTER COLUMN c SET STATISTICS 500',
                                      'ALTER STATISTICS public.tap_c52_p21000102_tap_c52_dep SET STATISTICS 50']
             FROM partmgr.maintenance_log
            WHERE parent_table = 'public.tap_c52' AND object = 'public.tap_c52_p21000102'),
          'the maintenance log shows the statements that gave them');
SELECT is_empty($$SELECT * FROM partmgr.check_children('public.tap_c52')$$,
                'check_children: every child has what the parent gives');

-- a child that lost them
ALTER TABLE ONLY public.tap_c52_p21000102 ALTER COLUMN a SET COMPRESSION default,
    ALTER COLUMN b SET STORAGE EXTENDED, ALTER COLUMN d SET STORAGE EXTERNAL,
    ALTER COLUMN c SET STATISTICS -1;
DROP STATISTICS public.tap_c52_p21000102_tap_c52_dep;
ALTER STATISTICS public.tap_c52_p21000102_tap_c52_expr SET STATISTICS 10;
SELECT results_eq(
    $$SELECT child_table, property, expected, actual FROM partmgr.check_children('public.tap_c52')
       ORDER BY 1, 2$$,
    $$SELECT * FROM (VALUES
        ('public.tap_c52_p21000102', 'column compression',
         'a: ' || (SELECT method FROM public.tap_c52_method), 'a: default'),
        ('public.tap_c52_p21000102', 'column statistics target', 'c: 500', 'c: default'),
        ('public.tap_c52_p21000102', 'column storage', 'b: external, d: main',
         'b: extended, d: external'),
        ('public.tap_c52_p21000102', 'extended statistics',
         '(dependencies) ON id, c statistics 50; ON (a || b)', 'ON (a || b) statistics 10'))
        AS v(child_table, property, expected, actual) ORDER BY 1, 2$$,
    'check_children reports each column property and the extended statistics the child lacks');
SELECT lives_ok($$SELECT partmgr.reapply_child_properties('public.tap_c52')$$,
                'reapply_child_properties');
SELECT is(public.tap_c52_cols('public.tap_c52_p21000102'), public.tap_c52_expected_cols(),
          'reapply_child_properties gives the child the parent''s compression, storage and statistics target');
SELECT is(public.tap_c52_stats('public.tap_c52_p21000102'),
          '(a || b) {e} -1 postgres; id, c {f} 50 postgres',
          'and its extended statistics, the missing one made again, the other''s target reset');
SELECT is_empty($$SELECT * FROM partmgr.check_children('public.tap_c52')$$,
                'check_children: nothing left to report');
-- a statistics object of the child's own is its business
CREATE STATISTICS public.tap_c52_own ON id, d FROM public.tap_c52_p21000103;
SELECT is_empty($$SELECT * FROM partmgr.check_children('public.tap_c52')$$,
                'check_children does not report a statistics object the parent lacks');

-- a child attached by hand with nothing of that
CREATE TABLE public.tap_c52_hand (id bigint NOT NULL, ts timestamptz NOT NULL, a text, b text, c int, d text);
ALTER TABLE public.tap_c52 ATTACH PARTITION public.tap_c52_hand
    FOR VALUES FROM ('2100-02-01 00:00+00') TO ('2100-02-02 00:00+00');
SELECT is((SELECT count(*)::int FROM partmgr.check_children('public.tap_c52')
            WHERE child_table = 'public.tap_c52_hand'), 4,
          'check_children reports the four properties of a child attached by hand');
SELECT partmgr.reapply_child_properties('public.tap_c52');
SELECT is(public.tap_c52_cols('public.tap_c52_hand') || ' | ' || public.tap_c52_stats('public.tap_c52_hand'),
          public.tap_c52_expected_cols() || ' | (a || b) {e} -1 postgres; id, c {f} 50 postgres',
          'reapply_child_properties gives it all of them');

-------------------------------------------------------------------------------
-- 1b. A plain role's parent, in a schema where it may not create tables
-------------------------------------------------------------------------------
CREATE ROLE tap_c52_owner NOSUPERUSER;
CREATE SCHEMA tap_c52_h;
GRANT USAGE ON SCHEMA tap_c52_h TO PUBLIC;
CREATE TABLE public.tap_c52_seen (who text, su boolean);
GRANT INSERT ON public.tap_c52_seen TO PUBLIC;
-- the owner's code: records who runs it
CREATE FUNCTION tap_c52_h.note() RETURNS void LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    INSERT INTO public.tap_c52_seen
        SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user;
END $$;
-- IMMUTABLE (a lie), to fit an expression of extended statistics
CREATE FUNCTION tap_c52_h.spy(t text) RETURNS text LANGUAGE plpgsql IMMUTABLE
    SET search_path = pg_catalog, pg_temp AS $$ BEGIN PERFORM tap_c52_h.note(); RETURN t; END $$;
ALTER FUNCTION tap_c52_h.note() OWNER TO tap_c52_owner;
ALTER FUNCTION tap_c52_h.spy(text) OWNER TO tap_c52_owner;

CREATE TABLE public.tap_c52_o (ts timestamptz NOT NULL, a text, c int, d text) PARTITION BY RANGE (ts);
ALTER TABLE public.tap_c52_o ALTER COLUMN c SET STATISTICS 300, ALTER COLUMN d SET STORAGE MAIN;
CREATE STATISTICS public.tap_c52_o_spy ON (tap_c52_h.spy(a)) FROM public.tap_c52_o;
ALTER TABLE public.tap_c52_o OWNER TO tap_c52_owner;
SELECT ok(NOT has_schema_privilege('tap_c52_owner', 'public', 'CREATE'),
          'setup: the owner may not create tables in the parent''s schema');

SELECT partmgr.create_parent('public.tap_c52_o', 'ts', '1 day', p_premake => 1,
                             p_start_partition => '2100-01-01');
INSERT INTO public.tap_c52_o SELECT '2100-01-01 10:00+00', 'x' || g, g FROM generate_series(1, 50) g;
SELECT partmgr.run_maintenance('public.tap_c52_o', p_analyze => true);
SELECT is((SELECT string_agg(c.relname || ':' || pg_get_userbyid(c.relowner), ', ' ORDER BY c.relname)
             FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'public.tap_c52_o'::regclass),
          'tap_c52_o_default:tap_c52_owner, tap_c52_o_p21000101:tap_c52_owner, tap_c52_o_p21000102:tap_c52_owner',
          'its children (made with the caller''s rights) belong to the owner');
SELECT is((SELECT string_agg(s.stxname || ':' || pg_get_userbyid(s.stxowner), ', ' ORDER BY s.stxname)
             FROM pg_statistic_ext s JOIN pg_inherits i ON i.inhrelid = s.stxrelid
            WHERE i.inhparent = 'public.tap_c52_o'::regclass),
          'tap_c52_o_default_tap_c52_o_spy:tap_c52_owner, tap_c52_o_p21000101_tap_c52_o_spy:tap_c52_owner, tap_c52_o_p21000102_tap_c52_o_spy:tap_c52_owner',
          'and so do their statistics objects');
SELECT is((SELECT string_agg(attname || '=' || attstorage::text || '/' || attstattarget, ' ' ORDER BY attnum)
             FROM pg_attribute WHERE attrelid = 'public.tap_c52_o_p21000102'::regclass
              AND attname IN ('c', 'd')),
          'c=p/300 d=m/-1', 'premake''s child has the statistics target and storage');
SELECT is((SELECT count(*)::int FROM public.tap_c52_seen WHERE su), 0,
          'the owner''s code never ran as a superuser');
SELECT cmp_ok((SELECT count(*)::int FROM public.tap_c52_seen WHERE who = 'tap_c52_owner'), '>', 0,
              'ANALYZE evaluated its statistics expression, as the owner');
DROP STATISTICS public.tap_c52_o_p21000101_tap_c52_o_spy;
SELECT partmgr.reapply_child_properties('public.tap_c52_o');
SELECT is((SELECT string_agg(s.stxname || ':' || pg_get_userbyid(s.stxowner), ', ')
             FROM pg_statistic_ext s WHERE s.stxrelid = 'public.tap_c52_o_p21000101'::regclass),
          'tap_c52_o_p21000101_tap_c52_o_spy:tap_c52_owner',
          'reapply_child_properties makes the missing object again, the owner''s');
SELECT partmgr.run_maintenance('public.tap_c52_o', p_analyze => true);
SELECT is((SELECT count(*)::int FROM public.tap_c52_seen WHERE su), 0,
          'the owner''s code still never ran as a superuser');

-------------------------------------------------------------------------------
-- 2. No child that retention would retire at once
-------------------------------------------------------------------------------
-- A daily set whose newest child is 28 days old (maintenance missed for
-- weeks), with a retention of 5 days: children of 30, 29 and 28 days ago,
-- premake 4 (two more after the newest row would be due).
CREATE TABLE public.tap_c52_r (ts timestamptz NOT NULL, v int) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_c52_r', 'ts', '1 day', p_premake => 4,
                             p_start_partition => (date_trunc('day', now()) - interval '30 days')::text);
SELECT public.tap_c52_drop('public.tap_c52_r', date_trunc('day', now()) - interval '27 days', 'infinity');
INSERT INTO public.tap_c52_r VALUES (date_trunc('day', now()) - interval '30 days' + interval '1 hour', 1);
UPDATE partmgr.part_config SET retention = '5 days', retention_keep_table = false
 WHERE parent_table = 'public.tap_c52_r';
SELECT is(public.tap_c52_lowers('public.tap_c52_r'),
          ARRAY[date_trunc('day', now()) - interval '30 days', date_trunc('day', now()) - interval '29 days',
                date_trunc('day', now()) - interval '28 days'],
          'setup: the set''s children are 30 to 28 days old');
SELECT is(public.tap_c52_planned('public.tap_c52_r'), '{}'::timestamptz[],
          'premake: no child after rows older than the retention (each would be dropped at once)');
UPDATE partmgr.part_config SET infinite_time_partitions = true WHERE parent_table = 'public.tap_c52_r';
SELECT is((public.tap_c52_planned('public.tap_c52_r'))[1], date_trunc('day', now() - interval '5 days'),
          'infinite_time_partitions: premake starts at the child that holds now - retention');
SELECT is((SELECT array_agg(action ORDER BY step) FILTER (WHERE action <> 'create partition')
             FROM partmgr.plan_maintenance('public.tap_c52_r')),
          ARRAY['drop partition', 'drop partition', 'drop partition'],
          'and retention drops the three old children, after');
SELECT partmgr.run_maintenance('public.tap_c52_r');
SELECT is((public.tap_c52_lowers('public.tap_c52_r'))[1], date_trunc('day', now() - interval '5 days'),
          'after the run, the oldest child holds now - retention');
SELECT is((SELECT count(*)::int FROM partmgr.maintenance_log
            WHERE parent_table = 'public.tap_c52_r' AND action = 'create partition' AND run_by = 'run_maintenance'
              AND substring(detail FROM ' to ''([^'']*)''')::timestamptz < now() - interval '5 days'),
          0, 'no child that had expired was made (and dropped)');

-- a set that lost every child gets create_parent's children again, from the
-- retention's horizon on
CREATE TABLE public.tap_c52_e (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_c52_e', 'ts', '1 day', p_premake => 4);
SELECT is((public.tap_c52_lowers('public.tap_c52_e'))[1], date_trunc('day', now()) - interval '4 days',
          'setup: create_parent starts premake days before now');
SELECT public.tap_c52_drop('public.tap_c52_e', '-infinity', 'infinity');
UPDATE partmgr.part_config SET retention = '2 days' WHERE parent_table = 'public.tap_c52_e';
SELECT is((public.tap_c52_planned('public.tap_c52_e'))[1], date_trunc('day', now() - interval '2 days'),
          'children made again start at the one that holds now - retention');
SELECT partmgr.run_maintenance('public.tap_c52_e');
SELECT is((SELECT count(*)::int FROM partmgr.maintenance_log
            WHERE parent_table = 'public.tap_c52_e' AND action = 'create partition' AND run_by = 'run_maintenance'
              AND substring(detail FROM ' to ''([^'']*)''')::timestamptz < now() - interval '2 days'),
          0, 'and the run makes no older one (to be detached at once)');

-- gap fill: children of 20 to 16 days ago and of 2 days ago on, retention 10 days
CREATE TABLE public.tap_c52_g (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_c52_g', 'ts', '1 day', p_premake => 2,
                             p_start_partition => (date_trunc('day', now()) - interval '20 days')::text);
SELECT public.tap_c52_drop('public.tap_c52_g', date_trunc('day', now()) - interval '15 days',
                           date_trunc('day', now()) - interval '2 days');
UPDATE partmgr.part_config SET retention = '10 days' WHERE parent_table = 'public.tap_c52_g';
SELECT is(partmgr.partition_gap_fill('public.tap_c52_g'), 8,
          'partition_gap_fill fills 10 to 3 days ago only, not the 5 children retention would drop');
SELECT ok(to_regclass('public.tap_c52_g_p' || to_char(now() - interval '10 days', 'YYYYMMDD')) IS NOT NULL
          AND to_regclass('public.tap_c52_g_p' || to_char(now() - interval '11 days', 'YYYYMMDD')) IS NULL,
          'the first child it made holds now - retention');

-- partition_data: rows older than the retention still get their child
CREATE TABLE public.tap_c52_d (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_c52_d', 'ts', '1 day', p_premake => 1);
UPDATE partmgr.part_config SET retention = '5 days' WHERE parent_table = 'public.tap_c52_d';
INSERT INTO public.tap_c52_d VALUES (date_trunc('day', now()) - interval '30 days' + interval '1 hour');
SELECT is(partmgr.partition_data_time('public.tap_c52_d'), 1::bigint,
          'partition_data_time moves a row older than the retention out of the default partition');
SELECT ok(to_regclass('public.tap_c52_d_p' || to_char(now() - interval '30 days', 'YYYYMMDD')) IS NOT NULL,
          'into the child it needs (retention then treats it as any child)');

-------------------------------------------------------------------------------
-- 3. Retention last in a run
-------------------------------------------------------------------------------
CREATE TABLE public.tap_c52_x (id bigint NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_c52_x', 'id', '10', p_premake => 2, p_start_partition => '0',
                             p_constraint_cols => ARRAY['v']);
INSERT INTO public.tap_c52_x SELECT g, g FROM generate_series(0, 29) g;
SELECT partmgr.run_maintenance('public.tap_c52_x');
INSERT INTO public.tap_c52_x SELECT g, g FROM generate_series(30, 49) g;
-- largest id 49: p0 and p10 expire; constraints for children 2 below p40
UPDATE partmgr.part_config SET retention = '25', retention_keep_table = false, optimize_constraint = 2
 WHERE parent_table = 'public.tap_c52_x';
SELECT results_eq(
    $$SELECT step, action, object FROM partmgr.plan_maintenance('public.tap_c52_x') ORDER BY step$$,
    $$VALUES (1, 'create partition', 'public.tap_c52_x_p50'), (2, 'create partition', 'public.tap_c52_x_p60'),
             (3, 'add constraints', 'public.tap_c52_x_p20'), (4, 'drop partition', 'public.tap_c52_x_p0'),
             (5, 'drop partition', 'public.tap_c52_x_p10')$$,
    'plan_maintenance: children created, constraints added, then retention drops -- none for a child it drops');
SELECT partmgr.run_maintenance('public.tap_c52_x');
SELECT results_eq(
    $$SELECT action, object FROM partmgr.maintenance_log
       WHERE parent_table = 'public.tap_c52_x' AND action <> 'validate constraint'
         AND log_id > (SELECT max(log_id) FROM partmgr.maintenance_log
                        WHERE parent_table = 'public.tap_c52_x' AND object = 'public.tap_c52_x_p40')
       ORDER BY log_id$$,
    $$VALUES ('create partition', 'public.tap_c52_x_p50'), ('create partition', 'public.tap_c52_x_p60'),
             ('add constraints', 'public.tap_c52_x_p20'), ('drop partition', 'public.tap_c52_x_p0'),
             ('drop partition', 'public.tap_c52_x_p10')$$,
    'the run did the same, in that order');
SELECT is((SELECT count(*)::int FROM pg_constraint
            WHERE conname LIKE 'partmanconstr\_tap\_c52\_x\_%'), 1,
          'one child got derived constraints');

-- a child moved to retention_schema takes its statistics objects along
-- (ALTER TABLE ... SET SCHEMA alone leaves them behind)
CREATE SCHEMA tap_c52_archive;
CREATE TABLE public.tap_c52_arch (id int NOT NULL, a int, b int) PARTITION BY RANGE (id);
CREATE STATISTICS public.tap_c52_arch_ab (dependencies) ON a, b FROM public.tap_c52_arch;
SELECT partmgr.create_parent('public.tap_c52_arch', 'id', '10', p_premake => 1);
INSERT INTO public.tap_c52_arch SELECT g, g, g FROM generate_series(0, 29) g;
SELECT partmgr.run_maintenance('public.tap_c52_arch');
-- another role's statistics object on the child does not stop the move
CREATE ROLE tap_c52_statowner;
GRANT CREATE ON SCHEMA public TO tap_c52_statowner;
CREATE STATISTICS public.tap_c52_arch_other ON a, b FROM public.tap_c52_arch_p0;
ALTER STATISTICS public.tap_c52_arch_other OWNER TO tap_c52_statowner;
UPDATE partmgr.part_config SET retention = '15', retention_schema = 'tap_c52_archive'
 WHERE parent_table = 'public.tap_c52_arch';
SELECT partmgr.run_maintenance('public.tap_c52_arch');
SELECT results_eq(
    $$SELECT (c.relnamespace::regnamespace::text || '.' || c.relname || ' '
             || s.stxnamespace::regnamespace::text) COLLATE "default"
        FROM pg_statistic_ext s JOIN pg_class c ON c.oid = s.stxrelid
       WHERE c.relname IN ('tap_c52_arch_p0', 'tap_c52_arch_p10') ORDER BY c.relname, 1$$,
    $$VALUES ('tap_c52_archive.tap_c52_arch_p0 public'), ('tap_c52_archive.tap_c52_arch_p0 tap_c52_archive'),
             ('public.tap_c52_arch_p10 public')$$,
    'the child retention moved to its schema has its owner''s statistics object there too; another role''s stays, as does the kept child''s');

SELECT * FROM finish();
ROLLBACK;
