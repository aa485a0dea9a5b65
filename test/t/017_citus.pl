#
# pg_partmgr on a Citus cluster: a coordinator and two workers.
#
# Every maintenance path on a distributed partitioned set, run from the
# coordinator: children distributed and co-located like the parent, in the
# same transaction as the configuration change (a child that fails half-way
# leaves no table behind, on the coordinator or on a worker); lock waits on
# the workers asked for ahead (a long reader of a shard makes maintenance
# give up and retry, before it locked anything: nothing queues behind it;
# nor behind a reader through the coordinator), and a lock it could not ask
# about waited for on a worker at most pg_partmgr.lock_timeout, the child
# made half-way rolled back on every node;
# run_maintenance_proc() and partition_data_proc, which commit as they go;
# a plain role with the documented grants refused on the set, the shards
# owned by the set's owner; the background worker and run_maintenance()
# do nothing on a worker node;
# what Citus cannot do is refused with 0A000.
#
# Needs the citus extension, which Debian does not package: without it the
# test skips (doc/citus.md says how to build it).
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use FindBin;
use lib $FindBin::RealBin;
use PartmgrWorker;

my $pkglibdir = `pg_config --pkglibdir`;
my $sharedir = `pg_config --sharedir`;
chomp($pkglibdir, $sharedir);
if (!-e "$pkglibdir/citus.so" || !-e "$sharedir/extension/citus.control")
{
	plan skip_all =>
	  "the citus extension is not installed on this machine (doc/citus.md says how to build it)";
}

# Three servers, citus loaded before pg_partmgr; the launcher maintains no
# database until the end of the test.
my @nodes;
for my $name (qw(coordinator worker1 worker2))
{
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init;
	$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'citus,pg_partmgr'
max_prepared_transactions = 20
timezone = 'UTC'
pg_partmgr.databases = ''
pg_partmgr.interval = 3600
log_min_messages = info
});
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION citus');
	push @nodes, $node;
}
my ($coord, $w1, $w2) = @nodes;

# Citus reaches each node through its socket directory
$coord->safe_psql('postgres', sprintf(q{
	SELECT citus_set_coordinator_host('%s', %d);
	SELECT citus_add_node('%s', %d);
	SELECT citus_add_node('%s', %d);},
	$coord->host, $coord->port, $w1->host, $w1->port, $w2->host, $w2->port));

# A set owned by an ordinary role, whose parent references a reference table
$coord->safe_psql('postgres', q{
	CREATE EXTENSION pg_partmgr;
	CREATE ROLE app LOGIN;
	GRANT CREATE ON SCHEMA public TO app;
	GRANT USAGE, CREATE ON SCHEMA partmgr TO app;
	GRANT ALL ON ALL TABLES IN SCHEMA partmgr TO app;
	GRANT ALL ON ALL SEQUENCES IN SCHEMA partmgr TO app;
	SET ROLE app;
	CREATE TABLE public.tenants (id int PRIMARY KEY, name text);
	SELECT create_reference_table('public.tenants');
	INSERT INTO public.tenants SELECT g, 'tenant ' || g FROM generate_series(1, 8) g;
	CREATE TABLE public.events (tenant_id int NOT NULL REFERENCES public.tenants (id),
								ts timestamptz NOT NULL, payload text)
		PARTITION BY RANGE (ts);
	SELECT create_distributed_table('public.events', 'tenant_id', shard_count => 4);
	SELECT partmgr.create_parent('public.events', 'ts', '1 day', p_premake => 2,
								 p_start_partition => (current_date - 10)::text,
								 p_automatic_maintenance => 'off');
});

# days relative to today, as the children's names and bounds give them
sub day
{
	my ($offset, $format) = @_;
	return $coord->safe_psql('postgres',
		sprintf(q{SELECT to_char(current_date + %d, '%s')}, $offset, $format));
}

# the children and their placement, as the coordinator's catalogs say
sub children_of
{
	my ($parent) = @_;
	return $coord->safe_psql('postgres', qq{
		SELECT string_agg(c.relname || ':' || coalesce(p.partmethod::text, 'local') || ':'
						  || (p.colocationid = pp.colocationid)::text || ':'
						  || pg_get_userbyid(c.relowner), ',' ORDER BY c.relname)
		  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		  LEFT JOIN pg_dist_partition p ON p.logicalrelid = c.oid
		  JOIN pg_dist_partition pp ON pp.logicalrelid = i.inhparent
		 WHERE i.inhparent = '$parent'::regclass});
}

