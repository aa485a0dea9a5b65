#
# pg_dump / pg_restore keeps a database's partition sets: the rows of
# part_config and part_config_sub (extension configuration tables) travel
# with the dump, restored into a database where the extension was NOT
# installed beforehand (pg_restore creates it). Children, their bounds, the
# derived constraints (still NOT VALID, as the dump found them) and the rows
# come back the same, and the sets keep working: the same inserts and
# maintenance runs in the source and in the copy make the same children,
# retire the same ones (retention), derive and validate the same
# constraints, keep the time zone of a set, its maintenance_order and its
# automatic_maintenance = 'off'.
#
# maintenance_log is not a configuration table: it is not registered with
# pg_extension_config_dump, so pg_dump does not save its rows (the reference
# says so). The restored log is empty, and fills again as the copy is
# maintained; that is what is asserted below.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('dump_restore');
$node->init;
$node->append_conf('postgresql.conf', q{
timezone = 'UTC'
});
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE src');

# Three sets. Time sets start far in the future so that what they make does
# not depend on today's date (create_parent makes only the child holding the
# start).
$node->safe_psql('src', q{
	CREATE EXTENSION pg_partmgr;

	-- daily, bounds at midnight in Berlin, two children ahead
	CREATE TABLE public.daily_berlin (id bigint, ts timestamptz NOT NULL, v text)
		PARTITION BY RANGE (ts);
	SELECT partmgr.create_parent('public.daily_berlin', 'ts', '1 day', p_premake => 2,
								 p_start_partition => '2100-07-01 00:30',
								 p_time_zone => 'Europe/Berlin');
	-- its template (made by create_parent) makes later children unlogged
	ALTER TABLE partmgr.template_public_daily_berlin SET UNLOGGED;
	ALTER TABLE partmgr.template_public_daily_berlin SET (fillfactor = 70);

	-- ids by tens, retention dropping old children, derived constraints on
	-- ref, maintained first (it sorts after daily_berlin by name)
	CREATE TABLE public.ids (id bigint NOT NULL, ref bigint, v text) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.ids', 'id', '10', p_constraint_cols => ARRAY['ref']);
	UPDATE partmgr.part_config
	   SET retention = '35', retention_keep_table = false, maintenance_order = 1,
		   optimize_constraint = 2
	 WHERE parent_table = 'public.ids';

	-- left out of run_maintenance() without arguments
	CREATE TABLE public.manual (id int NOT NULL) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.manual', 'id', '100', p_premake => 1,
								 p_automatic_maintenance => 'off');

	INSERT INTO public.daily_berlin VALUES (1, '2100-07-01 12:00 Europe/Berlin', 'first');
	INSERT INTO public.ids SELECT g, g * 100, 'first' FROM generate_series(1, 45) g;
	INSERT INTO public.manual VALUES (5), (150);
	SELECT partmgr.run_maintenance();
});

# what must survive the dump
my $config = q{
	SELECT string_agg((to_jsonb(c) - 'maintenance_last_run')::text, E'\n' ORDER BY parent_table)
	  FROM partmgr.part_config c};
my $last_run = q{
	SELECT string_agg(parent_table || ' ' || coalesce(maintenance_last_run::text, '-'), E'\n'
					  ORDER BY parent_table)
	  FROM partmgr.part_config};
my $children = q{
	SELECT string_agg(i.inhparent::regclass || ' ' || c.relname || ' '
					  || pg_get_expr(c.relpartbound, c.oid), E'\n'
					  ORDER BY i.inhparent::regclass::text, c.relname)
	  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	 WHERE i.inhparent IN (SELECT parent_table::regclass FROM partmgr.part_config)};
# pg_get_constraintdef says NOT VALID when the constraint is not validated
my $constraints = q{
	SELECT string_agg(conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid),
					  E'\n' ORDER BY conname)
	  FROM pg_constraint WHERE conname LIKE 'partmanconstr\_%'};
my $template = q{
	SELECT c.relpersistence::text || ' ' || c.reloptions::text || ' ' || pg_get_userbyid(c.relowner)
	  FROM pg_class c WHERE c.oid = 'partmgr.template_public_daily_berlin'::regclass};
my $rows = q{
	SELECT (SELECT md5(string_agg(d::text, ',' ORDER BY id, ts)) FROM public.daily_berlin d)
		   || ' ' || (SELECT md5(string_agg(i::text, ',' ORDER BY id)) FROM public.ids i)
		   || ' ' || (SELECT md5(string_agg(m::text, ',' ORDER BY id)) FROM public.manual m)};
