#
# A DBA's DDL while the background worker is in the middle of a long
# catch-up (one child per transaction, hundreds due): DROP EXTENSION,
# ALTER EXTENSION UPDATE, DROP TABLE of the set's parent and
# config_cleanup(), each many times, each at another point of the run.
# None of them may deadlock with the run or fail in the DBA's session
# (config_cleanup excepted, which refuses with 55P03 while a run holds the
# set, and succeeds once asked again); the worker gives up its turn or
# stops, says why, and exits cleanly.  See doc/locking.md, "A DBA's DDL
# during a run".
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $rounds = $ENV{PARTMGR_DDL_ROUNDS} // 6;

my $node = PostgreSQL::Test::Cluster->new('ddl_during_run');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.interval = 1
pg_partmgr.children_per_transaction = 1
timezone = 'UTC'
# the postmaster says at DEBUG1 how each worker ended
log_min_messages = debug1
# a deadlock is found quickly, should there be one
deadlock_timeout = 100ms
});
$node->start;

# A set 1,000 children behind: the worker catches it up one child per
# transaction, for several seconds.
sub make_set
{
	my ($version) = @_;
	my $create = defined $version
	  ? "CREATE EXTENSION pg_partmgr VERSION '$version'" : 'CREATE EXTENSION pg_partmgr';
	$node->safe_psql('postgres', qq{
		DROP TABLE IF EXISTS public.far, partmgr.template_public_far;
		$create;
		CREATE TABLE public.far (id bigint NOT NULL) PARTITION BY RANGE (id);
		SELECT partmgr.create_parent('public.far', 'id', '10', p_premake => 1,
									 p_start_partition => '0');
		INSERT INTO public.far VALUES (5);
		UPDATE partmgr.part_config SET premake = 1000 WHERE parent_table = 'public.far';
	});
}

sub children
{
	return $node->safe_psql('postgres',
		"SELECT count(*) FROM pg_inherits WHERE inhparent = to_regclass('public.far')");
}

# Wait until the worker has made more than $n children of public.far and
# return its PID.
sub catching_up
{
	my ($n) = @_;
	$node->poll_query_until('postgres', qq{
		SELECT count(*) > $n FROM pg_inherits WHERE inhparent = 'public.far'::regclass})
	  or die "timed out waiting for the worker to make $n children";
	my $pid = $node->safe_psql('postgres',
		"SELECT pid FROM pg_stat_activity WHERE backend_type = 'pg_partmgr worker'");
	die 'no worker is running' unless $pid =~ /^\d+$/;
	return $pid;
}

# How the worker with $pid ended, from the postmaster's line about it.
sub ended
{
	my ($pid, $offset) = @_;
	my $line = qr/background worker "pg_partmgr worker" \(PID $pid\) (exited with exit code \d+|was terminated by signal \d+)/;
	$node->wait_for_log($line, $offset);
	my ($how) = slurp_file($node->logfile, $offset) =~ $line;
	return $how;
}

# Run $sql in the DBA's session: its stderr, empty when it succeeded quietly
# but for NOTICEs.
sub dba
{
	my ($sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $sql);
	$err = join("\n", grep { !/^(NOTICE|DETAIL|HINT|drop cascades)/ && /\S/ } split /\n/, $err);
	return $ret == 0 ? $err : "exit $ret: $err";
}

my $stops = qr/pg_partmgr: (extension pg_partmgr was dropped from database "postgres" during a maintenance run; the worker stops|the maintenance run in database "postgres" stops: table partmgr\.\S+ is locked by another session)/;

# DROP EXTENSION at a different point of each run
for my $i (1 .. $rounds)
{
	make_set();
	my $offset = -s $node->logfile;
	my $pid = catching_up(3 + 7 * $i);
	is(dba('DROP EXTENSION pg_partmgr CASCADE'), '',
		"round $i: DROP EXTENSION during the catch-up succeeds, with no error");
	ok($node->wait_for_log($stops, $offset), "round $i: the worker says why it stops");
	is(ended($pid, $offset), 'exited with exit code 0', "round $i: and exits cleanly");
}

# ALTER EXTENSION UPDATE: the run gives up its turn or goes on, and the next
# runs finish the catch-up on the new version
for my $i (1 .. $rounds)
{
	$node->safe_psql('postgres', 'DROP EXTENSION IF EXISTS pg_partmgr CASCADE');
	make_set('0.6.0');
	is($node->safe_psql('postgres', "SELECT extversion FROM pg_extension WHERE extname = 'pg_partmgr'"),
		'0.6.0', "round $i: the set is made at 0.6.0") if $i == 1;
	my $offset = -s $node->logfile;
	my $pid = catching_up(3 + 7 * $i);
	is(dba('ALTER EXTENSION pg_partmgr UPDATE'), '',
		"round $i: ALTER EXTENSION UPDATE during the catch-up succeeds, with no error");
	is(ended($pid, $offset), 'exited with exit code 0', "round $i: the worker exits cleanly");
	ok( $node->poll_query_until('postgres',
			"SELECT to_regclass('public.far_p10000') IS NOT NULL"),
		"round $i: and the runs after it make every child, up to far_p10000");
	is($node->safe_psql('postgres', "SELECT extversion FROM pg_extension WHERE extname = 'pg_partmgr'"),
		'0.7.0', "round $i: on 0.7.0");
}

# DROP TABLE of the set's parent: the set's next step fails and is recorded,
# the worker goes on and exits cleanly
for my $i (1 .. $rounds)
{
	$node->safe_psql('postgres', 'DROP EXTENSION IF EXISTS pg_partmgr CASCADE');
	make_set();
	my $offset = -s $node->logfile;
	my $pid = catching_up(3 + 7 * $i);
	is(dba('DROP TABLE public.far'), '',
		"round $i: DROP TABLE of the parent during the catch-up succeeds, with no error");
	is(ended($pid, $offset), 'exited with exit code 0', "round $i: the worker exits cleanly");
}

# config_cleanup(): refused with 55P03 while the run holds the set, never a
# deadlock; asked again it succeeds, and no run makes a child after it
for my $i (1 .. $rounds)
{
	$node->safe_psql('postgres', 'DROP EXTENSION IF EXISTS pg_partmgr CASCADE');
	make_set();
	my $offset = -s $node->logfile;
	catching_up(3 + 7 * $i);
	my @answers;
	my $cleaned = 0;
	for my $try (1 .. 600)
	{
		my $err = dba("SELECT partmgr.config_cleanup('public.far')");
		if ($err eq '') { $cleaned = 1; last; }
		push @answers, $err;
		usleep(50_000);
	}
	ok($cleaned, "round $i: config_cleanup() during the catch-up succeeds, asked again if need be");
	is_deeply([ grep { !/ERROR:  partition set "public\.far" is being maintained by another session/ } @answers ], [],
		"round $i: and until then it is refused only because a run holds the set")
	  or diag(join("\n", @answers));
	my $after = children();
	# the next two runs of the launcher would have made children
	my $at = $node->safe_psql('postgres', 'SELECT clock_timestamp()');
	$node->poll_query_until('postgres', qq{
		SELECT clock_timestamp() > '$at'::timestamptz + interval '2.5 s'
		   AND count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'pg_partmgr worker'})
	  or die 'timed out waiting for two runs to pass';
	is(children(), $after, "round $i: no run makes a child of the forgotten set");
}

ok(!$node->log_contains(qr/deadlock detected/), 'no deadlock anywhere in the server log');

$node->stop;
done_testing();
