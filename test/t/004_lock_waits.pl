#
# While maintenance waits for a lock that a long reader holds, inserts and
# new readers of the parent are not queued behind it.  The same situation
# with a plain ATTACH PARTITION (what pg_partman runs) shows that this test
# does detect a queue.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('locks');
$node->init;
$node->append_conf('postgresql.conf', "timezone = 'UTC'");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_partmgr;
	CREATE TABLE public.events (id bigint NOT NULL, v text) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.events', 'id', '10', p_premake => 1);
	INSERT INTO public.events VALUES (15, 'needs a new child');
});

# a long reader: holds ACCESS SHARE on the parent and its default partition
my $reader = $node->background_psql('postgres');
$reader->query_safe('BEGIN');
$reader->query_safe('SELECT count(*) FROM public.events');

# maintenance needs ACCESS EXCLUSIVE on the default partition: it retries
# for up to 10 s without queueing
my $maint = $node->background_psql('postgres');
$maint->query_safe("SET pg_partmgr.lock_timeout = '10s'");
$maint->query_until(qr/started/, "\\echo started\nSELECT partmgr.run_maintenance();\n");
ok( $node->poll_query_until('postgres', q{
		SELECT count(*) = 1 FROM pg_stat_activity
		 WHERE state = 'active' AND query LIKE 'SELECT partmgr.run_maintenance()%'}),
	'maintenance is waiting for the reader');

# meanwhile the application goes on: an INSERT and a new reader of the parent
# finish at once (a statement queued behind maintenance would hit the
# one-second statement_timeout)
my ($ret, $out, $err) = $node->psql('postgres',
	"SET statement_timeout = '1s'; INSERT INTO public.events VALUES (5, 'app')");
is($ret, 0, 'an INSERT into the parent is not queued behind maintenance');
($ret, $out, $err) = $node->psql('postgres',
	"SET statement_timeout = '1s'; SELECT count(*) FROM public.events");
is($ret, 0, 'a new reader of the parent is not queued behind maintenance');
is($out, '2', 'and sees every row');
is( $node->safe_psql('postgres', q{
		SELECT count(*) FROM pg_stat_activity
		 WHERE state = 'active' AND query LIKE 'SELECT partmgr.run_maintenance()%'}),
	'1', 'maintenance was still waiting while they ran');

# the reader ends; maintenance gets its lock and creates the child
$reader->query_safe('COMMIT');
$maint->query_safe('SELECT 1');
is($node->safe_psql('postgres', "SELECT to_regclass('public.events_p20') IS NOT NULL"),
	't', 'maintenance created the child once the reader was gone');

# the same with a plain ATTACH that waits in the lock queue: a new reader
# is stuck behind it
$node->safe_psql('postgres', 'INSERT INTO public.events VALUES (25)');
$reader->query_safe('BEGIN');
$reader->query_safe('SELECT count(*) FROM public.events');
$maint->query_safe('CREATE TABLE public.events_manual (LIKE public.events)');
$maint->query_until(qr/started/, "\\echo started\n"
	. "ALTER TABLE public.events ATTACH PARTITION public.events_manual FOR VALUES FROM (30) TO (40);\n");
ok( $node->poll_query_until('postgres', q{
		SELECT count(*) = 1 FROM pg_stat_activity
		 WHERE wait_event_type = 'Lock' AND query LIKE 'ALTER TABLE public.events ATTACH%'}),
	'a plain ATTACH waits in the lock queue');
($ret, $out, $err) = $node->psql('postgres',
	"SET statement_timeout = '1s'; SELECT count(*) FROM public.events");
isnt($ret, 0, 'a new reader queues behind the plain ATTACH (the test sees queues)');
like($err, qr/statement timeout/, 'it was cancelled by its statement_timeout');
$reader->query_safe('COMMIT');
$maint->query_safe('SELECT 1');

$reader->quit;
$maint->quit;
$node->stop;
done_testing();
