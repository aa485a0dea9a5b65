#
# Sub-partitioned sets left to the background worker, and through pg_dump /
# pg_restore.
#
# The worker makes the next child of a sub-partitioned set a sub-parent:
# given to the table's owner (a plain role), registered as a set of its own
# with its first children and default partition, which belong to the owner
# too; it then premakes inside that sub-set; retention it runs drops an
# expired sub-parent with its children and forgets its set.  pg_dump saves
# part_config_sub (pg_extension_config_dump), so after a restore new
# children are still made sub-parents.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('subpart');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.interval = 1
timezone = 'UTC'
});
$node->start;

# an id set by ten, each child by id again (by 5), owned by a plain role
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_partmgr;
	CREATE ROLE app_owner;
	CREATE SCHEMA app AUTHORIZATION app_owner;
	CREATE TABLE app.orders (id bigint NOT NULL, v text) PARTITION BY RANGE (id);
	ALTER TABLE app.orders OWNER TO app_owner;
	SELECT partmgr.create_parent('app.orders', 'id', '10', p_premake => 1,
	                             p_start_partition => '0', p_template_table => 'false');
	SELECT partmgr.create_sub_parent('app.orders', 'id', '5', p_declarative_check => 'yes',
	                                 p_premake => 1);
});
is( $node->safe_psql('postgres', q{
		SELECT string_agg(parent_table, ',' ORDER BY parent_table) FROM partmgr.part_config}),
	'app.orders,app.orders_p0,app.orders_p10',
	'create_sub_parent registered each child as a set');

# a row in the last child: the worker makes app.orders_p20, a sub-parent
$node->safe_psql('postgres', q{INSERT INTO app.orders VALUES (12, 'a')});
ok( $node->poll_query_until('postgres', q{
		SELECT count(*) = 1 FROM partmgr.part_config WHERE parent_table = 'app.orders_p20'}),
	'the worker registered its new child as a sub-set');
is( $node->safe_psql('postgres', q{
		SELECT c.relkind::text || ' ' || pg_get_userbyid(c.relowner) FROM pg_class c
		 WHERE c.oid = 'app.orders_p20'::regclass}),
	'p app_owner', 'the new child is partitioned and belongs to the table\'s owner');
is( $node->safe_psql('postgres', q{
		SELECT string_agg(c.relname || ':' || pg_get_userbyid(c.relowner), ',' ORDER BY c.relname)
		  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		 WHERE i.inhparent = 'app.orders_p20'::regclass}),
	'orders_p20_default:app_owner,orders_p20_p20:app_owner',
	'its sub-set starts inside its range, with a default partition, all the owner\'s');
is( $node->safe_psql('postgres', q{
		SELECT run_by || ' ' || outcome FROM partmgr.maintenance_log
		 WHERE object = 'app.orders_p20_p20'}),
	'worker done', 'the log records the sub-set\'s first child, made by the worker');

# the worker premakes inside a sub-set, and no further than its range
$node->safe_psql('postgres', q{INSERT INTO app.orders VALUES (21, 'b')});
ok( $node->poll_query_until('postgres', q{
		SELECT to_regclass('app.orders_p20_p25') IS NOT NULL
		   AND (SELECT sub_partition_set_full FROM partmgr.part_config
		         WHERE parent_table = 'app.orders_p20')}),
	'the worker premade the sub-set to the end of its range and marked it full');
# and in the next run: a worker stamps maintenance_last_run when its run is
# over, and a database's runs do not overlap, so of two stamps later than
# now the second comes from a run that began after now
my $seen = $node->safe_psql('postgres', 'SELECT clock_timestamp()');
for (1 .. 2)
{
	$node->poll_query_until('postgres', qq{
		SELECT maintenance_last_run > '$seen' FROM partmgr.part_config
		 WHERE parent_table = 'app.orders'})
	  or die "timed out waiting for a run of the worker after $seen";
	$seen = $node->safe_psql('postgres', q{
		SELECT maintenance_last_run FROM partmgr.part_config WHERE parent_table = 'app.orders'});
}
is($node->safe_psql('postgres', q{SELECT to_regclass('app.orders_p20_p30') IS NULL}),
	't', 'and made nothing beyond it, in that run or the next');

# retention run by the worker drops an expired sub-parent and forgets its set
$node->safe_psql('postgres', q{
	UPDATE partmgr.part_config SET retention = '10', retention_keep_table = false
	 WHERE parent_table = 'app.orders';
});
ok( $node->poll_query_until('postgres', q{
		SELECT to_regclass('app.orders_p0') IS NULL
		   AND NOT EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table = 'app.orders_p0')}),
	'the worker\'s retention dropped the expired sub-parent and forgot its set');
is($node->safe_psql('postgres', q{SELECT to_regclass('app.orders_p0_p0') IS NULL}),
	't', 'its children went with it');
ok( !$node->log_contains('pg_partmgr.*(ERROR|WARNING).*app\.orders'),
	'the worker reported no error or warning for the set');
$node->safe_psql('postgres', q{
	UPDATE partmgr.part_config SET retention = NULL WHERE parent_table = 'app.orders';
});

# pg_dump keeps part_config_sub: after a restore, new children are still sub-parents
my $dump = "$PostgreSQL::Test::Utils::tmp_check/subpart.dump";
$node->command_ok(['pg_dump', '-Fc', '-h', $node->host, '-p', $node->port, '-f', $dump, 'postgres'],
	'pg_dump -Fc');
$node->command_ok(['createdb', '-h', $node->host, '-p', $node->port, 'restored'], 'createdb restored');
$node->command_ok(
	['pg_restore', '--exit-on-error', '-h', $node->host, '-p', $node->port, '-d', 'restored', $dump],
	'pg_restore into restored');
is( $node->safe_psql('restored', q{
		SELECT sub_parent || ' ' || sub_control || ' ' || sub_partition_interval || ' ' || sub_premake
		  FROM partmgr.part_config_sub}),
	'app.orders id 5 1', 'part_config_sub came along');
$node->safe_psql('restored', q{
	UPDATE partmgr.part_config SET automatic_maintenance = 'off';
	INSERT INTO app.orders VALUES (33, 'c');
	SELECT partmgr.run_maintenance('app.orders');
});
is( $node->safe_psql('restored', q{
		SELECT c.relkind::text || ' ' || (p.parent_table IS NOT NULL)::text
		  FROM pg_class c LEFT JOIN partmgr.part_config p ON p.parent_table = 'app.orders_p40'
		 WHERE c.oid = to_regclass('app.orders_p40')}),
	'p true', 'after the restore the next child is made a registered sub-parent');

$node->stop;
done_testing();
