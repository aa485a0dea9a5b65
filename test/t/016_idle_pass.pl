#
# An idle pass reads the catalogs of all its sets at once (prefetch.c), looks
# into premade children for the look only, takes a set's advisory lock only
# to act, and never waits for a part_config row.  Each shortcut must keep the
# answers exact: what changes in the catalogs while a run goes on -- a child
# rewritten, a child detached and attached again with other bounds, a parent
# renamed, a set's configuration changed, an earlier interval added, a
# partition key column renamed, a partition attached -- is seen by the sets
# the run maintains after the change.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('idle_pass');
$node->init;
$node->append_conf('postgresql.conf', q{
pg_partmgr.lock_timeout = '300ms'
timezone = 'UTC'
# sets d and g are broken on purpose: the runs report them by WARNING only
pg_partmgr.on_set_failure = warning
});
$node->start;

# id sets of interval 10, premake 2: children [0,10) [10,20) [20,30); a row
# at 5 makes each idle, maintained in the order a, b, c, d, e, f, g, h
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_partmgr;
	DO $$
	DECLARE
		s text;
		i int := 0;
	BEGIN
		FOREACH s IN ARRAY ARRAY['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] LOOP
			i := i + 1;
			EXECUTE format('CREATE TABLE public.%I (id bigint NOT NULL, v text) PARTITION BY RANGE (id)', s);
			PERFORM partmgr.create_parent('public.' || s, 'id', '10', p_premake => 2,
										  p_start_partition => '0');
			UPDATE partmgr.part_config SET maintenance_order = i WHERE parent_table = 'public.' || s;
			EXECUTE format('INSERT INTO public.%I VALUES (5, %L)', s, 'current');
		END LOOP;
	END $$;
	-- b's highest child holds a row: b needs two more children
	INSERT INTO public.b VALUES (25, 'top');
});
my $children = q{
	SELECT string_agg(partition_tablename, ',' ORDER BY partition_tablename COLLATE "C")
	  FROM partmgr.show_partitions('public.%s')};
sub children_of { return $node->safe_psql('postgres', sprintf($children, $_[0])); }

is(children_of('c'), 'c_p0,c_p10,c_p20', 'c starts with three children');

# a run that pauses 5 s after each set; during the pause after a, the
# catalogs of b, c and d change
my $run = $node->background_psql('postgres');
$run->query_until(qr/started/, "\\echo started\nCALL partmgr.run_maintenance_proc(p_wait => 5);\n");
ok( $node->poll_query_until('postgres', q{
		SELECT wait_event_type = 'Extension' FROM pg_stat_activity
		 WHERE query LIKE 'CALL partmgr.run_maintenance_proc%'}),
	'the run pauses after its first set');
$node->safe_psql('postgres', q{
	-- b's highest child (one row) is rewritten: a new file, the old one emptied
	VACUUM FULL public.b_p20;
	-- c's highest child moves to [40,50) and gets a row: c needs [50,60) [60,70)
	ALTER TABLE public.c DETACH PARTITION public.c_p20;
	ALTER TABLE public.c ATTACH PARTITION public.c_p20 FOR VALUES FROM (40) TO (50);
	INSERT INTO public.c VALUES (45, 'moved');
	-- d is renamed: its set's parent is gone
	ALTER TABLE public.d RENAME TO d_renamed;
	-- e's premake is raised to 3: e needs [30,40)
	UPDATE partmgr.part_config SET premake = 3 WHERE parent_table = 'public.e';
	-- f gets an earlier interval (only part_config_interval changes): below
	-- 40 its children are 5 wide, so a row at 25 makes f need [30,35) [35,40)
	INSERT INTO partmgr.part_config_interval (parent_table, interval_end, partition_interval)
	VALUES ('public.f', '40', '5');
	INSERT INTO public.f VALUES (25, 'up');
	-- g's partition key column is renamed: its set names a column gone
	ALTER TABLE public.g RENAME COLUMN id TO gid;
	-- h gets a partition [30,40) holding a row: h needs [40,50) [50,60)
	CREATE TABLE public.h_new (LIKE public.h);
	INSERT INTO public.h_new VALUES (35, 'attached');
	ALTER TABLE public.h ATTACH PARTITION public.h_new FOR VALUES FROM (30) TO (40);
});
is( $node->safe_psql('postgres', q{
		SELECT wait_event_type FROM pg_stat_activity
		 WHERE query LIKE 'CALL partmgr.run_maintenance_proc%'}),
	'Extension', 'the changes were made while the run was still paused after a');
$run->query('SELECT 1');

is(children_of('b'), 'b_p0,b_p10,b_p20,b_p30,b_p40',
	'b: its rewritten highest child was looked into under its new file, and b got two children');
is(children_of('c'), 'c_p0,c_p10,c_p20,c_p50,c_p60',
	'c: the bounds its child has now counted, and c got the two children above them');
is( $node->safe_psql('postgres', q{
		SELECT count(*) FROM partmgr.maintenance_log
		 WHERE parent_table IN ('public.b', 'public.c', 'public.e', 'public.f', 'public.h')
		   AND outcome = 'failed'}),
	'0', 'nothing failed in b, c, e, f or h');
