#
# Retention by the background worker: DETACH ... CONCURRENTLY where
# PostgreSQL allows it (no default partition), a concurrent detach that is
# interrupted and finished by the next run, the plain path for a set with a
# default partition, and a child kept because a foreign key still references
# its rows.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('retention');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.interval = 1
pg_partmgr.lock_timeout = '500ms'
timezone = 'UTC'
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_partmgr;
	-- no default partition: the worker detaches concurrently
	CREATE TABLE public.conc (id bigint NOT NULL, v text) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.conc', 'id', '10', p_premake => 1,
								 p_default_table => false, p_automatic_maintenance => 'off');
	SELECT partmgr.create_partition_id('public.conc', ARRAY[20, 30, 40]::bigint[]);
	INSERT INTO public.conc VALUES (1, 'old'), (11, 'old'), (21, 'kept'), (45, 'new');
});

# a long reader that has used the parent: the concurrent detach must wait for
# it, gives up after pg_partmgr.lock_timeout and leaves the child pending
my $reader = $node->background_psql('postgres');
$reader->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
$reader->query_safe('SELECT count(*) FROM public.conc');

$node->safe_psql('postgres', q{
	UPDATE partmgr.part_config SET retention = '20', retention_keep_table = false,
		   automatic_maintenance = 'on' WHERE parent_table = 'public.conc';
});
ok( $node->poll_query_until('postgres', q{
		SELECT count(*) > 0 FROM pg_inherits
		 WHERE inhparent = 'public.conc'::regclass AND inhdetachpending}),
	'the interrupted concurrent detach leaves a child pending');
ok( $node->poll_query_until('postgres', q{
		SELECT count(*) > 0 FROM partmgr.maintenance_log
		 WHERE parent_table = 'public.conc' AND outcome = 'skipped'
		   AND sqlstate = '55P03' AND run_by = 'worker'}),
	'the interruption is in the log as skipped, lock not available');
is( $node->safe_psql('postgres', q{
		SELECT string_agg(partition_tablename, ',')
		  FROM partmgr.show_partitions('public.conc')}),
	'conc_p10,conc_p20,conc_p30,conc_p40,conc_p50',
	'a child pending detach is no longer listed (premake went on: conc_p50)');
my ($ret, $out) = $node->psql('postgres',
	"SET statement_timeout = '1s'; INSERT INTO public.conc VALUES (46, 'app'); SELECT count(*) FROM public.conc");
is($ret, 0, 'inserts and new readers are not held up meanwhile');

# the reader ends: the next runs finish the pending detach and retire the rest
$reader->query_safe('COMMIT');
$reader->quit;
ok( $node->poll_query_until('postgres', q{
		SELECT string_agg(partition_tablename, ',')
		  FROM partmgr.show_partitions('public.conc')}, 'conc_p20,conc_p30,conc_p40,conc_p50'),
	'the next runs finish the pending detach and retire conc_p10');
is( $node->safe_psql('postgres', q{
		SELECT count(*) FROM pg_class WHERE relname IN ('conc_p0', 'conc_p10')}),
	'0', 'with retention_keep_table = false both retired children are dropped');
is( $node->safe_psql('postgres', q{
		SELECT string_agg(action || ':' || outcome, ',' ORDER BY log_id)
		  FROM partmgr.maintenance_log
		 WHERE parent_table = 'public.conc' AND outcome = 'done'
		   AND action NOT LIKE 'create%'}),
	'finish detaching partition:done,drop partition:done',
	'the log shows the finished detach and the concurrent drop');
ok($node->log_contains('detached and dropped partition public.conc_p10 .* \(concurrently\)'),
	'the server log says the detach was concurrent');

# a set with a default partition: the plain, bounded path
$node->safe_psql('postgres', q{
	CREATE TABLE public.plain (id bigint NOT NULL) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.plain', 'id', '10', p_premake => 1);
	SELECT partmgr.create_partition_id('public.plain', ARRAY[20, 30]::bigint[]);
	INSERT INTO public.plain VALUES (1), (35);
	UPDATE partmgr.part_config SET retention = '15' WHERE parent_table = 'public.plain';
});
ok( $node->poll_query_until('postgres', q{
		SELECT relispartition = false FROM pg_class WHERE relname = 'plain_p10'}),
	'with a default partition the worker detaches with a plain DETACH');
is($node->safe_psql('postgres', "SELECT count(*) FROM public.plain_p0"), '1',
	'a detached child keeps its rows (retention_keep_table defaults to true)');

# foreign keys: a referenced child is kept, the constraint keeps working
$node->safe_psql('postgres', q{
	CREATE TABLE public.orders (id bigint PRIMARY KEY) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.orders', 'id', '10', p_premake => 1,
								 p_automatic_maintenance => 'off');
	SELECT partmgr.create_partition_id('public.orders', ARRAY[20, 30]::bigint[]);
	INSERT INTO public.orders VALUES (1), (11), (35);
	CREATE TABLE public.order_lines (order_id bigint REFERENCES public.orders (id));
	INSERT INTO public.order_lines VALUES (11);
	UPDATE partmgr.part_config SET retention = '10', retention_keep_table = false,
		   automatic_maintenance = 'on' WHERE parent_table = 'public.orders';
});
ok( $node->poll_query_until('postgres', q{
		SELECT count(*) > 0 FROM partmgr.maintenance_log
		 WHERE parent_table = 'public.orders' AND outcome = 'skipped'
		   AND sqlstate = '23503' AND object = 'public.orders_p10'}),
	'a child whose rows are still referenced is kept, and the log says why');
is( $node->safe_psql('postgres', q{
		SELECT string_agg(partition_tablename, ',')
		  FROM partmgr.show_partitions('public.orders')}),
	'orders_p10,orders_p20,orders_p30,orders_p40',
	'the unreferenced expired child is dropped, the referenced one stays');
($ret, $out, my $err) = $node->psql('postgres', 'INSERT INTO public.order_lines VALUES (999)');
like($err, qr/violates foreign key constraint/, 'the foreign key still rejects bad rows');
is( $node->safe_psql('postgres', q{
		SELECT count(*) FROM pg_constraint WHERE conrelid = 'public.order_lines'::regclass
		   AND contype = 'f' AND conparentid = 0 AND convalidated}),
	'1', 'and is still there, validated');

$node->stop;
done_testing();
