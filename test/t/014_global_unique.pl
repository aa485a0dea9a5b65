#
# Global unique constraints across a crash, a dump and the procedures that
# commit as they go:
#
# - a backend killed while create_global_unique fills the side table of a
#   large set leaves nothing behind (no side table, no trigger, no TRUNCATE
#   trigger on any leaf; amcheck finds the set's indexes sound), and the
#   call made again succeeds;
# - pg_dump / pg_restore into a database without the extension brings the
#   constraint back whole: the side table with every entry, the row trigger
#   on the parent (cloned to every child), the TRUNCATE triggers, and it is
#   enforced in the copy, across children, with the child named;
# - partition_data_proc, partition_data_async and undo_partition_proc,
#   which commit after each batch, keep one entry per row, naming its
#   child.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('global_unique');
$node->init;
$node->append_conf('postgresql.conf', q{
timezone = 'UTC'
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.enabled = off
restart_after_crash = on
});
$node->start;

# == a crash while the constraint is being made ==
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_partmgr;
	CREATE EXTENSION amcheck;
	CREATE TABLE public.big (id bigint PRIMARY KEY, k bigint, v text) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.big', 'id', '100000', p_premake => 30);
	INSERT INTO public.big SELECT g, g, 'x' FROM generate_series(1, 3000000) g;
});

my $maker = $node->background_psql('postgres', on_error_stop => 0);
$maker->query_until(qr/started/,
	"\\echo started\nSELECT partmgr.create_global_unique('public.big', ARRAY['k'], 'big_k');\n");
# the side table exists (uncommitted) once the fill has begun: its
# relation file grows while the INSERT ... SELECT runs
ok($node->poll_query_until('postgres', q{
		SELECT count(*) > 0 FROM pg_locks l JOIN pg_stat_activity a USING (pid)
		 WHERE a.query LIKE 'SELECT partmgr.create_global_unique%'
		   AND l.locktype = 'relation' AND l.mode = 'ShareRowExclusiveLock'}),
	'create_global_unique holds the set and is filling the side table');
my $pid = $node->safe_psql('postgres', q{
	SELECT pid FROM pg_stat_activity WHERE query LIKE 'SELECT partmgr.create_global_unique%'
	   AND state = 'active'});
ok($pid =~ /^\d+$/, 'and is still running');
kill 'KILL', $pid;
eval { $maker->quit; };
ok($node->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()'),
	'the server restarted after the crash');
ok($node->log_contains('terminated by signal 9'), 'the backend was killed mid-call');

is($node->safe_psql('postgres', "SELECT to_regclass('public.big_k') IS NULL"), 't',
	'after the crash: no side table');
is($node->safe_psql('postgres', q{
		SELECT count(*) FROM pg_trigger t JOIN pg_partition_tree('public.big') p ON p.relid = t.tgrelid
		 WHERE t.tgname LIKE 'big_k%'}), '0',
	'no trigger on the parent or any child');
is($node->safe_psql('postgres', 'SELECT count(*) FROM partmgr.global_unique_constraints'), '0',
	'no constraint listed');
# bt_index_check raises on a corrupt index; every leaf's primary key is checked
is($node->safe_psql('postgres', q{
		SELECT count(*) FROM (SELECT bt_index_check(i.indexrelid, true)
								FROM pg_partition_tree('public.big') p
								JOIN pg_index i ON i.indrelid = p.relid
							   WHERE p.isleaf) c}), '32',
	'amcheck finds the primary key of every leaf sound, with every row in it');
is($node->safe_psql('postgres', q{SELECT count(*) FROM public.big}), '3000000', 'every row is there');

$node->safe_psql('postgres',
	"SELECT partmgr.create_global_unique('public.big', ARRAY['k'], 'big_k')");
is($node->safe_psql('postgres', 'SELECT count(*) FROM public.big_k'), '3000000',
	'made again, the constraint has an entry per row');
my ($rc, $out, $err) = $node->psql('postgres',
	"INSERT INTO public.big VALUES (3000001, 17, 'dup')");
like($err, qr/duplicate key value violates global unique constraint "big_k".*\n.*Key \(k\)=\(17\) already exists in partition public\.big_p0\./,
	'and is enforced');
$node->safe_psql('postgres', q{
	ALTER TABLE public.big DETACH PARTITION public.big_p100000;
	ALTER TABLE public.big DETACH PARTITION public.big_p200000;
});
is($node->safe_psql('postgres', 'SELECT waiting_cleanup FROM partmgr.global_unique_constraints'),
	'200000', 'two detached children: their 200000 entries wait for cleanup');
is($node->safe_psql('postgres', "SELECT partmgr.global_unique_cleanup('public.big')"), '200000',
	'global_unique_cleanup removes them all, more than one plan\'s worth (100000)');
is($node->safe_psql('postgres', 'SELECT waiting_cleanup FROM partmgr.global_unique_constraints'),
	'0', 'none wait then');
$node->safe_psql('postgres', 'DROP TABLE public.big; DROP TABLE public.big_k');

# == pg_dump / pg_restore ==
$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('src', q{
	CREATE EXTENSION pg_partmgr;
	CREATE TABLE public.orders (id bigint NOT NULL, order_no text, region int)
		PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.orders', 'id', '100', p_premake => 3);
	INSERT INTO public.orders SELECT g, 'o' || g, g % 3 FROM generate_series(1, 350) g;
	SELECT partmgr.create_global_unique('public.orders', ARRAY['order_no']);
	SELECT partmgr.create_global_unique('public.orders', ARRAY['region', 'id'], 'orders_rid');
});
my $entries = q{SELECT string_agg(order_no || '@' || child::text, ',' ORDER BY order_no)
				  FROM public.orders_order_no_gkey};
