-- pgTAP tests that every change to a set's tables goes through plan and
-- execute, and so shows in partmgr.maintenance_log with the statements it
-- ran: ANALYZE (run_analyze, with and without SKIP_LOCKED, and
-- run_maintenance's p_analyze), the plain children create_sub_parent takes
-- out before recreating them partitioned (dropped when empty, detached and
-- renamed <name>_presub when they hold rows), and the children made in
-- their place.  The rows of one plan are written together after its last
-- action: each keeps its own statements, detail and end, in action order.
--
-- Deterministic: id sets with explicit starts; nothing depends on today.
BEGIN;
SET search_path = public;
SET client_min_messages = warning;

SELECT plan(22);

CREATE SCHEMA tap_lc;

-- the log rows of a set, as "action object run_by outcome", in order
CREATE FUNCTION public.tap_lc_log(p_parent text, p_run_by text)
RETURNS SETOF text
LANGUAGE sql STABLE AS $$
    SELECT action || ' ' || coalesce(object, '-') || ' ' || run_by || ' ' || outcome
      FROM partmgr.maintenance_log
     WHERE parent_table = p_parent AND run_by = p_run_by
     ORDER BY log_id
$$;

CREATE TABLE tap_lc.ids (id int NOT NULL, v text) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('tap_lc.ids', 'id', '10', p_premake => 2,
                             p_start_partition => '0', p_default_table => false,
                             p_template_table => 'false');
INSERT INTO tap_lc.ids VALUES (1, 'a'), (2, 'b'), (3, 'c');

------------------------------------------------------------------------
-- ANALYZE is an action: logged, with its statement
------------------------------------------------------------------------
CALL partmgr.run_analyze(p_quiet => true, p_parent_table => 'tap_lc.ids');
SELECT results_eq($$SELECT * FROM tap_lc_log('tap_lc.ids', 'run_analyze')$$,
    $$VALUES ('analyze tap_lc.ids run_analyze done')$$,
    'run_analyze writes one maintenance_log row for the set');
SELECT is((SELECT statements FROM partmgr.maintenance_log
            WHERE parent_table = 'tap_lc.ids' AND run_by = 'run_analyze'),
          ARRAY['ANALYZE tap_lc.ids'], 'with the ANALYZE it ran');
SELECT ok(EXISTS (SELECT 1 FROM pg_statistic WHERE starelid = 'tap_lc.ids'::regclass AND stainherit),
          'and the statistics of the tree are there');
CALL partmgr.run_analyze(p_skip_locked => true, p_quiet => true, p_parent_table => 'tap_lc.ids');
SELECT is((SELECT statements FROM partmgr.maintenance_log
            WHERE parent_table = 'tap_lc.ids' AND run_by = 'run_analyze'
            ORDER BY log_id DESC LIMIT 1),
          ARRAY['ANALYZE (SKIP_LOCKED) tap_lc.ids'], 'p_skip_locked is in the statement logged');

-- run_maintenance(p_analyze) after it made a child
UPDATE partmgr.part_config SET premake = 3 WHERE parent_table = 'tap_lc.ids';
SELECT partmgr.run_maintenance('tap_lc.ids', p_analyze => true);
SELECT results_eq($$SELECT * FROM tap_lc_log('tap_lc.ids', 'run_maintenance')$$,
    $$VALUES ('create partition tap_lc.ids_p30 run_maintenance done'),
             ('analyze tap_lc.ids run_maintenance done')$$,
    'run_maintenance(p_analyze): the new child, then the ANALYZE, both logged');
SELECT partmgr.run_maintenance('tap_lc.ids', p_analyze => true);
SELECT is((SELECT count(*)::int FROM partmgr.maintenance_log
            WHERE parent_table = 'tap_lc.ids' AND run_by = 'run_maintenance' AND action = 'analyze'), 1,
          'a run that makes no child does not ANALYZE');

------------------------------------------------------------------------
-- create_sub_parent takes out the plain children through the executor
------------------------------------------------------------------------
SELECT ok(partmgr.create_sub_parent('tap_lc.ids', 'id', '5', p_declarative_check => 'yes',
                                    p_start_partition => '0', p_premake => 1),
          'create_sub_parent of an id set by id');
SELECT results_eq(
    $$SELECT * FROM tap_lc_log('tap_lc.ids', 'create_sub_parent') LIMIT 4$$,
    $$VALUES ('detach partition and rename it tap_lc.ids_p0 create_sub_parent done'),
             ('drop partition tap_lc.ids_p10 create_sub_parent done'),
             ('drop partition tap_lc.ids_p20 create_sub_parent done'),
             ('drop partition tap_lc.ids_p30 create_sub_parent done')$$,
    'the child with rows is detached and renamed, the empty ones dropped, each logged, in order');
SELECT is((SELECT statements[2] FROM partmgr.maintenance_log
            WHERE parent_table = 'tap_lc.ids' AND run_by = 'create_sub_parent'
              AND action = 'detach partition and rename it'),
          'ALTER TABLE tap_lc.ids_p0 RENAME TO ids_p0_presub',
          'the rename is one of the statements logged');
SELECT is((SELECT count(*)::int FROM tap_lc.ids_p0_presub), 3, 'the rows are kept in ids_p0_presub');
SELECT ok(NOT (SELECT relispartition FROM pg_class WHERE oid = 'tap_lc.ids_p0_presub'::regclass),
          'which is no partition of the set');
SELECT is(to_regclass('tap_lc.ids_p10_presub'), NULL, 'an empty child is not kept');
SELECT is((SELECT count(*)::int FROM partmgr.maintenance_log
            WHERE parent_table = 'tap_lc.ids' AND run_by = 'create_sub_parent'
              AND action = 'create partition' AND outcome = 'done'), 4,
          'each range is created again, logged');
SELECT is((SELECT relkind::text FROM pg_class WHERE oid = 'tap_lc.ids_p0'::regclass), 'p',
          'partitioned');
SELECT ok(EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table = 'tap_lc.ids_p0'),
          'and registered as a set of its own');
