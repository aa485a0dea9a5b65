-- pgTAP tests of the one rule that covers every table of pg_partmgr
-- (own_tables.c): a trigger pg_partmgr did not create, on any of them,
-- stops pg_partmgr from writing any of them -- a role granted TRIGGER
-- (pg_partman's documentation grants ALL on the schema's tables) can never
-- make a superuser's call run its code.  The tables are enumerated from the
-- catalog, so a table a later version adds is tested without being named
-- here.  Also: schema partmgr holds no table outside that rule but the
-- sets' templates, and reshape_operation shows a role only its own sets.
BEGIN;
SET search_path = public;
SET client_min_messages = warning;

CREATE TEMP VIEW own_tables AS
SELECT c.oid::regclass AS t
  FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
 WHERE d.classid = 'pg_class'::regclass AND d.deptype = 'e'
   AND d.refclassid = 'pg_extension'::regclass
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pg_partmgr')
   AND c.relkind IN ('r', 'p');

SELECT plan((SELECT count(*)::int FROM own_tables) + 8);

CREATE ROLE tap_own_att NOSUPERUSER;
CREATE ROLE tap_own_a NOSUPERUSER;
CREATE ROLE tap_own_b NOSUPERUSER;
-- pg_partman's documented grants: ALL on every table of the schema
GRANT USAGE, CREATE ON SCHEMA partmgr TO tap_own_att, tap_own_a, tap_own_b;
GRANT ALL ON ALL TABLES IN SCHEMA partmgr TO tap_own_att, tap_own_a, tap_own_b;
GRANT ALL ON ALL SEQUENCES IN SCHEMA partmgr TO tap_own_att, tap_own_a, tap_own_b;
CREATE SCHEMA tap_own;
GRANT USAGE ON SCHEMA tap_own TO tap_own_att;
CREATE TABLE tap_own.secret (what text);
CREATE TABLE tap_own.p (id bigint NOT NULL) PARTITION BY RANGE (id);

-- what the attacker's trigger would do with a superuser's rights
CREATE FUNCTION tap_own.evil() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tap_own.secret VALUES ('ran as ' || current_user);
    ALTER ROLE tap_own_att SUPERUSER;
    RETURN coalesce(NEW, OLD);
END
$$;
ALTER FUNCTION tap_own.evil() OWNER TO tap_own_att;

-- The attacker puts a trigger on table t; the superuser's create_parent is
-- refused before it writes anything, naming t; the trigger goes again.
CREATE FUNCTION tap_own.refused_with_trigger_on(t regclass) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    result text;
BEGIN
    SET LOCAL ROLE tap_own_att;
    EXECUTE format('CREATE TRIGGER evil BEFORE INSERT OR UPDATE OR DELETE ON %s
                    FOR EACH ROW EXECUTE FUNCTION tap_own.evil()', t);
    RESET ROLE;
    result := throws_ok(
        $q$SELECT partmgr.create_parent('tap_own.p', 'id', '10', p_premake => 1)$q$,
        '42501', format('pg_partmgr does not write to table %s while it has trigger "evil"', t),
        format('a trigger another role put on %s: a superuser''s create_parent is refused, naming it', t));
    EXECUTE format('DROP TRIGGER evil ON %s', t);
    RETURN result;
END
$$;

SELECT tap_own.refused_with_trigger_on(t) FROM own_tables ORDER BY t::oid;

SELECT ok(NOT (SELECT rolsuper FROM pg_roles WHERE rolname = 'tap_own_att')
          AND NOT EXISTS (SELECT FROM tap_own.secret),
          'the attacker''s trigger never ran: it is no superuser and wrote nothing');
SELECT ok((SELECT count(*) FROM own_tables) >= 5
          AND (SELECT bool_and(t::text IN (SELECT t::text FROM own_tables))
                 FROM unnest(ARRAY['partmgr.part_config', 'partmgr.part_config_sub',
                                   'partmgr.maintenance_log', 'partmgr.part_config_interval',
                                   'partmgr.reshape_operation']) t),
          'the tables covered include the five 0.7.0 has');

-- with no trigger left, the same call goes through
SELECT lives_ok($$SELECT partmgr.create_parent('tap_own.p', 'id', '10', p_premake => 1)$$,
                'with the triggers gone, create_parent works');

-- no table in schema partmgr escapes the rule: every one is the
-- extension's, or a template table a set names
SELECT is((SELECT string_agg(c.oid::regclass::text, ', ')
             FROM pg_class c
            WHERE c.relnamespace = 'partmgr'::regnamespace AND c.relkind IN ('r', 'p')
              AND c.oid NOT IN (SELECT t FROM own_tables)
              AND c.oid::regclass::text NOT IN (SELECT template_table FROM partmgr.part_config
                                                 WHERE template_table IS NOT NULL)),
          NULL, 'every table of schema partmgr is the extension''s or a set''s template');

-- reshape_operation: a role sees the reshapes of the sets it owns only
CREATE TABLE tap_own.a_set (id bigint NOT NULL) PARTITION BY RANGE (id);
ALTER TABLE tap_own.a_set OWNER TO tap_own_a;
GRANT USAGE ON SCHEMA tap_own TO tap_own_a, tap_own_b;
SELECT ok(partmgr.create_parent('tap_own.a_set', 'id', '10', p_premake => 1, p_start_partition => '0'),
          'a set owned by tap_own_a');
INSERT INTO partmgr.reshape_operation (parent_table, kind, source_tables, target_tables, target_bounds)
VALUES ('tap_own.a_set', 'split', '{tap_own.a_set_p0}', '{a_set_p0,a_set_p5}', '{0,5,10}');
SET LOCAL ROLE tap_own_b;
SELECT is((SELECT count(*)::int FROM partmgr.reshape_operation), 0,
          'a role without the owner''s privileges sees none of its set''s reshapes');
RESET ROLE;
SET LOCAL ROLE tap_own_a;
SELECT is((SELECT string_agg(parent_table || ' ' || kind, ',') FROM partmgr.reshape_operation),
          'tap_own.a_set split', 'the owner sees its set''s reshape');
RESET ROLE;
SET LOCAL ROLE tap_own_b;
DELETE FROM partmgr.reshape_operation;
RESET ROLE;
SELECT is((SELECT count(*)::int FROM partmgr.reshape_operation), 1,
          'and the other role cannot delete it');

SELECT * FROM finish();
ROLLBACK;
