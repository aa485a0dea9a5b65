--
-- Reshaping a live set: a child split into children of six hours, merged
-- back, the interval of the existing children changed, a hash set whose hot
-- child is split.  In a transaction block each CALL does the whole reshape
-- at once; as a top-level CALL, as here, it commits after each step.
--
SET TimeZone = 'UTC';
CREATE TABLE public.trips (id bigint, ts timestamptz NOT NULL, fare numeric,
                           PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.trips', 'ts', '1 day', p_premake => 1,
                             p_start_partition => '2030-03-01');
SELECT partmgr.create_partition_time('public.trips', ARRAY['2030-03-02', '2030-03-03']::timestamptz[]);
INSERT INTO public.trips
SELECT g, '2030-03-01'::timestamptz + g * interval '7 minutes', g % 40 FROM generate_series(0, 599) g;
SELECT tableoid::regclass::text AS child, count(*), sum(fare) FROM public.trips GROUP BY 1 ORDER BY 1;

-- a day into four children of six hours (p_quiet: without it, a NOTICE per
-- step says how far it got, and how long it took)
CALL partmgr.split_partition('public.trips_p20300301', p_interval => '6 hours', p_quiet => true);
SELECT tableoid::regclass::text AS child, count(*), sum(fare) FROM public.trips GROUP BY 1 ORDER BY 1;
SELECT c.relname AS child, pg_get_expr(c.relpartbound, c.oid) AS bound
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
 WHERE i.inhparent = 'public.trips'::regclass ORDER BY 1;
-- the span records its interval; the next child after it is a day again
SELECT interval_end, partition_interval, datetime_string, next_aligned
  FROM partmgr.part_config_interval WHERE parent_table = 'public.trips';
SELECT partition_table FROM partmgr.show_partition_name('public.trips', '2030-03-01 13:30');
SELECT partition_table FROM partmgr.show_partition_name('public.trips', '2030-03-10 13:30');

-- and merged back: nothing of the split is left in part_config_interval
CALL partmgr.merge_partitions(ARRAY['public.trips_p20300301_000000', 'public.trips_p20300301_060000',
                                    'public.trips_p20300301_120000', 'public.trips_p20300301_180000'],
                              p_quiet => true);
SELECT tableoid::regclass::text AS child, count(*), sum(fare) FROM public.trips GROUP BY 1 ORDER BY 1;
SELECT count(*) AS earlier_intervals FROM partmgr.part_config_interval WHERE parent_table = 'public.trips';

-- registered only, then shown as a dry run, then carried out
CALL partmgr.split_partition('public.trips_p20300302', p_bounds => ARRAY['2030-03-02 12:00'],
                             p_start => false, p_quiet => true);
SELECT kind, phase, source_tables, target_tables, target_bounds FROM partmgr.reshape_operation;
SELECT action, object, detail, locks FROM partmgr.plan_maintenance('public.trips')
 WHERE action IN ('prepare reshape', 'capture changes', 'swap partitions');
CALL partmgr.run_reshape('public.trips', p_quiet => true);
SELECT count(*) AS unfinished FROM partmgr.reshape_operation;

-- the interval of the existing children changed too: registered, then run
SELECT partmgr.change_interval('public.trips', '2 days', p_reshape_existing => true);
SELECT kind, source_tables, target_tables FROM partmgr.reshape_operation;
CALL partmgr.run_reshape('public.trips', p_quiet => true);
SELECT tableoid::regclass::text AS child, count(*), sum(fare) FROM public.trips GROUP BY 1 ORDER BY 1;

-- bad input: each with its own error, nothing changed
\set VERBOSITY terse
CALL partmgr.split_partition('public.trips_p20300301', p_interval => '6 hours', p_bounds => ARRAY['2030-03-01 06:00']);
CALL partmgr.split_partition('public.trips_p20300301', p_bounds => ARRAY['2030-04-01']);
CALL partmgr.merge_partitions(ARRAY['public.trips_p20300301', 'public.trips_p20300305']);
CALL partmgr.split_hash_partition('public.trips_p20300301');
\set VERBOSITY default

-- a hash set: one hot child split in two, the others untouched
CREATE TABLE public.carts (id bigint PRIMARY KEY, items int) PARTITION BY HASH (id);
SELECT partmgr.create_parent('public.carts', 'id', '4', p_type => 'hash');
INSERT INTO public.carts SELECT g, 1 FROM generate_series(1, 4000) g;
INSERT INTO public.carts SELECT g, 2 FROM generate_series(4001, 40000) g
 WHERE satisfies_hash_partition('public.carts'::regclass, 4, 1, g::bigint);
ANALYZE public.carts;
SELECT partition_tablename, row_estimate, round(row_share, 2) AS row_share, expected_share
  FROM partmgr.show_partitions('public.carts', p_row_share => true);
SELECT status, reason FROM partmgr.health WHERE parent_table = 'public.carts';
CALL partmgr.split_hash_partition('public.carts_h4_1', p_quiet => true);
ANALYZE public.carts;
SELECT partition_tablename, row_estimate, round(row_share, 2) AS row_share, expected_share
  FROM partmgr.show_partitions('public.carts', p_row_share => true);
SELECT status FROM partmgr.health WHERE parent_table = 'public.carts';
SELECT c.relname AS child, pg_get_expr(c.relpartbound, c.oid) AS bound
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
 WHERE i.inhparent = 'public.carts'::regclass ORDER BY 1;

DROP TABLE public.trips, public.carts;
DELETE FROM partmgr.part_config WHERE parent_table IN ('public.trips', 'public.carts');
