#
# Online reshapes (split_partition, run_reshape, cancel_reshape) across a
# crash, and under writers and readers that do not stop:
#
# - the backend carrying out a split is killed (kill -9: the whole cluster
#   restarts and recovers) in the middle of a copy batch, in phase index
#   (while the new children get their foreign key) and in phase catch up
#   (while a writer keeps changing the child being split).  Each time the
#   set still holds every row exactly once (count and checksum as before,
#   or as the writer's mirror table says), the reshape_operation row is
#   still there, in its phase, and run_reshape() finishes the split: the
#   rows are in the new children, nothing of the work is left, and amcheck
#   finds every index (and heap) of the set sound;
# - a kill between the swap and the drop of the old child (phase swapped:
#   the new children are in the set, the old one renamed out of it): every
#   row is there once, and run_reshape() drops the old child and the change
#   log;
# - after a kill in the copy, cancel_reshape() drops the working tables,
#   the capture triggers and the change log, and leaves the old child whole;
# - a writer inserting, updating, moving keys and deleting rows of the
#   child (each change mirrored into a plain table in the same transaction)
#   and a reader comparing the set with the mirror in every statement run
#   during a whole split: afterwards the set and the mirror hold the same
#   rows, no write failed, and the reader never saw a row missing or twice.
#   The longest insert while the swap ran is printed (diag), not judged.
#
# The kills are timed by waiting for a state, never for a while: the
# backend is made to wait for a lock another session holds (on a new
# child being filled, on the table the foreign key references, on the
# default partition, on the change log), with pg_partmgr.lock_timeout raised in its session,
# and killed once pg_locks or reshape_operation shows it there.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('reshape');
$node->init;
$node->append_conf('postgresql.conf', "timezone = 'UTC'");
$node->append_conf('postgresql.conf', q{
restart_after_crash = on
max_locks_per_transaction = 256
});
$node->start;

# a tablespace for the moves (move_partition), in a directory of the test's
my $cold = PostgreSQL::Test::Utils::tempdir();
$node->safe_psql('postgres', "CREATE TABLESPACE ev_cold LOCATION '$cold'");

