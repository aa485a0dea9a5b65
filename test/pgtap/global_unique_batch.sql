-- pgTAP tests of the batched entry of new keys of global unique constraints:
-- a statement's new keys are kept while its row triggers fire and entered
-- together at its end (and whenever 10000, or 8 MB of them, are kept).
-- Whatever the load (INSERT ... SELECT, COPY, more than one batch, keys out
-- of order), every row has its entry and every entry its row; a duplicate
-- in any batch rolls the whole statement back, its detail showing the key
-- only to a role that may see it; savepoints and exception blocks drop
-- exactly what they roll back, also when user code in an exception block
-- removes a row whose key a batch still keeps; rows moved or rekeyed by a
-- multi-row UPDATE keep the side table right; and a side table changed
-- while a statement runs stops the statement instead of writing past its
-- new trigger or index.
BEGIN;
SET search_path = public;
SET client_min_messages = warning;

SELECT plan(35);

CREATE ROLE gb_alice LOGIN;
CREATE ROLE gb_bob LOGIN;
CREATE SCHEMA gb AUTHORIZATION gb_alice;
GRANT USAGE, CREATE ON SCHEMA partmgr TO gb_alice;
GRANT SELECT, INSERT, UPDATE, DELETE ON partmgr.part_config,
      partmgr.part_config_sub, partmgr.part_config_interval, partmgr.maintenance_log TO gb_alice;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA partmgr TO gb_alice;
GRANT USAGE ON SCHEMA gb TO gb_bob;
GRANT pg_execute_server_program TO gb_alice;

SET ROLE gb_alice;
CREATE TABLE gb.t (k bigint, created_at timestamptz NOT NULL, note text) PARTITION BY RANGE (created_at);
SELECT partmgr.create_parent('gb.t', 'created_at', '1 day', p_start_partition => '2026-12-01',
                             p_premake => 9);
SELECT partmgr.create_global_unique('gb.t', ARRAY['k']);
GRANT INSERT ON gb.t TO gb_bob;

-- every row with its entry, naming its child, and no entry without its row
CREATE FUNCTION gb.consistent() RETURNS boolean LANGUAGE sql AS $f$
    SELECT NOT EXISTS (SELECT k, tableoid::regclass FROM gb.t WHERE k IS NOT NULL
                       EXCEPT ALL SELECT k, child FROM gb.t_k_gkey)
       AND NOT EXISTS (SELECT k, child FROM gb.t_k_gkey
                       EXCEPT ALL SELECT k, tableoid::regclass FROM gb.t WHERE k IS NOT NULL)
