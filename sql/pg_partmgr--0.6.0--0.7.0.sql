/* pg_partmgr 0.6.0 -> 0.7.0 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_partmgr UPDATE TO '0.7.0'" to load this file. \quit

/*
 * A reshape's row names the children it replaces, its phase and its last
 * error: seen only by roles with the privileges of the owner of the set's
 * parent (superusers: all), as maintenance_log's rows are.  pg_partmgr
 * reads the rows of the sets it acts on, which are the caller's to act on.
 * part_config_interval stays readable by all: every set is read with its
 * earlier intervals, whoever reads part_config, and the bounds it restates
 * are in pg_class for everyone.
 */
ALTER TABLE partmgr.reshape_operation ENABLE ROW LEVEL SECURITY;
CREATE POLICY reshape_operation_owner ON partmgr.reshape_operation
    USING (pg_catalog.pg_has_role(
               (SELECT c.relowner FROM pg_catalog.pg_class c
                 WHERE c.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass(parent_table)),
               'USAGE'))
    WITH CHECK (pg_catalog.pg_has_role(
               (SELECT c.relowner FROM pg_catalog.pg_class c
                 WHERE c.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass(parent_table)),
               'USAGE'));
COMMENT ON POLICY reshape_operation_owner ON partmgr.reshape_operation IS
    'A reshape''s row is seen, written and deleted only by roles with the privileges of the owner of its set''s parent (superusers: all).';

-- A global unique constraint's row names its set, key columns and side
-- table: shown only to roles with the privileges of the set's owner, as
-- the log's rows (partmgr.global_unique_info() leaves the others out).
COMMENT ON VIEW partmgr.global_unique_constraints IS
    'One row per global unique constraint of a set whose owner''s privileges you have (superusers: all): its set, key columns, side table, state (enabled, disabled, replica, always: the trigger''s), entries (the planner''s estimate), the side table''s size, and how many entries of children no longer in the set wait for cleanup (NULL when the side table is not the set owner''s).';

-- A set that fails is a WARNING as it fails; the call then ends with an
-- ERROR naming the failed sets (pg_partmgr.on_set_failure).
COMMENT ON FUNCTION partmgr.run_maintenance(text, boolean, boolean) IS
    'Create the children each set needs ahead of its data (premake), add derived constraints, then apply its retention, for one set or for every set with automatic_maintenance on. Locks are bounded by pg_partmgr.lock_timeout; a set that cannot get them is skipped with a WARNING. A set that fails is a WARNING, and once every other set was maintained the call ends with an ERROR naming the failed sets (pg_partmgr.on_set_failure = warning: the WARNINGs only), which rolls its transaction back.';
COMMENT ON PROCEDURE partmgr.run_maintenance_proc(int, boolean, boolean) IS
    'Maintain every set with automatic_maintenance on, committing after each set and waiting p_wait seconds between sets. For pg_cron: CALL it as a top-level statement. A set that fails is a WARNING, and the CALL ends with an ERROR naming the failed sets once every other set was maintained and committed (pg_partmgr.on_set_failure = warning: the WARNINGs only).';

-- pg_partman 5.2's target for derived constraints: optimize_constraint
-- children below the newest child holding rows (before: one more).
COMMENT ON COLUMN partmgr.part_config.optimize_constraint IS
    'Children this many or more below the newest child holding rows get the derived constraints (pg_partman 5.2''s rule; 0: that child too).';

-- What each set's owner lacks for pg_partmgr to act as it, with the GRANT
-- that gives it: found before a run meets it.  health shows the ones
-- maintenance fails without.
CREATE FUNCTION partmgr.missing_grants(
    p_parent_table text DEFAULT NULL,
    p_target_table text DEFAULT NULL)
    RETURNS TABLE (parent_table text, owner text, privilege text,
                   required boolean, needed_for text, grant_statement text)
    LANGUAGE C VOLATILE
    AS 'MODULE_PATHNAME', 'pg_partmgr_missing_grants';
