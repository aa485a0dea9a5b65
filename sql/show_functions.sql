--
-- Inspection and manual creation: show_partitions, show_partition_name,
-- show_partition_info, check_default, partition_gap_fill,
-- create_partition_time, create_partition_id
--
-- pg_regress's sessions run with TimeZone PST8PDT; sets are aligned in the
-- zone of the session that creates them (pg_partman 5.4.4), so use UTC
SET TimeZone = 'UTC';

-- children in bound order, not name order; the default first when asked
SELECT * FROM partmgr.show_partitions('public.tickets');
SELECT * FROM partmgr.show_partitions('public.orders', 'DESC') LIMIT 3;
SELECT * FROM partmgr.show_partitions('public.orders', p_include_default => true) LIMIT 2;

-- the child a value belongs in, whether or not it exists yet
SELECT * FROM partmgr.show_partition_name('public.events', '2100-01-05 13:00:00+00');
SELECT * FROM partmgr.show_partition_name('public.events', '2100-03-01 00:00:00+00');
SELECT * FROM partmgr.show_partition_name('public.events', '2099-12-31 23:59:59+00');
SELECT * FROM partmgr.show_partition_name('public.orders', '123456');
-- read in the set's time zone, not the session's
SET TimeZone = 'America/Los_Angeles';
SELECT partition_table, suffix_timestamp AT TIME ZONE 'Europe/Berlin' AS berlin_time
  FROM partmgr.show_partition_name('public.berlin', '2100-07-01 23:30');
SET TimeZone = 'UTC';

-- bounds of a child as the catalog has them (ends are exclusive)
SELECT * FROM partmgr.show_partition_info('public.events_p21000105');
SELECT * FROM partmgr.show_partition_info('public.orders_p2000');
SELECT * FROM partmgr.show_partition_info('public.orders_p2000', '10', 'public.orders');
SELECT * FROM partmgr.show_partition_info('public.small_p30000');

-- default partitions holding rows, exact count or just "has rows"
SELECT * FROM partmgr.check_default() ORDER BY 1;
SELECT * FROM partmgr.check_default(p_exact_count => false) ORDER BY 1;

-- gap fill recreates children dropped from the middle, not from the ends
DROP TABLE public.orders_p2000, public.orders_p3000, public.orders_p6000;
SELECT partmgr.partition_gap_fill('public.orders');
SELECT child FROM children('public.orders');
SELECT partmgr.partition_gap_fill('public.orders');

-- explicit lower bounds: existing children are skipped, an overlapping range
-- is skipped with a WARNING, the rest are created
SELECT partmgr.create_partition_id('public.orders', ARRAY[0, 9000, 10000, 9500]::bigint[]);
SELECT partition_tablename FROM partmgr.show_partitions('public.orders', 'DESC') LIMIT 3;
SELECT partmgr.create_partition_id('public.orders', ARRAY[0]::bigint[]);
SELECT partmgr.create_partition_time('public.hours',
    ARRAY['2100-01-01 11:00:00+00', '2100-01-01 13:00:00+00']::timestamptz[]);
SELECT * FROM children('public.hours');
