#
# The background worker: maintenance without any call, in every database
# that has the extension, one broken set not stopping the others, a visible
# maintenance log, bad settings survived, SIGHUP, and restarts.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use PartmgrWorker;

my $node = PostgreSQL::Test::Cluster->new('worker');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.interval = 1
timezone = 'UTC'
# tells which transaction made a table: subtransactions share its commit time
track_commit_timestamp = on
# DEBUG1 shows what leaves no other trace: the postmaster starting each
# worker and seeing it exit with code 0, a worker finding no extension
log_min_messages = debug1
});
$node->start;

# no worker runs now: one started before a reload has ended
sub wait_no_worker
{
	$node->poll_query_until('postgres',
		"SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'pg_partmgr worker'")
	  or die 'timed out waiting for the running pg_partmgr worker to end';
}

# a worker started by the postmaster, as DEBUG1 says
my $worker_started = qr/starting background worker process "pg_partmgr worker for database/;

# two databases with the extension, one without
$node->safe_psql('postgres', 'CREATE DATABASE second');
$node->safe_psql('postgres', 'CREATE DATABASE plain');
for my $db ('postgres', 'second')
{
	$node->safe_psql($db, q{
		CREATE EXTENSION pg_partmgr;
		CREATE TABLE public.events (id bigint NOT NULL, v text) PARTITION BY RANGE (id);
		SELECT partmgr.create_parent('public.events', 'id', '10', p_premake => 1);
	});
}

# the launcher runs and is visible
ok( $node->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM pg_stat_activity WHERE backend_type = 'pg_partmgr launcher'"),
	'the launcher is running and visible in pg_stat_activity');