COMMENT ON FUNCTION partmgr.missing_grants(text, text) IS
    'The privileges the owner of a set lacks for pg_partmgr to act as it (USAGE on the parent''s schema, CREATE where children are made and on their tablespaces, CREATE on the retention schema, USAGE on schema partmgr for reshapes and global unique constraints; with p_target_table, USAGE and INSERT for undo_partition() into it), one row each with the GRANT that gives it; required: the work named in needed_for fails without it whoever calls. For every set whose owner''s privileges you have, for the set p_parent_table, or for a table that is not a set yet (what create_parent() needs).';
COMMENT ON FUNCTION partmgr.import_partman_config(text, text, boolean) IS
    'Register the partition sets of an installed pg_partman (4.7 or 5.x) with their settings, adopting their children as they are; p_disable_partman turns pg_partman''s automatic maintenance of them off. The note of each set names the GRANTs its owner lacks (see missing_grants()), also when they kept it from being imported.';

-- Moving a child and its indexes to another tablespace online: a reshape
-- of the child into a copy of itself built there (kinds move and hash
-- move), with the reshape's phases, locks and guarantees.
ALTER TABLE partmgr.reshape_operation ADD COLUMN target_tablespace text;
COMMENT ON COLUMN partmgr.reshape_operation.target_tablespace IS
    'A move''s: the tablespace the new child and its indexes are built in. NULL for the other kinds, whose new children take the old one''s.';
ALTER TABLE partmgr.reshape_operation DROP CONSTRAINT reshape_operation_kind_check;
ALTER TABLE partmgr.reshape_operation ADD CONSTRAINT reshape_operation_kind_check
    CHECK (kind OPERATOR(pg_catalog.=) ANY (ARRAY['split', 'merge', 'reshape', 'hash split', 'hash merge', 'move', 'hash move']));
ALTER TABLE partmgr.reshape_operation ADD CONSTRAINT reshape_operation_move_check
    CHECK ((kind OPERATOR(pg_catalog.=) ANY (ARRAY['move', 'hash move'])) OPERATOR(pg_catalog.=) (target_tablespace IS NOT NULL));
COMMENT ON TABLE partmgr.reshape_operation IS
    'Reshapes of children not finished yet (split_partition, merge_partitions, split_hash_partition, merge_hash_partitions, move_partition, change_interval with p_reshape_existing): which children are replaced by which new ones, and how far the work has got. run_reshape() carries them out; cancel_reshape() undoes them.';

CREATE PROCEDURE partmgr.move_partition(
    p_child_table text,
    p_tablespace text,
    p_batch_rows integer DEFAULT 100000,
    p_lock_wait_tries integer DEFAULT 10,
    p_wait integer DEFAULT 1,
    p_start boolean DEFAULT true,
    p_quiet boolean DEFAULT false)
    AS 'MODULE_PATHNAME', 'pg_partmgr_move_partition'
    LANGUAGE C;
COMMENT ON PROCEDURE partmgr.move_partition(text, text, integer, integer, integer, boolean, boolean) IS
    'Move child p_child_table of a range or hash set, with its indexes, into tablespace p_tablespace online: a copy is built there and filled in batches while changes to the child are captured and applied, then swapped in under short, conditional locks, as split_partition does (instead of ALTER TABLE ... SET TABLESPACE, which locks the child while it is rewritten). The set''s owner needs CREATE on the tablespace. A child there already, with every index, is left alone. Commits after each step when called as a top-level CALL; a call after a crash or a cancel goes on.';

/*
 * Tiers: children older than an age (time sets) or than an amount below the
 * set's largest key (id sets) belong in a tablespace, with their indexes.
 * Maintenance registers an online move (move_partition) for a child that is
 * elsewhere, and the background worker and run_maintenance_proc() carry the
 * moves out, pg_partmgr.tier_bytes_per_run at a time.  New children are
 * made in the tier their bounds put them in.  See doc/lifecycle.md.
 */
