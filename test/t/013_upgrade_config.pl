#
# Upgrading a database configured at 0.2.0 to the current version: the
# settings 0.2.0 and 0.3.0 kept in part_config_ext (the time zone, pg_partman
# 5.2's time encoder and decoder, pg_partman 5.3's async progress) move into
# part_config's columns of the same names as pg_partman 5.4.4's, with their
# values, and part_config_ext goes.  No set changes zone: a set that had no
# part_config_ext row was UTC and is recorded as UTC.  After the update the
# sets are maintained in their own zones, whatever the session's TimeZone.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('upgrade_config');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.enabled = off
timezone = 'UTC'
});
$node->start;

# 0.2.0, configured as a restore of that version leaves it (the current
# library refuses to act on 0.2.0's objects, so the rows are written here)
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_partmgr VERSION '0.2.0';
	-- a Berlin set: its children start at Berlin's midnight
	CREATE TABLE public.berlin (ts timestamptz NOT NULL, v text) PARTITION BY RANGE (ts);
	CREATE TABLE public.berlin_p21000101 PARTITION OF public.berlin
		FOR VALUES FROM ('2100-01-01 00:00 Europe/Berlin') TO ('2100-01-02 00:00 Europe/Berlin');
	CREATE TABLE public.berlin_default PARTITION OF public.berlin DEFAULT;
	INSERT INTO partmgr.part_config (parent_table, control, partition_interval, partition_type,
									 premake, datetime_string)
	VALUES ('public.berlin', 'ts', '1 day', 'range', 2, 'YYYYMMDD');
	INSERT INTO partmgr.part_config_ext (parent_table, time_zone) VALUES ('public.berlin', 'Europe/Berlin');
	-- a UTC set without a part_config_ext row
	CREATE TABLE public.plain (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
	CREATE TABLE public.plain_p21000101 PARTITION OF public.plain
		FOR VALUES FROM ('2100-01-01 00:00+00') TO ('2100-01-02 00:00+00');
	INSERT INTO partmgr.part_config (parent_table, control, partition_interval, partition_type,
									 premake, datetime_string)
	VALUES ('public.plain', 'ts', '1 day', 'range', 1, 'YYYYMMDD');
	-- a uuid set with pg_partman 5.2's encoder and decoder, in Tokyo
	CREATE TABLE public.uids (id uuid NOT NULL) PARTITION BY RANGE (id);
	INSERT INTO partmgr.part_config (parent_table, control, partition_interval, partition_type,
									 premake, datetime_string)
	VALUES ('public.uids', 'id', '1 day', 'range', 1, 'YYYYMMDD');
	INSERT INTO partmgr.part_config_ext (parent_table, time_zone, time_encoder, time_decoder)
	VALUES ('public.uids', 'Asia/Tokyo', 'partmgr.uuid7_time_encoder', 'partmgr.uuid7_time_decoder');
	-- a set partition_data_async was working on
	CREATE TABLE public.moving (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
	INSERT INTO partmgr.part_config (parent_table, control, partition_interval, partition_type)
	VALUES ('public.moving', 'ts', '1 day', 'range');
	INSERT INTO partmgr.part_config_ext (parent_table, time_zone, async_partitioning_in_progress)
	VALUES ('public.moving', 'UTC', '2100-01-01 00:00:00+00');
});

$node->safe_psql('postgres', 'ALTER EXTENSION pg_partmgr UPDATE');
is($node->safe_psql('postgres', "SELECT extversion FROM pg_extension WHERE extname = 'pg_partmgr'"),
	'0.7.0', 'ALTER EXTENSION pg_partmgr UPDATE goes from 0.2.0 to 0.7.0');

is( $node->safe_psql('postgres', q{
		SELECT string_agg(concat_ws(' ', parent_table, partition_timezone, coalesce(time_encoder, '-'),
									coalesce(time_decoder, '-'), coalesce(async_partitioning_in_progress, '-')),
						  E'\n' ORDER BY parent_table)
		  FROM partmgr.part_config}),
	"public.berlin Europe/Berlin - - -\n"
	  . "public.moving UTC - - 2100-01-01 00:00:00+00\n"
	  . "public.plain UTC - - -\n"
	  . "public.uids Asia/Tokyo partmgr.uuid7_time_encoder partmgr.uuid7_time_decoder -",
	'every set keeps its zone, encoder, decoder and async progress, now in part_config (a set without a row: UTC)');
is($node->safe_psql('postgres', "SELECT to_regclass('partmgr.part_config_ext') IS NULL"), 't',
	'part_config_ext is gone');
is( $node->safe_psql('postgres', q{
		SELECT count(*) FROM pg_extension e, unnest(e.extconfig) AS c(oid)
		 WHERE e.extname = 'pg_partmgr' AND to_regclass(c.oid::regclass::text) IS NULL}),
	'0', 'and so is its pg_extension_config_dump registration: pg_dump finds every registered table');

# maintained from a Tokyo session, the Berlin set still gets Berlin's days
$node->safe_psql('postgres', q{
	SET TimeZone = 'Asia/Tokyo';
	INSERT INTO public.berlin VALUES ('2100-01-01 12:00 Europe/Berlin', 'at 0.4.0');
	SELECT partmgr.run_maintenance('public.berlin');
});
is( $node->safe_psql('postgres', q{
		SELECT string_agg(c.relname || ' ' || pg_get_expr(c.relpartbound, c.oid), E'\n' ORDER BY c.relname)
		  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		 WHERE i.inhparent = 'public.berlin'::regclass AND c.relname <> 'berlin_default'}),
	"berlin_p21000101 FOR VALUES FROM ('2099-12-31 23:00:00+00') TO ('2100-01-01 23:00:00+00')\n"
	  . "berlin_p21000102 FOR VALUES FROM ('2100-01-01 23:00:00+00') TO ('2100-01-02 23:00:00+00')\n"
	  . "berlin_p21000103 FOR VALUES FROM ('2100-01-02 23:00:00+00') TO ('2100-01-03 23:00:00+00')",
	'run_maintenance from a Tokyo session makes the Berlin set\'s next days at Berlin\'s midnight');

# the encoder set works after the update
$node->safe_psql('postgres', q{
	SELECT partmgr.create_partition_time('public.uids', ARRAY['2100-01-01 00:00 Asia/Tokyo'::timestamptz]);
});
is( $node->safe_psql('postgres', q{
		SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		 WHERE i.inhparent = 'public.uids'::regclass}),
	'uids_p21000101', 'the uuid set makes a child with its encoder, named by its Tokyo date');

# the async set is still left alone while its progress is recorded
my ($rc, $out, $err) = $node->psql('postgres',
	"SELECT partmgr.partition_data_time('public.moving')");
isnt($rc, 0, 'partition_data_time refuses the set partition_data_async is working on');
like($err, qr/partition_data_async/, 'and says why');

$node->stop;
done_testing();