my $children = children_of('public.events');
my @listed = split /,/, $children;
ok(@listed >= 4, 'create_parent made the children and the default partition');
is(scalar(grep { !/:h:true:app$/ } @listed), 0,
	'every child is hash-distributed, co-located with the parent, and owned by the owner')
  or diag $children;
is( $coord->safe_psql('postgres', q{
		SELECT count(DISTINCT nodeport) FROM citus_shards
		 WHERE table_name = 'public.events_default'::regclass}),
	'2', 'the default partition has shards on both workers');
ok( $coord->log_contains(
		qr/partition set public\.events is a Citus table: its statements run in citus\.multi_shard_modify_mode 'sequential'.*\n.*DETAIL:  Its parent has a foreign key to reference table public\.tenants/),
	'the log says why maintenance runs sequentially: the reference table is named');

# premake, in a transaction of the caller's (run_maintenance()), which Citus's
# parallel mode would fail because of the foreign key to the reference table
$coord->safe_psql('postgres', q{
	UPDATE partmgr.part_config SET premake = 4, infinite_time_partitions = true
	 WHERE parent_table = 'public.events';
	BEGIN;
	SELECT partmgr.run_maintenance('public.events');
	COMMIT;
});
is( $coord->safe_psql('postgres', q{
		SELECT count(*) FROM partmgr.maintenance_log
		 WHERE parent_table = 'public.events' AND outcome <> 'done'}),
	'0', 'create_parent and premake ran without a failure');
my $premade = children_of('public.events');
ok(scalar(split /,/, $premade) > @listed, 'premake added children');
is(scalar(grep { !/:h:true:app$/ } split /,/, $premade), 0,
	'premade children are distributed and co-located too');

# ----------------------------------------------------------------------
# A long reader of a shard on a worker: maintenance gives up within
# pg_partmgr.lock_timeout there, leaves nothing behind, and retries.
# ----------------------------------------------------------------------
# A node's pg_class with the shards in it: Citus hides shard tables from the
# sessions of other applications (citus.override_table_visibility), so a
# check for tables left behind on a worker would see only the coordinator's
# placeholders and pass with orphaned shards there.
sub catalog_psql
{
	my ($node, $sql) = @_;
	return $node->safe_psql('postgres',
		"SET citus.override_table_visibility = off;\n$sql");
}

sub shard_on
{
	my ($table, $node) = @_;
	return $coord->safe_psql('postgres', sprintf(q{
		SELECT shard_name FROM citus_shards
		 WHERE table_name = '%s'::regclass AND nodeport = %d ORDER BY shardid LIMIT 1},
		$table, $node->port));
}

my $default_shard = shard_on('public.events_default', $w1);
my $reader = $w1->background_psql('postgres');
$reader->query_safe('BEGIN');
$reader->query_safe("SELECT count(*) FROM public.$default_shard");

