-- pgTAP tests of partmgr.plan_maintenance(): the dry run of run_maintenance().
--
-- For each scenario the plan is saved, run_maintenance() is called with the
-- same argument, and the actions the plan lists -- (action, object,
-- statements), ordered by the sets' maintenance order then step -- must be
-- exactly the rows the run wrote into maintenance_log, ordered by log_id,
-- each 'done' (or 'skipped' where the plan says a run would skip it).  The
-- statements of a time set hold time literals: they are compared with what
-- the run logged, never with hand-written strings.  Calling the plan changes
-- nothing (part_config, relations and their bounds, constraints, the log).
--
-- Scenarios: premake (id and time), retention (drop, move to a schema, drop
-- indexes), rows in the default partition (moved, or too many: skipped),
-- derived constraints (added, then validated at the next call), several sets
-- in maintenance_order, broken configurations, sets being undone, bad
-- arguments; then premake that changes what retention and constraints decide
-- in the same run.
--
-- Deterministic: explicit ids, far-future times (2100); the one set aged
-- against now() has its children in 2000.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = error;
-- broken sets are part of the scenario: they are told by WARNING (maintenance.sql
-- tests the ERROR that ends a run by default)
SET pg_partmgr.on_set_failure = warning;

SELECT plan(71);

-- What a dry run must leave alone: every part_config row, every relation
-- (schema, name, partition or not, partition bound) outside temporary
-- schemas, every constraint (with its validation) and the size of the log.
CREATE FUNCTION public.tap_pm_state()
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT (SELECT md5(coalesce(string_agg(pc::text, E'\n' ORDER BY pc.parent_table), ''))
              FROM partmgr.part_config pc)
        || ' / ' ||
           (SELECT md5(string_agg(c.oid::text || ' ' || c.relnamespace::text || ' ' || c.relname || ' '
                                  || c.relispartition::text || ' ' || coalesce(c.relpartbound::text, ''),
                                  E'\n' ORDER BY c.oid))
              FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname NOT LIKE 'pg\_temp\_%' AND n.nspname NOT LIKE 'pg\_toast\_temp\_%')
        || ' / ' ||
           (SELECT md5(coalesce(string_agg(k.oid::text || ' ' || k.conrelid::text || ' ' || k.conname || ' '
                                           || k.convalidated::text, E'\n' ORDER BY k.oid), ''))
              FROM pg_constraint k)
        || ' / log ' || (SELECT count(*) FROM partmgr.maintenance_log)
$$;

-- Saved plans (with their position in the output) and, per label, the last
-- log_id before the run and the state before and after planning.
CREATE TABLE public.tap_pm_plan (
    label text, ord bigint, parent_table text, step int, action text, object text, detail text,
    statements text[], locks text[], reads text[], note text);
CREATE TABLE public.tap_pm_mark (label text PRIMARY KEY, log_id bigint, state_before text, state_after text);

