/* pg_partmgr 0.3.0 -> 0.4.0: pg_partman 5.2 to 5.4.4 compatibility */

\echo Use "ALTER EXTENSION pg_partmgr UPDATE TO '0.4.0'" to load this file. \quit

/*
 * == Configuration columns, time zone, integer offset, dump ==
 */
ALTER TABLE partmgr.part_config ADD COLUMN partition_timezone text;

/*
 * == Moving rows: p_ignore_infinity, reapply_constraints_proc's p_analyze ==
 */

/*
 * == New children: column properties, retention and creation ==
 */
