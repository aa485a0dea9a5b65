-- pgTAP tests of the functions that move rows: partition_data_time(),
-- partition_data_id(), partition_data_proc, undo_partition() and
-- undo_partition_proc, and of the default partition healing of
-- run_maintenance() (pg_partmgr.default_move_limit).
--
-- partition_data: each batch starts at the smallest key left in the source
-- (the largest with DESC) and covers that key's child: from the default
-- partition always the whole child, from a separate table at most the batch
-- interval and never past the child's bound.  Missing children are created on
-- the grid of the existing ones, loaded, then attached, and keep no
-- partmgr_bound_check.  Every row ends up exactly once, in the child whose
-- bound holds it, with its identity value kept and its generated columns
-- recomputed.  undo_partition moves the default partition first, then the
-- lowest child, into a plain target table, detaches (or drops) each child it
-- empties and forgets the set when none is left.  Bad input is refused before
-- anything moves.
--
-- The procedures cannot commit inside this transaction: they run all their
-- batches in it, which is what they are tested for here (p_wait => 0).
--
-- Deterministic: far-future keys (2100) and explicit ids; rows outside the
-- existing children land in the default partition.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = error;

SELECT plan(152);

-- Attached children of a parent with their bounds (C order of names).
CREATE FUNCTION public.tap_pd_children(p_parent regclass)
RETURNS TABLE (child text, bound text)
LANGUAGE sql STABLE AS $$
    SELECT c.relname::text COLLATE "default", pg_get_expr(c.relpartbound, c.oid) COLLATE "default"
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent
     ORDER BY c.relname COLLATE "C"
$$;

-- Row count and a checksum over every column of every row of a table (with
-- its partitions): equal digests mean the same rows with the same values.
CREATE FUNCTION public.tap_pd_digest(p_table regclass)
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

-- SQLSTATE and message of the error a statement raises, or 'no error'.
CREATE FUNCTION public.tap_pd_error(p_sql text)
RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE p_sql;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;

CREATE TABLE public.tap_pd_before (label text PRIMARY KEY, digest text NOT NULL);

------------------------------------------------------------------------------
-- time set: out of the default partition, ASC and DESC, batch counts
------------------------------------------------------------------------------
CREATE TABLE public.tap_pdt (
    id bigint GENERATED ALWAYS AS IDENTITY,
    ts timestamptz NOT NULL,
    v int,
    note text DEFAULT 'none',
    g int GENERATED ALWAYS AS (v * 2) STORED
) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_pdt', 'ts', '1 day', p_start_partition => '2100-01-10',
                             p_premake => 1);
-- 48 rows, four a day from 2100-01-07 to 2100-01-18: 4 in the 2100-01-10
-- child, 44 in the default partition
INSERT INTO public.tap_pdt (ts, v, note)
SELECT timestamptz '2100-01-07 00:00+00' + n * interval '6 hours', n, 'n' || n
  FROM generate_series(0, 47) n;
INSERT INTO public.tap_pd_before VALUES ('tap_pdt', tap_pd_digest('public.tap_pdt'));

SELECT is(partmgr.partition_data_time('public.tap_pdt'), 4::bigint,
    'time set, defaults: one batch, the lowest day of the default (4 rows)');
SELECT results_eq($$SELECT child, bound FROM tap_pd_children('public.tap_pdt') WHERE child <> 'tap_pdt_default'$$,
    $$VALUES ('tap_pdt_p21000107', 'FOR VALUES FROM (''2100-01-07 00:00:00+00'') TO (''2100-01-08 00:00:00+00'')'),
             ('tap_pdt_p21000110', 'FOR VALUES FROM (''2100-01-10 00:00:00+00'') TO (''2100-01-11 00:00:00+00'')')$$,
    'the missing child was created with its name and a one-day bound on the grid');
SELECT is(partmgr.partition_data_time('public.tap_pdt', p_batch_count => 2), 8::bigint,
    'p_batch_count => 2: two days (8 rows)');
SELECT is(partmgr.partition_data_time('public.tap_pdt', p_batch_count => 2, p_order => 'desc'), 8::bigint,
    'p_order => ''desc'' (any case): two batches, 8 rows');
SELECT results_eq($$SELECT child FROM tap_pd_children('public.tap_pdt')$$,
    $$VALUES ('tap_pdt_default'), ('tap_pdt_p21000107'), ('tap_pdt_p21000108'), ('tap_pdt_p21000109'),
             ('tap_pdt_p21000110'), ('tap_pdt_p21000117'), ('tap_pdt_p21000118')$$,
    'DESC took the two highest days (17, 18), the ASC batches the lowest ones');
SELECT results_eq($$SELECT min(ts), max(ts) FROM ONLY public.tap_pdt_default$$,
    $$VALUES ('2100-01-11 00:00+00'::timestamptz, '2100-01-16 18:00+00'::timestamptz)$$,
    'nothing of the moved days is left in the default partition, at either end');
SELECT is(partmgr.partition_data_time('public.tap_pdt', p_batch_interval => '1 day'), 4::bigint,
    'out of the default a batch interval equal to the partition interval is accepted');
SELECT is(partmgr.partition_data_time('public.tap_pdt', p_batch_count => 100), 20::bigint,
    'p_batch_count => 100: stops when the default is empty, returns the 20 rows left');
SELECT is(partmgr.partition_data_time('public.tap_pdt', p_batch_count => 5), 0::bigint,
    'nothing left in the default: returns 0');
SELECT is(tap_pd_digest('public.tap_pdt'), (SELECT digest FROM tap_pd_before WHERE label = 'tap_pdt'),
    'time set: same row count and same checksum over all columns (identity kept, generated recomputed)');
SELECT is((SELECT count(*) FROM public.tap_pdt t JOIN pg_class c ON c.oid = t.tableoid
            WHERE c.relname <> 'tap_pdt_p' || to_char(t.ts, 'YYYYMMDD')), 0::bigint,
    'every row is in the child whose bound holds it (none left in the default)');
SELECT is((SELECT count(*) FROM public.tap_pdt
            WHERE id <> 1 + (extract(epoch FROM ts - '2100-01-07 00:00+00') / 21600)::bigint
               OR g <> v * 2 OR note <> 'n' || v), 0::bigint,
    'GENERATED ALWAYS identity values kept, generated column recomputed, other columns unchanged');
SELECT results_eq($$SELECT count(*) FILTER (WHERE action = 'create partition'),
                           sum(substring(detail FROM '; (\d+) rows moved in from public\.tap_pdt_default$')::bigint)
                      FROM partmgr.maintenance_log
                     WHERE parent_table = 'public.tap_pdt' AND run_by = 'partition_data_time'
                       AND outcome = 'done'$$,
    $$VALUES (11::bigint, 44::numeric)$$,
    'maintenance_log: 11 children created by partition_data_time, and the 44 rows moved in from the default');
SELECT ok(EXISTS (SELECT 1 FROM pg_statistic WHERE starelid = 'public.tap_pdt'::regclass),
    'p_analyze defaults to true: the parent has statistics');

------------------------------------------------------------------------------
-- id set: partition_data_id and partition_data_proc out of the default
------------------------------------------------------------------------------
CREATE TABLE public.tap_pdi (id int NOT NULL, v text) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_pdi', 'id', '10', p_start_partition => '100', p_premake => 1);
-- ids 60..159: 100..119 in the two children, 80 rows in the default
INSERT INTO public.tap_pdi SELECT n, 'v' || n FROM generate_series(60, 159) n;
INSERT INTO public.tap_pd_before VALUES ('tap_pdi', tap_pd_digest('public.tap_pdi'));

SELECT is(partmgr.partition_data_id('public.tap_pdi', p_batch_count => 2, p_analyze => false), 20::bigint,
    'id set: two batches, the two lowest children (20 rows)');
SELECT results_eq($$SELECT child, bound FROM tap_pd_children('public.tap_pdi') WHERE child IN ('tap_pdi_p60', 'tap_pdi_p70')$$,
    $$VALUES ('tap_pdi_p60', 'FOR VALUES FROM (60) TO (70)'), ('tap_pdi_p70', 'FOR VALUES FROM (70) TO (80)')$$,
    'id set: new children named and bounded on the grid of the existing ones');
