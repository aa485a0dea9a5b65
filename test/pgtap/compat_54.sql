-- pgTAP tests of pg_partman 5.3 and 5.4.4's create_parent parameters and
-- configuration columns: p_offset_id (5.3), p_timezone and
-- part_config.partition_timezone (5.4.4), pg_partmgr 0.3's p_time_zone as
-- another name for p_timezone, the columns part_config took over from
-- part_config_ext, and dump_partitioned_table_definition writing all of it
-- (p_control_not_null included, 5.2) so that its output replays.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = warning;

SELECT plan(44);

CREATE FUNCTION public.tap_bounds(p_parent regclass)
RETURNS SETOF text
LANGUAGE sql STABLE AS $$
    SELECT pg_get_expr(c.relpartbound, c.oid) COLLATE "default"
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent
     ORDER BY pg_get_expr(c.relpartbound, c.oid) COLLATE "C"
$$;

-- a set's configuration as a dump must give it back
CREATE FUNCTION public.tap_config(p_parent text)
RETURNS jsonb
LANGUAGE sql STABLE AS $$
    SELECT to_jsonb(c) - 'maintenance_last_run' FROM partmgr.part_config c WHERE c.parent_table = p_parent
$$;

------------------------------------------------------------------------------
-- the signatures: names, positions, types, defaults
------------------------------------------------------------------------------
SELECT is((SELECT array_to_string(proargnames[14:19], ',') || ' / ' ||
                  (pg_get_function_arguments(oid) ~ 'p_offset_id bigint DEFAULT 0, p_timezone text DEFAULT NULL::text, p_time_zone text DEFAULT NULL::text$')::text
             FROM pg_proc WHERE oid = 'partmgr.create_parent'::regproc),
          'p_control_not_null,p_time_encoder,p_time_decoder,p_offset_id,p_timezone,p_time_zone / true',
          'create_parent: p_offset_id bigint DEFAULT 0 17th, p_timezone text DEFAULT NULL 18th, then p_time_zone');
SELECT is((SELECT pg_get_function_arguments(oid) FROM pg_proc WHERE oid = 'partmgr.create_partition'::regproc),
          (SELECT pg_get_function_arguments(oid) FROM pg_proc WHERE oid = 'partmgr.create_parent'::regproc),
          'create_partition takes exactly create_parent''s parameters');
SELECT is((SELECT count(*)::int FROM pg_proc WHERE proname IN ('create_parent', 'create_partition')
              AND pronamespace = 'partmgr'::regnamespace), 2,
          'one declaration of each: no older overload is left to make calls ambiguous');
SELECT columns_are('partmgr', 'part_config', ARRAY[
    'parent_table', 'control', 'partition_interval', 'partition_type', 'premake',
    'automatic_maintenance', 'template_table', 'retention', 'retention_schema',
    'retention_keep_index', 'retention_keep_table', 'epoch', 'constraint_cols',
    'optimize_constraint', 'infinite_time_partitions', 'datetime_string', 'jobmon',
    'sub_partition_set_full', 'undo_in_progress', 'inherit_privileges', 'constraint_valid',
    'ignore_default_data', 'default_table', 'date_trunc_interval', 'maintenance_order',
    'retention_keep_publication', 'maintenance_last_run', 'time_encoder', 'time_decoder',
    'async_partitioning_in_progress', 'partition_timezone'],
    'part_config has pg_partman 5.4.4''s columns (and 5.1''s default_table)');
SELECT hasnt_table('partmgr', 'part_config_ext', 'part_config_ext is gone: its columns are part_config''s');

