#
# Scheduling through pg_cron: a job that CALLs run_maintenance_proc creates
# the missing child, committing set by set; with a broken set it maintains
# the others and ends with an ERROR naming it, which pg_cron records as a
# failed run.
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

# a broken set: the CALL maintains and commits the others, then ends with an
# ERROR naming it (pg_partmgr.on_set_failure = error, the default), so that
# pg_cron records the run as failed
$node->safe_psql('postgres', q{
	CREATE TABLE public.broken (id bigint NOT NULL) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.broken', 'id', '10', p_premake => 1);
	UPDATE partmgr.part_config SET partition_interval = 'banana' WHERE parent_table = 'public.broken';
	INSERT INTO public.events VALUES (35);
	INSERT INTO public.metrics VALUES (350);
});
my ($ret, $out, $err) = $node->psql('postgres', 'CALL partmgr.run_maintenance_proc()');
like($err, qr/ERROR:  maintenance of 1 partition set failed: "public.broken"/,
	'a CALL with a broken set ends with an ERROR naming it');
is( $node->safe_psql('postgres',
		"SELECT to_regclass('public.events_p40') IS NOT NULL AND to_regclass('public.metrics_p400') IS NOT NULL"),
	't', 'and the other sets\' children were committed before it');
is( $node->safe_psql('postgres', q{
		SELECT outcome || ' ' || sqlstate FROM partmgr.maintenance_log
		 WHERE parent_table = 'public.broken' ORDER BY log_id DESC LIMIT 1}),
	'failed 22023', 'the failure is in the maintenance log');
($ret, $out, $err) = $node->psql('postgres',
	"SET pg_partmgr.on_set_failure = warning; CALL partmgr.run_maintenance_proc()");
is($ret, 0, 'with pg_partmgr.on_set_failure = warning the CALL succeeds');
like($err, qr/WARNING:  maintenance of partition set "public.broken" failed/, 'with a WARNING');
my $before_job = $node->safe_psql('postgres', 'SELECT clock_timestamp()');
$node->safe_psql('postgres', q{
	SELECT cron.schedule('partmgr-broken', '* * * * *', 'CALL partmgr.run_maintenance_proc()');
});
ok( $node->poll_query_until('postgres', qq{
		SELECT count(*) > 0 FROM cron.job_run_details
		 WHERE status = 'failed' AND start_time > '$before_job'
		   AND return_message LIKE '%maintenance of 1 partition set failed: "public.broken"%'}),
	'pg_cron records the job with the broken set as failed, naming it');
$node->safe_psql('postgres', "SELECT cron.unschedule('partmgr-broken')");

$node->stop;
done_testing();
