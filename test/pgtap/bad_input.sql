-- pgTAP tests of bad input: every bad call raises an ERROR with its own
-- SQLSTATE and message, and leaves part_config, part_config_sub and pg_class
-- as they were.
--
-- Each case is two assertions: throws_ok (SQLSTATE and message) and a check
-- that the catalog digest is still the one taken before the first bad call.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = warning;

SELECT plan(166);

-- A digest of what a bad call must not change: the configuration rows and the
-- relations outside temporary schemas (pgTAP keeps its state in temp tables).
CREATE FUNCTION public.tap_catalog_state()
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT format('part_config: %s rows %s; part_config_sub: %s rows %s; pg_class: %s relations %s',
        (SELECT count(*) FROM partmgr.part_config),
        (SELECT md5(coalesce(string_agg(c::text, E'\n' ORDER BY c.parent_table), ''))
           FROM partmgr.part_config c),
        (SELECT count(*) FROM partmgr.part_config_sub),
        (SELECT md5(coalesce(string_agg(s::text, E'\n' ORDER BY s.sub_parent), ''))
           FROM partmgr.part_config_sub s),
        (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname NOT LIKE 'pg\_temp\_%' AND n.nspname NOT LIKE 'pg\_toast\_temp\_%'),
        (SELECT md5(string_agg(c.oid::text || ':' || c.relname, ',' ORDER BY c.oid))
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname NOT LIKE 'pg\_temp\_%' AND n.nspname NOT LIKE 'pg\_toast\_temp\_%'))
$$;

-- Fixtures
CREATE TABLE public.tap_plain (id int NOT NULL, ts timestamptz NOT NULL);
CREATE TABLE public.tap_tpl_extra (id int, ts timestamptz, extra int);
CREATE TABLE public.tap_tpl_type (id bigint, ts timestamptz);
CREATE TABLE public.tap_ts (id int NOT NULL, ts timestamptz NOT NULL, note text) PARTITION BY RANGE (ts);
CREATE TABLE public.tap_tsnull (ts timestamptz) PARTITION BY RANGE (ts);
CREATE TABLE public.tap_multi (a int NOT NULL, b int NOT NULL) PARTITION BY RANGE (a, b);
CREATE TABLE public.tap_expr (id bigint NOT NULL) PARTITION BY RANGE ((id + 1));
CREATE TABLE public.tap_hash (id bigint NOT NULL) PARTITION BY HASH (id);
CREATE TABLE public.tap_text (t text NOT NULL) PARTITION BY RANGE (t);
CREATE TABLE public.tap_list (id int NOT NULL) PARTITION BY LIST (id);
CREATE TABLE public.tap_id (id bigint NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE public.tap_date (d date NOT NULL) PARTITION BY RANGE (d);
CREATE TABLE public.tap_small (id smallint NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE public.tap_taken (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
CREATE TABLE public.tap_taken_p21000101 (x int);
-- registered sets, one time and one id
CREATE TABLE public.tap_reg_time (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_reg_time', 'ts', '1 day', p_start_partition => '2100-01-01');
CREATE TABLE public.tap_reg_id (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_reg_id', 'id', '100', p_start_partition => '0', p_premake => 1);
CREATE ROLE tap_not_owner;
GRANT USAGE ON SCHEMA partmgr TO tap_not_owner;

CREATE TEMP TABLE tap_before AS SELECT public.tap_catalog_state() AS state;

-- throws_ok plus the unchanged-catalog check, as one helper
CREATE FUNCTION public.tap_bad(p_sql text, p_state text, p_message text, p_description text)
RETURNS SETOF text
LANGUAGE plpgsql AS $$
BEGIN
    RETURN NEXT throws_ok(p_sql, p_state, p_message, p_description);
    RETURN NEXT is(public.tap_catalog_state(), (SELECT state FROM tap_before),
                   p_description || ': catalog unchanged');
END
$$;

------------------------------------------------------------------------------
-- create_parent: the table and its control column
------------------------------------------------------------------------------
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_nope', 'ts', '1 day')$$,
    '42P01', 'table "public.tap_nope" does not exist',
    'create_parent on a missing table');
SELECT tap_bad($$SELECT partmgr.create_parent('tap_no_schema.tap_ts', 'ts', '1 day')$$,
    '42P01', 'table "tap_no_schema.tap_ts" does not exist',
    'create_parent in a missing schema');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_plain', 'ts', '1 day')$$,
    '42809', 'table "public.tap_plain" is not partitioned',
    'create_parent on a table that is not partitioned');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'nope', '1 day')$$,
    '42703', 'column "nope" of table "public.tap_ts" does not exist',
    'create_parent with a control column that does not exist');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'id', '1 day')$$,
    '22023', 'column "id" is not the partition key of table "public.tap_ts"',
    'create_parent with a control column that is not the partition key');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_multi', 'a', '10')$$,
    '0A000', 'table "public.tap_multi" is partitioned by more than one column',
    'create_parent on a table with a multi-column partition key');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_expr', 'id', '10')$$,
    '0A000', 'table "public.tap_expr" is partitioned by an expression',
    'create_parent on a table partitioned by an expression');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_hash', 'id', '10')$$,
    '22023', 'table "public.tap_hash" is partitioned by HASH, but p_type is "range"',
    'create_parent on a HASH partitioned table without p_type => ''hash''');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_tsnull', 'ts', '1 day')$$,
    '55000', 'control column "ts" of table "public.tap_tsnull" is nullable',
    'create_parent with a nullable control column');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_text', 't', '1 day')$$,
    '0A000', 'control column "t" has type text, which pg_partmgr cannot partition by',
    'create_parent with a text control column');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_list', 'id', '10')$$,
    '22023', 'table "public.tap_list" is partitioned by LIST, but p_type is "range"',
    'create_parent with p_type range on a LIST partitioned table');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_taken', 'ts', '1 day', p_start_partition => '2100-01-01')$$,
    '42P07', 'relation "public.tap_taken_p21000101" already exists',
    'create_parent when a table already holds the first child''s name');
