-- pgTAP tests of derived constraints on stale children (pg_partman's
-- constraint_cols / optimize_constraint): the configuration and its
-- validation, which children are eligible, what they get, when
-- run_maintenance() adds and validates them, apply_constraints(),
-- drop_constraints(), reapply_constraints_proc, and what the planner makes
-- of them.
--
-- Children are ordered by their bounds (never the default partition); with N
-- the position of the newest child holding rows, the non-empty children at
-- positions <= N - optimize_constraint (pg_partman 5.2's rule) get, per
-- column of constraint_cols, a
-- CHECK named partmanconstr_<child>_<column> covering the column's min..max
-- (or IS NULL when every row holds NULL).  run_maintenance() adds them NOT
-- VALID, at most 10 children per set per pass, newest first, and validates
-- them at its next call (unless constraint_valid is false).
--
-- The procedures cannot commit inside this transaction: they run atomically
-- in it, which is what they are tested for here.
--
-- Deterministic: explicit ids, far-future times (2100); every plan assertion
-- first shows that the plan scans every child without the constraints.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = error;

SELECT plan(84);

-- The partmanconstr_ constraints of the children of a parent, one row per
-- child that has any (C order of the child names): the column suffixes and
-- whether they are validated ('valid', 'not valid' or 'mixed').
CREATE FUNCTION public.tap_cons(p_parent regclass)
RETURNS TABLE (child text, cols text, validated text)
LANGUAGE sql STABLE AS $$
    SELECT c.relname::text COLLATE "default",
           string_agg(substr(k.conname, length('partmanconstr_' || c.relname) + 2), ','
                      ORDER BY k.conname COLLATE "C") COLLATE "default",
           CASE WHEN bool_and(k.convalidated) THEN 'valid'
                WHEN NOT bool_or(k.convalidated) THEN 'not valid'
                ELSE 'mixed' END COLLATE "default"
      FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
      JOIN pg_constraint k ON k.conrelid = c.oid AND k.contype = 'c' AND k.conname LIKE 'partmanconstr\_%'
     WHERE i.inhparent = p_parent
     GROUP BY c.relname
     ORDER BY c.relname COLLATE "C"
$$;

-- The children of a parent that have partmanconstr_ constraints, in order of
-- their names' length then name (bound order for id children), space separated.
CREATE FUNCTION public.tap_cons_children(p_parent regclass)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce(string_agg(child, ' ' ORDER BY length(child), child COLLATE "C"), '')
      FROM public.tap_cons(p_parent)
$$;

-- Name and definition of the partmanconstr_ constraints of one table.
CREATE FUNCTION public.tap_cons_defs(p_table regclass)
RETURNS TABLE (conname text, def text)
LANGUAGE sql STABLE AS $$
    SELECT k.conname::text COLLATE "default", pg_get_constraintdef(k.oid) COLLATE "default"
      FROM pg_constraint k
     WHERE k.conrelid = p_table AND k.contype = 'c' AND k.conname LIKE 'partmanconstr\_%'
     ORDER BY k.conname COLLATE "C"
$$;

-- The relations an EXPLAIN of the query scans (C order, space separated).
CREATE FUNCTION public.tap_cons_scans(p_query text)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    plan text := '';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || p_query LOOP
        plan := plan || line || E'\n';
    END LOOP;
    RETURN (SELECT coalesce(string_agg(m[1], ' ' ORDER BY m[1] COLLATE "C"), '')
              FROM regexp_matches(plan, ' on ([a-z0-9_]+)', 'g') AS m);
END
$$;

-- SQLSTATE and message of the error a statement raises, or 'no error'.
CREATE FUNCTION public.tap_cons_error(p_sql text)
RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE p_sql;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;

-- What a refused call must leave alone: every part_config row, every
-- relation, every partmanconstr_ constraint (with its validation) and the
-- size of the maintenance log.
CREATE FUNCTION public.tap_cons_state()
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT (SELECT md5(coalesce(string_agg(pc::text, E'\n' ORDER BY pc.parent_table), ''))
              FROM partmgr.part_config pc)
        || ' / ' ||
           (SELECT md5(string_agg(c.oid::text || ' ' || c.relname || ' ' || c.relispartition::text, E'\n'
                                  ORDER BY c.oid))
              FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname NOT LIKE 'pg\_temp\_%' AND n.nspname NOT LIKE 'pg\_toast\_temp\_%')
        || ' / ' ||
           (SELECT md5(coalesce(string_agg(k.oid::text || ' ' || k.conname || ' ' || k.convalidated::text, E'\n'
                                           ORDER BY k.oid), ''))
              FROM pg_constraint k WHERE k.conname LIKE 'partmanconstr\_%')
        || ' / log ' || (SELECT count(*) FROM partmgr.maintenance_log)
$$;

-- The oids of the partmanconstr_ constraints of a set's children (to show
-- that a call did not touch them).
CREATE FUNCTION public.tap_cons_oids(p_parent regclass)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce(string_agg(k.oid::text, ',' ORDER BY k.oid), '')
      FROM pg_inherits i JOIN pg_constraint k ON k.conrelid = i.inhrelid
     WHERE i.inhparent = p_parent AND k.contype = 'c' AND k.conname LIKE 'partmanconstr\_%'
$$;

CREATE TABLE public.tap_cons_before (label text PRIMARY KEY, val text);