my $next_name = $coord->safe_psql('postgres', q{
	SELECT 'events_p' || to_char(max(upper_bound)::timestamptz, 'YYYYMMDD')
	  FROM (SELECT (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \(''([^'']+)''\)'))[1] AS upper_bound
			  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
			 WHERE i.inhparent = 'public.events'::regclass AND NOT c.relname LIKE '%default') b});

# what an INSERT takes with nothing going on (a new psql connection included)
my $t0 = time;
$w1->safe_psql('postgres', q{INSERT INTO public.events VALUES (2, now(), 'baseline')});
my $worker_alone = time - $t0;
$t0 = time;
$coord->safe_psql('postgres', q{INSERT INTO public.events VALUES (1, now(), 'baseline')});
my $coord_alone = time - $t0;

# maintenance with a 2 s lock_timeout, in the background: it asks the
# workers before it locks anything, and asks again while the reader is there
my $maint = $coord->background_psql('postgres');
$maint->query_safe(q{SET pg_partmgr.lock_timeout = '2s'});
$maint->query_safe(q{UPDATE partmgr.part_config SET premake = 5 WHERE parent_table = 'public.events'});
my $started = time;
$maint->query_until(qr/started/, "\\echo started\nSELECT partmgr.run_maintenance('public.events');\n");
ok( $coord->poll_query_until('postgres', q{
		SELECT count(*) = 1 FROM pg_stat_activity
		 WHERE state = 'active' AND query LIKE 'SELECT partmgr.run_maintenance(%'}),
	'maintenance is trying while the reader holds the shard on the worker');

# meanwhile the application writes, on the worker and on the coordinator,
# and is not queued: maintenance holds nothing while it asks
$t0 = time;
my ($ret, $out, $err) = $w1->psql('postgres',
	q{SET statement_timeout = '1s'; INSERT INTO public.events VALUES (2, now(), 'app on a worker')});
my $worker_insert = time - $t0;
is($ret, 0, 'an INSERT on the worker is not queued behind maintenance') or diag $err;
$t0 = time;
($ret, $out, $err) = $coord->psql('postgres',
	q{SET statement_timeout = '1s'; INSERT INTO public.events VALUES (1, now(), 'app')});
my $coord_insert = time - $t0;
is($ret, 0, 'nor one on the coordinator') or diag $err;
is( $coord->safe_psql('postgres', q{
		SELECT count(*) FROM pg_stat_activity
		 WHERE state = 'active' AND query LIKE 'SELECT partmgr.run_maintenance(%'}),
	'1', 'maintenance was still trying while they ran');
note sprintf('insert latency while maintenance waited for a worker (lock_timeout 2000 ms): worker %.1f ms (%.1f ms alone), coordinator %.1f ms (%.1f ms alone)',
	1000 * $worker_insert, 1000 * $worker_alone, 1000 * $coord_insert, 1000 * $coord_alone);

# maintenance gave up while the reader still holds its lock
$maint->query('SELECT 1');
like($maint->{stderr},
	qr/WARNING:  skipped partition set "public\.events" for this run: could not lock table events_default \(ACCESS EXCLUSIVE\) on Citus worker [^ ]+:@{[ $w1->port ]} within 2000 ms/,
	'run_maintenance() skipped the set with a WARNING that names the table and the worker');
my $gave_up = time - $started;
note sprintf('maintenance returned after %.0f ms (lock_timeout 2000 ms)', 1000 * $gave_up);
is($reader->query_safe('SELECT 1'), '1', 'maintenance returned with the reader still there');
is( $coord->safe_psql('postgres', q{
		SELECT outcome || ' ' || sqlstate FROM partmgr.maintenance_log
		 WHERE parent_table = 'public.events' ORDER BY log_id DESC LIMIT 1}),
	'skipped 55P03', 'it is recorded by its SQLSTATE, as skipped');

# A lock maintenance cannot ask about ahead: a transaction on a worker that
# wrote to the reference table's placement there.  The ATTACH of the next
# child, which adds the foreign key on the workers, waits for it there at
# most pg_partmgr.lock_timeout, after the child's table was made: the
# failure rolls the child back on every node.
$reader->query_safe('COMMIT');
my $tenants_shard = shard_on('public.tenants', $w1);
$reader->query_safe('SET citus.enable_manual_changes_to_shards = on');
$reader->query_safe('BEGIN');
$reader->query_safe("LOCK TABLE public.$tenants_shard IN ROW EXCLUSIVE MODE");
($ret, $out, $err) = $coord->psql('postgres', q{
	SET pg_partmgr.lock_timeout = 300;
	SELECT partmgr.run_maintenance('public.events')});
like($err, qr/skipped partition set "public\.events" for this run: canceling statement due to lock timeout/,
	"the ATTACH gives up on the worker's lock within the timeout");
like( $coord->safe_psql('postgres', q{
		SELECT outcome || ' ' || sqlstate || ' ' || array_to_string(statements, ';')
		  FROM partmgr.maintenance_log
		 WHERE parent_table = 'public.events' ORDER BY log_id DESC LIMIT 1}),
	qr/^skipped 55P03 CREATE TABLE .*;ALTER TABLE public\.events ATTACH PARTITION/,
	'after the child was created: it failed half-way');
is($reader->query_safe('SELECT 1'), '1', 'the transaction on the worker is still there');

# no orphan: the child's table is gone from the coordinator and the workers
for my $node ($coord, $w1, $w2)
{
	is( catalog_psql($node, qq{
			SELECT count(*) FROM pg_class WHERE relname LIKE '$next_name%'}),
		'0', 'no table of the failed child is left on ' . $node->name);
}
is( $coord->safe_psql('postgres', q{
		SELECT count(*) FROM pg_dist_partition p
		 WHERE NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = p.logicalrelid)
		   AND p.logicalrelid::text LIKE 'events%' AND p.logicalrelid <> 'public.events'::regclass}),
	'0', 'and no distributed table outside the set');

