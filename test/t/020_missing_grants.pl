#
# missing_grants() and tablespaces (CREATE TABLESPACE cannot run in the
# transaction of a pgTAP file; test/pgtap/missing_grants.sql covers the
# rest).  A set owner who may create tables in its schema makes the
# children itself, so it needs CREATE on the tablespace new children go to
# (the parent's) and on those their indexes go to (the parent's indexes',
# the template's).  For each: the call lists it as required with its GRANT,
# health is critical with it, the work fails on it, and after the printed
# GRANT the row is gone and the work succeeds, with the children and
# indexes in those tablespaces.  The indexes a child gets from the parent's
# partitioned indexes are made without that check: their tablespace is not
# listed, and the children get them there all the same.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('grants');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.enabled = off
});
$node->start;

my $cold = PostgreSQL::Test::Utils::tempdir();
my $fast = PostgreSQL::Test::Utils::tempdir();
my $idx = PostgreSQL::Test::Utils::tempdir();
$node->safe_psql('postgres', qq{
	CREATE TABLESPACE mg_cold LOCATION '$cold';
	CREATE TABLESPACE mg_fast LOCATION '$fast';
	CREATE TABLESPACE mg_idx LOCATION '$idx';
	CREATE EXTENSION pg_partmgr;
	CREATE ROLE mg_own;
	CREATE SCHEMA mgs AUTHORIZATION mg_own;
	CREATE TABLE mgs.t (id bigint NOT NULL, v text) PARTITION BY RANGE (id) TABLESPACE mg_cold;
	CREATE INDEX mg_parent_v ON mgs.t (v) TABLESPACE mg_idx;
	ALTER TABLE mgs.t OWNER TO mg_own;
});

sub missing
{
	my ($table) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT string_agg(concat_ws(' | ', privilege, required, grant_statement), E'\n'
		                  ORDER BY privilege)
		  FROM partmgr.missing_grants('$table')
		 WHERE privilege <> 'USAGE ON SCHEMA partmgr'});
}

# == the parent's tablespace ==
is(missing('mgs.t'),
	'CREATE ON TABLESPACE mg_cold | t | GRANT CREATE ON TABLESPACE mg_cold TO mg_own',
	'before create_parent: CREATE on the parent\'s tablespace, required');
my ($rc, $out, $err) = $node->psql('postgres',
	q{SELECT partmgr.create_parent('mgs.t', 'id', '100', p_start_partition => '0', p_premake => 2)});
like($err, qr/permission denied for tablespace mg_cold/,
	'create_parent fails on it: the owner makes the children');
$node->safe_psql('postgres', 'GRANT CREATE ON TABLESPACE mg_cold TO mg_own');
is(missing('mgs.t'), '', 'after the printed GRANT nothing is missing');
$node->safe_psql('postgres',
	q{SELECT partmgr.create_parent('mgs.t', 'id', '100', p_start_partition => '0', p_premake => 2)});
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	  JOIN pg_tablespace s ON s.oid = c.reltablespace
	 WHERE i.inhparent = 'mgs.t'::regclass AND s.spcname = 'mg_cold'}),
	'4', 'and create_parent makes the children (and the default) in it');

# == the tablespace of the template's indexes ==
my $template = $node->safe_psql('postgres',
	q{SELECT template_table FROM partmgr.part_config WHERE parent_table = 'mgs.t'});
$node->safe_psql('postgres',
	"CREATE UNIQUE INDEX mg_tmpl_v ON $template (v, id) TABLESPACE mg_fast");
is(missing('mgs.t'),
	'CREATE ON TABLESPACE mg_fast | t | GRANT CREATE ON TABLESPACE mg_fast TO mg_own',
	'a template index in another tablespace: CREATE on it, required');
like($node->safe_psql('postgres',
		q{SELECT status || ': ' || reason FROM partmgr.health WHERE parent_table = 'mgs.t'}),
	qr/^critical: the owner lacks CREATE ON TABLESPACE mg_fast, needed for the indexes of new children \(GRANT CREATE ON TABLESPACE mg_fast TO mg_own\)$/,
	'health: critical, with the GRANT');
$node->safe_psql('postgres', q{INSERT INTO mgs.t SELECT g, 'v' || g FROM generate_series(0, 249) g});
($rc, $out, $err) = $node->psql('postgres', q{SELECT partmgr.run_maintenance('mgs.t')});
like($err, qr/permission denied for tablespace mg_fast/,
	'maintenance fails on it when it makes a child');
