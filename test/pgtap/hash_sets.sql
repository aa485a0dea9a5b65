-- pgTAP tests of hash sets and of change_interval's p_reshape_existing.
-- create_parent(p_type => 'hash') makes one child per remainder of the
-- modulus, named <parent>_h<modulus>_<remainder>, owned by the parent's
-- owner, with no default partition; maintenance leaves the set alone and the
-- functions that need ranges refuse it (0A000).  split_hash_partition and
-- merge_hash_partitions keep every row, each in the child PostgreSQL routes
-- it to, follow PostgreSQL's modulus rule and attach the new children without
-- a scan (a text key too); show_partitions(p_row_share) and health say how
-- rows spread.  change_interval(..., p_reshape_existing => true) registers
-- the reshapes that put the existing children on the new grid, which
-- run_reshape carries out and cancel_reshape drops.  Bad input gets its
-- SQLSTATE and changes nothing; only the set's owner reshapes its set, the
-- owner's code runs with the owner's rights, and a superuser's table stays
-- empty.  Inside the test's transaction a CALL is atomic: each reshape runs
-- whole in it.  Dates lie in 2030, so that no child depends on today's date.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = warning;

SELECT plan(146);

-- each child of a set but the default, with its bound, by name
CREATE FUNCTION public.hs_bounds(p_parent regclass)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT string_agg(c.relname || ' ' || pg_get_expr(c.relpartbound, c.oid), E'\n'
                      ORDER BY c.relname COLLATE "C")
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent AND c.relname !~ '_default$'
$$;

-- how many rows a table holds and a checksum of them
CREATE FUNCTION public.hs_rows(p_table text)
RETURNS text
LANGUAGE plpgsql STABLE AS $$
DECLARE
    r text;
BEGIN
    EXECUTE format('SELECT count(*) || '' '' || coalesce(sum(hashtext(t::text)), 0) FROM %s t', p_table::regclass)
       INTO r;
    RETURN r;
END
$$;

-- the rows of a hash set that are not in the child PostgreSQL routes them
-- to: the bound of the child holding each row, given to
-- satisfies_hash_partition() with the row's key
CREATE FUNCTION public.hs_misrouted(p_parent regclass, p_key text)
RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
    n bigint;
BEGIN
    EXECUTE format(
        $q$SELECT count(*) FROM %1$s t
             LEFT JOIN (SELECT c.oid,
                               (regexp_match(pg_get_expr(c.relpartbound, c.oid),
                                             'modulus (\d+), remainder (\d+)'))::int[] AS mr
                          FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                         WHERE i.inhparent = %2$s) b ON b.oid = t.tableoid
            WHERE b.oid IS NULL OR NOT satisfies_hash_partition(%2$s, b.mr[1], b.mr[2], t.%3$I)$q$,
        p_parent, p_parent::oid, p_key)
       INTO n;
    RETURN n;
END
$$;

-- the configuration of every set, the registered reshapes, the tables of
-- the test's schemas with their bounds, and how many log rows the sets of
-- schema hset have: what a call that fails must leave as it was
CREATE FUNCTION public.hs_state()
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT concat_ws(E'\n',
        (SELECT string_agg(parent_table || ' ' || partition_type || ' ' || partition_interval, ';'
                           ORDER BY parent_table) FROM partmgr.part_config),
        (SELECT string_agg(sub_parent, ';' ORDER BY sub_parent) FROM partmgr.part_config_sub),
        (SELECT string_agg(parent_table || ' ' || interval_end || ' ' || partition_interval, ';'
                           ORDER BY parent_table, interval_end) FROM partmgr.part_config_interval),
        (SELECT string_agg(parent_table || ' ' || kind || ' ' || source_tables::text || ' ' ||
                           target_tables::text || ' ' || target_bounds::text || ' ' || phase, ';'
                           ORDER BY operation_id) FROM partmgr.reshape_operation),
        (SELECT string_agg(n.nspname || '.' || c.relname || ' ' || c.relkind::text || ' ' ||
                           coalesce(pg_get_expr(c.relpartbound, c.oid), '-'), ';'
                           ORDER BY n.nspname, c.relname COLLATE "C")
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname IN ('hset', 'hs_mal') AND c.relkind IN ('r', 'p')),
        (SELECT count(*)::text FROM partmgr.maintenance_log WHERE parent_table NOT LIKE 'hs\_mal.%'))
$$;

------------------------------------------------------------------------------
-- roles: the owner of the sets and an attacker, each with exactly the
-- grants the documentation asks for; a superuser's table nobody may write
------------------------------------------------------------------------------
CREATE ROLE hs_owner NOSUPERUSER;
CREATE ROLE hs_mallory NOSUPERUSER;
GRANT USAGE, CREATE ON SCHEMA partmgr TO hs_owner, hs_mallory;
GRANT SELECT, INSERT, UPDATE, DELETE ON partmgr.part_config, partmgr.part_config_sub,
      partmgr.part_config_interval, partmgr.reshape_operation, partmgr.maintenance_log
   TO hs_owner, hs_mallory;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA partmgr TO hs_owner, hs_mallory;
CREATE SCHEMA hset AUTHORIZATION hs_owner;
CREATE SCHEMA hs_mal AUTHORIZATION hs_mallory;
GRANT USAGE ON SCHEMA hset TO hs_mallory;
CREATE TABLE public.hs_secret (id bigint);

------------------------------------------------------------------------------
-- A. hash sets: create_parent
------------------------------------------------------------------------------
SET ROLE hs_owner;
CREATE TABLE hset.hs (id bigint NOT NULL, v text, PRIMARY KEY (id)) PARTITION BY HASH (id);
CREATE INDEX hs_v_idx ON hset.hs (v);
RESET ROLE;

-- a superuser registers the owner's table
SELECT is(partmgr.create_parent('hset.hs', 'id', '4', p_type => 'hash'), true,
          'create_parent(p_type => ''hash'') registers a PARTITION BY HASH table, called by a superuser');
SELECT is(hs_bounds('hset.hs'),
$$hs_h4_0 FOR VALUES WITH (modulus 4, remainder 0)
hs_h4_1 FOR VALUES WITH (modulus 4, remainder 1)
hs_h4_2 FOR VALUES WITH (modulus 4, remainder 2)
hs_h4_3 FOR VALUES WITH (modulus 4, remainder 3)$$,
          'one child per remainder of the modulus, named <parent>_h<modulus>_<remainder>');
SELECT is((SELECT count(*)::int FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'hset.hs'::regclass AND c.relowner = 'hs_owner'::regrole), 4,
          'each child belongs to the parent''s owner, not to the superuser who called');
SELECT is((SELECT count(*)::int FROM pg_inherits i
             JOIN pg_index x ON x.indrelid = i.inhrelid
             JOIN pg_inherits ix ON ix.inhrelid = x.indexrelid
            WHERE i.inhparent = 'hset.hs'::regclass
              AND ix.inhparent IN ('hset.hs_pkey'::regclass, 'hset.hs_v_idx'::regclass)), 8,
          'each child has the parent''s two indexes, attached to them');