# create_parent failing (a worker's lock on the parent's shard) leaves
# nothing: no configuration, no table on any node, no distributed table
$coord->safe_psql('postgres', q{
	SET ROLE app;
	CREATE TABLE public.metrics (tenant_id int NOT NULL, ts timestamptz NOT NULL)
		PARTITION BY RANGE (ts);
	SELECT create_distributed_table('public.metrics', 'tenant_id', shard_count => 2);
});
my $metrics_shard = shard_on('public.metrics', $w1);
my $locker = $w1->background_psql('postgres');
$locker->query_safe('SET citus.enable_manual_changes_to_shards = on');
$locker->query_safe('BEGIN');
$locker->query_safe("LOCK TABLE public.$metrics_shard IN SHARE MODE");
my $dist_before = $coord->safe_psql('postgres', 'SELECT count(*) FROM pg_dist_partition');
($ret, $out, $err) = $coord->psql('postgres', q{
	SET pg_partmgr.lock_timeout = 300;
	SET ROLE app;
	SELECT partmgr.create_parent('public.metrics', 'ts', '1 day', p_premake => 2)});
like($err, qr/ERROR:  could not lock table metrics \(SHARE UPDATE EXCLUSIVE\) on Citus worker [^ ]+:@{[ $w1->port ]} within 300 ms/,
	"create_parent fails on the worker's lock, within the timeout, before it locked anything");
is($locker->query_safe('SELECT 1'), '1', 'while the lock is still held');
is( $coord->safe_psql('postgres', q{
		SELECT count(*) FROM partmgr.part_config WHERE parent_table = 'public.metrics'}),
	'0', 'no configuration row is left');
for my $node ($coord, $w1, $w2)
{
	is( catalog_psql($node, q{
			SELECT count(*) FROM pg_class
			 WHERE relname LIKE 'metrics_p%' OR relname LIKE 'metrics_default%'
			    OR relname LIKE 'template_public_metrics%'}),
		'0', 'no child, default or template table of it is left on ' . $node->name);
}
is($coord->safe_psql('postgres', 'SELECT count(*) FROM pg_dist_partition'),
	$dist_before, 'no distributed table was added');
$locker->query_safe('COMMIT');
$locker->quit;

# the reader goes; the next run creates the child
$reader->query_safe('COMMIT');
$maint->quit;
$coord->safe_psql('postgres', q{SELECT partmgr.run_maintenance('public.events')});
is( $coord->safe_psql('postgres', qq{SELECT to_regclass('public.$next_name') IS NOT NULL}),
	't', 'the next run created the child');

# A long reader through the coordinator holds the coordinator's tables:
# maintenance's requests there are withdrawn, not queued, so nothing waits
# behind it, on any node, and it gives up within the timeout.
$reader = $coord->background_psql('postgres');
$reader->query_safe('BEGIN');
$reader->query_safe('SELECT count(*) FROM public.events');
$maint = $coord->background_psql('postgres');
$maint->query_safe(q{SET pg_partmgr.lock_timeout = '3s'});
$maint->query_safe(q{UPDATE partmgr.part_config SET premake = premake + 1 WHERE parent_table = 'public.events'});
$maint->query_until(qr/started/, "\\echo started\nSELECT partmgr.run_maintenance('public.events');\n");
ok( $coord->poll_query_until('postgres', q{
		SELECT count(*) = 1 FROM pg_stat_activity
		 WHERE state = 'active' AND query LIKE 'SELECT partmgr.run_maintenance(%'}),
	'maintenance is trying for its locks behind a reader on the coordinator');
($ret, $out, $err) = $coord->psql('postgres',
	q{SET statement_timeout = '1s'; INSERT INTO public.events VALUES (4, now(), 'app')});
is($ret, 0, 'an INSERT on the coordinator is not queued behind maintenance') or diag $err;
($ret, $out, $err) = $w2->psql('postgres',
	q{SET statement_timeout = '1s'; INSERT INTO public.events VALUES (5, now(), 'app on a worker')});
is($ret, 0, 'nor one on a worker') or diag $err;
is( $coord->safe_psql('postgres', q{
		SELECT count(*) FROM pg_stat_activity
		 WHERE state = 'active' AND query LIKE 'SELECT partmgr.run_maintenance(%'}),
	'1', 'maintenance was still trying while they ran');
$maint->query('SELECT 1');
like($maint->{stderr}, qr/skipped partition set "public\.events" for this run/,
	'then it gave up, with the reader still there');
