--
-- create_parent on id (integer) keys
--
-- pg_regress's sessions run with TimeZone PST8PDT; sets are aligned in the
-- zone of the session that creates them (pg_partman 5.4.4), so use UTC
SET TimeZone = 'UTC';

-- an empty bigint set: children from 0 up to premake intervals, and a default
CREATE TABLE public.orders (id bigint NOT NULL, item text) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.orders', 'id', '1000');
SELECT * FROM children('public.orders');

-- the configuration row, as pg_partman 5 fills it
SELECT parent_table, control, partition_interval, partition_type, premake,
       automatic_maintenance, template_table, epoch, datetime_string,
       default_table, date_trunc_interval, maintenance_last_run
  FROM partmgr.part_config WHERE parent_table = 'public.orders';
SELECT time_encoder, time_decoder, async_partitioning_in_progress, partition_timezone
  FROM partmgr.part_config WHERE parent_table = 'public.orders';

-- a table that already holds rows: the first child is the one holding the
-- largest id, with premake children above and up to premake positive ones
-- below; rows already in the default partition for those children are moved
-- into them (up to pg_partmgr.default_move_limit rows per child), the rest
-- stay in the default
CREATE TABLE public.tickets (id integer NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE public.tickets_old PARTITION OF public.tickets DEFAULT;
INSERT INTO public.tickets SELECT generate_series(1, 2512, 10);
SELECT partmgr.create_parent('public.tickets', 'id', '500', p_premake => 2);
SELECT * FROM children('public.tickets');
-- the existing default partition was kept: no second default
SELECT count(*) AS rows_in_default FROM ONLY public.tickets_old;

-- an explicit start: no children below it
CREATE TABLE public.readings (id numeric NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.readings', 'id', '100', p_start_partition => '350.5',
                             p_premake => 1, p_default_table => false);
SELECT * FROM children('public.readings');

-- bounds past the key type's range become MAXVALUE; nothing goes beyond it
CREATE TABLE public.small (id smallint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.small', 'id', '10000', p_start_partition => '20000');
SELECT * FROM children('public.small');
INSERT INTO public.small VALUES (32767);
SELECT partmgr.run_maintenance('public.small');
SELECT count(*) AS children FROM partmgr.show_partitions('public.small');

-- mixed case and spaces: PostgreSQL's quoting, or pg_partman's exact
-- 'Schema.Table' form; part_config keeps the unquoted schema.table
CREATE SCHEMA "Sales Data";
CREATE TABLE "Sales Data"."Line Items" ("Item Id" bigint NOT NULL) PARTITION BY RANGE ("Item Id");
SELECT partmgr.create_parent('"Sales Data"."Line Items"', 'Item Id', '50', p_premake => 1);
SELECT * FROM children('Sales Data.Line Items');
SELECT parent_table, control FROM partmgr.part_config WHERE parent_table LIKE 'Sales%';
SELECT partition_tablename FROM partmgr.show_partitions('"Sales Data"."Line Items"', 'DESC');
