-- pgTAP tests of change_interval(): new children of a live set follow
-- another interval from the end of its newest child on, the old children
-- keep their bounds and names, and every function that computes a child's
-- range or name (premake, gap fill, partition_data, show_partition_name,
-- show_partition_info, plan_maintenance, the dump) goes by the interval in
-- force where the child lies.  Bad input changes nothing; only the set's
-- owner changes its interval.  Dates lie in 2030 and later, so that no
-- child depends on today's date.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = warning;

SELECT plan(58);

CREATE FUNCTION public.ci_bounds(p_parent regclass)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT string_agg(c.relname || ' ' || pg_get_expr(c.relpartbound, c.oid), E'\n'
                      ORDER BY c.relname COLLATE "C")
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent AND c.relname !~ '_default$'
$$;

-- the configuration of every set and its earlier intervals, to compare
-- before and after a call that must change nothing
CREATE FUNCTION public.ci_state()
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT string_agg(parent_table || ' ' || partition_interval || ' ' ||
                                       coalesce(datetime_string, '-'), ';' ORDER BY parent_table)
                       FROM partmgr.part_config), '') || ' | ' ||
           coalesce((SELECT string_agg(parent_table || ' ' || interval_end || ' ' || partition_interval,
                                       ';' ORDER BY parent_table, interval_end)
                       FROM partmgr.part_config_interval), '')
$$;

------------------------------------------------------------------------------
-- the objects
------------------------------------------------------------------------------
SELECT has_function('partmgr', 'change_interval', ARRAY['text', 'text', 'boolean'],
                    'change_interval(p_parent_table text, p_new_interval text, p_reshape_existing boolean) exists');
SELECT is((SELECT array_to_string(proargnames, ',') || ' -> ' || prorettype::regtype::text
             FROM pg_proc WHERE oid = 'partmgr.change_interval'::regproc),
          'p_parent_table,p_new_interval,p_reshape_existing -> text', 'its parameters and result');
SELECT columns_are('partmgr', 'part_config_interval',
                   ARRAY['parent_table', 'interval_end', 'partition_interval', 'datetime_string',
                         'date_trunc_interval', 'next_aligned', 'changed_at'],
                   'part_config_interval holds the earlier intervals');
SELECT ok(has_table_privilege('public', 'partmgr.part_config_interval', 'SELECT')
          AND NOT has_table_privilege('public', 'partmgr.part_config_interval', 'INSERT'),
          'everyone reads part_config_interval (sets are loaded with it); writing it takes grants');

------------------------------------------------------------------------------
-- a daily time set made monthly
------------------------------------------------------------------------------
CREATE TABLE public.ci_t (id int, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.ci_t', 'ts', '1 day', p_premake => 3,
                             p_start_partition => '2030-01-01');
INSERT INTO public.ci_t VALUES (1, '2030-01-01 10:00');
SELECT partmgr.run_maintenance('public.ci_t');
SELECT is(ci_bounds('public.ci_t'),
$$ci_t_p20300101 FOR VALUES FROM ('2030-01-01 00:00:00+00') TO ('2030-01-02 00:00:00+00')
ci_t_p20300102 FOR VALUES FROM ('2030-01-02 00:00:00+00') TO ('2030-01-03 00:00:00+00')
ci_t_p20300103 FOR VALUES FROM ('2030-01-03 00:00:00+00') TO ('2030-01-04 00:00:00+00')
ci_t_p20300104 FOR VALUES FROM ('2030-01-04 00:00:00+00') TO ('2030-01-05 00:00:00+00')$$,
          'the daily set before the change: four days');

SELECT is(partmgr.change_interval('public.ci_t', '1 month'), '2030-01-05 00:00:00+00',
          'change_interval returns where the new interval starts: the end of the newest child');
SELECT is((SELECT partition_interval || ' ' || datetime_string || ' ' || coalesce(date_trunc_interval, '-')
             FROM partmgr.part_config WHERE parent_table = 'public.ci_t'),
          '1 mon YYYYMMDD -', 'part_config holds the new interval (the suffix format stays pg_partman''s default)');
