--
-- Text and uuid control columns whose values stand for times (pg_partman
-- 5.2's time encoder and decoder): UUIDv7 keys with partmgr's own pair, and
-- text keys with a pair written in SQL.
--
BEGIN;
SELECT plan(24);

-- a UUIDv7 of a given time, with a non-zero random part
CREATE FUNCTION public.tap_uuid7(p_at timestamptz) RETURNS uuid LANGUAGE sql AS $$
    SELECT overlay(partmgr.uuid7_time_encoder(p_at)::text PLACING '7abc-9def-0123' FROM 15 FOR 14)::uuid
$$;
CREATE FUNCTION public.tap_codec_children(p_parent regclass)
RETURNS TABLE (child text, bound text) LANGUAGE sql AS $$
    SELECT c.relname::text COLLATE "default", pg_get_expr(c.relpartbound, c.oid) COLLATE "default"
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent ORDER BY 1
$$;

-- the pair itself
SELECT is(partmgr.uuid7_time_encoder('2100-01-01 00:00+00')::text, '03bb2cc3-d800-7000-8000-000000000000',
    'uuid7_time_encoder: the millisecond in the first 48 bits, version 7, variant 10, the rest zero');
SELECT is(partmgr.uuid7_time_decoder(public.tap_uuid7('2100-01-01 12:34:56.789+00')::text),
    '2100-01-01 12:34:56.789+00'::timestamptz, 'uuid7_time_decoder gives the millisecond back');
SELECT ok(public.tap_uuid7('2100-01-01 00:00+00') >= partmgr.uuid7_time_encoder('2100-01-01 00:00+00')
          AND public.tap_uuid7('2099-12-31 23:59:59.999+00') < partmgr.uuid7_time_encoder('2100-01-01 00:00+00'),
    'every UUIDv7 of a millisecond sorts at or above its encoding, and those before it below');
SELECT throws_ok($$SELECT partmgr.uuid7_time_encoder('1960-01-01 00:00+00')$$, '22008',
    'timestamp out of range for a UUIDv7', 'a time before 1970 has no UUIDv7');

-- a UUIDv7 set
CREATE TABLE public.tap_cu (id uuid NOT NULL, v text) PARTITION BY RANGE (id);
SELECT ok(partmgr.create_parent('public.tap_cu', 'id', '1 day', p_start_partition => '2100-01-01', p_premake => 2,
                                p_time_encoder => 'partmgr.uuid7_time_encoder',
                                p_time_decoder => 'partmgr.uuid7_time_decoder'),
    'create_parent of a uuid set with partmgr''s UUIDv7 encoder and decoder');
SELECT results_eq($$SELECT * FROM public.tap_codec_children('public.tap_cu')$$,
    $$VALUES ('tap_cu_default', 'DEFAULT'),
             ('tap_cu_p21000101', 'FOR VALUES FROM (''03bb2cc3-d800-7000-8000-000000000000'') TO (''03bb31ea-3400-7000-8000-000000000000'')')$$,
    'the first child is named by its day and bounded by the encodings of its midnights');
SELECT results_eq($$SELECT time_encoder, time_decoder FROM partmgr.part_config WHERE parent_table = 'public.tap_cu'$$,
    $$VALUES ('partmgr.uuid7_time_encoder'::text, 'partmgr.uuid7_time_decoder'::text)$$,
    'part_config keeps the encoder and decoder');
INSERT INTO public.tap_cu VALUES (public.tap_uuid7('2100-01-01 00:00+00'), 'midnight'),
                                 (public.tap_uuid7('2100-01-01 23:59:59.999+00'), 'last ms'),
                                 (public.tap_uuid7('2100-01-02 05:00+00'), 'next day'),
                                 (public.tap_uuid7('2100-01-10 05:00+00'), 'far');
SELECT results_eq($$SELECT v, tableoid::regclass::text FROM public.tap_cu ORDER BY id$$,
    $$VALUES ('midnight'::text, 'tap_cu_p21000101'::text), ('last ms', 'tap_cu_p21000101'),
             ('next day', 'tap_cu_default'), ('far', 'tap_cu_default')$$,
    'rows of the first day go to its child, later ones to the default');
SELECT is(partmgr.partition_data_time('public.tap_cu', p_batch_count => 10), 2::bigint,
    'partition_data_time moves the default''s two rows');
SELECT results_eq($$SELECT v, tableoid::regclass::text FROM public.tap_cu ORDER BY id$$,
    $$VALUES ('midnight'::text, 'tap_cu_p21000101'::text), ('last ms', 'tap_cu_p21000101'),
             ('next day', 'tap_cu_p21000102'), ('far', 'tap_cu_p21000110')$$,
    'into children of their days');
SELECT lives_ok($$SELECT partmgr.run_maintenance('public.tap_cu')$$, 'run_maintenance');
SELECT ok(to_regclass('public.tap_cu_p21000111') IS NOT NULL AND to_regclass('public.tap_cu_p21000112') IS NOT NULL,
    'premake: two children after the newest row''s day (the largest uuid decoded)');
SELECT results_eq($$SELECT partition_table, suffix_timestamp FROM partmgr.show_partition_name('public.tap_cu', '2100-01-02 10:00+00')$$,
    $$VALUES ('tap_cu_p21000102'::text, '2100-01-02 00:00+00'::timestamptz)$$,
    'show_partition_name takes a time');
SELECT results_eq($$SELECT child_start_time, child_end_time FROM partmgr.show_partition_info('public.tap_cu_p21000110')$$,
    $$VALUES ('2100-01-10 00:00+00'::timestamptz, '2100-01-11 00:00+00'::timestamptz)$$,
    'show_partition_info gives a child''s times');
SELECT alike(partmgr.dump_partitioned_table_definition('public.tap_cu'),
    '%p_time_encoder := ''partmgr.uuid7_time_encoder'',%p_time_decoder := ''partmgr.uuid7_time_decoder''%',
    'the dump names the encoder and decoder');
UPDATE partmgr.part_config SET retention = '5 days', retention_keep_table = false WHERE parent_table = 'public.tap_cu';
SELECT is(partmgr.drop_partition_time('public.tap_cu', p_reference_timestamp => '2100-01-09 00:00:01+00'), 2,
    'retention by the times the children stand for: the children of Jan 1 and 2 go');

-- text keys, with an encoder and decoder written in SQL: 'ev-' || epoch seconds, zero-padded
CREATE FUNCTION public.tap_ev_encode(timestamptz) RETURNS text LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'ev-' || lpad(extract(epoch FROM $1)::bigint::text, 12, '0') $$;
CREATE FUNCTION public.tap_ev_decode(text) RETURNS timestamptz LANGUAGE sql IMMUTABLE
    AS $$ SELECT to_timestamp(substr($1, 4)::bigint) $$;
CREATE TABLE public.tap_ct (k text COLLATE "C" NOT NULL) PARTITION BY RANGE (k);
SELECT ok(partmgr.create_parent('public.tap_ct', 'k', '1 hour', p_start_partition => '2100-01-01 00:00+00',
                                p_premake => 1, p_time_encoder => 'public.tap_ev_encode',
                                p_time_decoder => 'public.tap_ev_decode', p_default_table => false),
    'create_parent of a text set with an encoder and decoder of one''s own');
SELECT results_eq($$SELECT * FROM public.tap_codec_children('public.tap_ct')$$,
    $$VALUES ('tap_ct_p21000101_000000', 'FOR VALUES FROM (''ev-004102444800'') TO (''ev-004102448400'')')$$,
    'an hourly child named by its hour and bounded by the encodings');

-- bad input: nothing is registered
SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_ct2', 'k', '1 day')$$, '42P01', NULL,
    'a table that does not exist');