SELECT has_function('partmgr', 'apply_constraints', ARRAY['text', 'text', 'boolean', 'bigint'],
    'apply_constraints(text, text, boolean, bigint) exists (pg_partman 5.1)');
SELECT has_function('partmgr', 'drop_constraints', ARRAY['text', 'text', 'boolean'],
    'drop_constraints(text, text, boolean) exists (pg_partman 5.1)');
SELECT has_function('partmgr', 'reapply_constraints_proc', ARRAY['text', 'boolean', 'boolean', 'boolean', 'integer', 'boolean'],
    'reapply_constraints_proc(text, boolean, boolean, boolean, int, boolean) exists (pg_partman 5.4: p_analyze fourth)');

------------------------------------------------------------------------------
-- configuration: create_parent, UPDATE and INSERT of constraint_cols are
-- validated; every refusal leaves everything as it was
------------------------------------------------------------------------------
CREATE TABLE public.tap_cb (id int NOT NULL, v int, w text, p point, j json) PARTITION BY RANGE (id);
CREATE TABLE public.tap_cb2 (id int NOT NULL, v int) PARTITION BY RANGE (id);
INSERT INTO tap_cons_before VALUES ('config', tap_cons_state());

SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_cb', 'id', '10', p_constraint_cols => ARRAY['nope'])$$,
    '42703', NULL, 'create_parent: a constraint column the parent does not have is refused (42703)');
SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_cb', 'id', '10', p_constraint_cols => ARRAY['v', 'id'])$$,
    '22023', NULL, 'create_parent: the control column as a constraint column is refused (22023)');
SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_cb', 'id', '10', p_constraint_cols => ARRAY['p'])$$,
    '42883', NULL, 'create_parent: a point column (no default btree operator class) is refused (42883)');
SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_cb', 'id', '10', p_constraint_cols => ARRAY['j'])$$,
    '42883', NULL, 'create_parent: a json column (no default btree operator class) is refused (42883)');
SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_cb', 'id', '10', p_constraint_cols => ARRAY['v', 'w', 'v'])$$,
    '42701', NULL, 'create_parent: the same constraint column twice is refused (42701)');
SELECT is(tap_cons_state(), (SELECT val FROM tap_cons_before WHERE label = 'config'),
    'refused create_parent calls: no part_config row, no child, nothing logged');

SELECT partmgr.create_parent('public.tap_cb', 'id', '10', p_start_partition => '0', p_premake => 1,
                             p_constraint_cols => ARRAY['v']);
SELECT results_eq($$SELECT constraint_cols, optimize_constraint, constraint_valid
                      FROM partmgr.part_config WHERE parent_table = 'public.tap_cb'$$,
    $$VALUES (ARRAY['v'], 30, true)$$,
    'create_parent stores p_constraint_cols; optimize_constraint defaults to 30, constraint_valid to true');

INSERT INTO tap_cons_before VALUES ('config2', tap_cons_state());
SELECT throws_ok($$UPDATE partmgr.part_config SET constraint_cols = ARRAY['nope'] WHERE parent_table = 'public.tap_cb'$$,
    '42703', NULL, 'UPDATE part_config: a missing column is refused (42703)');
SELECT throws_ok($$UPDATE partmgr.part_config SET constraint_cols = ARRAY['id'] WHERE parent_table = 'public.tap_cb'$$,
    '22023', NULL, 'UPDATE part_config: the control column is refused (22023)');
SELECT throws_ok($$UPDATE partmgr.part_config SET constraint_cols = ARRAY['v', 'p'] WHERE parent_table = 'public.tap_cb'$$,
    '42883', NULL, 'UPDATE part_config: a point column is refused (42883)');
SELECT throws_ok($$UPDATE partmgr.part_config SET constraint_cols = ARRAY['w', 'w'] WHERE parent_table = 'public.tap_cb'$$,
    '42701', NULL, 'UPDATE part_config: a repeated column is refused (42701)');
SELECT throws_ok($$INSERT INTO partmgr.part_config (parent_table, control, partition_interval, partition_type, constraint_cols)
                   VALUES ('public.tap_cb2', 'id', '10', 'range', ARRAY['nope'])$$,
    '42703', NULL, 'INSERT INTO part_config: a missing column is refused (42703)');
SELECT is(tap_cons_state(), (SELECT val FROM tap_cons_before WHERE label = 'config2'),
    'refused UPDATE and INSERT: part_config and the tables unchanged');
SELECT lives_ok($$UPDATE partmgr.part_config SET constraint_cols = ARRAY['v', 'w'] WHERE parent_table = 'public.tap_cb'$$,
    'UPDATE part_config to two valid columns is accepted');
SELECT is((SELECT constraint_cols FROM partmgr.part_config WHERE parent_table = 'public.tap_cb'), ARRAY['v', 'w'],
    'the accepted constraint_cols are stored');

------------------------------------------------------------------------------
-- id set with integer, text, timestamptz and all-NULL constraint columns:
-- eligibility, run_maintenance() adds NOT VALID then validates at its next
-- call, the planner then skips children
------------------------------------------------------------------------------
CREATE TABLE public.tap_ci (id int NOT NULL, v int, t text, ts timestamptz, n int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_ci', 'id', '10', p_start_partition => '0', p_premake => 3,
                             p_constraint_cols => ARRAY['v', 't', 'ts', 'n']);