SELECT is((SELECT string_agg(interval_end || ' ' || partition_interval || ' ' || datetime_string, ';')
             FROM partmgr.part_config_interval WHERE parent_table = 'public.ci_t'),
          '2030-01-05 00:00:00+00 1 day YYYYMMDD', 'part_config_interval says daily children end there');
SELECT is(ci_bounds('public.ci_t'),
$$ci_t_p20300101 FOR VALUES FROM ('2030-01-01 00:00:00+00') TO ('2030-01-02 00:00:00+00')
ci_t_p20300102 FOR VALUES FROM ('2030-01-02 00:00:00+00') TO ('2030-01-03 00:00:00+00')
ci_t_p20300103 FOR VALUES FROM ('2030-01-03 00:00:00+00') TO ('2030-01-04 00:00:00+00')
ci_t_p20300104 FOR VALUES FROM ('2030-01-04 00:00:00+00') TO ('2030-01-05 00:00:00+00')$$,
          'no child changed, and none was made');
SELECT is((SELECT string_agg(object, ',' ORDER BY step) FROM partmgr.plan_maintenance('public.ci_t')
            WHERE action = 'create partition'),
          'public.ci_t_p20300105,public.ci_t_p20300201,public.ci_t_p20300301,public.ci_t_p20300401',
          'plan_maintenance shows the monthly children the next run makes');

SELECT partmgr.run_maintenance('public.ci_t');
SELECT is(ci_bounds('public.ci_t'),
$$ci_t_p20300101 FOR VALUES FROM ('2030-01-01 00:00:00+00') TO ('2030-01-02 00:00:00+00')
ci_t_p20300102 FOR VALUES FROM ('2030-01-02 00:00:00+00') TO ('2030-01-03 00:00:00+00')
ci_t_p20300103 FOR VALUES FROM ('2030-01-03 00:00:00+00') TO ('2030-01-04 00:00:00+00')
ci_t_p20300104 FOR VALUES FROM ('2030-01-04 00:00:00+00') TO ('2030-01-05 00:00:00+00')
ci_t_p20300105 FOR VALUES FROM ('2030-01-05 00:00:00+00') TO ('2030-02-01 00:00:00+00')
ci_t_p20300201 FOR VALUES FROM ('2030-02-01 00:00:00+00') TO ('2030-03-01 00:00:00+00')
ci_t_p20300301 FOR VALUES FROM ('2030-03-01 00:00:00+00') TO ('2030-04-01 00:00:00+00')
ci_t_p20300401 FOR VALUES FROM ('2030-04-01 00:00:00+00') TO ('2030-05-01 00:00:00+00')$$,
          'premake: a first child to the start of the next month, then whole months, premake of them ahead');
SELECT partmgr.run_maintenance('public.ci_t');
SELECT is((SELECT count(*)::int FROM pg_inherits WHERE inhparent = 'public.ci_t'::regclass), 9,
          'a second run makes nothing more (eight children and the default)');

SELECT is((SELECT partition_table || ' ' || table_exists FROM partmgr.show_partition_name('public.ci_t', '2030-01-03 12:00')),
          'ci_t_p20300103 true', 'show_partition_name: a value in a daily child');
SELECT is((SELECT partition_table || ' ' || table_exists FROM partmgr.show_partition_name('public.ci_t', '2030-01-20')),
          'ci_t_p20300105 true', 'show_partition_name: a value in the first, short monthly child');
SELECT is((SELECT partition_table || ' ' || suffix_timestamp || ' ' || table_exists
             FROM partmgr.show_partition_name('public.ci_t', '2030-09-15')),
          'ci_t_p20300901 2030-09-01 00:00:00+00 false', 'show_partition_name: a value beyond the children, on the monthly grid');
SELECT is((SELECT child_start_time || ' ' || child_end_time || ' ' || suffix
             FROM partmgr.show_partition_info('public.ci_t_p20300105')),
          '2030-01-05 00:00:00+00 2030-02-01 00:00:00+00 20300105', 'show_partition_info of the short child');

