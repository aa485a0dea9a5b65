#
# Storage tiers with real tablespaces (directories of the test's):
#
# - a daily set with a warm tier (3 days) and a cold one (8 days):
#   plan_maintenance() shows the move maintenance registers next;
#   run_maintenance() registers it and moves nothing; a
#   run_maintenance_proc() whose pg_partmgr.tier_bytes_per_run is two
#   blocks copies about that much and stops, the move in phase copy; then
#   run_maintenance_proc() puts every child and its indexes in its tier,
#   one move after the other, each logged with its rows and bytes; every
#   row is there once; a child made for old rows is made in its tier;
# - the background worker carries out a move (a tier made younger) while a
#   writer inserts into and updates the child being moved (each change
#   mirrored in a plain table in the same transaction) and a reader
#   compares the two in every statement: no write fails, the set and the
#   mirror agree, the reader never saw a row missing or twice;
# - the backend carrying out a move is killed (kill -9) in the middle of
#   its copy: every row is there once, the move is still registered in
#   phase copy, and the next run finishes it; amcheck finds the set sound;
# - the owner loses CREATE on a tier's tablespace: health warns with the
#   GRANT and no move into it is registered; a tier whose tablespace is
#   dropped: health warns;
# - pg_dump and pg_restore of the set into another database: its tiers
#   come back, its children in their tablespaces, and nothing is to move.
#
# Waits are for a state (pg_locks, reshape_operation, the log), never for
# a while.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('tiers');
$node->init;
$node->append_conf('postgresql.conf', q{
timezone = 'UTC'
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.enabled = off
restart_after_crash = on
max_locks_per_transaction = 256
});
$node->start;

my ($warm, $cold, $spare) = map { PostgreSQL::Test::Utils::tempdir() } 1 .. 3;
$node->safe_psql('postgres', qq{
	CREATE TABLESPACE tr_warm LOCATION '$warm';
	CREATE TABLESPACE tr_cold LOCATION '$cold';
	CREATE TABLESPACE tr_spare LOCATION '$spare';
});

# Daily children from 14 days ago, 3000 rows a day (and some today); a
# primary key (id, ts) and an index on v; the set belongs to a plain role.
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_partmgr;
	CREATE EXTENSION amcheck;
	CREATE ROLE tr_owner;
	GRANT CREATE ON TABLESPACE tr_warm, tr_cold, tr_spare TO tr_owner;
	GRANT USAGE ON SCHEMA partmgr TO tr_owner;
	CREATE SCHEMA app AUTHORIZATION tr_owner;
	CREATE TABLE app.ev (id bigint NOT NULL, ts timestamptz NOT NULL, v int NOT NULL, pad text,
						 PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
	CREATE INDEX ev_v_idx ON app.ev (v);
	ALTER TABLE app.ev OWNER TO tr_owner;
	SELECT partmgr.create_parent('app.ev', 'ts', '1 day', p_premake => 2,
								 p_start_partition => (current_date - 14)::text);
	INSERT INTO app.ev
	SELECT g, (current_date - 14)::timestamptz + (g % 15) * interval '1 day' + (g % 1440) * interval '1 minute',
		   g, md5(g::text)
	  FROM generate_series(1, 45000) g
	 WHERE (current_date - 14)::timestamptz + (g % 15) * interval '1 day' + (g % 1440) * interval '1 minute' < now();
	ANALYZE app.ev;
	INSERT INTO partmgr.part_config_tier VALUES ('app.ev', 'warm', '3 days', 'tr_warm'),
												('app.ev', 'cold', '8 days', 'tr_cold');
});

# where each child and its indexes are, by the child's age in days
my $places = q{
	SELECT string_agg(p.relname || ':' || p.spc, ' ' ORDER BY p.relname COLLATE "C")
	  FROM (SELECT c.relname,
				   string_agg(DISTINCT coalesce(t.spcname, 'default'), '+') AS spc
			  FROM pg_inherits i
			  JOIN pg_class c ON c.oid = i.inhrelid
			  JOIN pg_class x ON x.oid = c.oid
							 OR x.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = c.oid)
			  LEFT JOIN pg_tablespace t ON t.oid = x.reltablespace
			 WHERE i.inhparent = 'app.ev'::regclass
			 GROUP BY c.relname) p};