SELECT is((SELECT count(*) FROM pg_statistic WHERE starelid = 'public.tap_pdi'::regclass), 0::bigint,
    'p_analyze => false: the parent is not analyzed');
SELECT is(partmgr.partition_data_id('public.tap_pdi', p_order => 'DESC'), 10::bigint,
    'id set DESC: one batch from the top (150..159)');
CALL partmgr.partition_data_proc('public.tap_pdi', p_loop_count => 2, p_wait => 0, p_quiet => true);
SELECT results_eq($$SELECT min(id), max(id), count(*) FROM ONLY public.tap_pdi_default$$,
    $$VALUES (120, 149, 30::bigint)$$,
    'partition_data_proc p_loop_count => 2: two children (80s, 90s) moved, 120..149 left');
CALL partmgr.partition_data_proc('public.tap_pdi', p_wait => 0, p_order => 'DESC', p_quiet => true);
SELECT is((SELECT count(*) FROM ONLY public.tap_pdi_default), 0::bigint,
    'partition_data_proc without p_loop_count: runs until the default is empty');
SELECT results_eq($$SELECT object FROM partmgr.maintenance_log
                    WHERE parent_table = 'public.tap_pdi' AND run_by = 'partition_data_proc'
                      AND action = 'create partition' ORDER BY log_id$$,
    $$VALUES ('public.tap_pdi_p80'), ('public.tap_pdi_p90'), ('public.tap_pdi_p140'), ('public.tap_pdi_p130'),
             ('public.tap_pdi_p120')$$,
    'partition_data_proc logs its children, ascending then (DESC) descending');
SELECT is((SELECT count(*) FROM public.tap_pdi t JOIN pg_class c ON c.oid = t.tableoid
            WHERE c.relname <> 'tap_pdi_p' || (t.id / 10 * 10)), 0::bigint,
    'id set: every row is in the child whose bound holds it');
SELECT is(tap_pd_digest('public.tap_pdi'), (SELECT digest FROM tap_pd_before WHERE label = 'tap_pdi'),
    'id set: same row count and checksum after the moves');

------------------------------------------------------------------------------
-- migrating a plain table: rename it, create the partitioned parent, move
-- the rows over from the old table as the source until it is empty
------------------------------------------------------------------------------
CREATE TABLE public.tap_pdm (
    id bigint GENERATED ALWAYS AS IDENTITY,
    ts timestamptz NOT NULL,
    v int,
    note text DEFAULT 'none',
    g int GENERATED ALWAYS AS (v + 1) STORED
);
-- 60 rows, one every 5 hours from 2100-02-01 00:00 to 2100-02-13 07:00
INSERT INTO public.tap_pdm (ts, v, note)
SELECT timestamptz '2100-02-01 00:00+00' + n * interval '5 hours', n, 'n' || n
  FROM generate_series(0, 59) n;
ALTER TABLE public.tap_pdm RENAME TO tap_pdm_old;
INSERT INTO public.tap_pd_before VALUES ('tap_pdm', tap_pd_digest('public.tap_pdm_old'));
CREATE TABLE public.tap_pdm (
    id bigint GENERATED ALWAYS AS IDENTITY,
    ts timestamptz NOT NULL,
    v int,
    note text DEFAULT 'none',
    g int GENERATED ALWAYS AS (v + 1) STORED
) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_pdm', 'ts', '1 day', p_start_partition => '2100-02-01',
                             p_premake => 1);

SELECT is(partmgr.partition_data_time('public.tap_pdm', p_source_table => 'public.tap_pdm_old',
                                      p_batch_interval => '12 hours'), 3::bigint,
    'source table, 12-hour batch: 00:00, 05:00 and 10:00 of the first day move');
SELECT is((SELECT min(ts) FROM public.tap_pdm_old), '2100-02-01 15:00+00'::timestamptz,
    'the moved range is gone from the source');
SELECT is(partmgr.partition_data_time('public.tap_pdm', p_source_table => 'public.tap_pdm_old',
                                      p_batch_interval => '12 hours', p_batch_count => 2), 5::bigint,
    'two 12-hour batches: the first ends at the child''s bound (2 rows), the second starts the next day (3 rows)');
SELECT results_eq($$SELECT tableoid::regclass::text, count(*) FROM public.tap_pdm GROUP BY 1 ORDER BY 1$$,
    $$VALUES ('tap_pdm_p21000201', 5::bigint), ('tap_pdm_p21000202', 3::bigint)$$,
    'batches from a source: the first day complete, 01:00..11:00 of the second day in a new child');
SELECT is(partmgr.partition_data_time('public.tap_pdm', p_source_table => 'public.tap_pdm_old',
                                      p_batch_interval => '12 hours', p_order => 'DESC'), 2::bigint,
    'DESC from a source: the top 12 hours, cut at the lower bound of the top child (02:00, 07:00)');
CALL partmgr.partition_data_proc('public.tap_pdm', p_interval => '1 day', p_source_table => 'public.tap_pdm_old',
                                 p_wait => 0, p_quiet => true);
SELECT is((SELECT count(*) FROM public.tap_pdm_old), 0::bigint,
    'partition_data_proc from the old table until empty: the old table is empty');
SELECT is(tap_pd_digest('public.tap_pdm'), (SELECT digest FROM tap_pd_before WHERE label = 'tap_pdm'),
    'migration: the new set holds exactly the old rows (count and checksum of all columns)');
SELECT is((SELECT count(*) FROM public.tap_pdm t JOIN pg_class c ON c.oid = t.tableoid
            WHERE c.relname <> 'tap_pdm_p' || to_char(t.ts, 'YYYYMMDD')), 0::bigint,
    'migration: every row in the child whose bound holds it, none in the default');
SELECT is((SELECT count(*) FROM partmgr.maintenance_log
            WHERE parent_table = 'public.tap_pdm' AND run_by = 'partition_data_proc'
              AND action = 'create partition' AND detail LIKE '%rows moved in from public.tap_pdm_old'), 10::bigint,
    'maintenance_log: the 10 children the procedure created were loaded from the old table');
SELECT is((SELECT count(*) FROM partmgr.maintenance_log
            WHERE parent_table = 'public.tap_pdm' AND run_by = 'partition_data_time'
              AND action = 'move rows' AND object = 'public.tap_pdm_old'), 3::bigint,
    'maintenance_log: partial batches are logged as "move rows" from the source');

------------------------------------------------------------------------------
-- a source table: columns by name, ignored columns, batch interval on ids
------------------------------------------------------------------------------
CREATE TABLE public.tap_pds (id bigint NOT NULL, v text, note text DEFAULT 'dflt') PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_pds', 'id', '100', p_start_partition => '0', p_premake => 1);
-- another column order and an extra column
CREATE TABLE public.tap_pds_src (note text, extra int, v text, id bigint);
INSERT INTO public.tap_pds_src SELECT 'src', n, 'v' || n, n FROM generate_series(5, 245, 10) n;

SELECT throws_ok($$SELECT partmgr.partition_data_id('public.tap_pds', p_source_table => 'public.tap_pds_src')$$,
    '42804', 'source table public.tap_pds_src has a column "extra" that "public.tap_pds" does not have',
    'a source column the parent does not have is refused');
SELECT is((SELECT count(*) FROM public.tap_pds_src) || '/' || (SELECT count(*) FROM public.tap_pds), '25/0',
    'refused extra column: nothing moved');
SELECT is(partmgr.partition_data_id('public.tap_pds', p_source_table => 'public.tap_pds_src',
                                    p_batch_interval => 30, p_ignored_columns => ARRAY['extra', 'note']), 3::bigint,
    'id batch interval 30 from a source: ids 5, 15, 25');
SELECT is(partmgr.partition_data_id('public.tap_pds', p_source_table => 'public.tap_pds_src',
                                    p_batch_interval => 30, p_order => 'DESC',
                                    p_ignored_columns => ARRAY['extra', 'note']), 3::bigint,
    'id batch interval 30, DESC: the 30 ids from 245 down, 216..245 (ids 225, 235, 245)');