CREATE TABLE partmgr.part_config_tier (
    parent_table text NOT NULL,
    tier_name text NOT NULL,
    older_than text NOT NULL,
    tablespace_name text NOT NULL,
    CONSTRAINT part_config_tier_pkey PRIMARY KEY (parent_table, tier_name),
    CONSTRAINT part_config_tier_parent_table_fkey FOREIGN KEY (parent_table)
        REFERENCES partmgr.part_config (parent_table)
        ON DELETE CASCADE ON UPDATE CASCADE
);
SELECT pg_catalog.pg_extension_config_dump('partmgr.part_config_tier', '');
COMMENT ON TABLE partmgr.part_config_tier IS
    'Storage tiers of a set: each child whose upper bound is older_than old (a time set: an interval before now; an id set: that amount below the largest key) belongs, with its indexes, in tablespace_name -- the tier with the largest older_than it has reached; a child younger than every tier belongs in the parent''s tablespace. Maintenance moves a child that is elsewhere online (see move_partition), and makes new children in their tier.';
COMMENT ON COLUMN partmgr.part_config_tier.tier_name IS
    'A name of your choosing (hot, warm, cold, ...), shown by plan_maintenance() and health.';
COMMENT ON COLUMN partmgr.part_config_tier.older_than IS
    'An interval (time sets) or an amount (id sets), written as retention is.';
COMMENT ON COLUMN partmgr.part_config_tier.tablespace_name IS
    'The tablespace the tier''s children and their indexes are in. The set''s owner must be able to create in it.';
GRANT SELECT ON partmgr.part_config_tier TO PUBLIC;
CREATE TRIGGER part_config_tier_owner_check
    BEFORE INSERT OR UPDATE OR DELETE ON partmgr.part_config_tier
    FOR EACH ROW EXECUTE FUNCTION partmgr.config_owner_check('parent_table');
CREATE TRIGGER part_config_tier_truncate_check
    BEFORE TRUNCATE ON partmgr.part_config_tier
    FOR EACH STATEMENT EXECUTE FUNCTION partmgr.config_owner_check();
CREATE FUNCTION partmgr.tier_check() RETURNS trigger
    AS 'MODULE_PATHNAME', 'pg_partmgr_tier_check'
    LANGUAGE C;
COMMENT ON FUNCTION partmgr.tier_check() IS
    'Trigger of part_config_tier (BEFORE INSERT OR UPDATE, after the owner check): refuses a tier of a set that cannot have tiers (hash and list sets, sub-sets: configure the top set), an older_than that is not a positive interval or amount, one another tier of the set has, a tablespace that does not exist or that the set''s owner may not create in.';
CREATE TRIGGER part_config_tier_validate
    BEFORE INSERT OR UPDATE ON partmgr.part_config_tier
    FOR EACH ROW EXECUTE FUNCTION partmgr.tier_check();

-- the roles that may write part_config may write the tiers too
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT a.privilege_type, a.grantee
               FROM pg_catalog.pg_class c,
                    LATERAL pg_catalog.aclexplode(c.relacl) a
              WHERE c.oid OPERATOR(pg_catalog.=) 'partmgr.part_config'::pg_catalog.regclass
                AND a.privilege_type OPERATOR(pg_catalog.=) ANY (ARRAY['INSERT', 'UPDATE', 'DELETE'])
                AND a.grantee OPERATOR(pg_catalog.<>) c.relowner
    LOOP
        EXECUTE pg_catalog.format('GRANT %s ON partmgr.part_config_tier TO %s',
                                  r.privilege_type,
                                  CASE WHEN r.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
                                       ELSE pg_catalog.quote_ident(r.grantee::pg_catalog.regrole::pg_catalog.text) END);
    END LOOP;
END
$$;

-- A swap renames the old children out of the way and a step of its own
-- drops them with the change log (phase swapped): dropping a large table
-- at commit takes time the swap would spend holding its locks.
ALTER TABLE partmgr.reshape_operation DROP CONSTRAINT reshape_operation_phase_check;
ALTER TABLE partmgr.reshape_operation ADD CONSTRAINT reshape_operation_phase_check
    CHECK (phase OPERATOR(pg_catalog.=) ANY (ARRAY['planned', 'copy', 'index', 'catch up', 'swapped']));