is(children_of('e'), 'e_p0,e_p10,e_p20,e_p30',
	'e: the configuration the run listed was read again after it changed, and e got its third premade child');
is(children_of('h'), 'h_new,h_p0,h_p10,h_p20,h_p40,h_p50',
	'h: the partition attached after the run read pg_inherits counted, and h got the two children above it');
is(children_of('f'), 'f_p0,f_p10,f_p20,f_p30,f_p35',
	'f: the earlier interval added after the run listed f was read, and f got two children 5 wide');
like( $node->safe_psql('postgres', q{
		SELECT error FROM partmgr.maintenance_log
		 WHERE parent_table = 'public.d' AND outcome = 'failed'}),
	qr/parent table "public\.d" of a partition set does not exist/,
	'd: the rename was seen, the set failed as it should');
is( $node->safe_psql('postgres', q{
		SELECT count(*) FROM pg_inherits WHERE inhparent = 'public.d_renamed'::regclass}),
	'4', 'and the renamed table got no child under the old name (3 and the default)');
like( $node->safe_psql('postgres', q{
		SELECT error FROM partmgr.maintenance_log
		 WHERE parent_table = 'public.g' AND outcome = 'failed'}),
	qr/control column "id" of partition set "public\.g" does not exist/,
	'g: the renamed key column was seen, not the name the run read with the catalogs');
$node->safe_psql('postgres',
	"DELETE FROM partmgr.part_config WHERE parent_table IN ('public.d', 'public.g')");

# a long transaction holds b's current child exclusively (CLUSTER, VACUUM
# FULL): an idle set does not need to look into that child, so it is
# maintained, not skipped for a lock
$node->safe_psql('postgres', q{
	INSERT INTO public.b VALUES (45, 'top again');
	CALL partmgr.run_maintenance_proc();
});
my $holder = $node->background_psql('postgres');
$holder->query_safe('BEGIN');
$holder->query_safe('LOCK TABLE public.b_p40 IN ACCESS EXCLUSIVE MODE');
my $before = $node->safe_psql('postgres',
	"SELECT maintenance_last_run FROM partmgr.part_config WHERE parent_table = 'public.b'");
my ($ret, $out, $err) = $node->psql('postgres',
	"SET statement_timeout = '5s'; CALL partmgr.run_maintenance_proc()");
is($ret, 0, 'a run while a current child is locked exclusively finishes');
unlike($err, qr/skipped partition set "public\.b"/, 'without skipping b');
isnt( $node->safe_psql('postgres',
		"SELECT maintenance_last_run FROM partmgr.part_config WHERE parent_table = 'public.b'"),
	$before, 'b was maintained');
$holder->query_safe('ROLLBACK');

# the looks leave no lock behind: after run_maintenance() in an open
# transaction, no child of an idle set is locked
$holder->query_safe('BEGIN');
$holder->query_safe('SELECT partmgr.run_maintenance()');
is( $holder->query_safe(q{
		SELECT count(*) FROM pg_locks l JOIN pg_inherits i ON i.inhrelid = l.relation
		 WHERE l.pid = pg_backend_pid() AND l.locktype = 'relation'
		   AND i.inhparent IN ('public.a'::regclass, 'public.b'::regclass)}),
	'0', 'no child of an idle set stays locked after the run');
is( $holder->query_safe(q{
		SELECT count(*) FROM pg_locks
		 WHERE pid = pg_backend_pid() AND locktype = 'advisory'}),
	'6', 'run_maintenance() holds the advisory lock of each set it maintained (a, b, c, e, f, h)');

# that transaction holds the part_config rows it stamped: a run of another
# session neither waits for them nor skips an idle set it can look at
my $stamp_a = $node->safe_psql('postgres',
	"SELECT maintenance_last_run FROM partmgr.part_config WHERE parent_table = 'public.a'");
($ret, $out, $err) = $node->psql('postgres',
	"SET statement_timeout = '5s'; CALL partmgr.run_maintenance_proc()");
is($ret, 0, 'a second run does not wait for the rows a first one stamped');
unlike($err, qr/skipped partition set "public\.a"/, 'nor skips the idle set a');
is( $node->safe_psql('postgres',
		"SELECT maintenance_last_run FROM partmgr.part_config WHERE parent_table = 'public.a'"),
	$stamp_a, 'a keeps the time of the run whose transaction holds its row');

# but a set with something to do is left to the run that holds its lock
$node->safe_psql('postgres', 'INSERT INTO public.a VALUES (25)');
($ret, $out, $err) = $node->psql('postgres',
	"SET statement_timeout = '5s'; CALL partmgr.run_maintenance_proc()");
like($err, qr/skipped partition set "public\.a": another maintenance run is working on it/,
	'a set that needs children is skipped while another run holds it');
is(children_of('a'), 'a_p0,a_p10,a_p20', 'and gets none from the second run');
$holder->query_safe('COMMIT');
$node->safe_psql('postgres', 'CALL partmgr.run_maintenance_proc()');
is(children_of('a'), 'a_p0,a_p10,a_p20,a_p30,a_p40', 'the next run makes them');

$run->quit;
$holder->quit;
$node->stop;
done_testing();