-- gap fill: a missing daily child comes back daily, a missing monthly one monthly
ALTER TABLE public.ci_t DETACH PARTITION public.ci_t_p20300102;
DROP TABLE public.ci_t_p20300102;
ALTER TABLE public.ci_t DETACH PARTITION public.ci_t_p20300103;
DROP TABLE public.ci_t_p20300103;
ALTER TABLE public.ci_t DETACH PARTITION public.ci_t_p20300301;
DROP TABLE public.ci_t_p20300301;
SELECT is(partmgr.partition_gap_fill('public.ci_t'), 3, 'partition_gap_fill makes three children');
SELECT is((SELECT string_agg(pg_get_expr(relpartbound, oid), ' ' ORDER BY relname) FROM pg_class
            WHERE relname IN ('ci_t_p20300102', 'ci_t_p20300103')),
          $$FOR VALUES FROM ('2030-01-02 00:00:00+00') TO ('2030-01-03 00:00:00+00') FOR VALUES FROM ('2030-01-03 00:00:00+00') TO ('2030-01-04 00:00:00+00')$$,
          'the two-day gap among the daily children is filled with two days, named as daily children');
SELECT is((SELECT pg_get_expr(relpartbound, oid) FROM pg_class WHERE oid = 'public.ci_t_p20300301'::regclass),
          $$FOR VALUES FROM ('2030-03-01 00:00:00+00') TO ('2030-04-01 00:00:00+00')$$,
          'the gap among the monthly children is filled with a month');

-- partition_data: rows of the default go to children of the interval where they lie
INSERT INTO public.ci_t VALUES (2, '2029-12-31 08:00'), (3, '2030-06-10'), (4, '2030-08-20'), (5, '2030-08-21');
SELECT is((SELECT count(*)::int FROM public.ci_t_default), 4, 'four rows wait in the default partition');
SELECT is(partmgr.partition_data_time('public.ci_t', 10), 4::bigint, 'partition_data_time moves them');
SELECT is((SELECT string_agg(c.relname || ' ' || pg_get_expr(c.relpartbound, c.oid), E'\n' ORDER BY c.relname)
             FROM pg_class c WHERE c.relname IN ('ci_t_p20291231', 'ci_t_p20300601', 'ci_t_p20300801')),
$$ci_t_p20291231 FOR VALUES FROM ('2029-12-31 00:00:00+00') TO ('2030-01-01 00:00:00+00')
ci_t_p20300601 FOR VALUES FROM ('2030-06-01 00:00:00+00') TO ('2030-07-01 00:00:00+00')
ci_t_p20300801 FOR VALUES FROM ('2030-08-01 00:00:00+00') TO ('2030-09-01 00:00:00+00')$$,
          'below the daily children a day; among the monthly ones months');
SELECT is((SELECT count(*)::int || ' ' || sum(id) FROM public.ci_t) || ' ' ||
          (SELECT count(*) FROM ONLY public.ci_t_default), '5 15 0', 'every row is in the set once, none in the default');

-- the dump registers the earlier interval too
SELECT alike(partmgr.dump_partitioned_table_definition('public.ci_t'),
            '%INSERT INTO partmgr.part_config_interval (parent_table, interval_end, partition_interval, datetime_string, date_trunc_interval, next_aligned)%VALUES (''public.ci_t'', ''2030-01-05 00:00:00+00'', ''1 day'', ''YYYYMMDD'', NULL, ''t'')%',
            'dump_partitioned_table_definition writes the earlier interval');

-- the same interval again changes nothing
SELECT ok(partmgr.change_interval('public.ci_t', '1 mon') IS NULL, 'the same interval again returns NULL');
SELECT is((SELECT count(*)::int FROM partmgr.part_config_interval WHERE parent_table = 'public.ci_t'), 1,
          'and records nothing');