SELECT tap_bad($$SET LOCAL ROLE tap_not_owner;
                 SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day')$$,
    '42501', 'must be owner of table tap_ts',
    'create_parent by a role that does not own the table');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_reg_time', 'ts', '1 day')$$,
    '42710', 'table "public.tap_reg_time" is already managed by pg_partmgr',
    'create_parent on a table registered already');
SELECT tap_bad($$SELECT partmgr.create_parent('tap_reg_time', 'ts', '1 hour')$$,
    '42710', 'table "public.tap_reg_time" is already managed by pg_partmgr',
    'create_parent on a registered table, spelled without its schema');

------------------------------------------------------------------------------
-- create_parent: intervals
------------------------------------------------------------------------------
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '0 days')$$,
    '22023', 'partition interval "0 days" is shorter than one second',
    'create_parent with a zero time interval');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '-1 day')$$,
    '22023', 'partition interval "-1 day" has a negative part',
    'create_parent with a negative time interval');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 month -1 day')$$,
    '22023', 'partition interval "1 month -1 day" has a negative part',
    'create_parent with a time interval that has a negative part');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', 'banana')$$,
    '22023', 'partition interval "banana" is not a valid interval',
    'create_parent with a malformed time interval');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '500 milliseconds')$$,
    '22023', 'partition interval "500 milliseconds" is shorter than one second',
    'create_parent with a time interval under one second');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', 'daily')$$,
    '22023', 'partition interval "daily" is a pg_partman 4 keyword',
    'create_parent with pg_partman 4''s keyword daily');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', 'quarter-hour')$$,
    '22023', 'partition interval "quarter-hour" is a pg_partman 4 keyword',
    'create_parent with pg_partman 4''s keyword quarter-hour');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_date', 'd', '1 hour')$$,
    '22023', 'partition interval "1 hour" is not a whole number of days',
    'create_parent on a date column with an interval under a day');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_id', 'id', '1')$$,
    '22023', 'partition interval of a range id set must be at least 2',
    'create_parent on an id column with interval 1');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_id', 'id', '0')$$,
    '22023', 'partition interval must be greater than zero, not 0',
    'create_parent on an id column with interval 0');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_id', 'id', '-100')$$,
    '22023', 'partition interval must be greater than zero, not -100',
    'create_parent on an id column with a negative interval');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_id', 'id', '1 day')$$,
    '22023', 'partition interval "1 day" is not an integer',
    'create_parent on an id column with a time interval');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_id', 'id', '10.5')$$,
    '22023', 'partition interval "10.5" is not an integer',
    'create_parent on an id column with a fractional interval');

