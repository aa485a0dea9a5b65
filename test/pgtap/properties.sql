-- pgTAP tests of the properties of children beyond what PostgreSQL carries
-- over from the parent: the template table (made by create_parent, named by
-- the user, or none), what a template gives new children (persistence,
-- storage parameters of the table and its TOAST table, PRIMARY KEY and
-- UNIQUE indexes the parent lacks, enforced per child), the parent's
-- replica identity, its grants with inherit_privileges and its owner always;
-- check_children(), reapply_privileges() and reapply_child_properties();
-- the template made by create_parent dropped by undo_partition; bad input.
--
-- Children are made three ways, and each must get the properties:
-- create_parent (the first child and the default partition),
-- run_maintenance (premake after a row arrives) and create_partition_time.
--
-- Deterministic: every set starts at a far-future p_start_partition (2100)
-- with a small premake.  Roles are cluster-wide: they are created inside
-- this transaction (rolled back) and named tap_prop_*.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET client_min_messages = warning;

SELECT plan(93);

-- The tables of a set, the default partition included, by name (C order).
CREATE FUNCTION public.tap_prop_tables(p_parent regclass)
RETURNS TABLE (relid oid, tname text)
LANGUAGE sql STABLE AS $$
    SELECT c.oid, c.relname::text COLLATE "default"
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent
     ORDER BY c.relname COLLATE "C"
$$;

-- A table's storage parameters, sorted and comma separated ('' for none).
CREATE FUNCTION public.tap_prop_opts(p_table regclass)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce(string_agg(o, ',' ORDER BY o COLLATE "C"), '')
      FROM pg_class c CROSS JOIN LATERAL unnest(c.reloptions) AS o
     WHERE c.oid = p_table
$$;

-- The storage parameters of a table's TOAST table (NULL without one).
CREATE FUNCTION public.tap_prop_toast_opts(p_table regclass)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT public.tap_prop_opts(c.reltoastrelid::regclass)
      FROM pg_class c
     WHERE c.oid = p_table AND c.reltoastrelid <> 0
$$;

-- A table's unique indexes without their names: 'primary btree (id)',
-- 'unique btree (code)', ... sorted, '; ' separated ('none' for none).
CREATE FUNCTION public.tap_prop_uniques(p_table regclass)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce(string_agg(d, '; ' ORDER BY d COLLATE "C"), 'none')
      FROM (SELECT CASE WHEN x.indisprimary THEN 'primary ' ELSE 'unique ' END
                   || substring(pg_get_indexdef(x.indexrelid) FROM ' USING (.*)$') AS d
              FROM pg_index x
             WHERE x.indrelid = p_table AND x.indisunique) AS s
$$;

-- A table's grants to others than its owner: 'grantee:PRIVILEGE' with '*'
-- for the grant option, sorted, comma separated ('none' for none).  The
-- grantor is left out.
CREATE FUNCTION public.tap_prop_grants(p_table regclass)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce(string_agg(g, ',' ORDER BY g COLLATE "C"), 'none')
      FROM (SELECT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(a.grantee)::text COLLATE "default" END
                   || ':' || a.privilege_type
                   || CASE WHEN a.is_grantable THEN '*' ELSE '' END AS g
              FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) AS a
             WHERE c.oid = p_table AND a.grantee <> c.relowner) AS s
$$;

-- The relations of schema partmgr (to show that nothing was made there).
CREATE FUNCTION public.tap_prop_partmgr_rels()
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce(string_agg(c.relname::text COLLATE "default", ',' ORDER BY c.relname COLLATE "C"), '')
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'partmgr'
$$;

-- What a refused call must leave alone: the configuration rows and the
-- relations of schema partmgr.
CREATE FUNCTION public.tap_prop_config_state()
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT (SELECT count(*) FROM partmgr.part_config) || ' rows '
        || (SELECT md5(coalesce(string_agg(pc::text, E'\n' ORDER BY pc.parent_table), ''))
              FROM partmgr.part_config pc)
        || ' / ' || md5(public.tap_prop_partmgr_rels())
$$;