# a run's actions, without their times and pids
my $log_since = sub {
	my ($mark) = @_;
	return qq{
	SELECT string_agg(concat_ws(' | ', parent_table, action, object, detail, outcome, run_by),
					  E'\n' ORDER BY log_id)
	  FROM partmgr.maintenance_log WHERE log_id > $mark};
};

# the source holds what the comparisons need, so that none is vacuous
is($node->safe_psql('src', q{
		SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class
		 WHERE relname IN ('ids_p0', 'ids_p10', 'ids_p80', 'daily_berlin_p21000703')}),
	'daily_berlin_p21000703,ids_p10,ids_p80',
	'src: the first run made the premade children and dropped the expired ids_p0');
is($node->safe_psql('src', $constraints),
	"ids_p10 partmanconstr_ids_p10_ref CHECK (((ref >= '1000'::bigint) AND (ref <= '1900'::bigint))) NOT VALID\n"
	. "ids_p20 partmanconstr_ids_p20_ref CHECK (((ref >= '2000'::bigint) AND (ref <= '2900'::bigint))) NOT VALID",
	'src: derived constraints on the children optimize_constraint or more below the newest, not validated yet');
like($node->safe_psql('src', $config), qr/"partition_timezone": "Europe\/Berlin"/,
	'src: part_config holds the Berlin time zone');
my $src_log_rows = $node->safe_psql('src', 'SELECT count(*) FROM partmgr.maintenance_log');
ok($src_log_rows > 0, "src: maintenance_log has rows ($src_log_rows)");

my %before;
$before{$_->[0]} = $node->safe_psql('src', $_->[1])
  for (['config', $config], ['last_run', $last_run],
	['children', $children], ['constraints', $constraints], ['rows', $rows],
	['template', $template]);
is($before{template}, "u {fillfactor=70} postgres", 'src: the template table is unlogged, fillfactor 70');

# dump, and restore into a new database that does not have the extension
my $dump = "$PostgreSQL::Test::Utils::tmp_check/src.dump";
$node->command_ok(['pg_dump', '-Fc', '-h', $node->host, '-p', $node->port, '-f', $dump, 'src'],
	'pg_dump -Fc src');
$node->command_ok(['createdb', '-h', $node->host, '-p', $node->port, 'dst'], 'createdb dst');
is($node->safe_psql('dst', "SELECT count(*) FROM pg_extension WHERE extname = 'pg_partmgr'"),
	'0', 'dst does not have the extension before the restore');
$node->command_checks_all(
	['pg_restore', '--exit-on-error', '-h', $node->host, '-p', $node->port, '-d', 'dst', $dump],
	0, [qr/^$/], [qr/^$/],
	'pg_restore into dst succeeds without a message');
is($node->safe_psql('dst', "SELECT extversion FROM pg_extension WHERE extname = 'pg_partmgr'"),
	'0.7.0', 'pg_restore created the extension in dst, at the default version');

is($node->safe_psql('dst', $config), $before{config},
	'part_config rows are the same in dst (all columns but maintenance_last_run): the set keeps its time zone');
is($node->safe_psql('dst', $last_run), $before{last_run},
	'and maintenance_last_run came along too');
is($node->safe_psql('dst', $children), $before{children},
	'the children and their bounds are the same in dst');
is($node->safe_psql('dst', $constraints), $before{constraints},
	'the derived constraints are the same in dst, still not validated');
is($node->safe_psql('dst', $rows), $before{rows}, 'the rows are the same in dst');
is($node->safe_psql('dst', $template), $before{template},
	'the template table create_parent made is in dst, unlogged with its storage parameters');
# maintenance_log is not an extension configuration table: its rows are not
# dumped, and the restored database starts with an empty log
is($node->safe_psql('dst', 'SELECT count(*) FROM partmgr.maintenance_log'), '0',
	'maintenance_log is not dumped: empty in dst');