------------------------------------------------------------------------------
-- create_parent: NULL arguments
------------------------------------------------------------------------------
SELECT tap_bad($$SELECT partmgr.create_parent(NULL, 'ts', '1 day')$$,
    '22004', 'argument p_parent_table must not be NULL',
    'create_parent with p_parent_table NULL');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', NULL, '1 day')$$,
    '22004', 'argument p_control must not be NULL',
    'create_parent with p_control NULL');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', NULL)$$,
    '22004', 'argument p_interval must not be NULL',
    'create_parent with p_interval NULL');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_type => NULL)$$,
    '22004', 'argument p_type must not be NULL',
    'create_parent with p_type NULL');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_premake => NULL)$$,
    '22004', 'argument p_premake must not be NULL',
    'create_parent with p_premake NULL');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_offset_id => NULL)$$,
    '22004', 'argument p_offset_id must not be NULL',
    'create_parent with p_offset_id NULL');

------------------------------------------------------------------------------
-- create_parent: other arguments
------------------------------------------------------------------------------
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_premake => 0)$$,
    '22023', 'p_premake must be at least 1, not 0',
    'create_parent with premake 0');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_premake => -3)$$,
    '22023', 'p_premake must be at least 1, not -3',
    'create_parent with a negative premake');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_type => 'native')$$,
    '22023', 'invalid value "native" for p_type',
    'create_parent with p_type native (pg_partman 4)');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_epoch => 'hours')$$,
    '22023', 'invalid value "hours" for p_epoch',
    'create_parent with an unknown p_epoch');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_time_zone => 'Mars/Olympus_Mons')$$,
    '22023', 'time zone "Mars/Olympus_Mons" is not recognized',
    'create_parent with an unknown p_time_zone');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_time_zone => '')$$,
    '22023', 'time zone "" is not recognized',
    'create_parent with an empty p_time_zone');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_date_trunc_interval => 'fortnight')$$,
    '22023', 'p_date_trunc_interval "fortnight" is not a date_trunc() unit',
    'create_parent with an unknown p_date_trunc_interval');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 week', p_date_trunc_interval => 'month')$$,
    '22023', 'p_date_trunc_interval "month" does not fit partition interval "7 days"',
    'create_parent with a week interval truncated to the month');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 month', p_date_trunc_interval => 'week')$$,
    '22023', 'p_date_trunc_interval "week" does not fit partition interval "1 mon"',
    'create_parent with a month interval truncated to the week');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_id', 'id', '100', p_date_trunc_interval => 'day')$$,
    '22023', 'p_date_trunc_interval applies only to time partition sets',
    'create_parent with p_date_trunc_interval on an id set');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_automatic_maintenance => 'yes')$$,
    '22023', 'invalid value "yes" for p_automatic_maintenance',
    'create_parent with p_automatic_maintenance yes');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_start_partition => 'not a date')$$,
    '22007', 'invalid input syntax for type timestamp with time zone: "not a date"',
    'create_parent with an unparsable timestamp p_start_partition');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_date', 'd', '1 day', p_start_partition => '2100-13-45')$$,
    '22008', NULL,
    'create_parent with an impossible date p_start_partition');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_id', 'id', '100', p_start_partition => 'abc')$$,
    '22P02', 'invalid input syntax for type numeric: "abc"',
    'create_parent with an unparsable id p_start_partition');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_id', 'id', '100', p_start_partition => '1e30')$$,
    '22003', 'bigint out of range',
    'create_parent with an id p_start_partition beyond bigint');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_small', 'id', '100', p_start_partition => '40000')$$,
    '22003', 'p_start_partition "40000" is out of range for type smallint',
    'create_parent on a smallint column with p_start_partition 40000');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_start_partition => 'infinity')$$,
    '22008', 'p_start_partition "infinity" is out of range for type timestamp with time zone',
    'create_parent with p_start_partition infinity');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_date', 'd', '1 day', p_start_partition => '-infinity')$$,
    '22008', 'p_start_partition "-infinity" is out of range for type date',
    'create_parent on a date column with p_start_partition -infinity');
