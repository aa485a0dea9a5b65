--
-- create_parent on time keys.  Starting far in the future makes the result
-- independent of today's date: create_parent makes the child holding the
-- start, and no more (the premake window after now() lies before it).
--
-- pg_regress's sessions run with TimeZone PST8PDT; sets are aligned in the
-- zone of the session that creates them (pg_partman 5.4.4), so use UTC
SET TimeZone = 'UTC';

-- bounds are computed in the set's time zone: p_timezone, else the TimeZone
-- of the session that creates the set, which is recorded (pg_partman 5.4.4)
SET TimeZone = 'Asia/Tokyo';
CREATE TABLE public.events (id bigint, ts timestamptz NOT NULL, payload text)
    PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.events', 'ts', '1 day',
                             p_start_partition => '2100-01-01 15:00:00+00',
                             p_timezone => 'UTC');
CREATE TABLE public.tokyo (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tokyo', 'ts', '1 day',
                             p_start_partition => '2100-01-01 15:00:00+00');
SET TimeZone = 'UTC';
SELECT * FROM children('public.events');
SELECT * FROM children('public.tokyo');
SELECT parent_table, partition_interval, datetime_string, partition_timezone
  FROM partmgr.part_config WHERE parent_table IN ('public.events', 'public.tokyo')
 ORDER BY parent_table;

-- a set in another zone: daily bounds fall on midnight in Berlin, and the
-- start is read as Berlin time
CREATE TABLE public.berlin (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.berlin', 'ts', '1 day',
                             p_start_partition => '2100-07-01 00:30',
                             p_time_zone => 'Europe/Berlin');
SELECT * FROM children('public.berlin');
SELECT time_encoder, time_decoder, async_partitioning_in_progress, partition_timezone
  FROM partmgr.part_config WHERE parent_table = 'public.berlin';

-- intervals under a day use YYYYMMDD_HH24MISS and are aligned to the hour
-- (to the minute under a minute)
CREATE TABLE public.quarter_hours (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.quarter_hours', 'ts', '15 minutes',
                             p_start_partition => '2100-01-01 10:07:00+00');
SELECT * FROM children('public.quarter_hours');
CREATE TABLE public.hours (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.hours', 'ts', '1 hour',
                             p_start_partition => '2100-01-01 10:07:00+00');
SELECT * FROM children('public.hours');

-- weekly: aligned to the day by default, to Monday with p_date_trunc_interval
CREATE TABLE public.weeks (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.weeks', 'ts', '1 week',
                             p_start_partition => '2100-01-07 12:00:00+00');
CREATE TABLE public.monday_weeks (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.monday_weeks', 'ts', '1 week',
                             p_start_partition => '2100-01-07 12:00:00+00',
                             p_date_trunc_interval => 'week');
SELECT * FROM children('public.weeks') UNION ALL SELECT * FROM children('public.monday_weeks');
SELECT parent_table, partition_interval, date_trunc_interval
  FROM partmgr.part_config WHERE parent_table LIKE '%weeks' ORDER BY 1;

-- months, quarters and years on timestamp (without time zone) and date keys
CREATE TABLE public.months (ts timestamp NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.months', 'ts', '1 month',
                             p_start_partition => '2100-01-31 23:00');
SELECT * FROM children('public.months');
CREATE TABLE public.quarters (d date NOT NULL) PARTITION BY RANGE (d);
SELECT partmgr.create_parent('public.quarters', 'd', '3 months',
                             p_start_partition => '2100-02-15');
SELECT * FROM children('public.quarters');
CREATE TABLE public.years (d date NOT NULL) PARTITION BY RANGE (d);
SELECT partmgr.create_parent('public.years', 'd', '1 year',
                             p_start_partition => '2100-06-01', p_default_table => false);
SELECT * FROM children('public.years');
SELECT parent_table, partition_interval FROM partmgr.part_config
 WHERE parent_table IN ('public.months', 'public.quarters', 'public.years') ORDER BY 1;

-- names longer than 63 bytes: the parent part is cut, the suffix kept whole
-- (also for a name of multibyte characters, cut at a character boundary)
CREATE TABLE public.a_very_long_table_name_that_goes_on_and_on_for_quite_a_while_x
    (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.a_very_long_table_name_that_goes_on_and_on_for_quite_a_while_x',
                             'ts', '1 hour', p_start_partition => '2100-01-01');
SELECT child, octet_length(child) FROM children('public.a_very_long_table_name_that_goes_on_and_on_for_quite_a_while_x');
CREATE TABLE public."größenänderungsprotokolleinträge_über_übermäßig_lange_zeiträume"
    (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.größenänderungsprotokolleinträge_über_übermäßig_lange_zeiträume',
                             'ts', '1 day', p_start_partition => '2100-01-01');
SELECT child, octet_length(child) FROM children('public.größenänderungsprotokolleinträge_über_übermäßig_lange_zeiträume');
