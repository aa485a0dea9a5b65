#
# Archive sets under load, across a crash, and through pg_dump:
#
# - a daily set archives into a monthly set (rows moved) and then into a
#   daily one (children attached as they are), carried out by the
#   background worker while a writer inserts into the set, also into the
#   expired days (each row mirrored in a plain table in the same
#   transaction), and a reader counts, in every statement, the rows of a
#   view over the three sets against the mirror: no write fails, the
#   reader never saw a row missing or twice, and at the end the view holds
#   exactly the rows committed;
# - the backend moving an expired child's rows into the archive is killed
#   (kill -9) while it waits for a lock on the archive's child: every row
#   is there once, the child is still in the set, and the next run
#   archives it; amcheck finds both sets sound;
# - pg_dump and pg_restore into another database: the archive comes back
#   and the restored set archives its next expired child.
#
# Waits are for a state (pg_locks, the log), never for a while.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('archive');
$node->init;
$node->append_conf('postgresql.conf', q{
timezone = 'UTC'
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.enabled = off
restart_after_crash = on
max_locks_per_transaction = 256
});
$node->start;

# a daily set from 12 days ago, 1000 rows a day; a monthly archive with
# its columns in another order, and a daily one; all a plain role's
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_partmgr;
	CREATE EXTENSION amcheck;
	CREATE ROLE ar_owner;
	GRANT USAGE ON SCHEMA partmgr TO ar_owner;
	CREATE SCHEMA app AUTHORIZATION ar_owner;
	SET ROLE ar_owner;
	CREATE TABLE app.ev (id bigint NOT NULL, ts timestamptz NOT NULL, v int NOT NULL,
						 PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
	CREATE INDEX ev_v_idx ON app.ev (v);
	CREATE TABLE app.ev_month (v int NOT NULL, id bigint NOT NULL, ts timestamptz NOT NULL,
							   PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
	CREATE TABLE app.ev_day (id bigint NOT NULL, ts timestamptz NOT NULL, v int NOT NULL,
							 PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
	CREATE VIEW app.everything AS
		SELECT id, ts, v FROM app.ev UNION ALL SELECT id, ts, v FROM app.ev_month
		UNION ALL SELECT id, ts, v FROM app.ev_day;
	RESET ROLE;
	SELECT partmgr.create_parent('app.ev', 'ts', '1 day', p_premake => 2,
								 p_start_partition => (current_date - 12)::text);
	SELECT partmgr.create_parent('app.ev_month', 'ts', '1 month', p_premake => 1);
	SELECT partmgr.create_parent('app.ev_day', 'ts', '1 day', p_premake => 1);
	CREATE TABLE public.mirror (id bigint PRIMARY KEY, ts timestamptz NOT NULL);
	INSERT INTO app.ev SELECT g, (current_date - 12)::timestamptz + (g % 13) * interval '1 day'
								 + (g % 1440) * interval '1 minute', g
	  FROM generate_series(1, 13000) g;
	INSERT INTO public.mirror SELECT id, ts FROM app.ev;
	INSERT INTO partmgr.part_config_archive VALUES ('app.ev', 'app.ev_month');
});

my $rows = q{SELECT count(*) || ' rows, ' || count(DISTINCT id) || ' ids, ' || sum(hashtextextended(e::text, 0))
			   FROM app.everything e};
my $expired = sub {
	my ($days) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT string_agg(c.relname, ' ' ORDER BY c.relname COLLATE "C")
		  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		 WHERE i.inhparent = 'app.ev'::regclass AND c.relname <> 'ev_default'
		   AND to_date(CASE WHEN c.relname ~ '^ev_p\\d{8}\$' THEN substr(c.relname, 5) END, 'YYYYMMDD') + 1
			   < now() - interval '$days days'});
};

# == the worker archives under a writer and a reader ==
$node->safe_psql('postgres', q{
	CREATE TABLE public.control (stop boolean NOT NULL);
	INSERT INTO public.control VALUES (false);
	CREATE TABLE public.results (who text, rounds bigint, bad int, first text);
	CREATE PROCEDURE public.writer() LANGUAGE plpgsql AS $$
	DECLARE
		i bigint := 0;
		errors int := 0;
		last text;
		t timestamptz;
	BEGIN
		LOOP
			EXIT WHEN (SELECT stop FROM public.control);
			i := i + 1;
			-- today, and one of the days that expire
			t := CASE WHEN i % 2 = 0 THEN now()
					  ELSE current_date - 11 + (i % 1440) * interval '1 minute' END;
			BEGIN
				INSERT INTO app.ev VALUES (1000000 + i, t, i);
				INSERT INTO public.mirror VALUES (1000000 + i, t);
			EXCEPTION WHEN OTHERS THEN
				errors := errors + 1;
				last := SQLSTATE || ': ' || SQLERRM;
			END;
			COMMIT;
		END LOOP;
		INSERT INTO public.results VALUES ('writer', i, errors, last);
	END
	$$;
	CREATE PROCEDURE public.reader() LANGUAGE plpgsql AS $$
	DECLARE
		n bigint := 0;
		bad int := 0;
		first text;
		seen text;
	BEGIN
		LOOP
			EXIT WHEN (SELECT stop FROM public.control);
			SELECT CASE WHEN e.total <> m.total OR e.ids <> m.total
						THEN e.total || ' rows (' || e.ids || ' ids) in the sets, ' || m.total || ' committed' END
			  INTO seen
			  FROM (SELECT count(*) AS total, count(DISTINCT id) AS ids FROM app.everything) e,
				   (SELECT count(*) AS total FROM public.mirror) m;
			n := n + 1;
			IF seen IS NOT NULL THEN
				bad := bad + 1;
				first := coalesce(first, seen);
			END IF;
			COMMIT;
			PERFORM pg_sleep(0.01);
		END LOOP;
		INSERT INTO public.results VALUES ('reader', n, bad, first);
	END
	$$;
});
my $writer = $node->background_psql('postgres', on_error_stop => 0);
$writer->query_until(qr/started/, "\\echo started\nCALL public.writer();\n");
my $reader = $node->background_psql('postgres', on_error_stop => 0);
$reader->query_until(qr/started/, "\\echo started\nCALL public.reader();\n");
ok($node->poll_query_until('postgres', 'SELECT count(*) > 13100 FROM public.mirror'),
	'the writer is writing');