-- Save plan_maintenance(p_parent) under a label.
CREATE FUNCTION public.tap_pm_capture(p_label text, p_parent text DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO public.tap_pm_mark
    VALUES (p_label, (SELECT coalesce(max(log_id), 0) FROM partmgr.maintenance_log), public.tap_pm_state(), NULL);
    INSERT INTO public.tap_pm_plan
    SELECT p_label, p.ord, p.parent_table, p.step, p.action, p.object, p.detail, p.statements, p.locks,
           p.reads, p.note
      FROM partmgr.plan_maintenance(p_parent)
           WITH ORDINALITY AS p(parent_table, step, action, object, detail, statements, locks, reads, note, ord);
    UPDATE public.tap_pm_mark SET state_after = public.tap_pm_state() WHERE label = p_label;
END
$$;

-- The planned actions of a label (of one set, or all), one text each,
-- ordered by the sets' maintenance order, then step.  A plan without
-- statements and a log row without any both show {}.
CREATE FUNCTION public.tap_pm_planned(p_label text, p_parent text DEFAULT NULL)
RETURNS text[]
LANGUAGE sql STABLE AS $$
    SELECT coalesce(array_agg(p.action || ' ' || coalesce(p.object, '-') || ' '
                              || coalesce(p.statements, '{}')::text
                              ORDER BY pc.maintenance_order NULLS LAST, p.parent_table, p.step), '{}')
      FROM public.tap_pm_plan p LEFT JOIN partmgr.part_config pc ON pc.parent_table = p.parent_table
     WHERE p.label = p_label AND (p_parent IS NULL OR p.parent_table = p_parent)
$$;

-- The same for the log rows written since the label's plan was saved, by log_id.
CREATE FUNCTION public.tap_pm_logged(p_label text, p_parent text DEFAULT NULL)
RETURNS text[]
LANGUAGE sql STABLE AS $$
    SELECT coalesce(array_agg(l.action || ' ' || coalesce(l.object, '-') || ' '
                              || coalesce(l.statements, '{}')::text ORDER BY l.log_id), '{}')
      FROM partmgr.maintenance_log l
     WHERE l.log_id > (SELECT m.log_id FROM public.tap_pm_mark m WHERE m.label = p_label)
       AND (p_parent IS NULL OR l.parent_table = p_parent)
$$;

-- The distinct outcomes of the log rows written since the label's plan
-- (of one set, or all), comma separated.
CREATE FUNCTION public.tap_pm_outcomes(p_label text, p_parent text DEFAULT NULL)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce(string_agg(DISTINCT l.outcome, ','), '')
      FROM partmgr.maintenance_log l
     WHERE l.log_id > (SELECT m.log_id FROM public.tap_pm_mark m WHERE m.label = p_label)
       AND (p_parent IS NULL OR l.parent_table = p_parent)
$$;

-- The saved plan row of a label for one object.
CREATE FUNCTION public.tap_pm_row(p_label text, p_object text)
RETURNS public.tap_pm_plan
LANGUAGE sql STABLE AS $$
    SELECT * FROM public.tap_pm_plan WHERE label = p_label AND object = p_object
$$;

-- An id set parent_table (id bigint, v int) with children 100..(100 + 10 * premake).
CREATE FUNCTION public.tap_pm_idset(p_table text, p_premake int)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('CREATE TABLE public.%I (id bigint NOT NULL, v int) PARTITION BY RANGE (id)', p_table);
    PERFORM partmgr.create_parent('public.' || p_table, 'id', '10', p_start_partition => '100',
                                  p_premake => p_premake);
END
$$;

------------------------------------------------------------------------------
-- premake, id set: the rows reached the last child
------------------------------------------------------------------------------
SELECT tap_pm_idset('tap_pm_id', 2);
INSERT INTO public.tap_pm_id VALUES (101, 1), (115, 2), (125, 3);
SELECT tap_pm_capture('id', 'public.tap_pm_id');

SELECT is(state_after, state_before, 'id premake: plan_maintenance changed nothing')
  FROM tap_pm_mark WHERE label = 'id';
SELECT results_eq($$SELECT parent_table, step, action, object, detail, note FROM tap_pm_plan
                     WHERE label = 'id' ORDER BY ord$$,
    $$VALUES ('public.tap_pm_id', 1, 'create partition', 'public.tap_pm_id_p130', 'for values from ''130'' to ''140''', NULL::text),
             ('public.tap_pm_id', 2, 'create partition', 'public.tap_pm_id_p140', 'for values from ''140'' to ''150''', NULL)$$,
    'id premake: two children planned, steps 1 and 2, with their bounds');
SELECT is((tap_pm_row('id', 'public.tap_pm_id_p130')).statements,
    ARRAY['CREATE TABLE public.tap_pm_id_p130 (LIKE public.tap_pm_id INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMMENTS INCLUDING GENERATED INCLUDING COMPRESSION)',
          'ALTER TABLE public.tap_pm_id ATTACH PARTITION public.tap_pm_id_p130 FOR VALUES FROM (''130'') TO (''140'')'],
    'id premake: the statements of a plain child are CREATE TABLE ... LIKE, then ATTACH');
SELECT results_eq($$SELECT locks, reads FROM tap_pm_plan WHERE label = 'id' AND object = 'public.tap_pm_id_p130'$$,
    $$VALUES (ARRAY['public.tap_pm_id SHARE UPDATE EXCLUSIVE', 'public.tap_pm_id_default ACCESS SHARE',
                    'public.tap_pm_id_default ACCESS EXCLUSIVE'], '{}'::text[])$$,
    'id premake, empty default: locks the parent SHARE UPDATE EXCLUSIVE, then the default ACCESS SHARE, ACCESS EXCLUSIVE; reads nothing in full');

SELECT partmgr.run_maintenance('public.tap_pm_id');
SELECT is(tap_pm_logged('id'), tap_pm_planned('id'), 'id premake: the run did exactly what the plan listed');
SELECT is(tap_pm_outcomes('id'), 'done', 'id premake: every planned action done');
SELECT is_empty($$SELECT * FROM partmgr.plan_maintenance('public.tap_pm_id')$$,
    'id premake: after the run nothing is left to plan');

------------------------------------------------------------------------------
-- premake, daily time set from 2100-01-01, rows in its last child
------------------------------------------------------------------------------
CREATE TABLE public.tap_pm_t (ts timestamptz NOT NULL, v int) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_pm_t', 'ts', '1 day', p_start_partition => '2100-01-01', p_premake => 3);
SELECT partmgr.create_partition_time('public.tap_pm_t', ARRAY['2100-01-02', '2100-01-03']::timestamptz[]);
INSERT INTO public.tap_pm_t VALUES ('2100-01-01 05:00+00', 1), ('2100-01-03 05:00+00', 2);
SELECT tap_pm_capture('time', 'public.tap_pm_t');

SELECT results_eq($$SELECT step, action, object FROM tap_pm_plan WHERE label = 'time' ORDER BY ord$$,
    $$VALUES (1, 'create partition', 'public.tap_pm_t_p21000104'), (2, 'create partition', 'public.tap_pm_t_p21000105'),
             (3, 'create partition', 'public.tap_pm_t_p21000106')$$,
    'time premake: three days after the last child holding rows planned');
SELECT partmgr.run_maintenance('public.tap_pm_t');
SELECT is(tap_pm_logged('time'), tap_pm_planned('time'),
    'time premake: the run did exactly what the plan listed (statements with their time literals)');
SELECT is((SELECT array_agg(detail ORDER BY log_id) FROM partmgr.maintenance_log
            WHERE log_id > (SELECT log_id FROM tap_pm_mark WHERE label = 'time')),
          (SELECT array_agg(detail ORDER BY ord) FROM tap_pm_plan WHERE label = 'time'),
    'time premake: the planned bounds are the logged bounds');
SELECT is(tap_pm_outcomes('time'), 'done', 'time premake: every planned action done');

------------------------------------------------------------------------------
-- retention, keep_table false: detach and drop
------------------------------------------------------------------------------
SELECT tap_pm_idset('tap_pm_rd', 2);
INSERT INTO public.tap_pm_rd VALUES (101, 1), (115, 2);
UPDATE partmgr.part_config SET retention = '5', retention_keep_table = false WHERE parent_table = 'public.tap_pm_rd';
SELECT tap_pm_capture('drop', 'public.tap_pm_rd');

SELECT is(state_after, state_before, 'retention: plan_maintenance changed nothing')
  FROM tap_pm_mark WHERE label = 'drop';
SELECT results_eq($$SELECT step, action, object FROM tap_pm_plan WHERE label = 'drop' ORDER BY ord$$,
    $$VALUES (1, 'create partition', 'public.tap_pm_rd_p130'), (2, 'drop partition', 'public.tap_pm_rd_p100')$$,
    'retention drop: premake first, then the expired child (largest id 115, retention 5)');
SELECT is((tap_pm_row('drop', 'public.tap_pm_rd_p100')).statements,
    ARRAY['ALTER TABLE public.tap_pm_rd DETACH PARTITION public.tap_pm_rd_p100',
          'DROP TABLE public.tap_pm_rd_p100'],
    'retention drop: DETACH PARTITION, then DROP TABLE');
SELECT is((tap_pm_row('drop', 'public.tap_pm_rd_p100')).locks,
    ARRAY['public.tap_pm_rd ACCESS EXCLUSIVE', 'public.tap_pm_rd_default ACCESS EXCLUSIVE',
          'public.tap_pm_rd_p100 ACCESS EXCLUSIVE'],
    'retention drop: locks the parent, the default partition, the child, all ACCESS EXCLUSIVE');
SELECT partmgr.run_maintenance('public.tap_pm_rd');
SELECT is(tap_pm_logged('drop'), tap_pm_planned('drop'), 'retention drop: the run did exactly what the plan listed');
SELECT is(tap_pm_outcomes('drop'), 'done', 'retention drop: every planned action done');
SELECT is(to_regclass('public.tap_pm_rd_p100'), NULL, 'retention drop: the child is gone');

------------------------------------------------------------------------------
-- retention, keep_table true with retention_schema: detach and SET SCHEMA
------------------------------------------------------------------------------
CREATE SCHEMA tap_pm_arch;
SELECT tap_pm_idset('tap_pm_rs', 2);
INSERT INTO public.tap_pm_rs VALUES (101, 1), (115, 2);
UPDATE partmgr.part_config SET retention = '5', retention_keep_table = true, retention_schema = 'tap_pm_arch'
 WHERE parent_table = 'public.tap_pm_rs';
SELECT tap_pm_capture('move', 'public.tap_pm_rs');

SELECT results_eq($$SELECT step, action, object, statements FROM tap_pm_plan WHERE label = 'move' AND step = 2$$,
    $$VALUES (2, 'detach partition and move it', 'public.tap_pm_rs_p100',
              ARRAY['ALTER TABLE public.tap_pm_rs DETACH PARTITION public.tap_pm_rs_p100',
                    'ALTER TABLE public.tap_pm_rs_p100 SET SCHEMA tap_pm_arch'])$$,
    'retention schema: detach partition and move it, with DETACH then SET SCHEMA');
SELECT partmgr.run_maintenance('public.tap_pm_rs');
SELECT is(tap_pm_logged('move'), tap_pm_planned('move'), 'retention schema: the run did exactly what the plan listed');
SELECT is(tap_pm_outcomes('move'), 'done', 'retention schema: every planned action done');
SELECT ok(to_regclass('tap_pm_arch.tap_pm_rs_p100') IS NOT NULL AND to_regclass('public.tap_pm_rs_p100') IS NULL,
    'retention schema: the child now lives in tap_pm_arch');

------------------------------------------------------------------------------
-- retention, keep_index false, PRIMARY KEY and an index on the parent
------------------------------------------------------------------------------
CREATE TABLE public.tap_pm_rx (id bigint PRIMARY KEY, v int) PARTITION BY RANGE (id);
CREATE INDEX tap_pm_rx_v ON public.tap_pm_rx (v);
SELECT partmgr.create_parent('public.tap_pm_rx', 'id', '10', p_start_partition => '100', p_premake => 2);
INSERT INTO public.tap_pm_rx VALUES (101, 1), (115, 2);
UPDATE partmgr.part_config SET retention = '5', retention_keep_index = false WHERE parent_table = 'public.tap_pm_rx';
SELECT tap_pm_capture('index', 'public.tap_pm_rx');

SELECT results_eq($$SELECT step, action, object, statements FROM tap_pm_plan WHERE label = 'index' AND step = 2$$,
    $$VALUES (2, 'detach partition', 'public.tap_pm_rx_p100',
              ARRAY['ALTER TABLE public.tap_pm_rx DETACH PARTITION public.tap_pm_rx_p100',
                    'ALTER TABLE public.tap_pm_rx_p100 DROP CONSTRAINT tap_pm_rx_p100_pkey',
                    'DROP INDEX public.tap_pm_rx_p100_v_idx'])$$,
    'keep_index false: DETACH, then DROP CONSTRAINT for the key''s index and DROP INDEX for the other');
SELECT partmgr.run_maintenance('public.tap_pm_rx');
SELECT is(tap_pm_logged('index'), tap_pm_planned('index'), 'keep_index false: the run did exactly what the plan listed');
SELECT is(tap_pm_outcomes('index'), 'done', 'keep_index false: every planned action done');
SELECT is((SELECT count(*)::int FROM pg_index WHERE indrelid = 'public.tap_pm_rx_p100'::regclass), 0,
    'keep_index false: the kept child has no index left');

------------------------------------------------------------------------------
-- rows in the default partition for the child about to be created
------------------------------------------------------------------------------
SELECT tap_pm_idset('tap_pm_dm', 2);
INSERT INTO public.tap_pm_dm VALUES (101, 1), (115, 2), (131, 3), (132, 4);
SELECT tap_pm_capture('default', 'public.tap_pm_dm');

SELECT is(state_after, state_before, 'rows in the default: plan_maintenance changed nothing (the rows stay)')
  FROM tap_pm_mark WHERE label = 'default';
SELECT is((tap_pm_row('default', 'public.tap_pm_dm_p130')).statements,
    ARRAY['CREATE TABLE public.tap_pm_dm_p130 (LIKE public.tap_pm_dm INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMMENTS INCLUDING GENERATED INCLUDING COMPRESSION)',
          'ALTER TABLE public.tap_pm_dm_p130 ADD CONSTRAINT partmgr_bound_check CHECK (id IS NOT NULL AND id >= ''130'' AND id < ''140'')',
          'INSERT INTO public.tap_pm_dm_p130 (id, v) OVERRIDING SYSTEM VALUE SELECT id, v FROM ONLY public.tap_pm_dm_default WHERE id >= ''130'' AND id < ''140''',
          'DELETE FROM ONLY public.tap_pm_dm_default WHERE id >= ''130'' AND id < ''140''',
          'ALTER TABLE public.tap_pm_dm ATTACH PARTITION public.tap_pm_dm_p130 FOR VALUES FROM (''130'') TO (''140'')',
          'ALTER TABLE public.tap_pm_dm_p130 DROP CONSTRAINT partmgr_bound_check'],
    'rows in the default: CREATE, the bound CHECK, INSERT ... SELECT and DELETE that move the rows, ATTACH, drop the CHECK');
SELECT is((tap_pm_row('default', 'public.tap_pm_dm_p130')).locks,
    ARRAY['public.tap_pm_dm SHARE UPDATE EXCLUSIVE', 'public.tap_pm_dm_default ACCESS SHARE',
          'public.tap_pm_dm ACCESS EXCLUSIVE', 'public.tap_pm_dm_default ACCESS EXCLUSIVE'],
    'rows in the default: the parent ACCESS EXCLUSIVE before the default partition ACCESS EXCLUSIVE');
SELECT is((tap_pm_row('default', 'public.tap_pm_dm_p130')).reads,
    ARRAY['public.tap_pm_dm_default: ATTACH checks that it holds no row of the new range',
          'public.tap_pm_dm_default: the rows to move are read'],
    'rows in the default: reads names the default partition (the ATTACH check, the rows to move)');
SELECT partmgr.run_maintenance('public.tap_pm_dm');
SELECT is(tap_pm_logged('default'), tap_pm_planned('default'),
    'rows in the default: the run did exactly what the plan listed');
SELECT is(tap_pm_outcomes('default'), 'done', 'rows in the default: every planned action done');
SELECT results_eq($$SELECT (SELECT count(*)::int FROM public.tap_pm_dm_p130), (SELECT count(*)::int FROM public.tap_pm_dm_default)$$,
    $$VALUES (2, 0)$$, 'rows in the default: the two rows moved into the new child');

------------------------------------------------------------------------------
-- rows in the default above pg_partmgr.default_move_limit: a run skips the child
------------------------------------------------------------------------------
SELECT tap_pm_idset('tap_pm_sk', 3);
INSERT INTO public.tap_pm_sk VALUES (125, 1), (141, 2), (142, 3), (143, 4);
SET LOCAL pg_partmgr.default_move_limit = 1;
SELECT tap_pm_capture('skip', 'public.tap_pm_sk');

SELECT results_eq($$SELECT step, action, object, note LIKE 'a run would skip it:%' FROM tap_pm_plan
                     WHERE label = 'skip' ORDER BY ord$$,
    $$VALUES (1, 'create partition', 'public.tap_pm_sk_p140', true), (2, 'create partition', 'public.tap_pm_sk_p150', NULL)$$,
    'limit 1, three rows of p140 in the default: the plan notes that a run would skip p140, p150 is planned as usual');
SELECT partmgr.run_maintenance('public.tap_pm_sk');
SELECT is(tap_pm_logged('skip'), tap_pm_planned('skip'), 'limit 1: the run did what the plan listed');
SELECT results_eq($$SELECT object, outcome FROM partmgr.maintenance_log
                     WHERE log_id > (SELECT log_id FROM tap_pm_mark WHERE label = 'skip') ORDER BY log_id$$,
    $$VALUES ('public.tap_pm_sk_p140', 'skipped'), ('public.tap_pm_sk_p150', 'done')$$,
    'limit 1: the run logged p140 skipped and created p150');
RESET pg_partmgr.default_move_limit;

------------------------------------------------------------------------------
-- derived constraints: 'add constraints', then at the next call 'validate constraint'
------------------------------------------------------------------------------
CREATE TABLE public.tap_pm_c (id int NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_pm_c', 'id', '10', p_start_partition => '0', p_premake => 2,
                             p_constraint_cols => ARRAY['v']);
SELECT partmgr.create_partition_id('public.tap_pm_c', ARRAY[30, 40, 50]::bigint[]);
UPDATE partmgr.part_config SET optimize_constraint = 2 WHERE parent_table = 'public.tap_pm_c';
INSERT INTO public.tap_pm_c SELECT g, 1000 + g FROM generate_series(0, 45) g;
SELECT tap_pm_capture('add', 'public.tap_pm_c');

SELECT is(state_after, state_before, 'constraints: plan_maintenance changed nothing')
  FROM tap_pm_mark WHERE label = 'add';
SELECT results_eq($$SELECT step, action, object FROM tap_pm_plan WHERE label = 'add' ORDER BY ord$$,
    $$VALUES (1, 'create partition', 'public.tap_pm_c_p60'), (2, 'add constraints', 'public.tap_pm_c_p20'),
             (3, 'add constraints', 'public.tap_pm_c_p10'), (4, 'add constraints', 'public.tap_pm_c_p0')$$,
    'constraints: premake, then the eligible children (2 or more below p40) newest first');
SELECT results_eq($$SELECT statements, locks FROM tap_pm_plan WHERE label = 'add' AND object = 'public.tap_pm_c_p20'$$,
    $$VALUES (ARRAY['ALTER TABLE public.tap_pm_c_p20 ADD CONSTRAINT partmanconstr_tap_pm_c_p20_v CHECK (v >= ''1020'' AND v <= ''1029'') NOT VALID'],
              ARRAY['public.tap_pm_c_p20 ACCESS EXCLUSIVE'])$$,
    'constraints: ADD CONSTRAINT ... NOT VALID from the child''s rows, the child locked');
SELECT partmgr.run_maintenance('public.tap_pm_c');
SELECT is(tap_pm_logged('add'), tap_pm_planned('add'), 'constraints: the run did exactly what the plan listed');
SELECT is(tap_pm_outcomes('add'), 'done', 'constraints: every planned action done');

SELECT tap_pm_capture('validate', 'public.tap_pm_c');
SELECT results_eq($$SELECT step, action, object, statements[1] FROM tap_pm_plan WHERE label = 'validate' ORDER BY ord$$,
    $$VALUES (1, 'validate constraint', 'public.tap_pm_c_p0',
              'ALTER TABLE public.tap_pm_c_p0 VALIDATE CONSTRAINT partmanconstr_tap_pm_c_p0_v'),
             (2, 'validate constraint', 'public.tap_pm_c_p10',
              'ALTER TABLE public.tap_pm_c_p10 VALIDATE CONSTRAINT partmanconstr_tap_pm_c_p10_v'),
             (3, 'validate constraint', 'public.tap_pm_c_p20',
              'ALTER TABLE public.tap_pm_c_p20 VALIDATE CONSTRAINT partmanconstr_tap_pm_c_p20_v')$$,
    'constraints, next call: one validate constraint per NOT VALID constraint');
SELECT is((tap_pm_row('validate', 'public.tap_pm_c_p0')).locks, ARRAY['public.tap_pm_c_p0 SHARE UPDATE EXCLUSIVE'],
    'validate constraint: SHARE UPDATE EXCLUSIVE on the child only');
SELECT partmgr.run_maintenance('public.tap_pm_c');
SELECT is(tap_pm_logged('validate'), tap_pm_planned('validate'),
    'constraints, next call: the run did exactly what the plan listed');
SELECT is(tap_pm_outcomes('validate'), 'done', 'constraints, next call: every planned action done');
SELECT is((SELECT array_agg(convalidated ORDER BY conname) FROM pg_constraint WHERE conname LIKE 'partmanconstr\_tap\_pm\_c\_%'),
    ARRAY[true, true, true], 'constraints, next call: the three constraints are validated');

------------------------------------------------------------------------------
-- several sets at once, in maintenance_order; sets off or being undone are left out
------------------------------------------------------------------------------
UPDATE partmgr.part_config SET automatic_maintenance = 'off';
SELECT tap_pm_idset(t, 1) FROM unnest(ARRAY['tap_pm_oa', 'tap_pm_ob', 'tap_pm_oc', 'tap_pm_od', 'tap_pm_ou', 'tap_pm_of']) t;
INSERT INTO public.tap_pm_oa VALUES (115, 1);
INSERT INTO public.tap_pm_ob VALUES (115, 1);
INSERT INTO public.tap_pm_oc VALUES (115, 1);
INSERT INTO public.tap_pm_od VALUES (115, 1);
INSERT INTO public.tap_pm_ou VALUES (115, 1);
INSERT INTO public.tap_pm_of VALUES (115, 1);
UPDATE partmgr.part_config SET maintenance_order = 3 WHERE parent_table = 'public.tap_pm_oa';
UPDATE partmgr.part_config SET maintenance_order = 1 WHERE parent_table = 'public.tap_pm_ob';
UPDATE partmgr.part_config SET maintenance_order = 2 WHERE parent_table = 'public.tap_pm_od';
UPDATE partmgr.part_config SET undo_in_progress = true WHERE parent_table = 'public.tap_pm_ou';
UPDATE partmgr.part_config SET automatic_maintenance = 'off' WHERE parent_table = 'public.tap_pm_of';
SELECT tap_pm_capture('all');

SELECT is(state_after, state_before, 'several sets: plan_maintenance() changed nothing')
  FROM tap_pm_mark WHERE label = 'all';
SELECT is((SELECT array_agg(parent_table ORDER BY ord) FROM tap_pm_plan WHERE label = 'all'),
    ARRAY['public.tap_pm_ob', 'public.tap_pm_od', 'public.tap_pm_oa', 'public.tap_pm_oc'],
    'plan_maintenance(): the sets in maintenance_order (NULL last); automatic_maintenance off and undo_in_progress left out');
SELECT is((SELECT array_agg(p.action || ' ' || p.object ORDER BY p.ord) FROM tap_pm_plan p WHERE label = 'all'),
          (SELECT array_agg(p.action || ' ' || p.object ORDER BY pc.maintenance_order NULLS LAST, p.parent_table, p.step)
             FROM tap_pm_plan p JOIN partmgr.part_config pc USING (parent_table) WHERE label = 'all'),
    'plan_maintenance(): rows come in maintenance order, then step');
SELECT is((SELECT array_agg(p::text) FROM partmgr.plan_maintenance(NULL) p),
          (SELECT array_agg(p::text) FROM partmgr.plan_maintenance() p),
    'plan_maintenance(NULL) is plan_maintenance() (all sets)');
SELECT partmgr.run_maintenance();
SELECT is(tap_pm_logged('all'), tap_pm_planned('all'), 'several sets: the run did exactly what the plan listed, in that order');
SELECT is((SELECT array_agg(parent_table ORDER BY log_id) FROM partmgr.maintenance_log
            WHERE log_id > (SELECT log_id FROM tap_pm_mark WHERE label = 'all')),
    ARRAY['public.tap_pm_ob', 'public.tap_pm_od', 'public.tap_pm_oa', 'public.tap_pm_oc'],
    'several sets: the run followed maintenance_order');
SELECT is(tap_pm_outcomes('all'), 'done', 'several sets: every planned action done');
SELECT ok(to_regclass('public.tap_pm_ou_p120') IS NULL AND to_regclass('public.tap_pm_of_p120') IS NULL,
    'several sets: the set being undone and the set with automatic maintenance off were not maintained');

-- named, a set being undone: the run skips it and logs nothing
SELECT results_eq($$SELECT step, action, object, note FROM partmgr.plan_maintenance('public.tap_pm_ou')$$,
    $$VALUES (1, 'maintain set', NULL::text, 'skipped: undo_partition is in progress')$$,
    'plan_maintenance of a named set being undone: one row saying a run skips it');
SELECT tap_pm_capture('undo', 'public.tap_pm_ou');
SELECT partmgr.run_maintenance('public.tap_pm_ou');
SELECT is(tap_pm_logged('undo'), '{}'::text[], 'run_maintenance of the named set being undone logs nothing');

------------------------------------------------------------------------------
-- broken configurations: a row saying a run would fail, the other sets planned
------------------------------------------------------------------------------
UPDATE partmgr.part_config SET automatic_maintenance = 'off';
SELECT tap_pm_idset(t, 1) FROM unnest(ARRAY['tap_pm_bad', 'tap_pm_bi', 'tap_pm_ok']) t;
INSERT INTO public.tap_pm_bad VALUES (115, 1);
INSERT INTO public.tap_pm_bi VALUES (115, 1);
INSERT INTO public.tap_pm_ok VALUES (115, 1);
UPDATE partmgr.part_config SET retention = 'banana', maintenance_order = 1 WHERE parent_table = 'public.tap_pm_bad';
UPDATE partmgr.part_config SET partition_interval = 'banana', maintenance_order = 2 WHERE parent_table = 'public.tap_pm_bi';
UPDATE partmgr.part_config SET maintenance_order = 3 WHERE parent_table = 'public.tap_pm_ok';
SELECT tap_pm_capture('broken');

SELECT results_eq($$SELECT parent_table, step, action, object, note FROM tap_pm_plan
                     WHERE label = 'broken' AND parent_table = 'public.tap_pm_bad'$$,
    $$VALUES ('public.tap_pm_bad', 1, 'create partition', 'public.tap_pm_bad_p120', NULL::text),
             ('public.tap_pm_bad', 2, 'apply retention', NULL,
              'a run would fail (22023): retention "banana" of partition set "public.tap_pm_bad" is not a whole number of zero or more')$$,
    'retention ''banana'' on an id set: the new child, then an apply retention row, a run would fail (22023)');
SELECT results_eq($$SELECT parent_table, step, action, note LIKE 'a run would fail (%' FROM tap_pm_plan
                     WHERE label = 'broken' AND parent_table = 'public.tap_pm_bi'$$,
    $$VALUES ('public.tap_pm_bi', 1, 'maintain set', true)$$,
    'partition_interval ''banana'': one maintain set row, a run would fail');
SELECT results_eq($$SELECT parent_table, step, action, object FROM tap_pm_plan
                     WHERE label = 'broken' AND parent_table = 'public.tap_pm_ok'$$,
    $$VALUES ('public.tap_pm_ok', 1, 'create partition', 'public.tap_pm_ok_p120')$$,
    'the healthy set after the broken ones is still planned');
SELECT partmgr.run_maintenance();
SELECT is(tap_pm_logged('broken', 'public.tap_pm_bi'), tap_pm_planned('broken', 'public.tap_pm_bi'),
    'partition_interval ''banana'': the run logged the set as failed, as planned');
SELECT is(tap_pm_outcomes('broken', 'public.tap_pm_bi'), 'failed', 'partition_interval ''banana'': logged failed');
SELECT is(tap_pm_logged('broken', 'public.tap_pm_ok'), tap_pm_planned('broken', 'public.tap_pm_ok'),
    'the healthy set: the run did exactly what the plan listed');
SELECT is(tap_pm_logged('broken', 'public.tap_pm_bad'), tap_pm_planned('broken', 'public.tap_pm_bad'),
    'retention ''banana'': what the run did to the set is what the plan listed');
SELECT throws_ok($$SELECT partmgr.run_maintenance('public.tap_pm_bad')$$, '22023',
    'retention "banana" of partition set "public.tap_pm_bad" is not a whole number of zero or more',
    'run_maintenance of the named broken set fails with the planned error');

------------------------------------------------------------------------------
-- bad arguments
------------------------------------------------------------------------------
CREATE TABLE public.tap_pm_plain (id int);
SELECT throws_ok($$SELECT * FROM partmgr.plan_maintenance('public.tap_pm_plain')$$, '42704', NULL,
    'plan_maintenance of a table that is not a partition set: 42704');
SELECT throws_ok($$SELECT * FROM partmgr.plan_maintenance('public.tap_pm_nowhere')$$, '42P01', NULL,
    'plan_maintenance of a table that does not exist: 42P01');

------------------------------------------------------------------------------
-- premake changes what retention and constraints decide in the same run
------------------------------------------------------------------------------
-- retention and derived constraints on one set: retention drops p0 and p10,
-- after which p40 (newest with rows) is only two children above p20
CREATE TABLE public.tap_pm_rc (id int NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_pm_rc', 'id', '10', p_start_partition => '0', p_premake => 1,
                             p_constraint_cols => ARRAY['v']);
SELECT partmgr.create_partition_id('public.tap_pm_rc', ARRAY[20, 30, 40]::bigint[]);
UPDATE partmgr.part_config SET optimize_constraint = 2, retention = '25', retention_keep_table = false
 WHERE parent_table = 'public.tap_pm_rc';
INSERT INTO public.tap_pm_rc SELECT g, g FROM generate_series(0, 45) g;
SELECT tap_pm_capture('rc', 'public.tap_pm_rc');
SELECT partmgr.run_maintenance('public.tap_pm_rc');
SELECT is(tap_pm_logged('rc'), tap_pm_planned('rc'),
    'retention and constraints on one set: the run did exactly what the plan listed');

-- rows in the default move into the new child, whose ids raise the retention horizon
-- (ignore_default_data: premake does not count them)
SELECT tap_pm_idset('tap_pm_dr', 2);
INSERT INTO public.tap_pm_dr VALUES (101, 1), (115, 2), (131, 3), (135, 4);
UPDATE partmgr.part_config SET retention = '10' WHERE parent_table = 'public.tap_pm_dr';
SELECT tap_pm_capture('dr', 'public.tap_pm_dr');
SELECT partmgr.run_maintenance('public.tap_pm_dr');
SELECT is(tap_pm_logged('dr'), tap_pm_planned('dr'),
    'rows moved out of the default: the run did what the plan listed');
-- retention judges the rows as they were when the run started: the rows it
-- moved into p130 count from the next run (the plan says the same)
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_pm_dr')$$,
    $$VALUES ('tap_pm_dr_p100'), ('tap_pm_dr_p110'), ('tap_pm_dr_p120'), ('tap_pm_dr_p130')$$,
    'rows moved out of the default: retention of the same run does not count them yet (largest id 115)');
