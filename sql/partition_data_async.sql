--
-- partition_data_async called with CALL: each step commits, so another
-- statement sees the child in progress, and a later call goes on with it
--
SET TimeZone = 'UTC';

CREATE TABLE public.pda (ts timestamptz NOT NULL, v int) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.pda', 'ts', '1 day', p_start_partition => '2100-01-10',
                             p_premake => 1, p_template_table => 'false');
INSERT INTO public.pda SELECT '2100-01-01'::timestamptz + g * interval '1 hour', g
  FROM generate_series(0, 23) g;

-- inside a transaction block nothing is committed: rolled back, nothing changed
BEGIN;
CALL partmgr.partition_data_async('public.pda', p_interval => '12 hours', p_wait => 0,
                                  p_quiet => true);
SELECT count(*) AS in_default FROM ONLY public.pda_default;
ROLLBACK;
SELECT count(*) AS in_default, to_regclass('public.pda_p21000101') AS child
  FROM ONLY public.pda_default;

-- one batch of twelve hours, committed
CALL partmgr.partition_data_async('public.pda', p_interval => '12 hours', p_loop_count => 1,
                                  p_wait => 0, p_quiet => true);
SELECT async_partitioning_in_progress FROM partmgr.part_config
 WHERE parent_table = 'public.pda';
SELECT c.relispartition, (SELECT count(*) FROM public.pda_p21000101) AS in_child,
       (SELECT count(*) FROM ONLY public.pda_default) AS in_default,
       (SELECT count(*) FROM public.pda) AS visible
  FROM pg_class c WHERE c.oid = 'public.pda_p21000101'::regclass;
SELECT action, object, outcome FROM partmgr.maintenance_log
 WHERE parent_table = 'public.pda' AND run_by = 'partition_data_async' ORDER BY log_id;

-- the rest, then the child is attached
CALL partmgr.partition_data_async('public.pda', p_interval => '12 hours', p_wait => 0,
                                  p_quiet => true);
SELECT async_partitioning_in_progress FROM partmgr.part_config
 WHERE parent_table = 'public.pda';
SELECT tableoid::regclass AS child, count(*) FROM public.pda GROUP BY 1 ORDER BY 1;
SELECT pg_get_expr(relpartbound, oid) FROM pg_class WHERE oid = 'public.pda_p21000101'::regclass;
SET TimeZone = 'UTC';
