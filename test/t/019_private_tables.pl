#
# The tables pg_partmgr makes for itself in a set owner's schema -- a global
# unique constraint's side table, a reshape's change log and staging table --
# have the owner's privileges alone, whatever ALTER DEFAULT PRIVILEGES gives
# new tables there.  The owner's schema grants the application role SELECT,
# INSERT, UPDATE and DELETE on every new table, and PUBLIC SELECT: with
# those, the application role could delete a key's entry and then insert a
# duplicate key, forge an entry that makes a legal insert fail, or delete
# the change log's entries so that a reshape drops changes.  New children
# keep getting what default privileges give, as any table made there does.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('private');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.enabled = off
});
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_partmgr;
	CREATE ROLE pt_own;
	CREATE ROLE pt_app;
	GRANT USAGE, CREATE ON SCHEMA partmgr TO pt_own;
	GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA partmgr TO pt_own;
	GRANT USAGE ON ALL SEQUENCES IN SCHEMA partmgr TO pt_own;
	CREATE SCHEMA pts AUTHORIZATION pt_own;
	GRANT USAGE ON SCHEMA pts TO pt_app;
	SET ROLE pt_own;
	ALTER DEFAULT PRIVILEGES IN SCHEMA pts
		GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO pt_app;
	ALTER DEFAULT PRIVILEGES IN SCHEMA pts GRANT SELECT ON TABLES TO PUBLIC;
	CREATE TABLE pts.t (id bigint PRIMARY KEY, email text NOT NULL) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('pts.t', 'id', '100', p_start_partition => '0', p_premake => 2);
	INSERT INTO pts.t SELECT g, 'e' || g FROM generate_series(0, 199) g;
	SELECT partmgr.create_global_unique('pts.t', ARRAY['email'], p_name => 't_email');
});

# what a role may do to a table, as "s i u d" letters that hold
my $privileges = q{
	SELECT concat_ws(' ',
		CASE WHEN has_table_privilege(r, t, 'SELECT') THEN 's' END,
		CASE WHEN has_table_privilege(r, t, 'INSERT') THEN 'i' END,
		CASE WHEN has_table_privilege(r, t, 'UPDATE') THEN 'u' END,
		CASE WHEN has_table_privilege(r, t, 'DELETE') THEN 'd' END)
	  FROM (VALUES (:'r', :'t')) v(r, t)};

sub privileges_of
{
	my ($role, $table) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $privileges,
		extra_params => [ '-v', "r=$role", '-v', "t=$table" ]);
	die "privileges of $role on $table: $err" if $ret != 0;
	return $out;
}

# == the side table of a global unique constraint ==
is(privileges_of('pt_app', 'pts.t_p0'), 's i u d',
	'a child got the default privileges of its schema');
is(privileges_of('pt_app', 'pts.t_email'), '', 'the side table grants the application role nothing');
is(privileges_of('public', 'pts.t_email'), '', 'nor PUBLIC');
is(privileges_of('pt_own', 'pts.t_email'), 's i u d', 'its owner has every privilege on it');
my ($ret, $out, $err) = $node->psql('postgres', q{
	SET ROLE pt_app; DELETE FROM pts.t_email WHERE email = 'e1'});
like($err, qr/permission denied for table t_email/,
	'the application role cannot delete a key\'s entry');
($ret, $out, $err) = $node->psql('postgres', q{
	SET ROLE pt_app; INSERT INTO pts.t_email VALUES ('e500', 'pts.t_p0')});
like($err, qr/permission denied for table t_email/, 'nor forge an entry');
($ret, $out, $err) = $node->psql('postgres', q{
	SET ROLE pt_app; INSERT INTO pts.t VALUES (250, 'e1')});
like($err, qr/duplicate key value violates global unique constraint "t_email"/,
	'a duplicate key is still refused');
($ret, $out, $err) = $node->psql('postgres', q{
	SET ROLE pt_app; INSERT INTO pts.t VALUES (200, 'e500') RETURNING id});
is("$out$err", '200', 'a legal insert of the application role is taken');

# == a reshape's change log and staging table ==
# a reader of the default partition holds the split in phase catch up
my $blocker = $node->background_psql('postgres', on_error_stop => 0);
$blocker->query_safe('BEGIN; SELECT count(*) FROM pts.t_default;');
my $split = $node->background_psql('postgres', on_error_stop => 0);
$split->query_until(qr/started/, q{
	\echo started
	SET ROLE pt_own;
	CALL partmgr.split_partition('pts.t_p0', p_interval => '50', p_lock_wait_tries => 1000,
								 p_quiet => true);
	\echo split_done
});
ok($node->poll_query_until('postgres', q{
		SELECT phase = 'catch up' FROM partmgr.reshape_operation WHERE parent_table = 'pts.t'}),
	'the split is in phase catch up');
my $op = $node->safe_psql('postgres',
	q{SELECT operation_id FROM partmgr.reshape_operation WHERE parent_table = 'pts.t'});
my $log = "pts.t_reshape${op}_log";
my $stage = $node->safe_psql('postgres', qq{
	SELECT c.oid::regclass FROM pg_class c
	 WHERE c.relnamespace = 'pts'::regnamespace AND c.relkind = 'p'
	   AND c.relname LIKE 't_reshape${op}%'});
isnt($stage, '', "the reshape has a staging table ($stage)");
is(privileges_of('pt_app', $log), '', 'the change log grants the application role nothing');
is(privileges_of('public', $log), '', 'nor PUBLIC');
is(privileges_of('pt_app', $stage), '', 'the staging table grants the application role nothing');
is(privileges_of('public', $stage), '', 'nor PUBLIC');
($ret, $out, $err) = $node->psql('postgres', "SET ROLE pt_app; DELETE FROM $log");
like($err, qr/permission denied for table/, 'the application role cannot empty the change log');
$node->safe_psql('postgres', q{SET ROLE pt_app; UPDATE pts.t SET email = 'changed' WHERE id = 7});
$blocker->query_safe('COMMIT');
$split->query_until(qr/split_done/, '');
$split->quit;
$blocker->quit;
is($node->safe_psql('postgres', q{
	SELECT count(*) || ' rows, ' || count(*) FILTER (WHERE email = 'changed') || ' changed'
	  FROM pts.t WHERE id < 100}), '100 rows, 1 changed',
	'the split kept every row and the change made while it ran');
is($node->safe_psql('postgres', q{
	SELECT string_agg(inhrelid::regclass::text, ' ' ORDER BY inhrelid::regclass::text)
	  FROM pg_inherits WHERE inhparent = 'pts.t'::regclass}),
	'pts.t_default pts.t_p0 pts.t_p100 pts.t_p200 pts.t_p50',
	'the split is done');
is(privileges_of('pt_app', 'pts.t_p50'), 's i u d',
	'a new child of the split got the default privileges of its schema, as any child');
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM pg_class WHERE relnamespace = 'pts'::regnamespace
	   AND relname LIKE '%reshape%'}), '0', 'the change log and staging table are gone');

$node->stop;
done_testing();
