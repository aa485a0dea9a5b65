#
# The trust boundary when nobody is watching: the background worker (the
# bootstrap superuser), pg_cron jobs (postgres, and a superuser whose
# search_path puts public first), committing procedures and the health view
# maintain and read a plain role's sets.  The plain role, with exactly the
# documented grants, has put its code everywhere the owner of a table can
# (index expressions and predicates on the parent and the template, a CHECK
# constraint, a generated column, a DEFAULT, row and statement triggers on
# the parent, the children and the default partition, a deferred constraint
# trigger that fires at COMMIT, an evil time encoder and decoder, functions
# and operators in public that shadow pg_catalog's).  With a superuser's
# rights that code writes a row into public.pwned (owned by postgres,
# granted to nobody), makes the attacker a superuser and empties a victim's
# table.  None of it may happen, and the maintenance must still be done.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use PartmgrWorker;

my $node = PostgreSQL::Test::Cluster->new('security');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'pg_partmgr, pg_cron'
cron.database_name = 'postgres'
cron.use_background_workers = on
max_worker_processes = 16
pg_partmgr.interval = 1
pg_partmgr.enabled = off
timezone = 'UTC'
});
$node->start;

# --- roles, grants, the canary -------------------------------------------
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_cron;
	CREATE EXTENSION pg_partmgr;
	CREATE ROLE tap_sec_att NOSUPERUSER;
	CREATE ROLE tap_sec_vic NOSUPERUSER;
	GRANT USAGE, CREATE ON SCHEMA partmgr TO tap_sec_att, tap_sec_vic;
	GRANT SELECT, INSERT, UPDATE, DELETE ON partmgr.part_config,
		  partmgr.part_config_sub, partmgr.part_config_interval, partmgr.maintenance_log TO tap_sec_att, tap_sec_vic;
	GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA partmgr TO tap_sec_att, tap_sec_vic;
	GRANT CREATE ON SCHEMA public TO tap_sec_att;
	CREATE SCHEMA tap_sec_a AUTHORIZATION tap_sec_att;
	CREATE SCHEMA tap_sec_v AUTHORIZATION tap_sec_vic;
	CREATE TABLE public.pwned (id serial, who text, what text);
	-- a second superuser, whose sessions resolve names in public first
	CREATE ROLE tap_sec_su SUPERUSER LOGIN;
	ALTER ROLE tap_sec_su SET search_path = public, pg_catalog;
});

