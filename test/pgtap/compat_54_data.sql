-- pgTAP tests of pg_partman 5.3/5.4's changes to the functions that move
-- rows: p_ignore_infinity on partition_data_time, partition_data_proc and
-- check_default; p_analyze, the fourth parameter of reapply_constraints_proc;
-- the default partition refused as p_source_table.
--
-- A child covers a finite range of time, so a row keyed at infinity or
-- -infinity can never leave the default partition (or a source table).
-- Without p_ignore_infinity, moving reaches such a row and fails with 22008,
-- naming the table and the flag, and moves nothing; with it, those rows stay
-- where they are, every other row moves, and check_default does not count
-- them.  Keys that cannot be infinite (epoch integers) take the flag and it
-- changes nothing; for encoded keys, a row is at infinity when its decoded
-- time is.
--
-- The procedures run all their batches in this transaction (p_wait => 0).
-- Deterministic: keys in 2100, explicit rows.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = error;

SELECT plan(58);

-- Row count and checksum of a table with its partitions.
CREATE FUNCTION public.tap_c54_digest(p_table regclass)
RETURNS text
LANGUAGE plpgsql STABLE AS $$
DECLARE
    result text;
BEGIN
    EXECUTE format('SELECT count(*) || '' rows, checksum '' || coalesce(sum(hashtext(t::text)::bigint), 0) FROM %s AS t',
                   p_table) INTO result;
    RETURN result;
END
$$;

-- The rows of a set's default partition, as text, in key order.
CREATE FUNCTION public.tap_c54_in_default(p_default regclass, p_key text)
RETURNS text
LANGUAGE plpgsql STABLE AS $$
DECLARE
    result text;