# rows reach the last child: the worker creates the next one in both
# databases, with no call from anybody
for my $db ('postgres', 'second')
{
	$node->safe_psql($db, 'INSERT INTO public.events VALUES (15)');
}
for my $db ('postgres', 'second')
{
	ok( $node->poll_query_until($db,
			"SELECT to_regclass('public.events_p20') IS NOT NULL"),
		"the worker created events_p20 in database $db");
}
is( $node->safe_psql('postgres',
		"SELECT run_by || ' ' || action || ' ' || object || ' ' || outcome
		   FROM partmgr.maintenance_log WHERE object = 'public.events_p20'"),
	'worker create partition public.events_p20 done',
	'the maintenance log records what the worker did');
ok( $node->poll_query_until('postgres',
		"SELECT maintenance_last_run IS NOT NULL FROM partmgr.part_config WHERE parent_table = 'public.events'"),
	'maintenance_last_run is stamped by the worker (once its run is over)');

# a broken set does not stop the others; its error lands in the log
$node->safe_psql('postgres', q{
	CREATE TABLE public.aaa_broken (id bigint NOT NULL) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.aaa_broken', 'id', '10', p_premake => 1);
	UPDATE partmgr.part_config SET partition_interval = 'ten', maintenance_order = 1
	 WHERE parent_table = 'public.aaa_broken';
	INSERT INTO public.events VALUES (25);
});
ok( $node->poll_query_until('postgres',
		"SELECT to_regclass('public.events_p30') IS NOT NULL"),
	'a set maintained after a broken one still gets its child');
ok( $node->poll_query_until('postgres', q{
		SELECT count(*) > 0 FROM partmgr.maintenance_log
		 WHERE parent_table = 'public.aaa_broken' AND outcome = 'failed'
		   AND sqlstate = '22023' AND error LIKE 'partition interval "ten"%'
		   AND run_by = 'worker'}),
	'the broken set\'s error is in the maintenance log with its SQLSTATE');
$node->safe_psql('postgres',
	"DELETE FROM partmgr.part_config WHERE parent_table = 'public.aaa_broken'");

# the worker gives children to the table's owner and attaches them with the
# owner's rights: a set whose owner may not use its schema fails, reported
$node->safe_psql('postgres', q{
	CREATE ROLE app_owner;
	CREATE SCHEMA app AUTHORIZATION app_owner;
	CREATE TABLE app.orders (id bigint NOT NULL) PARTITION BY RANGE (id);
	ALTER TABLE app.orders OWNER TO app_owner;
	SELECT partmgr.create_parent('app.orders', 'id', '10', p_premake => 1);
	CREATE SCHEMA locked;
	CREATE TABLE locked.orders (id bigint NOT NULL) PARTITION BY RANGE (id);
	ALTER TABLE locked.orders OWNER TO app_owner;
	GRANT USAGE ON SCHEMA locked TO app_owner;
	SELECT partmgr.create_parent('locked.orders', 'id', '10', p_premake => 1);
	REVOKE USAGE ON SCHEMA locked FROM app_owner;
	INSERT INTO app.orders VALUES (15);
	INSERT INTO locked.orders VALUES (15);
});
ok( $node->poll_query_until('postgres',
		"SELECT pg_get_userbyid(relowner) = 'app_owner' FROM pg_class
		  WHERE oid = to_regclass('app.orders_p20')"),
	'the worker\'s new child belongs to the table\'s owner');
ok( $node->poll_query_until('postgres', q{
		SELECT count(*) > 0 FROM partmgr.maintenance_log
		 WHERE parent_table = 'locked.orders' AND outcome = 'failed'
		   AND sqlstate = '42501' AND run_by = 'worker'}),
	'an owner that lost USAGE on its schema: the set fails with a permission error in the log');
like( $node->safe_psql('postgres', q{
		SELECT error || ' / ' || error_hint FROM partmgr.maintenance_log
		 WHERE parent_table = 'locked.orders' AND outcome = 'failed' AND run_by = 'worker'
		 ORDER BY log_id DESC LIMIT 1}),
	qr/^role "app_owner", which owns "locked\.orders", may not use schema "locked" \/ GRANT USAGE ON SCHEMA locked TO app_owner\.$/,
	'which names the owner, the schema and the grant');
my ($rc, $out, $err) = $node->psql('postgres', q{
	CREATE TABLE locked.other (id bigint NOT NULL) PARTITION BY RANGE (id);
	ALTER TABLE locked.other OWNER TO app_owner;
	SELECT partmgr.create_parent('locked.other', 'id', '10', p_premake => 1);});
like($err, qr/ERROR:  role "app_owner", which owns "locked\.other", may not use schema "locked"/,
	'create_parent of a table whose owner may not use its schema is refused at once');
$node->safe_psql('postgres', q{
	DELETE FROM partmgr.part_config WHERE parent_table IN ('app.orders', 'locked.orders');
});

# each pass ends with one DEBUG1 line: sets maintained, time, the
# process's own peak memory, and (Linux) what it holds before it frees the
# catalog prefetch, its private memory apart from the shared memory it has
# touched; the peak is at least the two together
ok( $node->wait_for_log(
		qr/pg_partmgr: worker maintained \d+ of \d+ partition sets in database \d+ in \d+ ms, peak memory [1-9]\d* kB/),
	'a worker pass says its time and its peak memory at its end');
my ($peak_kb, $private_kb, $shared_kb) = slurp_file($node->logfile) =~
  /worker maintained \d+ of \d+ partition sets in database \d+ in \d+ ms, peak memory (\d+) kB(?:, at the end (\d+) kB private and (\d+) kB shared)?/;
cmp_ok($peak_kb, '>', 1024, 'the peak memory is the process\'s, more than a megabyte');
SKIP:
{
	skip 'the split of resident memory is read from /proc on Linux only', 3
	  unless $^O eq 'linux';
	ok(defined $private_kb, 'on Linux the line splits the memory held at the end into private and shared');
	cmp_ok($private_kb, '>', 1024, 'the private memory is the process\'s own, more than a megabyte');
	cmp_ok($private_kb + $shared_kb, '<=', $peak_kb, 'private and shared together are within the peak');
}

# nothing happens in a database without the extension, and nothing goes wrong
ok( $node->wait_for_log(
		qr/extension pg_partmgr is not installed in database "plain"; the worker has nothing to do/),
	'a worker visits the database without the extension and finds nothing to do');
ok(!$node->log_contains('database "plain".*ERROR|ERROR.*plain'),
	'no error for a database without the extension');

# SIGHUP: a new interval takes effect without a restart
my $offset = -s $node->logfile;
$node->append_conf('postgresql.conf', 'pg_partmgr.interval = 2');
$node->reload;
ok($node->wait_for_log(qr/pg_partmgr launcher: maintenance every 2 s/, $offset),
	'a changed interval is picked up on reload');

# an interval of 0 is refused with a clear message; the previous value stays
$offset = -s $node->logfile;
$node->append_conf('postgresql.conf', 'pg_partmgr.interval = 0');
$node->reload;
ok($node->wait_for_log(qr/0 s is outside the valid range for parameter "pg_partmgr.interval"/, $offset),
	'an interval of 0 is refused with a message');
is($node->safe_psql('postgres', 'SHOW pg_partmgr.interval'), '2s',
	'and the previous interval stays in force');
$node->append_conf('postgresql.conf', 'pg_partmgr.interval = 2');
$node->reload;

# bad settings: the launcher reports them, keeps running, and recovers
$offset = -s $node->logfile;
$node->append_conf('postgresql.conf', q{
pg_partmgr.role = 'no_such_role'
pg_partmgr.databases = 'no_such_db, postgres'
});
$node->reload;
my $unknown_role = qr/role "no_such_role" named by pg_partmgr.role does not exist/;
ok($node->wait_for_log($unknown_role, $offset), 'an unknown role is reported');
# The launcher says so at the start of every run.  A run with the unknown
# role starts no worker: once the last one started before the reload has
# ended, a row needing a child is added, and two runs are let begin after
# it (the first would have had its worker done by the second).
wait_no_worker();
$node->safe_psql('postgres', 'INSERT INTO public.events VALUES (35)');
my $inserted = $node->safe_psql('postgres', 'SELECT clock_timestamp()');
my $since_insert = -s $node->logfile;
$offset = $since_insert;
$offset = $node->wait_for_log($unknown_role, $offset) for 1 .. 2;
is( $node->safe_psql('postgres', qq{
		SELECT (to_regclass('public.events_p40') IS NULL) || ' ' || (maintenance_last_run < '$inserted')
		  FROM partmgr.part_config WHERE parent_table = 'public.events'}),
	'true true',
	'with an unknown role nothing is maintained: two runs later, no child and no run recorded');
ok(!$node->log_contains($worker_started, $since_insert),
	'and no worker was started');
$node->append_conf('postgresql.conf', q{pg_partmgr.role = ''});
$offset = -s $node->logfile;
$node->reload;
my $unknown_db = qr/database "no_such_db" named by pg_partmgr.databases does not exist/;
ok($node->wait_for_log($unknown_db, $offset), 'an unknown database is reported');
ok( $node->poll_query_until('postgres',
		"SELECT to_regclass('public.events_p40') IS NOT NULL"),
	'once the role is fixed, maintenance resumes for the databases that exist');
# (database second has children up to events_p20) The launcher names the
# missing database at the start of every run: two runs begin after the row
# needing a child is added, the database still listed is maintained, the
# other is not.
$node->safe_psql('second', 'INSERT INTO public.events VALUES (25)');
$inserted = $node->safe_psql('second', 'SELECT clock_timestamp()');
$offset = -s $node->logfile;
$offset = $node->wait_for_log($unknown_db, $offset) for 1 .. 2;
ok( $node->poll_query_until('postgres',
		"SELECT maintenance_last_run > '$inserted' FROM partmgr.part_config WHERE parent_table = 'public.events'"),
	'meanwhile the database left in pg_partmgr.databases had a run');
is( $node->safe_psql('second', qq{
		SELECT (to_regclass('public.events_p30') IS NULL) || ' ' || (maintenance_last_run < '$inserted')
		  FROM partmgr.part_config WHERE parent_table = 'public.events'}),
	'true true',
	'a database left out of pg_partmgr.databases is not maintained: no child, no run recorded');
$node->append_conf('postgresql.conf', q{pg_partmgr.databases = ''});
$node->reload;
ok( $node->poll_query_until('second',
		"SELECT to_regclass('public.events_p30') IS NOT NULL"),
	'with the restriction lifted, it is maintained again');

# the launcher survives pg_terminate_backend (the postmaster restarts it)
my $pid = $node->safe_psql('postgres',
	"SELECT pid FROM pg_stat_activity WHERE backend_type = 'pg_partmgr launcher'");
$node->safe_psql('postgres', "SELECT pg_terminate_backend($pid)");
ok( $node->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM pg_stat_activity WHERE backend_type = 'pg_partmgr launcher' AND pid <> $pid"),
	'a terminated launcher is restarted');
$node->safe_psql('postgres', 'INSERT INTO public.events VALUES (45)');
ok( $node->poll_query_until('postgres',
		"SELECT to_regclass('public.events_p50') IS NOT NULL"),
	'and maintains again');

# ... and a server restart
$node->restart;
$node->safe_psql('postgres', 'INSERT INTO public.events VALUES (55)');
ok( $node->poll_query_until('postgres',
		"SELECT to_regclass('public.events_p60') IS NOT NULL"),
	'after a restart the worker maintains again');

# derived constraints: the worker adds them NOT VALID and validates them in a
# transaction of its own right after
$node->safe_psql('postgres', q{
	CREATE TABLE public.orders (id bigint NOT NULL, order_no int) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.orders', 'id', '10', p_premake => 1,
								 p_start_partition => '0', p_constraint_cols => ARRAY['order_no']);
	UPDATE partmgr.part_config SET optimize_constraint = 1 WHERE parent_table = 'public.orders';
	INSERT INTO public.orders SELECT g, 1000 + g FROM generate_series(0, 19) g;
});
ok( $node->poll_query_until('postgres', q{
		SELECT convalidated AND pg_get_constraintdef(oid) LIKE '%1000%1009%'
		  FROM pg_constraint WHERE conname = 'partmanconstr_orders_p0_order_no'}),
	'the worker derives a constraint for an old child and validates it');
is( $node->safe_psql('postgres', q{
		SELECT string_agg(action || ':' || outcome, ',' ORDER BY log_id)
		  FROM partmgr.maintenance_log
		 WHERE parent_table = 'public.orders' AND action LIKE '%constraint%'}),
	'add constraints:done,validate constraint:done',
	'added, then validated, by the worker');

# bounded work: a set far behind is caught up in transactions of at most
# pg_partmgr.children_per_transaction children each, one after another in
# the same run
$node->append_conf('postgresql.conf', 'pg_partmgr.children_per_transaction = 4');
$node->reload;
# a new session, forked by the postmaster as the next worker will be, has it
$node->poll_query_until('postgres', "SELECT current_setting('pg_partmgr.children_per_transaction') = '4'")
  or die 'timed out waiting for pg_partmgr.children_per_transaction = 4';
$node->safe_psql('postgres', q{
	CREATE TABLE public.behind (id bigint NOT NULL) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.behind', 'id', '10', p_premake => 1,
								 p_start_partition => '0');
	INSERT INTO public.behind VALUES (5);
	UPDATE partmgr.part_config SET premake = 15 WHERE parent_table = 'public.behind';
});
ok( $node->poll_query_until('postgres',
		"SELECT to_regclass('public.behind_p150') IS NOT NULL"),
	'the worker catches up a set 14 children behind');