$node->safe_psql('postgres', 'GRANT CREATE ON TABLESPACE mg_fast TO mg_own');
is(missing('mgs.t'), '', 'after the printed GRANT nothing is missing');
$node->safe_psql('postgres', q{SELECT partmgr.run_maintenance('mgs.t')});
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM pg_inherits i JOIN pg_index x ON x.indrelid = i.inhrelid
	  JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_tablespace s ON s.oid = c.reltablespace
	 WHERE i.inhparent = 'mgs.t'::regclass AND s.spcname = 'mg_fast'}),
	'2', 'and maintenance makes the new children, their index in it');
is($node->safe_psql('postgres',
		q{SELECT status FROM partmgr.health WHERE parent_table = 'mgs.t'}),
	'ok', 'health: ok');

# == without CREATE on the schema a superuser's run makes the children ==
$node->safe_psql('postgres', q{
	REVOKE CREATE ON TABLESPACE mg_cold FROM mg_own;
	ALTER SCHEMA mgs OWNER TO postgres;
	GRANT USAGE ON SCHEMA mgs TO mg_own;
	DROP INDEX } . $template =~ s/\.[^.]+$//r . q{.mg_tmpl_v;
});
is(missing('mgs.t'),
	"CREATE ON SCHEMA mgs | f | GRANT CREATE ON SCHEMA mgs TO mg_own\n"
	  . 'CREATE ON TABLESPACE mg_cold | f | GRANT CREATE ON TABLESPACE mg_cold TO mg_own',
	'an owner that may not create in its schema: both listed, neither required');
$node->safe_psql('postgres', q{INSERT INTO mgs.t SELECT g, 'v' || g FROM generate_series(250, 449) g});
$node->safe_psql('postgres', q{SELECT partmgr.run_maintenance('mgs.t')});
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	 WHERE i.inhparent = 'mgs.t'::regclass AND c.relowner = 'mg_own'::regrole
	   AND c.reltablespace = (SELECT oid FROM pg_tablespace WHERE spcname = 'mg_cold')}),
	'8', 'a superuser\'s run makes them in the tablespace and gives them to the owner');

is($node->safe_psql('postgres', q{
	SELECT count(*) FROM pg_inherits i JOIN pg_index x ON x.indrelid = i.inhrelid
	  JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_tablespace s ON s.oid = c.reltablespace
	 WHERE i.inhparent = 'mgs.t'::regclass AND s.spcname = 'mg_idx'}),
	'8', 'every child has the parent\'s index in its tablespace, on which the owner never had CREATE');

# == move_partition: the set's owner must be able to create in the target ==
my $warm = PostgreSQL::Test::Utils::tempdir();
$node->safe_psql('postgres', qq{
	CREATE TABLESPACE mg_warm LOCATION '$warm';
	CREATE ROLE mg_other;
	GRANT USAGE ON SCHEMA partmgr TO mg_own, mg_other;
	GRANT SELECT, INSERT, UPDATE, DELETE ON partmgr.part_config, partmgr.part_config_sub,
	      partmgr.part_config_interval, partmgr.reshape_operation, partmgr.maintenance_log
	   TO mg_own, mg_other;
	GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA partmgr TO mg_own, mg_other;
	CREATE SCHEMA mgm AUTHORIZATION mg_own;
	CREATE TABLE mgm.m (id bigint PRIMARY KEY, v text) PARTITION BY RANGE (id);
	CREATE INDEX ON mgm.m (v);
	ALTER TABLE mgm.m OWNER TO mg_own;
	SELECT partmgr.create_parent('mgm.m', 'id', '100', p_start_partition => '0', p_premake => 2);
	INSERT INTO mgm.m SELECT g, 'v' || g FROM generate_series(0, 299) g;
	CREATE TABLE mgm.h (id bigint PRIMARY KEY, v text) PARTITION BY HASH (id);
	ALTER TABLE mgm.h OWNER TO mg_own;
	SELECT partmgr.create_parent('mgm.h', 'id', '4', p_type => 'hash');
	INSERT INTO mgm.h SELECT g, 'v' || g FROM generate_series(1, 1000) g;
	CREATE TABLE mgm.s (id bigint PRIMARY KEY, v text) PARTITION BY RANGE (id);
	ALTER TABLE mgm.s OWNER TO mg_own;
	SELECT partmgr.create_parent('mgm.s', 'id', '100', p_start_partition => '0', p_premake => 1);
	SELECT partmgr.create_sub_parent('mgm.s', 'id', '10', p_premake => 1, p_declarative_check => 'yes');
	INSERT INTO mgm.s SELECT g, 'v' || g FROM generate_series(0, 19) g;
});
# where a table and its indexes are
sub places
{
	my ($table) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT string_agg(c.relname || ':' || coalesce(t.spcname, 'default'), ' ' ORDER BY c.relname COLLATE "C")
		  FROM pg_class c LEFT JOIN pg_tablespace t ON t.oid = c.reltablespace
		 WHERE c.oid = '$table'::regclass
			OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = '$table'::regclass)});
}
my $rows_m = $node->safe_psql('postgres', q{SELECT count(*) || ' ' || sum(hashtext(m::text)) FROM mgm.m m});
($rc, $out, $err) = $node->psql('postgres', q{CALL partmgr.move_partition('mgm.m_p0', 'mg_warm')});
like($err, qr/ERROR:  the owner of "mgm.m", mg_own, may not create tables in tablespace "mg_warm"\n.*\nHINT:  GRANT CREATE ON TABLESPACE mg_warm TO mg_own/,
	'a superuser moving a child into a tablespace the owner may not create in: refused, with the GRANT');