# --- the victim: an id set, and a time set with children of ten days -------
$node->safe_psql('postgres', q{
	SET ROLE tap_sec_vic;
	CREATE TABLE tap_sec_v.vt (id bigint NOT NULL) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('tap_sec_v.vt', 'id', '10', p_start_partition => '0', p_premake => 2);
	INSERT INTO tap_sec_v.vt SELECT generate_series(0, 19);
	CREATE TABLE tap_sec_v.vtt (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
	SELECT partmgr.create_parent('tap_sec_v.vtt', 'ts', '1 day', p_premake => 2,
								 p_start_partition => (current_date - 10)::text);
	INSERT INTO tap_sec_v.vtt SELECT current_date - g FROM generate_series(0, 10) g;
});
my $vtt_children = $node->safe_psql('postgres',
	"SELECT string_agg(inhrelid::regclass::text, ',' ORDER BY inhrelid::regclass::text)
	   FROM pg_inherits WHERE inhparent = 'tap_sec_v.vtt'::regclass");

# --- the attacker's code ----------------------------------------------------
$node->safe_psql('postgres', q{
	SET ROLE tap_sec_att;
	-- with a superuser's rights: a trace, an escalation, harm; never fails
	CREATE FUNCTION tap_sec_a.act(tag text) RETURNS void LANGUAGE plpgsql
		SET search_path = pg_catalog, pg_temp AS $$
	BEGIN
		BEGIN
			IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
				INSERT INTO public.pwned (who, what) VALUES (current_user, tag);
				EXECUTE 'ALTER ROLE tap_sec_att SUPERUSER';
				DELETE FROM tap_sec_v.vt;
			END IF;
		EXCEPTION WHEN OTHERS THEN
			NULL;
		END;
	END $$;
	CREATE FUNCTION tap_sec_a.evil(tag text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE
		SET search_path = pg_catalog, pg_temp AS $$ BEGIN PERFORM tap_sec_a.act(tag); RETURN true; END $$;
	CREATE FUNCTION tap_sec_a.evil(tag text, x anyelement) RETURNS boolean LANGUAGE plpgsql IMMUTABLE
		SET search_path = pg_catalog, pg_temp AS $$ BEGIN PERFORM tap_sec_a.act(tag); RETURN true; END $$;
	CREATE FUNCTION tap_sec_a.evil_trg() RETURNS trigger LANGUAGE plpgsql
		SET search_path = pg_catalog, pg_temp AS $$
	BEGIN
		PERFORM tap_sec_a.act(TG_ARGV[0]);
		IF TG_LEVEL = 'STATEMENT' THEN RETURN NULL; END IF;
		IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
		RETURN NEW;
	END $$;
	-- (l) a time encoder and decoder for 'YYYY-MM-DD HH24:MI:SS' (UTC) text keys
	CREATE FUNCTION tap_sec_a.enc(t timestamptz) RETURNS text LANGUAGE plpgsql IMMUTABLE
		SET search_path = pg_catalog, pg_temp AS $$
	BEGIN
		PERFORM tap_sec_a.act('l:time encoder');
		RETURN to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS');
	END $$;
	CREATE FUNCTION tap_sec_a.dec(t text) RETURNS timestamptz LANGUAGE plpgsql IMMUTABLE
		SET search_path = pg_catalog, pg_temp AS $$
	BEGIN
		PERFORM tap_sec_a.act('l:time decoder');
		RETURN t::timestamp AT TIME ZONE 'UTC';
	END $$;
	-- (a), (b), (f) on a set; (c), (d), (e) are in the tables' definitions
	CREATE PROCEDURE tap_sec_a.arm(p_parent regclass, p_template regclass, p_key text)
		LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
	DECLARE
		dflt regclass := (SELECT i.inhrelid::regclass FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
						   WHERE i.inhparent = p_parent AND pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT');
		child regclass;
		trg constant text := 'CREATE TRIGGER %I %s ON %s FOR EACH %s EXECUTE FUNCTION tap_sec_a.evil_trg(%L)';
	BEGIN
		EXECUTE format('CREATE INDEX ON %s ((tap_sec_a.evil(%L, %I)))', p_parent, 'a:parent index expression', p_key);
		EXECUTE format('CREATE INDEX ON %s ((CASE WHEN tap_sec_a.evil(%L) THEN %I END))', p_parent, 'a:parent index constant expression', p_key);
		EXECUTE format('CREATE INDEX ON %s (%I) WHERE tap_sec_a.evil(%L, %I)', p_parent, p_key, 'b:parent index predicate', p_key);
		EXECUTE format('CREATE INDEX ON %s (%I) WHERE tap_sec_a.evil(%L)', p_parent, p_key, 'b:parent index constant predicate');
		EXECUTE format('CREATE UNIQUE INDEX ON %s (v, (tap_sec_a.evil(%L, %I)))', p_template, 'a:template index expression', p_key);
		EXECUTE format('CREATE UNIQUE INDEX ON %s (v) WHERE tap_sec_a.evil(%L, %I)', p_template, 'b:template index predicate', p_key);
		EXECUTE format('CREATE UNIQUE INDEX ON %s (v, %I) WHERE tap_sec_a.evil(%L)', p_template, p_key, 'b:template index constant predicate');
		EXECUTE format(trg, 'evil_bi', 'BEFORE INSERT', p_parent, 'ROW', 'f:parent before insert row');
		EXECUTE format(trg, 'evil_ai', 'AFTER INSERT', p_parent, 'ROW', 'f:parent after insert row');
		EXECUTE format(trg, 'evil_bd', 'BEFORE DELETE', p_parent, 'ROW', 'f:parent before delete row');
		EXECUTE format(trg, 'evil_ad', 'AFTER DELETE', p_parent, 'ROW', 'f:parent after delete row');
		EXECUTE format(trg, 'evil_s', 'AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE', p_parent, 'STATEMENT', 'f:parent statement');
		EXECUTE format(trg, 'evil_d', 'BEFORE INSERT OR UPDATE OR DELETE', dflt, 'ROW', 'f:default partition row');
		EXECUTE format(trg, 'evil_ds', 'AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE', dflt, 'STATEMENT', 'f:default partition statement');
		FOR child IN SELECT i.inhrelid::regclass FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
					  WHERE i.inhparent = p_parent AND pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT' LOOP
			EXECUTE format(trg, 'evil_c', 'BEFORE INSERT OR UPDATE OR DELETE', child, 'ROW', 'f:child row');
			EXECUTE format(trg, 'evil_cs', 'AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE', child, 'STATEMENT', 'f:child statement');
		END LOOP;
		EXECUTE format(trg, 'evil_t', 'BEFORE INSERT OR UPDATE OR DELETE', p_template, 'ROW', 'f:template row');
	END $$;

	-- an id set with every vector
	CREATE TABLE tap_sec_a.t (
		id bigint NOT NULL,
		v text,
		g boolean GENERATED ALWAYS AS (tap_sec_a.evil('d:generated column', id)) STORED,
		e boolean DEFAULT tap_sec_a.evil('e:default'),
		CONSTRAINT evil_check CHECK (tap_sec_a.evil('c:parent check', id))
	) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('tap_sec_a.t', 'id', '10', p_start_partition => '0', p_premake => 2,
								 p_constraint_cols => ARRAY['v']);
	UPDATE partmgr.part_config SET optimize_constraint = 1 WHERE parent_table = 'tap_sec_a.t';
	CALL tap_sec_a.arm('tap_sec_a.t', 'partmgr.template_tap_sec_a_t', 'id');
	-- rows up to the last child, and beyond it in the default partition
	INSERT INTO tap_sec_a.t (id, v) SELECT g, 'v' || g FROM generate_series(0, 35) g;

	-- a text key with the evil encoder and decoder, and every other vector
	CREATE TABLE tap_sec_a.tx (
		k text NOT NULL,
		v text,
		g boolean GENERATED ALWAYS AS (tap_sec_a.evil('d:generated column', k)) STORED,
		e boolean DEFAULT tap_sec_a.evil('e:default'),
		CONSTRAINT evil_check CHECK (tap_sec_a.evil('c:parent check', k))
	) PARTITION BY RANGE (k);
	SELECT partmgr.create_parent('tap_sec_a.tx', 'k', '1 day', p_premake => 2,
								 p_time_encoder => 'tap_sec_a.enc', p_time_decoder => 'tap_sec_a.dec');
	CALL tap_sec_a.arm('tap_sec_a.tx', 'partmgr.template_tap_sec_a_tx', 'k');
	INSERT INTO tap_sec_a.tx (k, v)
		VALUES (to_char(now() AT TIME ZONE 'UTC' + interval '2 days', 'YYYY-MM-DD HH24:MI:SS'), 'ahead'),
			   ('2000-01-01 10:00:00', 'old');

	-- a deferred constraint trigger on a default partition: it fires at COMMIT
	CREATE TABLE tap_sec_a.dt (id bigint NOT NULL) PARTITION BY RANGE (id);
	SELECT partmgr.create_parent('tap_sec_a.dt', 'id', '10', p_start_partition => '0', p_premake => 1);
	CREATE CONSTRAINT TRIGGER evil_dc AFTER INSERT OR DELETE ON tap_sec_a.dt_default
		DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
		EXECUTE FUNCTION tap_sec_a.evil_trg('fd:default partition deferred constraint trigger');
	INSERT INTO tap_sec_a.dt VALUES (15), (25);

	-- (g) shadows of pg_catalog's functions and operators, in public
	CREATE FUNCTION tap_sec_a.max_sf(a bigint, b bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE STRICT
		SET search_path = pg_catalog, pg_temp
		AS $$ BEGIN PERFORM tap_sec_a.act('g:public.max(bigint)'); RETURN greatest(a, b); END $$;
	CREATE AGGREGATE public.max(bigint) (sfunc = tap_sec_a.max_sf, stype = bigint);
	CREATE FUNCTION tap_sec_a.count_sf(n bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE STRICT
		SET search_path = pg_catalog, pg_temp
		AS $$ BEGIN PERFORM tap_sec_a.act('g:public.count(*)'); RETURN n + 1; END $$;
	CREATE AGGREGATE public.count(*) (sfunc = tap_sec_a.count_sf, stype = bigint, initcond = '0');
	CREATE FUNCTION public.now() RETURNS timestamptz LANGUAGE plpgsql STABLE
		SET search_path = pg_catalog, pg_temp
		AS $$ BEGIN PERFORM tap_sec_a.act('g:public.now()'); RETURN pg_catalog.now(); END $$;
	CREATE FUNCTION tap_sec_a.eq(a text, b text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE
		SET search_path = pg_catalog, pg_temp
		AS $$ BEGIN PERFORM tap_sec_a.act('g:public.= (text, text)'); RETURN a OPERATOR(pg_catalog.=) b; END $$;
	CREATE OPERATOR public.= (leftarg = text, rightarg = text, function = tap_sec_a.eq);
});
# (the deferred trigger fired at the attacker's own COMMIT, as the attacker)
is($node->safe_psql('postgres', 'SELECT count(*) FROM public.pwned'),
	'0', 'setup: nothing ran as a superuser yet');

# what nothing of the attacker's may change: the canary, the attacker's
# rolsuper, the victim's rows
sub assert_clean
{
	my ($when) = @_;
	is( $node->safe_psql('postgres',
			"SELECT coalesce(string_agg(DISTINCT who || ': ' || what, ', '), '') FROM public.pwned"),
		'', "$when: none of the attacker's code ran as a superuser");
	is($node->safe_psql('postgres',
			"SELECT rolsuper FROM pg_roles WHERE rolname = 'tap_sec_att'"),
		'f', "$when: the attacker is still not a superuser");
	is($node->safe_psql('postgres', 'SELECT count(*) FROM tap_sec_v.vt'),
		'20', "$when: the victim's rows are all there");
	reset_canary();
}

# start the next phase afresh (with the old code the attacks succeed: each
# phase is then judged on its own)
sub reset_canary
{
	$node->safe_psql('postgres', q{
		DELETE FROM public.pwned;
		ALTER ROLE tap_sec_att NOSUPERUSER;
		INSERT INTO tap_sec_v.vt SELECT g FROM generate_series(0, 19) g
		 WHERE NOT EXISTS (SELECT 1 FROM tap_sec_v.vt WHERE id = g);
	});
}

# the attacker's direct UPDATE of the victim's configuration is refused
my ($ret, $out, $err) = $node->psql('postgres', q{
\set VERBOSITY verbose
SET ROLE tap_sec_att;
UPDATE partmgr.part_config SET retention = '1 day', retention_keep_table = false
 WHERE parent_table = 'tap_sec_v.vtt';
});
like($err, qr/ERROR:  42501/, 'the attacker\'s UPDATE of the victim\'s part_config row fails with 42501');
is( $node->safe_psql('postgres',
		"SELECT coalesce(retention, 'none') || ' ' || retention_keep_table FROM partmgr.part_config
		  WHERE parent_table = 'tap_sec_v.vtt'"),
	'none true', 'and the victim\'s row is as it was');
my $attacked_at = $node->safe_psql('postgres', 'SELECT clock_timestamp()');

# --- the background worker, as the bootstrap superuser ----------------------
$node->append_conf('postgresql.conf', 'pg_partmgr.enabled = on');
$node->reload;
ok( $node->poll_query_until('postgres',
		"SELECT to_regclass('tap_sec_a.t_p30') IS NOT NULL AND to_regclass('tap_sec_a.t_p40') IS NOT NULL"),
	'the worker maintained the attacker\'s id set (t_p30 with the rows from the default, t_p40)');
ok( $node->poll_query_until('postgres', q{
		SELECT count(*) > 0 FROM partmgr.maintenance_log
		 WHERE parent_table = 'tap_sec_a.tx' AND action = 'create partition' AND run_by = 'worker'}),
	'the worker maintained the attacker\'s set with the evil encoder and decoder');
ok( $node->poll_query_until('postgres',
		"SELECT maintenance_last_run > '$attacked_at' FROM partmgr.part_config
		  WHERE parent_table = 'tap_sec_v.vtt'"),
	'the worker maintained the victim\'s time set after the attempt');
# the deferred trigger's set: maintained (its trigger fired as its owner) or
# refused, logged; never its trigger left to fire at the worker's COMMIT
ok( $node->poll_query_until('postgres', q{
		SELECT to_regclass('tap_sec_a.dt_p20') IS NOT NULL
			OR EXISTS (SELECT 1 FROM partmgr.maintenance_log
						WHERE parent_table = 'tap_sec_a.dt' AND run_by = 'worker' AND outcome = 'failed')}),
	'the worker maintained the set with a deferred trigger, or refused it');
is( $node->safe_psql('postgres',
		"SELECT string_agg(inhrelid::regclass::text, ',' ORDER BY inhrelid::regclass::text)
		   FROM pg_inherits WHERE inhparent = 'tap_sec_v.vtt'::regclass
		    AND inhrelid::regclass::text = ANY (string_to_array('$vtt_children', ','))"),
	$vtt_children, 'the worker dropped none of the victim\'s children');
is($node->safe_psql('postgres', 'SELECT count(*) FROM tap_sec_v.vtt'),
	'11', 'and none of its rows');
assert_clean('background worker');

# off before pg_cron's turn, or a worker could make the children the jobs
# must make.  The interval changes with the same reload: the launcher's line
# about it says the reload is in force and when it would run next; once
# that time has passed no worker runs.
my $would_run = reload_launcher($node, q{
pg_partmgr.enabled = off
pg_partmgr.interval = 2
}, 2);
ok(wait_launcher_off($node, $would_run), 'the worker is off');
reset_canary();

# --- pg_cron: CALL run_maintenance_proc() as postgres, and as a superuser
# whose search_path puts the attacker's shadows first ------------------------
$node->safe_psql('postgres', q{
	SET ROLE tap_sec_att;
	INSERT INTO tap_sec_a.t (id, v) SELECT g, 'v' || g FROM generate_series(45, 55) g;
	RESET ROLE;
	SELECT cron.schedule('sec-postgres', '* * * * *', 'CALL partmgr.run_maintenance_proc()');
	SELECT cron.schedule('sec-shadowed', '* * * * *', 'CALL partmgr.run_maintenance_proc()');
	UPDATE cron.job SET username = 'tap_sec_su' WHERE jobname = 'sec-shadowed';
});
ok( $node->poll_query_until('postgres', q{
		SELECT count(DISTINCT j.jobname) = 2
		  FROM cron.job_run_details d JOIN cron.job j USING (jobid)
		 WHERE j.jobname IN ('sec-postgres', 'sec-shadowed') AND d.status IN ('succeeded', 'failed')}),
	'both pg_cron jobs ran');
# the set whose default has the attacker's deferrable trigger is refused;
# the job that maintains it (the other may find it held and skip it) ends
# with the ERROR that names it (pg_partmgr.on_set_failure)
ok( scalar(grep { /"tap_sec_a\.dt"/ } split /\n/, $node->safe_psql('postgres', q{
		SELECT split_part(d.return_message, E'\n', 1) FROM cron.job_run_details d JOIN cron.job j USING (jobid)
		 WHERE j.jobname IN ('sec-postgres', 'sec-shadowed') AND d.status = 'failed'})) > 0,
	'a job that met the refused set ended with the ERROR naming it');
my @failed_messages = split /\n/, $node->safe_psql('postgres', q{
		SELECT split_part(d.return_message, E'\n', 1) FROM cron.job_run_details d JOIN cron.job j USING (jobid)
		 WHERE j.jobname IN ('sec-postgres', 'sec-shadowed') AND d.status = 'failed'});
is( scalar(grep { !/maintenance of \d+ partition sets? failed: (?:"tap_sec_a\.\w+"(?:, |$))+/ } @failed_messages),
	0, 'the sets that failed are all the attacker\'s, whose code was refused')
  or diag(join("\n", @failed_messages));
ok( $node->poll_query_until('postgres',
		"SELECT to_regclass('tap_sec_a.t_p60') IS NOT NULL"),
	'pg_cron\'s run_maintenance_proc maintained the attacker\'s set');
is( $node->safe_psql('postgres', q{
		SELECT string_agg(DISTINCT run_by, ',') FROM partmgr.maintenance_log
		 WHERE object = 'tap_sec_a.t_p60'}),
	'run_maintenance_proc', 'the log says the procedure did it');
$node->safe_psql('postgres',
	"DELETE FROM cron.job WHERE jobname IN ('sec-postgres', 'sec-shadowed')");
assert_clean('pg_cron jobs');

# --- committing calls as a superuser: partition_data_proc, the health view,
# run_maintenance_proc with the shadowing search_path -------------------------
$node->safe_psql('postgres', q{
	SET ROLE tap_sec_att;
	INSERT INTO tap_sec_a.t (id, v) SELECT g, 'v' || g FROM generate_series(200, 205) g;
	INSERT INTO tap_sec_a.t (id, v) SELECT g, 'v' || g FROM generate_series(300, 305) g;
});
$node->safe_psql('postgres',
	"CALL partmgr.partition_data_proc('tap_sec_a.t', p_wait => 0, p_quiet => true)");
is( $node->safe_psql('postgres',
		"SELECT (to_regclass('tap_sec_a.t_p200') IS NOT NULL AND to_regclass('tap_sec_a.t_p300') IS NOT NULL)::text"),
	'true', 'CALL partition_data_proc as postgres moved the rows into new children');
is( $node->safe_psql('postgres', q{
		SET ROLE tap_sec_att;
		SELECT count(*) FROM ONLY tap_sec_a.t_default}),
	'0', 'the default partition is empty');
assert_clean('CALL partition_data_proc');

$node->safe_psql('postgres', q{
	SET ROLE tap_sec_att;
	INSERT INTO tap_sec_a.t (id, v) VALUES (5000, 'far');
	INSERT INTO tap_sec_a.tx (k, v) VALUES ('2090-01-01 00:00:00', 'far');
});
is( $node->safe_psql('postgres', q{
		SELECT count(*) FROM partmgr.health WHERE parent_table IN ('tap_sec_a.t', 'tap_sec_a.tx')}),
	'2', 'SELECT FROM partmgr.health as postgres: the attacker\'s sets are there');
is( $node->safe_psql('postgres', q{
		SELECT count(*) FROM partmgr.set_health(true) WHERE parent_table IN ('tap_sec_a.t', 'tap_sec_a.tx')}),
	'2', 'set_health(true) as postgres: likewise');
assert_clean('partmgr.health');

$node->safe_psql('postgres', q{
	SET ROLE tap_sec_att;
	INSERT INTO tap_sec_a.t (id, v) VALUES (315, 'v315');
});
my ($sec_ret, $sec_out, $sec_err) = $node->psql('postgres', 'CALL partmgr.run_maintenance_proc()',
	extra_params => [ '-U', 'tap_sec_su' ]);
like($sec_err, qr/ERROR:  maintenance of 1 partition set failed: "tap_sec_a\.dt"/,
	'the CALL ends with the ERROR naming the one set refused, the attacker\'s');
is( $node->safe_psql('postgres', 'SHOW search_path', extra_params => [ '-U', 'tap_sec_su' ]),
	'public, pg_catalog', 'tap_sec_su resolves names in public first');
ok( $node->safe_psql('postgres', "SELECT to_regclass('tap_sec_a.t_p310') IS NOT NULL") eq 't',
	'CALL run_maintenance_proc() with search_path = public, pg_catalog maintained the attacker\'s set');
assert_clean('CALL run_maintenance_proc() with search_path = public, pg_catalog');

$node->stop;
done_testing();