# One set, daily children from 2030-01-01: 200,000 rows on the first day,
# 100,000 on each of the next three, 50,000 on the fifth; a primary key
# (id, ts), an index on v, a foreign key to ev_ref.  Ids are unique by
# themselves, so the mirror finds a row by id whatever its ts.  ev_mirror
# is a copy of the rows that the writer changes along with the set.
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_partmgr;
	CREATE EXTENSION amcheck;
	CREATE TABLE public.ev_ref (g int PRIMARY KEY);
	INSERT INTO public.ev_ref SELECT generate_series(0, 9);
	CREATE TABLE public.ev (id bigint NOT NULL, ts timestamptz NOT NULL, v int NOT NULL,
							g int NOT NULL REFERENCES public.ev_ref, pad text,
							PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
	CREATE INDEX ev_v_idx ON public.ev (v);
	SELECT partmgr.create_parent('public.ev', 'ts', '1 day', p_premake => 5,
								 p_start_partition => '2030-01-01');
	INSERT INTO public.ev
	SELECT i, '2030-01-01'::timestamptz + (i % 1440) * interval '1 minute', i, i % 10, md5(i::text)
	  FROM generate_series(1, 200000) i;
	SELECT partmgr.run_maintenance('public.ev');
	INSERT INTO public.ev
	SELECT d * 1000000 + i, '2030-01-01'::timestamptz + (d - 1) * interval '1 day'
							+ (i % 1440) * interval '1 minute', i, i % 10, md5(i::text)
	  FROM generate_series(2, 5) d,
		   generate_series(1, CASE WHEN d = 5 THEN 50000 ELSE 100000 END) i;
	ANALYZE public.ev;
	CREATE TABLE public.ev_mirror AS SELECT * FROM public.ev;
	ALTER TABLE public.ev_mirror ADD PRIMARY KEY (id);
	CREATE INDEX ON public.ev_mirror (ts);

	-- the writer and the reader stop when this says so
	CREATE TABLE public.ev_control (stop boolean NOT NULL);
	INSERT INTO public.ev_control VALUES (false);
	CREATE UNLOGGED TABLE public.ev_latency (at timestamptz NOT NULL, ms float8 NOT NULL);
	CREATE TABLE public.ev_writer_result (iterations bigint, errors int, last_error text);
	CREATE TABLE public.ev_reader_result (checks bigint, mismatches int, first_mismatch text);

	-- Changes the rows of the day from p_day, each change also made to the
	-- mirror, one transaction per round: a new row (its insert timed), an
	-- update of v, a key moved six hours on (into another new child), a
	-- row moved out to the next day (and every other round one moved back
	-- in), a delete.  Rows of the day have ids p_lo .. p_hi; new ones get ids
	-- from p_next on.  A failed round is rolled back whole and counted.
	CREATE PROCEDURE public.ev_writer(p_day timestamptz, p_lo bigint, p_hi bigint, p_next bigint)
	LANGUAGE plpgsql AS $$
	DECLARE
		i bigint := 0;
		n bigint := p_hi - p_lo + 1;
		k bigint;
		t0 timestamptz;
		t timestamptz;
		errors int := 0;
		last_error text;
	BEGIN
		LOOP
			EXIT WHEN (SELECT stop FROM public.ev_control);
			i := i + 1;
			BEGIN
				t := p_day + ((i * 37) % 1440) * interval '1 minute';
				t0 := clock_timestamp();
				INSERT INTO public.ev VALUES (p_next + i, t, i, i % 10, 'w');
				INSERT INTO public.ev_latency
				VALUES (t0, extract(epoch FROM clock_timestamp() - t0) * 1000);
				INSERT INTO public.ev_mirror VALUES (p_next + i, t, i, i % 10, 'w');

				k := p_lo + (i * 7919) % n;
				WITH u AS (UPDATE public.ev SET v = v + 1
							WHERE id = k AND ts >= p_day AND ts < p_day + interval '1 day'
						   RETURNING id, v)
				UPDATE public.ev_mirror m SET v = u.v FROM u WHERE m.id = u.id;

				k := p_lo + (i * 104729) % n;
				WITH u AS (UPDATE public.ev
							  SET ts = p_day + ((extract(epoch FROM ts - p_day)::int / 60 + 360) % 1440)
											   * interval '1 minute'
							WHERE id = k AND ts >= p_day AND ts < p_day + interval '1 day'
						   RETURNING id, ts)
				UPDATE public.ev_mirror m SET ts = u.ts FROM u WHERE m.id = u.id;

				-- a row moved out to the next day (another child), and every
				-- other round one of those moved back
				k := p_lo + (i * 1299709) % n;
				WITH u AS (UPDATE public.ev SET ts = ts + interval '1 day', pad = 'out'
							WHERE id = k AND ts >= p_day AND ts < p_day + interval '1 day'
						   RETURNING id, ts, pad)
				UPDATE public.ev_mirror m SET ts = u.ts, pad = u.pad FROM u WHERE m.id = u.id;
				IF i % 2 = 0 THEN
					WITH u AS (UPDATE public.ev SET ts = ts - interval '1 day', pad = 'back'
								WHERE id = (SELECT id FROM public.ev
											 WHERE pad = 'out' AND ts >= p_day + interval '1 day'
											   AND ts < p_day + interval '2 days' LIMIT 1)
								  AND ts >= p_day + interval '1 day' AND ts < p_day + interval '2 days'
							   RETURNING id, ts, pad)
					UPDATE public.ev_mirror m SET ts = u.ts, pad = u.pad FROM u WHERE m.id = u.id;
				END IF;

				k := p_lo + (i * 15485863) % n;
				WITH d AS (DELETE FROM public.ev
							WHERE id = k AND ts >= p_day AND ts < p_day + interval '1 day'
						   RETURNING id)
				DELETE FROM public.ev_mirror m USING d WHERE m.id = d.id;
			EXCEPTION WHEN OTHERS THEN
				errors := errors + 1;
				last_error := SQLSTATE || ': ' || SQLERRM;
			END;
			COMMIT;
		END LOOP;
		INSERT INTO public.ev_writer_result VALUES (i, errors, last_error);
	END
	$$;

	-- Compares the rows of the day in the set with the mirror's, both in
	-- one statement (one snapshot), over and over: the writer changes both
	-- in one transaction, so they agree unless the set shows a row twice
	-- or misses one.
	CREATE PROCEDURE public.ev_reader(p_day timestamptz)
	LANGUAGE plpgsql AS $$
	DECLARE
		checks bigint := 0;
		mismatches int := 0;
		first_mismatch text;
		seen text;
	BEGIN
		LOOP
			EXIT WHEN (SELECT stop FROM public.ev_control);
			EXECUTE format($q$
				SELECT CASE WHEN s IS DISTINCT FROM m THEN s || ' in the set, ' || m || ' in the mirror' END
				  FROM (SELECT count(*) || ' rows, checksum ' || coalesce(sum(hashtextextended(id || ' ' || ts || ' ' || v, 0)), 0)
						  FROM public.ev WHERE ts >= %1$L AND ts < %1$L::timestamptz + interval '1 day') s(s),
					   (SELECT count(*) || ' rows, checksum ' || coalesce(sum(hashtextextended(id || ' ' || ts || ' ' || v, 0)), 0)
						  FROM public.ev_mirror WHERE ts >= %1$L AND ts < %1$L::timestamptz + interval '1 day') m(m)
				$q$, p_day) INTO seen;
			checks := checks + 1;
			IF seen IS NOT NULL THEN
				mismatches := mismatches + 1;
				first_mismatch := coalesce(first_mismatch, seen);
			END IF;
			COMMIT;
			-- leave the swap room between two checks
			PERFORM pg_sleep(0.02);
		END LOOP;
		INSERT INTO public.ev_reader_result VALUES (checks, mismatches, first_mismatch);
	END
	$$;
});

# == what is checked ==

# the rows of one day: how many, how many keys, and a checksum of them all
sub fingerprint
{
	my ($day) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT count(*) || ' rows, ' || count(DISTINCT (id, ts)) || ' keys, checksum '
			   || coalesce(sum(hashtextextended(e::text, 0)), 0)
		  FROM public.ev e WHERE ts >= '$day' AND ts < '$day'::timestamptz + interval '1 day'});
}

# the rows of a day and the next (where the writer moves rows to) the set
# is missing and has in excess, next to the mirror
sub mirror_diff
{
	my ($day) = @_;
	my $in = qq{ts >= '$day' AND ts < '$day'::timestamptz + interval '2 days'};
	return $node->safe_psql('postgres', qq{
		SELECT (SELECT count(*) FROM (SELECT id, ts, v, g, pad FROM public.ev_mirror WHERE $in
									  EXCEPT ALL
									  SELECT id, ts, v, g, pad FROM public.ev WHERE $in) x)
			   || ' missing, ' ||
			   (SELECT count(*) FROM (SELECT id, ts, v, g, pad FROM public.ev WHERE $in
									  EXCEPT ALL
									  SELECT id, ts, v, g, pad FROM public.ev_mirror WHERE $in) x)
			   || ' in excess'});
}

# the registered reshape of a child: its phase and how many rows it copied
sub operation_of
{
	my ($child) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT operation_id || ' ' || phase || ' ' || rows_copied FROM partmgr.reshape_operation
		 WHERE source_tables = ARRAY['public.$child']});
}