$f$;
CREATE FUNCTION gb.detail_of(sql text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE d text;
BEGIN
    EXECUTE sql;
    RETURN NULL;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL;
    RETURN d;
END $f$;
GRANT EXECUTE ON FUNCTION gb.detail_of(text) TO gb_bob;

-- == loads of more than one batch ==
SELECT lives_ok($$INSERT INTO gb.t SELECT g, '2026-12-01'::timestamptz + (g % 10) * interval '1 day'
                    FROM generate_series(1, 25000) g ORDER BY random()$$,
    'INSERT ... SELECT of 25000 rows, keys at random, into 10 children');
SELECT is((SELECT count(*)::int FROM gb.t_k_gkey), 25000, 'one entry per row');
SELECT ok(gb.consistent(), 'each naming the child that holds its row');
SELECT lives_ok($$COPY gb.t (k, created_at) FROM PROGRAM
                    'seq 30001 42000 | awk ''{ printf "%d,2026-12-0%d\n", $1, $1 % 9 + 1 }''' CSV$$,
    'COPY of 12000 rows');
SELECT is((SELECT count(*)::int FROM gb.t_k_gkey), 37000, 'every COPYed row has its entry too');
SELECT ok(gb.consistent(), 'naming its child');
SELECT lives_ok($$INSERT INTO gb.t SELECT NULL, '2026-12-02' FROM generate_series(1, 3)$$,
    'rows with a NULL key');
SELECT is((SELECT count(*)::int FROM gb.t_k_gkey), 37000, 'have no entry');

-- == duplicates: the whole statement goes ==
SELECT throws_ok($$INSERT INTO gb.t SELECT g, '2026-12-05' FROM generate_series(50001, 75000) g
                   UNION ALL SELECT 777, '2026-12-09'::timestamptz$$,
    '23505', 'duplicate key value violates global unique constraint "t_k_gkey"',
    'a key already held, in the last of three batches: 23505');
SELECT is((SELECT count(*)::int FROM gb.t_k_gkey), 37000,
    'the entries of the batches entered before it are rolled back with the rows');
SELECT is((SELECT count(*)::int FROM gb.t WHERE k > 50000), 0, 'and so are the rows');
SELECT throws_ok($$INSERT INTO gb.t SELECT g, '2026-12-05' FROM generate_series(60001, 75000) g
                   UNION ALL SELECT 60003, '2026-12-08'::timestamptz$$,
    '23505', NULL, 'a key twice in one statement, in different batches: 23505');
SELECT is(gb.detail_of($$INSERT INTO gb.t VALUES (80001, '2026-12-03'), (80002, '2026-12-03'), (80001, '2026-12-04')$$),
    'Key (k)=(80001) already exists in partition gb.t_p20261203.',
    'the detail names the key and the child holding it');
SELECT ok(gb.consistent(), 'nothing of the failed statements is left');

RESET ROLE;
SET ROLE gb_bob;
SELECT is(gb.detail_of($$INSERT INTO gb.t VALUES (90001, '2026-12-03'), (90002, '2026-12-03'), (5, '2026-12-04')$$),
    'The key already exists in partition gb.t_p20261206.',
    'a role that may not SELECT the key: the detail leaves it out');
SELECT throws_ok($$SELECT * FROM gb.t_k_gkey$$, '42501', NULL, 'and it cannot read the side table');
RESET ROLE;
SET ROLE gb_alice;
SELECT is((SELECT count(*)::int FROM gb.t WHERE k > 90000), 0, 'its failed statement left no row');

-- == savepoints ==
SAVEPOINT before_load;
INSERT INTO gb.t SELECT g, '2026-12-07' FROM generate_series(100001, 115000) g;
ROLLBACK TO SAVEPOINT before_load;
SELECT is((SELECT count(*)::int FROM gb.t_k_gkey WHERE k > 100000), 0,
    'ROLLBACK TO SAVEPOINT drops the entries of 15000 rows');
SELECT lives_ok($$INSERT INTO gb.t SELECT g, '2026-12-08' FROM generate_series(100001, 115000) g$$,
    'whose keys are free again');
SELECT ok(gb.consistent(), 'and are entered once');

-- == user code removing rows whose keys a batch keeps ==
-- rows 200001..200010 come first, 300001..300010 after them; the trigger of
-- each later row deletes its earlier partner, in an exception block that
-- rolls back for even keys
CREATE FUNCTION gb.partner() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
    IF NEW.k > 300000 THEN
        BEGIN
            DELETE FROM gb.t WHERE k = NEW.k - 100000;
            IF NEW.k % 2 = 0 THEN
                RAISE EXCEPTION 'undo';
            END IF;
        EXCEPTION WHEN raise_exception THEN
            NULL;
        END;
    END IF;
    RETURN NULL;
END $f$;
CREATE TRIGGER zz_partner AFTER INSERT ON gb.t FOR EACH ROW EXECUTE FUNCTION gb.partner();
SELECT lives_ok($$INSERT INTO gb.t SELECT g, '2026-12-03'::timestamptz FROM generate_series(200001, 200010) g
                  UNION ALL SELECT g, '2026-12-04'::timestamptz FROM generate_series(300001, 300010) g$$,
    'a statement whose trigger deletes rows it inserted, in exception blocks');
SELECT results_eq($$SELECT k FROM gb.t WHERE k BETWEEN 200001 AND 200010 ORDER BY k$$,
    $$VALUES (200002::bigint), (200004), (200006), (200008), (200010)$$,
    'the deletes of the blocks that committed stand');
SELECT ok(gb.consistent(), 'the rows deleted have no entry, those kept by a rolled-back block have theirs');
SELECT lives_ok($$INSERT INTO gb.t VALUES (200001, '2026-12-09')$$, 'a deleted row''s key is free');
SELECT throws_ok($$INSERT INTO gb.t VALUES (200002, '2026-12-09')$$, '23505', NULL,
    'a kept row''s key is not');
DROP TRIGGER zz_partner ON gb.t;
-- the same without an exception block: the statement's own batch is
-- entered before the delete
CREATE FUNCTION gb.partner_plain() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
    IF NEW.k > 500000 THEN
        DELETE FROM gb.t WHERE k = NEW.k - 100000;
    END IF;
    RETURN NULL;
END $f$;
CREATE TRIGGER zz_partner AFTER INSERT ON gb.t FOR EACH ROW EXECUTE FUNCTION gb.partner_plain();
SELECT lives_ok($$INSERT INTO gb.t SELECT g, '2026-12-03'::timestamptz FROM generate_series(400001, 400010) g
                  UNION ALL SELECT g, '2026-12-04'::timestamptz FROM generate_series(500001, 500010) g$$,
    'a statement whose trigger deletes rows it inserted');
SELECT is((SELECT count(*)::int FROM gb.t WHERE k BETWEEN 400001 AND 400010), 0, 'they are gone');
SELECT ok(gb.consistent(), 'with their entries');
DROP TRIGGER zz_partner ON gb.t;

-- == multi-row UPDATEs ==
SELECT lives_ok($$UPDATE gb.t SET created_at = created_at + interval '1 day'
                   WHERE k BETWEEN 1 AND 5000 AND created_at < '2026-12-10'$$,
    'an UPDATE moving rows to other children');
SELECT ok(gb.consistent(), 'their entries name their new children');
SELECT lives_ok($$UPDATE gb.t SET k = k + 10000000 WHERE k BETWEEN 30001 AND 42000$$,
    'an UPDATE of the key of 12000 rows');
SELECT ok(gb.consistent(), 'their entries have the new keys');

-- == the side table changed while a statement runs ==
CREATE FUNCTION gb.audit() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
    RETURN NULL;
END $f$;
CREATE FUNCTION gb.add_side_trigger() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
    IF NEW.k = 600001 THEN
        CREATE TRIGGER audit AFTER INSERT ON gb.t_k_gkey FOR EACH ROW EXECUTE FUNCTION gb.audit();
    END IF;
    RETURN NULL;
END $f$;
CREATE TRIGGER zz_side AFTER INSERT ON gb.t FOR EACH ROW EXECUTE FUNCTION gb.add_side_trigger();
SELECT throws_ok($$INSERT INTO gb.t SELECT g, '2026-12-05' FROM generate_series(600001, 600100) g$$,
    '55000', 'side table gb.t_k_gkey of global unique constraint "t_k_gkey" changed while the statement ran',
    'a trigger added to the side table by the statement''s own trigger stops it: 55000');
SELECT is((SELECT count(*)::int FROM pg_trigger WHERE tgrelid = 'gb.t_k_gkey'::regclass), 0,
    'and is rolled back with it');
DROP TRIGGER zz_side ON gb.t;
SELECT ok(gb.consistent(), 'the side table is as before');

SELECT * FROM finish();
ROLLBACK;
