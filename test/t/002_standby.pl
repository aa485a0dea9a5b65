#
# The worker does nothing on a streaming standby, and starts maintaining
# once the standby is promoted.
#
# "Nothing" is checked while it could have happened: the primary's worker
# runs (its maintenance_last_run stamps reach the standby by replay), and
# the probes for a launcher (pg_stat_activity, the server log) are also run
# on the primary, where they must find one.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use PartmgrWorker;

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

my $launcher_started = qr/pg_partmgr launcher started: maintenance every/;
my $partmgr_processes =
  "SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'pg_partmgr%'";
my $last_run = q{
	SELECT maintenance_last_run FROM partmgr.part_config WHERE parent_table = 'public.events'};

# The standby takes read-only connections: a worker started at a consistent
# state would be up.  Two runs of the primary's worker after that, replayed
# on the standby, give its launcher (were there one) time for runs too.
my $standby_up = $standby->safe_psql('postgres', 'SELECT clock_timestamp()');
my $seen = $standby_up;
for my $run (1 .. 2)
{
	ok( $standby->poll_query_until('postgres', "SELECT ($last_run) > '$seen'"),
		"the standby replays run $run of the primary's worker made after it was up");
	$seen = $standby->safe_psql('postgres', $last_run);
}

ok($primary->safe_psql('postgres', $partmgr_processes) >= 1,
	'the primary shows its pg_partmgr launcher in pg_stat_activity');
is($standby->safe_psql('postgres', $partmgr_processes),
	'0', 'meanwhile no pg_partmgr process runs on the standby');
ok($primary->log_contains($launcher_started), 'the primary\'s log says its launcher started');
ok(!$standby->log_contains($launcher_started), 'the standby\'s log says no launcher started');

# From now on only the standby-turned-primary may create children.  The
# interval changes with the same reload, so that the primary's launcher says
# when the reload is in force and when it would run next; once that time
# has passed no worker of the primary runs.
my $would_run = reload_launcher($primary, q{
pg_partmgr.enabled = off
pg_partmgr.interval = 2
}, 2);
wait_launcher_off($primary, $would_run)
  or die 'timed out waiting for the primary\'s workers to be over';
$primary->safe_psql('postgres', 'INSERT INTO public.events VALUES (15)');
$primary->wait_for_catchup($standby);

# work to do on the standby, which run_maintenance() leaves undone
my $plan = q{
	SELECT coalesce(string_agg(action || ' ' || object, ','), 'nothing')
	  FROM partmgr.plan_maintenance('public.events')};
is($standby->safe_psql('postgres', $plan), 'create partition public.events_p20',
	'on the standby a run would have events_p20 to make');
my ($rc, $out, $err) = $standby->psql('postgres', 'SELECT partmgr.run_maintenance()');
is($rc, 0, 'run_maintenance() on the standby returns without an error');
is($err, '', 'and says nothing (no notice, warning or error)');
is( $standby->safe_psql('postgres', "SELECT to_regclass('public.events_p20') IS NULL"),
	't', 'the standby has no events_p20');
is($standby->safe_psql('postgres', $plan), 'create partition public.events_p20',
	'and its work is still to do');
# (ERROR: the walreceiver's FATALs about its connection are not the point)
ok(!$standby->log_contains(qr/(?:ERROR|PANIC):  /), 'no error in the standby\'s log');

$primary->stop;
my $offset = -s $standby->logfile;
$standby->promote;
ok($standby->wait_for_log($launcher_started, $offset),
	'after promotion the launcher starts');
ok( $standby->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM pg_stat_activity WHERE backend_type = 'pg_partmgr launcher'"),
	'and runs');
ok( $standby->poll_query_until('postgres',
		"SELECT to_regclass('public.events_p20') IS NOT NULL"),
	'after promotion the worker creates the missing child');
is( $standby->safe_psql('postgres', q{
		SELECT run_by || ' ' || action || ' ' || outcome FROM partmgr.maintenance_log
		 WHERE object = 'public.events_p20'}),
	'worker create partition done', 'the promoted server\'s maintenance log says its worker did it');
is($standby->safe_psql('postgres', $plan), 'nothing', 'nothing is left to do');

$standby->stop;
done_testing();