is( $node->safe_psql('postgres', q{
		SELECT count(*) || ' transactions, at most ' || max(n) || ' children each'
		  FROM (SELECT count(*) AS n FROM pg_class c
				  JOIN pg_inherits i ON i.inhrelid = c.oid
				 WHERE i.inhparent = 'public.behind'::regclass
				   AND c.relname NOT IN ('behind_p0', 'behind_p10', 'behind_default')
				 GROUP BY pg_xact_commit_timestamp(c.xmin)) AS per_transaction}),
	'4 transactions, at most 4 children each',
	'in transactions of at most pg_partmgr.children_per_transaction children');
$node->append_conf('postgresql.conf', 'pg_partmgr.children_per_transaction = 100');
$node->reload;

# disabled: no runs.  A run that does not happen leaves no trace, so the
# same reload changes the interval: the launcher's line about it shows that
# the reload is in force and when it would run next; from there it would
# run every second, aligned to the clock.  Once that time has passed and no
# worker runs, a row needing a child is added, and two of the times the
# launcher would have run pass (and half a second for a worker to finish).
my $would_run = reload_launcher($node, q{
pg_partmgr.enabled = off
pg_partmgr.interval = 1
}, 1);
wait_launcher_off($node, $would_run) or die "timed out waiting for $would_run";
$node->safe_psql('postgres', 'INSERT INTO public.events VALUES (65)');
$inserted = $node->safe_psql('postgres', 'SELECT clock_timestamp()');
$since_insert = -s $node->logfile;
my $second_time = $node->safe_psql('postgres', qq{
	SELECT '$would_run'::timestamptz
		   + (floor(extract(epoch FROM '$inserted'::timestamptz - '$would_run'::timestamptz)) + 2)
			 * interval '1 s'});
