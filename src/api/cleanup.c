/*-------------------------------------------------------------------------
 *
 * cleanup.c
 *	  config_cleanup() (pg_partman 5.4): stop managing a set and leave its
 *	  tables as they are -- its part_config row, its part_config_sub row,
 *	  its template table, as asked.
 *
 * The rows are deleted through config.c; the template is dropped by
 * properties.c (partmgr_drop_unused_template), unless another set names it.
 * The caller must have the privileges of the parent's owner.
 *
 * Locks: the set's advisory lock, without waiting (55P03 while a run
 * maintains the set); ROW EXCLUSIVE on the configuration tables; with
 * p_template_table, ACCESS EXCLUSIVE on the template table it drops, queued
 * as any DROP TABLE and not bounded by pg_partmgr.lock_timeout (no query
 * of the set reads a template).  Nothing else of the set is locked or
 * touched.
 *
 * Transactions: the caller's; the advisory lock lasts until its end.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/cleanup.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/spi.h"
#include "fmgr.h"

#include "api.h"
#include "config.h"
#include "locks.h"
#include "properties.h"
#include "reshape.h"
#include "rights.h"

PG_FUNCTION_INFO_V1(pg_partmgr_config_cleanup);

/*
 * pg_partmgr_config_cleanup
 *		config_cleanup(p_parent_table, p_config_table, p_config_sub_table,
 *		p_template_table) (pg_partman 5.4): forget a set and leave its
 *		tables as they are.  p_config_table deletes its part_config row;
 *		p_template_table drops its template table
 *		unless another set uses it (see partmgr_drop_unused_template);
 *		p_config_sub_table deletes its part_config_sub row (new children
 *		are no longer partitioned in turn; part_config's row takes it along
 *		anyway).  Sub-sets registered for its children are sets of their
 *		own and stay.
 */
Datum
pg_partmgr_config_cleanup(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	bool		config = PG_ARGISNULL(1) || PG_GETARG_BOOL(1);
	bool		config_sub = PG_ARGISNULL(2) || PG_GETARG_BOOL(2);
	bool		template = PG_ARGISNULL(3) || PG_GETARG_BOOL(3);
	PartmgrSet *set;
	PartmgrRights rights;

	SPI_connect();
	set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, &rights);
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	if (config)
		partmgr_check_no_reshape(set, "config_cleanup()");
	if (config_sub)
		(void) partmgr_sub_spec_delete(set->key);
	if (config)
		partmgr_config_delete(set->key);
	else if (template && set->template_table != NULL)
		partmgr_config_clear_template(set->key);
	if (template)
		partmgr_drop_unused_template(set);
	partmgr_rights_leave(&rights);
	SPI_finish();
	PG_RETURN_VOID();
}
