#
# Monitoring with postgres_exporter: the queries file doc/postgres_exporter.yaml,
# run as the monitoring role with exactly the grants its comments (and
# doc/operations.md) give, each of them needed, returns every metric it
# declares with the right values for an ok, a warning and a critical set, and
# leaves out the set of an owner the role is not a member of; pg_monitor
# alone sees nothing.  Then,
# when the prometheus-postgres-exporter binary is there, the real exporter
# serves the same values under the documented names and labels.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use CPAN::Meta::YAML;
use JSON::PP;
use HTTP::Tiny;
use IPC::Run;
use Time::HiRes qw(usleep);

my $docdir = "$FindBin::RealBin/../../doc";
my $yaml_file = "$docdir/postgres_exporter.yaml";

# --- the file itself ------------------------------------------------------
my $yaml = CPAN::Meta::YAML->read($yaml_file)
  or BAIL_OUT("$yaml_file does not parse: " . CPAN::Meta::YAML->errstr);
my $queries = $yaml->[0];
ok(ref $queries eq 'HASH' && keys %$queries, 'the file maps metric namespaces to queries');

# namespace => { query, columns => [name...], usage => {name => usage}, description => {...} }
my %ns;
for my $name (sort keys %$queries)
{
	my $q = $queries->{$name};
	like($q->{query}, qr/\bSELECT\b/i, "$name: has a query");
	is($q->{master}, 'true', "$name: runs against the database of DATA_SOURCE_NAME only (master)");
	my (@columns, %usage, %description);
	for my $m (@{ $q->{metrics} || [] })
	{
		my ($column) = keys %$m;
		push @columns, $column;
		$usage{$column} = $m->{$column}{usage};
		$description{$column} = $m->{$column}{description};
	}
	ok(@columns > 0, "$name: declares metrics");
	my @bad = grep { ($usage{$_} // '') !~ /^(LABEL|GAUGE|COUNTER)$/ || !length($description{$_} // '') } @columns;
	is("@bad", '', "$name: every column has a usage (LABEL, GAUGE or COUNTER) and a description");
	(my $sql = $q->{query}) =~ s/[\s;]+\z//;
	$ns{$name} = { query => $sql, columns => \@columns, usage => \%usage,
		description => \%description };
}
ok(exists $ns{pg_partmgr}, 'the namespace is pg_partmgr');
is( join(',', grep { $ns{pg_partmgr}{usage}{$_} eq 'LABEL' } @{ $ns{pg_partmgr}{columns} }),
	'datname,parent_table', 'labels: the database and the set, not the status');

# the grants the file's comments give the monitoring role
my $raw = slurp_file($yaml_file);
my ($grants) = $raw =~ /^(#\s+CREATE ROLE partmgr_monitor.*?-- the sets' owners)$/ms;
ok(defined $grants, 'the file says which grants the monitoring role needs');
$grants =~ s/^#[ \t]?//mg;
$grants =~ s/--[^\n]*//g;
my @grant_statements = grep { /\S/ } map { s/\s+/ /gr =~ s/^ | $//gr } split /;/, $grants;
(my $operations = slurp_file("$docdir/operations.md")) =~ s/\s+/ /g;
for my $statement (@grant_statements)
{
	ok(index($operations, $statement) >= 0, "doc/operations.md gives the same grant: $statement");
}

# --- a cluster with four sets of three owners ----------------------------
my $node = PostgreSQL::Test::Cluster->new('monitoring');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.enabled = off
timezone = 'UTC'
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_partmgr;
	CREATE ROLE app_owner;
	CREATE ROLE reports_owner;
	CREATE ROLE other_owner;
	CREATE SCHEMA app AUTHORIZATION app_owner;
	CREATE SCHEMA reports AUTHORIZATION reports_owner;
	CREATE SCHEMA other AUTHORIZATION other_owner;

	-- ok: daily children around now, maintained
	CREATE TABLE app.events (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
	ALTER TABLE app.events OWNER TO app_owner;
	SELECT partmgr.create_parent('app.events', 'ts', '1 day');

	-- critical: a row in the default partition, and maintenance fails on a
	-- table of another role that holds the name of the next child
	CREATE TABLE app.ids (id bigint NOT NULL) PARTITION BY RANGE (id);
	ALTER TABLE app.ids OWNER TO app_owner;
	SELECT partmgr.create_parent('app.ids', 'id', '10', p_premake => 2);
	INSERT INTO app.ids VALUES (5), (25), (1000);
	CREATE TABLE app.ids_p30 (id bigint NOT NULL);
	ALTER TABLE app.ids_p30 OWNER TO other_owner;

	-- warning (after maintenance): three children past retention
	CREATE TABLE reports.counts (id bigint NOT NULL) PARTITION BY RANGE (id);
	ALTER TABLE reports.counts OWNER TO reports_owner;
	SELECT partmgr.create_parent('reports.counts', 'id', '10', p_premake => 1,
								 p_default_table => false);
	SELECT partmgr.create_partition_id('reports.counts', ARRAY[20, 30, 40, 50]::bigint[]);
	INSERT INTO reports.counts VALUES (1), (55);

	-- an owner the monitoring role is no member of
	CREATE TABLE other.hidden (id bigint NOT NULL) PARTITION BY RANGE (id);
	ALTER TABLE other.hidden OWNER TO other_owner;
	SELECT partmgr.create_parent('other.hidden', 'id', '10');
});
# told by WARNING only, so that the others' work stays (an ERROR at the end
# would roll the call's transaction back)
my ($ret, $out, $err) = $node->psql('postgres',
	'SET pg_partmgr.on_set_failure = warning; SELECT partmgr.run_maintenance()');
like($err, qr/maintenance of partition set "app.ids" failed: relation "app.ids_p30" already exists/,
	'maintenance of app.ids fails, the others run');
$node->safe_psql('postgres', q{
	UPDATE partmgr.part_config SET retention = '20' WHERE parent_table = 'reports.counts';
	ANALYZE app.ids;
});

# the monitoring role, with the documented grants; and one with pg_monitor only
$node->safe_psql('postgres', join(";\n", @grant_statements));
$node->safe_psql('postgres', q{
	CREATE ROLE plain_monitor LOGIN IN ROLE pg_monitor;
	GRANT USAGE ON SCHEMA partmgr TO plain_monitor;
	GRANT SELECT ON partmgr.health, partmgr.part_config, partmgr.maintenance_log
	   TO plain_monitor;
});
is( $node->safe_psql('postgres', q{
		SELECT rolsuper OR rolcreaterole OR rolbypassrls FROM pg_roles WHERE rolname = 'partmgr_monitor'}),
	'f', 'the monitoring role is a plain role');

# rows of a namespace's query as a role: parent_table => { column => value }
# (numbers as text, NULL as undef), and the columns returned
sub rows_as
{
	my ($role, $ns) = @_;
	my $json = $node->safe_psql('postgres',
		"SELECT row_to_json(q) FROM (\n$ns->{query}\n) q",
		extra_params => [ '-U', $role ]);
	my (%rows, %columns);
	for my $line (grep { /\S/ } split /\n/, $json)
	{
		my $row = JSON::PP->new->allow_bignum->decode($line);
		$columns{$_} = 1 for keys %$row;
		$rows{ $row->{parent_table} } =
		  { map { $_ => (defined $row->{$_} ? "$row->{$_}" : undef) } keys %$row };
	}
	return (\%rows, [ sort keys %columns ]);
}

my $pm = $ns{pg_partmgr};
my ($rows, $columns) = rows_as('partmgr_monitor', $pm);
is("@$columns", join(' ', sort @{ $pm->{columns} }),
	'the query returns exactly the declared columns (no undeclared, untyped metric)');
is(join(',', sort keys %$rows), 'app.events,app.ids,reports.counts',
	'the monitoring role sees the sets of the owners it is a member of, not other.hidden');
is( $node->safe_psql('postgres', 'SELECT count(*) FROM partmgr.health'), '4',
	'a superuser sees all four');
my ($plain_rows) = rows_as('plain_monitor', $pm);
is(scalar(keys %$plain_rows), 0, 'pg_monitor without membership of the owners sees no set');

# each documented grant is needed: without it the query fails
my ($select_grant) = grep { /^GRANT SELECT ON / } @grant_statements;
my ($granted) = ($select_grant // '') =~ /^GRANT SELECT ON (.*) TO partmgr_monitor$/;
for my $object ('SCHEMA partmgr', map { "TABLE $_" } split /\s*,\s*/, $granted // '')
{
	my $right = $object =~ /^SCHEMA/ ? 'USAGE' : 'SELECT';
	$node->safe_psql('postgres', "REVOKE $right ON $object FROM partmgr_monitor");
	my ($ret, $out, $err) = $node->psql('postgres', $pm->{query}, extra_params => [ '-U', 'partmgr_monitor' ]);
	like($err, qr/permission denied/, "without $right on $object the query fails");
	$node->safe_psql('postgres', "GRANT $right ON $object TO partmgr_monitor");
}

my $events_children = $node->safe_psql('postgres',
	q{SELECT count(*) FROM partmgr.show_partitions('app.events')});
# an id set's runs_out_at is an estimate from the pace of its last runs:
# whatever health says, as seconds from now, or NULL
my $counts_runs_out = $node->safe_psql('postgres', q{
	SELECT runs_out_at IS NULL FROM partmgr.health WHERE parent_table = 'reports.counts'}) eq 't'
  ? undef
  : sub { my $v = shift; defined $v && $v =~ /^-?[0-9.]+$/ };
my $finite_age = sub { my $v = shift; defined $v && $v =~ /^[0-9.]+$/ && $v >= 0 && $v < 600 };
my $inf = sub { my $v = shift; defined $v && $v eq 'Infinity' };
my %expected = (
	'app.events' => {
		datname => 'postgres', parent_table => 'app.events',
		children => $events_children,
		# four days and the rest of today, rounded to a tenth: 4 late in the day
		intervals_left => sub { my $v = shift; defined $v && $v >= 4 && $v <= 5 },
		runs_out_in_seconds => sub { my $v = shift; defined $v && $v > 4 * 86400 && $v <= 5 * 86400 },
		default_rows => 0, expired_children => 0,
		status_code => 0, status_ok => 1, status_warning => 0, status_critical => 0,
		last_run_age_seconds => $finite_age,
		last_error_age_seconds => $inf,
		error_since_last_run => 0,
	},
	'app.ids' => {
		datname => 'postgres', parent_table => 'app.ids',
		children => 3,
		intervals_left => 0.5,
		runs_out_in_seconds => undef,
		default_rows => 1, expired_children => 0,
		status_code => 2, status_ok => 0, status_warning => 0, status_critical => 1,
		last_run_age_seconds => $inf,
		last_error_age_seconds => $finite_age,
		error_since_last_run => 1,
	},
	'reports.counts' => {
		datname => 'postgres', parent_table => 'reports.counts',
		children => 7,
		intervals_left => 1.5,
		runs_out_in_seconds => $counts_runs_out,
		default_rows => 0, expired_children => 3,
		status_code => 1, status_ok => 0, status_warning => 1, status_critical => 0,
		last_run_age_seconds => $finite_age,
		last_error_age_seconds => $inf,
		error_since_last_run => 0,
	},
);
for my $set (sort keys %expected)
{
	for my $column (@{ $pm->{columns} })
	{
		ok(exists $expected{$set}{$column}, "the test expects a value of $column");
		my $want = $expected{$set}{$column};
		my $got = $rows->{$set}{$column};
		if (ref $want eq 'CODE')
		{
			ok($want->($got), "$set $column: " . ($got // 'NULL') . ' as expected');
		}
		elsif (!defined $want)
		{
			ok(!defined $got, "$set $column: NULL (NaN in Prometheus)");
		}
		elsif ($want =~ /^[0-9.]+$/)
		{
			ok(defined $got && $got == $want, "$set $column: " . ($got // 'NULL') . " = $want");
		}
		else
		{
			is($got, $want, "$set $column");
		}
	}
}
is( $node->safe_psql('postgres', q{
		SELECT string_agg(parent_table || '=' || status, ',' ORDER BY parent_table) FROM partmgr.health
		 WHERE parent_table <> 'other.hidden'}),
	'app.events=ok,app.ids=critical,reports.counts=warning',
	'the status codes are those of partmgr.health as a superuser reads it');

# --- the real exporter ----------------------------------------------------
# PARTMGR_TEST_EXPORTER names the binary (empty: skip); else PATH and /usr/bin
my ($exporter) = defined $ENV{PARTMGR_TEST_EXPORTER}
  ? grep { length && -x } ($ENV{PARTMGR_TEST_EXPORTER})
  : grep { -x }
  map { my $d = $_; map { "$d/$_" } qw(prometheus-postgres-exporter postgres_exporter) }
  (split(/:/, $ENV{PATH} // ''), '/usr/bin');

SKIP:
{
	skip 'no prometheus-postgres-exporter binary (Debian package prometheus-postgres-exporter)', 1
	  unless $exporter;

	my $port = PostgreSQL::Test::Cluster::get_free_port();
	my $log = "$PostgreSQL::Test::Utils::tmp_check/exporter.log";
	local $ENV{DATA_SOURCE_NAME} = sprintf('host=%s port=%d user=partmgr_monitor dbname=postgres sslmode=disable',
		$node->host, $node->port);
	my $h = IPC::Run::start(
		[
			$exporter, "--web.listen-address=127.0.0.1:$port",
			"--extend.query-path=$yaml_file", '--disable-default-metrics',
			'--disable-settings-metrics', '--no-collector.database',
			'--no-collector.bgwriter'
		],
		'<', \undef, '>', $log, '2>&1');
	note "$exporter on 127.0.0.1:$port, log in $log";

	# scrape until the three sets are there (the first scrapes may come
	# before the exporter listens or has connected)
	my $http = HTTP::Tiny->new(timeout => 10);
	my $text = '';
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	while (time < $deadline && $h->pumpable)
	{
		my $res = $http->get("http://127.0.0.1:$port/metrics");
		if ($res->{success})
		{
			$text = $res->{content};
			my $series = () = $text =~ /^pg_partmgr_status_code\{/mg;
			last if $series == 3;
			last if $text =~ /^pg_exporter_user_queries_load_error\{.*\} 1$/m;	# no use waiting
		}
		usleep(200_000);
	}
	ok($h->pumpable, 'the exporter is running') or diag(slurp_file($log));

	# name => [ { labels => {...}, value => '...' } ], HELP and TYPE lines
	my (%metrics, %help, %type);
	for (split /\n/, $text)
	{
		if (/^# HELP (\S+) (.*)$/) { $help{$1} = $2; next; }
		if (/^# TYPE (\S+) (\S+)$/) { $type{$1} = $2; next; }
		next unless /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/;
		my ($name, $labels, $value) = ($1, $2 // '', $3);
		my %l;
		$l{$1} = $2 while $labels =~ /(\w+)="((?:[^"\\]|\\.)*)"/g;
		push @{ $metrics{$name} }, { labels => \%l, value => $value };
	}
	my ($load_error) = map { $_->{value} } @{ $metrics{pg_exporter_user_queries_load_error} || [] };
	is($load_error, '0', 'the exporter loads the queries file');
	is($metrics{pg_exporter_last_scrape_error}[0]{value}, '0', 'and scrapes without an error');

	# what the query returns now, to compare with what was scraped
	my ($now_rows) = rows_as('partmgr_monitor', $pm);
	for my $column (grep { $pm->{usage}{$_} eq 'GAUGE' } @{ $pm->{columns} })
	{
		my $name = "pg_partmgr_$column";
		is($type{$name}, 'gauge', "$name is a gauge");
		is($help{$name}, $pm->{description}{$column}, "$name has the file's description");
		my %by_set = map { $_->{labels}{parent_table} => $_ } @{ $metrics{$name} || [] };
		is(join(',', sort keys %by_set), 'app.events,app.ids,reports.counts',
			"$name: one series per set the role may see");
		for my $set (sort keys %by_set)
		{
			my $m = $by_set{$set};
			is($m->{labels}{datname}, 'postgres', "$name\{$set\}: labelled with the database");
			my $sql = $now_rows->{$set}{$column};
			my $v = $m->{value};
			if (!defined $sql)
			{
				is($v, 'NaN', "$name\{$set\}: NaN for NULL");
			}
			elsif ($sql eq 'Infinity')
			{
				is($v, '+Inf', "$name\{$set\}: +Inf");
			}
			elsif ($column =~ /_seconds$/)
			{
				ok($v =~ /^-?[0-9.e+]+$/ && abs($v - $sql) < 600,
					"$name\{$set\}: $v, as the query says ($sql) a moment later");
			}
			else
			{
				ok($v =~ /^-?[0-9.e+]+$/ && $v == $sql, "$name\{$set\}: $v = $sql");
			}
		}
	}
	ok(!exists $metrics{pg_partmgr_parent_table} && !exists $metrics{pg_partmgr_datname},
		'labels are not exported as metrics');
	unlike($text, qr/other\.hidden/, 'the set of another owner is not exported');

	$h->kill_kill;
	ok(!$h->pumpable, 'the exporter is stopped');
}

$node->stop;
done_testing();