CREATE ROLE tap_prop_owner;
-- children (and the template's expression indexes on them) are made with the
-- owner's rights
GRANT CREATE ON SCHEMA public TO tap_prop_owner;
CREATE ROLE tap_prop_reader;
CREATE ROLE tap_prop_writer;

------------------------------------------------------------------------------
-- 1. the template table: made by create_parent, none, or the user's
------------------------------------------------------------------------------
CREATE TABLE public.tap_prop_auto (id int, ts timestamptz NOT NULL, code text, payload jsonb)
    PARTITION BY RANGE (ts);
ALTER TABLE public.tap_prop_auto OWNER TO tap_prop_owner;
SELECT partmgr.create_parent('public.tap_prop_auto', 'ts', '1 day',
                             p_start_partition => '2100-01-01', p_premake => 1);

SELECT is((SELECT c.relkind::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'partmgr' AND c.relname = 'template_public_tap_prop_auto'),
          'r',
          'p_template_table NULL: create_parent makes the plain table partmgr.template_public_tap_prop_auto');
SELECT results_eq(
    $$SELECT a.attname::text COLLATE "default", format_type(a.atttypid, a.atttypmod)
        FROM pg_attribute a
       WHERE a.attrelid = 'partmgr.template_public_tap_prop_auto'::regclass
         AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum$$,
    $$SELECT a.attname::text COLLATE "default", format_type(a.atttypid, a.atttypmod)
        FROM pg_attribute a
       WHERE a.attrelid = 'public.tap_prop_auto'::regclass
         AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum$$,
    'the template made by create_parent has the parent''s columns, in order, with their types');
SELECT is((SELECT pg_get_userbyid(relowner)::text COLLATE "default" FROM pg_class
            WHERE oid = 'partmgr.template_public_tap_prop_auto'::regclass),
          'tap_prop_owner',
          'the template made by create_parent belongs to the parent''s owner');
SELECT is((SELECT template_table FROM partmgr.part_config WHERE parent_table = 'public.tap_prop_auto'),
          'partmgr.template_public_tap_prop_auto',
          'p_template_table NULL: part_config.template_table names the template made');
SELECT results_eq(
    $$SELECT tname, pg_get_userbyid(c.relowner)::text COLLATE "default", c.relpersistence::text, c.relreplident::text
        FROM tap_prop_tables('public.tap_prop_auto') t JOIN pg_class c ON c.oid = t.relid$$,
    $$VALUES ('tap_prop_auto_default', 'tap_prop_owner', 'p', 'd'),
             ('tap_prop_auto_p21000101', 'tap_prop_owner', 'p', 'd')$$,
    'a plain template, parent with the default replica identity: children logged, replica identity default, the parent''s owner');

CREATE TABLE public.tap_prop_none (id int, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
CREATE TABLE public.tap_prop_none_f (id int, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
CREATE TEMP TABLE tap_prop_rels_before AS SELECT public.tap_prop_partmgr_rels() AS rels;
SELECT partmgr.create_parent('public.tap_prop_none', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 1, p_template_table => 'false');
SELECT partmgr.create_parent('public.tap_prop_none_f', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 1, p_template_table => 'f');
SELECT results_eq(
    $$SELECT parent_table, template_table FROM partmgr.part_config
       WHERE parent_table IN ('public.tap_prop_none', 'public.tap_prop_none_f') ORDER BY parent_table$$,
    $$VALUES ('public.tap_prop_none'::text, NULL::text), ('public.tap_prop_none_f', NULL)$$,
    'p_template_table ''false'' or ''f'': part_config.template_table is NULL');
SELECT is(public.tap_prop_partmgr_rels(), (SELECT rels FROM tap_prop_rels_before),
          'p_template_table ''false'' or ''f'': no template table is made in schema partmgr');
SELECT ok(to_regclass('partmgr.template_public_tap_prop_none') IS NULL
          AND to_regclass('partmgr.template_public_tap_prop_none_f') IS NULL,
          'p_template_table ''false'' or ''f'': partmgr.template_public_<parent> does not exist');

CREATE TABLE public.tap_prop_own (id int, ts timestamptz NOT NULL, code text) PARTITION BY RANGE (ts);
CREATE TABLE public.tap_prop_own_tpl (id int, ts timestamptz NOT NULL, code text);
CREATE TABLE public.tap_prop_unq (id int, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
CREATE TABLE public.tap_prop_unq_tpl (id int);
SELECT partmgr.create_parent('public.tap_prop_own', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 1, p_template_table => 'public.tap_prop_own_tpl');
SELECT partmgr.create_parent('public.tap_prop_unq', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 1, p_template_table => 'tap_prop_unq_tpl');
SELECT results_eq(
    $$SELECT parent_table, template_table FROM partmgr.part_config
       WHERE parent_table IN ('public.tap_prop_own', 'public.tap_prop_unq') ORDER BY parent_table$$,
    $$VALUES ('public.tap_prop_own'::text, 'public.tap_prop_own_tpl'::text),
             ('public.tap_prop_unq', 'public.tap_prop_unq_tpl')$$,
    'p_template_table naming an existing table (qualified or not): stored as schema.table');
SELECT is(public.tap_prop_partmgr_rels(), (SELECT rels FROM tap_prop_rels_before),
          'p_template_table naming an existing table: nothing is made in schema partmgr');

------------------------------------------------------------------------------
-- 2. what a template gives new children
------------------------------------------------------------------------------
-- an unlogged template with storage parameters (table and TOAST), a primary
-- key and unique indexes (plain, expression and partial); the parent has no
-- index at all
CREATE TABLE public.tap_prop_tp (id int, ts timestamptz NOT NULL, code text, payload text)
    PARTITION BY RANGE (ts);
ALTER TABLE public.tap_prop_tp OWNER TO tap_prop_owner;
CREATE UNLOGGED TABLE public.tap_prop_tp_tpl (id int, ts timestamptz NOT NULL, code text, payload text)
    WITH (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.01, toast.autovacuum_enabled = false);
ALTER TABLE public.tap_prop_tp_tpl ADD PRIMARY KEY (id);
CREATE UNIQUE INDEX ON public.tap_prop_tp_tpl (code);
CREATE UNIQUE INDEX ON public.tap_prop_tp_tpl (lower(code)) WHERE payload IS NOT NULL;
SELECT partmgr.create_parent('public.tap_prop_tp', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 2, p_template_table => 'public.tap_prop_tp_tpl');
-- a row in the first child: run_maintenance makes the two premade children
INSERT INTO public.tap_prop_tp VALUES (1, '2100-01-01 01:00', 'a', NULL);
SELECT partmgr.run_maintenance('public.tap_prop_tp');
SELECT partmgr.create_partition_time('public.tap_prop_tp', ARRAY['2100-02-01 00:00+00'::timestamptz]);

SELECT results_eq(
    $$SELECT tname FROM tap_prop_tables('public.tap_prop_tp')$$,
    $$VALUES ('tap_prop_tp_default'::text), ('tap_prop_tp_p21000101'), ('tap_prop_tp_p21000102'),
             ('tap_prop_tp_p21000103'), ('tap_prop_tp_p21000201')$$,
    'template set: children from create_parent, run_maintenance and create_partition_time, and the default');
SELECT results_eq(
    $$SELECT tname, c.relpersistence::text
        FROM tap_prop_tables('public.tap_prop_tp') t JOIN pg_class c ON c.oid = t.relid$$,
    $$VALUES ('tap_prop_tp_default'::text, 'u'::text), ('tap_prop_tp_p21000101', 'u'),
             ('tap_prop_tp_p21000102', 'u'), ('tap_prop_tp_p21000103', 'u'),
             ('tap_prop_tp_p21000201', 'u')$$,
    'an UNLOGGED template: every child and the default partition are UNLOGGED');
SELECT results_eq(
    $$SELECT tname, tap_prop_opts(relid) FROM tap_prop_tables('public.tap_prop_tp')$$,
    $$SELECT tname, 'autovacuum_vacuum_scale_factor=0.01,fillfactor=70'::text
        FROM tap_prop_tables('public.tap_prop_tp')$$,
    'template storage parameters (fillfactor, autovacuum_vacuum_scale_factor) are on every new child');
SELECT results_eq(
    $$SELECT tname, tap_prop_toast_opts(relid) FROM tap_prop_tables('public.tap_prop_tp')$$,
    $$SELECT tname, 'autovacuum_enabled=false'::text FROM tap_prop_tables('public.tap_prop_tp')$$,
    'template TOAST storage parameters (toast.autovacuum_enabled) are on every new child''s TOAST table');
SELECT results_eq(
    $$SELECT tname, tap_prop_uniques(relid) FROM tap_prop_tables('public.tap_prop_tp')$$,
    $$SELECT tname, 'primary btree (id); unique btree (code); unique btree (lower(code)) WHERE (payload IS NOT NULL)'::text
        FROM tap_prop_tables('public.tap_prop_tp')$$,
    'template PRIMARY KEY (id) and UNIQUE indexes (plain, expression with WHERE) are on every new child');
SELECT is(public.tap_prop_uniques('public.tap_prop_tp'), 'none',
          'the template''s indexes are given to the children only, not to the parent');

------------------------------------------------------------------------------
-- 3. uniqueness from the template, enforced per child
------------------------------------------------------------------------------
SELECT throws_ok(
    $$INSERT INTO public.tap_prop_tp VALUES (2, '2100-01-01 02:00', 'a', NULL)$$,
    '23505', NULL,
    'template UNIQUE (code): the same code twice on one day is a unique violation');
SELECT lives_ok(
    $$INSERT INTO public.tap_prop_tp VALUES (3, '2100-01-02 02:00', 'a', NULL)$$,
    'template UNIQUE (code): the same code on another day (another child) is accepted');
SELECT throws_ok(
    $$INSERT INTO public.tap_prop_tp VALUES (1, '2100-01-01 03:00', 'b', NULL)$$,
    '23505', NULL,
    'template PRIMARY KEY (id): the same id twice on one day is a unique violation');
INSERT INTO public.tap_prop_tp VALUES (4, '2100-01-03 01:00', 'Xy', 'p');
SELECT throws_ok(
    $$INSERT INTO public.tap_prop_tp VALUES (5, '2100-01-03 02:00', 'xY', 'q')$$,
    '23505', NULL,
    'template unique index on lower(code) WHERE payload IS NOT NULL: enforced on the child');
SELECT lives_ok(
    $$INSERT INTO public.tap_prop_tp VALUES (6, '2100-01-03 03:00', 'XY', NULL)$$,
    'template partial unique index: a row outside its WHERE is accepted');

-- a later change of the template applies to children made afterwards only
ALTER TABLE public.tap_prop_tp_tpl SET (fillfactor = 50);
SELECT partmgr.create_partition_time('public.tap_prop_tp', ARRAY['2100-03-01 00:00+00'::timestamptz]);
SELECT results_eq(
    $$SELECT tname, tap_prop_opts(relid) FROM tap_prop_tables('public.tap_prop_tp')
       WHERE tname IN ('tap_prop_tp_p21000201', 'tap_prop_tp_p21000301')$$,
    $$VALUES ('tap_prop_tp_p21000201'::text, 'autovacuum_vacuum_scale_factor=0.01,fillfactor=70'::text),
             ('tap_prop_tp_p21000301', 'autovacuum_vacuum_scale_factor=0.01,fillfactor=50')$$,
    'template changed to fillfactor=50: the child made afterwards has it, an earlier one keeps 70');

-- the template create_parent made, changed: later children follow it
ALTER TABLE partmgr.template_public_tap_prop_auto SET UNLOGGED;
ALTER TABLE partmgr.template_public_tap_prop_auto SET (fillfactor = 60);
CREATE UNIQUE INDEX ON partmgr.template_public_tap_prop_auto (code);
SELECT partmgr.create_partition_time('public.tap_prop_auto', ARRAY['2100-01-05 00:00+00'::timestamptz]);
SELECT results_eq(
    $$SELECT tname, c.relpersistence::text, tap_prop_opts(relid), tap_prop_uniques(relid)
        FROM tap_prop_tables('public.tap_prop_auto') t JOIN pg_class c ON c.oid = t.relid$$,
    $$VALUES ('tap_prop_auto_default'::text, 'p'::text, ''::text, 'none'::text),
             ('tap_prop_auto_p21000101', 'p', '', 'none'),
             ('tap_prop_auto_p21000105', 'u', 'fillfactor=60', 'unique btree (code)')$$,
    'the template made by create_parent, made UNLOGGED with fillfactor and a unique index: only the child made afterwards has them');

-- parent with a primary key (id, ts), template with the same one: not twice
CREATE TABLE public.tap_prop_pk (id int NOT NULL, ts timestamptz NOT NULL, code text,
                                 PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
CREATE TABLE public.tap_prop_pk_tpl (id int NOT NULL, ts timestamptz NOT NULL, code text,
                                     PRIMARY KEY (id, ts));
SELECT partmgr.create_parent('public.tap_prop_pk', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 1, p_template_table => 'public.tap_prop_pk_tpl');
SELECT partmgr.create_partition_time('public.tap_prop_pk', ARRAY['2100-01-02 00:00+00'::timestamptz]);
SELECT results_eq(
    $$SELECT tname, tap_prop_uniques(relid) FROM tap_prop_tables('public.tap_prop_pk')$$,
    $$VALUES ('tap_prop_pk_default'::text, 'primary btree (id, ts)'::text),
             ('tap_prop_pk_p21000101', 'primary btree (id, ts)'),
             ('tap_prop_pk_p21000102', 'primary btree (id, ts)')$$,
    'parent PRIMARY KEY (id, ts), template PRIMARY KEY (id, ts): each child has exactly one unique index on (id, ts)');
SELECT results_eq(
    $$SELECT tname, (SELECT count(*)::int FROM pg_inherits h JOIN pg_index x ON x.indexrelid = h.inhrelid
                        WHERE x.indrelid = t.relid AND x.indisprimary
                          AND h.inhparent = 'public.tap_prop_pk_pkey'::regclass)
        FROM tap_prop_tables('public.tap_prop_pk') t$$,
    $$VALUES ('tap_prop_pk_default'::text, 1), ('tap_prop_pk_p21000101', 1), ('tap_prop_pk_p21000102', 1)$$,
    'parent PRIMARY KEY (id, ts): each child''s primary key is the partition of the parent''s');

-- parent with a primary key (id, ts), template PRIMARY KEY (id): a unique index
CREATE TABLE public.tap_prop_pk2 (id int NOT NULL, ts timestamptz NOT NULL,
                                  PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
CREATE TABLE public.tap_prop_pk2_tpl (id int PRIMARY KEY, ts timestamptz NOT NULL);
SELECT partmgr.create_parent('public.tap_prop_pk2', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 1, p_template_table => 'public.tap_prop_pk2_tpl');
SELECT results_eq(
    $$SELECT tname, tap_prop_uniques(relid) FROM tap_prop_tables('public.tap_prop_pk2')$$,
    $$VALUES ('tap_prop_pk2_default'::text, 'primary btree (id, ts); unique btree (id)'::text),
             ('tap_prop_pk2_p21000101', 'primary btree (id, ts); unique btree (id)')$$,
    'parent PRIMARY KEY (id, ts), template PRIMARY KEY (id): the child keeps the parent''s primary key and gets UNIQUE (id)');

-- parent without a primary key, template PRIMARY KEY (id): the child's primary key
SELECT results_eq(
    $$SELECT tname, (SELECT string_agg(a.attname::text COLLATE "default", ',')
                         FROM pg_index x JOIN pg_attribute a
                           ON a.attrelid = x.indrelid AND a.attnum = ANY (x.indkey)
                        WHERE x.indrelid = t.relid AND x.indisprimary)
        FROM tap_prop_tables('public.tap_prop_tp') t$$,
    $$SELECT tname, 'id'::text FROM tap_prop_tables('public.tap_prop_tp')$$,
    'parent without a primary key, template PRIMARY KEY (id): pg_index.indisprimary on (id) for every child');

------------------------------------------------------------------------------
-- 4. replica identity from the parent
------------------------------------------------------------------------------
CREATE TABLE public.tap_prop_rf (id int, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
ALTER TABLE public.tap_prop_rf REPLICA IDENTITY FULL;
SELECT partmgr.create_parent('public.tap_prop_rf', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 1);
SELECT partmgr.create_partition_time('public.tap_prop_rf', ARRAY['2100-01-02 00:00+00'::timestamptz]);
INSERT INTO public.tap_prop_rf VALUES (1, '2100-01-02 01:00');
SELECT partmgr.run_maintenance('public.tap_prop_rf');
SELECT results_eq(
    $$SELECT tname, c.relreplident::text
        FROM tap_prop_tables('public.tap_prop_rf') t JOIN pg_class c ON c.oid = t.relid$$,
    $$VALUES ('tap_prop_rf_default'::text, 'f'::text), ('tap_prop_rf_p21000101', 'f'),
             ('tap_prop_rf_p21000102', 'f'), ('tap_prop_rf_p21000103', 'f')$$,
    'parent REPLICA IDENTITY FULL: children from create_parent, create_partition_time and run_maintenance are FULL');

CREATE TABLE public.tap_prop_ri (id int NOT NULL, ts timestamptz NOT NULL, code text,
                                 PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
ALTER TABLE public.tap_prop_ri REPLICA IDENTITY USING INDEX tap_prop_ri_pkey;
SELECT partmgr.create_parent('public.tap_prop_ri', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 1);
SELECT partmgr.create_partition_time('public.tap_prop_ri', ARRAY['2100-01-02 00:00+00'::timestamptz]);
INSERT INTO public.tap_prop_ri VALUES (1, '2100-01-02 01:00');
SELECT partmgr.run_maintenance('public.tap_prop_ri');
SELECT results_eq(
    $$SELECT tname, c.relreplident::text,
             (SELECT count(*)::int FROM pg_index x JOIN pg_inherits h ON h.inhrelid = x.indexrelid
               WHERE x.indrelid = t.relid AND x.indisreplident
                 AND h.inhparent = 'public.tap_prop_ri_pkey'::regclass),
             (SELECT count(*)::int FROM pg_index x WHERE x.indrelid = t.relid AND x.indisreplident)
        FROM tap_prop_tables('public.tap_prop_ri') t JOIN pg_class c ON c.oid = t.relid$$,
    $$VALUES ('tap_prop_ri_default'::text, 'i'::text, 1, 1), ('tap_prop_ri_p21000101', 'i', 1, 1),
             ('tap_prop_ri_p21000102', 'i', 1, 1), ('tap_prop_ri_p21000103', 'i', 1, 1)$$,
    'parent REPLICA IDENTITY USING INDEX on its primary key: each child uses its partition of that index');
SELECT results_eq(
    $$SELECT tname, tap_prop_uniques(relid) FROM tap_prop_tables('public.tap_prop_ri')$$,
    $$SELECT tname, 'primary btree (id, ts)'::text FROM tap_prop_tables('public.tap_prop_ri')$$,
    'parent REPLICA IDENTITY USING INDEX: the children have no second index for it');
SELECT results_eq(
    $$SELECT tname, c.relreplident::text
        FROM tap_prop_tables('public.tap_prop_none') t JOIN pg_class c ON c.oid = t.relid$$,
    $$VALUES ('tap_prop_none_default'::text, 'd'::text), ('tap_prop_none_p21000101', 'd')$$,
    'parent with the default replica identity: children have the default (d)');

------------------------------------------------------------------------------
-- 5. owner always, grants with inherit_privileges
------------------------------------------------------------------------------
CREATE TABLE public.tap_prop_priv (id int, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
ALTER TABLE public.tap_prop_priv OWNER TO tap_prop_owner;
GRANT SELECT ON public.tap_prop_priv TO tap_prop_reader;
GRANT INSERT, SELECT ON public.tap_prop_priv TO tap_prop_writer WITH GRANT OPTION;
SELECT partmgr.create_parent('public.tap_prop_priv', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 1);
SELECT is((SELECT inherit_privileges FROM partmgr.part_config WHERE parent_table = 'public.tap_prop_priv'),
          false, 'inherit_privileges is false by default');
SELECT results_eq(
    $$SELECT tname, pg_get_userbyid(c.relowner)::text COLLATE "default", tap_prop_grants(relid)
        FROM tap_prop_tables('public.tap_prop_priv') t JOIN pg_class c ON c.oid = t.relid$$,
    $$VALUES ('tap_prop_priv_default'::text, 'tap_prop_owner'::text, 'none'::text),
             ('tap_prop_priv_p21000101', 'tap_prop_owner', 'none')$$,
    'inherit_privileges false: new children get no grants but belong to the parent''s owner');

UPDATE partmgr.part_config SET inherit_privileges = true WHERE parent_table = 'public.tap_prop_priv';
INSERT INTO public.tap_prop_priv VALUES (1, '2100-01-01 01:00');
SELECT partmgr.run_maintenance('public.tap_prop_priv');
SELECT partmgr.create_partition_time('public.tap_prop_priv', ARRAY['2100-01-10 00:00+00'::timestamptz]);
SELECT is(public.tap_prop_grants('public.tap_prop_priv'),
          'tap_prop_reader:SELECT,tap_prop_writer:INSERT*,tap_prop_writer:SELECT*',
          'the parent''s grants as set up');
SELECT results_eq(
    $$SELECT tname, pg_get_userbyid(c.relowner)::text COLLATE "default", tap_prop_grants(relid)
        FROM tap_prop_tables('public.tap_prop_priv') t JOIN pg_class c ON c.oid = t.relid$$,
    $$VALUES ('tap_prop_priv_default'::text, 'tap_prop_owner'::text, 'none'::text),
             ('tap_prop_priv_p21000101', 'tap_prop_owner', 'none'),
             ('tap_prop_priv_p21000102', 'tap_prop_owner', tap_prop_grants('public.tap_prop_priv')),
             ('tap_prop_priv_p21000110', 'tap_prop_owner', tap_prop_grants('public.tap_prop_priv'))$$,
    'inherit_privileges true: children made afterwards (run_maintenance, create_partition_time) get the parent''s grants and owner; earlier ones are unchanged');
SELECT ok(has_table_privilege('tap_prop_reader', 'public.tap_prop_priv_p21000102', 'SELECT')
          AND NOT has_table_privilege('tap_prop_reader', 'public.tap_prop_priv_p21000102', 'INSERT')
          AND has_table_privilege('tap_prop_writer', 'public.tap_prop_priv_p21000102', 'INSERT WITH GRANT OPTION')
          AND has_table_privilege('tap_prop_writer', 'public.tap_prop_priv_p21000110', 'SELECT WITH GRANT OPTION')
          AND NOT has_table_privilege('tap_prop_writer', 'public.tap_prop_priv_p21000110', 'DELETE'),
          'inherit_privileges true: has_table_privilege on a new child is the parent''s, grant option included');
SELECT ok(NOT has_table_privilege('tap_prop_reader', 'public.tap_prop_priv_p21000101', 'SELECT'),
          'inherit_privileges false at its creation: the first child gives tap_prop_reader nothing');

------------------------------------------------------------------------------
-- 6. check_children
------------------------------------------------------------------------------
-- an unlogged template with fillfactor 70; the parent has no grants yet
CREATE TABLE public.tap_prop_cc (id int, ts timestamptz NOT NULL, code text) PARTITION BY RANGE (ts);
ALTER TABLE public.tap_prop_cc OWNER TO tap_prop_owner;
CREATE UNLOGGED TABLE public.tap_prop_cc_tpl (id int, ts timestamptz NOT NULL, code text)
    WITH (fillfactor = 70);
SELECT partmgr.create_parent('public.tap_prop_cc', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 1, p_template_table => 'public.tap_prop_cc_tpl');
SELECT partmgr.create_partition_time('public.tap_prop_cc',
                                     ARRAY['2100-01-02 00:00+00', '2100-01-03 00:00+00']::timestamptz[]);
SELECT results_eq(
    $$SELECT tname, c.relpersistence::text, tap_prop_opts(relid), c.relreplident::text,
             pg_get_userbyid(c.relowner)::text COLLATE "default"
        FROM tap_prop_tables('public.tap_prop_cc') t JOIN pg_class c ON c.oid = t.relid$$,
    $$VALUES ('tap_prop_cc_default'::text, 'u'::text, 'fillfactor=70'::text, 'd'::text, 'tap_prop_owner'::text),
             ('tap_prop_cc_p21000101', 'u', 'fillfactor=70', 'd', 'tap_prop_owner'),
             ('tap_prop_cc_p21000102', 'u', 'fillfactor=70', 'd', 'tap_prop_owner'),
             ('tap_prop_cc_p21000103', 'u', 'fillfactor=70', 'd', 'tap_prop_owner')$$,
    'check_children set: every table unlogged, fillfactor=70, replica identity default, the parent''s owner');
SELECT is_empty($$SELECT * FROM partmgr.check_children('public.tap_prop_cc')$$,
                'check_children: nothing for a freshly made set');

GRANT DELETE ON public.tap_prop_cc_p21000102 TO tap_prop_reader;
SELECT is_empty($$SELECT * FROM partmgr.check_children('public.tap_prop_cc')$$,
                'check_children, inherit_privileges false: grants on a child are not compared');

UPDATE partmgr.part_config SET inherit_privileges = true WHERE parent_table = 'public.tap_prop_cc';
SELECT results_eq(
    $$SELECT child_table, property, actual LIKE '%tap_prop_reader%DELETE%'
        FROM partmgr.check_children('public.tap_prop_cc')$$,
    $$VALUES ('public.tap_prop_cc_p21000102'::text, 'grants'::text, true)$$,
    'check_children, inherit_privileges true: an extra grant on a child is reported as grants');

ALTER TABLE public.tap_prop_cc_p21000101 SET LOGGED;
SELECT results_eq(
    $$SELECT child_table, property, expected, actual FROM partmgr.check_children('public.tap_prop_cc')
       WHERE property = 'persistence'$$,
    $$VALUES ('public.tap_prop_cc_p21000101'::text, 'persistence'::text, 'unlogged'::text, 'logged'::text)$$,
    'check_children: a child SET LOGGED under an unlogged template is reported (expected unlogged, actual logged)');

ALTER TABLE public.tap_prop_cc_p21000102 RESET (fillfactor);
ALTER TABLE public.tap_prop_cc_p21000103 SET (parallel_workers = 2);
SELECT results_eq(
    $$SELECT child_table, expected LIKE '%fillfactor%70%', actual LIKE '%parallel_workers%'
        FROM partmgr.check_children('public.tap_prop_cc')
       WHERE property = 'storage parameters' ORDER BY child_table COLLATE "C"$$,
    $$VALUES ('public.tap_prop_cc_p21000102'::text, true, false),
             ('public.tap_prop_cc_p21000103', true, true)$$,
    'check_children: a missing (fillfactor) and an extra (parallel_workers) storage parameter are reported');

ALTER TABLE public.tap_prop_cc_default OWNER TO postgres;
SELECT results_eq(
    $$SELECT child_table, property, expected, actual FROM partmgr.check_children('public.tap_prop_cc')
       WHERE property = 'owner'$$,
    $$VALUES ('public.tap_prop_cc_default'::text, 'owner'::text, 'tap_prop_owner'::text, 'postgres'::text)$$,
    'check_children: a child given to another owner is reported');

ALTER TABLE public.tap_prop_cc_p21000101 REPLICA IDENTITY FULL;
SELECT results_eq(
    $$SELECT child_table, property FROM partmgr.check_children('public.tap_prop_cc')
       WHERE property = 'replica identity'$$,
    $$VALUES ('public.tap_prop_cc_p21000101'::text, 'replica identity'::text)$$,
    'check_children: a child whose replica identity is not the parent''s is reported');

SELECT results_eq(
    $$SELECT child_table, property FROM partmgr.check_children('public.tap_prop_cc')
       ORDER BY child_table COLLATE "C", property COLLATE "C"$$,
    $$VALUES ('public.tap_prop_cc_default'::text, 'owner'::text),
             ('public.tap_prop_cc_p21000101', 'persistence'),
             ('public.tap_prop_cc_p21000101', 'replica identity'),
             ('public.tap_prop_cc_p21000102', 'grants'),
             ('public.tap_prop_cc_p21000102', 'storage parameters'),
             ('public.tap_prop_cc_p21000103', 'storage parameters')$$,
    'check_children: one row per difference, nothing else');

-- a missing grant on a child made with the parent's grants
REVOKE SELECT ON public.tap_prop_priv_p21000102 FROM tap_prop_reader;
SELECT results_eq(
    $$SELECT child_table, property FROM partmgr.check_children('public.tap_prop_priv')
       ORDER BY child_table COLLATE "C", property COLLATE "C"$$,
    $$VALUES ('public.tap_prop_priv_default'::text, 'grants'::text),
             ('public.tap_prop_priv_p21000101', 'grants'),
             ('public.tap_prop_priv_p21000102', 'grants')$$,
    'check_children, inherit_privileges true: a revoked grant, and children made before without grants, are reported');

-- a child name that needs quoting is reported quoted
CREATE TABLE public."tap_prop_Q" (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
CREATE UNLOGGED TABLE public.tap_prop_q_tpl (ts timestamptz NOT NULL);
SELECT partmgr.create_parent('public.tap_prop_Q', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 1, p_template_table => 'public.tap_prop_q_tpl');
ALTER TABLE public."tap_prop_Q_p21000101" SET LOGGED;
SELECT results_eq(
    $$SELECT child_table, property FROM partmgr.check_children('public.tap_prop_Q')$$,
    $$VALUES ('public."tap_prop_Q_p21000101"'::text, 'persistence'::text)$$,
    'check_children: child_table is the quoted qualified name');

------------------------------------------------------------------------------
-- 7. reapply_privileges (here with inherit_privileges false)
------------------------------------------------------------------------------
GRANT SELECT ON public.tap_prop_cc TO tap_prop_reader;
GRANT INSERT, SELECT ON public.tap_prop_cc TO tap_prop_writer WITH GRANT OPTION;
UPDATE partmgr.part_config SET inherit_privileges = false WHERE parent_table = 'public.tap_prop_cc';
SELECT lives_ok($$SELECT partmgr.reapply_privileges('public.tap_prop_cc')$$,
                'reapply_privileges runs on a set with inherit_privileges false');
SELECT results_eq(
    $$SELECT tname, pg_get_userbyid(c.relowner)::text COLLATE "default", tap_prop_grants(relid)
        FROM tap_prop_tables('public.tap_prop_cc') t JOIN pg_class c ON c.oid = t.relid$$,
    $$SELECT tname, 'tap_prop_owner'::text,
             'tap_prop_reader:SELECT,tap_prop_writer:INSERT*,tap_prop_writer:SELECT*'::text
        FROM tap_prop_tables('public.tap_prop_cc')$$,
    'reapply_privileges: every child and the default belong to the parent''s owner with exactly the parent''s grants');
SELECT ok(NOT has_table_privilege('tap_prop_reader', 'public.tap_prop_cc_p21000102', 'DELETE')
          AND has_table_privilege('tap_prop_reader', 'public.tap_prop_cc_p21000102', 'SELECT')
          AND has_table_privilege('tap_prop_writer', 'public.tap_prop_cc_default', 'INSERT WITH GRANT OPTION'),
          'reapply_privileges: the extra DELETE is revoked, the missing grants are given');
UPDATE partmgr.part_config SET inherit_privileges = true WHERE parent_table = 'public.tap_prop_cc';
SELECT is_empty(
    $$SELECT * FROM partmgr.check_children('public.tap_prop_cc') WHERE property IN ('owner', 'grants')$$,
    'after reapply_privileges, check_children (inherit_privileges true) reports no owner or grants');
SELECT results_eq(
    $$SELECT child_table, property FROM partmgr.check_children('public.tap_prop_cc')
       ORDER BY child_table COLLATE "C", property COLLATE "C"$$,
    $$VALUES ('public.tap_prop_cc_p21000101'::text, 'persistence'::text),
             ('public.tap_prop_cc_p21000101', 'replica identity'),
             ('public.tap_prop_cc_p21000102', 'storage parameters'),
             ('public.tap_prop_cc_p21000103', 'storage parameters')$$,
    'reapply_privileges leaves persistence, storage parameters and replica identity alone');

SELECT lives_ok($$SELECT partmgr.reapply_privileges('public.tap_prop_priv')$$,
                'reapply_privileges runs on a set with inherit_privileges true');
SELECT is_empty($$SELECT * FROM partmgr.check_children('public.tap_prop_priv')$$,
                'after reapply_privileges, check_children of the inherit_privileges set is empty');

------------------------------------------------------------------------------
-- 8. reapply_child_properties
------------------------------------------------------------------------------
CREATE TEMP TABLE tap_prop_log_before AS SELECT coalesce(max(log_id), 0) AS log_id FROM partmgr.maintenance_log;
SELECT lives_ok($$SELECT partmgr.reapply_child_properties('public.tap_prop_cc')$$,
                'reapply_child_properties runs');
SELECT is_empty($$SELECT * FROM partmgr.check_children('public.tap_prop_cc')$$,
                'after reapply_child_properties, check_children is empty');
SELECT results_eq(
    $$SELECT tname, c.relpersistence::text, tap_prop_opts(relid), c.relreplident::text
        FROM tap_prop_tables('public.tap_prop_cc') t JOIN pg_class c ON c.oid = t.relid$$,
    $$SELECT tname, 'u'::text, 'fillfactor=70'::text, 'd'::text FROM tap_prop_tables('public.tap_prop_cc')$$,
    'reapply_child_properties: UNLOGGED again, fillfactor added, parallel_workers reset, replica identity default again');
SELECT results_eq(
    $$SELECT object, outcome,
             array_to_string(statements, ';') ~ 'SET UNLOGGED',
             array_to_string(statements, ';') ~ 'REPLICA IDENTITY DEFAULT',
             array_to_string(statements, ';') ~ 'SET \(fillfactor',
             array_to_string(statements, ';') ~ 'RESET \(parallel_workers\)'
        FROM partmgr.maintenance_log
       WHERE log_id > (SELECT log_id FROM tap_prop_log_before)
         AND parent_table = 'public.tap_prop_cc' AND action = 'alter partition'
       ORDER BY object COLLATE "C"$$,
    $$VALUES ('public.tap_prop_cc_p21000101'::text, 'done'::text, true, true, false, false),
             ('public.tap_prop_cc_p21000102', 'done', false, false, true, false),
             ('public.tap_prop_cc_p21000103', 'done', false, false, false, true)$$,
    'reapply_child_properties: one alter partition row per child fixed in maintenance_log, with its statements');
SELECT is_empty(
    $$SELECT 1 FROM partmgr.maintenance_log
       WHERE log_id > (SELECT log_id FROM tap_prop_log_before) AND parent_table = 'public.tap_prop_cc'
         AND action <> 'alter partition'$$,
    'reapply_child_properties logs nothing but alter partition rows');

------------------------------------------------------------------------------
-- 9. undo_partition drops the template create_parent made, not the user's
------------------------------------------------------------------------------
CREATE TABLE public.tap_prop_auto_undone (LIKE public.tap_prop_auto);
-- rows are moved with the set owner's rights, into a table of its own
ALTER TABLE public.tap_prop_auto_undone OWNER TO tap_prop_owner;
INSERT INTO public.tap_prop_auto VALUES (1, '2100-01-01 01:00', 'u1', NULL), (2, '2100-01-05 01:00', 'u2', NULL);
SELECT results_eq(
    $$SELECT rows_undone
        FROM partmgr.undo_partition('public.tap_prop_auto', 'public.tap_prop_auto_undone',
                                    p_loop_count => 1, p_keep_table => false)$$,
    $$VALUES (1::bigint)$$,
    'undo_partition, one batch: the rows of the first child are moved');
SELECT results_eq(
    $$SELECT tname FROM tap_prop_tables('public.tap_prop_auto')$$,
    $$VALUES ('tap_prop_auto_p21000105'::text)$$,
    'undo_partition, one batch: one child is left, the set is not forgotten yet');
SELECT ok(to_regclass('partmgr.template_public_tap_prop_auto') IS NOT NULL,
          'undo_partition: the template made by create_parent stays while the set is not forgotten');
SELECT lives_ok(
    $$SELECT * FROM partmgr.undo_partition('public.tap_prop_auto', 'public.tap_prop_auto_undone',
                                           p_loop_count => 100, p_keep_table => false)$$,
    'undo_partition of the rest of the set');
SELECT ok(NOT EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table = 'public.tap_prop_auto'),
          'undo_partition: the set is forgotten');
SELECT ok(to_regclass('partmgr.template_public_tap_prop_auto') IS NULL,
          'undo_partition: the template made by create_parent is dropped once the set is forgotten');
SELECT is((SELECT count(*)::int FROM public.tap_prop_auto_undone), 2,
          'undo_partition: the rows are in the target');

CREATE TABLE public.tap_prop_tp_undone (id int, ts timestamptz, code text, payload text);
ALTER TABLE public.tap_prop_tp_undone OWNER TO tap_prop_owner;
SET pg_partmgr.keep_user_templates = on;
SELECT lives_ok(
    $$SELECT * FROM partmgr.undo_partition('public.tap_prop_tp', 'public.tap_prop_tp_undone',
                                           p_loop_count => 100, p_keep_table => false)$$,
    'undo_partition of a set with a user-supplied template, pg_partmgr.keep_user_templates on');
RESET pg_partmgr.keep_user_templates;
SELECT ok(NOT EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table = 'public.tap_prop_tp'),
          'undo_partition: the set with a user-supplied template is forgotten');
SELECT ok(to_regclass('public.tap_prop_tp_tpl') IS NOT NULL,
          'undo_partition with pg_partmgr.keep_user_templates: a user-supplied template table is kept');

-- by default, as pg_partman: a forgotten set's template goes, whoever made it,
-- unless another set names it
CREATE TABLE public.tap_prop_u1 (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
CREATE TABLE public.tap_prop_u2 (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
CREATE TABLE public.tap_prop_u_tpl (ts timestamptz);
SELECT partmgr.create_parent('public.tap_prop_u1', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_template_table => 'public.tap_prop_u_tpl', p_default_table => false);
SELECT partmgr.create_parent('public.tap_prop_u2', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_template_table => 'public.tap_prop_u_tpl', p_default_table => false);
CREATE TABLE public.tap_prop_u_undone (ts timestamptz);
SELECT * FROM partmgr.undo_partition('public.tap_prop_u1', 'public.tap_prop_u_undone', p_loop_count => 10,
                                     p_keep_table => false);
SELECT ok(to_regclass('public.tap_prop_u_tpl') IS NOT NULL,
          'undo_partition: a template another set still names is kept');
SELECT partmgr.config_cleanup('public.tap_prop_u2');
SELECT ok(to_regclass('public.tap_prop_u_tpl') IS NULL
          AND NOT EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table = 'public.tap_prop_u2'),
          'config_cleanup of the last set naming it: the user-supplied template is dropped, the set forgotten');
SELECT is((SELECT count(*)::int FROM pg_inherits WHERE inhparent = 'public.tap_prop_u2'::regclass), 1,
          'config_cleanup leaves the set''s children where they are');

------------------------------------------------------------------------------
-- 10. bad input
------------------------------------------------------------------------------
CREATE TABLE public.tap_prop_bad (id int, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
CREATE TABLE public.tap_prop_bad_ptpl (id int, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
CREATE TABLE public.tap_prop_bad_xtpl (id int, ts timestamptz NOT NULL, extra int);
CREATE TABLE public.tap_prop_unmanaged (id int, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
CREATE TEMP TABLE tap_prop_state AS SELECT public.tap_prop_config_state() AS state;

SELECT throws_ok(
    $$SELECT partmgr.create_parent('public.tap_prop_bad', 'ts', '1 day', p_start_partition => '2100-01-01',
                                   p_template_table => 'public.nope')$$,
    '42P01', 'template table "public.nope" does not exist',
    'create_parent with a template table that does not exist: 42P01');
SELECT is(public.tap_prop_config_state(), (SELECT state FROM tap_prop_state),
          'a missing template table: part_config and schema partmgr unchanged');
SELECT throws_ok(
    $$SELECT partmgr.create_parent('public.tap_prop_bad', 'ts', '1 day', p_start_partition => '2100-01-01',
                                   p_template_table => 'public.tap_prop_bad_ptpl')$$,
    '42809', 'template table "public.tap_prop_bad_ptpl" is not a plain table',
    'create_parent with a partitioned table as template: 42809');
SELECT is(public.tap_prop_config_state(), (SELECT state FROM tap_prop_state),
          'a partitioned template table: part_config and schema partmgr unchanged');
SELECT throws_ok(
    $$SELECT partmgr.create_parent('public.tap_prop_bad', 'ts', '1 day', p_start_partition => '2100-01-01',
                                   p_template_table => 'public.tap_prop_bad_xtpl')$$,
    '42703', 'template table "public.tap_prop_bad_xtpl" has column "extra", which the parent table does not have with that type',
    'create_parent with a template that has a column the parent lacks: 42703');
SELECT is(public.tap_prop_config_state(), (SELECT state FROM tap_prop_state),
          'a template with an extra column: part_config and schema partmgr unchanged');
SELECT ok(to_regclass('public.tap_prop_bad_default') IS NULL AND to_regclass('public.tap_prop_bad_p21000101') IS NULL,
          'refused create_parent calls made no children');
SELECT throws_ok(
    $$SELECT * FROM partmgr.check_children('public.tap_prop_unmanaged')$$,
    '42704', 'table "public.tap_prop_unmanaged" is not managed by pg_partmgr',
    'check_children on a table that is not managed: 42704');
SELECT throws_ok(
    $$SELECT partmgr.reapply_privileges('public.tap_prop_unmanaged')$$,
    '42704', 'table "public.tap_prop_unmanaged" is not managed by pg_partmgr',
    'reapply_privileges on a table that is not managed: 42704');
SELECT throws_ok(
    $$SELECT partmgr.reapply_child_properties('public.tap_prop_unmanaged')$$,
    '42704', 'table "public.tap_prop_unmanaged" is not managed by pg_partmgr',
    'reapply_child_properties on a table that is not managed: 42704');
SELECT is(public.tap_prop_config_state(), (SELECT state FROM tap_prop_state),
          'check_children and the reapply functions on an unmanaged table: part_config unchanged');

-- 11. A role that may not create tables in schema partmgr
CREATE ROLE tap_prop_plain;
GRANT USAGE ON SCHEMA partmgr TO tap_prop_plain;
GRANT ALL ON ALL TABLES IN SCHEMA partmgr TO tap_prop_plain;
GRANT ALL ON ALL SEQUENCES IN SCHEMA partmgr TO tap_prop_plain;
GRANT CREATE ON SCHEMA public TO tap_prop_plain;
SET ROLE tap_prop_plain;
CREATE TABLE public.tap_prop_pl (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT throws_ok(
    $$SELECT partmgr.create_parent('public.tap_prop_pl', 'ts', '1 day', p_start_partition => '2100-01-01')$$,
    '42501', 'permission denied to create template table partmgr.template_public_tap_prop_pl',
    'create_parent without CREATE on schema partmgr and no template given: 42501');
SELECT ok(partmgr.create_parent('public.tap_prop_pl', 'ts', '1 day', p_start_partition => '2100-01-01',
                                p_template_table => 'false'),
          'the same role with p_template_table => false registers the set');
RESET ROLE;
GRANT CREATE ON SCHEMA partmgr TO tap_prop_plain;
SET ROLE tap_prop_plain;
CREATE TABLE public.tap_prop_pl2 (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('public.tap_prop_pl2', 'ts', '1 day', p_start_partition => '2100-01-01');
RESET ROLE;
SELECT is((SELECT pg_get_userbyid(relowner) FROM pg_class
            WHERE oid = 'partmgr.template_public_tap_prop_pl2'::regclass),
          'tap_prop_plain', 'with CREATE on schema partmgr the role gets a template it owns');

-- 12. inherit_template_properties: one child attached by hand
CREATE TABLE public.tap_prop_ih (id int NOT NULL, ts timestamptz NOT NULL, code text) PARTITION BY RANGE (ts);
CREATE UNLOGGED TABLE public.tap_prop_ih_tpl (id int, ts timestamptz, code text) WITH (fillfactor = 60);
CREATE UNIQUE INDEX ON public.tap_prop_ih_tpl (code);
SELECT partmgr.create_parent('public.tap_prop_ih', 'ts', '1 day', p_start_partition => '2100-01-01',
                             p_premake => 1, p_template_table => 'public.tap_prop_ih_tpl');
CREATE TABLE public.tap_prop_ih_p20991231 (LIKE public.tap_prop_ih);
ALTER TABLE public.tap_prop_ih ATTACH PARTITION public.tap_prop_ih_p20991231
    FOR VALUES FROM ('2099-12-31 00:00+00') TO ('2100-01-01 00:00+00');
SELECT is(partmgr.inherit_template_properties('public.tap_prop_ih', 'public', 'tap_prop_ih_p20991231'), true,
          'inherit_template_properties on a child attached by hand returns true');
SELECT results_eq(
    $$SELECT relpersistence::text COLLATE "default", reloptions::text COLLATE "default",
             (SELECT count(*)::int FROM pg_index i WHERE i.indrelid = c.oid AND i.indisunique
                 AND pg_get_indexdef(i.indexrelid) LIKE '%(code)%')
        FROM pg_class c WHERE c.oid = 'public.tap_prop_ih_p20991231'::regclass$$,
    $$VALUES ('u'::text, '{fillfactor=60}'::text, 1)$$,
    'the child is now unlogged, has the template''s fillfactor and its unique index on code');
SELECT is(partmgr.inherit_template_properties('public.tap_prop_ih', 'public', 'tap_prop_ih_p20991231'), true,
          'a second call finds nothing to do');
SELECT is((SELECT count(*)::int FROM pg_index WHERE indrelid = 'public.tap_prop_ih_p20991231'::regclass), 1,
          'and adds no second index');
SELECT throws_ok($$SELECT partmgr.inherit_template_properties('public.tap_prop_ih', 'public', 'tap_prop_ih_tpl')$$,
    '22023', 'table "public.tap_prop_ih_tpl" is not a child of partition set "public.tap_prop_ih"',
    'inherit_template_properties on a table that is not a child: 22023');
UPDATE partmgr.part_config SET template_table = NULL WHERE parent_table = 'public.tap_prop_ih';
SELECT throws_ok($$SELECT partmgr.inherit_template_properties('public.tap_prop_ih', 'public', 'tap_prop_ih_p20991231')$$,
    '55000', 'partition set "public.tap_prop_ih" has no template table',
    'inherit_template_properties on a set without a template: 55000');

SELECT * FROM finish();
ROLLBACK;