# what a reshape works with: working tables, capture triggers, the
# default partition's exclusion
my $leftovers = q{
	SELECT (SELECT count(*) FROM pg_class WHERE relname LIKE 'ev\_reshape%' AND relkind IN ('r', 'p'))
		   || ' tables, '
		   || (SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'partmgr\_reshape%') || ' triggers, '
		   || (SELECT count(*) FROM pg_constraint WHERE conname LIKE 'partmgr\_reshape%') || ' exclusions'};

# bt_index_check (heapallindexed) on every index of every leaf of the set,
# verify_heapam on every leaf: the number of indexes checked, and of heap
# problems found
my $amcheck = q{
	SELECT (SELECT count(bt_index_check(i.indexrelid, true))
			  FROM pg_partition_tree('public.ev') p JOIN pg_index i ON i.indrelid = p.relid
			 WHERE p.isleaf)
		   || ' indexes checked, '
		   || (SELECT count(*) FROM pg_partition_tree('public.ev') p,
							   LATERAL verify_heapam(p.relid) v
				WHERE p.isleaf)
		   || ' heap problems'};

# the children of a day and how many rows each holds
sub children_of
{
	my ($day) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT string_agg(child || ':' || n, ' ' ORDER BY child)
		  FROM (SELECT tableoid::regclass::text COLLATE "C" AS child, count(*) AS n
				  FROM public.ev WHERE ts >= '$day' AND ts < '$day'::timestamptz + interval '1 day'
				 GROUP BY 1) c});
}

# the children of a day once split into children of $hours hours, as its
# rows are now, named as pg_partmgr names them
sub split_children_of
{
	my ($day, $hours) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT string_agg(child || ':' || n, ' ' ORDER BY child)
		  FROM (SELECT ('ev_p' || to_char('$day'::timestamptz, 'YYYYMMDD') || '_'
						|| to_char(date_bin(interval '$hours hours', ts, '$day'), 'HH24MISS')) COLLATE "C" AS child,
					   count(*) AS n
				  FROM public.ev WHERE ts >= '$day' AND ts < '$day'::timestamptz + interval '1 day'
				 GROUP BY 1) c});
}

# start $call in a new session with pg_partmgr.lock_timeout raised to
# $timeout (so that it waits for a lock held elsewhere instead of giving
# up); returns the session and its backend's pid
sub start_call
{
	my ($call, $timeout) = @_;
	my $session = $node->background_psql('postgres', on_error_stop => 0);
	my $pid = $session->query_safe(qq{
		SET pg_partmgr.lock_timeout = '$timeout';
		SELECT pg_backend_pid();
	});
	$session->query_until(qr/started/, "\\echo started\n$call;\n");
	return ($session, $pid);
}

# kill -9 a backend and wait for the cluster to be back
sub crash
{
	my ($pid, $what, @sessions) = @_;
	is($node->safe_psql('postgres', qq{
			SELECT state = 'active' AND query ~ '^CALL partmgr\.(split|move)_partition'
			  FROM pg_stat_activity WHERE pid = $pid}),
		't', "$what: the split or move is still running");
	my $offset = -s $node->logfile;
	kill 'KILL', $pid;
	$node->wait_for_log(qr/terminated by signal 9: Killed/, $offset);
	eval { $_->quit; } for @sessions;
	ok($node->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()'),
		"$what: the server restarted after the crash");
}

# Start a split of $child into children of 6 hours, one block a batch, and
# kill it in the middle of a batch: once the new children exist, a session
# takes the last of them (18:00 to midnight) in SHARE mode, and the next
# batch with rows for it waits, with the batch's earlier rows inserted.
# The day's rows cycle through the day every 1440 ids (some 18 blocks), so
# batches of the first hours commit before.  Returns the operation's id.
sub kill_in_copy
{
	my ($child, $what) = @_;
	my $blocker = $node->background_psql('postgres', on_error_stop => 0);
	my ($driver, $pid) = start_call(qq{CALL partmgr.split_partition('public.$child',
		p_interval => '6 hours', p_batch_rows => 100, p_lock_wait_tries => 0, p_quiet => true)},
		'5min');
	ok($node->poll_query_until('postgres', qq{
			SELECT phase = 'copy' FROM partmgr.reshape_operation
			 WHERE source_tables = ARRAY['public.$child']}),
		"$what: the split's new children exist, the copy has begun");
	my ($op) = operation_of($child) =~ /^(\d+) /;
	$blocker->query_safe("BEGIN; LOCK TABLE public.ev_reshape${op}_3 IN SHARE MODE;");
	ok($node->poll_query_until('postgres', qq{
			SELECT count(*) > 0 FROM pg_locks
			 WHERE pid = $pid AND NOT granted AND relation = 'public.ev_reshape${op}_3'::regclass}),
		"$what: a batch of the split waits for the new child it routes rows into");
	crash($pid, $what, $driver, $blocker);
	return $op;
}

my $amcheck_expected;

# == a kill in the middle of a copy batch, then run_reshape ==
my $before = fingerprint('2030-01-01');
like($before, qr/^200000 rows, 200000 keys, /, 'the first day holds 200000 rows');
my $children = split_children_of('2030-01-01', 6);

my $op = kill_in_copy('ev_p20300101', 'copy');
is(fingerprint('2030-01-01'), $before, 'after the crash in the copy: every row is there once');
my ($copied) = operation_of('ev_p20300101') =~ /^$op copy (\d+)$/;
ok(defined $copied, 'the reshape is still registered, in phase copy');
ok($copied > 0 && $copied < 200000, "with some of the rows copied ($copied)");
is($node->safe_psql('postgres', $leftovers), '6 tables, 2 triggers, 0 exclusions',
	'its staging table, new children and change log, and the capture, are there');