# where each child should be: cold when its upper bound is more than 8
# days old, warm more than 3, else the parent's
my $expected = q{
	SELECT string_agg(c.relname || ':' ||
					  CASE WHEN c.relname = 'ev_default' THEN 'default'
						   WHEN to_date(substr(c.relname, 5), 'YYYYMMDD') + 1 < now() - interval '8 days' THEN 'tr_cold'
						   WHEN to_date(substr(c.relname, 5), 'YYYYMMDD') + 1 < now() - interval '3 days' THEN 'tr_warm'
						   ELSE 'default' END, ' ' ORDER BY c.relname COLLATE "C")
	  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	 WHERE i.inhparent = 'app.ev'::regclass};

my $rows = q{SELECT count(*) || ' rows, ' || sum(hashtextextended(e::text, 0)) FROM app.ev e};
my $before = $node->safe_psql('postgres', $rows);

# == what a run will do, and run_maintenance(), which only registers ==
my $oldest = $node->safe_psql('postgres', q{
	SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	 WHERE i.inhparent = 'app.ev'::regclass AND c.relname <> 'ev_default'
	 ORDER BY c.relname LIMIT 1});
is($node->safe_psql('postgres', q{
		SELECT object || ' ' || detail FROM partmgr.plan_maintenance('app.ev') WHERE action = 'register move'}),
	"app.$oldest into tablespace tr_cold (tier cold)",
	'plan_maintenance shows the move of the oldest child into the cold tier');
$node->safe_psql('postgres', q{SELECT partmgr.run_maintenance('app.ev')});
is($node->safe_psql('postgres', q{
		SELECT kind || ' ' || source_tables[1] || ' ' || target_tablespace || ' ' || phase
		  FROM partmgr.reshape_operation}),
	"move app.$oldest tr_cold planned", 'run_maintenance() registers it');
like($node->safe_psql('postgres', $places), qr/^ev_default:default ev_p\d+:default /,
	'and moves nothing');

# == a run paced by pg_partmgr.tier_bytes_per_run ==
$node->safe_psql('postgres', q{SET pg_partmgr.tier_bytes_per_run = '16kB'; CALL partmgr.run_maintenance_proc()});
my ($phase, $copied) = split / /, $node->safe_psql('postgres', q{
	SELECT phase || ' ' || rows_copied FROM partmgr.reshape_operation});
is($phase, 'copy', 'a run with a budget of two blocks leaves the move in its copy');
ok($copied > 0 && $copied < 3000, "having copied about two blocks of rows ($copied)");

# == runs put every child in its tier ==
$node->safe_psql('postgres', q{CALL partmgr.run_maintenance_proc()});
is($node->safe_psql('postgres', $places), $node->safe_psql('postgres', $expected),
	'run_maintenance_proc puts every child and its indexes in its tier, the young ones where they were');
is($node->safe_psql('postgres', 'SELECT count(*) FROM partmgr.reshape_operation'), '0',
	'no move is left registered');
is($node->safe_psql('postgres', $rows), $before, 'every row is there once');
my $moved = $node->safe_psql('postgres', q{
	SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	 WHERE i.inhparent = 'app.ev'::regclass AND c.reltablespace <> 0});
is($node->safe_psql('postgres', q{
		SELECT count(*) FROM partmgr.maintenance_log
		 WHERE parent_table = 'app.ev' AND action = 'move partition'
		   AND detail ~ '^\d+ rows copied and \d+ changes applied into tablespace tr_(warm|cold): \d+ bytes'}),
	$moved, "each of the $moved moves is logged with its rows and bytes");
is($node->safe_psql('postgres', q{
		SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		 WHERE i.inhparent = 'app.ev'::regclass AND c.relowner <> 'tr_owner'::regrole}), '0',
	'the moved children belong to the owner');
is($node->safe_psql('postgres', q{SELECT status FROM partmgr.health WHERE parent_table = 'app.ev'}), 'ok',
	'health: ok');

# a child made for old rows is made in its tier
my $gap = $node->safe_psql('postgres', q{
	SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	  JOIN pg_tablespace t ON t.oid = c.reltablespace
	 WHERE i.inhparent = 'app.ev'::regclass AND t.spcname = 'tr_warm' ORDER BY 1 LIMIT 1});
my $gap_rows = $node->safe_psql('postgres', "SELECT count(*) FROM app.$gap");
$node->safe_psql('postgres', qq{
	CREATE TABLE app.keep AS SELECT * FROM app.$gap;
	DROP TABLE app.$gap;
	INSERT INTO app.ev SELECT * FROM app.keep;
	DROP TABLE app.keep;
	SELECT partmgr.partition_data_time('app.ev');
});
is($node->safe_psql('postgres', qq{
		SELECT string_agg(DISTINCT coalesce(t.spcname, 'default'), '+') || ' ' ||
			   (SELECT count(*) FROM app.$gap)
		  FROM pg_class x LEFT JOIN pg_tablespace t ON t.oid = x.reltablespace
		 WHERE x.oid = 'app.$gap'::regclass
			OR x.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'app.$gap'::regclass)}),
	"tr_warm $gap_rows", 'partition_data_time makes a child for old rows in its tier, indexes and all');

