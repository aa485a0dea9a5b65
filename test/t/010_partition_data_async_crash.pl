#
# partition_data_async survives a crash: the backend is killed (the cluster
# restarts and recovers) while it fills a child batch by batch.  Every row
# is then in the default partition or in the unattached child the progress
# names, once; the next call goes on with that child, attaches it and the
# others, and every row is visible through the parent again, once.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('async');
$node->init;
$node->append_conf('postgresql.conf', q{
timezone = 'UTC'
restart_after_crash = on
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_partmgr;
	CREATE TABLE public.big (id bigint NOT NULL, v text) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.big', 'id', '100000', p_premake => 1,
								 p_start_partition => '1000000', p_template_table => 'false');
	-- 300,000 rows in the default partition: three children, 60 batches of 5000
	INSERT INTO public.big SELECT g, md5(g::text) FROM generate_series(0, 299999) g;
	-- every row of the set and of unattached tables named like its children
	CREATE FUNCTION public.all_rows() RETURNS TABLE (id bigint, v text)
	LANGUAGE plpgsql AS $$
	DECLARE
		t regclass;
	BEGIN
		RETURN QUERY SELECT b.id, b.v FROM public.big b;
		FOR t IN SELECT c.oid FROM pg_class c
				  WHERE c.relname ~ '^big_p[0-9]+$' AND c.relkind = 'r' AND NOT c.relispartition
		LOOP
			RETURN QUERY EXECUTE format('SELECT id, v FROM %s', t);
		END LOOP;
	END $$;
});

my $fingerprint = q{
	SELECT count(*) || ' rows, ' || count(DISTINCT id) || ' ids, '
		   || md5(string_agg(id || ':' || v, ',' ORDER BY id))
	  FROM public.all_rows()};
my $before = $node->safe_psql('postgres', $fingerprint);
like($before, qr/^300000 rows, 300000 ids, /, '300,000 rows to move');

my $mover = $node->background_psql('postgres', on_error_stop => 0);
$mover->query_until(qr/started/,
	"\\echo started\nCALL partmgr.partition_data_async('public.big', p_interval => '5000', p_wait => 0, p_quiet => true);\n");
ok( $node->poll_query_until('postgres', q{
		SELECT count(*) >= 3 FROM partmgr.maintenance_log
		 WHERE parent_table = 'public.big' AND run_by = 'partition_data_async'
		   AND action = 'move rows' AND outcome = 'done'}),
	'partition_data_async has committed some batches');
my $pid = $node->safe_psql('postgres', q{
	SELECT pid FROM pg_stat_activity
	 WHERE state = 'active' AND query LIKE 'CALL partmgr.partition_data_async%'});
ok($pid =~ /^\d+$/, 'and is still running');
kill 'KILL', $pid;
eval { $mover->quit; };
ok($node->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()'),
	'the server restarted after the crash');

my $progress = $node->safe_psql('postgres', q{
	SELECT async_partitioning_in_progress FROM partmgr.part_config
	 WHERE parent_table = 'public.big'});
is($progress, '0', 'the progress names the child being filled');
is($node->safe_psql('postgres', q{
		SELECT relispartition FROM pg_class WHERE oid = 'public.big_p0'::regclass}),
	'f', 'which is there, unattached');
is($node->safe_psql('postgres', $fingerprint), $before,
	'after the crash: every row is in the default partition or that child, once');
my $visible = $node->safe_psql('postgres', 'SELECT count(*) FROM public.big');
ok($visible > 200000 && $visible < 300000,
	"rows in the unattached child are out of sight ($visible visible)");

$node->safe_psql('postgres',
	"CALL partmgr.partition_data_async('public.big', p_interval => '5000', p_wait => 0, p_quiet => true)");
is($node->safe_psql('postgres', q{
		SELECT coalesce(async_partitioning_in_progress, 'none') FROM partmgr.part_config
		 WHERE parent_table = 'public.big'}),
	'none', 'run again, it finishes: no child in progress');
is($node->safe_psql('postgres', 'SELECT count(*) FROM ONLY public.big_default'), '0',
	'the default partition is empty');
is($node->safe_psql('postgres', q{
		SELECT string_agg(partition_tablename, ',') FROM partmgr.show_partitions('public.big')}),
	'big_p0,big_p100000,big_p200000,big_p1000000,big_p1100000', 'each child attached');
is($node->safe_psql('postgres', q{
		SELECT count(*) FROM pg_constraint WHERE conname = 'partmgr_bound_check'}),
	'0', 'no bound CHECK is left');
is($node->safe_psql('postgres', 'SELECT count(*) FROM public.big'), '300000',
	'every row is visible again');
is($node->safe_psql('postgres', $fingerprint), $before, 'and none was lost or doubled');

$node->stop;
done_testing();
