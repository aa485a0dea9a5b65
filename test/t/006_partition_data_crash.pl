#
# Moving rows survives a crash and a cancel: the server is killed (kill -9 of
# the backend, so the whole cluster restarts and recovers) while
# partition_data_proc moves half a million rows out of the default
# partition, and undo_partition_proc is cancelled in the middle of its run.
# Afterwards every row is still there exactly once -- same count, same
# checksum -- no half-made child or temporary constraint is left, and running
# the procedure again finishes the job.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('crash');
$node->init;
$node->append_conf('postgresql.conf', q{
timezone = 'UTC'
restart_after_crash = on
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_partmgr;
	CREATE TABLE public.big (id bigint NOT NULL, v text) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.big', 'id', '20000', p_premake => 1,
								 p_start_partition => '0');
	-- 460,000 of them land in the default partition: 23 batches to move
	INSERT INTO public.big SELECT g, md5(g::text) FROM generate_series(1, 500000) g;
	CREATE TABLE public.big_undone (id bigint NOT NULL, v text);
});

# every row of the parent and the undo target, once each, with its values
my $fingerprint = q{
	SELECT count(*) || ' rows, ' || count(DISTINCT id) || ' ids, '
		   || md5(string_agg(id || ':' || v, ',' ORDER BY id))
	  FROM (SELECT id, v FROM public.big UNION ALL SELECT id, v FROM public.big_undone) AS rows};
# rows in a child that is not the one named for their key (the default aside)
my $misplaced = q{
	SELECT count(*) FROM public.big
	 WHERE tableoid <> 'public.big_default'::regclass
	   AND tableoid::regclass::text <> 'big_p' || (id / 20000 * 20000)};
# what a batch leaves behind when it dies halfway
my $leftovers = q{
	SELECT (SELECT count(*) FROM pg_class c
			 WHERE c.relname ~ '^big_p[0-9]+$' AND c.relkind = 'r' AND NOT c.relispartition)
		   || '/' || (SELECT count(*) FROM pg_constraint WHERE conname = 'partmgr_bound_check')};

my $before = $node->safe_psql('postgres', $fingerprint);
like($before, qr/^500000 rows, 500000 ids, /, 'half a million rows to move');

sub batches_done
{
	my ($run_by, $action) = @_;
	return qq{SELECT count(*) >= 3 FROM partmgr.maintenance_log
			   WHERE parent_table = 'public.big' AND run_by = '$run_by'
				 AND action = '$action' AND outcome = 'done'};
}

sub backend_of
{
	my ($call) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT pid FROM pg_stat_activity
		 WHERE state = 'active' AND query LIKE '$call%'});
}

# partition_data_proc, killed after a few batches have committed
my $mover = $node->background_psql('postgres', on_error_stop => 0);
$mover->query_until(qr/started/,
	"\\echo started\nCALL partmgr.partition_data_proc('public.big', p_wait => 0, p_quiet => true);\n");
ok($node->poll_query_until('postgres', batches_done('partition_data_proc', 'create partition')),
	'partition_data_proc has committed some batches');
my $pid = backend_of('CALL partmgr.partition_data_proc');
ok($pid =~ /^\d+$/, 'and is still running');
kill 'KILL', $pid;
eval { $mover->quit; };
ok($node->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()'),
	'the server restarted after the crash');
ok($node->log_contains('terminated by signal 9'), 'the backend was killed mid-run');

is($node->safe_psql('postgres', $fingerprint), $before,
	'after the crash: every row is there once, with its values');
is($node->safe_psql('postgres', $leftovers), '0/0',
	'no half-made child and no partmgr_bound_check are left');
is($node->safe_psql('postgres', $misplaced), '0', 'every moved row is in its own child');
my $left = $node->safe_psql('postgres', 'SELECT count(*) FROM ONLY public.big_default');
ok($left > 0 && $left < 460000, "the default partition still holds the rest ($left rows)");

$node->safe_psql('postgres',
	"CALL partmgr.partition_data_proc('public.big', p_wait => 0, p_quiet => true)");
is($node->safe_psql('postgres', 'SELECT count(*) FROM ONLY public.big_default'), '0',
	'run again, partition_data_proc empties the default partition');
is($node->safe_psql('postgres', q{
		SELECT count(*) FROM partmgr.show_partitions('public.big')}),
	'26', 'one child per 20000 ids, 0 to 500000');
is($node->safe_psql('postgres', $misplaced), '0', 'every row is in its own child');
is($node->safe_psql('postgres', $fingerprint), $before, 'and none was lost or doubled');

# undo_partition_proc, cancelled after a few batches; it pauses a second
# between batches, so that it cannot finish before the cancel arrives (the
# cancel interrupts a pause as it does a batch)
my $undo = $node->background_psql('postgres', on_error_stop => 0);
$undo->query_until(qr/started/,
	"\\echo started\nCALL partmgr.undo_partition_proc('public.big', p_target_table => 'public.big_undone', p_wait => 1, p_quiet => true);\n");
ok($node->poll_query_until('postgres', batches_done('undo_partition_proc', 'move rows')),
	'undo_partition_proc has committed some batches');
$pid = backend_of('CALL partmgr.undo_partition_proc');
ok($pid =~ /^\d+$/, 'and is still running');
$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)");
ok($node->poll_query_until('postgres',
		"SELECT count(*) = 0 FROM pg_stat_activity WHERE query LIKE 'CALL partmgr.undo_partition_proc%' AND state = 'active'"),
	'the cancel stops it');
eval { $undo->quit; };
is($node->safe_psql('postgres', $fingerprint), $before,
	'after the cancel: every row is in the set or the target, once');
is($node->safe_psql('postgres', 'SELECT count(*) > 0 FROM public.big'), 't',
	'the set still holds rows');

$node->safe_psql('postgres',
	"CALL partmgr.undo_partition_proc('public.big', p_target_table => 'public.big_undone', p_wait => 0, p_quiet => true)");
is($node->safe_psql('postgres', q{
		SELECT (SELECT count(*) FROM public.big) || '/'
			   || (SELECT count(*) FROM partmgr.part_config WHERE parent_table = 'public.big')}),
	'0/0', 'run again, undo empties the set and forgets it');
is($node->safe_psql('postgres', $fingerprint), $before, 'every row is in the target, once');

$node->stop;
done_testing();
