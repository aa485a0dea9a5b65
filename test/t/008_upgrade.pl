#
# Upgrading from 0.1.0 to the current version (0.1.0 -> 0.2.0 -> 0.3.0 -> 0.4.0 -> 0.5.0 -> 0.6.0 -> 0.7.0).
# The current library refuses to act on older objects, whose configuration
# is not guarded (0.3.0 adds the owner trigger and the log's row
# security): every function says to run ALTER EXTENSION ... UPDATE, and the
# worker skips the database with a WARNING.  After the update the database
# holds exactly what a fresh CREATE EXTENSION makes: the same member
# objects, function definitions, columns, constraints, indexes, triggers,
# policies, comments, privileges and pg_extension_config_dump
# registrations.  A set configured at 0.1.0 is maintained after the update,
# by run_maintenance() and by the background worker.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $node = PostgreSQL::Test::Cluster->new('upgrade');
$node->init;
# the worker is loaded but off until the end, so that run_maintenance()
# alone makes the children of the first part
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.interval = 1
pg_partmgr.enabled = off
timezone = 'UTC'
});
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE upgraded');
$node->safe_psql('postgres', 'CREATE DATABASE fresh');

is( $node->safe_psql('postgres', q{
		SELECT path FROM pg_extension_update_paths('pg_partmgr')
		 WHERE source = '0.1.0' AND target = '0.7.0'}),
	'0.1.0--0.2.0--0.3.0--0.4.0--0.5.0--0.6.0--0.7.0', 'pg_extension_update_paths goes 0.1.0 -> 0.2.0 -> 0.3.0 -> 0.4.0 -> 0.5.0 -> 0.6.0 -> 0.7.0');

# 0.1.0, with a set configured as a restore of that version would leave it
$node->safe_psql('upgraded', q{
	CREATE EXTENSION pg_partmgr VERSION '0.1.0';
	CREATE TABLE public.events (id bigint NOT NULL, v text) PARTITION BY RANGE (id);
	CREATE TABLE public.events_p0 PARTITION OF public.events FOR VALUES FROM (0) TO (10);
	CREATE TABLE public.events_p10 PARTITION OF public.events FOR VALUES FROM (10) TO (20);
	INSERT INTO partmgr.part_config (parent_table, control, partition_interval, partition_type, premake)
	VALUES ('public.events', 'id', '10', 'range', 1);
	INSERT INTO public.events VALUES (15, 'at 0.1.0');
});
is($node->safe_psql('upgraded', "SELECT extversion FROM pg_extension WHERE extname = 'pg_partmgr'"),
	'0.1.0', 'CREATE EXTENSION ... VERSION 0.1.0 installs 0.1.0');
my ($rc, $out, $err) = $node->psql('upgraded', 'SELECT partmgr.run_maintenance()');
isnt($rc, 0, 'at 0.1.0 the current library refuses to maintain');
like($err, qr/ERROR:  the SQL objects of extension pg_partmgr are older than its library.*\n.*HINT:  Run ALTER EXTENSION pg_partmgr UPDATE/s,
	'and says what to run');
is($node->safe_psql('upgraded', "SELECT to_regclass('public.events_p20') IS NULL"), 't',
	'nothing was made at 0.1.0');

# the update
$node->safe_psql('upgraded', 'ALTER EXTENSION pg_partmgr UPDATE');
is($node->safe_psql('upgraded', "SELECT extversion FROM pg_extension WHERE extname = 'pg_partmgr'"),
	'0.7.0', 'ALTER EXTENSION pg_partmgr UPDATE brings it to 0.7.0');

# a role that may write part_config at 0.5.0 may write part_config_interval
# after the update (in a database of its own: the grants would show in the
# comparison with a fresh install below)
$node->safe_psql('postgres', 'CREATE DATABASE granted');
$node->safe_psql('granted', q{
	CREATE EXTENSION pg_partmgr VERSION '0.5.0';
	CREATE ROLE upg_owner;
	GRANT SELECT, INSERT, UPDATE, DELETE ON partmgr.part_config TO upg_owner;
	ALTER EXTENSION pg_partmgr UPDATE TO '0.6.0';
});
is( $node->safe_psql('granted', q{
		SELECT string_agg(p, ',' ORDER BY p) FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) p
		 WHERE has_table_privilege('upg_owner', 'partmgr.part_config_interval', p)}),
	'DELETE,INSERT,SELECT,UPDATE',
	'0.6.0 gives a role that may write part_config the same on part_config_interval (and no more)');