$node->safe_psql('postgres', "CALL partmgr.run_reshape(p_quiet => true)");
is(operation_of('ev_p20300101'), '', 'run_reshape finishes the split');
is(children_of('2030-01-01'), $children, 'the rows are in the four new children');
is(fingerprint('2030-01-01'), $before, 'every row is there once, unchanged');
is($node->safe_psql('postgres', $leftovers), '0 tables, 0 triggers, 0 exclusions',
	'nothing of the work is left');
$amcheck_expected = $node->safe_psql('postgres', q{
	SELECT count(*) || ' indexes checked, 0 heap problems'
	  FROM pg_partition_tree('public.ev') p JOIN pg_index i ON i.indrelid = p.relid WHERE p.isleaf});
is($node->safe_psql('postgres', $amcheck), $amcheck_expected,
	'amcheck finds every index and heap of the set sound');

# == a kill in phase index ==
$before = fingerprint('2030-01-02');
$children = split_children_of('2030-01-02', 12);
my $blocker = $node->background_psql('postgres', on_error_stop => 0);
$blocker->query_safe('BEGIN; LOCK TABLE public.ev_ref IN SHARE MODE;');
my ($driver, $pid) = start_call(q{CALL partmgr.split_partition('public.ev_p20300102',
	p_interval => '12 hours', p_batch_rows => 50000, p_lock_wait_tries => 0, p_quiet => true)}, '5min');
ok($node->poll_query_until('postgres', qq{
		SELECT count(*) > 0 FROM pg_locks
		 WHERE pid = $pid AND NOT granted AND relation = 'public.ev_ref'::regclass}),
	'index: the split waits to add the foreign key to a new child');
like(operation_of('ev_p20300102'), qr/^\d+ index 100000$/, 'in phase index, every row copied');
crash($pid, 'index', $driver, $blocker);

is(fingerprint('2030-01-02'), $before, 'after the crash in phase index: every row is there once');
like(operation_of('ev_p20300102'), qr/^\d+ index 100000$/, 'the reshape is still in phase index');
$node->safe_psql('postgres', "CALL partmgr.run_reshape('public.ev', p_quiet => true)");
is(operation_of('ev_p20300102'), '', 'run_reshape finishes the split');
is(children_of('2030-01-02'), $children, 'the rows are in the two new children');
is(fingerprint('2030-01-02'), $before, 'every row is there once, unchanged');
is($node->safe_psql('postgres', q{
		SELECT string_agg(conrelid::regclass || ' ' || conname, ', ' ORDER BY conrelid::regclass::text)
		  FROM pg_constraint
		 WHERE contype = 'f' AND conrelid::regclass::text LIKE 'ev_p20300102%'}),
	'ev_p20300102_000000 ev_g_fkey, ev_p20300102_120000 ev_g_fkey',
	'each new child has the foreign key, as the parent\'s');
is($node->safe_psql('postgres', $leftovers), '0 tables, 0 triggers, 0 exclusions',
	'nothing of the work is left');
$amcheck_expected = $node->safe_psql('postgres', q{
	SELECT count(*) || ' indexes checked, 0 heap problems'
	  FROM pg_partition_tree('public.ev') p JOIN pg_index i ON i.indrelid = p.relid WHERE p.isleaf});
is($node->safe_psql('postgres', $amcheck), $amcheck_expected, 'amcheck finds the set sound');

# == a kill in phase catch up while a writer writes ==
my $writer = $node->background_psql('postgres', on_error_stop => 0);
$writer->query_until(qr/started/, "\\echo started\nCALL public.ev_writer('2030-01-03', 3000001, 3100000, 3500000);\n");
ok($node->poll_query_until('postgres', 'SELECT count(*) >= 20 FROM public.ev_latency'),
	'catch up: the writer is writing');
# a reader of the default partition: the range cannot be excluded from it,
# and the split tries again and again (the writer holds the child most of
# the time: a lock on it is taken in the queue, after a second of trying)
$blocker = $node->background_psql('postgres', on_error_stop => 0);
$blocker->query_safe('BEGIN; SELECT count(*) FROM public.ev_default;');
($driver, $pid) = start_call(q{CALL partmgr.split_partition('public.ev_p20300103',
	p_interval => '6 hours', p_batch_rows => 20000, p_lock_wait_tries => 1000, p_wait => 1,
	p_quiet => true)}, '2s');
ok($node->poll_query_until('postgres', q{
		SELECT phase = 'catch up' FROM partmgr.reshape_operation
		 WHERE source_tables = ARRAY['public.ev_p20300103']}),
	'catch up: the split is in phase catch up, held at the default partition');
my $since = $node->safe_psql('postgres', 'SELECT clock_timestamp()');
ok($node->poll_query_until('postgres', "SELECT count(*) >= 20 FROM public.ev_latency WHERE at > '$since'"),
	'the writer goes on writing meanwhile');
crash($pid, 'catch up', $driver, $blocker, $writer);

is(mirror_diff('2030-01-03'), '0 missing, 0 in excess',
	'after the crash in phase catch up: the set holds the rows the writer committed, as it left them');
ok($node->safe_psql('postgres', q{
		SELECT count(*) FROM public.ev WHERE pad = 'w' AND ts >= '2030-01-03' AND ts < '2030-01-04'}) > 0,
	'among them rows the writer inserted while the split ran');
like(operation_of('ev_p20300103'), qr/^\d+ catch up /, 'the reshape is still in phase catch up');
($op) = operation_of('ev_p20300103') =~ /^(\d+) /;
my $captured = $node->safe_psql('postgres', "SELECT count(*) FROM public.ev_reshape${op}_log");
ok($captured > 0, "the change log holds the keys of changes not applied yet ($captured)");
$node->safe_psql('postgres', 'UPDATE public.ev_control SET stop = false');
$writer = $node->background_psql('postgres', on_error_stop => 0);
$writer->query_until(qr/started/, "\\echo started\nCALL public.ev_writer('2030-01-03', 3000001, 3100000, 3600000);\n");
$since = $node->safe_psql('postgres', 'SELECT clock_timestamp()');
ok($node->poll_query_until('postgres', "SELECT count(*) >= 20 FROM public.ev_latency WHERE at > '$since'"),
	'a writer writes again');