-- list and epoch sets that cannot be
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_type => 'list')$$,
    '22023', 'table "public.tap_ts" is partitioned by RANGE, but p_type is "list"',
    'create_parent with p_type list on a range-partitioned table');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_list', 'id', '10', p_type => 'list')$$,
    '22023', 'the partition interval of a list partition set must be 1',
    'create_parent of a list set with an interval other than 1');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_epoch => 'seconds')$$,
    '42804', 'epoch "seconds" needs an integer or bigint control column, not timestamp with time zone',
    'create_parent with p_epoch on a timestamptz column');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_small', 'id', '1 day', p_epoch => 'seconds')$$,
    '42804', 'epoch "seconds" needs an integer or bigint control column, not smallint',
    'create_parent with p_epoch on a smallint column');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_constraint_cols => ARRAY['ts'])$$,
    '22023', 'constraint_cols cannot name the control column "ts" of public.tap_ts',
    'create_parent with the control column in p_constraint_cols');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_template_table => 'public.tap_missing_tpl')$$,
    '42P01', 'template table "public.tap_missing_tpl" does not exist',
    'create_parent with a template table that does not exist');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_template_table => 'public.tap_id')$$,
    '42809', 'template table "public.tap_id" is not a plain table',
    'create_parent with a partitioned table as template');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_template_table => 'public.tap_tpl_extra')$$,
    '42703', 'template table "public.tap_tpl_extra" has column "extra", which the parent table does not have with that type',
    'create_parent with a template that has a column the parent lacks');
SELECT tap_bad($$SELECT partmgr.create_parent('public.tap_ts', 'ts', '1 day', p_template_table => 'public.tap_tpl_type')$$,
    '42703', 'template table "public.tap_tpl_type" has column "id", which the parent table does not have with that type',
    'create_parent with a template whose column has another type');

------------------------------------------------------------------------------
-- the other functions
------------------------------------------------------------------------------
SELECT tap_bad($$SELECT * FROM partmgr.show_partitions('public.tap_reg_time', 'sideways')$$,
    '22023', 'invalid value "sideways" for p_order',
    'show_partitions with a bad p_order');
SELECT tap_bad($$SELECT * FROM partmgr.show_partitions('public.tap_reg_time', NULL)$$,
    '22004', 'argument p_order must not be NULL',
    'show_partitions with p_order NULL');
SELECT tap_bad($$SELECT * FROM partmgr.show_partitions('public.tap_ts')$$,
    '42704', 'table "public.tap_ts" is not managed by pg_partmgr',
    'show_partitions on a table that is not registered');
SELECT tap_bad($$SELECT * FROM partmgr.show_partitions('public.tap_nope')$$,
    '42P01', 'table "public.tap_nope" does not exist',
    'show_partitions on a missing table');
SELECT tap_bad($$SELECT * FROM partmgr.show_partition_name('public.tap_ts', '2100-01-01')$$,
    '42704', 'table "public.tap_ts" is not managed by pg_partmgr',
    'show_partition_name on a table that is not registered');
SELECT tap_bad($$SELECT * FROM partmgr.show_partition_name('public.tap_reg_time', 'soon')$$,
    '22007', 'invalid input syntax for type timestamp with time zone: "soon"',
    'show_partition_name with an unparsable time value');
