--
-- Moving rows: out of the default partition, out of an old table, back out
--
-- pg_regress's sessions run with TimeZone PST8PDT; sets are aligned in the
-- zone of the session that creates them (pg_partman 5.4.4), so use UTC
SET TimeZone = 'UTC';

-- rows that arrived before their children exist sit in the default partition
CREATE TABLE public.clicks (id bigint GENERATED ALWAYS AS IDENTITY, ts timestamptz NOT NULL,
                            url text, url_len int GENERATED ALWAYS AS (length(url)) STORED)
    PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.clicks', 'ts', '1 day', p_start_partition => '2100-01-05',
                             p_premake => 1);
INSERT INTO public.clicks (ts, url)
SELECT '2100-01-01'::timestamptz + g * interval '2 hours', 'https://example.org/' || g
  FROM generate_series(0, 47) g;
SELECT * FROM partmgr.check_default();
CREATE TEMP TABLE clicks_before AS
SELECT count(*) AS n, sum(id) AS ids, sum(url_len) AS lens FROM public.clicks;

-- one batch (one child) in this transaction, then the rest; the children are
-- created as they are needed, each loaded before it is attached
SELECT partmgr.partition_data_time('public.clicks');
SELECT partmgr.partition_data_time('public.clicks', p_batch_count => 10);
SELECT * FROM partmgr.check_default();
SELECT tableoid::regclass AS child, count(*), min(ts), max(ts)
  FROM public.clicks GROUP BY 1 ORDER BY 1;
-- every row once, identity values kept, generated columns recomputed
SELECT (count(*), sum(id), sum(url_len)) = (SELECT n, ids, lens FROM clicks_before) AS same_rows
  FROM public.clicks;
SELECT count(*) AS leftover_checks FROM pg_constraint WHERE conname = 'partmgr_bound_check';

-- in one REPEATABLE READ transaction: the rows it inserted after its
-- snapshot was taken move, and a second call finds none left
CREATE TABLE public.views (id bigint NOT NULL, n int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.views', 'id', '10', p_start_partition => '0', p_premake => 1);
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT count(*) AS before_any FROM public.views;
INSERT INTO public.views SELECT g, g FROM generate_series(30, 69) g;
SELECT partmgr.partition_data_id('public.views', p_batch_count => 10);
SELECT partmgr.partition_data_id('public.views', p_batch_count => 10);
SELECT tableoid::regclass AS child, count(*), min(id), max(id)
  FROM public.views GROUP BY 1 ORDER BY 1;
COMMIT;

-- migrating an existing table: keep it as the source, make a partitioned
-- parent with the same columns, and move the rows over
CREATE TABLE public.orders_old (id bigint NOT NULL, placed date NOT NULL, total numeric);
INSERT INTO public.orders_old SELECT g, date '2100-03-01' + (g / 10), g * 1.5
  FROM generate_series(1, 90) g;
CREATE TABLE public.orders_new (LIKE public.orders_old) PARTITION BY RANGE (placed);
SELECT partmgr.create_parent('public.orders_new', 'placed', '1 month',
                             p_start_partition => '2100-03-01', p_premake => 1);
CALL partmgr.partition_data_proc('public.orders_new', p_source_table => 'public.orders_old',
                                 p_wait => 0, p_quiet => true);
SELECT (SELECT count(*) FROM public.orders_old) AS left_in_old,
       (SELECT count(*) FROM public.orders_new) AS in_new;
SELECT * FROM children('public.orders_new');

-- maintenance heals a small default: rows of a child it creates move in
INSERT INTO public.orders_new VALUES (1000, '2100-04-15', 1);
SELECT tableoid::regclass FROM public.orders_new WHERE id = 1000;
SELECT partmgr.run_maintenance('public.orders_new');
SELECT tableoid::regclass FROM public.orders_new WHERE id = 1000;
SELECT action, object, detail FROM partmgr.maintenance_log
 WHERE parent_table = 'public.orders_new' AND detail LIKE '%moved in%' ORDER BY log_id;

-- undo: the rows go back to a plain table, the children are dropped, and the
-- set is forgotten
CREATE TABLE public.orders_flat (LIKE public.orders_new);
SELECT * FROM partmgr.undo_partition('public.orders_new', 'public.orders_flat',
                                     p_loop_count => 10, p_keep_table => false);
SELECT count(*) AS flat_rows FROM public.orders_flat;
SELECT count(*) AS children_left FROM pg_inherits WHERE inhparent = 'public.orders_new'::regclass;
SELECT count(*) AS still_registered FROM partmgr.part_config WHERE parent_table = 'public.orders_new';

-- bad input: nothing moves
\set VERBOSITY terse
SELECT partmgr.partition_data_time('public.clicks', p_batch_count => 0);
SELECT partmgr.partition_data_time('public.clicks', p_order => 'sideways');
SELECT partmgr.partition_data_time('public.clicks', p_batch_interval => '1 hour');
SELECT partmgr.partition_data_id('public.clicks');
SELECT partmgr.partition_data_time('public.orders_old');
CREATE TABLE public.wrong_shape (id bigint, ts timestamptz, url text, extra int);
CREATE TABLE public.wrong_types (id point, ts timestamptz, url text);
SELECT partmgr.partition_data_time('public.clicks', p_source_table => 'public.wrong_shape');
SELECT partmgr.partition_data_time('public.clicks', p_source_table => 'public.wrong_types');
SELECT partmgr.partition_data_time('public.clicks', p_source_table => 'public.clicks');
SELECT * FROM partmgr.undo_partition('public.clicks', NULL);
SELECT * FROM partmgr.undo_partition('public.clicks', 'public.clicks');
SELECT * FROM partmgr.undo_partition('public.clicks', 'public.wrong_types');
\set VERBOSITY default
SELECT count(*) AS rows_untouched FROM public.clicks;
SELECT undo_in_progress FROM partmgr.part_config WHERE parent_table = 'public.clicks';