SELECT results_eq($$SELECT child, bound FROM tap_pd_children('public.tap_pds') WHERE child <> 'tap_pds_default'$$,
    $$VALUES ('tap_pds_p0', 'FOR VALUES FROM (''0'') TO (''100'')'),
             ('tap_pds_p100', 'FOR VALUES FROM (''100'') TO (''200'')'),
             ('tap_pds_p200', 'FOR VALUES FROM (''200'') TO (''300'')')$$,
    'a partial batch above the children creates the whole child for its slot');
SELECT is(partmgr.partition_data_id('public.tap_pds', p_source_table => 'public.tap_pds_src',
                                    p_batch_count => 10, p_ignored_columns => ARRAY['extra', 'note']), 19::bigint,
    'no batch interval: one child per batch, stops when the source is empty (19 rows in 3 batches)');
SELECT results_eq($$SELECT (SELECT count(*) FROM public.tap_pds WHERE v = 'v' || id AND note = 'dflt'),
                           (SELECT count(*) FROM public.tap_pds_src)$$,
    $$VALUES (25::bigint, 0::bigint)$$,
    'all 25 rows moved, the source is empty; columns travel by name, the ignored column gets its default');

-- a source column that is generated in the parent
CREATE TABLE public.tap_pdq (id int NOT NULL, v int, g int GENERATED ALWAYS AS (v + 1) STORED) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_pdq', 'id', '10', p_start_partition => '0', p_premake => 1);
CREATE TABLE public.tap_pdq_src (id int NOT NULL, v int, g int);
INSERT INTO public.tap_pdq_src VALUES (1, 1, 2);
SELECT throws_ok($$SELECT partmgr.partition_data_id('public.tap_pdq', p_source_table => 'public.tap_pdq_src')$$,
    '428C9', 'column "g" of source table public.tap_pdq_src is a generated column in "public.tap_pdq"',
    'a source column that is generated in the parent is refused as such');
SELECT is(partmgr.partition_data_id('public.tap_pdq', p_source_table => 'public.tap_pdq_src',
                                    p_ignored_columns => ARRAY['g']), 1::bigint,
    'named in p_ignored_columns, the generated column leaves the source behind');
SELECT is((SELECT g FROM public.tap_pdq WHERE id = 1), 2,
    'named in p_ignored_columns, the generated column is computed again in the child');

-- an ignored GENERATED ALWAYS identity column
CREATE TABLE public.tap_pdg (id bigint GENERATED ALWAYS AS IDENTITY, ts timestamptz NOT NULL, v int)
    PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_pdg', 'ts', '1 day', p_start_partition => '2100-03-01', p_premake => 1);
CREATE TABLE public.tap_pdg_src (id bigint, ts timestamptz NOT NULL, v int);
INSERT INTO public.tap_pdg_src VALUES (900, '2100-03-01 05:00+00', 1), (901, '2100-03-03 05:00+00', 2);
SELECT is(partmgr.partition_data_time('public.tap_pdg', p_source_table => 'public.tap_pdg_src',
                                      p_ignored_columns => ARRAY['id'], p_batch_count => 5), 2::bigint,
    'an ignored identity column: the rows move');
SELECT results_eq($$SELECT count(*), count(DISTINCT id), bool_or(id IS NULL OR id IN (900, 901)),
                           max(id) = (SELECT last_value FROM public.tap_pdg_id_seq)
                      FROM public.tap_pdg$$,
    $$VALUES (2::bigint, 2::bigint, false, true)$$,
    'an ignored identity column: each row gets a new value from the parent''s identity sequence');

------------------------------------------------------------------------------
-- bad input: refused, and nothing moves
------------------------------------------------------------------------------
CREATE TABLE public.tap_pde (id int NOT NULL, v text) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_pde', 'id', '10', p_start_partition => '0', p_premake => 1);
INSERT INTO public.tap_pde SELECT n, 'v' || n FROM generate_series(0, 49) n;    -- 30 rows in the default
CREATE TABLE public.tap_pdet (ts timestamptz NOT NULL, v int) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_pdet', 'ts', '1 day', p_start_partition => '2100-04-10', p_premake => 1);
INSERT INTO public.tap_pdet SELECT timestamptz '2100-04-01 00:00+00' + n * interval '12 hours', n
  FROM generate_series(0, 39) n;
INSERT INTO public.tap_pd_before VALUES ('tap_pde', tap_pd_digest('public.tap_pde')),
                                        ('tap_pdet', tap_pd_digest('public.tap_pdet'));
CREATE TABLE public.tap_pde_plain (id int NOT NULL, v text);
CREATE VIEW public.tap_pde_view AS SELECT 1 AS id, 'x'::text AS v;
CREATE TABLE public.tap_pde_src_missing (id int);
INSERT INTO public.tap_pde_src_missing VALUES (25);
CREATE TABLE public.tap_pde_src_type (id bigint, v text);
INSERT INTO public.tap_pde_src_type VALUES (25, 'x');
CREATE TABLE public.tap_pde_tgt_missing (id int);
CREATE TABLE public.tap_pde_tgt_type (id int, v point);
CREATE TABLE public.tap_pde_tgt_pk (id int PRIMARY KEY, v text);
INSERT INTO public.tap_pde_tgt_pk VALUES (5, 'already there');
CREATE TABLE public.tap_pde_tgt (id int, v text);

SELECT throws_ok($$SELECT partmgr.partition_data_time('public.tap_pde')$$,
    '22023', '"public.tap_pde" is not a time partition set', 'partition_data_time on an id set');
SELECT throws_ok($$SELECT partmgr.partition_data_id('public.tap_pdet')$$,
    '22023', '"public.tap_pdet" is not an id partition set', 'partition_data_id on a time set');
SELECT throws_ok($$SELECT partmgr.partition_data_id('public.tap_pde_plain')$$,
    '42704', 'table "public.tap_pde_plain" is not managed by pg_partmgr', 'an unregistered table');
SELECT throws_ok($$SELECT partmgr.partition_data_id('public.tap_pde_nosuch')$$,
    '42P01', 'table "public.tap_pde_nosuch" does not exist', 'a parent that does not exist');
SELECT throws_ok($$SELECT partmgr.partition_data_id(NULL)$$,
    '22004', 'argument p_parent_table must not be NULL', 'p_parent_table NULL');
SELECT throws_ok($$SELECT partmgr.partition_data_id('public.tap_pde', p_batch_count => 0)$$,
    '22023', 'p_batch_count must be at least 1, not 0', 'p_batch_count 0');
SELECT throws_ok($$SELECT partmgr.partition_data_time('public.tap_pdet', p_order => 'sideways')$$,
    '22023', 'invalid value "sideways" for p_order', 'p_order neither ASC nor DESC');
SELECT throws_ok($$SELECT partmgr.partition_data_time('public.tap_pdet', p_batch_interval => '1 hour')$$,
    '22023', 'rows are moved out of the default partition of "public.tap_pdet" one whole child at a time',
    'a batch interval other than the partition interval out of the default');
SELECT throws_ok($$SELECT partmgr.partition_data_id('public.tap_pde', p_source_table => 'public.tap_pde_plain',
                                                     p_batch_interval => 0)$$,
    '22023', 'batch interval must be greater than zero, not 0', 'a batch interval of 0 from a source');
SELECT throws_ok($$SELECT partmgr.partition_data_id('public.tap_pde', p_source_table => 'public.tap_pde')$$,
    '42809', 'source table "public.tap_pde" must be a plain table outside the partition set', 'the parent as the source');
SELECT throws_ok($$SELECT partmgr.partition_data_id('public.tap_pde', p_source_table => 'public.tap_pde_p0')$$,
    '42809', 'source table "public.tap_pde_p0" must be a plain table outside the partition set', 'a child as the source');
SELECT throws_ok($$SELECT partmgr.partition_data_id('public.tap_pde', p_source_table => 'public.tap_pde_default')$$,
    '42809', 'source table public.tap_pde_default is the default partition of "public.tap_pde"',
    'the default partition named as the source');
SELECT throws_ok($$SELECT partmgr.partition_data_id('public.tap_pde', p_source_table => 'public.tap_pde_view')$$,
    '42809', 'source table "public.tap_pde_view" must be a plain table outside the partition set', 'a view as the source');
SELECT throws_ok($$SELECT partmgr.partition_data_id('public.tap_pde', p_source_table => 'public.tap_pde_src_missing')$$,
    '42703', 'source table public.tap_pde_src_missing has no column "v", which "public.tap_pde" has',
    'a source missing a column of the parent');