$node->safe_psql('postgres', 'DROP DATABASE granted');
$node->safe_psql('postgres', 'DROP OWNED BY upg_owner CASCADE; DROP ROLE upg_owner');
$node->safe_psql('upgraded', 'SELECT partmgr.run_maintenance()');
$node->safe_psql('upgraded', q{
	INSERT INTO public.events VALUES (25, 'at 0.3.0');
	SELECT partmgr.run_maintenance();
});
is( $node->safe_psql('upgraded',
		"SELECT string_agg(partition_tablename, ',') FROM partmgr.show_partitions('public.events')"),
	'events_p0,events_p10,events_p20,events_p30',
	'after the update the set is maintained: events_p20 and events_p30 are made');
is( $node->safe_psql('upgraded', q{
		SELECT outcome || ' ' || (cardinality(statements) > 0)::int || ' ' || owner
		  FROM partmgr.maintenance_log
		 WHERE action = 'create partition' AND object = 'public.events_p30'}),
	'done 1 postgres', 'and its log row has the statements the action ran and the set\'s owner');

$node->safe_psql('fresh', 'CREATE EXTENSION pg_partmgr');
is($node->safe_psql('fresh', "SELECT extversion FROM pg_extension WHERE extname = 'pg_partmgr'"),
	'0.7.0', 'a fresh CREATE EXTENSION installs 0.7.0');