$reader->query_safe('COMMIT');
$reader->quit;
$maint->quit;


# run_maintenance_proc(), committing after each set, makes the child the
# run above gave up on
$coord->safe_psql('postgres', q{
	UPDATE partmgr.part_config SET automatic_maintenance = 'on' WHERE parent_table = 'public.events'});
$coord->safe_psql('postgres', 'CALL partmgr.run_maintenance_proc()');
$coord->safe_psql('postgres', q{
	UPDATE partmgr.part_config SET automatic_maintenance = 'off' WHERE parent_table = 'public.events'});
is( $coord->safe_psql('postgres', q{
		SELECT outcome FROM partmgr.maintenance_log
		 WHERE parent_table = 'public.events' ORDER BY log_id DESC LIMIT 1}),
	'done', 'run_maintenance_proc() maintained the set');
is(scalar(grep { !/:h:true:app$/ } split /,/, children_of('public.events')), 0,
	'and its child is distributed and co-located');

# ----------------------------------------------------------------------
# partition_data: rows in the default partition move into new children,
# shard by shard (the child is distributed before the rows are copied)
# ----------------------------------------------------------------------
my $old_day = day(-20, 'YYYY-MM-DD');
my $old_prefix = 'events_p' . day(-20, 'YYYYMM');
$coord->safe_psql('postgres', qq{
	INSERT INTO public.events
	SELECT (g % 8) + 1, '$old_day'::timestamptz + g * interval '1 hour', 'old'
	  FROM generate_series(0, 71) g});
my $before = $coord->safe_psql('postgres', 'SELECT count(*) FROM public.events');
is($coord->safe_psql('postgres', 'SELECT count(*) FROM ONLY public.events_default'),
	'72', 'rows older than the set landed in the default partition');
is( $coord->safe_psql('postgres',
		q{SELECT partmgr.partition_data_time('public.events', p_batch_count => 10)}),
	'72', 'partition_data_time moved them');
is($coord->safe_psql('postgres', 'SELECT count(*) FROM public.events'),
	$before, 'no row was lost or doubled');
is($coord->safe_psql('postgres', 'SELECT count(*) FROM ONLY public.events_default'),
	'0', 'the default partition is empty');
is( $coord->safe_psql('postgres', q{
		SELECT count(*) FROM partmgr.maintenance_log
		 WHERE parent_table = 'public.events' AND action = 'create partition'
		   AND outcome = 'done'
		   AND object IN (SELECT 'public.events_p' || to_char(current_date + d, 'YYYYMMDD')
							FROM generate_series(-20, -18) d)
		   AND array_to_string(statements, ';')
			   LIKE '%SELECT pg_catalog.create_distributed_table(%colocate_with%;INSERT INTO %'}),
	'3', 'each new child was distributed like the parent before its rows were copied');
is(scalar(grep { !/:h:true:app$/ } split /,/, children_of('public.events')), 0,
	'all children are still distributed and co-located');
is( $coord->safe_psql('postgres', q{
		SELECT sum(pg_relation_size(i.inhrelid)) FROM pg_inherits i
		 WHERE i.inhparent = 'public.events'::regclass}),
	'0', 'no row passed through the coordinator: its tables of the set hold none');

# Rows of one day, one row every $step from $offset days ago, put in the
# default partition and moved out by $call (named $what): none lost or
# doubled, the child distributed and co-located, no row in a shell of the
# coordinator.
sub moved_out_of_default
{
	my ($what, $call, $offset, $step) = @_;
	my $from = day($offset, 'YYYY-MM-DD');

	$coord->safe_psql('postgres', qq{
		INSERT INTO public.events
		SELECT (g % 8) + 1, '$from'::timestamptz + g * interval '$step', '$what'
		  FROM generate_series(0, 47) g});
	my $rows = $coord->safe_psql('postgres', 'SELECT count(*) FROM public.events');
	$coord->safe_psql('postgres', $call);
	is($coord->safe_psql('postgres', 'SELECT count(*) FROM ONLY public.events_default'),
		'0', "$what emptied the default partition");
	is($coord->safe_psql('postgres', 'SELECT count(*) FROM public.events'),
		$rows, "$what lost or doubled no row");
	like(children_of('public.events'), qr/events_p@{[ day($offset, 'YYYYMMDD') ]}:h:true:app/,
		"$what made a distributed, co-located child");
	is( $coord->safe_psql('postgres', q{
			SELECT sum(pg_relation_size(i.inhrelid)) FROM pg_inherits i
			 WHERE i.inhparent = 'public.events'::regclass}),
		'0', "$what moved the rows shard by shard");
}

