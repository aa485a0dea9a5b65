-- pgTAP tests of archive sets (part_config_archive): what the trigger
-- refuses, with its SQLSTATE and nothing written; who may write a set's
-- archive; retention attaching an expired child to the archive as it is
-- (same table, the archive's names) or moving its rows there (a coarser
-- grid, id sets, sub-partitioned sets); a trigger or a rule of the archive
-- that swallows rows stops the move with nothing changed; health when the
-- archive goes away; the dump.  Concurrent readers and writers and kill -9
-- are in test/t/022_archive.pl.
BEGIN;
SET search_path = public;
SET TimeZone = 'UTC';
SET client_min_messages = warning;
SET pg_partmgr.on_set_failure = warning;

SELECT plan(51);

CREATE ROLE arch_owner NOSUPERUSER;
CREATE ROLE arch_other NOSUPERUSER;
GRANT USAGE ON SCHEMA partmgr TO arch_owner, arch_other;
GRANT SELECT, INSERT, UPDATE, DELETE ON partmgr.part_config, partmgr.part_config_archive,
      partmgr.maintenance_log TO arch_owner, arch_other;
CREATE SCHEMA ar AUTHORIZATION arch_owner;
CREATE SCHEMA ar_cold AUTHORIZATION arch_owner;
GRANT USAGE, CREATE ON SCHEMA ar TO arch_other;