# Everything the extension is made of, one item per line (a function's
# definition spans several, indented), sorted.
my $objects = q{
WITH ext AS (SELECT oid FROM pg_extension WHERE extname = 'pg_partmgr'),
members AS (
	SELECT d.classid, d.objid FROM pg_depend d, ext
	 WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'),
-- the template tables create_parent makes there belong to the sets, not to the extension
rels AS (SELECT c.* FROM pg_class c WHERE c.relnamespace = 'partmgr'::regnamespace
			AND c.relname NOT LIKE 'template\\_%'),
items AS (
	SELECT 'member ' || pg_describe_object(d.classid, d.objid, d.objsubid) AS line
	  FROM pg_depend d, ext
	 WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'
	UNION ALL
	SELECT 'function ' || p.oid::regprocedure || ' acl ' || coalesce(p.proacl::text, '-')
		   || E'\n    ' || replace(rtrim(pg_get_functiondef(p.oid), E'\n'), E'\n', E'\n    ')
	  FROM pg_proc p WHERE p.pronamespace = 'partmgr'::regnamespace
	UNION ALL
	SELECT 'relation ' || c.oid::regclass || ' kind ' || c.relkind::text || ' persistence '
		   || c.relpersistence::text || ' row security ' || c.relrowsecurity::text
		   || ' options ' || coalesce(c.reloptions::text, '-')
		   || ' acl ' || coalesce(c.relacl::text, '-')
	  FROM rels c
	UNION ALL
	SELECT 'column ' || a.attrelid::regclass || ' #'
		   || lpad((row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum))::text, 2, '0') || ' '
		   || quote_ident(a.attname) || ' ' || format_type(a.atttypid, a.atttypmod)
		   || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
		   || CASE WHEN a.attgenerated = 's'
				   THEN ' GENERATED ALWAYS AS (' || pg_get_expr(ad.adbin, ad.adrelid) || ') STORED'
				   ELSE coalesce(' DEFAULT ' || pg_get_expr(ad.adbin, ad.adrelid), '') END
		   || CASE a.attidentity WHEN 'a' THEN ' GENERATED ALWAYS AS IDENTITY'
								 WHEN 'd' THEN ' GENERATED BY DEFAULT AS IDENTITY' ELSE '' END
		   || CASE WHEN a.attcollation <> t.typcollation
				   THEN ' COLLATE ' || a.attcollation::regcollation ELSE '' END
		   || ' acl ' || coalesce(a.attacl::text, '-')
	  FROM rels c JOIN pg_attribute a ON a.attrelid = c.oid
	  JOIN pg_type t ON t.oid = a.atttypid
	  LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
	 WHERE c.relkind IN ('r', 'p', 'v', 'm', 'c', 'f') AND a.attnum > 0 AND NOT a.attisdropped
	UNION ALL
	SELECT 'constraint ' || co.conrelid::regclass || ' ' || quote_ident(co.conname) || ' '
		   || pg_get_constraintdef(co.oid)
	  FROM pg_constraint co JOIN rels c ON c.oid = co.conrelid
	UNION ALL
	SELECT 'index ' || pg_get_indexdef(i.indexrelid)
	  FROM pg_index i JOIN rels c ON c.oid = i.indrelid
	UNION ALL
	SELECT 'trigger ' || pg_get_triggerdef(t.oid)
	  FROM pg_trigger t JOIN rels c ON c.oid = t.tgrelid
	 WHERE NOT t.tgisinternal
	UNION ALL
	SELECT 'policy ' || po.polrelid::regclass || ' ' || quote_ident(po.polname) || ' '
		   || po.polcmd::text || ' ' || coalesce(pg_get_expr(po.polqual, po.polrelid), '-')
		   || ' check ' || coalesce(pg_get_expr(po.polwithcheck, po.polrelid), '-')
	  FROM pg_policy po JOIN rels c ON c.oid = po.polrelid
	UNION ALL
	SELECT 'sequence ' || s.seqrelid::regclass || ' ' || format_type(s.seqtypid, NULL)
		   || ' start ' || s.seqstart || ' increment ' || s.seqincrement || ' min ' || s.seqmin
		   || ' max ' || s.seqmax || ' cache ' || s.seqcache || ' cycle ' || s.seqcycle
	  FROM pg_sequence s JOIN rels c ON c.oid = s.seqrelid
	UNION ALL
	-- table and column comments
	SELECT 'comment on column ' || c.oid::regclass || '.' || quote_ident(a.attname) || ': '
		   || coalesce(col_description(c.oid, a.attnum), '-')
	  FROM rels c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
	 WHERE c.relkind IN ('r', 'p', 'v', 'm', 'c', 'f')
	UNION ALL
	SELECT 'comment on table ' || c.oid::regclass || ': ' || coalesce(obj_description(c.oid, 'pg_class'), '-')
	  FROM rels c WHERE c.relkind IN ('r', 'p', 'v', 'm', 'c', 'f')
	UNION ALL
	-- the comments of every other member (functions, schema, type) and of the extension
	SELECT 'comment on ' || pg_describe_object(ds.classoid, ds.objoid, ds.objsubid) || ': '
		   || ds.description
	  FROM pg_description ds
	 WHERE ((ds.classoid, ds.objoid) IN (SELECT classid, objid FROM members)
			AND ds.classoid <> 'pg_class'::regclass)
		OR (ds.classoid = 'pg_extension'::regclass AND ds.objoid = (SELECT oid FROM ext))
	UNION ALL
	SELECT 'view ' || c.oid::regclass || ' ' || pg_get_viewdef(c.oid)
	  FROM rels c WHERE c.relkind IN ('v', 'm')
	UNION ALL
	SELECT 'schema partmgr acl ' || coalesce(n.nspacl::text, '-')
	  FROM pg_namespace n WHERE n.nspname = 'partmgr'
)
SELECT string_agg(line, E'\n' ORDER BY line COLLATE "C") FROM items};

my $upgraded = $node->safe_psql('upgraded', $objects);
my $fresh = $node->safe_psql('fresh', $objects);
# guard against a query that compares nothing
like($fresh, qr/^member function partmgr\.plan_maintenance\(text\)$/m,
	'the object list holds the 0.2.0 function');
like($fresh, qr/^column partmgr\.maintenance_log #16 statements text\[\] acl -$/m,
	'the object list holds the 0.2.0 column, last in maintenance_log');
like($fresh, qr/^column partmgr\.maintenance_log #17 owner regrole acl -$/m,
	'the object list holds the 0.3.0 column, last in maintenance_log');
like($fresh, qr/^trigger CREATE TRIGGER part_config_check /m, 'the object list holds triggers');
like($fresh, qr/^trigger CREATE TRIGGER part_config_owner_check BEFORE INSERT OR DELETE OR UPDATE ON partmgr\.part_config /m,
	'the object list holds the 0.3.0 owner trigger');