# partition_data_proc commits after each batch, in a procedure
moved_out_of_default('partition_data_proc',
	q{CALL partmgr.partition_data_proc('public.events', p_wait => 0, p_quiet => true)},
	-30, '1 hour');

# partition_data_async: each child made unattached, distributed, filled
# batch by batch, then attached
moved_out_of_default('partition_data_async',
	q{CALL partmgr.partition_data_async('public.events', p_interval => '6 hours', p_quiet => true)},
	-25, '30 minutes');

# ----------------------------------------------------------------------
# Derived constraints, retention (detach into a schema, drop), gap fill
# ----------------------------------------------------------------------
$coord->safe_psql('postgres', q{
	CREATE SCHEMA archive AUTHORIZATION app;
	UPDATE partmgr.part_config SET constraint_cols = ARRAY['tenant_id'], optimize_constraint = 3
	 WHERE parent_table = 'public.events';
	SELECT partmgr.run_maintenance('public.events');
});
my $constrained_shard = shard_on('public.events_p' . day(-20, 'YYYYMMDD'), $w2);
like( $w2->safe_psql('postgres', qq{
		SELECT string_agg(pg_get_constraintdef(oid), ' ') FROM pg_constraint
		 WHERE conrelid = 'public.$constrained_shard'::regclass AND contype = 'c'}),
	qr/tenant_id >= 1.*tenant_id <= 8/,
	'a derived constraint reached the shards of an old child');

$coord->safe_psql('postgres', q{
	UPDATE partmgr.part_config
	   SET retention = '15 days', retention_schema = 'archive', retention_keep_table = true
	 WHERE parent_table = 'public.events';
	SELECT partmgr.run_maintenance('public.events');
});
is( $coord->safe_psql('postgres', q{
		SELECT count(*) FROM pg_class c JOIN pg_dist_partition p ON p.logicalrelid = c.oid
		 WHERE c.relnamespace = 'archive'::regnamespace AND c.relname LIKE 'events_p%'}),
	'6', 'expired children were detached into the archive schema, still distributed');
is( $coord->safe_psql('postgres', q{
		SELECT count(*) FROM partmgr.maintenance_log
		 WHERE action LIKE 'detach%' AND outcome = 'done'
		   AND array_to_string(statements, ';') LIKE '%DETACH PARTITION%'
		   AND array_to_string(statements, ';') NOT LIKE '%CONCURRENTLY%'}),
	'6', 'with a plain DETACH');

$coord->safe_psql('postgres', q{
	UPDATE partmgr.part_config SET retention = '8 days', retention_schema = NULL,
		   retention_keep_table = false
	 WHERE parent_table = 'public.events';
	SELECT partmgr.run_maintenance('public.events');
});
ok( $coord->safe_psql('postgres', q{
		SELECT count(*) > 0 FROM partmgr.maintenance_log
		 WHERE action = 'drop partition' AND outcome = 'done'}) eq 't',
	'retention dropped expired children');
my $dropped = 'events_p' . day(-10, 'YYYYMMDD');
is( catalog_psql($w1, qq{
		SELECT count(*) FROM pg_class WHERE relname LIKE '$dropped%'}),
	'0', "the dropped children's shards are gone from the workers");

# a gap: an empty child dropped by hand is made again, distributed
my $gap = $coord->safe_psql('postgres', q{
	SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	 WHERE i.inhparent = 'public.events'::regclass AND c.relname NOT LIKE '%default'
	 ORDER BY c.relname DESC OFFSET 2 LIMIT 1});
$coord->safe_psql('postgres', "DROP TABLE public.$gap");
$coord->safe_psql('postgres', q{SELECT partmgr.partition_gap_fill('public.events')});
like(children_of('public.events'), qr/$gap:h:true:app/, 'partition_gap_fill made the missing child again, distributed');

# health and plan_maintenance
is( $coord->safe_psql('postgres', q{
		SELECT default_rows || ' ' || expired_children FROM partmgr.health
		 WHERE parent_table = 'public.events'}),
	'0 0', 'health reads the rows of the shards (no row in the default, nothing expired)');
$coord->safe_psql('postgres', q{
	INSERT INTO public.events VALUES (3, '2025-06-01', 'far too old')});
