--
-- Retention: expired children are detached, then kept, moved or dropped
--
-- pg_regress's sessions run with TimeZone PST8PDT; sets are aligned in the
-- zone of the session that creates them (pg_partman 5.4.4), so use UTC
SET TimeZone = 'UTC';

-- an id set: keep the children within 25 ids of the largest id
CREATE TABLE public.tickets_log (id bigint NOT NULL, note text) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tickets_log', 'id', '10', p_premake => 1,
                             p_start_partition => '0');
SELECT partmgr.create_partition_id('public.tickets_log', ARRAY[10, 20, 30, 40]::bigint[]);
INSERT INTO public.tickets_log SELECT g, 'n' || g FROM generate_series(0, 45, 5) g;
UPDATE partmgr.part_config SET retention = '25' WHERE parent_table = 'public.tickets_log';

-- run_maintenance makes the next child (premake), then applies retention:
-- 45 - 25 = 20, so the children ending at 10 and 20 expire; by default they
-- are only detached, and keep their rows
SELECT partmgr.run_maintenance('public.tickets_log');
SELECT * FROM children('public.tickets_log');
SELECT relname, relispartition, (SELECT count(*) FROM public.tickets_log_p0) AS rows_kept
  FROM pg_class WHERE relname = 'tickets_log_p0';

-- by hand, with the configuration overridden: move to a schema, or drop
CREATE SCHEMA archive;
SELECT partmgr.drop_partition_id('public.tickets_log', 15, p_retention_schema => 'archive');
SELECT partmgr.drop_partition_id('public.tickets_log', 5, p_keep_table => false);
SELECT * FROM children('public.tickets_log');
SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE c.relname LIKE 'tickets_log_p%' AND NOT c.relispartition ORDER BY 2;
SELECT action, object, outcome, run_by FROM partmgr.maintenance_log
 WHERE parent_table = 'public.tickets_log' AND action NOT LIKE 'create%' ORDER BY log_id;

-- a time set, with the reference time given: children entirely older than
-- two days before it expire; the last child is never retired
SELECT partmgr.drop_partition_time('public.events', '2 days',
                                   p_reference_timestamp => '2100-01-06 12:00:00+00');
SELECT child FROM children('public.events') LIMIT 3;
SELECT partmgr.drop_partition_time('public.years', '1 day',
                                   p_reference_timestamp => '2200-01-01 00:00:00+00');

-- a foreign key into the set: a child whose rows are referenced is kept and
-- the constraint keeps working; an unreferenced one is dropped
CREATE TABLE public.invoices (id bigint PRIMARY KEY) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.invoices', 'id', '100', p_premake => 2,
                             p_start_partition => '0');
INSERT INTO public.invoices VALUES (1), (101), (250);
CREATE TABLE public.payments (invoice_id bigint REFERENCES public.invoices (id));
INSERT INTO public.payments VALUES (101);
SELECT partmgr.drop_partition_id('public.invoices', 50, p_keep_table => false);
SELECT * FROM children('public.invoices');
INSERT INTO public.payments VALUES (1);