SELECT ok(to_regclass('hset.hs_default') IS NULL AND
          NOT EXISTS (SELECT FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                       WHERE i.inhparent = 'hset.hs'::regclass AND pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT'),
          'no default partition (PostgreSQL has none for HASH)');
SELECT is((SELECT control || ' ' || partition_type || ' ' || partition_interval || ' ' || default_table
             FROM partmgr.part_config WHERE parent_table = 'hset.hs'),
          'id hash 4 false', 'part_config: partition_type hash, partition_interval the modulus, no default table');
SELECT is((SELECT string_agg(object || ' ' || detail, ';' ORDER BY log_id) FROM partmgr.maintenance_log
            WHERE parent_table = 'hset.hs' AND action = 'create partition'),
          'hset.hs_h4_0 for values with (modulus 4, remainder 0);hset.hs_h4_1 for values with (modulus 4, remainder 1);'
          'hset.hs_h4_2 for values with (modulus 4, remainder 2);hset.hs_h4_3 for values with (modulus 4, remainder 3)',
          'maintenance_log has a create partition row per child, with its bound');

-- keys of other types, registered by the owner itself (a plain role with
-- the documented grants)
SET ROLE hs_owner;
CREATE TABLE hset.ht (k text PRIMARY KEY, n int) PARTITION BY HASH (k);
CREATE TABLE hset.hu (k uuid PRIMARY KEY, n int) PARTITION BY HASH (k);
CREATE TABLE hset.hn (k int, v text) PARTITION BY HASH (k);
SELECT lives_ok($$SELECT partmgr.create_parent('hset.ht', 'k', '3', p_type => 'hash')$$,
                'a text key: the owner, a plain role, registers its own hash set');
SELECT lives_ok($$SELECT partmgr.create_parent('hset.hu', 'k', '2', p_type => 'hash')$$,
                'a uuid key');
SELECT lives_ok($$SELECT partmgr.create_parent('hset.hn', 'k', '3', p_type => 'hash')$$,
                'a nullable int key (a NULL has a hash partition: remainder 0''s)');
INSERT INTO hset.ht SELECT 'key' || g, g FROM generate_series(1, 600) g;
INSERT INTO hset.hu SELECT md5(g::text)::uuid, g FROM generate_series(1, 200) g;
INSERT INTO hset.hn VALUES (NULL, 'null a'), (NULL, 'null b');
INSERT INTO hset.hn SELECT g, 'v' || g FROM generate_series(1, 30) g;
RESET ROLE;
SELECT is(hs_bounds('hset.ht') || E'\n' || hs_bounds('hset.hu') || E'\n' || hs_bounds('hset.hn'),
$$ht_h3_0 FOR VALUES WITH (modulus 3, remainder 0)
ht_h3_1 FOR VALUES WITH (modulus 3, remainder 1)
ht_h3_2 FOR VALUES WITH (modulus 3, remainder 2)
hu_h2_0 FOR VALUES WITH (modulus 2, remainder 0)
hu_h2_1 FOR VALUES WITH (modulus 2, remainder 1)
hn_h3_0 FOR VALUES WITH (modulus 3, remainder 0)
hn_h3_1 FOR VALUES WITH (modulus 3, remainder 1)
hn_h3_2 FOR VALUES WITH (modulus 3, remainder 2)$$,
          'text, uuid and nullable keys: a child per remainder each');
SELECT is(hs_misrouted('hset.ht', 'k') + hs_misrouted('hset.hu', 'k') + hs_misrouted('hset.hn', 'k'), 0::bigint,
          'every row of the three sets is in the child satisfies_hash_partition() says');
SELECT is((SELECT string_agg(DISTINCT tableoid::regclass::text, ',') FROM hset.hn WHERE k IS NULL), 'hset.hn_h3_0',
          'rows with a NULL key are in the child of remainder 0');

-- bad input: each fails with its SQLSTATE and changes nothing
SET ROLE hs_owner;
CREATE TABLE hset.hb (id bigint PRIMARY KEY, v text) PARTITION BY HASH (id);
CREATE TABLE hset.rg (id bigint PRIMARY KEY) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('hset.rg', 'id', '100', p_premake => 1, p_start_partition => '0');
CREATE TABLE hset.rg2 (id bigint PRIMARY KEY) PARTITION BY RANGE (id);
RESET ROLE;
CREATE TEMP TABLE hs_before AS SELECT hs_state() AS state, ''::text AS rows_all, ''::text AS rows_child,
                                      ''::text AS bounds;
GRANT SELECT, UPDATE ON hs_before TO hs_owner;

SELECT throws_ok($$SELECT partmgr.create_parent('hset.hb', 'id', '0', p_type => 'hash')$$, '22023', NULL,
                 'a modulus of 0: 22023');
SELECT throws_ok($$SELECT partmgr.create_parent('hset.hb', 'id', 'abc', p_type => 'hash')$$, '22023', NULL,
                 'a modulus that is no number: 22023');
SELECT throws_ok($$SELECT partmgr.create_parent('hset.hb', 'id', '1025', p_type => 'hash')$$, '22023', NULL,
                 'a modulus above 1024: 22023');
SELECT throws_ok($$SELECT partmgr.create_parent('hset.hb', 'id', '-4', p_type => 'hash')$$, '22023', NULL,
                 'a negative modulus: 22023');
SELECT throws_ok($$SELECT partmgr.create_parent('hset.hb', 'id', '4')$$, '22023', NULL,
                 'a HASH table without p_type => ''hash'': 22023');
SELECT throws_ok($$SELECT partmgr.create_parent('hset.rg2', 'id', '4', p_type => 'hash')$$, '22023', NULL,
                 'p_type => ''hash'' on a RANGE table: 22023');
SELECT throws_ok($$SELECT partmgr.create_parent('hset.hb', 'id', '4', p_type => 'hash', p_epoch => 'seconds')$$,
                 '22023', NULL, 'a hash set with p_epoch: 22023');
SELECT throws_ok($$SELECT partmgr.create_parent('hset.hb', 'id', '4', p_type => 'hash', p_constraint_cols => ARRAY['v'])$$,
                 '22023', NULL, 'a hash set with p_constraint_cols: 22023');
SELECT throws_ok($$SELECT partmgr.create_parent('hset.hb', 'id', '4', p_type => 'hash', p_date_trunc_interval => 'day')$$,
                 '22023', NULL, 'a hash set with p_date_trunc_interval: 22023');
SELECT throws_ok($$SELECT partmgr.create_sub_parent('hset.rg', 'id', '4', p_type => 'hash', p_declarative_check => 'yes')$$,
                 '22023', 'invalid value "hash" for p_type of a sub-set',
                 'create_sub_parent with p_type => ''hash'': 22023');
SELECT is(hs_state(), (SELECT state FROM hs_before),
          'after all of them the configuration, the tables and the log are as they were');

-- maintenance leaves a hash set alone
SELECT lives_ok($$SELECT partmgr.run_maintenance('hset.hs')$$, 'run_maintenance of a hash set raises nothing');
SELECT lives_ok($$SELECT partmgr.run_maintenance()$$, 'nor does run_maintenance() of every set');
SELECT is(hs_bounds('hset.hs'),
$$hs_h4_0 FOR VALUES WITH (modulus 4, remainder 0)
hs_h4_1 FOR VALUES WITH (modulus 4, remainder 1)
hs_h4_2 FOR VALUES WITH (modulus 4, remainder 2)
hs_h4_3 FOR VALUES WITH (modulus 4, remainder 3)$$,
          'and makes no child of it: nothing to premake, no default partition');
SELECT ok((SELECT maintenance_last_run IS NOT NULL FROM partmgr.part_config WHERE parent_table = 'hset.hs'),
          'maintenance_last_run is set: the run counts as done');
SELECT is((SELECT count(*)::int FROM partmgr.plan_maintenance('hset.hs')), 0,
          'plan_maintenance shows nothing for an idle hash set');

-- functions that need ranges refuse a hash set
UPDATE hs_before SET state = hs_state();
SET ROLE hs_owner;
CREATE TABLE hset.hs_undo (LIKE hset.hs);
RESET ROLE;
SELECT throws_ok($$SELECT * FROM partmgr.show_partition_name('hset.hs', '5')$$, '0A000', NULL,
                 'show_partition_name of a hash set: 0A000');
SELECT throws_ok($$SELECT * FROM partmgr.show_partition_info('hset.hs_h4_0')$$, '0A000', NULL,
                 'show_partition_info of a hash child: 0A000');
SELECT throws_ok($$SELECT partmgr.partition_gap_fill('hset.hs')$$, '0A000', NULL,
                 'partition_gap_fill: 0A000');
SELECT throws_ok($$SELECT partmgr.partition_data_time('hset.hs')$$, '0A000', NULL,
                 'partition_data_time: 0A000');
SELECT throws_ok($$SELECT partmgr.partition_data_id('hset.hs')$$, '0A000', NULL,
                 'partition_data_id: 0A000');
SELECT throws_ok($$CALL partmgr.partition_data_proc('hset.hs')$$, '0A000', NULL,
                 'partition_data_proc: 0A000');
SELECT throws_ok($$SELECT partmgr.undo_partition('hset.hs', 'hset.hs_undo')$$, '0A000', NULL,
                 'undo_partition: 0A000');
SELECT throws_ok($$SELECT partmgr.apply_constraints('hset.hs')$$, '0A000', NULL,
                 'apply_constraints: 0A000');
SELECT throws_ok($$SELECT partmgr.create_partition_id('hset.hs', ARRAY[5]::bigint[])$$, '0A000', NULL,
                 'create_partition_id: 0A000');
SELECT throws_ok($$SELECT partmgr.change_interval('hset.hs', '8')$$, '0A000', NULL,
                 'change_interval: 0A000');
SELECT throws_ok($$SELECT partmgr.create_sub_parent('hset.hs', 'id', '10', p_declarative_check => 'yes')$$, '0A000',
                 'partition set "hset.hs" is partitioned by HASH, but this function needs a range or list set',
                 'create_sub_parent of a hash set: 0A000');
DROP TABLE hset.hs_undo;
SELECT is(hs_state(), (SELECT state FROM hs_before), 'after all of them the set is as it was');

SELECT alike(partmgr.dump_partitioned_table_definition('hset.hs'),
             '%p_interval := ''4'',%p_type := ''hash'',%p_default_table := ''f''%',
             'dump_partitioned_table_definition writes p_interval := the modulus and p_type := ''hash''');

-- health: a balanced set, a hot child, a remainder without a child
SELECT partmgr.create_parent('hset.hb', 'id', '4', p_type => 'hash');
SET ROLE hs_owner;
INSERT INTO hset.hb SELECT g, 'v' || g FROM generate_series(1, 12000) g;
ANALYZE hset.hb;
CREATE TABLE hset.hh (id bigint PRIMARY KEY) PARTITION BY HASH (id);
RESET ROLE;
SELECT is((SELECT status || ' ' || coalesce(reason, '-') FROM partmgr.health WHERE parent_table = 'hset.hb'), 'ok -',
          'health: a balanced hash set of 12000 rows is ok');
SELECT partmgr.create_parent('hset.hh', 'id', '4', p_type => 'hash');
SET ROLE hs_owner;
-- 4000 keys spread evenly, then 3000 more of remainder 1: 57% of 7000 rows
-- in hh_h4_1
INSERT INTO hset.hh SELECT g FROM generate_series(1::bigint, 4000) g;
INSERT INTO hset.hh SELECT g FROM generate_series(4001::bigint, 100000) g
                     WHERE satisfies_hash_partition('hset.hh'::regclass, 4, 1, g) LIMIT 3000;
ANALYZE hset.hh;
RESET ROLE;
SELECT is((SELECT status || ' ' || coalesce(reason, '-') FROM partmgr.health WHERE parent_table = 'hset.hh'), 'ok -',
          'a set of fewer than 10000 rows is not judged on how they spread (57% of 7000 rows in one child of four)');
SET ROLE hs_owner;
-- 5000 more of remainder 1: three quarters of 12000 rows in hh_h4_1
INSERT INTO hset.hh SELECT g FROM generate_series(100001::bigint, 200000) g
                     WHERE satisfies_hash_partition('hset.hh'::regclass, 4, 1, g) LIMIT 5000;
ANALYZE hset.hh;
RESET ROLE;
SELECT is((SELECT status || ': ' || reason FROM partmgr.health WHERE parent_table = 'hset.hh'),
          'warning: child hset.hh_h4_1 holds 75.1% of the rows, more than twice the average child''s 25.0% (split_hash_partition() divides it)',
          'health: a child holding more than twice the rows of the average child, once the set holds 10000 rows, is a warning naming it');
SET ROLE hs_owner;
ALTER TABLE hset.hb DETACH PARTITION hset.hb_h4_3;
RESET ROLE;
SELECT is((SELECT status || ': ' || reason FROM partmgr.health WHERE parent_table = 'hset.hb'),
          'critical: its children hold 75.0% of the hash remainders: rows of the others are refused',
          'health: a remainder no child holds (a child detached by hand) is critical');

------------------------------------------------------------------------------
-- B. split_hash_partition and merge_hash_partitions
------------------------------------------------------------------------------
SET ROLE hs_owner;
INSERT INTO hset.hs SELECT g, 'v' || g FROM generate_series(1, 4000) g;
-- the child to split has a CHECK of its own, calling a function that
-- records who evaluates it with which search_path, and tries the
-- superuser's table
CREATE TABLE hset.audit (who text, path text);
CREATE FUNCTION hset.seen(p text) RETURNS boolean
LANGUAGE plpgsql AS $f$
BEGIN
    INSERT INTO hset.audit VALUES (current_user, current_setting('search_path'));
    BEGIN
        INSERT INTO public.hs_secret VALUES (length(p));
    EXCEPTION WHEN insufficient_privilege THEN
        NULL;
    END;
    RETURN true;
END
$f$;
ALTER TABLE hset.hs_h4_1 ADD CONSTRAINT v_seen CHECK (hset.seen(v));
DELETE FROM hset.audit;
RESET ROLE;
UPDATE hs_before SET rows_all = hs_rows('hset.hs'), rows_child = hs_rows('hset.hs_h4_1');

SELECT lives_ok($$CALL partmgr.split_hash_partition('hset.hs_h4_1', p_quiet => true)$$,
                'split_hash_partition of remainder 1 of 4, called by a superuser');
SELECT is(hs_bounds('hset.hs'),
$$hs_h4_0 FOR VALUES WITH (modulus 4, remainder 0)
hs_h4_2 FOR VALUES WITH (modulus 4, remainder 2)
hs_h4_3 FOR VALUES WITH (modulus 4, remainder 3)
hs_h8_1 FOR VALUES WITH (modulus 8, remainder 1)
hs_h8_5 FOR VALUES WITH (modulus 8, remainder 5)$$,
          'hs_h8_1 and hs_h8_5 (remainders 1 and 1 + 4 of 8) replace hs_h4_1; the other children are untouched');
SELECT is(hs_rows('hset.hs'), (SELECT rows_all FROM hs_before), 'every row is kept: count and checksum as before');
SELECT is((SELECT count(*) || ' ' || sum(hashtext(t::text)) FROM hset.hs t
            WHERE tableoid IN ('hset.hs_h8_1'::regclass, 'hset.hs_h8_5'::regclass)),
          (SELECT rows_child FROM hs_before), 'the two new children hold exactly the rows of the old one');
SELECT ok((SELECT count(*) FROM hset.hs_h8_1) > 0 AND (SELECT count(*) FROM hset.hs_h8_5) > 0,
          'both new children got rows');
SELECT is(hs_misrouted('hset.hs', 'id'), 0::bigint, 'each row is in the child PostgreSQL routes it to');
SELECT is((SELECT count(*)::int FROM pg_class c
             JOIN pg_index x ON x.indrelid = c.oid
             JOIN pg_inherits ix ON ix.inhrelid = x.indexrelid
            WHERE c.oid IN ('hset.hs_h8_1'::regclass, 'hset.hs_h8_5'::regclass) AND c.relowner = 'hs_owner'::regrole
              AND ix.inhparent IN ('hset.hs_pkey'::regclass, 'hset.hs_v_idx'::regclass)), 4,
          'the new children belong to the owner and have the parent''s two indexes, attached');
SELECT is((SELECT string_agg(conrelid::regclass || ' ' || conname, ',' ORDER BY conrelid::regclass::text)
             FROM pg_constraint WHERE conrelid IN ('hset.hs_h8_1'::regclass, 'hset.hs_h8_5'::regclass) AND contype = 'c'),
          'hset.hs_h8_1 v_seen,hset.hs_h8_5 v_seen',
          'they have the old child''s CHECK, and no CHECK of pg_partmgr''s own is left');
SELECT results_eq($$SELECT DISTINCT who, path FROM hset.audit$$, $$VALUES ('hs_owner'::text, 'pg_catalog, pg_temp'::text)$$,
                  'the owner''s CHECK function ran as the owner, not as the superuser who called, search_path pinned');
SELECT ok(NOT EXISTS (SELECT FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                       WHERE n.nspname = 'hset' AND c.relname ~ '_reshape\d')
          AND NOT EXISTS (SELECT FROM pg_trigger WHERE tgname LIKE 'partmgr_reshape%')
          AND NOT EXISTS (SELECT FROM partmgr.reshape_operation),
          'nothing of the work is left: no working table, no capture trigger, no reshape_operation row');
SELECT is((SELECT string_agg(action || ' ' || outcome, ',' ORDER BY log_id) FROM partmgr.maintenance_log
            WHERE parent_table = 'hset.hs' AND action IN ('register reshape', 'swap partitions')),
          'register reshape done,swap partitions done', 'maintenance_log has the registration and the swap');
SELECT is((SELECT partition_interval FROM partmgr.part_config WHERE parent_table = 'hset.hs'), '4',
          'part_config keeps the modulus the set was made with');

-- row shares: a set with moduli 4 and 8
ANALYZE hset.hs;
SELECT results_eq(
    $$SELECT partition_schemaname, partition_tablename, row_estimate, row_share, expected_share
        FROM partmgr.show_partitions('hset.hs', p_row_share => true)$$,
    $$SELECT 'hset'::text, c.relname::text COLLATE "default", n.rows,
             (n.rows::float8 / (SELECT count(*) FROM hset.hs)::float8)::numeric,
             (1.0::float8 / b.mr[1])::numeric
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        CROSS JOIN LATERAL (SELECT (regexp_match(pg_get_expr(c.relpartbound, c.oid),
                                                 'modulus (\d+), remainder (\d+)'))::int[] AS mr) b
        CROSS JOIN LATERAL (SELECT count(*) AS rows FROM hset.hs t WHERE t.tableoid = c.oid) n
       WHERE i.inhparent = 'hset.hs'::regclass
       ORDER BY b.mr[2]$$,
    'show_partitions(p_row_share => true): by remainder, each child''s rows, its share of them, 1 / its modulus');
SELECT is((SELECT string_agg(partition_tablename || ' ' || expected_share, ',')
             FROM partmgr.show_partitions('hset.hs', p_row_share => true)),
          'hs_h4_0 0.25,hs_h8_1 0.125,hs_h4_2 0.25,hs_h4_3 0.25,hs_h8_5 0.125',
          'ordered by remainder across moduli, expected shares 1/4 and 1/8');
SELECT is((SELECT count(*)::int FROM unnest((SELECT proargmodes FROM pg_proc
                                              WHERE oid = 'partmgr.show_partitions(text,text,boolean)'::regprocedure)) m
            WHERE m = 't'), 2, 'the 3-argument show_partitions (pg_partman''s) still returns two columns');
SELECT results_eq($$SELECT * FROM partmgr.show_partitions('hset.hs', 'ASC', false)$$,
                  $$VALUES ('hset'::text, 'hs_h4_0'::text), ('hset', 'hs_h8_1'), ('hset', 'hs_h4_2'),
                           ('hset', 'hs_h4_3'), ('hset', 'hs_h8_5')$$,
                  'and lists the children, schema and name');

-- a split of a split, registered first (p_start => false) by the owner
SET ROLE hs_owner;
UPDATE hs_before SET rows_all = hs_rows('hset.hs');
SELECT lives_ok($$CALL partmgr.split_hash_partition('hset.hs_h8_1', p_start => false, p_quiet => true)$$,
                'the owner registers a split of hs_h8_1 (p_start => false)');
SELECT results_eq($$SELECT parent_table, kind, source_tables, target_tables, target_bounds, phase
                      FROM partmgr.reshape_operation$$,
                  $$VALUES ('hset.hs'::text, 'hash split'::text, ARRAY['hset.hs_h8_1'], ARRAY['hs_h16_1', 'hs_h16_9'],
                            ARRAY['16/1', '16/9'], 'planned'::text)$$,
                  'reshape_operation: a hash split into remainders 1 and 9 of 16, phase planned');
SELECT is((SELECT string_agg(action || ' ' || object, ',' ORDER BY step) FROM partmgr.plan_maintenance('hset.hs')),
          (SELECT format('prepare reshape hset.hs_reshape%1$s,create new partition hset.hs_reshape%1$s_0,'
                         'create new partition hset.hs_reshape%1$s_1,capture changes hset.hs_h8_1,swap partitions hset.hs',
                         operation_id) FROM partmgr.reshape_operation),
          'plan_maintenance shows a registered hash split: its build and its swap');
SELECT lives_ok($$CALL partmgr.run_reshape('hset.hs', p_quiet => true)$$, 'run_reshape carries it out');
RESET ROLE;
SELECT is(hs_bounds('hset.hs'),
$$hs_h16_1 FOR VALUES WITH (modulus 16, remainder 1)
hs_h16_9 FOR VALUES WITH (modulus 16, remainder 9)
hs_h4_0 FOR VALUES WITH (modulus 4, remainder 0)
hs_h4_2 FOR VALUES WITH (modulus 4, remainder 2)
hs_h4_3 FOR VALUES WITH (modulus 4, remainder 3)
hs_h8_5 FOR VALUES WITH (modulus 8, remainder 5)$$,
          'moduli 4, 8 and 16 side by side');
SELECT is(hs_rows('hset.hs') || ' ' || hs_misrouted('hset.hs', 'id'), (SELECT rows_all FROM hs_before) || ' 0',
          'every row kept, each where PostgreSQL routes it');

-- PostgreSQL's modulus rule: with moduli 4, 8 and 16, remainder 3 of 4
-- splits into 8
SET ROLE hs_owner;
SELECT lives_ok($$CALL partmgr.split_hash_partition('hset.hs_h4_3', p_quiet => true)$$,
                'split of the modulus-4 child of remainder 3 in a set with moduli 4, 8 and 16');
SELECT is((SELECT string_agg(relname || ' ' || pg_get_expr(relpartbound, oid), ';' ORDER BY relname)
             FROM pg_class WHERE relnamespace = 'hset'::regnamespace AND relname IN ('hs_h4_3', 'hs_h8_3', 'hs_h8_7')),
          'hs_h8_3 FOR VALUES WITH (modulus 8, remainder 3);hs_h8_7 FOR VALUES WITH (modulus 8, remainder 7)',
          'into hs_h8_3 and hs_h8_7');
RESET ROLE;

-- bad input to the hash procedures
UPDATE hs_before SET state = hs_state();
SELECT throws_ok($$CALL partmgr.merge_hash_partitions(ARRAY['hset.hs_h4_0', 'hset.hs_h8_3'])$$, '22023', NULL,
                 'merge of children that are not the two halves of one remainder: 22023');
SELECT throws_ok($$CALL partmgr.merge_hash_partitions(ARRAY['hset.hs_h16_1', 'hset.hs_h8_5'])$$, '22023', NULL,
                 'merge of children of different moduli: 22023');
SELECT throws_ok($$CALL partmgr.merge_hash_partitions(ARRAY['hset.hs_h8_3', 'hset.hs_h8_7', 'hset.hs_h8_5'])$$,
                 '22023', NULL, 'merge of three children: 22023');
SELECT throws_ok($$CALL partmgr.merge_hash_partitions(ARRAY['hset.hs_h8_3'])$$, '22023', NULL,
                 'merge of one child: 22023');
SELECT throws_ok($$CALL partmgr.merge_hash_partitions(ARRAY['hset.hs_h4_0', 'hset.hu_h2_0'])$$, '22023', NULL,
                 'merge of children of two sets: 22023');
SELECT throws_ok($$CALL partmgr.split_partition('hset.hs_h4_0', '2')$$, '22023', NULL,
                 'split_partition of a hash child: 22023');
SELECT throws_ok($$CALL partmgr.merge_partitions(ARRAY['hset.hs_h8_3', 'hset.hs_h8_7'])$$, '22023', NULL,
                 'merge_partitions of hash children: 22023');
SELECT throws_ok($$CALL partmgr.split_hash_partition('hset.rg_p0')$$, '22023', NULL,
                 'split_hash_partition of a range child: 22023');
SELECT throws_ok($$CALL partmgr.split_hash_partition('hset.hn_h3_0')$$, '55000', NULL,
                 'split_hash_partition of a child without a primary key: 55000');
SELECT is(hs_state(), (SELECT state FROM hs_before), 'after all of them the sets and their tables are as they were');

-- merging back, the owner
SET ROLE hs_owner;
SELECT lives_ok($$CALL partmgr.merge_hash_partitions(ARRAY['hset.hs_h16_9', 'hset.hs_h16_1'], p_quiet => true)$$,
                'merge_hash_partitions of the two halves of remainder 1 of 8, given highest first');
SELECT is((SELECT pg_get_expr(relpartbound, oid) FROM pg_class WHERE oid = 'hset.hs_h8_1'::regclass),
          'FOR VALUES WITH (modulus 8, remainder 1)', 'makes hs_h8_1 again');
SELECT lives_ok($$CALL partmgr.merge_hash_partitions(ARRAY['hset.hs_h8_3', 'hset.hs_h8_7'], p_quiet => true)$$,
                'merge of hs_h8_3 and hs_h8_7');
SELECT lives_ok($$CALL partmgr.merge_hash_partitions(ARRAY['hset.hs_h8_1', 'hset.hs_h8_5'], p_quiet => true)$$,
                'merge of hs_h8_1 and hs_h8_5');
RESET ROLE;
SELECT is(hs_bounds('hset.hs'),
$$hs_h4_0 FOR VALUES WITH (modulus 4, remainder 0)
hs_h4_1 FOR VALUES WITH (modulus 4, remainder 1)
hs_h4_2 FOR VALUES WITH (modulus 4, remainder 2)
hs_h4_3 FOR VALUES WITH (modulus 4, remainder 3)$$,
          'merging back restores modulus 4 and the original children''s names');
SELECT is(hs_rows('hset.hs') || ' ' || hs_misrouted('hset.hs', 'id'), (SELECT rows_all FROM hs_before) || ' 0',
          'every row kept, each where PostgreSQL routes it');
SELECT is((SELECT string_agg(conname, ',') FROM pg_constraint WHERE conrelid = 'hset.hs_h4_1'::regclass AND contype = 'c'),
          'v_seen', 'the merged child has the CHECK of the children it replaces, and none of pg_partmgr''s');

-- a modulus that would break PostgreSQL's rule: children of modulus 3 and
-- of 9 (made by hand); remainder 0 of 3 would become 6, which neither
-- divides 9 nor is divided by it
SET ROLE hs_owner;
CREATE TABLE hset.hm (id bigint PRIMARY KEY) PARTITION BY HASH (id);
SELECT partmgr.create_parent('hset.hm', 'id', '3', p_type => 'hash');
ALTER TABLE hset.hm DETACH PARTITION hset.hm_h3_2;
DROP TABLE hset.hm_h3_2;
CREATE TABLE hset.hm_x2 PARTITION OF hset.hm FOR VALUES WITH (modulus 9, remainder 2);
CREATE TABLE hset.hm_x5 PARTITION OF hset.hm FOR VALUES WITH (modulus 9, remainder 5);
CREATE TABLE hset.hm_x8 PARTITION OF hset.hm FOR VALUES WITH (modulus 9, remainder 8);
INSERT INTO hset.hm SELECT generate_series(1, 300);
RESET ROLE;
UPDATE hs_before SET state = hs_state(), rows_all = hs_rows('hset.hm');
SELECT throws_ok($$CALL partmgr.split_hash_partition('hset.hm_h3_0', p_quiet => true)$$, '22023', NULL,
                 'a split to modulus 6 beside children of modulus 9: 22023');
SELECT is(hs_state(), (SELECT state FROM hs_before),
          'refused before anything is built: no reshape row, no working table, no new child');
SELECT lives_ok($$CALL partmgr.split_hash_partition('hset.hm_x2', p_quiet => true)$$,
                'a child made by hand, of modulus 9, splits into 18');
SELECT is(hs_bounds('hset.hm'),
$$hm_h18_11 FOR VALUES WITH (modulus 18, remainder 11)
hm_h18_2 FOR VALUES WITH (modulus 18, remainder 2)
hm_h3_0 FOR VALUES WITH (modulus 3, remainder 0)
hm_h3_1 FOR VALUES WITH (modulus 3, remainder 1)
hm_x5 FOR VALUES WITH (modulus 9, remainder 5)
hm_x8 FOR VALUES WITH (modulus 9, remainder 8)$$,
          'its new children get pg_partmgr''s names: hm_h18_2 and hm_h18_11');
SELECT is(hs_rows('hset.hm') || ' ' || hs_misrouted('hset.hm', 'id'), (SELECT rows_all FROM hs_before) || ' 0',
          'every row kept, each where PostgreSQL routes it');

-- a text key: the new children are attached behind PostgreSQL's own
-- partition constraint, so ATTACH scans neither of them
UPDATE hs_before SET rows_all = hs_rows('hset.ht');
SET ROLE hs_owner;
SELECT lives_ok($$CALL partmgr.split_hash_partition('hset.ht_h3_0', p_quiet => true)$$,
                'the owner splits a child of its text-keyed set');
RESET ROLE;
-- (before anything here reads them)
SELECT is((SELECT sum(seq_tup_read)::int FROM pg_stat_xact_user_tables
            WHERE relid IN ('hset.ht_h6_0'::regclass, 'hset.ht_h6_3'::regclass)), 0,
          'no row of the new children was read by a scan: ATTACH proved their bounds from their CHECK');
SELECT is(hs_bounds('hset.ht'),
$$ht_h3_1 FOR VALUES WITH (modulus 3, remainder 1)
ht_h3_2 FOR VALUES WITH (modulus 3, remainder 2)
ht_h6_0 FOR VALUES WITH (modulus 6, remainder 0)
ht_h6_3 FOR VALUES WITH (modulus 6, remainder 3)$$,
          'into ht_h6_0 and ht_h6_3');
SELECT is(hs_rows('hset.ht') || ' ' || hs_misrouted('hset.ht', 'k'), (SELECT rows_all FROM hs_before) || ' 0',
          'every row kept, each where PostgreSQL routes it (text hashed as PostgreSQL does)');
SELECT is((SELECT count(*)::int FROM pg_constraint
            WHERE conrelid IN ('hset.ht_h6_0'::regclass, 'hset.ht_h6_3'::regclass)
              AND (conname = 'partmgr_bound_check' OR conname LIKE 'partmgr%')), 0,
          'no partmgr_bound_check (nor any constraint of pg_partmgr''s) is left on the new children');
-- the measure above sees a scan when there is one: a child attached behind
-- a CHECK written in SQL (its input collation differs) is scanned
CREATE TABLE public.hs_ctl (k text NOT NULL) PARTITION BY HASH (k);
CREATE TABLE public.hs_ctl_0 (k text NOT NULL, CHECK (satisfies_hash_partition('public.hs_ctl'::regclass, 2, 0, k)));
INSERT INTO public.hs_ctl_0 SELECT k FROM hset.ht WHERE satisfies_hash_partition('public.hs_ctl'::regclass, 2, 0, k);
ALTER TABLE public.hs_ctl ATTACH PARTITION public.hs_ctl_0 FOR VALUES WITH (modulus 2, remainder 0);
SELECT ok((SELECT seq_tup_read FROM pg_stat_xact_user_tables WHERE relid = 'public.hs_ctl_0'::regclass) > 0,
          'control: ATTACH behind a CHECK written in SQL on a text key scans the child, and the measure sees it');

-- a uuid key
UPDATE hs_before SET rows_all = hs_rows('hset.hu');
SELECT lives_ok($$CALL partmgr.split_hash_partition('hset.hu_h2_1', p_quiet => true)$$,
                'split of a child of the uuid-keyed set');
SELECT is(hs_rows('hset.hu') || ' ' || hs_misrouted('hset.hu', 'k') || ' ' ||
          (SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class
            WHERE relnamespace = 'hset'::regnamespace AND relname LIKE 'hu\_h%' AND relkind = 'r'),
          (SELECT rows_all FROM hs_before) || ' 0 hu_h2_0,hu_h4_1,hu_h4_3',
          'every row kept and routed, in hu_h4_1 and hu_h4_3');

-- the hot child, split and analyzed: health measures a child against the
-- average child (a bound on the share its modulus gives it could never be
-- met by the halves of a hot remainder), so the split clears the warning
SELECT lives_ok($$CALL partmgr.split_hash_partition('hset.hh_h4_1', p_quiet => true)$$,
                'split of the hot child');
ANALYZE hset.hh;
SELECT is((SELECT status || ' ' || coalesce(reason, '')
             FROM partmgr.health WHERE parent_table = 'hset.hh'),
          'ok ',
          'health after the split: each half holds less than twice the average child''s rows, so no warning');

------------------------------------------------------------------------------
-- C. change_interval(..., p_reshape_existing => true)
------------------------------------------------------------------------------
SET ROLE hs_owner;
-- daily children from 2030-01-01 to 2030-01-08, rows every 97 minutes
CREATE TABLE hset.cd (id bigint NOT NULL, ts timestamptz NOT NULL, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('hset.cd', 'ts', '1 day', p_premake => 2, p_start_partition => '2030-01-01');
SELECT partmgr.create_partition_time('hset.cd', ARRAY['2030-01-02', '2030-01-03', '2030-01-04', '2030-01-05',
                                                      '2030-01-06', '2030-01-07', '2030-01-08']::timestamptz[]);
INSERT INTO hset.cd SELECT g, '2030-01-01'::timestamptz + g * interval '97 minutes' FROM generate_series(0, 117) g;
RESET ROLE;
UPDATE hs_before SET rows_all = hs_rows('hset.cd'), bounds = hs_bounds('hset.cd');

-- (the NOTICE that says how many reshapes were registered only reaches
-- the client: the rows of reshape_operation are checked instead)
SET ROLE hs_owner;
SELECT is(partmgr.change_interval('hset.cd', '2 days', p_reshape_existing => true), '2030-01-09 00:00:00+00',
          'change_interval to 2 days with p_reshape_existing, by the owner: new children from the end of the newest one');
RESET ROLE;
SELECT results_eq($$SELECT kind, source_tables, target_tables, target_bounds, target_interval, phase
                      FROM partmgr.reshape_operation WHERE parent_table = 'hset.cd' ORDER BY operation_id$$,
                  $$VALUES ('reshape'::text, ARRAY['hset.cd_p20300101', 'hset.cd_p20300102'], ARRAY['cd_p20300101'],
                            ARRAY['2030-01-01 00:00:00+00', '2030-01-03 00:00:00+00'], '2 days'::text, 'planned'::text),
                           ('reshape', ARRAY['hset.cd_p20300103', 'hset.cd_p20300104'], ARRAY['cd_p20300103'],
                            ARRAY['2030-01-03 00:00:00+00', '2030-01-05 00:00:00+00'], '2 days', 'planned'),
                           ('reshape', ARRAY['hset.cd_p20300105', 'hset.cd_p20300106'], ARRAY['cd_p20300105'],
                            ARRAY['2030-01-05 00:00:00+00', '2030-01-07 00:00:00+00'], '2 days', 'planned'),
                           ('reshape', ARRAY['hset.cd_p20300107', 'hset.cd_p20300108'], ARRAY['cd_p20300107'],
                            ARRAY['2030-01-07 00:00:00+00', '2030-01-09 00:00:00+00'], '2 days', 'planned')$$,
                  'four reshapes registered, kind reshape: each pair of days into one child of 2 days');
SELECT is(hs_bounds('hset.cd'), (SELECT bounds FROM hs_before), 'registering changes no child');
SELECT is((SELECT count(*)::int FROM partmgr.plan_maintenance('hset.cd') WHERE action = 'swap partitions'), 4,
          'plan_maintenance shows the four swaps');
SET ROLE hs_owner;
SELECT lives_ok($$CALL partmgr.run_reshape('hset.cd', p_quiet => true)$$, 'run_reshape carries them out, by the owner');
RESET ROLE;
SELECT is(hs_bounds('hset.cd'),
$$cd_p20300101 FOR VALUES FROM ('2030-01-01 00:00:00+00') TO ('2030-01-03 00:00:00+00')
cd_p20300103 FOR VALUES FROM ('2030-01-03 00:00:00+00') TO ('2030-01-05 00:00:00+00')
cd_p20300105 FOR VALUES FROM ('2030-01-05 00:00:00+00') TO ('2030-01-07 00:00:00+00')
cd_p20300107 FOR VALUES FROM ('2030-01-07 00:00:00+00') TO ('2030-01-09 00:00:00+00')$$,
          'children of 2 days on the new grid, named by their first day');
SELECT is(hs_rows('hset.cd'), (SELECT rows_all FROM hs_before), 'every row is kept: count and checksum as before');
SELECT results_eq($$SELECT tableoid::regclass::text, count(*)::int, min(ts), max(ts) FROM hset.cd GROUP BY 1 ORDER BY 1$$,
                  $$VALUES ('hset.cd_p20300101', 30, '2030-01-01 00:00+00'::timestamptz, '2030-01-02 22:53+00'::timestamptz),
                           ('hset.cd_p20300103', 30, '2030-01-03 00:30+00', '2030-01-04 23:23+00'),
                           ('hset.cd_p20300105', 30, '2030-01-05 01:00+00', '2030-01-06 23:53+00'),
                           ('hset.cd_p20300107', 28, '2030-01-07 01:30+00', '2030-01-08 21:09+00')$$,
                  'each row is in the child of its two days, none in the default');
SELECT is((SELECT count(*)::int FROM partmgr.part_config_interval WHERE parent_table = 'hset.cd'), 0,
          'part_config_interval holds no earlier interval: the whole set is on the 2-day grid');
SELECT is((SELECT partition_interval || ' ' || datetime_string FROM partmgr.part_config WHERE parent_table = 'hset.cd'),
          '2 days YYYYMMDD', 'part_config holds the new interval');
SELECT is((SELECT count(*)::int FROM partmgr.reshape_operation), 0, 'reshape_operation is empty');
SET ROLE hs_owner;
SELECT partmgr.run_maintenance('hset.cd');
RESET ROLE;
SELECT is((SELECT string_agg(relname || ' ' || pg_get_expr(relpartbound, oid), E'\n' ORDER BY relname)
             FROM pg_class WHERE relnamespace = 'hset'::regnamespace AND relname IN ('cd_p20300109', 'cd_p20300111', 'cd_p20300113')),
$$cd_p20300109 FOR VALUES FROM ('2030-01-09 00:00:00+00') TO ('2030-01-11 00:00:00+00')
cd_p20300111 FOR VALUES FROM ('2030-01-11 00:00:00+00') TO ('2030-01-13 00:00:00+00')$$,
          'run_maintenance premakes two children of 2 days after them');

-- a hole among the children: the part holding it, and what follows, are
-- left as they are
SET ROLE hs_owner;
CREATE TABLE hset.ch (id bigint NOT NULL, ts timestamptz NOT NULL, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('hset.ch', 'ts', '1 day', p_premake => 1, p_start_partition => '2030-01-01');
SELECT partmgr.create_partition_time('hset.ch', ARRAY['2030-01-02', '2030-01-03', '2030-01-04', '2030-01-05',
                                                      '2030-01-06', '2030-01-07', '2030-01-08']::timestamptz[]);
INSERT INTO hset.ch SELECT g, '2030-01-01'::timestamptz + g * interval '97 minutes' FROM generate_series(0, 117) g
                     WHERE '2030-01-01'::timestamptz + g * interval '97 minutes' NOT BETWEEN '2030-01-06' AND '2030-01-06 23:59:59';
ALTER TABLE hset.ch DETACH PARTITION hset.ch_p20300106;
DROP TABLE hset.ch_p20300106;
SELECT partmgr.change_interval('hset.ch', '2 days', p_reshape_existing => true);
RESET ROLE;
UPDATE hs_before SET rows_all = hs_rows('hset.ch');
SELECT is((SELECT string_agg(source_tables::text, ';' ORDER BY operation_id) FROM partmgr.reshape_operation
            WHERE parent_table = 'hset.ch'),
          '{hset.ch_p20300101,hset.ch_p20300102};{hset.ch_p20300103,hset.ch_p20300104}',
          'a set missing its child of 2030-01-06: the two parts before the hole are registered');
SET ROLE hs_owner;
CALL partmgr.run_reshape('hset.ch', p_quiet => true);
RESET ROLE;
SELECT is(hs_bounds('hset.ch'),
$$ch_p20300101 FOR VALUES FROM ('2030-01-01 00:00:00+00') TO ('2030-01-03 00:00:00+00')
ch_p20300103 FOR VALUES FROM ('2030-01-03 00:00:00+00') TO ('2030-01-05 00:00:00+00')
ch_p20300105 FOR VALUES FROM ('2030-01-05 00:00:00+00') TO ('2030-01-06 00:00:00+00')
ch_p20300107 FOR VALUES FROM ('2030-01-07 00:00:00+00') TO ('2030-01-08 00:00:00+00')
ch_p20300108 FOR VALUES FROM ('2030-01-08 00:00:00+00') TO ('2030-01-09 00:00:00+00')$$,
          'after run_reshape: two children of 2 days; the daily children from the part with the hole on are left as they are');
SELECT is(hs_rows('hset.ch'), (SELECT rows_all FROM hs_before), 'every row is kept');

-- registered, then cancelled
SET ROLE hs_owner;
CREATE TABLE hset.cc (id bigint NOT NULL, ts timestamptz NOT NULL, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('hset.cc', 'ts', '1 day', p_premake => 1, p_start_partition => '2030-01-01');
SELECT partmgr.create_partition_time('hset.cc', ARRAY['2030-01-02', '2030-01-03', '2030-01-04']::timestamptz[]);
INSERT INTO hset.cc SELECT g, '2030-01-01'::timestamptz + g * interval '3 hours' FROM generate_series(0, 31) g;
RESET ROLE;
UPDATE hs_before SET rows_all = hs_rows('hset.cc'), bounds = hs_bounds('hset.cc');
SET ROLE hs_owner;
SELECT partmgr.change_interval('hset.cc', '2 days', p_reshape_existing => true);
SELECT is((SELECT count(*)::int FROM partmgr.reshape_operation WHERE parent_table = 'hset.cc'), 2,
          'another set: two reshapes registered');
SELECT is(partmgr.cancel_reshape('hset.cc'), 2, 'cancel_reshape after registering drops both');
RESET ROLE;
SELECT is((SELECT count(*)::int FROM partmgr.reshape_operation WHERE parent_table = 'hset.cc'), 0,
          'no reshape_operation row is left');
SELECT is(hs_bounds('hset.cc') || E'\n' || hs_rows('hset.cc'),
          (SELECT bounds || E'\n' || rows_all FROM hs_before), 'the daily children and their rows are as they were');
SELECT is((SELECT string_agg(interval_end || ' ' || partition_interval, ';') FROM partmgr.part_config_interval
            WHERE parent_table = 'hset.cc') || ' | ' ||
          (SELECT partition_interval FROM partmgr.part_config WHERE parent_table = 'hset.cc'),
          '2030-01-05 00:00:00+00 1 day | 2 days',
          'the interval change itself stays: daily children below 2030-01-05, 2 days from there');

-- without p_reshape_existing nothing is registered
SET ROLE hs_owner;
CREATE TABLE hset.cn (id bigint NOT NULL, ts timestamptz NOT NULL, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('hset.cn', 'ts', '1 day', p_premake => 1, p_start_partition => '2030-01-01');
SELECT partmgr.create_partition_time('hset.cn', ARRAY['2030-01-02', '2030-01-03', '2030-01-04']::timestamptz[]);
RESET ROLE;
UPDATE hs_before SET bounds = hs_bounds('hset.cn');
SET ROLE hs_owner;
SELECT partmgr.change_interval('hset.cn', '2 days', p_reshape_existing => false);
RESET ROLE;
SELECT is((SELECT count(*)::int FROM partmgr.reshape_operation WHERE parent_table = 'hset.cn'), 0,
          'with p_reshape_existing false no reshape is registered');
SELECT is(hs_bounds('hset.cn'), (SELECT bounds FROM hs_before), 'and the daily children keep their bounds');

-- an id set: children of 10 from 0 to 50 become children of 20
SET ROLE hs_owner;
CREATE TABLE hset.ci (id bigint PRIMARY KEY) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('hset.ci', 'id', '10', p_premake => 1, p_start_partition => '0');
SELECT partmgr.create_partition_id('hset.ci', ARRAY[10, 20, 30, 40]::bigint[]);
INSERT INTO hset.ci SELECT generate_series(0, 49);
RESET ROLE;
UPDATE hs_before SET rows_all = hs_rows('hset.ci');
SET ROLE hs_owner;
SELECT is(partmgr.change_interval('hset.ci', '20', p_reshape_existing => true), '50',
          'an id set: the new interval starts at 50');
RESET ROLE;
SELECT results_eq($$SELECT kind, source_tables, target_tables, target_bounds, target_interval
                      FROM partmgr.reshape_operation WHERE parent_table = 'hset.ci' ORDER BY operation_id$$,
                  $$VALUES ('reshape'::text, ARRAY['hset.ci_p0', 'hset.ci_p10'], ARRAY['ci_p0'], ARRAY['0', '20'], '20'::text),
                           ('reshape', ARRAY['hset.ci_p20', 'hset.ci_p30'], ARRAY['ci_p20'], ARRAY['20', '40'], '20')$$,
                  'two reshapes registered: [0, 20) and [20, 40); [40, 50) is one piece of the new grid already');
SET ROLE hs_owner;
CALL partmgr.run_reshape('hset.ci', p_quiet => true);
SELECT partmgr.run_maintenance('hset.ci');
INSERT INTO hset.ci VALUES (55);
SELECT partmgr.run_maintenance('hset.ci');
RESET ROLE;
SELECT is(hs_bounds('hset.ci'),
$$ci_p0 FOR VALUES FROM ('0') TO ('20')
ci_p20 FOR VALUES FROM ('20') TO ('40')
ci_p40 FOR VALUES FROM ('40') TO ('50')
ci_p50 FOR VALUES FROM ('50') TO ('60')
ci_p60 FOR VALUES FROM ('60') TO ('80')$$,
          'after run_reshape children of 20 named by their lower bound; premake goes on with 20 from 60');
SELECT is((SELECT count(*) FROM hset.ci) || ' ' || (SELECT count(*) FROM hset.ci WHERE id < 50 AND
                                                     tableoid IN ('hset.ci_p0'::regclass, 'hset.ci_p20'::regclass, 'hset.ci_p40'::regclass)),
          '51 50', 'every row of the id set kept, the old ones in the reshaped children');

------------------------------------------------------------------------------
-- D. the trust boundary
------------------------------------------------------------------------------
SET ROLE hs_owner;
CREATE TABLE hset.victim (id bigint PRIMARY KEY) PARTITION BY HASH (id);
GRANT SELECT, INSERT ON hset.victim, hset.hs, hset.hs_h4_0 TO hs_mallory;
RESET ROLE;
UPDATE hs_before SET state = hs_state(), rows_all = hs_rows('hset.hs');
SET ROLE hs_mallory;
SELECT throws_ok($$SELECT partmgr.create_parent('hset.victim', 'id', '4', p_type => 'hash')$$, '42501', NULL,
                 'another role cannot make a hash set of the owner''s table: 42501');
SELECT throws_ok($$CALL partmgr.split_hash_partition('hset.hs_h4_0')$$, '42501', NULL,
                 'nor split a child of the owner''s hash set: 42501');
SELECT throws_ok($$CALL partmgr.merge_hash_partitions(ARRAY['hset.hs_h4_0', 'hset.hs_h4_2'])$$, '42501', NULL,
                 'nor merge its children: 42501');
SELECT throws_ok($$INSERT INTO partmgr.reshape_operation (parent_table, kind, source_tables, target_tables, target_bounds)
                   VALUES ('hset.hs', 'hash split', ARRAY['hset.hs_h4_0'], ARRAY['hs_h8_0', 'hs_h8_4'], ARRAY['8/0', '8/4'])$$,
                 '42501', NULL, 'nor register a hash split of it in reshape_operation: 42501');
-- a hash split of its own set, forged to replace the owner's child
CREATE TABLE hs_mal.m (id bigint PRIMARY KEY) PARTITION BY HASH (id);
SELECT partmgr.create_parent('hs_mal.m', 'id', '2', p_type => 'hash');
CALL partmgr.split_hash_partition('hs_mal.m_h2_0', p_start => false, p_quiet => true);
UPDATE partmgr.reshape_operation SET source_tables = ARRAY['hset.hs_h4_0'] WHERE parent_table = 'hs_mal.m';
SELECT throws_ok($$CALL partmgr.run_reshape('hs_mal.m', p_quiet => true)$$, '22023', NULL,
                 'its own hash split forged to replace the owner''s child is refused: no child of its set (22023)');
SELECT is(partmgr.cancel_reshape('hs_mal.m'), 1, 'cancel_reshape of its own set drops the forged reshape');
-- its own hash set whose child has a CHECK that tries the superuser's table;
-- the split is registered and a superuser carries out every reshape
CREATE TABLE hs_mal.audit (who text);
CREATE FUNCTION hs_mal.f(p bigint) RETURNS boolean
LANGUAGE plpgsql AS $f$
BEGIN
    INSERT INTO hs_mal.audit VALUES (current_user);
    BEGIN
        INSERT INTO public.hs_secret VALUES (p);
    EXCEPTION WHEN insufficient_privilege THEN
        NULL;
    END;
    RETURN true;
END
$f$;
INSERT INTO hs_mal.m SELECT generate_series(1, 50);
ALTER TABLE hs_mal.m_h2_1 ADD CONSTRAINT f CHECK (hs_mal.f(id));
DELETE FROM hs_mal.audit;
CALL partmgr.split_hash_partition('hs_mal.m_h2_1', p_start => false, p_quiet => true);
RESET ROLE;
SELECT lives_ok($$CALL partmgr.run_reshape(p_quiet => true)$$,
                'a superuser carries out every registered reshape, the other role''s included');
SELECT is((SELECT string_agg(DISTINCT who, ',') FROM hs_mal.audit), 'hs_mallory',
          'the other role''s CHECK ran with its own rights, not the superuser''s');
SELECT is(hs_bounds('hs_mal.m'),
$$m_h2_0 FOR VALUES WITH (modulus 2, remainder 0)
m_h4_1 FOR VALUES WITH (modulus 4, remainder 1)
m_h4_3 FOR VALUES WITH (modulus 4, remainder 3)$$,
          'and its split was carried out');
SELECT is((SELECT count(*)::int FROM public.hs_secret), 0, 'the superuser''s table stays empty');
SET ROLE hs_mallory;
SELECT partmgr.config_cleanup('hs_mal.m');
DROP TABLE hs_mal.m;
DROP TABLE hs_mal.audit;
RESET ROLE;
SELECT is(hs_state() || E'\n' || hs_rows('hset.hs'), (SELECT state || E'\n' || rows_all FROM hs_before),
          'the owner''s sets, tables and rows are as they were');

------------------------------------------------------------------------------
-- the dump of a split hash set, replayed on the table as it is: "replaying
-- it on the table as it is adopts the existing children" (reference.md);
-- here remainder 0 of 2 is held by hd_h4_0 and hd_h4_2
------------------------------------------------------------------------------
SET ROLE hs_owner;
CREATE TABLE hset.hd (id bigint PRIMARY KEY) PARTITION BY HASH (id);
SELECT partmgr.create_parent('hset.hd', 'id', '2', p_type => 'hash');
INSERT INTO hset.hd SELECT generate_series(1, 100);
CALL partmgr.split_hash_partition('hset.hd_h2_0', p_quiet => true);
RESET ROLE;
CREATE TEMP TABLE hs_dump AS SELECT partmgr.dump_partitioned_table_definition('hset.hd') AS sql,
                                    hs_bounds('hset.hd') AS bounds;
SELECT partmgr.config_cleanup('hset.hd', p_template_table => false);
SELECT lives_ok($q$DO $do$ BEGIN EXECUTE (SELECT sql FROM hs_dump); END $do$$q$,
                'the dump of a hash set with a split child replays on the table as it is (it adopts the children)');
SELECT is((SELECT partition_type || ' ' || partition_interval FROM partmgr.part_config WHERE parent_table = 'hset.hd'),
          'hash 2', 'after the replay hset.hd is registered again as a hash set of modulus 2');
SELECT is(hs_bounds('hset.hd'), (SELECT bounds FROM hs_dump), 'and its children are as they were');

-- a key that can be NULL: no primary key can include it, the hint says what works
CREATE TABLE hset.hnk (k int, seq bigint NOT NULL) PARTITION BY HASH (k);
SELECT partmgr.create_parent('hset.hnk', 'k', '2', p_type => 'hash');
INSERT INTO hset.hnk SELECT CASE WHEN g % 10 = 0 THEN NULL ELSE g END, g FROM generate_series(1, 400) g;
SELECT throws_ok($$CALL partmgr.split_hash_partition('hset.hnk_h2_0', p_quiet => true)$$,
                 '55000', 'child hset.hnk_h2_0 of "hset.hnk" has no primary key',
                 'splitting a child without a key index of a set whose key can be NULL: 55000');
CREATE FUNCTION pg_temp.hn_hint() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    hint text;
BEGIN
    CALL partmgr.split_hash_partition('hset.hnk_h2_0', p_quiet => true);
    RETURN NULL;
EXCEPTION WHEN object_not_in_prerequisite_state THEN
    GET STACKED DIAGNOSTICS hint = PG_EXCEPTION_HINT;
    RETURN hint;
END
$$;
SELECT is(pg_temp.hn_hint(),
          'Column k can be NULL, so no primary key can include it: add a unique index on NOT NULL columns to the child (CREATE UNIQUE INDEX ON hset.hnk_h2_0 (...)).',
          'the hint says that a primary key cannot include the key, and what to add instead');
CREATE UNIQUE INDEX ON hset.hnk_h2_0 (seq);
SELECT lives_ok($$CALL partmgr.split_hash_partition('hset.hnk_h2_0', p_quiet => true)$$,
                'with a unique index on a NOT NULL column of the child, the split is done');
SELECT is((SELECT count(*) || ' rows, ' || count(k) || ' keys' FROM hset.hnk), '400 rows, 360 keys',
          'every row is kept, those with a NULL key too');

SELECT * FROM finish();
ROLLBACK;