SELECT partmgr.run_maintenance('public.tap_pm_dr');
SELECT results_eq($$SELECT partition_tablename FROM partmgr.show_partitions('public.tap_pm_dr')$$,
    $$VALUES ('tap_pm_dr_p120'), ('tap_pm_dr_p130'), ('tap_pm_dr_p140'), ('tap_pm_dr_p150')$$,
    'the next run counts them: largest id 135, p100 and p110 retired, premake counted from p130');

-- time set with all its children expired: the new children let retention
-- retire the one the plan keeps as the last child of the set
CREATE TABLE public.tap_pm_tl (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_pm_tl', 'ts', '1 day', p_start_partition => '2100-01-01', p_premake => 2);
SELECT partmgr.create_partition_time('public.tap_pm_tl', ARRAY['2000-01-01', '2000-01-02']::timestamptz[]);
DROP TABLE public.tap_pm_tl_p21000101;
INSERT INTO public.tap_pm_tl VALUES ('2000-01-02 05:00+00');
UPDATE partmgr.part_config SET retention = '1 day', retention_keep_table = false WHERE parent_table = 'public.tap_pm_tl';
SELECT tap_pm_capture('tl', 'public.tap_pm_tl');
SELECT partmgr.run_maintenance('public.tap_pm_tl');
SELECT is(tap_pm_logged('tl'), tap_pm_planned('tl'),
    'expired time set that gets new children: the run did exactly what the plan listed');

SELECT * FROM finish();
ROLLBACK;