($rc, $out, $err) = $node->psql('postgres', q{SET ROLE mg_own; CALL partmgr.move_partition('mgm.m_p0', 'mg_warm')});
like($err, qr/may not create tables in tablespace "mg_warm"/, 'the owner itself: refused');
($rc, $out, $err) = $node->psql('postgres', q{
	GRANT CREATE ON TABLESPACE mg_warm TO mg_other;
	SET ROLE mg_other; CALL partmgr.move_partition('mgm.m_p0', 'mg_warm')});
like($err, qr/ERROR:  permission denied for partition set "mgm.m"/,
	'a role without the owner\'s privileges, with CREATE on the tablespace: refused');
is($node->safe_psql('postgres', 'SELECT count(*) FROM partmgr.reshape_operation'), '0',
	'nothing is registered');
is(places('mgm.m_p0'), 'm_p0:default m_p0_pkey:default m_p0_v_idx:default', 'the child is where it was');

$node->safe_psql('postgres', 'GRANT CREATE ON TABLESPACE mg_warm TO mg_own');
$node->safe_psql('postgres', q{CALL partmgr.move_partition('mgm.m_p0', 'mg_warm', p_quiet => true)});
is(places('mgm.m_p0'), 'm_p0:mg_warm m_p0_pkey:mg_warm m_p0_v_idx:mg_warm',
	'after the GRANT the move puts the child and its indexes there');
is($node->safe_psql('postgres', q{SELECT count(*) || ' ' || sum(hashtext(m::text)) FROM mgm.m m}), $rows_m,
	'every row is there once');
is($node->safe_psql('postgres', q{SELECT relowner::regrole FROM pg_class WHERE oid = 'mgm.m_p0'::regclass}),
	'mg_own', 'the moved child belongs to the owner');

my $bounds_h = $node->safe_psql('postgres', q{
	SELECT string_agg(c.relname || ' ' || pg_get_expr(c.relpartbound, c.oid), ', ' ORDER BY c.relname)
	  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'mgm.h'::regclass});
my $rows_h = $node->safe_psql('postgres', q{SELECT count(*) || ' ' || sum(hashtext(h::text)) FROM mgm.h h});
$node->safe_psql('postgres', q{CALL partmgr.move_partition('mgm.h_h4_1', 'mg_warm', p_quiet => true)});
is(places('mgm.h_h4_1'), 'h_h4_1:mg_warm h_h4_1_pkey:mg_warm', 'a child of a hash set is moved');
is($node->safe_psql('postgres', q{
	SELECT string_agg(c.relname || ' ' || pg_get_expr(c.relpartbound, c.oid), ', ' ORDER BY c.relname)
	  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'mgm.h'::regclass}),
	$bounds_h, 'with its bounds, the other children untouched');
is($node->safe_psql('postgres', q{SELECT count(*) || ' ' || sum(hashtext(h::text)) FROM mgm.h h}), $rows_h,
	'every row of the hash set is there once');

$node->safe_psql('postgres', q{CALL partmgr.move_partition('mgm.s_p0_p10', 'mg_warm', p_quiet => true)});
is(places('mgm.s_p0_p10'), 's_p0_p10:mg_warm s_p0_p10_pkey:mg_warm', 'a leaf of a sub-set is moved');
is($node->safe_psql('postgres', q{SELECT count(*) FROM mgm.s WHERE id BETWEEN 10 AND 19}), '10',
	'with its rows');

$node->stop;
done_testing();