$node->safe_psql('postgres', "CALL partmgr.run_reshape('public.ev', p_quiet => true)");
is(operation_of('ev_p20300103'), '', 'run_reshape finishes the split while the writer writes');
$node->safe_psql('postgres', 'UPDATE public.ev_control SET stop = true');
$writer->quit;
is($node->safe_psql('postgres', 'SELECT errors FROM public.ev_writer_result'), '0',
	'no write of the writer failed');
is(mirror_diff('2030-01-03'), '0 missing, 0 in excess',
	'the new children hold every row the writer committed, as it left them');
is($node->safe_psql('postgres', q{
		SELECT count(*) FROM public.ev WHERE ts >= '2030-01-03' AND ts < '2030-01-04'
		   AND tableoid::regclass::text NOT LIKE 'ev\_p20300103\_%'}), '0',
	'all of them in the new children');
is($node->safe_psql('postgres', $leftovers), '0 tables, 0 triggers, 0 exclusions',
	'nothing of the work is left');
$amcheck_expected = $node->safe_psql('postgres', q{
	SELECT count(*) || ' indexes checked, 0 heap problems'
	  FROM pg_partition_tree('public.ev') p JOIN pg_index i ON i.indrelid = p.relid WHERE p.isleaf});
is($node->safe_psql('postgres', $amcheck), $amcheck_expected, 'amcheck finds the set sound');

# == cancel_reshape after a kill in the copy ==
$before = fingerprint('2030-01-04');
$op = kill_in_copy('ev_p20300104', 'cancel');
like(operation_of('ev_p20300104'), qr/^$op copy [1-9]\d*$/,
	'after the crash the reshape is in phase copy, some rows copied');
is($node->safe_psql('postgres', q{
		SELECT string_agg(tgname, ', ' ORDER BY tgname) FROM pg_trigger
		 WHERE tgrelid = 'public.ev_p20300104'::regclass AND NOT tgisinternal}),
	"partmgr_reshape_$op, partmgr_reshape_${op}_truncate", 'the old child has the capture triggers');
is($node->safe_psql('postgres', "SELECT partmgr.cancel_reshape('public.ev')"), '1',
	'cancel_reshape undoes one reshape');
is($node->safe_psql('postgres', $leftovers), '0 tables, 0 triggers, 0 exclusions',
	'no staging table, new child, change log, capture trigger or exclusion is left');
is(operation_of('ev_p20300104'), '', 'the reshape is forgotten');
is(children_of('2030-01-04'), 'ev_p20300104:' . ($before =~ /^(\d+) rows/)[0],
	'the old child holds the day\'s rows');
is(fingerprint('2030-01-04'), $before, 'every row is there once, unchanged');
$node->safe_psql('postgres', 'INSERT INTO public.ev VALUES (4999999, \'2030-01-04 12:00\', 1, 1)');
is($node->safe_psql('postgres', $leftovers), '0 tables, 0 triggers, 0 exclusions',
	'a write to the old child captures nothing any more');
$node->safe_psql('postgres', 'DELETE FROM public.ev WHERE id = 4999999');
$amcheck_expected = $node->safe_psql('postgres', q{
	SELECT count(*) || ' indexes checked, 0 heap problems'
	  FROM pg_partition_tree('public.ev') p JOIN pg_index i ON i.indrelid = p.relid WHERE p.isleaf});
is($node->safe_psql('postgres', $amcheck), $amcheck_expected, 'amcheck finds the set sound');

# == a writer and a reader during a whole split ==
$node->safe_psql('postgres', q{
	UPDATE public.ev_control SET stop = false;
	TRUNCATE public.ev_latency, public.ev_writer_result;
});
$writer = $node->background_psql('postgres', on_error_stop => 0);
$writer->query_until(qr/started/, "\\echo started\nCALL public.ev_writer('2030-01-05', 5000001, 5050000, 5500000);\n");
my $reader = $node->background_psql('postgres', on_error_stop => 0);
$reader->query_until(qr/started/, "\\echo started\nCALL public.ev_reader('2030-01-05');\n");
ok($node->poll_query_until('postgres', 'SELECT count(*) >= 20 FROM public.ev_latency'),
	'the writer is writing');
$node->safe_psql('postgres', q{CALL partmgr.split_partition('public.ev_p20300105',
	p_interval => '6 hours', p_batch_rows => 500, p_lock_wait_tries => 60, p_quiet => true)});
is(operation_of('ev_p20300105'), '', 'the split finishes while the writer and the reader run');
# the changes the writer made while the rows were copied were captured and
# applied (not merely copied)
my $applied = $node->safe_psql('postgres', q{
	SELECT coalesce(sum(substring(a.detail FROM '^(\d+) changes applied')::bigint), 0)
	  FROM partmgr.maintenance_log r
	  JOIN partmgr.maintenance_log a
		ON a.action = 'apply captured changes'
	   AND a.object = 'public.ev_reshape' || substring(r.detail FROM '^reshape (\d+):') || '_log'
	 WHERE r.action = 'register reshape' AND r.object = 'public.ev_p20300105'});
ok($applied > 0, "changes captured during the copy were applied ($applied)");
$since = $node->safe_psql('postgres', 'SELECT clock_timestamp()');
ok($node->poll_query_until('postgres', "SELECT count(*) >= 20 FROM public.ev_latency WHERE at > '$since'"),
	'the writer writes on after the swap');