SELECT throws_ok($$SELECT partmgr.partition_data_id('public.tap_pde', p_source_table => 'public.tap_pde_src_type')$$,
    '42804', 'column "id" of source table public.tap_pde_src_type has type bigint, but in "public.tap_pde" it has type integer',
    'a source whose control column has another type');
SELECT throws_ok($$CALL partmgr.partition_data_proc('public.tap_pde', p_loop_count => 0, p_wait => 0)$$,
    '22023', 'p_loop_count must be at least 1, not 0', 'partition_data_proc: p_loop_count 0');
SELECT throws_ok($$CALL partmgr.partition_data_proc('public.tap_pde', p_wait => -1)$$,
    '22023', 'p_wait, p_lock_wait and p_lock_wait_tries must not be negative', 'partition_data_proc: negative p_wait');
SELECT throws_ok($$CALL partmgr.partition_data_proc('public.tap_pde', p_interval => '5', p_wait => 0)$$,
    '22023', 'rows are moved out of the default partition of "public.tap_pde" one whole child at a time',
    'partition_data_proc: another interval out of the default');

SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('public.tap_pde', NULL)$$,
    '22004', 'argument p_target_table must not be NULL', 'undo_partition: p_target_table NULL');
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('public.tap_pde', 'public.tap_pde')$$,
    '42809', 'target table "public.tap_pde" must be a table outside the partition set "public.tap_pde"',
    'undo_partition: the parent as the target');
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('public.tap_pde', 'public.tap_pde_p10')$$,
    '42809', 'target table "public.tap_pde_p10" must be a table outside the partition set "public.tap_pde"',
    'undo_partition: a child as the target');
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('public.tap_pde', 'public.tap_pde_tgt_missing')$$,
    '42703', 'target table public.tap_pde_tgt_missing has no column "v", which "public.tap_pde" has',
    'undo_partition: a target missing a column');
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('public.tap_pde', 'public.tap_pde_tgt_type')$$,
    '42804', 'column "v" of target table public.tap_pde_tgt_type has type point, but in "public.tap_pde" it has type text',
    'undo_partition: a target column of a type text does not cast to on assignment');
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('public.tap_pde', 'public.tap_pde_nosuch')$$,
    '42P01', 'table "public.tap_pde_nosuch" does not exist', 'undo_partition: a target that does not exist');
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('public.tap_pde', 'public.tap_pde_tgt', p_loop_count => 0)$$,
    '22023', 'p_loop_count must be at least 1, not 0', 'undo_partition: p_loop_count 0');
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('public.tap_pde_plain', 'public.tap_pde_tgt')$$,
    '42704', 'table "public.tap_pde_plain" is not managed by pg_partmgr', 'undo_partition: an unregistered table');
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('public.tap_pde', 'public.tap_pde_tgt_pk', p_loop_count => 5)$$,
    '23505', 'duplicate key value violates unique constraint "tap_pde_tgt_pk_pkey"',
    'undo_partition: a row of the lowest child conflicts with the target''s primary key');
SELECT throws_ok($$CALL partmgr.undo_partition_proc('public.tap_pde', NULL, p_wait => 0)$$,
    '22004', 'argument p_target_table must not be NULL', 'undo_partition_proc: p_target_table NULL');

SELECT is(tap_pd_digest('public.tap_pde') || ' / ' || tap_pd_digest('public.tap_pdet'),
    (SELECT digest FROM tap_pd_before WHERE label = 'tap_pde') || ' / '
        || (SELECT digest FROM tap_pd_before WHERE label = 'tap_pdet'),
    'after the refused calls both sets hold the same rows');
SELECT results_eq($$SELECT (SELECT count(*) FROM ONLY public.tap_pde_default), (SELECT count(*) FROM ONLY public.tap_pdet_default),
                           (SELECT count(*) FROM public.tap_pde_src_missing) + (SELECT count(*) FROM public.tap_pde_src_type),
                           (SELECT count(*) FROM public.tap_pde_tgt) + (SELECT count(*) FROM public.tap_pde_tgt_pk),
                           (SELECT string_agg(child, ',') FROM tap_pd_children('public.tap_pde'))$$,
    $$VALUES (30::bigint, 38::bigint, 2::bigint, 1::bigint, 'tap_pde_default,tap_pde_p0,tap_pde_p10')$$,
    'nothing moved, created or detached: defaults, sources, targets and children as they were');
SELECT results_eq($$SELECT parent_table, undo_in_progress FROM partmgr.part_config
                    WHERE parent_table IN ('public.tap_pde', 'public.tap_pdet') ORDER BY 1$$,
    $$VALUES ('public.tap_pde', false), ('public.tap_pdet', false)$$,
    'the refused undo calls left both sets registered and not marked as being undone');

------------------------------------------------------------------------------
-- maintenance heals the default partition, up to pg_partmgr.default_move_limit
------------------------------------------------------------------------------
CREATE TABLE public.tap_pdh (id int NOT NULL, v text) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_pdh', 'id', '10', p_start_partition => '0', p_premake => 2);
-- 25 in the highest child; 3 rows for p30, 2 for p40, 1 each for p50, p60 in the default
INSERT INTO public.tap_pdh VALUES (25, 'a'), (31, 'b'), (32, 'c'), (33, 'd'), (41, 'e'), (42, 'f'),
                                  (55, 'g'), (61, 'h');
INSERT INTO public.tap_pd_before VALUES ('tap_pdh', tap_pd_digest('public.tap_pdh'));

SET LOCAL pg_partmgr.default_move_limit = 2;
SELECT partmgr.run_maintenance('public.tap_pdh');
SELECT ok(to_regclass('public.tap_pdh_p30') IS NULL,
    'limit 2: the child whose range holds 3 default rows is not created');
SELECT results_eq($$SELECT outcome, sqlstate, error_hint LIKE '%CALL partmgr.partition_data_proc(''public.tap_pdh'')%'
                      FROM partmgr.maintenance_log
                     WHERE parent_table = 'public.tap_pdh' AND object = 'public.tap_pdh_p30'$$,
    $$VALUES ('skipped', '23514', true)$$,
    'limit 2: the skipped child is logged as skipped, 23514, with a hint naming partition_data_proc');
SELECT results_eq($$SELECT tableoid::regclass::text, id FROM public.tap_pdh WHERE id BETWEEN 30 AND 49 ORDER BY id$$,
    $$VALUES ('tap_pdh_default', 31), ('tap_pdh_default', 32), ('tap_pdh_default', 33),
             ('tap_pdh_p40', 41), ('tap_pdh_p40', 42)$$,
    'limit 2: exactly 2 default rows are moved into the next child, the 3 of the skipped one stay');
SELECT is((SELECT detail FROM partmgr.maintenance_log
            WHERE parent_table = 'public.tap_pdh' AND object = 'public.tap_pdh_p40' AND outcome = 'done'),
    'for values from ''40'' to ''50''; 2 rows moved in from public.tap_pdh_default',
    'maintenance_log: the healed child says how many rows moved in from the default');

SET LOCAL pg_partmgr.default_move_limit = 0;
SELECT partmgr.run_maintenance('public.tap_pdh');
SELECT ok(to_regclass('public.tap_pdh_p50') IS NULL AND to_regclass('public.tap_pdh_p60') IS NULL,
    'limit 0: no child whose range holds a default row is created');
SELECT results_eq($$SELECT (SELECT count(*) FROM ONLY public.tap_pdh_default),
                           (SELECT count(*) FROM partmgr.maintenance_log
                             WHERE parent_table = 'public.tap_pdh' AND outcome = 'skipped' AND sqlstate = '23514'
                               AND object IN ('public.tap_pdh_p50', 'public.tap_pdh_p60'))$$,
    $$VALUES (5::bigint, 2::bigint)$$,
    'limit 0: no row left the default partition, both children logged as skipped');

SET LOCAL pg_partmgr.default_move_limit TO DEFAULT;
SELECT partmgr.run_maintenance('public.tap_pdh');
SELECT results_eq($$SELECT tableoid::regclass::text, id FROM public.tap_pdh WHERE id IN (55, 61) ORDER BY id$$,
    $$VALUES ('tap_pdh_p50', 55), ('tap_pdh_p60', 61)$$,
    'below the default limit (10000): maintenance creates the children with their default rows');