SET ROLE arch_owner;
-- t: daily, its archive a (daily, in another schema), m (monthly)
CREATE TABLE ar.t (id bigint NOT NULL, ts timestamptz NOT NULL, v text, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
CREATE INDEX t_v ON ar.t (v);
CREATE TABLE ar_cold.a (id bigint NOT NULL, ts timestamptz NOT NULL, v text, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
CREATE TABLE ar.u (id bigint NOT NULL, ts timestamptz NOT NULL, v text, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
CREATE TABLE ar.m (v text, ts timestamptz NOT NULL, id bigint NOT NULL, extra int DEFAULT 7, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
-- id sets: i (10 a child) into ia (100 a child); s, sub-partitioned, into sa
CREATE TABLE ar.i (id bigint NOT NULL, ts timestamptz NOT NULL, v text, PRIMARY KEY (id)) PARTITION BY RANGE (id);
CREATE TABLE ar.ia (id bigint NOT NULL, ts timestamptz NOT NULL, v text, PRIMARY KEY (id)) PARTITION BY RANGE (id);
CREATE TABLE ar.s (id bigint NOT NULL, ts timestamptz NOT NULL, v text, PRIMARY KEY (id)) PARTITION BY RANGE (id);
CREATE TABLE ar.sa (id bigint NOT NULL, ts timestamptz NOT NULL, v text, PRIMARY KEY (id)) PARTITION BY RANGE (id);
-- what cannot be an archive, or have one
CREATE TABLE ar.h (id bigint PRIMARY KEY) PARTITION BY HASH (id);
CREATE TABLE ar.l (k int PRIMARY KEY) PARTITION BY LIST (k);
CREATE TABLE ar.other_key (id bigint NOT NULL, ts timestamptz NOT NULL, v text, PRIMARY KEY (id, ts)) PARTITION BY RANGE (id);
CREATE TABLE ar.short (id bigint NOT NULL, ts timestamptz NOT NULL, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
CREATE TABLE ar.typed (id int NOT NULL, ts timestamptz NOT NULL, v text, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
CREATE TABLE ar.plain (id bigint, ts timestamptz, v text);
RESET ROLE;
SET ROLE arch_other;
CREATE TABLE ar.theirs (id bigint NOT NULL, ts timestamptz NOT NULL, v text, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
RESET ROLE;

SELECT partmgr.create_parent('ar.t', 'ts', '1 day', p_premake => 1,
                             p_start_partition => (now() - interval '6 days')::date::text);
SELECT partmgr.create_parent('ar_cold.a', 'ts', '1 day', p_premake => 1);
SELECT partmgr.create_parent('ar.u', 'ts', '1 day', p_premake => 1,
                             p_start_partition => (now() - interval '6 days')::date::text);
SELECT partmgr.create_parent('ar.m', 'ts', '1 month', p_premake => 1);
SELECT partmgr.create_parent('ar.i', 'id', '10', p_premake => 4, p_start_partition => '0');
SELECT partmgr.create_parent('ar.ia', 'id', '100', p_premake => 1, p_start_partition => '0');
SELECT partmgr.create_parent('ar.s', 'id', '100', p_premake => 1, p_start_partition => '0');
SELECT partmgr.create_parent('ar.sa', 'id', '100', p_premake => 1, p_start_partition => '0');
SELECT partmgr.create_sub_parent('ar.s', 'id', '10', p_premake => 1, p_declarative_check => 'yes');
SELECT partmgr.create_parent('ar.h', 'id', '4', p_type => 'hash');
SELECT partmgr.create_parent('ar.l', 'k', '1', p_type => 'list', p_start_partition => '1');
SELECT partmgr.create_parent('ar.other_key', 'id', '10', p_start_partition => '0');
SELECT partmgr.create_parent('ar.short', 'ts', '1 day');
SELECT partmgr.create_parent('ar.typed', 'ts', '1 day');
SELECT partmgr.create_parent('ar.theirs', 'ts', '1 day');

CREATE FUNCTION public.ar_state() RETURNS text LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT string_agg(parent_table || ' ' || archive_table, ', ' ORDER BY parent_table)
                       FROM partmgr.part_config_archive), '')
$$;
CREATE TEMP TABLE ar_before AS SELECT ar_state() AS state;

-- what the trigger refuses
SELECT throws_ok($$INSERT INTO partmgr.part_config_archive VALUES ('ar.h', 'ar.u')$$,
                 '0A000', NULL, 'a hash set has no archive');
SELECT throws_ok($$INSERT INTO partmgr.part_config_archive VALUES ('ar.l', 'ar.u')$$,
                 '0A000', NULL, 'nor a list set');
SELECT throws_ok($$INSERT INTO partmgr.part_config_archive
                   SELECT parent_table, 'ar.ia' FROM partmgr.part_config
                    WHERE parent_table LIKE 'ar.s_p%' LIMIT 1$$,
                 '0A000', NULL, 'nor a sub-set: the top set has');
SELECT throws_ok($$INSERT INTO partmgr.part_config_archive VALUES ('ar.t', 'ar.nowhere')$$,
                 '42P01', 'archive "ar.nowhere" of partition set "ar.t" does not exist',
                 'an archive that does not exist');
SELECT throws_ok($$INSERT INTO partmgr.part_config_archive VALUES ('ar.t', 'ar.plain')$$,
                 '22023', NULL, 'an archive that is not a set');
SELECT throws_ok($$INSERT INTO partmgr.part_config_archive VALUES ('ar.t', 'ar.t')$$,
                 '22023', 'partition set "ar.t" cannot be its own archive', 'the set itself');
SELECT throws_ok($$INSERT INTO partmgr.part_config_archive VALUES ('ar.t', 'ar.h')$$,
                 '0A000', NULL, 'a hash set as archive');
SELECT throws_ok($$INSERT INTO partmgr.part_config_archive VALUES ('ar.t', 'ar.theirs')$$,
                 '42501', NULL, 'an archive owned by another role');
SELECT throws_ok($$INSERT INTO partmgr.part_config_archive VALUES ('ar.t', 'ar.other_key')$$,
                 '42804', NULL, 'an archive partitioned by another column');
SELECT throws_ok($$INSERT INTO partmgr.part_config_archive VALUES ('ar.t', 'ar.short')$$,
                 '42804', 'archive "ar.short" of partition set "ar.t" has no column v of the same type as the set''s',
                 'an archive without a column of the set');
SELECT throws_ok($$INSERT INTO partmgr.part_config_archive VALUES ('ar.t', 'ar.typed')$$,
                 '42804', NULL, 'an archive with a column of another type');
SELECT lives_ok($$INSERT INTO partmgr.part_config_archive VALUES ('ar.u', 'ar.t')$$,
                'u archives into t');
SELECT throws_ok($$INSERT INTO partmgr.part_config_archive VALUES ('ar.t', 'ar.u')$$,
                 '22023', 'archive "ar.u" of partition set "ar.t" archives into it in turn',
                 'and t cannot archive into u: a loop');
DELETE FROM partmgr.part_config_archive WHERE parent_table = 'ar.u';
-- who may write a set's archive
SET ROLE arch_other;
SELECT throws_ok($$INSERT INTO partmgr.part_config_archive VALUES ('ar.t', 'ar_cold.a')$$,
                 '42501', NULL, 'another role may not give the owner''s set an archive');
RESET ROLE;
SELECT is(ar_state(), (SELECT state FROM ar_before), 'after every refusal no archive is written');

-- attached as it is: the archive's grid is the set's, in another schema
SET ROLE arch_owner;
INSERT INTO partmgr.part_config_archive VALUES ('ar.t', 'ar_cold.a');
RESET ROLE;
SELECT throws_ok($$UPDATE partmgr.part_config_archive SET archive_table = 'ar.h' WHERE parent_table = 'ar.t'$$,
                 '0A000', NULL, 'an UPDATE is checked too');
INSERT INTO ar.t SELECT g, date_trunc('day', now()) - (g % 7) * interval '1 day' + interval '1 hour', 'v' || g
  FROM generate_series(1, 700) g;
UPDATE partmgr.part_config SET retention = '3 days' WHERE parent_table = 'ar.t';
CREATE TEMP TABLE ar_old AS
    SELECT c.oid AS relid, c.relname::text AS relname,
           'a_' || substr(c.relname, length('t_') + 1) AS new_name
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'ar.t'::regclass AND c.relname <> 't_default'
       AND pg_get_expr(c.relpartbound, c.oid) < 'FOR VALUES FROM (''' || (now() - interval '3 days')::date::text;
SELECT is((SELECT count(*)::int FROM ar_old), 3, 'three children of t have expired');
SELECT is((SELECT count(*)::int FROM partmgr.plan_maintenance('ar.t')
            WHERE action = 'archive partition' AND detail LIKE '%, attached to ar_cold.a as a_p%'),
          3, 'plan_maintenance: each is attached to the archive as it is');
SELECT partmgr.run_maintenance('ar.t');
SELECT is((SELECT count(*)::int FROM ar_old o JOIN pg_inherits i ON i.inhrelid = o.relid
             JOIN pg_constraint c ON c.conrelid = o.relid AND c.conname = 'partmgr_bound_check'
            WHERE i.inhparent = 'ar.t'::regclass AND NOT c.convalidated),
          3, 'a first run gives them a CHECK of their bounds, NOT VALID, and keeps them');
SELECT partmgr.run_maintenance('ar.t');
SELECT is((SELECT count(*)::int FROM pg_constraint c JOIN ar_old o ON c.conrelid = o.relid
            WHERE c.conname = 'partmgr_bound_check'),
          0, 'the next validates it, so that ATTACH need not scan them, and drops it once they are attached');
SELECT is((SELECT string_agg(action, ', ' ORDER BY log_id) FROM partmgr.maintenance_log
            WHERE parent_table = 'ar.t' AND action <> 'create partition'
              AND object = (SELECT 'ar.' || relname FROM ar_old ORDER BY relname LIMIT 1)),
          'add constraints, validate constraint, archive partition', 'the log shows the three steps');
SELECT is((SELECT count(*)::int FROM ar_old o JOIN pg_inherits i ON i.inhrelid = o.relid
             JOIN pg_class c ON c.oid = o.relid
            WHERE i.inhparent = 'ar_cold.a'::regclass AND c.relname = o.new_name
              AND c.relnamespace = 'ar_cold'::regnamespace),
          3, 'the same tables are children of the archive, with its names, in its schema');
SELECT is((SELECT count(*)::int FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
             JOIN ar_old o ON o.relid = x.indrelid
            WHERE c.relname IN (o.new_name || '_pkey', o.new_name || '_v_idx')),
          6, 'their indexes too');
SELECT is((SELECT count(*)::int FROM ar.t), 400, 'the set keeps the rows of its four young days');
SELECT is((SELECT count(*)::int FROM ar_cold.a), 300, 'the archive has the other 300');
SELECT is((SELECT count(*)::int FROM (SELECT id FROM ar.t UNION ALL SELECT id FROM ar_cold.a) x), 700,
          'no row lost or doubled');
SELECT is((SELECT count(*)::int FROM partmgr.maintenance_log
            WHERE parent_table = 'ar.t' AND action = 'archive partition' AND outcome = 'done'),
          3, 'maintenance_log: an "archive partition" row each');

-- moved by rows: m is monthly, its columns in another order, with one more
DELETE FROM partmgr.part_config_archive WHERE parent_table = 'ar.t';
SET ROLE arch_owner;
INSERT INTO partmgr.part_config_archive VALUES ('ar.t', 'ar.m');
RESET ROLE;
UPDATE partmgr.part_config SET retention = '2 days' WHERE parent_table = 'ar.t';
CREATE TEMP TABLE ar_m_before AS SELECT count(*) AS n FROM ar.m;
SELECT is((SELECT count(*)::int FROM partmgr.plan_maintenance('ar.t')
            WHERE action = 'archive partition' AND detail LIKE '%, its rows into ar.m'),
          1, 'plan_maintenance: a child whose rows go into the coarser archive');
-- an archive that swallows rows: a trigger, then a trigger that deletes them after
CREATE FUNCTION ar.swallow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
ALTER FUNCTION ar.swallow() OWNER TO arch_owner;
CREATE FUNCTION ar.unsay() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM ar.m WHERE id = NEW.id AND ts = NEW.ts; RETURN NULL; END $$;
ALTER FUNCTION ar.unsay() OWNER TO arch_owner;
SET ROLE arch_owner;
CREATE TRIGGER swallow BEFORE INSERT ON ar.m FOR EACH ROW EXECUTE FUNCTION ar.swallow();
RESET ROLE;
CREATE TEMP TABLE ar_t_before AS SELECT count(*) AS n,
       (SELECT count(*) FROM pg_inherits WHERE inhparent = 'ar.t'::regclass) AS children FROM ar.t;
SELECT throws_like($$SELECT partmgr.run_maintenance('ar.t')$$,
                   'not every row of ar.t_p% reached ar.m: 100 read, 0 written',
                   'a BEFORE trigger of the archive that keeps rows out: the move fails, saying so');
SELECT is((SELECT (count(*), (SELECT count(*) FROM pg_inherits WHERE inhparent = 'ar.t'::regclass))::text FROM ar.t),
          (SELECT (n, children)::text FROM ar_t_before),
          'and the set keeps its rows and children');
SET ROLE arch_owner;
DROP TRIGGER swallow ON ar.m;
CREATE TRIGGER unsay AFTER INSERT ON ar.m FOR EACH ROW EXECUTE FUNCTION ar.unsay();
RESET ROLE;
SELECT throws_like($$SELECT partmgr.run_maintenance('ar.t')$$,
                   'not every row of ar.t_p% reached archive ar.m: 100 moved, but its rows of that range went from 0 to 0',
                   'an AFTER trigger that deletes the rows it is given: the count in the archive catches it');
SELECT is((SELECT (count(*), (SELECT count(*) FROM pg_inherits WHERE inhparent = 'ar.t'::regclass))::text FROM ar.t),
          (SELECT (n, children)::text FROM ar_t_before),
          'and the set keeps its rows and children');
SELECT is((SELECT count(*)::int FROM ar.m), (SELECT n::int FROM ar_m_before), 'the archive got nothing');
SET ROLE arch_owner;
DROP TRIGGER unsay ON ar.m;
RESET ROLE;
SELECT partmgr.run_maintenance('ar.t');
SELECT is((SELECT count(*)::int FROM ar.t), 300, 'without them the child''s rows leave the set');
SELECT is((SELECT count(*)::int FROM ar.m), 100, 'and are in the archive');
SELECT is((SELECT count(*)::int FROM ar.m WHERE extra = 7 AND v LIKE 'v%'), 100,
          'by column name, the archive''s own column taking its default');
SELECT is((SELECT count(*)::int FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'ar.t'::regclass AND c.relname <> 't_default'
              AND pg_get_expr(c.relpartbound, c.oid) < 'FOR VALUES FROM (''' || (now() - interval '3 days')::date::text),
          0, 'the emptied child is dropped');

-- id sets: i's children of 10 fit no child of ia's grid of 100
ALTER TABLE ar.ia_p100 OWNER TO arch_other;
SET ROLE arch_owner;
SELECT throws_ok($$INSERT INTO partmgr.part_config_archive VALUES ('ar.i', 'ar.ia')$$,
                 '42501', 'table ar.ia_p100 of archive "ar.ia" is owned by role "arch_other", not by "arch_owner", the owner of partition set "ar.i"',
                 'an archive with a child of another role''s, whose triggers rows would reach');
RESET ROLE;
ALTER TABLE ar.ia_p100 OWNER TO arch_owner;
SET ROLE arch_owner;
INSERT INTO partmgr.part_config_archive VALUES ('ar.i', 'ar.ia');
CREATE TABLE ar.ref (id bigint REFERENCES ar.i ON DELETE CASCADE);
RESET ROLE;
INSERT INTO ar.i SELECT g, now(), 'i' || g FROM generate_series(0, 39) g;
INSERT INTO ar.ref VALUES (5);
UPDATE partmgr.part_config SET retention = '15' WHERE parent_table = 'ar.i';
SELECT throws_ok($$SELECT partmgr.run_maintenance('ar.i')$$, '0A000', NULL,
                 'rows a foreign key references do not move: deleting them would cascade');
SELECT is((SELECT count(*)::int FROM ar.ref) + (SELECT count(*)::int FROM ar.i), 41,
          'the referencing row and the set''s rows are all there');
DROP TABLE ar.ref;
SET pg_partmgr.tier_bytes_per_run = '8kB';
SELECT partmgr.run_maintenance('ar.i');
SELECT is((SELECT count(*)::int FROM ar.i), 30,
          'paced by pg_partmgr.tier_bytes_per_run: a run moves the rows of one child when it holds that much');
RESET pg_partmgr.tier_bytes_per_run;
SELECT partmgr.run_maintenance('ar.i');
SELECT is((SELECT count(*)::int FROM ar.i), 20, 'an id set keeps the ids within 15 of its largest');
SELECT is((SELECT count(*)::int FROM ONLY ar.ia_p0), 20, 'the archive''s child of 0-99 has the others');

-- a sub-partitioned set: the rows of an expired child's leaves go, and its sub-set
SET ROLE arch_owner;
INSERT INTO partmgr.part_config_archive VALUES ('ar.s', 'ar.sa');
RESET ROLE;
INSERT INTO ar.s SELECT g, now(), 's' || g FROM generate_series(0, 199) g;
UPDATE partmgr.part_config SET retention = '99' WHERE parent_table = 'ar.s';
SELECT partmgr.run_maintenance('ar.s');
SELECT is((SELECT count(*)::int FROM ar.s), 100, 'the sub-partitioned set keeps its young child');
SELECT is((SELECT count(*)::int FROM ar.sa WHERE id < 100), 100,
          'the rows of the old one''s leaves are in the archive');
SELECT ok(NOT EXISTS (SELECT 1 FROM partmgr.part_config WHERE parent_table = 'ar.s_p0')
          AND to_regclass('ar.s_p0') IS NULL,
          'the old child is dropped and its sub-set forgotten');

-- the archive goes away: health says so, and retention keeps the children
SELECT ok(partmgr.dump_partitioned_table_definition('ar.t') LIKE
          E'%\nINSERT INTO partmgr.part_config_archive (parent_table, archive_table)\nVALUES (''ar.t'', ''ar.m'') ON CONFLICT DO NOTHING;%',
          'the dump of the set ends with its archive');
SET ROLE arch_owner;
ALTER TABLE ar.m RENAME TO m_gone;
RESET ROLE;
SELECT ok((SELECT reason FROM partmgr.health WHERE parent_table = 'ar.t')
          LIKE '%archive: archive "ar.m" of partition set "ar.t" does not exist, so retention keeps the expired children%',
          'health warns that the archive is gone');
UPDATE partmgr.part_config SET retention = '1 day' WHERE parent_table = 'ar.t';
CREATE TEMP TABLE ar_t_kept AS SELECT count(*) AS n FROM ar.t;
SELECT throws_ok($$SELECT partmgr.run_maintenance('ar.t')$$, '42P01',
                 'archive "ar.m" of partition set "ar.t" does not exist',
                 'retention stops with the archive''s error');
SELECT is((SELECT count(*) FROM ar.t), (SELECT n FROM ar_t_kept), 'and the rows that expired are kept');
DELETE FROM partmgr.part_config WHERE parent_table = 'ar.t';
SELECT is((SELECT count(*)::int FROM partmgr.part_config_archive WHERE parent_table = 'ar.t'), 0,
          'a set''s archive goes with its configuration');

SELECT * FROM finish();
ROLLBACK;