# rows into the monthly archive: the children older than 9 days (one of
# them written into by the writer)
my $by_rows = $expired->(9);
my @by_rows = split / /, $by_rows;
ok(@by_rows >= 2, "children have expired at 9 days: $by_rows");
$node->safe_psql('postgres', q{UPDATE partmgr.part_config SET retention = '9 days' WHERE parent_table = 'app.ev'});
$node->append_conf('postgresql.conf', q{
pg_partmgr.enabled = on
pg_partmgr.interval = 1
pg_partmgr.lock_timeout = '2s'
});
$node->reload;
ok($node->poll_query_until('postgres', q{
		SELECT count(*) = } . scalar(@by_rows) . q{ FROM partmgr.maintenance_log
		 WHERE action = 'archive partition' AND outcome = 'done' AND run_by = 'worker'}),
	'the background worker archives them');
is($node->safe_psql('postgres', q{
		SELECT string_agg(object, ' ' ORDER BY object) FROM partmgr.maintenance_log
		 WHERE action = 'move rows' AND detail LIKE 'into app.ev_month%' AND outcome = 'done'}),
	join(' ', map { "app.$_" } @by_rows), 'their rows moved into the monthly archive first');
is($node->safe_psql('postgres', qq{SELECT count(*) FROM pg_class WHERE relname IN ('} . join("','", @by_rows) . q{')}),
	'0', 'and the emptied children are dropped');

# then children attached as they are to the daily archive: older than 7 days
$node->safe_psql('postgres', q{UPDATE partmgr.part_config_archive SET archive_table = 'app.ev_day'});
my $attached = $expired->(7);
my @attached = split / /, $attached;
ok(@attached >= 2, "more have expired at 7 days: $attached");
my $oids = $node->safe_psql('postgres', qq{
	SELECT string_agg(oid::text, ' ' ORDER BY relname COLLATE "C") FROM pg_class
	 WHERE relname IN ('} . join("','", @attached) . q{') AND relnamespace = 'app'::regnamespace});
$node->safe_psql('postgres', q{UPDATE partmgr.part_config SET retention = '7 days' WHERE parent_table = 'app.ev'});
ok($node->poll_query_until('postgres', q{
		SELECT count(*) = } . scalar(@attached) . q{ FROM partmgr.maintenance_log
		 WHERE action = 'archive partition' AND outcome = 'done' AND detail LIKE '%attached to app.ev_day as %'}),
	'the worker attaches them to the daily archive');
my $since = $node->safe_psql('postgres', 'SELECT count(*) FROM public.mirror');
ok($node->poll_query_until('postgres', "SELECT count(*) > $since + 20 FROM public.mirror"),
	'the writer goes on writing');
$node->safe_psql('postgres', 'UPDATE public.control SET stop = true');
$writer->quit;
$reader->quit;
$node->append_conf('postgresql.conf', 'pg_partmgr.enabled = off');
$node->reload;
is($node->safe_psql('postgres', qq{
		SELECT string_agg(c.oid::text, ' ' ORDER BY c.relname COLLATE "C")
		  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		 WHERE i.inhparent = 'app.ev_day'::regclass
		   AND c.relname IN ('} . join("','", map { s/^ev_/ev_day_/r } @attached) . q{')}),
	$oids, 'the same tables are children of the daily archive, under its names');
my ($wrounds, $werrors, $wlast) = split /\|/,
  $node->safe_psql('postgres', q{SELECT rounds, bad, first FROM public.results WHERE who = 'writer'});
is($werrors, '0', "no write failed ($wrounds rounds" . ($wlast ? ", last error: $wlast" : '') . ')');
my ($rrounds, $rbad, $rfirst) = split /\|/,
  $node->safe_psql('postgres', q{SELECT rounds, bad, first FROM public.results WHERE who = 'reader'});