SELECT is(partmgr.partition_data_id('public.tap_pdh'), 3::bigint,
    'the skipped child''s rows are moved by partition_data, which creates the child');
SELECT results_eq($$SELECT tableoid::regclass::text, count(*) FROM public.tap_pdh GROUP BY 1 ORDER BY 1$$,
    $$VALUES ('tap_pdh_p20', 1::bigint), ('tap_pdh_p30', 3::bigint), ('tap_pdh_p40', 2::bigint),
             ('tap_pdh_p50', 1::bigint), ('tap_pdh_p60', 1::bigint)$$,
    'healed set: every row in its child, none in the default');
SELECT is(tap_pd_digest('public.tap_pdh'), (SELECT digest FROM tap_pd_before WHERE label = 'tap_pdh'),
    'healed set: same rows and checksum');

SELECT is((SELECT count(*) FROM pg_constraint WHERE conname = 'partmgr_bound_check'), 0::bigint,
    'no child loaded so far (by partition_data or by maintenance) kept a partmgr_bound_check');

------------------------------------------------------------------------------
-- undo_partition: default first, then the lowest child; keep, drop, batches
------------------------------------------------------------------------------
CREATE TABLE public.tap_pdu (id int NOT NULL, v text, g int GENERATED ALWAYS AS (length(v)) STORED)
    PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_pdu', 'id', '10', p_start_partition => '0', p_premake => 2);
-- 0, 3, .., 42: 4 rows in p0, 3 in p10, 3 in p20, 5 in the default
INSERT INTO public.tap_pdu (id, v) SELECT n, 'v' || n FROM generate_series(0, 44, 3) n;
CREATE TABLE public.tap_pdu_target (id int NOT NULL, v text, g int GENERATED ALWAYS AS (length(v)) STORED,
                                    extra int DEFAULT 7);

SELECT results_eq($$SELECT * FROM partmgr.undo_partition('public.tap_pdu', 'public.tap_pdu_target')$$,
    $$VALUES (0, 4::bigint)$$,
    'undo, one batch: the default partition first, one interval from its smallest key (30..39: 4 rows); it stays');
SELECT is((SELECT undo_in_progress FROM partmgr.part_config WHERE parent_table = 'public.tap_pdu'), true,
    'undo_in_progress is set while the undo is unfinished');
SELECT partmgr.run_maintenance('public.tap_pdu');
SELECT ok(to_regclass('public.tap_pdu_p30') IS NULL,
    'run_maintenance leaves a set being undone alone (no premake child above p20 holding rows)');
SELECT results_eq($$SELECT * FROM partmgr.undo_partition('public.tap_pdu', 'public.tap_pdu_target', p_loop_count => 2)$$,
    $$VALUES (2, 5::bigint)$$,
    'p_loop_count => 2: the rest of the default (42), then the lowest child (4 rows); both detached');
SELECT results_eq($$SELECT * FROM partmgr.undo_partition('public.tap_pdu', 'public.tap_pdu_target', p_batch_interval => '4')$$,
    $$VALUES (0, 2::bigint)$$,
    'p_batch_interval => ''4'': ids 12 and 15 of the lowest child move, it stays attached');
SELECT results_eq($$SELECT tableoid::regclass::text, id FROM public.tap_pdu ORDER BY id$$,
    $$VALUES ('tap_pdu_p10', 18), ('tap_pdu_p20', 21), ('tap_pdu_p20', 24), ('tap_pdu_p20', 27)$$,
    'after the batch id 18 and the highest child''s rows are left in the set');
SELECT results_eq($$SELECT * FROM partmgr.undo_partition('public.tap_pdu', 'public.tap_pdu_target', p_loop_count => 5,
                                                         p_keep_table => false)$$,
    $$VALUES (2, 4::bigint)$$,
    'the last rows, each child dropped once empty');
SELECT results_eq($$SELECT relname::text COLLATE "default", relispartition FROM pg_class
                     WHERE relname IN ('tap_pdu_default', 'tap_pdu_p0', 'tap_pdu_p10', 'tap_pdu_p20') ORDER BY 1$$,
    $$VALUES ('tap_pdu_default', false), ('tap_pdu_p0', false)$$,
    'p_keep_table defaults to true: kept children (the default too) are standalone; with false the child is dropped');
SELECT is((SELECT count(*) FROM partmgr.part_config WHERE parent_table = 'public.tap_pdu')
          + (SELECT count(*) FROM partmgr.part_config_sub WHERE sub_parent = 'public.tap_pdu'), 0::bigint,
    'no child left: the set is no longer registered');
SELECT results_eq($$SELECT count(*), sum(id), bool_and(g = length(v)), bool_and(extra = 7) FROM public.tap_pdu_target$$,
    $$VALUES (15::bigint, 315::bigint, true, true)$$,
    'the target holds every row once; generated column recomputed, its extra column has its default');
SELECT results_eq($$SELECT action, count(*) FROM partmgr.maintenance_log
                     WHERE parent_table = 'public.tap_pdu' AND run_by = 'undo_partition' GROUP BY 1 ORDER BY 1$$,
    $$VALUES ('detach partition', 2::bigint), ('drop partition', 2::bigint), ('move rows', 6::bigint)$$,
    'maintenance_log: 6 moves (2 of the default), 2 detaches, 2 drops by undo_partition');

-- a target whose column is plain where the parent's is generated
CREATE TABLE public.tap_pdv (id int NOT NULL, v text, g int GENERATED ALWAYS AS (length(v)) STORED)
    PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_pdv', 'id', '10', p_start_partition => '0', p_premake => 1);
INSERT INTO public.tap_pdv (id, v) VALUES (1, 'abc'), (12, 'abcdef'), (40, 'x');
-- a plain copy of the parent (LIKE without INCLUDING GENERATED: g is a plain column)
CREATE TABLE public.tap_pdv_target (LIKE public.tap_pdv);
SELECT * FROM partmgr.undo_partition('public.tap_pdv', 'public.tap_pdv_target', p_loop_count => 5);
SELECT is((SELECT count(*) FROM public.tap_pdv_target WHERE g = length(v)), 3::bigint,
    'the values of the generated column arrive in the target''s plain column');

-- undo_partition_proc: a time set, batches of 12 hours, identity target, dropping
CREATE TABLE public.tap_pdp (id bigint GENERATED ALWAYS AS IDENTITY, ts timestamptz NOT NULL, v int)
    PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_pdp', 'ts', '1 day', p_start_partition => '2100-05-01', p_premake => 1);
-- every 8 hours over 2100-05-01..03: 3 rows in the child, 6 in the default
INSERT INTO public.tap_pdp (ts, v) SELECT timestamptz '2100-05-01 00:00+00' + n * interval '8 hours', n
  FROM generate_series(0, 8) n;
INSERT INTO public.tap_pd_before VALUES ('tap_pdp', tap_pd_digest('public.tap_pdp'));
CREATE TABLE public.tap_pdp_target (id bigint GENERATED ALWAYS AS IDENTITY, ts timestamptz NOT NULL, v int);
CALL partmgr.undo_partition_proc('public.tap_pdp', 'public.tap_pdp_target', p_interval => '12 hours',
                                 p_keep_table => false, p_wait => 0, p_quiet => true);
SELECT is(tap_pd_digest('public.tap_pdp_target'), (SELECT digest FROM tap_pd_before WHERE label = 'tap_pdp'),
    'undo_partition_proc: the target holds the same rows, identity values kept');
SELECT ok(to_regclass('public.tap_pdp_default') IS NULL AND to_regclass('public.tap_pdp_p21000501') IS NULL
          AND NOT EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table = 'public.tap_pdp'),
    'undo_partition_proc p_keep_table => false: children dropped, set no longer registered');
SELECT results_eq($$SELECT action, count(*) FROM partmgr.maintenance_log
                     WHERE parent_table = 'public.tap_pdp' AND run_by = 'undo_partition_proc' GROUP BY 1 ORDER BY 1$$,
    $$VALUES ('drop partition', 2::bigint), ('move rows', 5::bigint)$$,
    'undo_partition_proc, 12-hour batches: 3 batches for the default (6 rows), 2 for the child (3 rows)');

