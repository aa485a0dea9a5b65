-- pgTAP tests of global unique constraints (create_global_unique and the
-- rest): every way a row gets into a set or leaves it keeps the side table
-- right, duplicates are refused with 23505 naming the constraint, the key
-- and the child, every bad input gets its own SQLSTATE and leaves nothing
-- behind, and a plain role can make the triggers write nobody's table but
-- its own.
BEGIN;
SET search_path = public;
SET client_min_messages = warning;

SELECT plan(133);

CREATE ROLE gu_alice LOGIN;
CREATE ROLE gu_bob LOGIN;
CREATE SCHEMA gu AUTHORIZATION gu_alice;
GRANT USAGE, CREATE ON SCHEMA partmgr TO gu_alice, gu_bob;
GRANT SELECT, INSERT, UPDATE, DELETE ON partmgr.part_config,
      partmgr.part_config_sub, partmgr.part_config_interval, partmgr.maintenance_log TO gu_alice, gu_bob;
GRANT SELECT ON partmgr.health TO gu_alice;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA partmgr TO gu_alice, gu_bob;
GRANT CREATE ON SCHEMA public TO gu_bob;
GRANT USAGE ON SCHEMA gu TO gu_bob;

SET ROLE gu_alice;
CREATE TABLE gu.orders (id bigint, order_no text, region int, created_at timestamptz NOT NULL,
                        pt point) PARTITION BY RANGE (created_at);
SELECT partmgr.create_parent('gu.orders', 'created_at', '1 day', p_start_partition => '2026-12-01',
                             p_premake => 3);
INSERT INTO gu.orders SELECT g, 'o' || g, g % 3, '2026-12-01'::timestamptz + g * interval '2 hours'
  FROM generate_series(1, 40) g;

-- == bad input: each with its SQLSTATE, nothing left behind ==
SELECT throws_ok($$SELECT partmgr.create_global_unique('gu.orders', ARRAY['nope'])$$,
    '42703', NULL, 'a missing column: 42703');
SELECT throws_ok($$SELECT partmgr.create_global_unique('gu.orders', ARRAY['ctid'])$$,
    '0A000', NULL, 'a system column: 0A000');
SELECT throws_ok($$SELECT partmgr.create_global_unique('gu.orders', ARRAY['order_no', 'order_no'])$$,
    '42701', NULL, 'a column named twice: 42701');
SELECT throws_ok($$SELECT partmgr.create_global_unique('gu.orders', ARRAY['pt'])$$,
    '42704', 'data type point of column "pt" has no default operator class for access method "btree"',
    'a type without a btree operator class: 42704');
SELECT throws_ok($$SELECT partmgr.create_global_unique('gu.orders', ARRAY[]::text[])$$,
    '22023', NULL, 'no column: 22023');
SELECT throws_ok($$SELECT partmgr.create_global_unique('gu.orders', NULL)$$,
    '22004', NULL, 'NULL columns: 22004');
SELECT throws_ok($$SELECT partmgr.create_global_unique('gu.orders', ARRAY['order_no'], repeat('n', 55))$$,
    '42622', NULL, 'a name longer than 54 bytes: 42622');
CREATE TABLE gu.taken (x int);
SELECT throws_ok($$SELECT partmgr.create_global_unique('gu.nothing', ARRAY['order_no'])$$,
    '42P01', NULL, 'a table that does not exist: 42P01');
SELECT throws_ok($$SELECT partmgr.create_global_unique('gu.taken', ARRAY['x'])$$,
    '42704', NULL, 'a table that is no partition set: 42704');
SELECT throws_ok($$SELECT partmgr.create_global_unique('gu.orders', ARRAY['order_no'], 'taken')$$,
    '42P07', NULL, 'a name a relation of the schema has: 42P07');
SELECT is((SELECT count(*)::int FROM pg_trigger WHERE tgrelid = 'gu.orders'::regclass AND NOT tgisinternal),
    0, 'failed calls left no trigger on the parent');

-- duplicates already there: named, nothing made
INSERT INTO gu.orders VALUES (100, 'o7', 1, '2026-12-03 05:00');
SELECT throws_like($$SELECT partmgr.create_global_unique('gu.orders', ARRAY['order_no'])$$,
    '%holds duplicate keys%', 'rows already duplicated: the constraint is refused');
SELECT throws_ok($$SELECT partmgr.create_global_unique('gu.orders', ARRAY['order_no'])$$, '23505', NULL,
    'with 23505');