is($rbad, '0', "the reader saw every committed row once in each of its $rrounds reads" . ($rfirst ? " (first: $rfirst)" : ''));
is($node->safe_psql('postgres', q{
		SELECT (SELECT count(*) FROM (SELECT id, ts FROM public.mirror
									  EXCEPT ALL SELECT id, ts FROM app.everything) a) || ' missing, ' ||
			   (SELECT count(*) FROM (SELECT id, ts FROM app.everything
									  EXCEPT ALL SELECT id, ts FROM public.mirror) b) || ' in excess'}),
	'0 missing, 0 in excess', 'the three sets hold exactly the rows the writer committed');

# == kill -9 while an expired child's rows move into the archive ==
$node->safe_psql('postgres', q{UPDATE partmgr.part_config_archive SET archive_table = 'app.ev_month'});
my $victim = $expired->(6);
is(scalar(split / /, $victim), 1, "one more child expires at 6 days: $victim");
my $month_child = $node->safe_psql('postgres', qq{
	SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	 WHERE i.inhparent = 'app.ev_month'::regclass AND c.relname <> 'ev_month_default'
	   AND to_date(CASE WHEN c.relname ~ '^ev_month_p\\d{8}\$' THEN substr(c.relname, 11) END, 'YYYYMMDD') = date_trunc('month', to_date(substr('$victim', 5), 'YYYYMMDD'))});
my $before = $node->safe_psql('postgres', $rows);
$node->safe_psql('postgres', q{UPDATE partmgr.part_config SET retention = '6 days' WHERE parent_table = 'app.ev'});
my $blocker = $node->background_psql('postgres', on_error_stop => 0);
$blocker->query_safe("BEGIN; LOCK TABLE app.$month_child IN SHARE MODE;");
my $driver = $node->background_psql('postgres', on_error_stop => 0);
my $pid = $driver->query_safe(q{SET pg_partmgr.lock_timeout = '5min'; SELECT pg_backend_pid();});
$driver->query_until(qr/started/, "\\echo started\nCALL partmgr.run_maintenance_proc();\n");
ok($node->poll_query_until('postgres', qq{
		SELECT count(*) > 0 FROM pg_locks
		 WHERE pid = $pid AND NOT granted AND relation = 'app.$month_child'::regclass}),
	"the move of ${victim}'s rows waits for the archive's child $month_child");
my $offset = -s $node->logfile;
kill 'KILL', $pid;
$node->wait_for_log(qr/terminated by signal 9: Killed/, $offset);
eval { $_->quit; } for ($driver, $blocker);
ok($node->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()'), 'the server restarted after the crash');
is($node->safe_psql('postgres', $rows), $before, 'after the crash every row is there once');
is($node->safe_psql('postgres', "SELECT count(*) FROM ONLY app.$victim") > 0 ? 'rows' : 'empty', 'rows',
	"$victim is still in the set with its rows");
$node->safe_psql('postgres', q{CALL partmgr.run_maintenance_proc()});
is($node->safe_psql('postgres', "SELECT to_regclass('app.$victim') IS NULL"), 't',
	'the next run archives it');
is($node->safe_psql('postgres', $rows), $before, 'every row is there once, unchanged');
my $amcheck = q{
	SELECT (SELECT count(bt_index_check(i.indexrelid, true))
			  FROM pg_partition_tree(p) t JOIN pg_index i ON i.indrelid = t.relid WHERE t.isleaf)
		   || ' indexes, '
		   || (SELECT count(*) FROM pg_partition_tree(p) t, LATERAL verify_heapam(t.relid) v WHERE t.isleaf)
		   || ' heap problems'
	  FROM (VALUES ('app.ev'::regclass), ('app.ev_month'), ('app.ev_day')) s(p)};
like($node->safe_psql('postgres', $amcheck), qr/^(\d+ indexes, 0 heap problems\n?){3}$/,
	'amcheck finds the indexes and heaps of the three sets sound');

# == pg_dump and pg_restore ==
$node->safe_psql('postgres', 'CREATE DATABASE restored');
my $dump = $node->basedir . '/archive.dump';
$node->command_ok(['pg_dump', '-Fc', '-f', $dump, '-d', $node->connstr('postgres')],
	'pg_dump of the sets with the archive');
$node->command_ok(['pg_restore', '-d', $node->connstr('restored'), $dump], 'and pg_restore');
is($node->safe_psql('restored', q{SELECT parent_table || ' ' || archive_table FROM partmgr.part_config_archive}),
	'app.ev app.ev_month', 'the archive comes back');
is($node->safe_psql('restored', $rows), $node->safe_psql('postgres', $rows), 'with every row');
my $next = $expired->(5);
$node->safe_psql('restored', q{UPDATE partmgr.part_config SET retention = '5 days' WHERE parent_table = 'app.ev'});
$node->safe_psql('restored', q{SELECT partmgr.run_maintenance('app.ev')});
is($node->safe_psql('restored', "SELECT to_regclass('app.$next') IS NULL"), 't',
	"the restored set archives $next");
is($node->safe_psql('restored', $rows), $node->safe_psql('postgres', $rows), 'and keeps every row');

$node->stop;
done_testing();