------------------------------------------------------------------------------
-- p_timezone (5.4.4): the zone a set is aligned in, recorded
------------------------------------------------------------------------------
CREATE TABLE public.tap_msk (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_msk', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 1, p_timezone => 'Europe/Moscow');
SELECT results_eq($$SELECT * FROM tap_bounds('public.tap_msk')$$,
    $$VALUES ('DEFAULT'), ('FOR VALUES FROM (''2099-12-31 21:00:00+00'') TO (''2100-01-01 21:00:00+00'')')$$,
    'p_timezone Europe/Moscow from a UTC session: the day is Moscow''s midnight to midnight');
SELECT is((SELECT partition_timezone FROM partmgr.part_config WHERE parent_table = 'public.tap_msk'),
          'Europe/Moscow', 'p_timezone is recorded in part_config.partition_timezone');
SELECT ok(to_regclass('public.tap_msk_p21000101') IS NOT NULL, 'the child is named by its Moscow date');

-- created from a Moscow session without p_timezone: Moscow, recorded
SET TimeZone = 'Europe/Moscow';
CREATE TABLE public.tap_msk2 (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_msk2', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 1);
SET TimeZone = 'UTC';
SELECT is((SELECT partition_timezone FROM partmgr.part_config WHERE parent_table = 'public.tap_msk2'),
          'Europe/Moscow', 'no p_timezone: the creating session''s TimeZone is recorded');
SELECT results_eq($$SELECT * FROM tap_bounds('public.tap_msk2')$$, $$SELECT * FROM tap_bounds('public.tap_msk')$$,
    'and the set is aligned in it, as with p_timezone => ''Europe/Moscow''');
-- maintained from a UTC session: new children stay on Moscow's midnights
INSERT INTO public.tap_msk2 VALUES ('2100-01-01 12:00+00');
SELECT partmgr.run_maintenance('public.tap_msk2');
SELECT is((SELECT count(*)::int FROM tap_bounds('public.tap_msk2') b
            WHERE b <> 'DEFAULT' AND b !~ '^FOR VALUES FROM \(''[0-9-]+ 21:00:00\+00''\) TO \(''[0-9-]+ 21:00:00\+00''\)$'),
          0, 'run_maintenance from a UTC session makes children on Moscow''s midnights (no drift)');
SELECT ok(to_regclass('public.tap_msk2_p21000102') IS NOT NULL AND to_regclass('public.tap_msk2_p21000103') IS NULL,
          'premake 1 ahead of the child holding the row, named by its Moscow date');

-- p_time_zone, pg_partmgr 0.3's name, is the same parameter
CREATE TABLE public.tap_alias (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_alias', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 1, p_time_zone => 'Europe/Moscow');
SELECT is((SELECT partition_timezone FROM partmgr.part_config WHERE parent_table = 'public.tap_alias'),
          'Europe/Moscow', 'p_time_zone is recorded as partition_timezone too');
CREATE TABLE public.tap_both (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT lives_ok($$SELECT partmgr.create_parent('public.tap_both', 'ts', '1 day', p_start_partition => '2100-01-01',
                                                p_timezone => 'Asia/Tokyo', p_time_zone => 'Asia/Tokyo')$$,
    'p_timezone and p_time_zone naming the same zone are accepted');
CREATE TABLE public.tap_clash (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_clash', 'ts', '1 day',
                                                 p_timezone => 'Asia/Tokyo', p_time_zone => 'UTC')$$,
    '22023', 'p_timezone "Asia/Tokyo" and p_time_zone "UTC" name different time zones',
    'p_timezone and p_time_zone naming different zones: 22023');
SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_clash', 'ts', '1 day', p_timezone => 'Mars/Olympus_Mons')$$,
    '22023', 'time zone "Mars/Olympus_Mons" is not recognized', 'an unknown p_timezone: 22023');
SELECT is((SELECT count(*)::int FROM partmgr.part_config WHERE parent_table = 'public.tap_clash')
          + (SELECT count(*)::int FROM pg_inherits WHERE inhparent = 'public.tap_clash'::regclass), 0,
          'the refused calls left no configuration and no child');

-- integer sets record no zone (pg_partman 5.4.4); p_timezone does not matter there
CREATE TABLE public.tap_ids (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_ids', 'id', '10', p_timezone => 'Asia/Tokyo');
SELECT is((SELECT partition_timezone FROM partmgr.part_config WHERE parent_table = 'public.tap_ids'),
          NULL, 'an integer set records no zone');

-- partition_timezone NULL (a row written by hand, as pg_partman before
-- 5.4.4 left it): the TimeZone of the session at work, as pg_partman did
UPDATE partmgr.part_config SET partition_timezone = NULL WHERE parent_table = 'public.tap_alias';
SET TimeZone = 'Asia/Tokyo';
SELECT is((SELECT partition_timezone FROM partmgr.part_config WHERE parent_table = 'public.tap_alias'), NULL,
          'partition_timezone may be NULL');
SELECT is((SELECT child_start_time FROM partmgr.show_partition_info('public.tap_alias_p21000101'))::text,
          '2100-01-01 06:00:00+09', 'a NULL zone still reads the existing children''s bounds');
SELECT is(partmgr.dump_partitioned_table_definition('public.tap_alias') ~ 'p_timezone', false,
          'a NULL zone is not dumped as p_timezone');
SET TimeZone = 'UTC';
SELECT throws_ok($$UPDATE partmgr.part_config SET partition_timezone = 'Europe/Atlantis' WHERE parent_table = 'public.tap_msk'$$,
    '23514', NULL, 'part_config refuses an unknown partition_timezone');

------------------------------------------------------------------------------
-- p_offset_id (5.3): integer bounds offset from the multiples of the interval
------------------------------------------------------------------------------
CREATE TABLE public.tap_off (id bigint NOT NULL, v text) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_off', 'id', '10', p_premake => 2, p_offset_id => 5);
SELECT results_eq($$SELECT * FROM tap_bounds('public.tap_off')$$,
    $$VALUES ('DEFAULT'), ('FOR VALUES FROM (''15'') TO (''25'')'), ('FOR VALUES FROM (''25'') TO (''35'')'),
             ('FOR VALUES FROM (''5'') TO (''15'')')$$,
    'p_offset_id 5, interval 10, empty table: as pg_partman 5.3, the set starts at 0 + 5, premake 2 above it');
INSERT INTO public.tap_off SELECT g, 'row ' || g FROM generate_series(0, 24) g;
SELECT partmgr.run_maintenance('public.tap_off');
SELECT is((SELECT string_agg(b, ' ' ORDER BY b) FROM tap_bounds('public.tap_off') b WHERE b ~ '''35'''),
          'FOR VALUES FROM (''25'') TO (''35'') FOR VALUES FROM (''35'') TO (''45'')',
          'maintenance continues the offset grid: [35, 45) after rows reach 24');
SELECT is((SELECT string_agg(id::text, ' ' ORDER BY id) FROM ONLY public.tap_off_default), '0 1 2 3 4',
          'the rows below the first child, 0 to 4, are in the default, as with pg_partman');
-- a start and an offset: the child holding the start, on the offset grid
CREATE TABLE public.tap_off_start (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_off_start', 'id', '100', p_premake => 1, p_offset_id => 30,
                             p_start_partition => '1000');
SELECT results_eq($$SELECT * FROM tap_bounds('public.tap_off_start')$$,
    $$VALUES ('DEFAULT'), ('FOR VALUES FROM (''1030'') TO (''1130'')'), ('FOR VALUES FROM (''1130'') TO (''1230'')')$$,
    'p_start_partition 1000, offset 30, interval 100: the set starts at 1000 + 30, then [1130, 1230)');
-- by position: p_offset_id is the 17th argument
CREATE TABLE public.tap_off_pos (id int NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_off_pos', 'id', '10', 'range', 'none', 1, '100', true, 'on',
                             NULL, NULL, true, NULL, true, NULL, NULL, 3);
SELECT results_eq($$SELECT * FROM tap_bounds('public.tap_off_pos')$$,
    $$VALUES ('DEFAULT'), ('FOR VALUES FROM (103) TO (113)'), ('FOR VALUES FROM (113) TO (123)')$$,
    'create_parent by position, 17th argument 3: the offset');
SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_clash', 'ts', '1 day', p_offset_id => 5)$$,
    '22023', 'p_offset_id applies only to sets partitioned by an integer, not to "public.tap_clash"',
    'p_offset_id on a time set: 22023');
SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_clash', 'ts', '1 day', p_offset_id => NULL)$$,
    '22004', 'argument p_offset_id must not be NULL', 'p_offset_id NULL: 22004');
CREATE TABLE public.tap_off_big (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_off_big', 'id', '10', p_premake => 1,
                                                 p_start_partition => '-9223372036854775808', p_offset_id => 5)$$,
    '22003', NULL, 'an offset that takes the first child below bigint''s range: 22003');