# == the worker moves a child while a writer and a reader work on it ==
# the warm tier becomes 2 days: the child of 3 days ago moves while the
# writer inserts into it and updates it
my $target = $node->safe_psql('postgres', q{SELECT 'ev_p' || to_char(current_date - 3, 'YYYYMMDD')});
my $day = $node->safe_psql('postgres', q{SELECT (current_date - 3)::text});
$node->safe_psql('postgres', qq{
	CREATE TABLE public.mirror AS SELECT * FROM app.$target;
	ALTER TABLE public.mirror ADD PRIMARY KEY (id);
	CREATE TABLE public.control (stop boolean NOT NULL);
	INSERT INTO public.control VALUES (false);
	CREATE TABLE public.results (who text, rounds bigint, bad int, first text);
	CREATE PROCEDURE public.writer() LANGUAGE plpgsql AS \$\$
	DECLARE
		i bigint := 0;
		errors int := 0;
		last text;
	BEGIN
		LOOP
			EXIT WHEN (SELECT stop FROM public.control);
			i := i + 1;
			BEGIN
				INSERT INTO app.ev VALUES (10000000 + i, '$day'::timestamptz + (i % 1440) * interval '1 minute', i, 'w');
				INSERT INTO public.mirror VALUES (10000000 + i, '$day'::timestamptz + (i % 1440) * interval '1 minute', i, 'w');
				UPDATE app.ev SET v = v + 1 WHERE id = (SELECT min(id) + i % 100 FROM public.mirror)
				   AND ts >= '$day' AND ts < '$day'::timestamptz + interval '1 day';
				UPDATE public.mirror SET v = v + 1 WHERE id = (SELECT min(id) + i % 100 FROM public.mirror);
			EXCEPTION WHEN OTHERS THEN
				errors := errors + 1;
				last := SQLSTATE || ': ' || SQLERRM;
			END;
			COMMIT;
		END LOOP;
		INSERT INTO public.results VALUES ('writer', i, errors, last);
	END
	\$\$;
	CREATE PROCEDURE public.reader() LANGUAGE plpgsql AS \$\$
	DECLARE
		n bigint := 0;
		bad int := 0;
		first text;
		seen text;
	BEGIN
		LOOP
			EXIT WHEN (SELECT stop FROM public.control);
			SELECT CASE WHEN s IS DISTINCT FROM m THEN s || ' in the set, ' || m || ' in the mirror' END
			  INTO seen
			  FROM (SELECT count(*) || ' ' || coalesce(sum(v), 0) FROM app.ev
					 WHERE ts >= '$day' AND ts < '$day'::timestamptz + interval '1 day') a(s),
				   (SELECT count(*) || ' ' || coalesce(sum(v), 0) FROM public.mirror) b(m);
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
	\$\$;
});
my $writer = $node->background_psql('postgres', on_error_stop => 0);
$writer->query_until(qr/started/, "\\echo started\nCALL public.writer();\n");
my $reader = $node->background_psql('postgres', on_error_stop => 0);
$reader->query_until(qr/started/, "\\echo started\nCALL public.reader();\n");
ok($node->poll_query_until('postgres', 'SELECT count(*) > 50 FROM public.mirror WHERE pad = \'w\''),
	'the writer is writing');
$node->safe_psql('postgres', q{UPDATE partmgr.part_config_tier SET older_than = '2 days' WHERE tier_name = 'warm'});
$node->append_conf('postgresql.conf', q{
pg_partmgr.enabled = on
pg_partmgr.interval = 1
pg_partmgr.lock_timeout = '2s'
});
$node->reload;
ok($node->poll_query_until('postgres', qq{
		SELECT count(*) = 1 FROM partmgr.maintenance_log
		 WHERE action = 'move partition' AND object = 'app.$target' AND run_by = 'worker'}),
	"the background worker moves $target into the warm tier");
my $since = $node->safe_psql('postgres', 'SELECT count(*) FROM public.mirror');
ok($node->poll_query_until('postgres', "SELECT count(*) > $since + 20 FROM public.mirror"),
	'the writer goes on writing after the swap');