my $triggers = q{SELECT string_agg(c.relname || ':' || t.tgname || ':' || t.tgenabled::text, ','
								   ORDER BY c.relname, t.tgname)
				   FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
				  WHERE t.tgname LIKE 'orders_%' AND NOT t.tgisinternal};
my %before = (
	entries => $node->safe_psql('src', $entries),
	triggers => $node->safe_psql('src', $triggers),
	view => $node->safe_psql('src', q{
		SELECT string_agg(constraint_name || ':' || parent_table || ':' || columns::text || ':'
						  || side_table || ':' || state, ',' ORDER BY constraint_name)
		  FROM partmgr.global_unique_constraints}));

my $dump = "$PostgreSQL::Test::Utils::tmp_check/gu.dump";
$node->command_ok(['pg_dump', '-Fc', '-h', $node->host, '-p', $node->port, '-f', $dump, 'src'],
	'pg_dump -Fc src');
$node->command_ok(['createdb', '-h', $node->host, '-p', $node->port, 'dst'], 'createdb dst');
$node->command_checks_all(
	['pg_restore', '--exit-on-error', '-h', $node->host, '-p', $node->port, '-d', 'dst', $dump],
	0, [qr/^$/], [qr/^$/],
	'pg_restore into dst succeeds without a message');

is($node->safe_psql('dst', $entries), $before{entries},
	'the side table comes back with every entry, each naming its child');
is($node->safe_psql('dst', $triggers), $before{triggers},
	'the row trigger is on the parent and every child, the TRUNCATE trigger on every leaf');
is($node->safe_psql('dst', q{
		SELECT string_agg(constraint_name || ':' || parent_table || ':' || columns::text || ':'
						  || side_table || ':' || state, ',' ORDER BY constraint_name)
		  FROM partmgr.global_unique_constraints}), $before{view},
	'global_unique_constraints lists both constraints the same');
($rc, $out, $err) = $node->psql('dst', "INSERT INTO public.orders VALUES (351, 'o5', 0)");
like($err, qr/duplicate key value violates global unique constraint "orders_order_no_gkey".*\n.*Key \(order_no\)=\(o5\) already exists in partition public\.orders_p0\./,
	'the copy enforces it across children');
$node->safe_psql('dst', "INSERT INTO public.orders VALUES (352, 'new', 1)");
is($node->safe_psql('dst', q{SELECT child FROM public.orders_order_no_gkey WHERE order_no = 'new'}),
	'orders_p300', 'and keeps it: a new row gets its entry');
$node->safe_psql('dst', 'TRUNCATE public.orders_p100');
is($node->safe_psql('dst', q{SELECT count(*) FROM public.orders_order_no_gkey
							  WHERE child = 'public.orders_p100'::regclass}), '0',
	'the restored TRUNCATE trigger removes a child\'s entries');
$node->safe_psql('dst', 'SELECT partmgr.run_maintenance()');
is($node->safe_psql('dst', q{
		SELECT count(*) FROM pg_partition_tree('public.orders') p
		 WHERE p.isleaf AND NOT EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = p.relid
										 AND t.tgname = 'orders_order_no_gkey_truncate')}), '0',
	'children the copy\'s maintenance makes get the TRUNCATE trigger (the event trigger came back with the extension)');

# == procedures that commit after each batch ==
$node->safe_psql('postgres', q{
	CREATE TABLE public.moved (id bigint NOT NULL, k text) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.moved', 'id', '1000', p_premake => 1);
	SELECT partmgr.create_global_unique('public.moved', ARRAY['k']);
	INSERT INTO public.moved SELECT g, 'k' || g FROM generate_series(5000, 8999) g;
});
my $consistent = q{
	SELECT (SELECT count(*) FROM public.moved) || '/' ||
		   (SELECT count(*) FROM public.moved_k_gkey) || '/' ||
		   (SELECT count(*) FROM public.moved m JOIN public.moved_k_gkey g
			   ON g.k = m.k AND g.child = m.tableoid)};
is($node->safe_psql('postgres', $consistent), '4000/4000/4000',
	'rows in the default partition have their entries');
$node->safe_psql('postgres',
	"CALL partmgr.partition_data_proc('public.moved', p_loop_count => 2, p_wait => 0, p_quiet => true)");
is($node->safe_psql('postgres', $consistent), '4000/4000/4000',
	'partition_data_proc, two children: one entry per row, naming its child');
$node->safe_psql('postgres',
	"CALL partmgr.partition_data_async('public.moved', p_interval => '250', p_wait => 0)");
is($node->safe_psql('postgres', $consistent), '4000/4000/4000',
	'partition_data_async: the same');
is($node->safe_psql('postgres', 'SELECT count(*) FROM ONLY public.moved_default'), '0',
	'and the default partition is empty');
$node->safe_psql('postgres', q{
	CREATE TABLE public.moved_out (id bigint NOT NULL, k text);
	CALL partmgr.undo_partition_proc('public.moved', p_target_table => 'public.moved_out',
									 p_wait => 0, p_quiet => true);
});
is($node->safe_psql('postgres', $consistent), '0/0/0',
	'undo_partition_proc moves every row out and their entries go');
is($node->safe_psql('postgres', 'SELECT count(*) FROM public.moved_out'), '4000',
	'the rows are in the target table');

$node->stop;
done_testing();