BEGIN
    EXECUTE format('SELECT coalesce(string_agg(%I::text, '' '' ORDER BY %I), '''') FROM ONLY %s',
                   p_key, p_key, p_default) INTO result;
    RETURN result;
END
$$;

-- check_default()'s rows for one default partition (NULL when none).
CREATE FUNCTION public.tap_c54_check(p_default text, p_exact boolean, p_ignore boolean)
RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT count FROM partmgr.check_default(p_exact, p_ignore) WHERE default_table = p_default
$$;

-- ANALYZE runs of one set that the maintenance log recorded for a caller.
CREATE FUNCTION public.tap_c54_analyzes(p_parent text, p_run_by text)
RETURNS int
LANGUAGE sql STABLE AS $$
    SELECT count(*)::int FROM partmgr.maintenance_log
     WHERE parent_table = p_parent AND run_by = p_run_by AND action = 'analyze'
$$;

CREATE TABLE public.tap_c54_before (label text PRIMARY KEY, val text);

------------------------------------------------------------------------------
-- signatures: pg_partman 5.4.4's positions and defaults, no second overload
------------------------------------------------------------------------------
SELECT has_function('partmgr', 'partition_data_time',
    ARRAY['text', 'integer', 'interval', 'numeric', 'text', 'boolean', 'text', 'text[]', 'boolean', 'boolean'],
    'partition_data_time: p_ignore_infinity is the 10th parameter');
SELECT hasnt_function('partmgr', 'partition_data_time',
    ARRAY['text', 'integer', 'interval', 'numeric', 'text', 'boolean', 'text', 'text[]', 'boolean'],
    'partition_data_time: the 9-parameter declaration is gone');
SELECT has_function('partmgr', 'partition_data_proc',
    ARRAY['text', 'integer', 'text', 'integer', 'integer', 'integer', 'text', 'text', 'text[]', 'boolean', 'boolean'],
    'partition_data_proc: p_ignore_infinity is the 11th parameter');
SELECT hasnt_function('partmgr', 'partition_data_proc',
    ARRAY['text', 'integer', 'text', 'integer', 'integer', 'integer', 'text', 'text', 'text[]', 'boolean'],
    'partition_data_proc: the 10-parameter declaration is gone');
SELECT has_function('partmgr', 'check_default', ARRAY['boolean', 'boolean'],
    'check_default(p_exact_count, p_ignore_infinity)');
SELECT hasnt_function('partmgr', 'check_default', ARRAY['boolean'],
    'check_default(boolean) is gone');
SELECT is((SELECT pg_get_function_arguments('partmgr.check_default(boolean, boolean)'::regprocedure)),
    'p_exact_count boolean DEFAULT true, p_ignore_infinity boolean DEFAULT false',
    'check_default: names and defaults');
SELECT is((SELECT pg_get_function_arguments(p.oid) FROM pg_proc p
            WHERE p.proname = 'reapply_constraints_proc' AND p.pronamespace = 'partmgr'::regnamespace),
    'IN p_parent_table text, IN p_drop_constraints boolean DEFAULT false, IN p_apply_constraints boolean DEFAULT false, IN p_analyze boolean DEFAULT true, IN p_wait integer DEFAULT 0, IN p_dryrun boolean DEFAULT false',
    'reapply_constraints_proc: p_analyze is the 4th parameter, one declaration');

------------------------------------------------------------------------------
-- timestamptz set: rows at infinity and -infinity in the default partition
------------------------------------------------------------------------------
CREATE TABLE public.tap_c54t (id int NOT NULL, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_c54t', 'ts', '1 day', p_start_partition => '2100-01-10',
                             p_premake => 1);
-- 2 rows at infinity, 1 at -infinity, 6 rows on three days outside the children
INSERT INTO public.tap_c54t VALUES
    (1, 'infinity'), (2, 'infinity'), (3, '-infinity'),
    (4, '2100-01-01 01:00+00'), (5, '2100-01-01 02:00+00'), (6, '2100-01-03 00:00+00'),
    (7, '2100-01-03 23:00+00'), (8, '2100-01-20 12:00+00'), (9, '2100-01-20 13:00+00');
INSERT INTO tap_c54_before VALUES ('c54t', tap_c54_digest('public.tap_c54t'));

SELECT is(tap_c54_check('public.tap_c54t_default', true, false), 9::bigint,
    'check_default(): every row of the default counts, those at infinity too');
SELECT is(tap_c54_check('public.tap_c54t_default', true, true), 6::bigint,
    'check_default(p_ignore_infinity => true): the 6 finite rows');
SELECT is(tap_c54_check('public.tap_c54t_default', false, false), 1::bigint,
    'check_default(false): 1, there is a row');
SELECT is(tap_c54_check('public.tap_c54t_default', false, true), 1::bigint,
    'check_default(false, true): 1, there is a finite row');
SELECT is((SELECT count FROM partmgr.check_default(p_ignore_infinity => true)
            WHERE default_table = 'public.tap_c54t_default'), 6::bigint,
    'check_default: p_ignore_infinity by name');

-- without the flag: a clear error, nothing moved
SELECT throws_ok($$SELECT partmgr.partition_data_time('public.tap_c54t', p_batch_count => 10)$$,
    '22008', 'default partition public.tap_c54t_default of "public.tap_c54t" holds rows with ts -infinity, which no child can hold',
    'partition_data_time without p_ignore_infinity, ASC: 22008 at -infinity');
SELECT throws_ok($$SELECT partmgr.partition_data_time('public.tap_c54t', p_order => 'DESC')$$,
    '22008', 'default partition public.tap_c54t_default of "public.tap_c54t" holds rows with ts infinity, which no child can hold',
    'partition_data_time without p_ignore_infinity, DESC: 22008 at infinity');
SELECT is(tap_c54_digest('public.tap_c54t'), (SELECT val FROM tap_c54_before WHERE label = 'c54t'),
    'after the errors every row is still there');
SELECT is((SELECT count(*)::int FROM pg_inherits WHERE inhparent = 'public.tap_c54t'::regclass), 2,
    'and no child was made (the default and the child of 2100-01-10)');
CREATE FUNCTION public.tap_c54_hint(p_sql text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    hint text;
BEGIN
    EXECUTE p_sql;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS hint = PG_EXCEPTION_HINT;
    RETURN hint;
END
$$;
SELECT is(tap_c54_hint($$SELECT partmgr.partition_data_time('public.tap_c54t')$$),
    'Pass p_ignore_infinity => true to leave them where they are and move the other rows.',
    'the hint names p_ignore_infinity');

-- with the flag: the finite rows move, the infinite ones stay
SELECT is(partmgr.partition_data_time('public.tap_c54t', p_batch_count => 10, p_ignore_infinity => true),
    6::bigint, 'partition_data_time(p_ignore_infinity => true) moves the 6 finite rows');
SELECT is(tap_c54_in_default('public.tap_c54t_default', 'ts'), '-infinity infinity infinity',
    'the default partition holds the rows at infinity and -infinity, nothing else');
SELECT is(tap_c54_digest('public.tap_c54t'), (SELECT val FROM tap_c54_before WHERE label = 'c54t'),
    'no row was lost or doubled');
SELECT is((SELECT string_agg(tableoid::regclass::text || ':' || id, ' ' ORDER BY id) FROM public.tap_c54t WHERE id > 3),
    'tap_c54t_p21000101:4 tap_c54t_p21000101:5 tap_c54t_p21000103:6 tap_c54t_p21000103:7 tap_c54t_p21000120:8 tap_c54t_p21000120:9',
    'each finite row is in the child of its day');
SELECT is(tap_c54_check('public.tap_c54t_default', true, true), NULL::bigint,
    'check_default(true, true): the default is not listed any more');
SELECT is(tap_c54_check('public.tap_c54t_default', false, true), NULL::bigint,
    'check_default(false, true): not listed either');
SELECT is(tap_c54_check('public.tap_c54t_default', true, false), 3::bigint,
    'check_default(): the 3 rows at infinity are still counted');
SELECT is(partmgr.partition_data_time('public.tap_c54t', p_ignore_infinity => true), 0::bigint,
    'again: nothing left to move, no error');

------------------------------------------------------------------------------
-- partition_data_proc passes the flag to every batch
------------------------------------------------------------------------------
CREATE TABLE public.tap_c54p (id int NOT NULL, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_c54p', 'ts', '1 day', p_start_partition => '2100-01-10',
                             p_premake => 1);
-- -infinity is the smallest key: every batch (ASC) would meet it first
INSERT INTO public.tap_c54p VALUES (1, '-infinity'), (2, 'infinity'),
    (3, '2100-01-01 00:00+00'), (4, '2100-01-02 00:00+00'), (5, '2100-01-03 00:00+00'), (6, '2100-01-04 00:00+00');
SELECT throws_ok($$CALL partmgr.partition_data_proc('public.tap_c54p', p_wait => 0, p_quiet => true)$$,
    '22008', 'default partition public.tap_c54p_default of "public.tap_c54p" holds rows with ts -infinity, which no child can hold',
    'partition_data_proc without p_ignore_infinity: 22008');
CALL partmgr.partition_data_proc('public.tap_c54p', p_loop_count => 2, p_wait => 0, p_quiet => true,
                                 p_ignore_infinity => true);
SELECT is(tap_c54_in_default('public.tap_c54p_default', 'ts'), '-infinity 2100-01-03 00:00:00+00 2100-01-04 00:00:00+00 infinity',
    'partition_data_proc(p_loop_count => 2, p_ignore_infinity => true): two batches, two days');
CALL partmgr.partition_data_proc('public.tap_c54p', p_wait => 0, p_quiet => true, p_ignore_infinity => true);
SELECT is(tap_c54_in_default('public.tap_c54p_default', 'ts'), '-infinity infinity',
    'partition_data_proc(p_ignore_infinity => true): every batch left the rows at infinity, the rest moved');
SELECT is((SELECT count(*)::int FROM partmgr.maintenance_log
            WHERE parent_table = 'public.tap_c54p' AND run_by = 'partition_data_proc' AND action = 'create partition'), 4,
    'four children were made, one per batch');

------------------------------------------------------------------------------
-- p_source_table: rows at infinity stay in the source
------------------------------------------------------------------------------
CREATE TABLE public.tap_c54_src (id int NOT NULL, ts timestamptz NOT NULL);
INSERT INTO public.tap_c54_src VALUES (10, 'infinity'), (11, '2100-01-05 00:00+00'), (12, '-infinity');
SELECT throws_ok($$SELECT partmgr.partition_data_time('public.tap_c54p', p_batch_count => 5, p_source_table => 'public.tap_c54_src')$$,
    '22008', 'source table public.tap_c54_src holds rows with ts -infinity, which no child of "public.tap_c54p" can hold',
    'from a source table without the flag: 22008 naming the source');
SELECT is(partmgr.partition_data_time('public.tap_c54p', p_batch_count => 5, p_source_table => 'public.tap_c54_src',
                                      p_ignore_infinity => true), 1::bigint,
    'from a source table with the flag: the one finite row moves');
SELECT is(tap_c54_in_default('public.tap_c54_src', 'ts'), '-infinity infinity',
    'the rows at infinity stay in the source table');
SELECT is((SELECT tableoid::regclass::text FROM public.tap_c54p WHERE id = 11), 'tap_c54p_p21000105',
    'the finite row is in its child');

------------------------------------------------------------------------------
-- date key; epoch key (cannot be infinite); encoded key (decoded infinity)
------------------------------------------------------------------------------
CREATE TABLE public.tap_c54d (id int NOT NULL, d date NOT NULL) PARTITION BY RANGE (d);
SELECT partmgr.create_parent('public.tap_c54d', 'd', '1 month', p_start_partition => '2100-06-01',
                             p_premake => 1);
INSERT INTO public.tap_c54d VALUES (1, 'infinity'), (2, '2100-01-05'), (3, '-infinity');
SELECT is(tap_c54_check('public.tap_c54d_default', true, true), 1::bigint,
    'date key: check_default(true, true) counts the finite row');
SELECT is(partmgr.partition_data_time('public.tap_c54d', p_batch_count => 5, p_ignore_infinity => true), 1::bigint,
    'date key: p_ignore_infinity moves the finite row');
SELECT is(tap_c54_in_default('public.tap_c54d_default', 'd'), '-infinity infinity',
    'date key: the rows at infinity stay');

CREATE TABLE public.tap_c54e (id int NOT NULL, t bigint NOT NULL) PARTITION BY RANGE (t);
SELECT partmgr.create_parent('public.tap_c54e', 't', '1 day', p_epoch => 'seconds',
                             p_start_partition => '2100-01-10', p_premake => 1);
-- 2100-01-01 and 2100-01-02, in the default
INSERT INTO public.tap_c54e VALUES (1, 4102444800), (2, 4102531200);
SELECT is(tap_c54_check('public.tap_c54e_default', true, true), tap_c54_check('public.tap_c54e_default', true, false),
    'epoch key: check_default counts the same with and without the flag');
SELECT is(partmgr.partition_data_time('public.tap_c54e', p_batch_count => 5, p_ignore_infinity => true), 2::bigint,
    'epoch key: p_ignore_infinity is accepted and every row moves');

CREATE FUNCTION public.tap_c54_encode(timestamptz) RETURNS text LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'ev-' || lpad(extract(epoch FROM $1)::bigint::text, 12, '0') $$;
CREATE FUNCTION public.tap_c54_decode(text) RETURNS timestamptz LANGUAGE sql IMMUTABLE
    AS $$ SELECT CASE WHEN $1 = 'ev-~forever' THEN 'infinity'::timestamptz
                      ELSE to_timestamp(substr($1, 4)::bigint) END $$;
CREATE TABLE public.tap_c54x (k text COLLATE "C" NOT NULL) PARTITION BY RANGE (k);
SELECT partmgr.create_parent('public.tap_c54x', 'k', '1 day', p_start_partition => '2100-01-10 00:00+00',
                             p_premake => 1, p_time_encoder => 'public.tap_c54_encode',
                             p_time_decoder => 'public.tap_c54_decode');
INSERT INTO public.tap_c54x VALUES ('ev-~forever'), (public.tap_c54_encode('2100-01-02 05:00+00'));
SELECT is(tap_c54_check('public.tap_c54x_default', true, true), 1::bigint,
    'encoded key: check_default(true, true) leaves out the row whose decoded time is infinity');
SELECT throws_ok($$SELECT partmgr.partition_data_time('public.tap_c54x', p_batch_count => 5, p_order => 'DESC')$$,
    '22008', 'default partition public.tap_c54x_default of "public.tap_c54x" holds rows with k infinity, which no child can hold',
    'encoded key without the flag: 22008 at the decoded infinity');
SELECT is(partmgr.partition_data_time('public.tap_c54x', p_batch_count => 5, p_order => 'DESC',
                                      p_ignore_infinity => true), 1::bigint,
    'encoded key with the flag: the other row moves');
SELECT is(tap_c54_in_default('public.tap_c54x_default', 'k'), 'ev-~forever',
    'encoded key: the row at infinity stays');

------------------------------------------------------------------------------
-- the default partition as p_source_table (pg_partman 5.3)
------------------------------------------------------------------------------
SELECT throws_ok($$SELECT partmgr.partition_data_time('public.tap_c54t', p_source_table => 'public.tap_c54t_default')$$,
    '42809', 'source table public.tap_c54t_default is the default partition of "public.tap_c54t"',
    'partition_data_time refuses the default as its source');
SELECT throws_ok($$CALL partmgr.partition_data_proc('public.tap_c54t', p_source_table => 'public.tap_c54t_default',
                                                    p_wait => 0, p_quiet => true)$$,
    '42809', 'source table public.tap_c54t_default is the default partition of "public.tap_c54t"',
    'partition_data_proc refuses it');
CREATE TABLE public.tap_c54i (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_c54i', 'id', '10', p_start_partition => '0', p_premake => 1);
INSERT INTO public.tap_c54i VALUES (55);
SELECT throws_ok($$SELECT partmgr.partition_data_id('public.tap_c54i', p_source_table => 'public.tap_c54i_default')$$,
    '42809', 'source table public.tap_c54i_default is the default partition of "public.tap_c54i"',
    'partition_data_id refuses it');
SELECT is(tap_c54_hint($$SELECT partmgr.partition_data_id('public.tap_c54i', p_source_table => 'public.tap_c54i_default')$$),
    'Leave p_source_table NULL to move rows out of the default partition.', 'with a hint');

------------------------------------------------------------------------------
-- reapply_constraints_proc: p_analyze fourth; the dry run never analyzes
------------------------------------------------------------------------------
CREATE TABLE public.tap_c54c (id bigint NOT NULL, v int NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_c54c', 'id', '10', p_start_partition => '0', p_premake => 4,
                             p_constraint_cols => ARRAY['v']);
INSERT INTO public.tap_c54c SELECT g, g FROM generate_series(0, 45) g;
CALL partmgr.reapply_constraints_proc('public.tap_c54c', true, true, false);
SELECT is(tap_c54_analyzes('public.tap_c54c', 'reapply_constraints_proc'), 0,
    'reapply_constraints_proc(t, true, true, false): the 4th argument is p_analyze, no ANALYZE');
CALL partmgr.reapply_constraints_proc('public.tap_c54c', true, true, true, 0);
SELECT is(tap_c54_analyzes('public.tap_c54c', 'reapply_constraints_proc'), 1,
    'reapply_constraints_proc(t, true, true, true, 0): one ANALYZE of the parent');
CALL partmgr.reapply_constraints_proc('public.tap_c54c', p_drop_constraints => true, p_analyze => false);
SELECT is(tap_c54_analyzes('public.tap_c54c', 'reapply_constraints_proc'), 1,
    'p_analyze => false by name: no ANALYZE');
CALL partmgr.reapply_constraints_proc('public.tap_c54c', p_apply_constraints => true);
SELECT is(tap_c54_analyzes('public.tap_c54c', 'reapply_constraints_proc'), 2,
    'p_analyze defaults to true');
CALL partmgr.reapply_constraints_proc('public.tap_c54c', true, true, true, 0, true);
SELECT is(tap_c54_analyzes('public.tap_c54c', 'reapply_constraints_proc'), 2,
    'the dry run (p_analyze true) does not analyze');

------------------------------------------------------------------------------
-- the library under the 0.1.0 declarations (before ALTER EXTENSION UPDATE):
-- the arguments they lack take their defaults
------------------------------------------------------------------------------
CREATE FUNCTION public.tap_c54_old_check_default(p_exact_count boolean DEFAULT true)
    RETURNS SETOF partmgr.check_default_table LANGUAGE C STABLE
    AS '$libdir/pg_partmgr', 'pg_partmgr_check_default';
CREATE PROCEDURE public.tap_c54_old_reapply(p_parent_table text, p_drop_constraints boolean DEFAULT false,
    p_apply_constraints boolean DEFAULT false, p_wait int DEFAULT 0, p_dryrun boolean DEFAULT false)
    LANGUAGE C AS '$libdir/pg_partmgr', 'pg_partmgr_reapply_constraints_proc';
SELECT is((SELECT count FROM public.tap_c54_old_check_default() WHERE default_table = 'public.tap_c54t_default'),
    3::bigint, 'the 0.1.0 check_default(boolean) counts every row, as before');
CALL public.tap_c54_old_reapply('public.tap_c54c', true, true, 0);
SELECT is(tap_c54_analyzes('public.tap_c54c', 'reapply_constraints_proc'), 3,
    'the 0.1.0 reapply_constraints_proc: the 4th argument is p_wait, and it analyzes');
CALL public.tap_c54_old_reapply('public.tap_c54c', true, true, 0, true);
SELECT is(tap_c54_analyzes('public.tap_c54c', 'reapply_constraints_proc'), 3,
    'the 0.1.0 reapply_constraints_proc: the 5th argument is p_dryrun');

------------------------------------------------------------------------------
-- a plain role and another role's set
------------------------------------------------------------------------------
CREATE ROLE tap_c54_owner NOSUPERUSER;
CREATE ROLE tap_c54_other NOSUPERUSER;
GRANT USAGE, CREATE ON SCHEMA partmgr TO tap_c54_owner, tap_c54_other;
GRANT ALL ON ALL TABLES IN SCHEMA partmgr TO tap_c54_owner, tap_c54_other;
GRANT ALL ON ALL SEQUENCES IN SCHEMA partmgr TO tap_c54_owner, tap_c54_other;
CREATE SCHEMA tap_c54s AUTHORIZATION tap_c54_owner;
GRANT USAGE ON SCHEMA tap_c54s TO tap_c54_other;
SET ROLE tap_c54_owner;
CREATE TABLE tap_c54s.theirs (id int NOT NULL, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('tap_c54s.theirs', 'ts', '1 day', p_start_partition => '2100-01-10', p_premake => 1);
INSERT INTO tap_c54s.theirs VALUES (1, 'infinity'), (2, '2100-01-01 00:00+00');
GRANT SELECT, INSERT, UPDATE, DELETE ON tap_c54s.theirs TO tap_c54_other;
RESET ROLE;
INSERT INTO tap_c54_before VALUES ('theirs', tap_c54_digest('tap_c54s.theirs'));
SET ROLE tap_c54_other;
SELECT is((SELECT count(*)::int FROM partmgr.check_default(true, true) WHERE default_table LIKE 'tap_c54s.%'), 0,
    'another role: check_default(true, true) does not report the owner''s default');
SELECT throws_ok($$SELECT partmgr.partition_data_time('tap_c54s.theirs', p_ignore_infinity => true)$$,
    '42501', NULL, 'another role: partition_data_time(p_ignore_infinity => true) of the owner''s set: 42501');
RESET ROLE;
SELECT is(tap_c54_digest('tap_c54s.theirs'), (SELECT val FROM tap_c54_before WHERE label = 'theirs'),
    'the owner''s rows did not move');

SELECT * FROM finish();
ROLLBACK;