$node->safe_psql('postgres', 'UPDATE public.ev_control SET stop = true');
$writer->quit;
$reader->quit;

my ($rounds, $errors, $last_error) = split /\|/,
  $node->safe_psql('postgres', 'SELECT iterations, errors, last_error FROM public.ev_writer_result');
is($errors, '0', "no write failed ($rounds rounds" . ($last_error ? ", last error: $last_error" : '') . ')');
is(mirror_diff('2030-01-05'), '0 missing, 0 in excess',
	'the set holds exactly the rows the writer committed, as it left them');
is($node->safe_psql('postgres', q{
		SELECT count(*) FROM public.ev WHERE ts >= '2030-01-05' AND ts < '2030-01-06'
		   AND tableoid::regclass::text NOT LIKE 'ev\_p20300105\_%'}), '0',
	'all of them in the new children');
my ($checks, $mismatches, $first) = split /\|/,
  $node->safe_psql('postgres', 'SELECT checks, mismatches, first_mismatch FROM public.ev_reader_result');
is($mismatches, '0',
	"the reader saw every row once in each of its $checks statements" . ($first ? " (first: $first)" : ''));
ok($checks > 0, 'the reader read while the split ran');
my ($swap_start, $swap_end) = split /\|/, $node->safe_psql('postgres', q{
	SELECT started_at, finished_at FROM partmgr.maintenance_log
	 WHERE parent_table = 'public.ev' AND action = 'swap partitions' AND outcome = 'done'
	   AND detail LIKE 'public.ev_p20300105 %'});
ok(defined $swap_end && $swap_end ne '', 'the swap is logged');
my ($during_split, $max_all) = split /\|/, $node->safe_psql('postgres', qq{
	SELECT count(*), round(max(ms)::numeric, 1) FROM public.ev_latency});
ok($during_split > 0, 'the writer inserted rows');
my ($n_swap, $max_swap) = split /\|/, $node->safe_psql('postgres', qq{
	SELECT count(*), coalesce(round(max(ms)::numeric, 1), 0) FROM public.ev_latency
	 WHERE at <= '$swap_end' AND at + ms * interval '1 ms' >= '$swap_start'});
diag("inserts during the split: $during_split, longest $max_all ms; "
	  . "during the swap ($swap_start to $swap_end): $n_swap, longest $max_swap ms");
is($node->safe_psql('postgres', $leftovers), '0 tables, 0 triggers, 0 exclusions',
	'nothing of the work is left');
$amcheck_expected = $node->safe_psql('postgres', q{
	SELECT count(*) || ' indexes checked, 0 heap problems'
	  FROM pg_partition_tree('public.ev') p JOIN pg_index i ON i.indrelid = p.relid WHERE p.isleaf});
is($node->safe_psql('postgres', $amcheck), $amcheck_expected, 'amcheck finds the whole set sound');

# == moves: move_partition, a reshape of a child into a copy of itself in
# another tablespace ==

# where a child and its indexes are, and their names
sub storage_of
{
	my ($child) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT string_agg(c.relname || ':' || coalesce(t.spcname, 'default'), ' ' ORDER BY c.relname COLLATE "C")
		  FROM pg_class c LEFT JOIN pg_tablespace t ON t.oid = c.reltablespace
		 WHERE c.oid = 'public.$child'::regclass
			OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'public.$child'::regclass)});
}

# what the storage of a child is once moved into ev_cold: the same names
sub moved_storage
{
	my ($child) = @_;
	my $now = storage_of($child);
	$now =~ s/:[^ ]+/:ev_cold/g;
	return $now;
}

# -- a move under a writer and a reader --
# The writer changes the rows of 2030-01-05, whose children are now of six
# hours: it moves rows into and out of the child being moved.
$node->safe_psql('postgres', q{
	CREATE INDEX ev_p20300105_060000_pad ON public.ev_p20300105_060000 (pad) WHERE pad IS NOT NULL;
	UPDATE public.ev_control SET stop = false;
	TRUNCATE public.ev_latency, public.ev_writer_result, public.ev_reader_result;
});
my $expected_storage = moved_storage('ev_p20300105_060000');
my $eras_query = q{
	SELECT count(*) || ' ' || coalesce(string_agg(interval_end || ' ' || partition_interval, ', '
												  ORDER BY interval_end), '')
	  FROM partmgr.part_config_interval WHERE parent_table = 'public.ev'};
my $eras_before = $node->safe_psql('postgres', $eras_query);
like($expected_storage, qr/ev_p20300105_060000_pad:ev_cold/, 'the child to move has an index of its own');
$writer = $node->background_psql('postgres', on_error_stop => 0);
$writer->query_until(qr/started/, "\\echo started\nCALL public.ev_writer('2030-01-05', 5000001, 5050000, 5600000);\n");
$reader = $node->background_psql('postgres', on_error_stop => 0);
$reader->query_until(qr/started/, "\\echo started\nCALL public.ev_reader('2030-01-05');\n");
ok($node->poll_query_until('postgres', 'SELECT count(*) >= 20 FROM public.ev_latency'),
	'move: the writer is writing');
$node->safe_psql('postgres', q{CALL partmgr.move_partition('public.ev_p20300105_060000', 'ev_cold',
	p_batch_rows => 500, p_lock_wait_tries => 60, p_quiet => true)});
is(operation_of('ev_p20300105_060000'), '', 'the move finishes while the writer and the reader run');
$since = $node->safe_psql('postgres', 'SELECT clock_timestamp()');
ok($node->poll_query_until('postgres', "SELECT count(*) >= 20 FROM public.ev_latency WHERE at > '$since'"),
	'the writer writes on after the swap');
$node->safe_psql('postgres', 'UPDATE public.ev_control SET stop = true');
$writer->quit;
$reader->quit;
($rounds, $errors, $last_error) = split /\|/,
  $node->safe_psql('postgres', 'SELECT iterations, errors, last_error FROM public.ev_writer_result');