SELECT ok(EXISTS (SELECT 1 FROM partmgr.maintenance_log
                   WHERE parent_table = 'tap_lc.ids_p0' AND action = 'create partition'
                     AND object = 'tap_lc.ids_p0_p0' AND outcome = 'done'),
          'whose first child is logged under the sub-set');
SELECT lives_ok($$INSERT INTO tap_lc.ids VALUES (4, 'd')$$, 'rows reach the new sub-partitions');

------------------------------------------------------------------------
-- one plan, several actions: each row its own, in order
------------------------------------------------------------------------
CREATE TABLE tap_lc.ids2 (id int NOT NULL, v text) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('tap_lc.ids2', 'id', '10', p_premake => 2,
                             p_start_partition => '0', p_template_table => 'false');
INSERT INTO tap_lc.ids2 VALUES (1, 'a'), (45, 'in the default');
UPDATE partmgr.part_config SET premake = 6 WHERE parent_table = 'tap_lc.ids2';
SELECT partmgr.run_maintenance('tap_lc.ids2');
SELECT results_eq(
    $$SELECT object || ' ' || outcome || ' ' || array_length(statements, 1)
        FROM partmgr.maintenance_log
       WHERE parent_table = 'tap_lc.ids2' AND run_by = 'run_maintenance' ORDER BY log_id$$,
    $$VALUES ('tap_lc.ids2_p30 done 2'), ('tap_lc.ids2_p40 done 6'),
             ('tap_lc.ids2_p50 done 2'), ('tap_lc.ids2_p60 done 2')$$,
    'a plan of four actions: four rows in action order, each with as many statements as it ran');
SELECT is((SELECT count(*)::int FROM partmgr.maintenance_log
            WHERE parent_table = 'tap_lc.ids2' AND run_by = 'run_maintenance'
              AND statements[1] = format('CREATE TABLE %s (LIKE tap_lc.ids2 INCLUDING DEFAULTS'
                                         ' INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMMENTS'
                                         ' INCLUDING GENERATED INCLUDING COMPRESSION)', object)
              AND (SELECT count(*) FROM unnest(statements) s
                    WHERE s LIKE 'ALTER TABLE tap_lc.ids2 ATTACH PARTITION %') = 1
              AND EXISTS (SELECT 1 FROM unnest(statements) s
                           WHERE s LIKE format('ALTER TABLE tap_lc.ids2 ATTACH PARTITION %s FOR VALUES %%',
                                               object))),
          4, 'each row begins with its own child''s CREATE TABLE and holds its ATTACH, and no other');
SELECT is((SELECT detail FROM partmgr.maintenance_log
            WHERE parent_table = 'tap_lc.ids2' AND run_by = 'run_maintenance'
              AND object = 'tap_lc.ids2_p40'),
          'for values from ''40'' to ''50''; 1 rows moved in from tap_lc.ids2_default',
          'the child that took the default''s row says so, and only it');
SELECT ok((SELECT bool_and(finished_at >= started_at AND finished_at >= coalesce(prev, finished_at))
             FROM (SELECT started_at, finished_at,
                          lag(finished_at) OVER (ORDER BY log_id) AS prev
                     FROM partmgr.maintenance_log
                    WHERE parent_table = 'tap_lc.ids2' AND run_by = 'run_maintenance') r),
          'each row ends when its action did, no earlier than the row before it');
SELECT is((SELECT count(*)::int FROM partmgr.maintenance_log
            WHERE parent_table = 'tap_lc.ids2' AND run_by = 'run_maintenance'
              AND owner = current_user::regrole AND sqlstate IS NULL AND error IS NULL),
          4, 'every row belongs to the set''s owner and has no error');

SELECT * FROM finish();
ROLLBACK;