SELECT partmgr.create_partition_id('public.tap_ci', ARRAY[10, 20, 30, 40, 50, 60, 70, 80, 90]::bigint[]);
UPDATE partmgr.part_config SET optimize_constraint = 3 WHERE parent_table = 'public.tap_ci';
-- rows in p0, p10 and p30..p60 (p20 empty); n NULL in every row of p0;
-- one row in the default partition
INSERT INTO public.tap_ci
SELECT g, 1000 + 2 * g, 'k' || lpad(g::text, 3, '0'), timestamptz '2100-01-01 00:00+00' + g * interval '1 day',
       CASE WHEN g >= 10 THEN g END
  FROM generate_series(0, 69) g WHERE g NOT BETWEEN 20 AND 29;
INSERT INTO public.tap_ci VALUES (1000, 5000, 'z', '2101-01-01', 1000);

SELECT is_empty($$SELECT * FROM tap_cons('public.tap_ci')$$,
    'create_parent with constraint_cols adds no constraint by itself');
SELECT is(tap_cons_scans('SELECT * FROM public.tap_ci WHERE v = 1024'),
    'tap_ci_default tap_ci_p0 tap_ci_p10 tap_ci_p20 tap_ci_p30 tap_ci_p40 tap_ci_p50 tap_ci_p60 tap_ci_p70 tap_ci_p80 tap_ci_p90',
    'without constraints a query on v scans every child');

SELECT partmgr.run_maintenance();
SELECT results_eq($$SELECT * FROM tap_cons('public.tap_ci')$$,
    $$VALUES ('tap_ci_p0', 'n,t,ts,v', 'not valid'), ('tap_ci_p10', 'n,t,ts,v', 'not valid'),
             ('tap_ci_p30', 'n,t,ts,v', 'not valid')$$,
    'first run_maintenance(): p0, p10, p30 (3 or more below p60, optimize_constraint 3) get a NOT VALID constraint per column; p20 (empty), p40..p90 and the default nothing');
SELECT is_empty($$SELECT * FROM tap_cons('public.tap_cb')$$,
    'a set with constraint_cols but no rows: no child is eligible');
INSERT INTO public.tap_cb VALUES (500, 1, 'x', NULL, NULL);
SELECT partmgr.apply_constraints('public.tap_cb');
SELECT is_empty($$SELECT * FROM tap_cons('public.tap_cb')$$,
    'rows only in the default partition: still no child is eligible');