CREATE TABLE public.tap_ct2 (k text NOT NULL) PARTITION BY RANGE (k);
SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_ct2', 'k', '1 day', p_time_encoder => 'public.tap_ev_encode')$$,
    '22023', 'p_time_encoder and p_time_decoder go together', 'an encoder without a decoder');
SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_ct2', 'k', '1 day', p_time_encoder => 'public.nope',
                                                p_time_decoder => 'public.tap_ev_decode')$$,
    '42883', 'time encoder function public.nope(timestamp with time zone) does not exist', 'an encoder that does not exist');
SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_ct2', 'k', '1 day', p_time_encoder => 'partmgr.uuid7_time_encoder',
                                                p_time_decoder => 'partmgr.uuid7_time_decoder')$$,
    '42804', 'time encoder partmgr.uuid7_time_encoder returns uuid, but the control column is text',
    'an encoder of another type than the column');
CREATE TABLE public.tap_ct3 (k bigint NOT NULL) PARTITION BY RANGE (k);
SELECT throws_ok($$SELECT partmgr.create_parent('public.tap_ct3', 'k', '1 day', p_time_encoder => 'public.tap_ev_encode',
                                                p_time_decoder => 'public.tap_ev_decode')$$,
    '42804', 'a time encoder and decoder need a text, varchar or uuid control column, not bigint',
    'an encoder on an integer column');
SELECT is((SELECT count(*)::int FROM partmgr.part_config WHERE parent_table IN ('public.tap_ct2', 'public.tap_ct3')), 0,
    'none of the refused calls registered a set');

SELECT * FROM finish();
ROLLBACK;