is( $coord->safe_psql('postgres', q{
		SELECT default_rows > 0 FROM partmgr.health WHERE parent_table = 'public.events'}),
	't', 'health sees a row in the default partition, which is on the workers');
like( $coord->safe_psql('postgres', q{
		SELECT string_agg(action, ',') FROM partmgr.plan_maintenance('public.events')}),
	qr/^(create partition,?)*$/, 'plan_maintenance answers for a distributed set');

# ----------------------------------------------------------------------
# undo, and what Citus cannot do
# ----------------------------------------------------------------------
$coord->safe_psql('postgres', q{
	SET ROLE app;
	CREATE TABLE public.items (tenant_id int NOT NULL, id bigint NOT NULL) PARTITION BY RANGE (id);
	SELECT create_distributed_table('public.items', 'tenant_id', shard_count => 2);
	SELECT partmgr.create_parent('public.items', 'id', '100', p_premake => 2,
								 p_start_partition => '0');
	INSERT INTO public.items SELECT g % 5, g FROM generate_series(1, 250) g;
	CREATE TABLE public.items_flat (tenant_id int NOT NULL, id bigint NOT NULL);
});
is( $coord->safe_psql('postgres', q{
		SELECT partmgr.undo_partition('public.items', p_target_table => 'public.items_flat',
									  p_loop_count => 10)}),
	'(4,250)', 'undo_partition moved every row out of the four distributed children');
is($coord->safe_psql('postgres', 'SELECT count(*) FROM public.items_flat'), '250',
	'into the target table');

for my $refused (
	[ q{SELECT partmgr.create_sub_parent('public.events', 'ts', '1 hour', p_declarative_check => 'yes')},
		'create_sub_parent' ],
	[ q{SELECT partmgr.create_global_unique('public.events', ARRAY['payload'])},
		'create_global_unique' ],
	[ qq{CALL partmgr.split_partition('public.$gap', '2 hours')}, 'reshaping a child' ])
{
	my ($sql, $what) = @$refused;
	my $catalog_sql = q{
		SELECT (SELECT count(*) FROM partmgr.part_config_sub) || '/'
			|| (SELECT count(*) FROM pg_class) || '/'
			|| (SELECT count(*) FROM pg_dist_partition)};
	my $catalog = $coord->safe_psql('postgres', $catalog_sql);
	($ret, $out, $err) = $coord->psql('postgres', "\\set VERBOSITY verbose\n$sql");
	like($err, qr/ERROR:  0A000: \Q$what\E does not work on partition set "public\.events": its parent is a Citus table/,
		"$what is refused with 0A000 and names the set");
	is($coord->safe_psql('postgres', $catalog_sql), $catalog,
		'and leaves the catalog as it was');
}

# ----------------------------------------------------------------------
# A plain role with the documented grants, not the owner: it can make
# pg_partmgr do nothing to the distributed set, on any node
# ----------------------------------------------------------------------
$coord->safe_psql('postgres', q{
	CREATE ROLE mallory LOGIN;
	GRANT USAGE ON SCHEMA partmgr TO mallory;
	GRANT SELECT, INSERT, UPDATE, DELETE ON partmgr.part_config, partmgr.part_config_sub,
		  partmgr.part_config_interval, partmgr.maintenance_log TO mallory;
	GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA partmgr TO mallory;
});
my $shape = q{SELECT (SELECT count(*) FROM pg_inherits WHERE inhparent = 'public.events'::regclass)
	|| '/' || (SELECT count(*) FROM public.events) || '/' || (SELECT count(*) FROM pg_dist_partition)
	|| '/' || (SELECT premake || ' ' || coalesce(retention, '-') FROM partmgr.part_config
				WHERE parent_table = 'public.events')};
my $shape_before = $coord->safe_psql('postgres', $shape);
for my $attack (
	[ q{SELECT partmgr.run_maintenance('public.events')}, qr/ERROR:  42501/ ],
	[ q{SELECT partmgr.partition_data_time('public.events')}, qr/ERROR:  42501/ ],
	[ q{SELECT partmgr.undo_partition('public.events', p_target_table => 'public.items_flat')},
		qr/ERROR:  42501/ ],
	[ q{UPDATE partmgr.part_config SET retention = '1 day', retention_keep_table = false
		 WHERE parent_table = 'public.events'}, qr/UPDATE 0|ERROR:  42501/ ])
{
	my ($sql, $expect) = @$attack;
	($ret, $out, $err) = $coord->psql('postgres',
		"\\set VERBOSITY verbose\nSET ROLE mallory;\n$sql", extra_params => ['-e']);
	like("$out\n$err", $expect, "mallory is refused: $sql");
}
is($coord->safe_psql('postgres', $shape), $shape_before,
	"and the set, its rows, Citus's tables and the configuration are as they were");