-- values that need quoting, an explicit child that is the newest with rows
INSERT INTO public.tap_cb VALUES (1, 3, 'x''y', NULL, NULL), (2, 4, 'a\b', NULL, NULL);
SELECT partmgr.apply_constraints('public.tap_cb', 'public.tap_cb_p0');
SELECT results_eq($$SELECT * FROM tap_cons_defs('public.tap_cb_p0')$$,
    $$VALUES ('partmanconstr_tap_cb_p0_v', 'CHECK (((v >= 3) AND (v <= 4)))'),
             ('partmanconstr_tap_cb_p0_w', 'CHECK (((w >= ''a\b''::text) AND (w <= ''x''''y''::text)))')$$,
    'text bounds with a quote and a backslash are quoted correctly');
SELECT results_eq($$SELECT * FROM tap_cons_defs('public.tap_ci_p0')$$,
    $$VALUES ('partmanconstr_tap_ci_p0_n', 'CHECK ((n IS NULL)) NOT VALID'),
             ('partmanconstr_tap_ci_p0_t', 'CHECK (((t >= ''k000''::text) AND (t <= ''k009''::text))) NOT VALID'),
             ('partmanconstr_tap_ci_p0_ts', 'CHECK (((ts >= ''2100-01-01 00:00:00+00''::timestamp with time zone) AND (ts <= ''2100-01-10 00:00:00+00''::timestamp with time zone))) NOT VALID'),
             ('partmanconstr_tap_ci_p0_v', 'CHECK (((v >= 1000) AND (v <= 1018))) NOT VALID')$$,
    'p0: integer, text and timestamptz ranges from min to max, IS NULL for the all-NULL column');
SELECT is(tap_cons_scans('SELECT * FROM public.tap_ci WHERE v = 1024'),
    'tap_ci_default tap_ci_p0 tap_ci_p10 tap_ci_p20 tap_ci_p30 tap_ci_p40 tap_ci_p50 tap_ci_p60 tap_ci_p70 tap_ci_p80 tap_ci_p90',
    'NOT VALID constraints do not let the planner skip a child yet');
SELECT results_eq($$SELECT object, outcome FROM partmgr.maintenance_log
                     WHERE parent_table = 'public.tap_ci' AND action = 'add constraints' ORDER BY object COLLATE "C"$$,
    $$VALUES ('public.tap_ci_p0', 'done'), ('public.tap_ci_p10', 'done'), ('public.tap_ci_p30', 'done')$$,
    'maintenance_log: one ''add constraints'' row per child, done');

SELECT partmgr.run_maintenance('public.tap_ci');
SELECT results_eq($$SELECT * FROM tap_cons('public.tap_ci')$$,
    $$VALUES ('tap_ci_p0', 'n,t,ts,v', 'valid'), ('tap_ci_p10', 'n,t,ts,v', 'valid'),
             ('tap_ci_p30', 'n,t,ts,v', 'valid')$$,
    'second run_maintenance(): the constraints are validated, no other child got any');
SELECT ok((SELECT count(*) > 0 AND bool_and(outcome = 'done') FROM partmgr.maintenance_log
            WHERE parent_table = 'public.tap_ci' AND action = 'validate constraint'),
    'maintenance_log: ''validate constraint'' rows, done');
SELECT results_eq($$SELECT * FROM tap_cons_defs('public.tap_ci_p30')$$,
    $$VALUES ('partmanconstr_tap_ci_p30_n', 'CHECK (((n >= 30) AND (n <= 39)))'),
             ('partmanconstr_tap_ci_p30_t', 'CHECK (((t >= ''k030''::text) AND (t <= ''k039''::text)))'),
             ('partmanconstr_tap_ci_p30_ts', 'CHECK (((ts >= ''2100-01-31 00:00:00+00''::timestamp with time zone) AND (ts <= ''2100-02-09 00:00:00+00''::timestamp with time zone)))'),
             ('partmanconstr_tap_ci_p30_v', 'CHECK (((v >= 1060) AND (v <= 1078)))')$$,
    'p30: the validated definitions');
SELECT is(tap_cons_scans('SELECT * FROM public.tap_ci WHERE v = 1024'),
    'tap_ci_default tap_ci_p10 tap_ci_p20 tap_ci_p40 tap_ci_p50 tap_ci_p60 tap_ci_p70 tap_ci_p80 tap_ci_p90',
    'integer column: v = 1024 skips p0 and p30, scans p10 and the children without constraints');
SELECT is(tap_cons_scans($$SELECT * FROM public.tap_ci WHERE t = 'k035'$$),
    'tap_ci_default tap_ci_p20 tap_ci_p30 tap_ci_p40 tap_ci_p50 tap_ci_p60 tap_ci_p70 tap_ci_p80 tap_ci_p90',
    'text column: t = ''k035'' skips p0 and p10');
SELECT is(tap_cons_scans($$SELECT * FROM public.tap_ci WHERE ts = '2100-01-05 00:00+00'$$),
    'tap_ci_default tap_ci_p0 tap_ci_p20 tap_ci_p40 tap_ci_p50 tap_ci_p60 tap_ci_p70 tap_ci_p80 tap_ci_p90',
    'timestamptz column on an id set: ts = 2100-01-05 skips p10 and p30');
SELECT is(tap_cons_scans('SELECT * FROM public.tap_ci WHERE n = 15'),
    'tap_ci_default tap_ci_p10 tap_ci_p20 tap_ci_p40 tap_ci_p50 tap_ci_p60 tap_ci_p70 tap_ci_p80 tap_ci_p90',
    'n = 15 skips p0 (n IS NULL) and p30');

SELECT throws_ok($$INSERT INTO public.tap_ci_p0 VALUES (5, 2000, 'k005', '2100-01-06', NULL)$$, '23514', NULL,
    'p0: a v above the constraint''s range is refused');
SELECT lives_ok($$INSERT INTO public.tap_ci_p0 VALUES (5, 1001, 'k005', '2100-01-06', NULL)$$,
    'p0: a row inside every range (n NULL) is accepted');
SELECT throws_ok($$INSERT INTO public.tap_ci_p0 VALUES (5, 1001, 'k005', '2100-01-06', 5)$$, '23514', NULL,
    'p0: a non-NULL n is refused by the IS NULL constraint');
SELECT throws_ok($$INSERT INTO public.tap_ci_p10 VALUES (15, 1030, 'k099', '2100-01-16', 15)$$, '23514', NULL,
    'p10: a text value above the range is refused');
SELECT throws_ok($$INSERT INTO public.tap_ci_p30 VALUES (35, 1070, 'k035', '2100-03-01', 35)$$, '23514', NULL,
    'p30: a timestamptz above the range is refused');

INSERT INTO tap_cons_before VALUES ('ci oids', tap_cons_oids('public.tap_ci'));
SELECT partmgr.run_maintenance('public.tap_ci');
SELECT is(tap_cons_oids('public.tap_ci') || ' / ' ||
          (SELECT count(*) FROM partmgr.maintenance_log WHERE parent_table = 'public.tap_ci' AND action = 'add constraints'),
          (SELECT val FROM tap_cons_before WHERE label = 'ci oids') || ' / 3',
    'a third run touches no child that has its constraints (same constraints, no new log row)');

-- rows in p70: the newest child with rows moves up, p40 becomes eligible
INSERT INTO public.tap_ci SELECT g, 1000 + 2 * g, 'k' || lpad(g::text, 3, '0'),
                                 timestamptz '2100-01-01 00:00+00' + g * interval '1 day', g
                            FROM generate_series(70, 72) g;
SELECT partmgr.run_maintenance('public.tap_ci');
SELECT partmgr.run_maintenance('public.tap_ci');
SELECT results_eq($$SELECT * FROM tap_cons('public.tap_ci')$$,
    $$VALUES ('tap_ci_p0', 'n,t,ts,v', 'valid'), ('tap_ci_p10', 'n,t,ts,v', 'valid'),
             ('tap_ci_p30', 'n,t,ts,v', 'valid'), ('tap_ci_p40', 'n,t,ts,v', 'valid')$$,
    'rows in p70: p40 is now 3 below the newest child with rows and gets its constraints');

------------------------------------------------------------------------------
-- apply_constraints and drop_constraints on one child, round trip
------------------------------------------------------------------------------
SELECT partmgr.apply_constraints('public.tap_ci', 'public.tap_ci_p60');
SELECT results_eq($$SELECT * FROM tap_cons('public.tap_ci') WHERE child = 'tap_ci_p60'$$,
    $$VALUES ('tap_ci_p60', 'n,t,ts,v', 'valid')$$,
    'apply_constraints with a child: p60 (not eligible) gets its constraints, validated in the call');
SELECT results_eq($$SELECT * FROM tap_cons_defs('public.tap_ci_p60') WHERE conname LIKE '%\_v'$$,
    $$VALUES ('partmanconstr_tap_ci_p60_v', 'CHECK (((v >= 1120) AND (v <= 1138)))')$$,
    'p60: the range of v');

INSERT INTO tap_cons_before VALUES ('ci state', tap_cons_state());
SELECT isnt(tap_cons_error($$SELECT partmgr.apply_constraints('public.tap_ci', 'public.tap_cb_p0')$$), 'no error',
    'apply_constraints with a child of another set is an error');
SELECT isnt(tap_cons_error($$SELECT partmgr.apply_constraints('public.tap_ci', 'public.tap_cons_before')$$), 'no error',
    'apply_constraints with a table that is no child is an error');
SELECT isnt(tap_cons_error($$SELECT partmgr.apply_constraints('public.tap_ci', 'public.tap_ci_nope')$$), 'no error',
    'apply_constraints with a missing child is an error');
SELECT is(tap_cons_state(), (SELECT val FROM tap_cons_before WHERE label = 'ci state'),
    'refused apply_constraints: nothing changed');

-- round trip on p10, beside a CHECK constraint of the user's
ALTER TABLE public.tap_ci_p10 ADD CONSTRAINT tap_ci_p10_own CHECK (v > 0);
CREATE TABLE public.tap_cons_saved AS SELECT * FROM tap_cons_defs('public.tap_ci_p10');
SELECT partmgr.drop_constraints('public.tap_ci', 'public.tap_ci_p10');
SELECT is_empty($$SELECT * FROM tap_cons_defs('public.tap_ci_p10')$$,
    'drop_constraints: p10 has no partmanconstr_ constraint left');
SELECT ok(EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'public.tap_ci_p10'::regclass
                                               AND conname = 'tap_ci_p10_own'),
    'drop_constraints leaves the user''s own CHECK constraint');
SELECT results_eq($$SELECT child FROM tap_cons('public.tap_ci')$$,
    $$VALUES ('tap_ci_p0'), ('tap_ci_p30'), ('tap_ci_p40'), ('tap_ci_p60')$$,
    'drop_constraints touched no other child');
SELECT partmgr.apply_constraints('public.tap_ci', 'public.tap_ci_p10');
SELECT results_eq($$SELECT * FROM tap_cons_defs('public.tap_ci_p10')$$,
    $$SELECT * FROM public.tap_cons_saved ORDER BY conname COLLATE "C"$$,
    'apply_constraints after drop_constraints: the same constraints again');
SELECT results_eq($$SELECT cols, validated FROM tap_cons('public.tap_ci') WHERE child = 'tap_ci_p10'$$,
    $$VALUES ('n,t,ts,v', 'valid')$$,
    'and they are validated');

SELECT throws_ok($$UPDATE public.tap_ci SET v = 1100 WHERE id = 15$$, '23514', NULL,
    'a value outside the constraint cannot be written into p10');
SELECT partmgr.drop_constraints('public.tap_ci', 'public.tap_ci_p10');
UPDATE public.tap_ci SET v = 1100 WHERE id = 15;
SELECT partmgr.apply_constraints('public.tap_ci', 'public.tap_ci_p10');
SELECT results_eq($$SELECT * FROM tap_cons_defs('public.tap_ci_p10') WHERE conname LIKE '%\_v'$$,
    $$VALUES ('partmanconstr_tap_ci_p10_v', 'CHECK (((v >= 1020) AND (v <= 1100)))')$$,
    'drop, widen the data, apply: the new constraint covers the new maximum');
SELECT lives_ok($$INSERT INTO public.tap_ci_p10 VALUES (16, 1099, 'k016', '2100-01-17', 16)$$,
    'p10 accepts a value inside the widened range');
SELECT is(tap_cons_scans('SELECT * FROM public.tap_ci WHERE v = 1099'),
    'tap_ci_default tap_ci_p10 tap_ci_p100 tap_ci_p20 tap_ci_p50 tap_ci_p70 tap_ci_p80 tap_ci_p90',
    'v = 1099 now scans p10 (and the children without constraints), not p0, p30, p40, p60');

------------------------------------------------------------------------------
-- time set with integer and numeric constraint columns: apply_constraints
-- without a child does every eligible child (more than 10), validated
------------------------------------------------------------------------------
CREATE TABLE public.tap_ct (ts timestamptz NOT NULL, id bigint, v numeric) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_ct', 'ts', '1 day', p_start_partition => '2100-01-01', p_premake => 2,
                             p_constraint_cols => ARRAY['id', 'v']);
SELECT partmgr.create_partition_time('public.tap_ct',
    ARRAY(SELECT timestamptz '2100-01-01 00:00+00' + g * interval '1 day' FROM generate_series(1, 13) g));
UPDATE partmgr.part_config SET optimize_constraint = 2 WHERE parent_table = 'public.tap_ct';
-- three rows a day from 2100-01-01 to 2100-01-14: id d*100 + k, v d.k
INSERT INTO public.tap_ct
SELECT timestamptz '2100-01-01 03:00+00' + (d - 1) * interval '1 day' + k * interval '6 hours', d * 100 + k,
       (d || '.' || k)::numeric
  FROM generate_series(1, 14) d, generate_series(0, 2) k;

SELECT is(tap_cons_scans('SELECT * FROM public.tap_ct WHERE id = 501'),
    (SELECT string_agg(x, ' ' ORDER BY x COLLATE "C")
       FROM (SELECT 'tap_ct_default' UNION ALL
             SELECT 'tap_ct_p' || to_char(date '2100-01-01' + g, 'YYYYMMDD') FROM generate_series(0, 13) g) s(x)),
    'time set without constraints: a query on id scans all 14 children and the default');
SELECT partmgr.apply_constraints('public.tap_ct');
SELECT results_eq($$SELECT child, cols, validated FROM tap_cons('public.tap_ct')$$,
    $$SELECT 'tap_ct_p' || to_char(date '2100-01-01' + g, 'YYYYMMDD'), 'id,v', 'valid'
        FROM generate_series(0, 11) g$$,
    'apply_constraints(parent): the 12 eligible days (2 or more below the newest with rows), validated, no limit of 10');
SELECT results_eq($$SELECT * FROM tap_cons_defs('public.tap_ct_p21000105')$$,
    $$VALUES ('partmanconstr_tap_ct_p21000105_id', 'CHECK (((id >= ''500''::bigint) AND (id <= ''502''::bigint)))'),
             ('partmanconstr_tap_ct_p21000105_v', 'CHECK (((v >= 5.0) AND (v <= 5.2)))')$$,
    'bigint and numeric ranges on a time set');
SELECT is(tap_cons_scans('SELECT * FROM public.tap_ct WHERE id = 501'),
    'tap_ct_default tap_ct_p21000105 tap_ct_p21000113 tap_ct_p21000114',
    'time set, id = 501: only 2100-01-05 and the two children without constraints (and the default)');
SELECT is((SELECT count(*) FROM partmgr.maintenance_log
            WHERE parent_table = 'public.tap_ct' AND action = 'add constraints' AND outcome = 'done'), 12::bigint,
    'maintenance_log: 12 ''add constraints'' rows, done');
SELECT throws_ok($$INSERT INTO public.tap_ct VALUES ('2100-01-05 12:00+00', 600, 5.1)$$, '23514', NULL,
    'a row for 2100-01-05 with an id outside the child''s range is refused');
INSERT INTO tap_cons_before VALUES ('ct oids', tap_cons_oids('public.tap_ct'));
SELECT partmgr.apply_constraints('public.tap_ct');
SELECT is(tap_cons_oids('public.tap_ct'), (SELECT val FROM tap_cons_before WHERE label = 'ct oids'),
    'apply_constraints again: the children that have their constraints are not touched');
-- a column added to constraint_cols: only its constraints are added
ALTER TABLE public.tap_ct ADD COLUMN w text;
UPDATE partmgr.part_config SET constraint_cols = ARRAY['id', 'v', 'w'] WHERE parent_table = 'public.tap_ct';
SELECT partmgr.apply_constraints('public.tap_ct');
SELECT results_eq($$SELECT count(*), string_agg(DISTINCT cols, ','), string_agg(DISTINCT validated, ',')
                      FROM tap_cons('public.tap_ct')$$,
    $$VALUES (12::bigint, 'id,v,w', 'valid')$$,
    'a column added to constraint_cols: the 12 eligible children get its constraint too');
SELECT ok(tap_cons_oids('public.tap_ct') LIKE (SELECT val FROM tap_cons_before WHERE label = 'ct oids') || ',%'
          AND (SELECT def FROM tap_cons_defs('public.tap_ct_p21000101') WHERE conname LIKE '%\_w') = 'CHECK ((w IS NULL))',
    'the existing constraints are kept, the new all-NULL column gets IS NULL');

------------------------------------------------------------------------------
-- at most 10 children per set per maintenance pass, newest eligible first
------------------------------------------------------------------------------
CREATE TABLE public.tap_cm (id int NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_cm', 'id', '10', p_start_partition => '0', p_premake => 1,
                             p_constraint_cols => ARRAY['v']);
SELECT partmgr.create_partition_id('public.tap_cm', ARRAY(SELECT g * 10 FROM generate_series(1, 14) g)::bigint[]);
UPDATE partmgr.part_config SET optimize_constraint = 1 WHERE parent_table = 'public.tap_cm';
INSERT INTO public.tap_cm SELECT g, g FROM generate_series(0, 149) g;

SELECT partmgr.run_maintenance('public.tap_cm');
SELECT results_eq($$SELECT tap_cons_children('public.tap_cm'),
                           (SELECT string_agg(DISTINCT validated, ',') FROM tap_cons('public.tap_cm'))$$,
    $$VALUES ('tap_cm_p40 tap_cm_p50 tap_cm_p60 tap_cm_p70 tap_cm_p80 tap_cm_p90 tap_cm_p100 tap_cm_p110 tap_cm_p120 tap_cm_p130',
              'not valid')$$,
    'first pass: the 10 newest of the 14 eligible children (p130, optimize_constraint = 1 below the newest child with rows, is the newest: pg_partman 5.2''s target), NOT VALID');
SELECT partmgr.run_maintenance('public.tap_cm');
SELECT results_eq($$SELECT string_agg(child, ' ' ORDER BY length(child), child) FILTER (WHERE validated = 'valid'),
                           string_agg(child, ' ' ORDER BY length(child), child) FILTER (WHERE validated = 'not valid')
                      FROM tap_cons('public.tap_cm')$$,
    $$VALUES ('tap_cm_p40 tap_cm_p50 tap_cm_p60 tap_cm_p70 tap_cm_p80 tap_cm_p90 tap_cm_p100 tap_cm_p110 tap_cm_p120 tap_cm_p130',
              'tap_cm_p0 tap_cm_p10 tap_cm_p20 tap_cm_p30')$$,
    'second pass: the first ten validated, the four older ones added NOT VALID');
SELECT partmgr.run_maintenance('public.tap_cm');
SELECT results_eq($$SELECT count(*), string_agg(DISTINCT validated, ',') FROM tap_cons('public.tap_cm')$$,
    $$VALUES (14::bigint, 'valid')$$,
    'third pass: all 14 eligible children validated');
SELECT ok(NOT EXISTS (SELECT 1 FROM tap_cons('public.tap_cm') WHERE child IN ('tap_cm_p140', 'tap_cm_p150', 'tap_cm_default')),
    'the newest child with rows, the premade child and the default get nothing');

------------------------------------------------------------------------------
-- reapply_constraints_proc
------------------------------------------------------------------------------
INSERT INTO tap_cons_before VALUES ('cm state', tap_cons_state());
CALL partmgr.reapply_constraints_proc('public.tap_cm', p_drop_constraints => true, p_apply_constraints => true,
                                      p_dryrun => true);
SELECT is(tap_cons_state(), (SELECT val FROM tap_cons_before WHERE label = 'cm state'),
    'reapply_constraints_proc p_dryrun: nothing changed');
CALL partmgr.reapply_constraints_proc('public.tap_cm', p_drop_constraints => true);
SELECT is_empty($$SELECT * FROM tap_cons('public.tap_cm')$$,
    'reapply_constraints_proc p_drop_constraints: every child lost its constraints');
CALL partmgr.reapply_constraints_proc('public.tap_cm', p_apply_constraints => true);
SELECT is(tap_cons_children('public.tap_cm'),
    'tap_cm_p0 tap_cm_p10 tap_cm_p20 tap_cm_p30 tap_cm_p40 tap_cm_p50 tap_cm_p60 tap_cm_p70 tap_cm_p80 tap_cm_p90 tap_cm_p100 tap_cm_p110 tap_cm_p120 tap_cm_p130',
    'reapply_constraints_proc p_apply_constraints: every eligible child (14) has its constraint again');
SELECT results_eq($$SELECT conname, regexp_replace(def, ' NOT VALID$', '') FROM tap_cons_defs('public.tap_cm_p130')$$,
    $$VALUES ('partmanconstr_tap_cm_p130_v', 'CHECK (((v >= 130) AND (v <= 139)))')$$,
    'p130: the reapplied definition');
INSERT INTO tap_cons_before VALUES ('cm oids', tap_cons_oids('public.tap_cm'));
CALL partmgr.reapply_constraints_proc('public.tap_cm', true, true);
SELECT results_eq($$SELECT tap_cons_children('public.tap_cm'),
                           tap_cons_oids('public.tap_cm') <> (SELECT val FROM tap_cons_before WHERE label = 'cm oids')$$,
    $$VALUES ('tap_cm_p0 tap_cm_p10 tap_cm_p20 tap_cm_p30 tap_cm_p40 tap_cm_p50 tap_cm_p60 tap_cm_p70 tap_cm_p80 tap_cm_p90 tap_cm_p100 tap_cm_p110 tap_cm_p120 tap_cm_p130',
              true)$$,
    'drop and apply: the same children have new constraints');

------------------------------------------------------------------------------
-- constraint_cols NULL: the feature is off, drop_constraints still works
------------------------------------------------------------------------------
SELECT lives_ok($$UPDATE partmgr.part_config SET constraint_cols = NULL WHERE parent_table = 'public.tap_cm'$$,
    'constraint_cols can be set back to NULL');
SELECT partmgr.drop_constraints('public.tap_cm', 'public.tap_cm_p0', p_debug => true);
SELECT ok(NOT EXISTS (SELECT 1 FROM tap_cons('public.tap_cm') WHERE child = 'tap_cm_p0'),
    'drop_constraints works on a set whose constraint_cols is NULL');
INSERT INTO tap_cons_before
SELECT 'cm off', tap_cons_children('public.tap_cm') || ' / ' || count(*)
  FROM partmgr.maintenance_log WHERE parent_table = 'public.tap_cm' AND action = 'add constraints';
SELECT partmgr.apply_constraints('public.tap_cm');
SELECT partmgr.apply_constraints('public.tap_cm', 'public.tap_cm_p0');
SELECT partmgr.run_maintenance('public.tap_cm');
SELECT partmgr.run_maintenance('public.tap_cm');
SELECT is((SELECT tap_cons_children('public.tap_cm') || ' / ' || count(*)
             FROM partmgr.maintenance_log WHERE parent_table = 'public.tap_cm' AND action = 'add constraints'),
          (SELECT val FROM tap_cons_before WHERE label = 'cm off'),
    'constraint_cols NULL: apply_constraints (with and without a child) and run_maintenance add nothing');

------------------------------------------------------------------------------
-- constraint_valid = false: the constraints stay NOT VALID (integer, uuid)
------------------------------------------------------------------------------
CREATE TABLE public.tap_cv (id int NOT NULL, v int, u uuid) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_cv', 'id', '10', p_start_partition => '0', p_premake => 1,
                             p_constraint_cols => ARRAY['v', 'u']);
SELECT partmgr.create_partition_id('public.tap_cv', ARRAY[10, 20, 30, 40]::bigint[]);
UPDATE partmgr.part_config SET optimize_constraint = 1, constraint_valid = false WHERE parent_table = 'public.tap_cv';
INSERT INTO public.tap_cv SELECT g, g, ('00000000-0000-0000-0000-' || lpad(g::text, 12, '0'))::uuid
  FROM generate_series(0, 49) g;

SELECT partmgr.run_maintenance('public.tap_cv');
SELECT partmgr.run_maintenance('public.tap_cv');
SELECT results_eq($$SELECT * FROM tap_cons('public.tap_cv')$$,
    $$VALUES ('tap_cv_p0', 'u,v', 'not valid'), ('tap_cv_p10', 'u,v', 'not valid'),
             ('tap_cv_p20', 'u,v', 'not valid'), ('tap_cv_p30', 'u,v', 'not valid')$$,
    'constraint_valid false: after two runs the constraints of p0..p30 are still NOT VALID');
SELECT is((SELECT count(*) FROM partmgr.maintenance_log WHERE parent_table = 'public.tap_cv'
                                                          AND action = 'validate constraint'), 0::bigint,
    'constraint_valid false: no ''validate constraint'' row');
SELECT partmgr.apply_constraints('public.tap_cv', 'public.tap_cv_p40');
SELECT results_eq($$SELECT cols, validated FROM tap_cons('public.tap_cv') WHERE child = 'tap_cv_p40'$$,
    $$VALUES ('u,v', 'not valid')$$,
    'constraint_valid false: apply_constraints with a child leaves them NOT VALID too');
SELECT throws_ok($$INSERT INTO public.tap_cv_p0 VALUES (3, 3, '00000000-0000-0000-0000-000000000099')$$, '23514', NULL,
    'a NOT VALID uuid constraint still refuses a new row outside its range');
SELECT lives_ok($$INSERT INTO public.tap_cv_p0 VALUES (3, 3, '00000000-0000-0000-0000-000000000003')$$,
    'and accepts one inside');

------------------------------------------------------------------------------
-- constraint names longer than 63 bytes: the child part is cut
------------------------------------------------------------------------------
CREATE TABLE public.tap_cl_abcdefghijklmnopqrstuvwxyz_abcdefghijklmnopq (id int NOT NULL, amount int)
    PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_cl_abcdefghijklmnopqrstuvwxyz_abcdefghijklmnopq', 'id', '10',
                             p_start_partition => '0', p_premake => 1, p_constraint_cols => ARRAY['amount']);
INSERT INTO public.tap_cl_abcdefghijklmnopqrstuvwxyz_abcdefghijklmnopq VALUES (1, 7), (2, 9);
SELECT partmgr.apply_constraints('public.tap_cl_abcdefghijklmnopqrstuvwxyz_abcdefghijklmnopq',
                                 'public.tap_cl_abcdefghijklmnopqrstuvwxyz_abcdefghijklmnopq_p0');
SELECT results_eq($$SELECT * FROM tap_cons_defs('public.tap_cl_abcdefghijklmnopqrstuvwxyz_abcdefghijklmnopq_p0')$$,
    $$VALUES (left('partmanconstr_tap_cl_abcdefghijklmnopqrstuvwxyz_abcdefghijklmnopq_p0', 56) || '_amount',
              'CHECK (((amount >= 7) AND (amount <= 9)))')$$,
    'a name over 63 bytes: partmanconstr_<child> is cut to 56 bytes, _amount kept whole');

------------------------------------------------------------------------------
-- run_maintenance_proc adds constraints too
------------------------------------------------------------------------------
CREATE TABLE public.tap_cp (id int NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_cp', 'id', '10', p_start_partition => '0', p_premake => 1,
                             p_constraint_cols => ARRAY['v']);
SELECT partmgr.create_partition_id('public.tap_cp', ARRAY[10, 20]::bigint[]);
UPDATE partmgr.part_config SET optimize_constraint = 1 WHERE parent_table = 'public.tap_cp';
UPDATE partmgr.part_config SET automatic_maintenance = 'off' WHERE parent_table <> 'public.tap_cp';
INSERT INTO public.tap_cp SELECT g, g FROM generate_series(0, 29) g;
CALL partmgr.run_maintenance_proc();
SELECT is(tap_cons_children('public.tap_cp'), 'tap_cp_p0 tap_cp_p10',
    'run_maintenance_proc: the eligible children p0 and p10 get their constraints');

SELECT * FROM finish();
ROLLBACK;