$node->poll_query_until('postgres',
	"SELECT clock_timestamp() > '$second_time'::timestamptz + interval '0.5 s'")
  or die "timed out waiting for $second_time";
is( $node->safe_psql('postgres', qq{
		SELECT (to_regclass('public.events_p70') IS NULL) || ' ' || (maintenance_last_run < '$inserted')
		  FROM partmgr.part_config WHERE parent_table = 'public.events'}),
	'true true',
	'pg_partmgr.enabled = off stops the runs: two run times later, no child and no run recorded');
ok(!$node->log_contains($worker_started, $since_insert), 'and no worker was started');

# the worker holds no transaction open between runs
is( $node->safe_psql('postgres',
		"SELECT count(*) FROM pg_stat_activity
		  WHERE backend_type LIKE 'pg_partmgr%' AND xact_start IS NOT NULL"),
	'0', 'no pg_partmgr process holds a transaction while idle');

# the extension dropped in the middle of a run: the worker says so and stops
$node->safe_psql('postgres', q{
	CREATE TABLE public.far (id bigint NOT NULL) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.far', 'id', '10', p_premake => 1,
								 p_start_partition => '0');
	INSERT INTO public.far VALUES (5);
	UPDATE partmgr.part_config SET premake = 1000 WHERE parent_table = 'public.far';
});
$offset = -s $node->logfile;
my $resumed = reload_launcher($node, q{
pg_partmgr.children_per_transaction = 1
pg_partmgr.enabled = on
pg_partmgr.interval = 2
}, 2);
ok( $node->poll_query_until('postgres',
		"SELECT to_regclass('public.events_p70') IS NOT NULL"),
	'with pg_partmgr.enabled on again, the runs resume');