is( catalog_psql($w1, q{
		SELECT count(*) FROM pg_class
		 WHERE relname LIKE 'events_p%' AND relkind IN ('r', 'p') AND pg_get_userbyid(relowner) <> 'app'}),
	'0', "the shards pg_partmgr had Citus make on a worker belong to the set's owner");

# ----------------------------------------------------------------------
# Worker nodes: maintenance does nothing there, and says why
# ----------------------------------------------------------------------
my $offset = -s $w1->logfile;
$w1->safe_psql('postgres', 'SELECT partmgr.run_maintenance()');
ok( $w1->wait_for_log(
		qr/pg_partmgr: database "postgres" is a Citus worker node: maintenance runs on the coordinator, not here/,
		$offset),
	'run_maintenance() on a worker node does nothing and says why');
$offset = -s $w2->logfile;
reload_launcher($w2,
	qq{pg_partmgr.databases = 'postgres'\npg_partmgr.interval = 1\nlog_min_messages = debug1\n}, 1);
ok( $w2->wait_for_log(qr/LOG:  pg_partmgr: database "postgres" is a Citus worker node/, $offset),
	"the background worker on a worker node says so too");
ok( $w2->wait_for_log(qr/DEBUG:  pg_partmgr: database "postgres" is a Citus worker node/, $offset),
	'its next pass says it again only as a debug line');
my @said = slurp_file($w2->logfile, $offset) =~ /LOG:  pg_partmgr: database "postgres" is a Citus worker node/g;
is(scalar(@said), 1, 'so the log says it once');
is($w2->safe_psql('postgres', 'SELECT count(*) FROM partmgr.maintenance_log'), '0',
	'and does nothing there');

# ----------------------------------------------------------------------
# The background worker on the coordinator: transactions of its own, no
# transaction block around its statements; it detaches without
# CONCURRENTLY, and its lock waits on the workers are bounded too.
# ----------------------------------------------------------------------
$coord->safe_psql('postgres', q{
	UPDATE partmgr.part_config SET automatic_maintenance = 'on', retention = '5 days',
		   retention_keep_table = true
	 WHERE parent_table = 'public.events'});
my $expiring = $coord->safe_psql('postgres', q{
	SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	 WHERE i.inhparent = 'public.events'::regclass AND c.relname NOT LIKE '%default'
	 ORDER BY c.relname LIMIT 1});
my $child_shard = shard_on("public.$expiring", $w1);
my $parent_shard = $w1->safe_psql('postgres', qq{
	SELECT inhparent::regclass FROM pg_inherits WHERE inhrelid = 'public.$child_shard'::regclass});
$reader = $w1->background_psql('postgres');
$reader->query_safe('BEGIN');
$reader->query_safe("SELECT count(*) FROM $parent_shard");
$offset = -s $coord->logfile;
reload_launcher($coord, qq{pg_partmgr.databases = 'postgres'\npg_partmgr.interval = 1\npg_partmgr.lock_timeout = 300\n}, 1);
ok( $coord->poll_query_until('postgres', qq{
		SELECT count(*) > 0 FROM partmgr.maintenance_log
		 WHERE run_by = 'worker' AND object = 'public.$expiring' AND sqlstate = '55P03'}),
	"the worker's detach gave up on the worker's lock and was recorded");
is($reader->query_safe('SELECT 1'), '1', 'while the reader of the shard went on');
$reader->query_safe('COMMIT');
ok( $coord->poll_query_until('postgres', qq{
		SELECT count(*) > 0 FROM partmgr.maintenance_log
		 WHERE run_by = 'worker' AND object = 'public.$expiring' AND outcome = 'done'
		   AND array_to_string(statements, ';') LIKE '%DETACH PARTITION%'
		   AND array_to_string(statements, ';') NOT LIKE '%CONCURRENTLY%'}),
	'once it was gone, the worker detached the child with a plain DETACH');
is( $coord->safe_psql('postgres', qq{
		SELECT count(*) FROM pg_inherits WHERE inhrelid = 'public.$expiring'::regclass}),
	'0', 'the child is detached');

$reader->quit;
$_->stop for @nodes;
done_testing();