$node->safe_psql('postgres', 'UPDATE public.control SET stop = true');
$writer->quit;
$reader->quit;
$node->append_conf('postgresql.conf', 'pg_partmgr.enabled = off');
$node->reload;
my ($wrounds, $werrors, $wlast) = split /\|/,
  $node->safe_psql('postgres', q{SELECT rounds, bad, first FROM public.results WHERE who = 'writer'});
is($werrors, '0', "no write failed ($wrounds rounds" . ($wlast ? ", last error: $wlast" : '') . ')');
my ($rrounds, $rbad, $rfirst) = split /\|/,
  $node->safe_psql('postgres', q{SELECT rounds, bad, first FROM public.results WHERE who = 'reader'});
is($rbad, '0', "the reader saw every row once in each of its $rrounds reads" . ($rfirst ? " (first: $rfirst)" : ''));
is($node->safe_psql('postgres', qq{
		SELECT (SELECT count(*) FROM (SELECT id, ts, v, pad FROM public.mirror
									  EXCEPT ALL SELECT id, ts, v, pad FROM app.$target) a) || ' missing, ' ||
			   (SELECT count(*) FROM (SELECT id, ts, v, pad FROM app.$target
									  EXCEPT ALL SELECT id, ts, v, pad FROM public.mirror) b) || ' in excess'}),
	'0 missing, 0 in excess', 'the moved child holds exactly the rows the writer committed');
is($node->safe_psql('postgres', qq{
		SELECT string_agg(DISTINCT coalesce(t.spcname, 'default'), '+')
		  FROM pg_class x LEFT JOIN pg_tablespace t ON t.oid = x.reltablespace
		 WHERE x.oid = 'app.$target'::regclass
			OR x.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'app.$target'::regclass)}),
	'tr_warm', 'in the warm tier, with its indexes');

# == kill -9 in the middle of a move's copy ==
# the cold tier becomes 6 days; a session holds the new child of the move
# so that the copy waits for it, with pg_partmgr.lock_timeout raised
$node->safe_psql('postgres', q{UPDATE partmgr.part_config_tier SET older_than = '6 days' WHERE tier_name = 'cold'});
$before = $node->safe_psql('postgres', $rows);
$node->safe_psql('postgres', q{SELECT partmgr.run_maintenance('app.ev')});
my ($op, $child) = split /\|/, $node->safe_psql('postgres', q{
	SELECT operation_id, source_tables[1] FROM partmgr.reshape_operation});
ok(defined $op, "a move of $child is registered");
my $driver = $node->background_psql('postgres', on_error_stop => 0);
my $pid = $driver->query_safe(q{
	SET pg_partmgr.lock_timeout = '5min';
	SET pg_partmgr.tier_bytes_per_run = '16kB';
	SELECT pg_backend_pid();
});
$driver->query_safe(q{CALL partmgr.run_maintenance_proc()});
is($node->safe_psql('postgres', "SELECT phase FROM partmgr.reshape_operation WHERE operation_id = $op"),
	'copy', 'a paced run leaves the move in its copy');
my $blocker = $node->background_psql('postgres', on_error_stop => 0);
$blocker->query_safe("BEGIN; LOCK TABLE app.ev_reshape${op}_0 IN SHARE MODE;");
$driver->query_until(qr/started/, "\\echo started\nCALL partmgr.run_maintenance_proc();\n");
ok($node->poll_query_until('postgres', qq{
		SELECT count(*) > 0 FROM pg_locks
		 WHERE pid = $pid AND NOT granted AND relation = 'app.ev_reshape${op}_0'::regclass}),
	'the next copy step waits for the new child');
my $offset = -s $node->logfile;
kill 'KILL', $pid;
$node->wait_for_log(qr/terminated by signal 9: Killed/, $offset);
eval { $_->quit; } for ($driver, $blocker);
ok($node->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()'), 'the server restarted after the crash');
is($node->safe_psql('postgres', $rows), $before, 'after the crash every row is there once');
is($node->safe_psql('postgres', "SELECT phase FROM partmgr.reshape_operation WHERE operation_id = $op"),
	'copy', 'the move is still registered, in phase copy');
$node->safe_psql('postgres', q{CALL partmgr.run_maintenance_proc()});
is($node->safe_psql('postgres', 'SELECT count(*) FROM partmgr.reshape_operation'), '0',
	'the next run finishes the move');
is($node->safe_psql('postgres', $rows), $before, 'every row is there once, unchanged');
is($node->safe_psql('postgres', qq{
		SELECT string_agg(DISTINCT coalesce(t.spcname, 'default'), '+')
		  FROM pg_class x LEFT JOIN pg_tablespace t ON t.oid = x.reltablespace
		 WHERE x.oid = '$child'::regclass
			OR x.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = '$child'::regclass)}),
	'tr_cold', "$child is in the cold tier, with its indexes");
