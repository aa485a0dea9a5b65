--
-- run_maintenance: premake follows the newest child holding rows
--
-- pg_regress's sessions run with TimeZone PST8PDT; sets are aligned in the
-- zone of the session that creates them (pg_partman 5.4.4), so use UTC
SET TimeZone = 'UTC';

-- public.events (from create_parent_time) has one daily child, 2100-01-01
INSERT INTO public.events VALUES (1, '2100-01-01 12:00:00+00', 'first');
SELECT partmgr.run_maintenance();
SELECT * FROM children('public.events');

-- new data moves the window: premake (4) children stay ahead of it
INSERT INTO public.events VALUES (2, '2100-01-03 08:00:00+00', 'second');
SELECT partmgr.run_maintenance('public.events');
SELECT child FROM children('public.events');

-- a second run has nothing to do
SELECT partmgr.run_maintenance('public.events');
SELECT count(*) AS children FROM partmgr.show_partitions('public.events');

-- a raised premake is caught up in one run
UPDATE partmgr.part_config SET premake = 6 WHERE parent_table = 'public.events';
SELECT partmgr.run_maintenance('public.events');
SELECT child FROM children('public.events');

-- rows in the default partition are ignored by default (ignore_default_data)
INSERT INTO public.events VALUES (3, '2100-01-14 00:00:00+00', 'in default');
SELECT partmgr.run_maintenance('public.events');
SELECT count(*) AS children FROM partmgr.show_partitions('public.events');

-- when they count, the window follows them.  Maintenance would move them
-- into the child it creates for them (partition_data.sql shows that); with
-- pg_partmgr.default_move_limit = 0 it does not, that child cannot be
-- attached while they sit in the default, so it alone is skipped
UPDATE partmgr.part_config SET ignore_default_data = false WHERE parent_table = 'public.events';
SET pg_partmgr.default_move_limit = 0;
SELECT partmgr.run_maintenance('public.events');
RESET pg_partmgr.default_move_limit;
SELECT child FROM children('public.events');
-- maintenance_last_run is still stamped: everything else was done
SELECT maintenance_last_run IS NOT NULL AS stamped
  FROM partmgr.part_config WHERE parent_table = 'public.events';

-- id sets follow the largest id the same way
INSERT INTO public.orders VALUES (4500, 'x');
SELECT partmgr.run_maintenance('public.orders');
SELECT child FROM children('public.orders');

-- automatic_maintenance = 'off': left out of run_maintenance(), maintained
-- when named
CREATE TABLE public.manual (id int NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.manual', 'id', '10', p_premake => 1,
                             p_automatic_maintenance => 'off');
INSERT INTO public.manual VALUES (15);
SELECT partmgr.run_maintenance();
SELECT child FROM children('public.manual');
SELECT partmgr.run_maintenance('public.manual');
SELECT child FROM children('public.manual');

-- sets run in maintenance_order (NULLs last, then by name), each stamped
-- with its own clock time
CREATE TABLE public.order_a (id int NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE public.order_b (id int NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE public.order_c (id int NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.' || t, 'id', '10', p_premake => 1)
  FROM unnest(ARRAY['order_a', 'order_b', 'order_c']) AS t;
UPDATE partmgr.part_config SET maintenance_order = 2 WHERE parent_table = 'public.order_a';
UPDATE partmgr.part_config SET maintenance_order = 1 WHERE parent_table = 'public.order_b';
BEGIN;
SELECT partmgr.run_maintenance();
SELECT parent_table, maintenance_order FROM partmgr.part_config
 WHERE parent_table LIKE 'public.order__' ORDER BY maintenance_last_run;
COMMIT;

-- a broken set does not stop the others; it is reported with a WARNING and
-- keeps its previous maintenance_last_run; the call then ends with an ERROR
-- naming it, which rolls back the run's transaction
UPDATE partmgr.part_config SET maintenance_last_run = NULL;
UPDATE partmgr.part_config SET partition_interval = 'banana' WHERE parent_table = 'public.order_b';
SELECT partmgr.run_maintenance();
SELECT parent_table, maintenance_last_run IS NOT NULL AS maintained
  FROM partmgr.part_config WHERE parent_table LIKE 'public.order__' ORDER BY 1;
-- told by WARNING only, the others' work stays
SET pg_partmgr.on_set_failure = warning;
SELECT partmgr.run_maintenance();
RESET pg_partmgr.on_set_failure;
SELECT parent_table, maintenance_last_run IS NOT NULL AS maintained
  FROM partmgr.part_config WHERE parent_table LIKE 'public.order__' ORDER BY 1;
-- named, the same error is raised
SELECT partmgr.run_maintenance('public.order_b');
UPDATE partmgr.part_config SET partition_interval = '10' WHERE parent_table = 'public.order_b';

-- infinite_time_partitions: children keep coming ahead of now() with no data
CREATE TABLE public.live (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.live', 'ts', '1 day', p_premake => 2);
UPDATE partmgr.part_config SET infinite_time_partitions = true, premake = 5
 WHERE parent_table = 'public.live';
SELECT partmgr.run_maintenance('public.live');
SELECT max(child_end_time) >= now() + interval '5 days' AS five_days_ready,
       max(child_end_time) <= now() + interval '7 days' AS not_more_than_needed,
       min(child_start_time) <= now() - interval '1 day' AS past_children_kept
  FROM partmgr.show_partitions('public.live') p,
       partmgr.show_partition_info(p.partition_schemaname || '.' || p.partition_tablename);