------------------------------------------------------------------------------
-- changed twice before a child of the second interval exists; formats
------------------------------------------------------------------------------
CREATE TABLE public.ci_w (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.ci_w', 'ts', '1 day', p_premake => 2, p_start_partition => '2030-01-01');
SELECT partmgr.change_interval('public.ci_w', '1 month');
SELECT is(partmgr.change_interval('public.ci_w', '1 week'), '2030-01-02 00:00:00+00',
          'a second change before any child: the new interval starts at the same bound');
SELECT is((SELECT string_agg(interval_end || ' ' || partition_interval, ';') FROM partmgr.part_config_interval
            WHERE parent_table = 'public.ci_w'), '2030-01-02 00:00:00+00 1 day',
          'one earlier interval: the daily one (no monthly child was ever made)');
INSERT INTO public.ci_w VALUES ('2030-01-01 01:00');
SELECT partmgr.run_maintenance('public.ci_w');
SELECT is(ci_bounds('public.ci_w'),
$$ci_w_p20300101 FOR VALUES FROM ('2030-01-01 00:00:00+00') TO ('2030-01-02 00:00:00+00')
ci_w_p20300102 FOR VALUES FROM ('2030-01-02 00:00:00+00') TO ('2030-01-09 00:00:00+00')
ci_w_p20300109 FOR VALUES FROM ('2030-01-09 00:00:00+00') TO ('2030-01-16 00:00:00+00')
ci_w_p20300116 FOR VALUES FROM ('2030-01-16 00:00:00+00') TO ('2030-01-23 00:00:00+00')$$,
          'weekly from there (7 days align to the day, as in create_parent), until the newest is two weeks past the rows');

CREATE TABLE public.ci_h (ts timestamp NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.ci_h', 'ts', '1 hour', p_premake => 2, p_start_partition => '2030-01-01 00:00');
SELECT partmgr.change_interval('public.ci_h', '1 day');
SELECT is((SELECT datetime_string FROM partmgr.part_config WHERE parent_table = 'public.ci_h'), 'YYYYMMDD',
          'hourly to daily: the default suffix format becomes the daily default');
SELECT is((SELECT datetime_string FROM partmgr.part_config_interval WHERE parent_table = 'public.ci_h'),
          'YYYYMMDD_HH24MISS', 'and the hourly children keep theirs');
SELECT is((SELECT partition_table FROM partmgr.show_partition_name('public.ci_h', '2030-01-01 00:30')),
          'ci_h_p20300101_000000', 'an hourly child is still named as one');
SELECT is((SELECT partition_table FROM partmgr.show_partition_name('public.ci_h', '2030-01-05 10:00')),
          'ci_h_p20300105', 'a daily child is named as one');

CREATE TABLE public.ci_m (ts date NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.ci_m', 'ts', '1 month', p_premake => 1, p_start_partition => '2030-01-01');
UPDATE partmgr.part_config SET datetime_string = 'YYYY_MM' WHERE parent_table = 'public.ci_m';
SELECT partmgr.change_interval('public.ci_m', '3 months');
SELECT is((SELECT datetime_string FROM partmgr.part_config WHERE parent_table = 'public.ci_m'), 'YYYY_MM',
          'a format of the set''s own that tells the new children apart is kept');
SELECT partmgr.change_interval('public.ci_m', '1 day');
SELECT is((SELECT datetime_string FROM partmgr.part_config WHERE parent_table = 'public.ci_m'), 'YYYYMMDD',
          'one that would give two daily children one name becomes the daily default');

------------------------------------------------------------------------------
-- an id set
------------------------------------------------------------------------------
CREATE TABLE public.ci_i (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.ci_i', 'id', '10', p_premake => 2, p_start_partition => '0');
INSERT INTO public.ci_i VALUES (25);
SELECT partmgr.run_maintenance('public.ci_i');
SELECT is(partmgr.change_interval('public.ci_i', '100'), '50', 'an id set: the new interval starts at 50');
SELECT partmgr.run_maintenance('public.ci_i');
SELECT is(ci_bounds('public.ci_i'),
$$ci_i_p0 FOR VALUES FROM ('0') TO ('10')
ci_i_p10 FOR VALUES FROM ('10') TO ('20')
ci_i_p100 FOR VALUES FROM ('100') TO ('200')
ci_i_p20 FOR VALUES FROM ('20') TO ('30')
ci_i_p200 FOR VALUES FROM ('200') TO ('300')
ci_i_p30 FOR VALUES FROM ('30') TO ('40')
ci_i_p40 FOR VALUES FROM ('40') TO ('50')
ci_i_p50 FOR VALUES FROM ('50') TO ('100')$$,
          'to the next multiple of 100, then hundreds, premake of them ahead of the rows');
INSERT INTO public.ci_i VALUES (555), (7);
SELECT is(partmgr.partition_data_id('public.ci_i', 10), 1::bigint, 'partition_data_id moves the row beyond the children');
SELECT is((SELECT pg_get_expr(relpartbound, oid) FROM pg_class WHERE oid = 'public.ci_i_p500'::regclass),
          $$FOR VALUES FROM ('500') TO ('600')$$, 'into a child of the new interval');
SELECT is((SELECT children || ' ' || newest_upper || ' ' || intervals_left || ' ' || status
             FROM partmgr.health WHERE parent_table = 'public.ci_i'),
          '9 600 0.4 critical', 'health counts the intervals left ahead of the rows (45 ids) in the new interval, and alarms');
UPDATE partmgr.part_config SET retention = '300' WHERE parent_table = 'public.ci_i';
SELECT partmgr.run_maintenance('public.ci_i');
SELECT is((SELECT string_agg(partition_tablename, ',') FROM partmgr.show_partitions('public.ci_i')),
          'ci_i_p200,ci_i_p500,ci_i_p600,ci_i_p700',
          'retention across both intervals: every child ending at or below 555 - 300 goes; premake makes 600 and 700');

------------------------------------------------------------------------------
-- a sub-set: its new children stay in the range its table covers
------------------------------------------------------------------------------
CREATE TABLE public.ci_s (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.ci_s', 'id', '100', p_premake => 1, p_start_partition => '0');
SELECT partmgr.create_sub_parent('public.ci_s', 'id', '10', p_premake => 1, p_declarative_check => 'yes');
INSERT INTO public.ci_s VALUES (15);
SELECT partmgr.run_maintenance('public.ci_s_p0');
SELECT is(partmgr.change_interval('public.ci_s_p0', '20'), '30', 'a sub-set''s interval changes from 30 on');
SELECT partmgr.run_maintenance('public.ci_s_p0');
INSERT INTO public.ci_s VALUES (75), (95);
SELECT is(partmgr.partition_data_id('public.ci_s_p0', 10), 2::bigint, 'partition_data_id moves two rows in the sub-set');
SELECT is(ci_bounds('public.ci_s_p0'),
$$ci_s_p0_p0 FOR VALUES FROM ('0') TO ('10')
ci_s_p0_p10 FOR VALUES FROM ('10') TO ('20')
ci_s_p0_p20 FOR VALUES FROM ('20') TO ('30')
ci_s_p0_p60 FOR VALUES FROM ('60') TO ('80')
ci_s_p0_p80 FOR VALUES FROM ('80') TO ('100')$$,
          'rows into children of 20, the last ending at the sub-set''s own bound');

------------------------------------------------------------------------------
-- bad input: an error with its SQLSTATE, and nothing changed
------------------------------------------------------------------------------
CREATE TABLE public.ci_l (k int NOT NULL) PARTITION BY LIST (k);
SELECT partmgr.create_parent('public.ci_l', 'k', '1', p_type => 'list', p_start_partition => '1');
CREATE TABLE public.ci_x (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.ci_x', 'ts', '1 day', p_premake => 1, p_start_partition => '2030-01-01');
CREATE TABLE public.ci_top (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.ci_top', 'id', '100', p_premake => 1, p_start_partition => '0');
CREATE TABLE public.ci_top_rest PARTITION OF public.ci_top FOR VALUES FROM (200) TO (MAXVALUE);
CREATE TABLE public.ci_sub (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.ci_sub', 'id', '100', p_premake => 1, p_start_partition => '0');
SELECT partmgr.create_sub_parent('public.ci_sub', 'id', '10', p_premake => 1, p_declarative_check => 'yes');
CREATE TABLE public.ci_n (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
CREATE TEMP TABLE ci_before AS SELECT ci_state() AS s;

SELECT throws_ok($$SELECT partmgr.change_interval('public.ci_l', '2')$$, '22023', NULL,
                 'a list set: 22023');
SELECT throws_ok($$SELECT partmgr.change_interval('public.ci_x', 'soon')$$, '22023', NULL,
                 'an interval that is none: 22023');
SELECT throws_ok($$SELECT partmgr.change_interval('public.ci_i', '1')$$, '22023', NULL,
                 'an id interval of 1: 22023');
SELECT throws_ok($$SELECT partmgr.change_interval('public.ci_top', '1000')$$, '55000', NULL,
                 'a set whose top child takes every value up to MAXVALUE: 55000');
SELECT throws_ok($$SELECT partmgr.change_interval('public.ci_sub', '5')$$, '22023', NULL,
                 'a sub-partitioned set given an interval not larger than its sub-sets'': 22023');
SELECT throws_ok($$SELECT partmgr.change_interval('public.ci_n', '1 day')$$, '42704', NULL,
                 'a table that is not a set: 42704');
CREATE TABLE public.ci_x_p20300102_000000 (ts timestamptz NOT NULL);
SELECT throws_ok($$SELECT partmgr.change_interval('public.ci_x', '1 hour')$$, '42P07', NULL,
                 'a table holding the name a new child needs: 42P07');
DROP TABLE public.ci_x_p20300102_000000;
UPDATE partmgr.part_config SET async_partitioning_in_progress = '2030-03-01' WHERE parent_table = 'public.ci_x';
SELECT throws_ok($$SELECT partmgr.change_interval('public.ci_x', '1 hour')$$, '55000', NULL,
                 'while partition_data_async fills a child: 55000');
UPDATE partmgr.part_config SET async_partitioning_in_progress = NULL WHERE parent_table = 'public.ci_x';
SELECT is(ci_state(), (SELECT s FROM ci_before), 'after all of them the configuration is as it was');

------------------------------------------------------------------------------
-- only the owner
------------------------------------------------------------------------------
CREATE ROLE ci_alice NOSUPERUSER;
CREATE ROLE ci_bob NOSUPERUSER;
GRANT USAGE, CREATE ON SCHEMA partmgr TO ci_alice, ci_bob;
GRANT SELECT, INSERT, UPDATE, DELETE ON partmgr.part_config, partmgr.part_config_sub,
      partmgr.part_config_interval, partmgr.maintenance_log TO ci_alice, ci_bob;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA partmgr TO ci_alice, ci_bob;
CREATE SCHEMA ci_a AUTHORIZATION ci_alice;
SET ROLE ci_alice;
CREATE TABLE ci_a.t (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('ci_a.t', 'ts', '1 day', p_premake => 1, p_start_partition => '2030-01-01');
RESET ROLE;
DELETE FROM ci_before;
INSERT INTO ci_before SELECT ci_state();
SET ROLE ci_bob;
SELECT throws_ok($$SELECT partmgr.change_interval('ci_a.t', '1 hour')$$, '42501', NULL,
                 'another role cannot change the interval of alice''s set: 42501');
SELECT throws_ok($$INSERT INTO partmgr.part_config_interval (parent_table, interval_end, partition_interval)
                   VALUES ('ci_a.t', '2000-01-01 00:00:00+00', '1 year')$$, '42501', NULL,
                 'nor write an earlier interval of it into part_config_interval: 42501');
RESET ROLE;
SELECT is(ci_state(), (SELECT s FROM ci_before), 'alice''s set is as it was');
SET ROLE ci_alice;
SELECT is(partmgr.change_interval('ci_a.t', '1 hour'), '2030-01-02 00:00:00+00',
          'alice, with the documented grants, changes her own set''s interval');
RESET ROLE;

-- forgetting a set forgets its earlier intervals
SELECT partmgr.config_cleanup('public.ci_t');
SELECT is((SELECT count(*)::int FROM partmgr.part_config_interval WHERE parent_table = 'public.ci_t'), 0,
          'config_cleanup removes the set''s earlier intervals with its part_config row');

SELECT * FROM finish();
ROLLBACK;