is($errors, '0', "no write failed during the move ($rounds rounds" . ($last_error ? ", last error: $last_error" : '') . ')');
is(mirror_diff('2030-01-05'), '0 missing, 0 in excess',
	'after the move the set holds exactly the rows the writer committed');
($checks, $mismatches, $first) = split /\|/,
  $node->safe_psql('postgres', 'SELECT checks, mismatches, first_mismatch FROM public.ev_reader_result');
is($mismatches, '0',
	"the reader saw every row once in each of its $checks statements during the move" . ($first ? " (first: $first)" : ''));
is(storage_of('ev_p20300105_060000'), $expected_storage,
	'the child and every index of it are in ev_cold, under their names');
is($node->safe_psql('postgres', q{
		SELECT string_agg(conname, ' ' ORDER BY conname) FROM pg_constraint
		 WHERE conrelid = 'public.ev_p20300105_060000'::regclass AND contype = 'f'}),
	'ev_g_fkey', 'the moved child has the foreign key');
is($node->safe_psql('postgres', $eras_query), $eras_before,
	'the set\'s eras are as before: a move keeps the bounds');
is($node->safe_psql('postgres', $leftovers), '0 tables, 0 triggers, 0 exclusions',
	'nothing of the move is left');

# -- a kill in each phase of a move, then run_reshape --
# copy: the next batch waits for the new child, which a session holds
sub move_killed_in
{
	my ($child, $what, $setup, $wait_for) = @_;
	my $before_rows = fingerprint(substr($child, 4, 4) . '-' . substr($child, 8, 2) . '-' . substr($child, 10, 2));
	my $expected = moved_storage($child);
	my $blocker = $node->background_psql('postgres', on_error_stop => 0);
	$blocker->query_safe($setup) if $setup;
	my ($driver, $pid) = start_call(qq{CALL partmgr.move_partition('public.$child', 'ev_cold',
		p_batch_rows => 100, p_lock_wait_tries => 1000, p_wait => 1, p_quiet => true)}, '5min');
	ok($node->poll_query_until('postgres', qq{
			SELECT phase = '$what' FROM partmgr.reshape_operation
			 WHERE source_tables = ARRAY['public.$child']}),
		"move, $what: the move is in phase $what");
	my ($op) = operation_of($child) =~ /^(\d+) /;
	$wait_for->($op, $blocker, $pid);
	crash($pid, "move, $what", $driver, $blocker);
	my $day = substr($child, 4, 4) . '-' . substr($child, 8, 2) . '-' . substr($child, 10, 2);
	is(fingerprint($day), $before_rows, "move, $what: after the crash every row is there once");
	like(operation_of($child), qr/^$op $what /, "move, $what: the move is still registered, in phase $what");
	$node->safe_psql('postgres', "CALL partmgr.run_reshape('public.ev', p_quiet => true)");
	is(operation_of($child), '', "move, $what: run_reshape finishes it");
	is(fingerprint($day), $before_rows, "move, $what: every row is there once, unchanged");
	is(storage_of($child), $expected, "move, $what: the child and its indexes are in ev_cold, under their names");
	is($node->safe_psql('postgres', $leftovers), '0 tables, 0 triggers, 0 exclusions',
		"move, $what: nothing of the work is left");
}

move_killed_in('ev_p20300101_000000', 'copy', undef, sub {
	my ($op, $blocker, $pid) = @_;
	$blocker->query_safe("BEGIN; LOCK TABLE public.ev_reshape${op}_0 IN SHARE MODE;");
	ok($node->poll_query_until('postgres', qq{
			SELECT count(*) > 0 FROM pg_locks
			 WHERE pid = $pid AND NOT granted AND relation = 'public.ev_reshape${op}_0'::regclass}),
		'move, copy: a batch waits for the new child');
});
# index: the new child's foreign key waits for the referenced table
move_killed_in('ev_p20300101_060000', 'index', 'BEGIN; LOCK TABLE public.ev_ref IN SHARE MODE;', sub {
	my ($op, $blocker, $pid) = @_;
	ok($node->poll_query_until('postgres', qq{
			SELECT count(*) > 0 FROM pg_locks
			 WHERE pid = $pid AND NOT granted AND relation = 'public.ev_ref'::regclass}),
		'move, index: the new child\'s foreign key waits for the table it references');
});
# catch up: a reader of the default partition keeps the range from being
# excluded from it
move_killed_in('ev_p20300101_120000', 'catch up', 'BEGIN; SELECT count(*) FROM public.ev_default;', sub {
	my ($op, $blocker, $pid) = @_;
	ok($node->poll_query_until('postgres', qq{
			SELECT count(*) > 0 FROM pg_locks
			 WHERE pid = $pid AND NOT granted AND relation = 'public.ev_default'::regclass}),
		'move, catch up: the exclusion waits for the default partition');
});
$amcheck_expected = $node->safe_psql('postgres', q{
	SELECT count(*) || ' indexes checked, 0 heap problems'
	  FROM pg_partition_tree('public.ev') p JOIN pg_index i ON i.indrelid = p.relid WHERE p.isleaf});
is($node->safe_psql('postgres', $amcheck), $amcheck_expected, 'amcheck finds the set sound after the moves');