is( $node->safe_psql('postgres',
		"SELECT pg_xact_commit_timestamp(xmin) >= '$resumed' FROM pg_class
		  WHERE oid = 'public.events_p70'::regclass"),
	't', 'events_p70 was made by a run after that reload, none while disabled');
ok( $node->poll_query_until('postgres',
		"SELECT to_regclass('public.far_p50') IS NOT NULL"),
	'a run that catches up one child per transaction is under way');
$node->safe_psql('postgres', 'DROP EXTENSION pg_partmgr CASCADE');
# Where the run stands when the DROP comes decides which of two things the
# worker says: it found the extension gone when it began its next
# transaction, or it found pg_partmgr's tables locked by the DROP and gave
# up its turn.  Either way the DROP waited at most for the transaction the
# worker was in (one child).
my $stops = qr/\[(\d+)\] (?:\S+ )?LOG:  pg_partmgr: (?:extension pg_partmgr was dropped from database "postgres" during a maintenance run; the worker stops|the maintenance run in database "postgres" stops: table partmgr\.\S+ is locked by another session)/;
ok($node->wait_for_log($stops, $offset),
	'the worker logs that the extension was dropped, or is being dropped, during its run, and stops');
# the postmaster logs how that process ended, naming it by its type (an
# exit code of 0 at DEBUG1)
my ($stopped_pid) = slurp_file($node->logfile, $offset) =~ $stops;
die 'no process id on the line about the dropped extension' unless defined $stopped_pid;
my $ended = qr/background worker "pg_partmgr worker" \(PID $stopped_pid\) (?:exited with exit code \d+|was terminated by signal \d+)/;
$node->wait_for_log($ended, $offset);
my ($how) = slurp_file($node->logfile, $offset) =~ /($ended)/;
like($how, qr/exited with exit code 0$/, 'and exits cleanly, with exit code 0');
ok(!$node->log_contains(qr/deadlock detected/), 'and no deadlock was detected');

$node->stop;
done_testing();