COMMENT ON COLUMN partmgr.reshape_operation.phase IS
    'planned: nothing built yet; copy: the new children exist and rows are copied into them in batches while changes are captured; index: their indexes and constraints are built; catch up: captured changes are applied until the swap can take place; swapped: the new children replaced the old ones, which (renamed <parent>_reshape<id>_old<n>) and the change log are dropped next.';

/*
 * Archive sets: retention moves a set's expired children into another set
 * registered with pg_partmgr (the archive, with its own interval, premake,
 * retention, tiers and archive) instead of dropping or detaching them.  A
 * child whose bounds are one child of the archive's grid is attached there
 * as it is, renamed to the archive's naming; any other child's rows are
 * moved into the archive's children, which are made as needed.  See
 * doc/lifecycle.md.
 */
CREATE TABLE partmgr.part_config_archive (
    parent_table text NOT NULL,
    archive_table text NOT NULL,
    CONSTRAINT part_config_archive_pkey PRIMARY KEY (parent_table),
    CONSTRAINT part_config_archive_parent_table_fkey FOREIGN KEY (parent_table)
        REFERENCES partmgr.part_config (parent_table)
        ON DELETE CASCADE ON UPDATE CASCADE
);
SELECT pg_catalog.pg_extension_config_dump('partmgr.part_config_archive', '');
COMMENT ON TABLE partmgr.part_config_archive IS
    'The archive set of a set: retention moves each expired child into archive_table, another set registered with pg_partmgr and owned by the same role, instead of dropping or detaching it (retention_keep_table and retention_schema are then not used). A child whose bounds are exactly one child of the archive''s grid, where the archive has none yet, is attached to it as it is (renamed to the archive''s naming, indexes too); otherwise its rows are moved into the archive''s children, made as needed, and the emptied child is dropped. A reader of either set, or of a view over both, sees every row once all along.';
COMMENT ON COLUMN partmgr.part_config_archive.archive_table IS
    'The archive: a range set of the same key column and kind (time or id), with every column of this set, of the same type.';
GRANT SELECT ON partmgr.part_config_archive TO PUBLIC;
CREATE TRIGGER part_config_archive_owner_check
    BEFORE INSERT OR UPDATE OR DELETE ON partmgr.part_config_archive
    FOR EACH ROW EXECUTE FUNCTION partmgr.config_owner_check('parent_table');
CREATE TRIGGER part_config_archive_truncate_check
    BEFORE TRUNCATE ON partmgr.part_config_archive
    FOR EACH STATEMENT EXECUTE FUNCTION partmgr.config_owner_check();
CREATE FUNCTION partmgr.archive_check() RETURNS trigger
    AS 'MODULE_PATHNAME', 'pg_partmgr_archive_check'
    LANGUAGE C;
COMMENT ON FUNCTION partmgr.archive_check() IS
    'Trigger of part_config_archive (BEFORE INSERT OR UPDATE, after the owner check): refuses an archive for a set that cannot have one (hash and list sets, sub-sets: configure the top set), and an archive that is not a registered range set, is the set itself or archives into it, is owned by another role, or lacks a column of the set or has it with another type or another key.';
CREATE TRIGGER part_config_archive_validate
    BEFORE INSERT OR UPDATE ON partmgr.part_config_archive
    FOR EACH ROW EXECUTE FUNCTION partmgr.archive_check();

-- the roles that may write part_config may write the archives too
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT a.privilege_type, a.grantee
               FROM pg_catalog.pg_class c,
                    LATERAL pg_catalog.aclexplode(c.relacl) a
              WHERE c.oid OPERATOR(pg_catalog.=) 'partmgr.part_config'::pg_catalog.regclass
                AND a.privilege_type OPERATOR(pg_catalog.=) ANY (ARRAY['INSERT', 'UPDATE', 'DELETE'])
                AND a.grantee OPERATOR(pg_catalog.<>) c.relowner
    LOOP
        EXECUTE pg_catalog.format('GRANT %s ON partmgr.part_config_archive TO %s',
                                  r.privilege_type,
                                  CASE WHEN r.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
                                       ELSE pg_catalog.quote_ident(r.grantee::pg_catalog.regrole::pg_catalog.text) END);
    END LOOP;
END
$$;