-- no child holds an infinite value: show_partition_name says so (22008)
SELECT throws_ok($$SELECT * FROM partmgr.show_partition_name('public.tap_msk', 'infinity')$$,
    '22008', 'no child of "public.tap_msk" can hold the value infinity',
    'show_partition_name of infinity: 22008, naming the set');
SELECT throws_ok($$SELECT * FROM partmgr.show_partition_name('public.tap_msk', '-infinity')$$,
    '22008', 'no child of "public.tap_msk" can hold the value -infinity',
    'show_partition_name of -infinity: 22008');

------------------------------------------------------------------------------
-- an existing default (pg_partman 5.3 reuses a table named <parent>_default)
------------------------------------------------------------------------------
-- attached already: kept (create_parent.sql); a plain table of that name is
-- not attached unasked -- its rows and its owner's triggers would join the set
CREATE TABLE public.tap_pd (id int NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE public.tap_pd_default (id int NOT NULL);
SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_pd', 'id', '10')$$,
    '42P07', 'relation "public.tap_pd_default" already exists',
    'a plain table holding the default''s name: 42P07, nothing attached');
ALTER TABLE public.tap_pd ATTACH PARTITION public.tap_pd_default DEFAULT;
SELECT lives_ok($$SELECT partmgr.create_parent('public.tap_pd', 'id', '10')$$,
    'attached as the default by its owner, as the hint says, it is taken up');
SELECT is((SELECT count(*)::int FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'public.tap_pd'::regclass AND pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT'
              AND c.relname = 'tap_pd_default'), 1,
    'and stays the set''s only default partition');

