#
# The worker does nothing on a streaming standby, and starts maintaining
# once the standby is promoted.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', q{
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.interval = 1
timezone = 'UTC'
});
$primary->start;
$primary->safe_psql('postgres', q{
	CREATE EXTENSION pg_partmgr;
	CREATE TABLE public.events (id bigint NOT NULL) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.events', 'id', '10', p_premake => 1);
});

$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
$standby->start;

# from now on only the standby-turned-primary may create children
$primary->append_conf('postgresql.conf', 'pg_partmgr.enabled = off');
$primary->reload;
$primary->safe_psql('postgres', 'INSERT INTO public.events VALUES (15)');
$primary->wait_for_catchup($standby);

sleep(3);
is( $standby->safe_psql('postgres',
		"SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'pg_partmgr%'"),
	'0', 'no pg_partmgr process runs on the standby');
is($standby->safe_psql('postgres', 'SELECT partmgr.run_maintenance()'),
	'', 'run_maintenance() on the standby does nothing and raises nothing');
is($standby->safe_psql('postgres', "SELECT to_regclass('public.events_p20') IS NULL"),
	't', 'the standby created nothing');
ok(!$standby->log_contains('ERROR'), 'no error in the standby\'s log');

$primary->stop;
$standby->promote;
ok( $standby->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM pg_stat_activity WHERE backend_type = 'pg_partmgr launcher'"),
	'after promotion the launcher runs');
ok( $standby->poll_query_until('postgres',
		"SELECT to_regclass('public.events_p20') IS NOT NULL"),
	'after promotion the worker creates the missing child');

$standby->stop;
done_testing();