# the same work in both: rows that need new children, two runs (the second
# validates the constraints the first added), the set without automatic
# maintenance left alone, then maintained by name
my $src_mark = $node->safe_psql('src', 'SELECT max(log_id) FROM partmgr.maintenance_log');
my %after;
for my $db ('src', 'dst')
{
	$node->safe_psql($db, q{
		INSERT INTO public.daily_berlin VALUES (2, '2100-07-03 12:00 Europe/Berlin', 'later');
		INSERT INTO public.ids SELECT g, g * 100, 'later' FROM generate_series(46, 55) g;
		INSERT INTO public.manual VALUES (199);
		SELECT partmgr.run_maintenance();
		SELECT partmgr.run_maintenance();
	});
	$after{$db}{manual_auto} = $node->safe_psql($db,
		"SELECT string_agg(partition_tablename, ',') FROM partmgr.show_partitions('public.manual')");
	$node->safe_psql($db, "SELECT partmgr.run_maintenance('public.manual')");
	$after{$db}{log} = $node->safe_psql($db, $log_since->($db eq 'src' ? $src_mark : 0));
	$after{$db}{$_->[0]} = $node->safe_psql($db, $_->[1])
	  for (['config', $config], ['children', $children], ['constraints', $constraints],
		['rows', $rows]);
}

# dst, on its own terms
is($node->safe_psql('dst', q{
		SELECT string_agg(partition_tablename || ' ' || pg_get_expr(c.relpartbound, c.oid), E'\n')
		  FROM partmgr.show_partitions('public.daily_berlin') s
		  JOIN pg_class c ON c.relname = s.partition_tablename}),
	join("\n",
		map { my ($d, $from, $to) = @$_;
			"daily_berlin_p2100070$d FOR VALUES FROM ('2100-$from 22:00:00+00') TO ('2100-$to 22:00:00+00')" }
		  ([1, '06-30', '07-01'], [2, '07-01', '07-02'], [3, '07-02', '07-03'],
		   [4, '07-03', '07-04'], [5, '07-04', '07-05'])),
	'dst: the Berlin set got two more children, bounded at Berlin midnight');
is($node->safe_psql('dst', q{
		SELECT relpersistence::text || ' ' || reloptions::text FROM pg_class
		 WHERE oid = 'public.daily_berlin_p21000705'::regclass}),
	'u {fillfactor=70}', 'dst: a child made after the restore takes the restored template');
is($node->safe_psql('dst',
		"SELECT string_agg(partition_tablename, ',') FROM partmgr.show_partitions('public.ids')"),
	'ids_p20,ids_p30,ids_p40,ids_p50,ids_p60,ids_p70,ids_p80,ids_p90',
	'dst: the id set got ids_p90 (premake) and lost ids_p10 (retention)');
is($node->safe_psql('dst', "SELECT to_regclass('public.ids_p10') IS NULL"), 't',
	'dst: retention_keep_table = false dropped ids_p10');
is($node->safe_psql('dst', $constraints),
	"ids_p20 partmanconstr_ids_p20_ref CHECK (((ref >= '2000'::bigint) AND (ref <= '2900'::bigint)))\n"
	. "ids_p30 partmanconstr_ids_p30_ref CHECK (((ref >= '3000'::bigint) AND (ref <= '3900'::bigint)))",
	'dst: the restored constraint is validated and ids_p30 got its own');
is($after{dst}{manual_auto}, 'manual_p0,manual_p100',
	'dst: run_maintenance() without arguments leaves the set with automatic_maintenance off alone');
is($node->safe_psql('dst',
		"SELECT string_agg(partition_tablename, ',') FROM partmgr.show_partitions('public.manual')"),
	'manual_p0,manual_p100,manual_p200', 'dst: maintained by name, it gets manual_p200');
is($node->safe_psql('dst', q{
		SELECT string_agg(DISTINCT parent_table, ',') FROM (
			SELECT parent_table FROM partmgr.maintenance_log
			 WHERE run_by = 'run_maintenance' ORDER BY log_id LIMIT 1) first}),
	'public.ids', 'dst: maintenance_order is kept (public.ids is maintained first)');
ok($node->safe_psql('dst', 'SELECT count(*) FROM partmgr.maintenance_log') > 0,
	'dst: the log fills again as the sets are maintained');

# and the same as the source after the same steps
is($after{dst}{children}, $after{src}{children},
	'after the same steps: the same children and bounds in src and dst');
is($after{dst}{constraints}, $after{src}{constraints},
	'after the same steps: the same derived constraints in src and dst');
is($after{dst}{config}, $after{src}{config},
	'after the same steps: the same part_config in src and dst');
is($after{dst}{rows}, $after{src}{rows}, 'after the same steps: the same rows in src and dst');
is($after{dst}{log}, $after{src}{log},
	'after the same steps: the same actions logged in src and dst');

$node->stop;
done_testing();
