--
-- Bad input: each call fails with a clear error and changes nothing
--
-- pg_regress's sessions run with TimeZone PST8PDT; sets are aligned in the
-- zone of the session that creates them (pg_partman 5.4.4), so use UTC
SET TimeZone = 'UTC';
CREATE TABLE public.not_partitioned (id int NOT NULL);
CREATE TABLE public.by_id (id int, ts timestamptz NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE public.two_columns (a int NOT NULL, b int NOT NULL) PARTITION BY RANGE (a, b);
CREATE TABLE public.by_text (t text NOT NULL) PARTITION BY RANGE (t);
CREATE TABLE public.by_list (id int NOT NULL) PARTITION BY LIST (id);
CREATE TABLE public.by_expr (id int NOT NULL) PARTITION BY RANGE ((id + 1));
CREATE TABLE public.fresh (id bigint NOT NULL, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);

-- what must not change
CREATE TEMP TABLE before AS
SELECT (SELECT count(*) FROM partmgr.part_config) AS sets,
       (SELECT count(*) FROM partmgr.part_config_sub) AS sub_rows,
       (SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace) AS relations;

\set VERBOSITY terse
-- the table
SELECT partmgr.create_parent('public.missing', 'id', '10');
SELECT partmgr.create_parent('"unbalanced', 'id', '10');
SELECT partmgr.create_parent('public.not_partitioned', 'id', '10');
SELECT partmgr.create_parent('public.two_columns', 'a', '10');
SELECT partmgr.create_parent('public.by_expr', 'id', '10');
SELECT partmgr.create_parent('public.by_list', 'id', '10');
SELECT partmgr.create_parent('public.events', 'ts', '1 day');
-- the control column
SELECT partmgr.create_parent('public.by_id', 'nope', '10');
SELECT partmgr.create_parent('public.by_id', 'ts', '1 day');
SELECT partmgr.create_parent('public.by_id', 'id', '10');
SELECT partmgr.create_parent('public.by_text', 't', '10');
-- the interval
SELECT partmgr.create_parent('public.fresh', 'ts', '0 seconds');
SELECT partmgr.create_parent('public.fresh', 'ts', '-1 day');
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day -2 hours');
SELECT partmgr.create_parent('public.fresh', 'ts', '999 milliseconds');
SELECT partmgr.create_parent('public.fresh', 'ts', 'one day');
SELECT partmgr.create_parent('public.fresh', 'ts', 'daily');
SELECT partmgr.create_parent('public.fresh', 'ts', '');
SELECT partmgr.create_parent('public.by_id', 'id', '0', p_control_not_null => false);
SELECT partmgr.create_parent('public.by_id', 'id', '-10', p_control_not_null => false);
SELECT partmgr.create_parent('public.by_id', 'id', '1', p_control_not_null => false);
SELECT partmgr.create_parent('public.by_id', 'id', '10.5', p_control_not_null => false);
SELECT partmgr.create_parent('public.quarters', 'd', '12 hours');
-- NULLs
SELECT partmgr.create_parent(NULL, 'ts', '1 day');
SELECT partmgr.create_parent('public.fresh', NULL, '1 day');
SELECT partmgr.create_parent('public.fresh', 'ts', NULL);
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day', p_premake => NULL);
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day', p_offset_id => NULL);
-- the other arguments
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day', p_premake => 0);
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day', p_type => 'native');
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day', p_epoch => 'hours');
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day', p_automatic_maintenance => 'true');
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day', p_time_zone => 'CEST');
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day', p_date_trunc_interval => 'fortnight');
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day', p_start_partition => 'soon');
SELECT partmgr.create_parent('public.by_id', 'id', '10', p_start_partition => 'ten', p_control_not_null => false);
SELECT partmgr.create_parent('public.by_id', 'id', '10', p_date_trunc_interval => 'day', p_control_not_null => false);
-- template tables that cannot serve
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day', p_template_table => 'public.fresh');
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day', p_template_table => 'public.no_such_template');
CREATE TABLE public.fresh_tpl (ts timestamptz, extra int);
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day', p_template_table => 'public.fresh_tpl');
DROP TABLE public.fresh_tpl;
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day', p_constraint_cols => ARRAY['nope']);
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day', p_constraint_cols => ARRAY['ts']);
-- an epoch set keeps Unix time in an integer column
SELECT partmgr.create_parent('public.fresh', 'ts', '1 day', p_epoch => 'seconds');
-- the other functions
SELECT partmgr.run_maintenance('public.fresh');
SELECT partmgr.run_maintenance('public.missing');
SELECT * FROM partmgr.show_partitions('public.events', 'UP');
SELECT * FROM partmgr.show_partitions(NULL);
SELECT * FROM partmgr.show_partition_name('public.events', 'not a time');
SELECT * FROM partmgr.show_partition_name('public.orders', 'x');
SELECT * FROM partmgr.show_partition_info('public.orders');
SELECT * FROM partmgr.show_partition_info('public.orders_default');
SELECT * FROM partmgr.show_partition_info('public.orders_p0', p_parent_table => 'public.events');
SELECT partmgr.create_partition_time('public.orders', ARRAY[now()]);
SELECT partmgr.create_partition_id('public.events', ARRAY[1]::bigint[]);
SELECT partmgr.partition_gap_fill('public.fresh');
-- the configuration table rejects impossible values
UPDATE partmgr.part_config SET premake = 0 WHERE parent_table = 'public.orders';
UPDATE partmgr.part_config SET automatic_maintenance = 'yes' WHERE parent_table = 'public.orders';
UPDATE partmgr.part_config SET partition_type = 'spatial' WHERE parent_table = 'public.orders';
UPDATE partmgr.part_config SET epoch = 'weeks' WHERE parent_table = 'public.orders';
UPDATE partmgr.part_config SET date_trunc_interval = 'fortnight' WHERE parent_table = 'public.orders';
UPDATE partmgr.part_config SET optimize_constraint = -1 WHERE parent_table = 'public.orders';
UPDATE partmgr.part_config SET partition_timezone = 'Nowhere/Land' WHERE parent_table = 'public.orders';
INSERT INTO partmgr.part_config (parent_table, control, partition_interval, partition_type)
VALUES ('no_schema', 'id', '10', 'range');
\set VERBOSITY default

-- nothing changed
SELECT (SELECT count(*) FROM partmgr.part_config) = sets AS same_sets,
       (SELECT count(*) FROM partmgr.part_config_sub) = sub_rows AS same_sub_rows,
       (SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace) = relations
           AS same_relations
  FROM before;

-- a message in full: what is wrong and what to do
SELECT partmgr.create_parent('public.by_id', 'id', '10');