SELECT tap_bad($$SELECT * FROM partmgr.show_partition_name('public.tap_reg_id', '12x')$$,
    '22P02', 'invalid input syntax for type numeric: "12x"',
    'show_partition_name with an unparsable id value');
SELECT tap_bad($$SELECT * FROM partmgr.show_partition_info('public.tap_plain')$$,
    '22023', 'table "public.tap_plain" is not a partition',
    'show_partition_info on a table that is not a partition');
SELECT tap_bad($$SELECT * FROM partmgr.show_partition_info('public.tap_reg_time_default')$$,
    '22023', 'table "public.tap_reg_time_default" is the default partition of "public.tap_reg_time" and has no bounds',
    'show_partition_info on a default partition');
SELECT tap_bad($$SELECT * FROM partmgr.show_partition_info('public.tap_reg_time_p21000101', p_parent_table => 'public.tap_reg_id')$$,
    '22023', 'table "public.tap_reg_time_p21000101" is not a partition of "public.tap_reg_id"',
    'show_partition_info with the wrong p_parent_table');
SELECT tap_bad($$SELECT * FROM partmgr.show_partition_info('public.tap_nope')$$,
    '42P01', 'table "public.tap_nope" does not exist',
    'show_partition_info on a missing table');
SELECT tap_bad($$SELECT partmgr.run_maintenance('public.tap_ts')$$,
    '42704', 'table "public.tap_ts" is not managed by pg_partmgr',
    'run_maintenance on a table that is not registered');
SELECT tap_bad($$SELECT partmgr.run_maintenance('public.tap_nope')$$,
    '42P01', 'table "public.tap_nope" does not exist',
    'run_maintenance on a missing table');
SELECT tap_bad($$SELECT partmgr.partition_gap_fill('public.tap_ts')$$,
    '42704', 'table "public.tap_ts" is not managed by pg_partmgr',
    'partition_gap_fill on a table that is not registered');
SELECT tap_bad($$SELECT partmgr.partition_gap_fill(NULL)$$,
    '22004', 'argument p_parent_table must not be NULL',
    'partition_gap_fill with p_parent_table NULL');
SELECT tap_bad($$SELECT partmgr.create_partition_time('public.tap_reg_id', ARRAY['2100-01-01'::timestamptz])$$,
    '22023', '"public.tap_reg_id" is not a time partition set',
    'create_partition_time on an id set');
SELECT tap_bad($$SELECT partmgr.create_partition_id('public.tap_reg_time', ARRAY[100::bigint])$$,
    '22023', '"public.tap_reg_time" is not an id partition set',
    'create_partition_id on a time set');
SELECT tap_bad($$SELECT partmgr.create_partition_time('public.tap_reg_time', NULL)$$,
    '22004', 'argument p_partition_times must not be NULL',
    'create_partition_time with p_partition_times NULL');
SELECT tap_bad($$SELECT partmgr.create_partition_id('public.tap_ts', ARRAY[100::bigint])$$,
    '42704', 'table "public.tap_ts" is not managed by pg_partmgr',
    'create_partition_id on a table that is not registered');

------------------------------------------------------------------------------
-- the configuration tables refuse impossible values
------------------------------------------------------------------------------
SELECT tap_bad($$UPDATE partmgr.part_config SET premake = 0 WHERE parent_table = 'public.tap_reg_time'$$,
    '23514', NULL,
    'part_config refuses premake 0');
SELECT tap_bad($$UPDATE partmgr.part_config SET automatic_maintenance = 'sometimes' WHERE parent_table = 'public.tap_reg_time'$$,
    '23514', NULL,
    'part_config refuses an automatic_maintenance other than on/off');
SELECT tap_bad($$UPDATE partmgr.part_config SET partition_timezone = 'Mars/Olympus_Mons' WHERE parent_table = 'public.tap_reg_time'$$,
    '23514', NULL,
    'part_config refuses an unknown partition_timezone');

SELECT * FROM finish();
ROLLBACK;
