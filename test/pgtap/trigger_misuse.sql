-- pgTAP tests that pg_partmgr's trigger functions, which any role may
-- attach to a table of its own, refuse to run where they were not meant
-- to -- as statement triggers, without the columns they read, with the
-- wrong arguments -- with an error and a SQLSTATE, never by crashing the
-- backend (part_config_check() used to dereference a row a statement
-- trigger does not have).
BEGIN;
SET search_path = public;
SET client_min_messages = warning;

SELECT plan(7);

CREATE SCHEMA tap_tm;
CREATE TABLE tap_tm.t (parent_table text, control text, constraint_cols text[]);
CREATE TABLE tap_tm.bare (x int);

CREATE TRIGGER stmt AFTER INSERT ON tap_tm.t
    FOR EACH STATEMENT EXECUTE FUNCTION partmgr.part_config_check();
SELECT throws_ok($$INSERT INTO tap_tm.t VALUES ('a', 'b', NULL)$$, '39P01', NULL,
    'part_config_check() as a statement trigger: 39P01, not a crash');
SELECT is((SELECT count(*)::int FROM tap_tm.t), 0, 'and the insert is rolled back');
DROP TRIGGER stmt ON tap_tm.t;

CREATE TRIGGER row_bare BEFORE INSERT ON tap_tm.bare
    FOR EACH ROW EXECUTE FUNCTION partmgr.part_config_check();
SELECT throws_ok($$INSERT INTO tap_tm.bare VALUES (1)$$, '39P01', NULL,
    'part_config_check() on a table without the columns it reads: 39P01');
DROP TRIGGER row_bare ON tap_tm.bare;

SELECT throws_ok($$SELECT partmgr.part_config_check()$$, '39P01', NULL,
    'part_config_check() called as a function: 39P01');

CREATE TRIGGER owner_stmt AFTER INSERT ON tap_tm.t
    FOR EACH STATEMENT EXECUTE FUNCTION partmgr.config_owner_check('parent_table');
SELECT throws_ok($$INSERT INTO tap_tm.t VALUES ('a', 'b', NULL)$$, '39P01', NULL,
    'config_owner_check() as a statement trigger on INSERT: 39P01');
DROP TRIGGER owner_stmt ON tap_tm.t;

CREATE TRIGGER owner_noarg BEFORE INSERT ON tap_tm.t
    FOR EACH ROW EXECUTE FUNCTION partmgr.config_owner_check();
SELECT throws_ok($$INSERT INTO tap_tm.t VALUES ('a', 'b', NULL)$$, '09000', NULL,
    'config_owner_check() without its column argument: 09000');
DROP TRIGGER owner_noarg ON tap_tm.t;

CREATE TRIGGER owner_nocol BEFORE INSERT ON tap_tm.t
    FOR EACH ROW EXECUTE FUNCTION partmgr.config_owner_check('nosuch');
SELECT throws_ok($$INSERT INTO tap_tm.t VALUES ('a', 'b', NULL)$$, '42703', NULL,
    'config_owner_check() naming a column the table lacks: 42703');

SELECT * FROM finish();
ROLLBACK;