-- p_drop_cascade
CREATE TABLE public.tap_pdc (id int NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_pdc', 'id', '10', p_start_partition => '0', p_premake => 1);
INSERT INTO public.tap_pdc VALUES (1, 1), (12, 2);
CREATE VIEW public.tap_pdc_v AS SELECT * FROM public.tap_pdc_p0;
CREATE TABLE public.tap_pdc_target (id int, v int);
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('public.tap_pdc', 'public.tap_pdc_target', p_loop_count => 5,
                                                        p_keep_table => false)$$,
    '2BP01', 'cannot drop table public.tap_pdc_p0 because other objects depend on it',
    'dropping a child a view depends on, without p_drop_cascade: refused');
SELECT results_eq($$SELECT (SELECT count(*) FROM public.tap_pdc), (SELECT count(*) FROM public.tap_pdc_target),
                           (SELECT count(*) FROM tap_pd_children('public.tap_pdc'))$$,
    $$VALUES (2::bigint, 0::bigint, 3::bigint)$$,
    'refused drop: nothing moved, nothing detached');
SELECT results_eq($$SELECT * FROM partmgr.undo_partition('public.tap_pdc', 'public.tap_pdc_target', p_loop_count => 5,
                                                         p_keep_table => false, p_drop_cascade => true)$$,
    $$VALUES (3, 2::bigint)$$,
    'p_drop_cascade => true: the default and both children undone');
SELECT ok(to_regclass('public.tap_pdc_v') IS NULL AND to_regclass('public.tap_pdc_p0') IS NULL
          AND NOT EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table = 'public.tap_pdc'),
    'p_drop_cascade: the child is dropped with the view on it; the set is no longer registered');

