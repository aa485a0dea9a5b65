-- pgTAP tests that no role gains a set owner's rights through a table of
-- the set it owns, or learns of another owner's sets:
--   * a child or default partition another role owns (a superuser gave it
--     away) is not acted on: maintenance, partition_data, retention and
--     undo refuse it (42501) before that role's trigger can run with the
--     set owner's rights; health shows it; plan_maintenance says a run
--     would refuse it; given back (by hand, or by reapply_privileges),
--     the set is maintained again;
--   * a set owner without USAGE on schema partmgr: a superuser maintains
--     the set, but a reshape or a global unique constraint (their triggers
--     call functions of schema partmgr, looked up with the owner's rights)
--     is refused before anything is registered or made;
--   * global_unique_constraints shows a role only the constraints of sets
--     whose owner's privileges it has.
BEGIN;
SET search_path = public;
SET client_min_messages = warning;

SELECT plan(24);

CREATE ROLE tap_or_owner NOSUPERUSER;
CREATE ROLE tap_or_other NOSUPERUSER;
CREATE SCHEMA orx AUTHORIZATION tap_or_owner;
CREATE SCHEMA orx_other AUTHORIZATION tap_or_other;
GRANT USAGE ON SCHEMA orx TO tap_or_other;
GRANT USAGE ON SCHEMA orx_other TO tap_or_owner;
-- what the other role's code would do with the set owner's rights
CREATE TABLE orx.private (who text);
ALTER TABLE orx.private OWNER TO tap_or_owner;

SET ROLE tap_or_owner;
CREATE TABLE orx.t (id bigint PRIMARY KEY, email text NOT NULL) PARTITION BY RANGE (id);
RESET ROLE;
SELECT ok(partmgr.create_parent('orx.t', 'id', '100', p_premake => 2, p_start_partition => '0'),
          'a superuser registers a set of a role without any grant on schema partmgr');
INSERT INTO orx.t SELECT g, 'e' || g FROM generate_series(0, 499) g;

-- == a default partition another role owns ==
ALTER TABLE orx.t_default OWNER TO tap_or_other;
GRANT ALL ON orx.t_default TO tap_or_owner;
SET ROLE tap_or_other;
CREATE FUNCTION orx_other.steal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO orx.private VALUES (current_user);
    RETURN OLD;
END
$$;
CREATE TRIGGER steal BEFORE DELETE ON orx.t_default FOR EACH ROW EXECUTE FUNCTION orx_other.steal();
RESET ROLE;

SELECT throws_ok($$SELECT partmgr.partition_data_id('orx.t', p_batch_count => 10)$$,
                 '42501', 'table orx.t_default is owned by role "tap_or_other", not by "tap_or_owner", the owner of the set',
                 'partition_data_id out of a default partition another role owns is refused');
SELECT throws_ok($$SELECT partmgr.run_maintenance('orx.t')$$,
                 '42501', 'table orx.t_default is owned by role "tap_or_other", not by "tap_or_owner", the owner of the set',
                 'so is the maintenance of the set, which locks the default to make children');
SELECT is((SELECT count(*)::int FROM orx.private), 0, 'the other role''s trigger never ran');
SELECT is((SELECT count(*)::int FROM ONLY orx.t_default), 200, 'the default keeps its rows');
SELECT is((SELECT status FROM partmgr.health WHERE parent_table = 'orx.t'), 'critical',
          'health: the set is critical');
SELECT matches((SELECT reason FROM partmgr.health WHERE parent_table = 'orx.t'),
               '1 table of the set is owned by another role than the set''s owner \(orx.t_default, by role tap_or_other\)',
               'health names the table and its owner');
SELECT matches((SELECT string_agg(note, ' | ') FROM partmgr.plan_maintenance('orx.t')),
               'a run would refuse it: table orx.t_default is owned by role "tap_or_other"',
               'plan_maintenance says a run would refuse it');

ALTER TABLE orx.t_default OWNER TO tap_or_owner;
DROP TRIGGER steal ON orx.t_default;
SELECT is(partmgr.partition_data_id('orx.t', p_batch_count => 10), 200::bigint,
          'given back to the set''s owner, the default''s rows are moved');
SELECT is((SELECT count(*)::int FROM orx.t), 500, 'every row is in the set');

-- == a child another role owns ==
ALTER TABLE orx.t_p0 OWNER TO tap_or_other;
GRANT ALL ON orx.t_p0 TO tap_or_owner;
CREATE TABLE orx.t_undo (id bigint, email text);
ALTER TABLE orx.t_undo OWNER TO tap_or_owner;
SELECT throws_ok($$SELECT * FROM partmgr.undo_partition('orx.t', p_target_table => 'orx.t_undo',
                                                         p_keep_table => false, p_loop_count => 10)$$,
                 '42501', 'table orx.t_p0 is owned by role "tap_or_other", not by "tap_or_owner", the owner of the set',
                 'undo_partition of a set with a child another role owns is refused');
SELECT is((SELECT count(*)::int FROM orx.t_undo), 0, 'nothing reached the target');
UPDATE partmgr.part_config SET retention = '100', retention_keep_table = false
 WHERE parent_table = 'orx.t';
SELECT throws_ok($$SELECT partmgr.run_maintenance('orx.t')$$,
                 '42501', 'table orx.t_p0 is owned by role "tap_or_other", not by "tap_or_owner", the owner of the set',
                 'retention of a child another role owns is refused');
SELECT is((SELECT count(*)::int FROM orx.t_p0), 100, 'the child and its rows stay');
SELECT lives_ok($$SELECT partmgr.reapply_privileges('orx.t')$$,
                'reapply_privileges gives the child back to the set''s owner');
SELECT is((SELECT relowner::regrole::text FROM pg_class WHERE oid = 'orx.t_p0'::regclass),
          'tap_or_owner', 'the child is the owner''s again');
SELECT ok((SELECT bool_and(has_table_privilege('tap_or_owner', 'orx.t_p0', p))
             FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) p),
          'with every privilege of an owner: what was granted to it before is not revoked');