like($fresh, qr/^policy partmgr\.maintenance_log maintenance_log_owner \* pg_has_role\(\(owner\)::oid, 'USAGE'::text\) check pg_has_role\(\(owner\)::oid, 'USAGE'::text\)$/m,
	'the object list holds the 0.3.0 row security policy');
like($fresh, qr/^relation partmgr\.maintenance_log kind r persistence p row security true /m,
	'and maintenance_log has row security on');
like($fresh, qr/^comment on column partmgr\.maintenance_log\.statements: The SQL statements/m,
	'the object list holds column comments');
is($upgraded, $fresh, 'the updated database has exactly the objects of a fresh 0.7.0 install')
  or diag(line_diff($upgraded, $fresh));

my $extconfig = q{
	SELECT string_agg(cfg::regclass || ' ' || quote_literal(cond), ', ' ORDER BY cfg::regclass::text)
	  FROM pg_extension e, unnest(e.extconfig, e.extcondition) AS u(cfg, cond)
	 WHERE e.extname = 'pg_partmgr'};
is($node->safe_psql('upgraded', $extconfig), $node->safe_psql('fresh', $extconfig),
	'the pg_extension_config_dump registrations are the same after the update and fresh');
is($node->safe_psql('fresh', $extconfig),
	"partmgr.part_config '', partmgr.part_config_archive '', partmgr.part_config_interval '', partmgr.part_config_sub '', partmgr.part_config_tier '', partmgr.reshape_operation ''",
	'and they are part_config, part_config_archive, part_config_interval, part_config_sub, part_config_tier and reshape_operation, whole (part_config_ext is gone)');

# the current functions work on the set configured at 0.1.0
$node->safe_psql('upgraded', "INSERT INTO public.events VALUES (35, 'by the worker')");
is( $node->safe_psql('upgraded', q{
		SELECT string_agg(action || ' ' || object, ',' ORDER BY step)
		  FROM partmgr.plan_maintenance('public.events')}),
	'create partition public.events_p40',
	'plan_maintenance() in the updated database: the next run makes events_p40');
is($node->safe_psql('upgraded', 'SELECT parent_table FROM partmgr.health'), 'public.events',
	'the health view in the updated database lists the set');

# the background worker maintains the updated database, and skips one
# still at 0.2.0, saying why
$node->safe_psql('postgres', 'CREATE DATABASE older');
$node->safe_psql('older', "CREATE EXTENSION pg_partmgr VERSION '0.2.0'");
my $offset = -s $node->logfile;
$node->append_conf('postgresql.conf', 'pg_partmgr.enabled = on');
$node->reload;
# wait for the child, or for the WARNING that would mean it never comes
my $made = 'f';
my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
while ($made ne 't'
	&& !$node->log_contains('is installed in database "upgraded", but the loaded library', $offset))
{
	die 'timed out waiting for events_p40 or a WARNING about database "upgraded"'
	  if time > $deadline;
	usleep(100_000);
	$made = $node->safe_psql('upgraded', "SELECT to_regclass('public.events_p40') IS NOT NULL");
}
is($made, 't', 'the worker maintains the updated set: events_p40 is made');
ok(!$node->log_contains('is installed in database "upgraded", but the loaded library', $offset),
	'the worker does not take 0.7.0 for a version mismatch');
ok( $node->wait_for_log(
		qr/pg_partmgr 0\.2\.0 is installed in database "older", but the loaded library \(0\.7\.0\) does not work with it/,
		$offset),
	'the worker skips a database still at 0.2.0 with a WARNING that says so');

$node->stop;
done_testing();

# items (a line and the indented lines under it) only in one of the two
# texts, for a readable failure
sub line_diff
{
	my ($got, $want) = @_;
	my (%g, %w);
	$g{$_}++ for split /\n(?=\S)/, $got;
	$w{$_}++ for split /\n(?=\S)/, $want;
	my @only_got = grep { ($g{$_} // 0) > ($w{$_} // 0) } sort keys %g;
	my @only_want = grep { ($w{$_} // 0) > ($g{$_} // 0) } sort keys %w;
	return join("\n", 'only after the update:', map({ "  $_" } @only_got),
		'only in the fresh install:', map({ "  $_" } @only_want));
}