-- p_loop_count counts batches that moved rows; empty children are detached on the way
CREATE TABLE public.tap_pdz (id int NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_pdz', 'id', '10', p_start_partition => '0', p_premake => 2);
INSERT INTO public.tap_pdz VALUES (5);
CREATE TABLE public.tap_pdz_target (id int);
SELECT results_eq($$SELECT * FROM partmgr.undo_partition('public.tap_pdz', 'public.tap_pdz_target')$$,
    $$VALUES (2, 1::bigint)$$,
    'the empty default is detached without counting as a batch, then the lowest child moves');
SELECT results_eq($$SELECT undo_in_progress, (SELECT count(*) FROM tap_pd_children('public.tap_pdz'))
                      FROM partmgr.part_config WHERE parent_table = 'public.tap_pdz'$$,
    $$VALUES (true, 2::bigint)$$,
    'two empty children left, the set still registered and being undone');
SELECT results_eq($$SELECT * FROM partmgr.undo_partition('public.tap_pdz', 'public.tap_pdz_target')$$,
    $$VALUES (2, 0::bigint)$$,
    'the empty children are detached in one call (no batch moved rows)');
SELECT is((SELECT count(*) FROM partmgr.part_config WHERE parent_table = 'public.tap_pdz'), 0::bigint,
    'then the set is no longer registered');

------------------------------------------------------------------------------
-- edge cases: date keys with sub-day batches, a source beside a default with rows
------------------------------------------------------------------------------
-- a date key with a batch interval that is not whole days
CREATE TABLE public.tap_pdd (id int NOT NULL, day date NOT NULL) PARTITION BY RANGE (day);
SELECT partmgr.create_parent('public.tap_pdd', 'day', '1 week', p_start_partition => '2100-01-04', p_premake => 1);
CREATE TABLE public.tap_pdd_src (id int NOT NULL, day date NOT NULL);
INSERT INTO public.tap_pdd_src SELECT n, date '2100-01-04' + n FROM generate_series(0, 13) n;
SELECT is(partmgr.partition_data_time('public.tap_pdd', p_source_table => 'public.tap_pdd_src',
                                      p_batch_interval => '2 days'), 2::bigint,
    'date key, 2-day batch from a source: 2 days move');
SELECT is(partmgr.partition_data_time('public.tap_pdd', p_source_table => 'public.tap_pdd_src',
                                      p_batch_interval => '36 hours'), 2::bigint,
    'date key, 36-hour batch from 2100-01-06: rounded up to whole days, the 6th and 7th move');
SELECT is(partmgr.partition_data_time('public.tap_pdd', p_source_table => 'public.tap_pdd_src',
                                      p_batch_interval => '36 hours', p_order => 'DESC'), 2::bigint,
    'date key, 36-hour batch DESC from 2100-01-17: the 17th and 16th move');
SELECT results_eq($$SELECT min(day), max(day), count(*) FROM public.tap_pdd_src$$,
    $$VALUES (date '2100-01-08', date '2100-01-15', 8::bigint)$$,
    'date key batches: the source keeps the days in between');

-- a source whose rows belong in a child whose range also has rows in the default
CREATE TABLE public.tap_pdb (id int NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_pdb', 'id', '10', p_start_partition => '0', p_premake => 1);
INSERT INTO public.tap_pdb VALUES (35, 0);
CREATE TABLE public.tap_pdb_src (id int NOT NULL, v int);
INSERT INTO public.tap_pdb_src VALUES (31, 1), (32, 2);
SELECT is(partmgr.partition_data_id('public.tap_pdb', p_source_table => 'public.tap_pdb_src',
                                    p_batch_count => 3), 3::bigint,
    'source rows for a child whose range has rows in the default: those rows move along');
SELECT results_eq($$SELECT tableoid::regclass::text, count(*) FROM public.tap_pdb GROUP BY 1 ORDER BY 1$$,
    $$VALUES ('tap_pdb_p30', 3::bigint)$$,
    'the new child holds the source''s rows and the default''s, the source and the default are empty');
-- the same with the procedure, and more rows in the default than maintenance would move itself
CREATE TABLE public.tap_pdb2 (id int NOT NULL, v int) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_pdb2', 'id', '10', p_start_partition => '0', p_premake => 1);
INSERT INTO public.tap_pdb2 VALUES (35, 0), (36, 0), (37, 0);
CREATE TABLE public.tap_pdb2_src (id int NOT NULL, v int);
INSERT INTO public.tap_pdb2_src VALUES (31, 1), (52, 2);
SET LOCAL pg_partmgr.default_move_limit = 1;
CALL partmgr.partition_data_proc('public.tap_pdb2', p_wait => 0, p_source_table => 'public.tap_pdb2_src',
                                 p_quiet => true);
RESET pg_partmgr.default_move_limit;
SELECT results_eq($$SELECT tableoid::regclass::text, count(*) FROM public.tap_pdb2 GROUP BY 1 ORDER BY 1$$,
    $$VALUES ('tap_pdb2_p30', 4::bigint), ('tap_pdb2_p50', 1::bigint)$$,
    'partition_data_proc ends, and moves the default''s rows of each new child whatever the limit');

------------------------------------------------------------------------------
-- several children out of the default in one call: found by one scan, filled
-- through a staging table, attached without scanning the default each
------------------------------------------------------------------------------
-- a daily set in New York across the end of daylight saving time (Sunday
-- 2100-11-07 has 25 hours), with gaps and an existing child among the days
CREATE TABLE public.tap_pdsm (ts timestamptz NOT NULL, v int) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_pdsm', 'ts', '1 day', p_start_partition => '2100-11-12',
                             p_premake => 1, p_time_zone => 'America/New_York');
INSERT INTO public.tap_pdsm
SELECT t, n FROM (VALUES ('2100-11-05 23:30-04'::timestamptz, 1), ('2100-11-06 00:30-04', 2),
                         ('2100-11-07 01:30-04', 3), ('2100-11-07 01:30-05', 4),
                         ('2100-11-07 23:59-05', 5), ('2100-11-09 12:00-05', 6),
                         ('2100-10-20 00:00-04', 7)) AS r(t, n);
SELECT partmgr.create_partition_time('public.tap_pdsm', ARRAY['2100-11-08 00:00-05'::timestamptz]);
SELECT is(partmgr.partition_data_time('public.tap_pdsm', p_batch_count => 4, p_order => 'DESC'), 6::bigint,
    'four children DESC out of the default in one call: the rows of the four newest days');
SELECT results_eq($$SELECT child, bound FROM tap_pd_children('public.tap_pdsm')
                     WHERE child BETWEEN 'tap_pdsm_p21001020' AND 'tap_pdsm_p21001110'$$,
    $$VALUES ('tap_pdsm_p21001105', 'FOR VALUES FROM (''2100-11-05 04:00:00+00'') TO (''2100-11-06 04:00:00+00'')'),
             ('tap_pdsm_p21001106', 'FOR VALUES FROM (''2100-11-06 04:00:00+00'') TO (''2100-11-07 04:00:00+00'')'),
             ('tap_pdsm_p21001107', 'FOR VALUES FROM (''2100-11-07 04:00:00+00'') TO (''2100-11-08 05:00:00+00'')'),
             ('tap_pdsm_p21001108', 'FOR VALUES FROM (''2100-11-08 05:00:00+00'') TO (''2100-11-09 05:00:00+00'')'),
             ('tap_pdsm_p21001109', 'FOR VALUES FROM (''2100-11-09 05:00:00+00'') TO (''2100-11-10 05:00:00+00'')')$$,
    'children only for days with rows, in the zone''s days (the 25-hour day too), the existing one kept');
SELECT results_eq($$SELECT tableoid::regclass::text, string_agg(v::text, ',' ORDER BY v) FROM public.tap_pdsm
                     GROUP BY 1 ORDER BY 1$$,
    $$VALUES ('tap_pdsm_default', '7'), ('tap_pdsm_p21001105', '1'), ('tap_pdsm_p21001106', '2'),
             ('tap_pdsm_p21001107', '3,4,5'), ('tap_pdsm_p21001109', '6')$$,
    'every moved row in its day, both 01:30 of the repeated hour in the 25-hour day; the oldest row still in the default');
SELECT results_eq($$SELECT (SELECT count(*) FROM pg_constraint
                             WHERE conname IN ('partmgr_bound_check', 'partmgr_moved_check')
                               AND conrelid::regclass::text LIKE 'tap_pdsm%'),
                           (SELECT count(*) FROM pg_class WHERE relname LIKE 'partmgr_stage%')$$,
    $$VALUES (0::bigint, 0::bigint)$$,
    'no temporary constraint and no staging table left');
SELECT results_eq($$SELECT action, detail FROM partmgr.maintenance_log
                     WHERE parent_table = 'public.tap_pdsm' AND run_by = 'partition_data_time'
                       AND action = 'move rows'$$,
    $$VALUES ('move rows', 'into 4 new partitions, values from 2100-11-05 04:00:00+00 to 2100-11-10 05:00:00+00; 6 rows moved in from public.tap_pdsm_default in one pass')$$,
    'one pass moved the rows of all four children (logged once)');

-- an hourly set across the repeated hour: two children for one wall-clock hour
CREATE TABLE public.tap_pdsh (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_pdsh', 'ts', '1 hour', p_start_partition => '2100-11-07 03:00-05',
                             p_premake => 1, p_time_zone => 'America/New_York');
INSERT INTO public.tap_pdsh VALUES ('2100-11-07 00:10-04'), ('2100-11-07 01:10-04'), ('2100-11-07 01:20-05'),
                                   ('2100-11-07 02:10-05');
SELECT is(partmgr.partition_data_time('public.tap_pdsh', p_batch_count => 10), 4::bigint,
    'hourly: the four rows move in one call');
SELECT results_eq($$SELECT tableoid::regclass::text, count(*) FROM public.tap_pdsh GROUP BY 1 ORDER BY 1$$,
    $$VALUES ('tap_pdsh_p21001107_000000', 1::bigint), ('tap_pdsh_p21001107_010000', 1::bigint),
             ('tap_pdsh_p21001107_010000_dst', 1::bigint), ('tap_pdsh_p21001107_020000', 1::bigint)$$,
    'hourly: the two 01:00 hours get a child each (the first one _dst), found in one wall-clock bucket');

-- a quarterly set on a date key: the buckets are months
CREATE TABLE public.tap_pdsq (d date NOT NULL) PARTITION BY RANGE (d);
SELECT partmgr.create_parent('public.tap_pdsq', 'd', '3 months', p_start_partition => '2101-01-01', p_premake => 1);
INSERT INTO public.tap_pdsq VALUES ('2100-01-31'), ('2100-02-01'), ('2100-03-31'), ('2100-04-01'), ('2100-12-31');
SELECT is(partmgr.partition_data_time('public.tap_pdsq', p_batch_count => 2), 4::bigint,
    'quarterly: the two oldest quarters move in one call');
SELECT results_eq($$SELECT tableoid::regclass::text, count(*) FROM public.tap_pdsq GROUP BY 1 ORDER BY 1$$,
    $$VALUES ('tap_pdsq_default', 1::bigint), ('tap_pdsq_p21000101', 3::bigint), ('tap_pdsq_p21000401', 1::bigint)$$,
    'quarterly: the rows are in their quarters, the last quarter''s row waits in the default');

-- a numeric id set with negative keys, in two calls
CREATE TABLE public.tap_pdsn (id numeric NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_pdsn', 'id', '10', p_start_partition => '1000', p_premake => 1);
INSERT INTO public.tap_pdsn SELECT n FROM generate_series(-25, 95, 5) n;
SELECT is(partmgr.partition_data_id('public.tap_pdsn', p_batch_count => 5), 9::bigint,
    'id: five children (-30 .. 19) in one call');
SELECT is(partmgr.partition_data_id('public.tap_pdsn', p_batch_count => 100), 16::bigint,
    'id: the rest in a second call');
SELECT results_eq($$SELECT count(*), count(DISTINCT t.tableoid), bool_and(pg_get_expr(c.relpartbound, c.oid) =
                           format('FOR VALUES FROM (''%s'') TO (''%s'')', floor(t.id / 10) * 10, floor(t.id / 10) * 10 + 10))
                      FROM public.tap_pdsn t JOIN pg_class c ON c.oid = t.tableoid$$,
    $$VALUES (25::bigint, 13::bigint, true)$$,
    'id: every row in the child of its ten, negative ones too');

-- columns other than the key travel with an assignment cast, as with INSERT
CREATE TABLE public.tap_pdx (id bigint NOT NULL, n bigint, v text) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_pdx', 'id', '10', p_start_partition => '0', p_premake => 1,
                             p_default_table => false);
CREATE TABLE public.tap_pdx_src (id bigint, n int, v varchar(10));
INSERT INTO public.tap_pdx_src VALUES (3, 30, 'three'), (15, 150, 'fifteen');
SELECT is(partmgr.partition_data_id('public.tap_pdx', p_batch_count => 10, p_source_table => 'public.tap_pdx_src'),
    2::bigint, 'a source with integer and varchar columns for bigint and text: both rows move');
SELECT results_eq($$SELECT tableoid::regclass::text, id, n, v FROM public.tap_pdx ORDER BY id$$,
    $$VALUES ('tap_pdx_p0', 3::bigint, 30::bigint, 'three'::text), ('tap_pdx_p10', 15, 150, 'fifteen')$$,
    'the rows arrive in their children with their values');
CREATE TABLE public.tap_pdx_tgt (id bigint, n int, v varchar(5));
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('public.tap_pdx', 'public.tap_pdx_tgt', p_loop_count => 10)$$,
    '22001', 'value too long for type character varying(5)',
    'undo into a target whose varchar(5) refuses a value: an error');
SELECT is((SELECT count(*)::int FROM public.tap_pdx), 2, 'the refused undo moved no row');
SELECT is((SELECT rows_undone FROM partmgr.undo_partition('public.tap_pdx', 'public.tap_pdx_tgt', p_loop_count => 1)),
    1::bigint, 'undo into the narrower target works for the row that fits (the lowest child)');

-- undo, pg_partman's batch: keys up to and including smallest + interval; a
-- batch that empties its child retires it in the same call
CREATE TABLE public.tap_undo_incl (id int NOT NULL) PARTITION BY RANGE (id);
SELECT partmgr.create_parent('public.tap_undo_incl', 'id', '10', p_start_partition => '0', p_premake => 1);
INSERT INTO public.tap_undo_incl SELECT generate_series(100, 110);    -- 11 rows in the default
INSERT INTO public.tap_undo_incl VALUES (5);
CREATE TABLE public.tap_undo_incl_tgt (id int);
SELECT results_eq($$SELECT * FROM partmgr.undo_partition('public.tap_undo_incl', 'public.tap_undo_incl_tgt')$$,
    $$VALUES (1, 11::bigint)$$,
    'undo: one batch takes the default''s keys 100..110 (110 included) and retires the emptied default');