# e. pg_dump and pg_restore of a set in the middle of a copy: the reshape
#    row, the working tables and the capture come along; the copy starts
#    again (the restored child's storage is new) and finishes with every
#    row, changes made before the dump included.
$node->safe_psql('postgres', 'CREATE DATABASE dsrc');
$node->safe_psql('postgres', 'CREATE DATABASE ddst');
$node->safe_psql('dsrc', q{
	CREATE EXTENSION pg_partmgr;
	CREATE TABLE public.dd (id bigint, ts timestamptz NOT NULL, v text, PRIMARY KEY (id, ts))
		PARTITION BY RANGE (ts);
	SELECT partmgr.create_parent('public.dd', 'ts', '1 day', p_premake => 1,
	                             p_start_partition => '2030-01-01');
	INSERT INTO public.dd SELECT g, '2030-01-01'::timestamptz + (g % 86400) * interval '1 second', 'x'
	  FROM generate_series(1, 100000) g;
	CALL partmgr.split_partition('public.dd_p20300101', p_interval => '6 hours', p_start => false,
	                             p_quiet => true);
});
# a copy stopped after some batches by a statement timeout
my ($rc, $out, $err) = $node->psql('dsrc', q{
	SET statement_timeout = '300ms';
	CALL partmgr.run_reshape('public.dd', p_batch_rows => 2000, p_quiet => true)});
my $phase = $node->safe_psql('dsrc', q{SELECT phase || ' ' || (rows_copied > 0) FROM partmgr.reshape_operation});
SKIP:
{
	skip "the copy finished within 300 ms (phase $phase): nothing in the middle to dump", 3
	  if $phase ne 'copy true';
	$node->safe_psql('dsrc', q{UPDATE public.dd SET v = 'changed' WHERE id % 100 = 0});
	my $before = $node->safe_psql('dsrc', q{SELECT count(*) || ' ' || sum(hashtext(dd::text)) FROM public.dd});
	my $dump = $node->basedir . '/dsrc.dump';
	$node->command_ok(['pg_dump', '-Fc', '-f', $dump, '-d', $node->connstr('dsrc')],
		'pg_dump of a set in the middle of a reshape');
	$node->command_ok(['pg_restore', '-d', $node->connstr('ddst'), $dump], 'and pg_restore');
	$node->safe_psql('ddst', q{CALL partmgr.run_reshape('public.dd', p_quiet => true)});
	is( $node->safe_psql('ddst', q{
			SELECT count(*) || ' ' || sum(hashtext(dd::text)) || ' ' ||
			       (SELECT count(*) FROM partmgr.reshape_operation) || ' ' ||
			       (SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
			         WHERE i.inhparent = 'public.dd'::regclass AND c.relname LIKE 'dd\_p20300101\_%')
			  FROM public.dd}),
		"$before 0 4",
		'run_reshape in the restored database finishes it: every row, the changes too, in the new children');
}

# == a kill between the swap and the drop of the old child ==
# A session holds the change log in ACCESS SHARE mode from the copy on: the
# swap only reads it, the step after the swap must drop it (and waits).
$node->safe_psql('postgres', q{
	CREATE TABLE public.sw (id bigint PRIMARY KEY, ts timestamptz NOT NULL, v text) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('public.sw', 'id', '100000', p_premake => 1, p_start_partition => '0');
	INSERT INTO public.sw SELECT g, '2030-01-01', md5(g::text) FROM generate_series(0, 49999) g;
});
my $sw_rows = q{SELECT count(*) || ' ' || sum(hashtextextended(s::text, 0)) FROM public.sw s};
my $sw_before = $node->safe_psql('postgres', $sw_rows);
my $sw_blocker = $node->background_psql('postgres', on_error_stop => 0);
my ($sw_driver, $sw_pid) = start_call(q{CALL partmgr.split_partition('public.sw_p0',
	p_interval => '50000', p_batch_rows => 500, p_lock_wait_tries => 0, p_quiet => true)}, '5min');
ok($node->poll_query_until('postgres', q{
		SELECT phase = 'copy' FROM partmgr.reshape_operation WHERE source_tables = ARRAY['public.sw_p0']}),
	'swapped: the split has begun its copy');
my ($sw_op) = $node->safe_psql('postgres', q{
	SELECT operation_id FROM partmgr.reshape_operation WHERE source_tables = ARRAY['public.sw_p0']});
$sw_blocker->query_safe("BEGIN; LOCK TABLE public.sw_reshape${sw_op}_log IN ACCESS SHARE MODE;");
ok($node->poll_query_until('postgres', qq{
		SELECT count(*) > 0 FROM pg_locks
		 WHERE pid = $sw_pid AND NOT granted AND relation = 'public.sw_reshape${sw_op}_log'::regclass}),
	'swapped: after the swap, the drop of the old child and the change log waits');
is($node->safe_psql('postgres', "SELECT phase FROM partmgr.reshape_operation WHERE operation_id = $sw_op"),
	'swapped', 'the reshape is in phase swapped');
crash($sw_pid, 'swapped', $sw_driver, $sw_blocker);
is($node->safe_psql('postgres', $sw_rows), $sw_before, 'after the crash: every row is there once');
is($node->safe_psql('postgres', q{
		SELECT string_agg(c.relname, ' ' ORDER BY c.relname) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		 WHERE i.inhparent = 'public.sw'::regclass AND c.relname <> 'sw_default'}),
	'sw_p0 sw_p100000 sw_p50000', 'the new children are in the set');
is($node->safe_psql('postgres', "SELECT count(*) FROM pg_class WHERE relname = 'sw_reshape${sw_op}_old0'"), '1',
	'the old child is still there, renamed, out of the set');
$node->safe_psql('postgres', "CALL partmgr.run_reshape('public.sw', p_quiet => true)");
is($node->safe_psql('postgres', qq{
		SELECT (SELECT count(*) FROM partmgr.reshape_operation WHERE operation_id = $sw_op) || ' '
			   || (SELECT count(*) FROM pg_class WHERE relname LIKE 'sw\\_reshape%')}),
	'0 0', 'run_reshape then drops it and the change log, and the reshape is over');
is($node->safe_psql('postgres', $sw_rows), $sw_before, 'every row is there once, unchanged');

$node->stop;
done_testing();