UPDATE partmgr.part_config SET retention = NULL WHERE parent_table = 'orx.t';

-- == an owner without USAGE on schema partmgr ==
SELECT throws_ok($$CALL partmgr.split_partition('orx.t_p100', '50', p_quiet => true)$$,
                 '42501', 'role "tap_or_owner", which owns "orx.t", may not use schema "partmgr"',
                 'a superuser''s split_partition of the set is refused, with the grant to make');
SELECT is((SELECT count(*)::int FROM partmgr.reshape_operation WHERE parent_table = 'orx.t'), 0,
          'and nothing is registered');
SELECT throws_ok($$SELECT partmgr.create_global_unique('orx.t', ARRAY['email'])$$,
                 '42501', 'role "tap_or_owner", which owns "orx.t", may not use schema "partmgr"',
                 'so is create_global_unique');
SELECT is((SELECT count(*)::int FROM pg_trigger WHERE tgrelid = 'orx.t'::regclass), 0,
          'and no trigger is made');

-- == global_unique_constraints ==
GRANT USAGE ON SCHEMA partmgr TO tap_or_owner, tap_or_other;
SELECT lives_ok($$SELECT partmgr.create_global_unique('orx.t', ARRAY['email'])$$,
                'with USAGE on schema partmgr, the constraint is made');
SET ROLE tap_or_other;
SELECT is((SELECT count(*)::int FROM partmgr.global_unique_constraints), 0,
          'another role does not see the constraint, its key columns or its side table');
RESET ROLE;
SET ROLE tap_or_owner;
SELECT results_eq($$SELECT parent_table::text, columns, waiting_cleanup FROM partmgr.global_unique_constraints$$,
                  $$VALUES ('orx.t', ARRAY['email'], 0::bigint)$$,
                  'the owner sees it, with the entries that wait for cleanup');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