------------------------------------------------------------------------------
-- dump_partitioned_table_definition: everything, replayable
------------------------------------------------------------------------------
-- a nullable control column (p_control_not_null => false), a zone, many settings
CREATE TABLE public.tap_dump (ts timestamp, v int, w text) PARTITION BY RANGE (ts);
CREATE TABLE public.tap_dump_tpl (ts timestamp, v int, w text) WITH (fillfactor = 80);
SELECT partmgr.create_parent('public.tap_dump', 'ts', '1 week', p_premake => 2,
                             p_start_partition => '2100-01-04', p_default_table => true,
                             p_automatic_maintenance => 'off', p_constraint_cols => ARRAY['v'],
                             p_template_table => 'public.tap_dump_tpl', p_jobmon => false,
                             p_date_trunc_interval => 'week', p_control_not_null => false,
                             p_timezone => 'America/Sao_Paulo');
UPDATE partmgr.part_config
   SET optimize_constraint = 5, retention = '52 weeks', retention_schema = NULL,
       retention_keep_index = false, retention_keep_table = false, infinite_time_partitions = true,
       inherit_privileges = true, constraint_valid = false, ignore_default_data = false,
       maintenance_order = 3, retention_keep_publication = true
 WHERE parent_table = 'public.tap_dump';
CREATE TEMP TABLE tap_dump_sql AS
    SELECT partmgr.dump_partitioned_table_definition('public.tap_dump') AS sql,
           tap_config('public.tap_dump') AS conf,
           (SELECT array_agg(b) FROM tap_bounds('public.tap_dump') b) AS bounds;
SELECT matches((SELECT sql FROM tap_dump_sql), 'p_control_not_null := ''f''',
    'the dump of a set with a nullable control column passes p_control_not_null := false');
SELECT matches((SELECT sql FROM tap_dump_sql), 'p_timezone := ''America/Sao_Paulo''.*partition_timezone = ''America/Sao_Paulo''',
    'and its zone, to create_parent and in the UPDATE');
SELECT partmgr.config_cleanup('public.tap_dump', p_template_table => false);
SELECT lives_ok($q$DO $do$ BEGIN EXECUTE (SELECT sql FROM tap_dump_sql); END $do$$q$,
    'the dump replays: create_parent accepts the nullable control column');
SELECT is(tap_config('public.tap_dump'), (SELECT conf FROM tap_dump_sql),
    'after the replay part_config is what it was, column for column');
SELECT ok((SELECT array_agg(b) FROM tap_bounds('public.tap_dump') b) @> (SELECT bounds FROM tap_dump_sql),
    'and the children are still there (create_parent adopts them; it also makes its premake window around now, as pg_partman''s does)');
SELECT is(partmgr.dump_partitioned_table_definition('public.tap_dump'), (SELECT sql FROM tap_dump_sql),
    'dumped again, the same text');

-- an offset grid and a time encoder
CREATE TEMP TABLE tap_off_sql AS
    SELECT partmgr.dump_partitioned_table_definition('public.tap_off') AS sql, tap_config('public.tap_off') AS conf;
SELECT matches((SELECT sql FROM tap_off_sql), 'p_control_not_null := ''t'',\s+p_offset_id := 5\s*\);',
    'the dump of an offset set passes p_offset_id := 5, read from its children');
SELECT partmgr.config_cleanup('public.tap_off', p_template_table => false);
DELETE FROM public.tap_off;
DO $$ BEGIN EXECUTE (SELECT sql FROM tap_off_sql); END $$;
SELECT is(tap_config('public.tap_off'), (SELECT conf FROM tap_off_sql),
    'the offset set replays to the same configuration');
CREATE TABLE public.tap_uuid (id uuid NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_uuid', 'id', '1 day', p_start_partition => '2100-01-01',
                             p_time_encoder => 'partmgr.uuid7_time_encoder',
                             p_time_decoder => 'partmgr.uuid7_time_decoder', p_timezone => 'Asia/Tokyo');
CREATE TEMP TABLE tap_uuid_sql AS
    SELECT partmgr.dump_partitioned_table_definition('public.tap_uuid') AS sql, tap_config('public.tap_uuid') AS conf;
SELECT partmgr.config_cleanup('public.tap_uuid', p_template_table => false);
DO $$ BEGIN EXECUTE (SELECT sql FROM tap_uuid_sql); END $$;
SELECT is(tap_config('public.tap_uuid'), (SELECT conf FROM tap_uuid_sql),
    'a uuid set with an encoder, a decoder and a zone replays to the same configuration');

SELECT * FROM finish();
ROLLBACK;