is($node->safe_psql('postgres', q{
		SELECT count(*) FROM pg_class WHERE relname LIKE 'ev\_reshape%'}), '0',
	'nothing of the move\'s work is left');
my $amcheck_expected = $node->safe_psql('postgres', q{
	SELECT count(*) || ' indexes checked, 0 heap problems'
	  FROM pg_partition_tree('app.ev') p JOIN pg_index i ON i.indrelid = p.relid WHERE p.isleaf});
is($node->safe_psql('postgres', q{
		SELECT (SELECT count(bt_index_check(i.indexrelid, true))
				  FROM pg_partition_tree('app.ev') p JOIN pg_index i ON i.indrelid = p.relid WHERE p.isleaf)
			   || ' indexes checked, '
			   || (SELECT count(*) FROM pg_partition_tree('app.ev') p, LATERAL verify_heapam(p.relid) v
					WHERE p.isleaf) || ' heap problems'}),
	$amcheck_expected, 'amcheck finds every index and heap of the set sound');

# == a tier the owner may not use any more, and one whose tablespace goes ==
$node->safe_psql('postgres', q{
	UPDATE partmgr.part_config_tier SET older_than = '5 days' WHERE tier_name = 'cold';
	REVOKE CREATE ON TABLESPACE tr_cold FROM tr_owner;
});
my ($rc, $out, $err) = $node->psql('postgres',
	q{UPDATE partmgr.part_config_tier SET older_than = '4 days' WHERE tier_name = 'cold'});
like($err, qr/ERROR:  the owner of "app.ev", tr_owner, may not create tables in tablespace "tr_cold"/,
	'a tier the owner may not use is refused when it is written');
like($node->safe_psql('postgres', q{SELECT status || ': ' || reason FROM partmgr.health WHERE parent_table = 'app.ev'}),
	qr/^(warning|critical): .*tier "cold": the owner lacks CREATE ON TABLESPACE tr_cold, so its children stay where they are \(GRANT CREATE ON TABLESPACE tr_cold TO tr_owner\)/,
	'health: the owner may not create in the cold tier\'s tablespace, with the GRANT');
is($node->safe_psql('postgres', q{
		SELECT count(*) FROM partmgr.plan_maintenance('app.ev') WHERE action = 'register move'}), '0',
	'and no move into it is planned');
$node->safe_psql('postgres', q{GRANT CREATE ON TABLESPACE tr_cold TO tr_owner});
$node->safe_psql('postgres', q{
	INSERT INTO partmgr.part_config_tier VALUES ('app.ev', 'attic', '60 days', 'tr_spare');
	DROP TABLESPACE tr_spare;
});
like($node->safe_psql('postgres', q{SELECT reason FROM partmgr.health WHERE parent_table = 'app.ev'}),
	qr/tier "attic": tablespace "tr_spare" does not exist, so its children stay where they are/,
	'health: a tier whose tablespace was dropped');
$node->safe_psql('postgres', q{DELETE FROM partmgr.part_config_tier WHERE tier_name = 'attic'});
$node->safe_psql('postgres', q{CALL partmgr.run_maintenance_proc()});

# == pg_dump and pg_restore ==
$node->safe_psql('postgres', 'CREATE DATABASE restored');
my $dump = $node->basedir . '/tiers.dump';
$node->command_ok(['pg_dump', '-Fc', '-f', $dump, '-d', $node->connstr('postgres')],
	'pg_dump of the set with its tiers');
$node->command_ok(['pg_restore', '-d', $node->connstr('restored'), $dump], 'and pg_restore');
is($node->safe_psql('restored', q{
		SELECT string_agg(tier_name || ' ' || older_than || ' ' || tablespace_name, ', ' ORDER BY tier_name)
		  FROM partmgr.part_config_tier}),
	'cold 5 days tr_cold, warm 2 days tr_warm', 'the tiers come back');
my $restored_places = $node->safe_psql('restored', $places);
is($restored_places, $node->safe_psql('postgres', $places), 'every child in its tablespace, as in the source');
is($node->safe_psql('restored', q{
		SELECT count(*) FROM partmgr.plan_maintenance('app.ev') WHERE action = 'register move'}), '0',
	'nothing is to move in the restored database');

$node->stop;
done_testing();