CREATE FUNCTION gu.detail_of(sql text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE d text;
BEGIN
    EXECUTE sql;
    RETURN NULL;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL;
    RETURN d;
END $f$;
SELECT is(gu.detail_of($$SELECT partmgr.create_global_unique('gu.orders', ARRAY['order_no'])$$),
    'Key (order_no)=(o7) is held by gu.orders_p20261201 and by gu.orders_p20261203.',
    'the detail names the duplicate key and both children');
SELECT is(to_regclass('gu.orders_order_no_gkey'), NULL, 'and no side table is left');
DELETE FROM gu.orders WHERE id = 100;

-- == making it ==
SELECT is(partmgr.create_global_unique('gu.orders', ARRAY['order_no']), 'orders_order_no_gkey',
    'the default name is <parent>_<columns>_gkey');
SELECT is((SELECT relowner::regrole::text FROM pg_class WHERE oid = 'gu.orders_order_no_gkey'::regclass),
    'gu_alice', 'the side table belongs to the set''s owner');
SELECT is((SELECT count(*)::int FROM gu.orders_order_no_gkey), 40, 'every existing row has its entry');
SELECT is((SELECT count(*)::int FROM gu.orders_order_no_gkey g JOIN gu.orders o
             ON o.order_no = g.order_no AND o.tableoid = g.child), 40,
    'each entry names the child holding its row');
SELECT results_eq($$SELECT constraint_name, parent_table::text, columns, side_table::text, state, waiting_cleanup
                      FROM partmgr.global_unique_constraints$$,
    $$VALUES ('orders_order_no_gkey', 'gu.orders', ARRAY['order_no'], 'gu.orders_order_no_gkey', 'enabled', 0::bigint)$$,
    'global_unique_constraints lists it');
SELECT throws_ok($$SELECT partmgr.create_global_unique('gu.orders', ARRAY['id'], 'orders_order_no_gkey')$$,
    '42710', NULL, 'a constraint name taken on the set: 42710');
SELECT results_eq($$SELECT action, object, outcome, run_by FROM partmgr.maintenance_log
                     WHERE parent_table = 'gu.orders' AND action LIKE '%global unique constraint'$$,
    $$VALUES ('create global unique constraint', 'gu.orders_order_no_gkey', 'done', 'create_global_unique')$$,
    'the maintenance log has the constraint''s creation, naming its side table');

-- == INSERT, COPY, UPDATE, DELETE ==
SELECT throws_ok($$INSERT INTO gu.orders VALUES (200, 'o5', 0, '2026-12-03 01:00')$$, '23505',
    'duplicate key value violates global unique constraint "orders_order_no_gkey"',
    'a key another child holds: 23505 naming the constraint');
SELECT is(gu.detail_of($$INSERT INTO gu.orders VALUES (200, 'o5', 0, '2026-12-03 01:00')$$),
    'Key (order_no)=(o5) already exists in partition gu.orders_p20261201.',
    'the detail names the key and the child holding it');
SELECT throws_ok($$INSERT INTO gu.orders VALUES (200, 'o5', 0, '2026-12-01 01:00')$$, '23505', NULL,
    'a key the same child holds: 23505');
SELECT throws_ok($$INSERT INTO gu.orders VALUES (201, 'x1', 0, '2026-12-02'), (202, 'x1', 0, '2026-12-03')$$,
    '23505', NULL, 'two rows of one statement with one key: 23505');
SELECT lives_ok($$INSERT INTO gu.orders VALUES (203, NULL, 0, '2026-12-02'), (204, NULL, 0, '2026-12-03')$$,
    'NULL keys are distinct, as in a unique index');
SELECT is((SELECT count(*)::int FROM gu.orders_order_no_gkey WHERE order_no IS NULL), 0,
    'and get no entry');
RESET ROLE;
SELECT throws_ok($$COPY gu.orders (id, order_no, region, created_at) FROM PROGRAM 'printf "300\to9\t1\t2026-12-03 10:00+00\n"'$$,
    '23505', NULL, 'COPY of a key held elsewhere: 23505');
SELECT lives_ok($$COPY gu.orders (id, order_no, region, created_at) FROM PROGRAM 'printf "301\tc1\t1\t2026-12-03 10:00+00\n"'$$,
    'COPY of a new key works');
SET ROLE gu_alice;
SELECT is((SELECT child::text FROM gu.orders_order_no_gkey WHERE order_no = 'c1'), 'gu.orders_p20261203',
    'and enters it');
SELECT throws_ok($$UPDATE gu.orders SET order_no = 'o1' WHERE order_no = 'o2'$$, '23505', NULL,
    'UPDATE to a key held elsewhere: 23505');
SELECT lives_ok($$UPDATE gu.orders SET order_no = 'o2b' WHERE order_no = 'o2'$$, 'UPDATE to a new key works');
SELECT is((SELECT count(*)::int FROM gu.orders_order_no_gkey WHERE order_no IN ('o2', 'o2b')), 1,
    'the old key left, the new one came');
SELECT lives_ok($$UPDATE gu.orders SET region = 7 WHERE order_no = 'o3'$$, 'UPDATE of other columns works');
SELECT lives_ok($$UPDATE gu.orders SET created_at = '2026-12-04 03:00' WHERE order_no = 'o3'$$,
    'UPDATE moving a row to another child works');
SELECT is((SELECT child::text FROM gu.orders_order_no_gkey WHERE order_no = 'o3'), 'gu.orders_p20261204',
    'and its entry names the new child');
SELECT lives_ok($$DELETE FROM gu.orders WHERE order_no = 'o4'$$, 'DELETE works');
SELECT lives_ok($$INSERT INTO gu.orders VALUES (400, 'o4', 0, '2026-12-04 04:00')$$,
    'and frees the key for another child');
SELECT throws_ok($$INSERT INTO gu.orders VALUES (401, 'o6', 0, '2026-12-04') ON CONFLICT DO NOTHING$$,
    '23505', NULL, 'ON CONFLICT DO NOTHING does not cover the constraint (no arbiter index): 23505');

-- == TRUNCATE ==
SELECT lives_ok($$TRUNCATE gu.orders_p20261202$$, 'TRUNCATE of a child works');
SELECT is((SELECT count(*)::int FROM gu.orders_order_no_gkey WHERE child = 'gu.orders_p20261202'::regclass),
    0, 'and its entries go');
SELECT lives_ok($$INSERT INTO gu.orders VALUES (500, 'o15', 0, '2026-12-01 01:00')$$,
    'a key of the truncated child is free again');

-- == ATTACH, CREATE TABLE PARTITION OF, DETACH ==
CREATE TABLE gu.extra (LIKE gu.orders);
INSERT INTO gu.extra VALUES (600, 'o30', 1, '2026-12-20 01:00'), (601, 'e1', 1, '2026-12-20 02:00');
SELECT throws_ok($$ALTER TABLE gu.orders ATTACH PARTITION gu.extra FOR VALUES FROM ('2026-12-20') TO ('2026-12-21')$$,
    '23505', NULL, 'ATTACH of a table holding a key of the set: 23505');
SELECT is(gu.detail_of($$ALTER TABLE gu.orders ATTACH PARTITION gu.extra FOR VALUES FROM ('2026-12-20') TO ('2026-12-21')$$),
    'Key (order_no)=(o30) is held by gu.orders_p20261203 and by gu.extra.',
    'naming the key and both tables');
SELECT ok(NOT (SELECT relispartition FROM pg_class WHERE oid = 'gu.extra'::regclass), 'the table stays out');
DELETE FROM gu.extra WHERE order_no = 'o30';
SELECT lives_ok($$ALTER TABLE gu.orders ATTACH PARTITION gu.extra FOR VALUES FROM ('2026-12-20') TO ('2026-12-21')$$,
    'ATTACH of a table with new keys works');
SELECT is((SELECT child::text FROM gu.orders_order_no_gkey WHERE order_no = 'e1'), 'gu.extra',
    'its keys are entered');
SELECT isnt(to_regclass('gu.extra'), NULL, 'and it is in the set');
SELECT ok(EXISTS (SELECT FROM pg_trigger WHERE tgrelid = 'gu.extra'::regclass
                     AND tgname = 'orders_order_no_gkey_truncate'), 'and has the TRUNCATE trigger');
SELECT throws_ok($$INSERT INTO gu.orders VALUES (602, 'e1', 0, '2026-12-01')$$, '23505', NULL,
    'its keys count');
CREATE TABLE gu.made PARTITION OF gu.orders FOR VALUES FROM ('2026-12-21') TO ('2026-12-22');
SELECT ok(EXISTS (SELECT FROM pg_trigger WHERE tgrelid = 'gu.made'::regclass
                     AND tgname = 'orders_order_no_gkey_truncate'), 'CREATE TABLE ... PARTITION OF gets the TRUNCATE trigger');
SELECT throws_ok($$INSERT INTO gu.made VALUES (700, 'e1', 0, '2026-12-21')$$, '23505', NULL,
    'and the row trigger');
-- a sub-partitioned child: every level
CREATE TABLE gu.sub PARTITION OF gu.orders FOR VALUES FROM ('2026-12-22') TO ('2026-12-23') PARTITION BY LIST (region);
CREATE TABLE gu.sub_a PARTITION OF gu.sub FOR VALUES IN (1);
CREATE TABLE gu.sub_b PARTITION OF gu.sub DEFAULT;
SELECT lives_ok($$INSERT INTO gu.orders VALUES (800, 's1', 1, '2026-12-22 01:00')$$, 'a row two levels down');
SELECT throws_ok($$INSERT INTO gu.orders VALUES (801, 's1', 2, '2026-12-22 02:00')$$, '23505', NULL,
    'its key counts in a sibling two levels down');
SELECT throws_ok($$INSERT INTO gu.orders VALUES (802, 's1', 2, '2026-12-01 02:00')$$, '23505', NULL,
    'and one level up');
SELECT lives_ok($$TRUNCATE gu.sub$$, 'TRUNCATE of a sub-parent');
SELECT is((SELECT count(*)::int FROM gu.orders_order_no_gkey WHERE child = 'gu.sub_a'::regclass), 0,
    'removes the entries of its leaves');

ALTER TABLE gu.orders DETACH PARTITION gu.extra;
SELECT is((SELECT waiting_cleanup FROM partmgr.global_unique_constraints), 1::bigint,
    'the entries of a detached table wait for cleanup');
SELECT lives_ok($$INSERT INTO gu.orders VALUES (900, 'e1', 0, '2026-12-01 03:00')$$,
    'and no longer count: an insert of such a key works');
SELECT is((SELECT child::text FROM gu.orders_order_no_gkey WHERE order_no = 'e1'), 'gu.orders_p20261201',
    'the stale entry was replaced');
DELETE FROM gu.extra WHERE order_no = 'e1';
INSERT INTO gu.extra VALUES (603, 'e2', 1, '2026-12-20 03:00');
ALTER TABLE gu.orders ATTACH PARTITION gu.extra FOR VALUES FROM ('2026-12-20') TO ('2026-12-21');
ALTER TABLE gu.orders DETACH PARTITION gu.extra;
SELECT is(partmgr.global_unique_cleanup('gu.orders'), 1::bigint, 'global_unique_cleanup removes them');
SELECT is((SELECT waiting_cleanup FROM partmgr.global_unique_constraints), 0::bigint, 'none wait then');

-- == maintenance: retention and partition_data ==
INSERT INTO gu.orders VALUES (1000, 'd1', 0, '2027-02-01'), (1001, 'd2', 0, '2027-02-02');
SELECT is((SELECT child::text FROM gu.orders_order_no_gkey WHERE order_no = 'd1'), 'gu.orders_default',
    'a row in the default partition has its entry');
CALL partmgr.partition_data_proc('gu.orders');
SELECT is((SELECT child::text FROM gu.orders_order_no_gkey WHERE order_no = 'd1'), 'gu.orders_p20270201',
    'partition_data_proc moves the entry with the row');
SELECT is((SELECT count(*)::int FROM gu.orders_order_no_gkey WHERE child = 'gu.orders_default'::regclass), 0,
    'and leaves none of the default');
-- children ending by 2026-12-03 expire, whatever the date the test runs on
-- (a retention relative to now(), which is fixed inside the test's transaction)
UPDATE partmgr.part_config
   SET retention = (date_trunc('second', now()) - '2026-12-03 00:00:01+00'::timestamptz)::text,
       retention_keep_table = false
 WHERE parent_table = 'gu.orders';
SELECT partmgr.run_maintenance('gu.orders');
SELECT is(to_regclass('gu.orders_p20261201'), NULL, 'retention dropped the old children');
SELECT lives_ok($$INSERT INTO gu.orders VALUES (1100, 'o1', 0, '2027-02-01 05:00')$$,
    'a key of a dropped child is free at once');
SELECT cmp_ok((SELECT waiting_cleanup FROM partmgr.global_unique_constraints), '>', 0::bigint,
    'the entries of the children it retired wait for the next run (not to hold retention''s locks longer)');
CREATE TABLE gu.later PARTITION OF gu.orders FOR VALUES FROM ('2026-12-23') TO ('2026-12-24');
INSERT INTO gu.orders VALUES (1200, 'l1', 0, '2026-12-23 01:00');
ALTER TABLE gu.orders DETACH PARTITION gu.later;
SELECT is((SELECT count(*)::int FROM partmgr.plan_maintenance('gu.orders')
            WHERE action = 'remove global unique entries' AND object = 'gu.orders_order_no_gkey'
              AND statements[1] LIKE 'DELETE FROM gu.orders_order_no_gkey WHERE ctid%'),
    (SELECT count(DISTINCT child)::int FROM gu.orders_order_no_gkey
      WHERE child NOT IN (SELECT relid FROM pg_partition_tree('gu.orders'))),
    'plan_maintenance shows the removal of the entries of each child gone, the detached one too');
SELECT partmgr.run_maintenance('gu.orders');
SELECT is((SELECT waiting_cleanup FROM partmgr.global_unique_constraints), 0::bigint,
    'and the next run removes them');
SELECT ok(EXISTS (SELECT FROM partmgr.maintenance_log WHERE parent_table = 'gu.orders'
                     AND action = 'remove global unique entries' AND outcome = 'done'
                     AND object = 'gu.orders_order_no_gkey'),
    'and logs it');
SELECT is((SELECT count(*)::int FROM pg_partition_tree('gu.orders') p
            WHERE p.isleaf AND NOT EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = p.relid
                                           AND t.tgname = 'orders_order_no_gkey_truncate')), 0,
    'every leaf, those partition_data and maintenance made too, has the TRUNCATE trigger');

-- == check_children, reapply_child_properties, health, the dump ==
SELECT is((SELECT count(*)::int FROM partmgr.check_children('gu.orders')
            WHERE property = 'global unique TRUNCATE trigger'), 0,
    'check_children: every leaf has the TRUNCATE trigger');
DROP TRIGGER orders_order_no_gkey_truncate ON gu.orders_p20270202;
SELECT results_eq($$SELECT child_table, expected, actual FROM partmgr.check_children('gu.orders')
                     WHERE property = 'global unique TRUNCATE trigger'$$,
    $$VALUES ('gu.orders_p20270202'::text, 'orders_order_no_gkey_truncate'::text, 'none'::text)$$,
    'check_children names a leaf without it');
SELECT matches((SELECT reason FROM partmgr.health WHERE parent_table = 'gu.orders'),
    'global unique constraint orders_order_no_gkey: 1 children lack its TRUNCATE trigger',
    'health warns about it');
SELECT partmgr.reapply_child_properties('gu.orders');
SELECT ok(EXISTS (SELECT FROM pg_trigger WHERE tgrelid = 'gu.orders_p20270202'::regclass
                     AND tgname = 'orders_order_no_gkey_truncate'),
    'reapply_child_properties gives it back');
ALTER TABLE gu.orders DISABLE TRIGGER orders_order_no_gkey;
SELECT is((SELECT state FROM partmgr.global_unique_constraints WHERE constraint_name = 'orders_order_no_gkey'),
    'disabled', 'global_unique_constraints shows a disabled constraint');
SELECT is((SELECT status FROM partmgr.health WHERE parent_table = 'gu.orders'), 'critical',
    'health: a disabled constraint is critical');
SELECT matches((SELECT reason FROM partmgr.health WHERE parent_table = 'gu.orders'),
    'global unique constraint orders_order_no_gkey is disabled: rows are written unchecked',
    'and says why');
ALTER TABLE gu.orders ENABLE TRIGGER orders_order_no_gkey;
ALTER TABLE gu.orders_p20270202 DISABLE TRIGGER orders_order_no_gkey;
SELECT matches((SELECT reason FROM partmgr.health WHERE parent_table = 'gu.orders'),
    'global unique constraint orders_order_no_gkey is disabled on 1 children',
    'health: disabled on one child is said too');
ALTER TABLE gu.orders_p20270202 ENABLE TRIGGER orders_order_no_gkey;
SELECT ok(partmgr.dump_partitioned_table_definition('gu.orders') LIKE
    E'%\nSELECT partmgr.create_global_unique(p_parent_table := ''gu.orders'', p_columns := ARRAY[''order_no''], p_name := ''orders_order_no_gkey'');',
    'dump_partitioned_table_definition makes the constraint again');

-- == key columns cannot change under the constraint ==
SELECT throws_ok($$ALTER TABLE gu.orders RENAME COLUMN order_no TO ono$$, '0A000', NULL,
    'renaming a key column: 0A000');
SELECT throws_ok($$ALTER TABLE gu.orders ALTER COLUMN order_no TYPE varchar(20)$$, '0A000', NULL,
    'retyping a key column: 0A000');
SELECT throws_ok($$ALTER TABLE gu.orders DROP COLUMN order_no$$, '0A000', NULL,
    'dropping a key column: 0A000');

-- == another role ==
RESET ROLE;
GRANT SELECT, INSERT ON gu.orders TO gu_bob;
SET ROLE gu_bob;
SELECT throws_ok($$SELECT partmgr.create_global_unique('gu.orders', ARRAY['id'])$$, '42501', NULL,
    'another role cannot make a constraint on the set');
SELECT throws_ok($$SELECT partmgr.drop_global_unique('gu.orders', 'orders_order_no_gkey')$$, '42501', NULL,
    'nor drop one');
SELECT throws_ok($$INSERT INTO gu.orders_order_no_gkey VALUES ('forged', 'gu.orders_default')$$, '42501', NULL,
    'nor write the side table');
SELECT throws_ok($$INSERT INTO gu.orders VALUES (2000, 'o30', 0, '2026-12-04')$$, '23505', NULL,
    'a role allowed to insert meets the constraint (the trigger acts as the owner)');
SELECT lives_ok($$INSERT INTO gu.orders VALUES (2001, 'bob1', 0, '2026-12-04')$$,
    'and its new keys are entered');
RESET ROLE;
REVOKE SELECT ON gu.orders FROM gu_bob;
SET ROLE gu_bob;
SELECT is(gu.detail_of($$INSERT INTO gu.orders VALUES (2002, 'o30', 0, '2026-12-04')$$),
    'The key already exists in partition gu.orders_p20261203.',
    'without SELECT on the table the detail leaves the key out, as PostgreSQL does');
CREATE TABLE public.gu_bobs (order_no text);
CREATE TRIGGER forge AFTER INSERT ON public.gu_bobs FOR EACH ROW
    EXECUTE FUNCTION partmgr.global_unique_row('gu', 'orders_order_no_gkey', 'order_no');
SELECT throws_ok($$INSERT INTO public.gu_bobs VALUES ('forged')$$, '42501', NULL,
    'a trigger of another role naming the side table: 42501, nothing written');
DROP TABLE public.gu_bobs;
RESET ROLE;
SELECT is((SELECT count(*)::int FROM gu.orders_order_no_gkey WHERE order_no = 'forged'), 0,
    'the side table holds no forged entry');
SET ROLE gu_alice;

-- == a side table that runs code: written by SQL with the owner's rights ==
CREATE TABLE gu.audit (who text, path text);
CREATE FUNCTION gu.audit_entry() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
    INSERT INTO gu.audit VALUES (current_user, current_setting('search_path'));
    RETURN NULL;
END $f$;
CREATE TRIGGER audit AFTER INSERT ON gu.orders_order_no_gkey FOR EACH ROW EXECUTE FUNCTION gu.audit_entry();
RESET ROLE;
SET ROLE gu_bob;
SELECT lives_ok($$INSERT INTO gu.orders VALUES (2100, 'bob2', 0, '2026-12-04')$$,
    'with a trigger on the side table, inserts still work');
SELECT throws_ok($$INSERT INTO gu.orders VALUES (2101, 'bob2', 0, '2026-12-04')$$, '23505', NULL,
    'and duplicates are still refused');
RESET ROLE;
SELECT results_eq($$SELECT who, path FROM gu.audit$$, $$VALUES ('gu_alice'::text, 'pg_catalog, pg_temp'::text)$$,
    'the side table''s trigger ran as its owner, search_path pinned, not as the inserting role');
SET ROLE gu_alice;
DROP TRIGGER audit ON gu.orders_order_no_gkey;

-- == foreign keys referencing the side table ==
CREATE TABLE gu.fk (k int, ts timestamptz NOT NULL) PARTITION BY RANGE (ts);
SELECT partmgr.create_parent('gu.fk', 'ts', '1 day', p_start_partition => '2026-11-01', p_premake => 1);
INSERT INTO gu.fk SELECT g, '2026-11-01'::timestamptz + g * interval '1 hour' FROM generate_series(1, 30) g;
SELECT partmgr.create_global_unique('gu.fk', ARRAY['k'], 'fk_k');
CREATE TABLE gu.ref_na (k int REFERENCES gu.fk_k (k));
INSERT INTO gu.ref_na VALUES (3);
SELECT throws_ok($$INSERT INTO gu.ref_na VALUES (999)$$, '23503', NULL,
    'a foreign key on the side table refuses a key the set does not hold');
SELECT throws_ok($$DELETE FROM gu.fk WHERE k = 3$$, '23503', NULL,
    'NO ACTION: deleting a referenced row of the set is refused');
SELECT throws_ok($$UPDATE gu.fk SET k = 1003 WHERE k = 3$$, '23503', NULL,
    'and so is changing its key');
UPDATE partmgr.part_config SET retention = '1 day', retention_keep_table = false WHERE parent_table = 'gu.fk';
SET client_min_messages = error;   -- the WARNING of the kept child is checked in the log below
SELECT partmgr.run_maintenance('gu.fk');
SET client_min_messages = warning;
SELECT isnt(to_regclass('gu.fk_p20261101'), NULL,
    'NO ACTION: retention keeps a child holding a referenced key');
SELECT is((SELECT sqlstate FROM partmgr.maintenance_log
            WHERE parent_table = 'gu.fk' AND object = 'gu.fk_p20261101' AND outcome <> 'done'
            ORDER BY log_id DESC LIMIT 1), '23503',
    'and logs the foreign key''s refusal');
SELECT is(to_regclass('gu.fk_p20261102'), NULL, 'a child with no referenced key is retired');
SELECT is((SELECT count(*)::int FROM gu.fk_k WHERE child = 'gu.fk_p20261101'::regclass), 23,
    'the kept child''s entries are all there');
DROP TABLE gu.ref_na;
CREATE TABLE gu.ref_c (k int REFERENCES gu.fk_k (k) ON DELETE CASCADE);
INSERT INTO gu.ref_c VALUES (3), (4);
SELECT lives_ok($$DELETE FROM gu.fk WHERE k = 4$$, 'CASCADE: deleting a referenced row works');
SELECT results_eq($$SELECT k FROM gu.ref_c$$, $$VALUES (3)$$, 'and deletes the referencing row');
SELECT partmgr.run_maintenance('gu.fk');
SELECT is(to_regclass('gu.fk_p20261101'), NULL, 'CASCADE: retention retires the child');
SELECT is((SELECT count(*)::int FROM gu.ref_c), 0, 'and the referencing rows go with its keys');
SELECT is((SELECT count(*)::int FROM gu.fk_k
            WHERE child NOT IN (SELECT relid FROM pg_partition_tree('gu.fk'))), 0,
    'its entries were removed as it went: none of a child out of the set is left');
INSERT INTO gu.fk VALUES (500, now());
CREATE TABLE gu.ref_r (k int REFERENCES gu.fk_k (k) ON DELETE RESTRICT);
INSERT INTO gu.ref_r VALUES (500);
SELECT throws_ok($$DELETE FROM gu.fk WHERE k = 500$$, '23503', NULL,
    'RESTRICT: deleting a referenced row of the set is refused');
DROP TABLE gu.ref_r;
SELECT throws_ok($$SELECT partmgr.drop_global_unique('gu.fk', 'fk_k')$$, '2BP01', NULL,
    'a constraint a foreign key depends on is not dropped without p_cascade');
SELECT lives_ok($$SELECT partmgr.drop_global_unique('gu.fk', 'fk_k', p_cascade => true)$$,
    'with p_cascade it is, with the foreign key');
SELECT results_eq($$SELECT action, object, outcome FROM partmgr.maintenance_log
                     WHERE parent_table = 'gu.fk' AND action = 'drop global unique constraint'$$,
    $$VALUES ('drop global unique constraint', 'gu.fk_k', 'done')$$,
    'and the log has the drop');

-- == misuse of the trigger functions ==
CREATE TABLE gu.plain (order_no text);
CREATE TRIGGER stmt AFTER INSERT ON gu.plain FOR EACH STATEMENT
    EXECUTE FUNCTION partmgr.global_unique_row('gu', 'orders_order_no_gkey', 'order_no');
SELECT throws_ok($$INSERT INTO gu.plain VALUES ('z')$$, '39P01', NULL,
    'global_unique_row() as a statement trigger: 39P01');
SELECT throws_ok($$SELECT partmgr.global_unique_row()$$, '39P01', NULL,
    'called as a function: 39P01');

-- == replication: triggers do not fire for replicated rows unless ALWAYS ==
RESET ROLE;
SET session_replication_role = replica;
SELECT lives_ok($$INSERT INTO gu.orders VALUES (4000, 'o30', 0, '2026-12-04')$$,
    'session_replication_role = replica: the constraint does not fire (a subscriber applying rows)');
DELETE FROM gu.orders WHERE id = 4000;
ALTER TABLE gu.orders ENABLE ALWAYS TRIGGER orders_order_no_gkey;
SELECT is((SELECT state FROM partmgr.global_unique_constraints WHERE constraint_name = 'orders_order_no_gkey'),
    'always', 'ENABLE ALWAYS TRIGGER shows as always');
SELECT throws_ok($$INSERT INTO gu.orders VALUES (4001, 'o30', 0, '2026-12-04')$$, '23505', NULL,
    'and the constraint then holds for replicated rows too');
RESET session_replication_role;
ALTER TABLE gu.orders ENABLE TRIGGER orders_order_no_gkey;
SET ROLE gu_alice;

-- == TRUNCATE of the parent ==
SELECT lives_ok($$TRUNCATE gu.orders$$, 'TRUNCATE of the parent works');
SELECT is((SELECT count(*)::int FROM gu.orders_order_no_gkey), 0, 'and removes every entry');
SELECT lives_ok($$INSERT INTO gu.orders VALUES (5000, 'o30', 0, '2026-12-04')$$,
    'every key is free again');

-- == dropping it ==
SELECT throws_ok($$SELECT partmgr.drop_global_unique('gu.orders', 'nope')$$, '42704', NULL,
    'dropping a constraint that does not exist: 42704');
SELECT lives_ok($$SELECT partmgr.drop_global_unique('gu.orders', 'orders_order_no_gkey')$$,
    'drop_global_unique works');
SELECT is(to_regclass('gu.orders_order_no_gkey'), NULL, 'the side table is gone');
SELECT is((SELECT count(*)::int FROM pg_trigger t JOIN pg_partition_tree('gu.orders') p ON p.relid = t.tgrelid
            WHERE t.tgname LIKE 'orders_order_no_gkey%'), 0,
    'and every trigger of the set');
SELECT lives_ok($$TRUNCATE gu.extra$$,
    'a table detached before keeps its TRUNCATE trigger, which does nothing once the constraint is gone');
SELECT lives_ok($$INSERT INTO gu.orders VALUES (3000, 'o30', 0, '2026-12-04')$$,
    'the key is no longer enforced');

-- == keys whose equal values differ in their bytes (numeric 1.0 and 1.00):
-- the side index is probed before the entry is inserted ==
CREATE TABLE gu.nums (n numeric, created_at timestamptz NOT NULL) PARTITION BY RANGE (created_at);
SELECT partmgr.create_parent('gu.nums', 'created_at', '1 day', p_start_partition => '2026-12-01', p_premake => 2);
SELECT lives_ok($$SELECT partmgr.create_global_unique('gu.nums', ARRAY['n'])$$, 'a numeric key');
INSERT INTO gu.nums VALUES (1.0, '2026-12-01');
SELECT throws_ok($$INSERT INTO gu.nums VALUES (1.00, '2026-12-02')$$, '23505', NULL,
    'numeric: 1.00 in another child is a duplicate of 1.0');
SELECT throws_ok($$INSERT INTO gu.nums VALUES (2, '2026-12-01'), (2.000, '2026-12-02')$$, '23505', NULL,
    'and 2.000 after 2 in the same statement');
SELECT is((SELECT count(*)::int FROM gu.nums_n_gkey), 1, 'the side table holds the one entry');

-- == keys entered first (bigint): a key a detached child held is free, its
-- old entry removed; a key twice in one statement is a duplicate ==
CREATE TABLE gu.st (k bigint, created_at timestamptz NOT NULL) PARTITION BY RANGE (created_at);
SELECT partmgr.create_parent('gu.st', 'created_at', '1 day', p_start_partition => '2026-12-01', p_premake => 2);
SELECT partmgr.create_global_unique('gu.st', ARRAY['k']);
INSERT INTO gu.st VALUES (7, '2026-12-01');
ALTER TABLE gu.st DETACH PARTITION gu.st_p20261201;
SELECT lives_ok($$INSERT INTO gu.st VALUES (7, '2026-12-02')$$, 'a key of a detached child is free');
SELECT results_eq($$SELECT child::text FROM gu.st_k_gkey WHERE k = 7$$, $$VALUES ('gu.st_p20261202')$$,
    'its old entry was removed; the new one names the new child');
SELECT throws_ok($$INSERT INTO gu.st VALUES (8, '2026-12-02'), (8, '2026-12-03')$$, '23505', NULL,
    'a key twice in one statement is a duplicate');

SELECT * FROM finish();
ROLLBACK;
