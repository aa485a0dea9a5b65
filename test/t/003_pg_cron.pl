#
# Scheduling through pg_cron: a job that CALLs run_maintenance_proc creates
# the missing child, committing set by set.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('cron');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'pg_partmgr, pg_cron'
cron.database_name = 'postgres'
cron.use_background_workers = on
max_worker_processes = 16
pg_partmgr.enabled = off
timezone = 'UTC'
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_cron;
	CREATE EXTENSION pg_partmgr;
	CREATE TABLE public.events (id bigint NOT NULL) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.events', 'id', '10', p_premake => 1);
	CREATE TABLE public.metrics (id bigint NOT NULL) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.metrics', 'id', '100', p_premake => 1);
	INSERT INTO public.events VALUES (15);
	INSERT INTO public.metrics VALUES (150);
	SELECT cron.schedule('partmgr-maintenance', '* * * * *',
						 'CALL partmgr.run_maintenance_proc(p_wait => 5)');
});

# pg_cron runs jobs on the minute.  The procedure commits after each set and
# waits 5 s before the next: events (first by name) is visible before
# metrics is done.
ok( $node->poll_query_until('postgres',
		"SELECT to_regclass('public.events_p20') IS NOT NULL
		    AND to_regclass('public.metrics_p200') IS NULL"),
	'the first set\'s child is committed while the job still waits for the second');
ok( $node->poll_query_until('postgres',
		"SELECT to_regclass('public.events_p20') IS NOT NULL
		    AND to_regclass('public.metrics_p200') IS NOT NULL"),
	'the pg_cron job created the missing children');
ok( $node->poll_query_until('postgres',
		"SELECT count(*) > 0 FROM cron.job_run_details WHERE status = 'succeeded'"),
	'pg_cron records the job as succeeded');
is( $node->safe_psql('postgres',
		"SELECT string_agg(DISTINCT run_by, ',') FROM partmgr.maintenance_log
		  WHERE object IN ('public.events_p20', 'public.metrics_p200')"),
	'run_maintenance_proc', 'the maintenance log says the procedure did it');

# the same procedure CALLed by hand commits set by set too
$node->safe_psql('postgres', q{
	SELECT cron.unschedule('partmgr-maintenance');
	INSERT INTO public.events VALUES (25);
	INSERT INTO public.metrics VALUES (250);
});
my $before_call = $node->safe_psql('postgres', 'SELECT clock_timestamp()');
my $session = $node->background_psql('postgres');
$session->query_until(qr/started/,
	"\\echo started\nCALL partmgr.run_maintenance_proc(p_wait => 5);\n");
ok( $node->poll_query_until('postgres',
		"SELECT to_regclass('public.events_p30') IS NOT NULL
		    AND to_regclass('public.metrics_p300') IS NULL"),
	'a top-level CALL commits after each set');
$session->query_safe('SELECT 1');
is($node->safe_psql('postgres', "SELECT to_regclass('public.metrics_p300') IS NOT NULL"),
	't', 'and finishes the other sets');
is( $node->safe_psql('postgres',
		"SELECT count(*) FROM partmgr.part_config WHERE maintenance_last_run > '$before_call'"),
	'2', 'the CALL stamped maintenance_last_run of both sets');
$session->quit;

$node->stop;
done_testing();