SELECT ok(to_regclass('public.tap_undo_incl_default') IS NULL OR
          NOT (SELECT relispartition FROM pg_class WHERE oid = 'public.tap_undo_incl_default'::regclass),
          'the emptied default is no longer a partition after that one call');

------------------------------------------------------------------------------
-- the move in one pass (mover.c): the default's rows of several new
-- children are read once, routed by the children's bounds, inserted a batch
-- at a time into each, their index entries made, and deleted -- with the
-- owner's rights; where it declines (a trigger), the statements move them
------------------------------------------------------------------------------
CREATE EXTENSION IF NOT EXISTS amcheck;
CREATE ROLE tap_mv_owner;
GRANT CREATE ON SCHEMA public TO tap_mv_owner;
CREATE SEQUENCE public.tap_mv_n;
GRANT USAGE ON SEQUENCE public.tap_mv_n TO PUBLIC;
-- an index expression that, while tap.mv_check is on, counts its calls,
-- fails unless the set's owner evaluates it, and fails on v = -13
CREATE FUNCTION public.tap_mv_key(p_v int) RETURNS int
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF current_setting('tap.mv_check', true) = 'on' THEN
        PERFORM nextval('public.tap_mv_n');
        IF current_user <> 'tap_mv_owner' THEN
            RAISE EXCEPTION 'tap_mv_key evaluated as %', current_user;
        END IF;
        IF p_v = -13 THEN
            RAISE EXCEPTION 'tap_mv_key refuses -13';
        END IF;
    END IF;
    RETURN p_v % 7;
END
$$;
CREATE TABLE public.tap_mv (id bigint NOT NULL, gone text, v int, big text) PARTITION BY RANGE (id);
ALTER TABLE public.tap_mv OWNER TO tap_mv_owner;
SELECT partmgr.create_parent('public.tap_mv', 'id', '100', p_start_partition => '0', p_premake => 1);
CREATE INDEX tap_mv_v ON public.tap_mv (v);
CREATE INDEX tap_mv_k ON public.tap_mv (public.tap_mv_key(v));
-- the template's unique indexes are on a new child before it is filled,
-- the parent's are built on it when it is attached
CREATE UNIQUE INDEX tap_mv_tu ON partmgr.template_public_tap_mv (id, public.tap_mv_key(v));
-- the default keeps the dropped column, the new children will not have it
ALTER TABLE public.tap_mv DROP COLUMN gone;
INSERT INTO public.tap_mv (id, v, big)
SELECT n, n, CASE WHEN n = 777 THEN (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 3000) g) END
  FROM generate_series(300, 1299) n;
INSERT INTO public.tap_pd_before VALUES ('tap_mv', tap_pd_digest('public.tap_mv'));
SET tap.mv_check = on;
SELECT is(partmgr.partition_data_id('public.tap_mv', p_batch_count => 20, p_analyze => false), 1000::bigint,
    'one pass: 1000 rows of the default into ten new children in one call');
RESET tap.mv_check;
SELECT is(tap_pd_digest('public.tap_mv'), (SELECT digest FROM tap_pd_before WHERE label = 'tap_mv'),
    'one pass: the same rows with the same values (the default''s dropped column did not travel)');
SELECT results_eq($$SELECT tableoid::regclass::text, count(*), min(id), max(id) FROM public.tap_mv
                     GROUP BY 1 ORDER BY min(id)$$,
    $$SELECT format('tap_mv_p%s', n), 100::bigint, n::bigint, n + 99::bigint FROM generate_series(300, 1200, 100) n$$,
    'one pass: each row in the child of its hundred, none left in the default');
SELECT is((SELECT detail FROM partmgr.maintenance_log
            WHERE parent_table = 'public.tap_mv' AND action = 'move rows'),
    'into 10 new partitions, values from 300 to 1300; 1000 rows moved in from public.tap_mv_default in one pass',
    'one pass: the log says the rows moved in one pass');
SELECT is((SELECT md5(big) FROM public.tap_mv WHERE id = 777),
    (SELECT md5(string_agg(md5(g::text), '')) FROM generate_series(1, 3000) g),
    'one pass: a toasted value arrives whole');
SELECT is((SELECT last_value FROM public.tap_mv_n), 2000::bigint,
    'one pass: the index expression was evaluated twice for every row moved (its entry in the template''s unique index, the parent''s index built at attach), each time with the owner''s rights');
SELECT is((SELECT count(*) FROM pg_index i JOIN pg_inherits h ON h.inhrelid = i.indrelid
            WHERE h.inhparent = 'public.tap_mv'::regclass AND i.indisunique
              AND h.inhrelid::regclass::text ~ '^tap_mv_p([3-9]|1[0-2])00$'), 10::bigint,
    'one pass: every new child has the template''s unique index');
SELECT lives_ok($$SELECT bt_index_check(i.indexrelid, true)
                    FROM pg_index i JOIN pg_inherits h ON h.inhrelid = i.indrelid
                   WHERE h.inhparent = 'public.tap_mv'::regclass$$,
    'one pass: every index of every child holds exactly its rows (amcheck, heapallindexed)');
SET LOCAL enable_seqscan = off;
SELECT results_eq($$SELECT id FROM public.tap_mv WHERE v = 555$$, $$VALUES (555::bigint)$$,
    'one pass: a row is found by its index');
RESET enable_seqscan;

-- a failure in the middle of the pass leaves everything as it was
INSERT INTO public.tap_mv (id, v) SELECT n, CASE WHEN n = 1450 THEN -13 ELSE n END
  FROM generate_series(1300, 1499) n;
INSERT INTO public.tap_pd_before VALUES ('tap_mv2', tap_pd_digest('public.tap_mv'));
SET tap.mv_check = on;
SELECT throws_ok($$SELECT partmgr.partition_data_id('public.tap_mv', p_batch_count => 20)$$,
    'P0001', 'tap_mv_key refuses -13',
    'one pass: an index expression failing on one row fails the move');
RESET tap.mv_check;
SELECT is(tap_pd_digest('public.tap_mv'), (SELECT digest FROM tap_pd_before WHERE label = 'tap_mv2'),
    'the failed move left every row where it was');
SELECT is((SELECT count(*) FROM ONLY public.tap_mv_default), 200::bigint,
    'all of them in the default');
SELECT is((SELECT count(*) FROM pg_class WHERE relname IN ('tap_mv_p1300', 'tap_mv_p1400')
                                              OR relname LIKE 'partmgr_stage%'), 0::bigint,
    'and no new child or staging table is left');
UPDATE public.tap_mv SET v = 1450 WHERE v = -13;

-- a trigger on the set (a row trigger on the parent is one on the default
-- too): the rows move by statements, and its DELETE fires it for each
CREATE TABLE public.tap_mv_fired (id bigint);
CREATE FUNCTION public.tap_mv_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO public.tap_mv_fired VALUES (OLD.id);
    RETURN OLD;
END
$$;
GRANT INSERT ON public.tap_mv_fired TO PUBLIC;
CREATE TRIGGER tap_mv_trg AFTER DELETE ON public.tap_mv FOR EACH ROW EXECUTE FUNCTION public.tap_mv_trg();
SELECT is(partmgr.partition_data_id('public.tap_mv', p_batch_count => 20), 200::bigint,
    'a set with a trigger: the rows move too');
SELECT is((SELECT count(*) FROM public.tap_mv_fired), 200::bigint,
    'the default''s delete trigger fired for each moved row');
SELECT is((SELECT detail FROM partmgr.maintenance_log
            WHERE parent_table = 'public.tap_mv' AND action = 'move rows' ORDER BY log_id DESC LIMIT 1),
    'into 2 new partitions, values from 1300 to 1500; 200 rows moved in from public.tap_mv_default',
    'by statements, as the log says');

SELECT * FROM finish();
ROLLBACK;
