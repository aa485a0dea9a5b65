/*-------------------------------------------------------------------------
 *
 * dump.c
 *	  dump_partitioned_table_definition(): the SQL that registers a set
 *	  again with its current configuration, in pg_partman 5's words.
 *
 * The configuration is read (config.c), what it does not hold from the
 * catalogs (whether the control column is NOT NULL; the offset of an integer
 * set's grid, from its lowest child), and the text written by statements.c
 * (partmgr_query_dump_definition); then a create_global_unique() call per
 * global unique constraint of a top parent (unique.c).  Nothing is run and
 * nothing changes.
 *
 * Locks: ACCESS SHARE on the parent (its triggers are read) and on
 * part_config.
 * Transactions: the caller's.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/dump.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_attribute.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "api.h"
#include "bounds.h"
#include "catalog.h"
#include "config.h"
#include "statements.h"
#include "rights.h"
#include "unique.h"
#include "tiers_state.h"

PG_FUNCTION_INFO_V1(pg_partmgr_dump_partitioned_table_definition);

/*
 * control_is_not_null
 *		Whether the set's control column is NOT NULL (create_parent's
 *		p_control_not_null for it).
 */
static bool
control_is_not_null(const PartmgrSet *set)
{
	HeapTuple	tup = SearchSysCacheAttNum(set->parent_oid,
										   set->control_attnum);
	bool		result;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for attribute %d of relation %u",
			 set->control_attnum, set->parent_oid);
	result = ((Form_pg_attribute) GETSTRUCT(tup))->attnotnull;
	ReleaseSysCache(tup);
	return result;
}

/*
 * grid_offset
 *		How far an integer set's bounds are from the multiples of its
 *		interval (create_parent's p_offset_id), read from its lowest child
 *		with a lower bound; 0 for other sets and sets without children.
 */
static int64
grid_offset(const PartmgrSet *set)
{
	PartmgrRights rights;
	PartmgrTree *tree;
	int64		offset = 0;

	if (set->axis.kind != PARTMGR_KEY_ID ||
		set->strategy != PARTITION_STRATEGY_RANGE)
		return 0;
	partmgr_rights_enter_set(set, PARTMGR_RIGHTS_LOOK, &rights);
	tree = partmgr_read_tree(set);
	partmgr_rights_leave(&rights);
	for (int i = 0; i < tree->nchildren; i++)
	{
		int64		width;

		if (tree->children[i].lower == PARTMGR_POINT_MIN)
			continue;
		/* the interval the lowest child was made with */
		width = partmgr_era_at(set, tree->children[i].lower).step.id;
		offset = tree->children[i].lower % width;
		if (offset < 0)
			offset += width;
		break;
	}
	return offset;
}

/*
 * pg_partmgr_dump_partitioned_table_definition
 *		dump_partitioned_table_definition(p_parent_table,
 *		p_ignore_template_table): the SQL that registers the set again with
 *		its current configuration (see partmgr_query_dump_definition), its
 *		earlier intervals, its tiers, its archive and its global unique
 *		constraints.
 */
Datum
pg_partmgr_dump_partitioned_table_definition(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	bool		ignore_template = !PG_ARGISNULL(1) && PG_GETARG_BOOL(1);
	PartmgrSet *set;
	char	   *sql;
	char	   *eras;

	SPI_connect();
	set = partmgr_config_load_table(table);
	sql = partmgr_query_dump_definition(set, ignore_template,
										control_is_not_null(set),
										grid_offset(set));
	eras = partmgr_ddl_dump_eras(set);
	if (eras != NULL)
		sql = psprintf("%s\n%s", sql, eras);
	{
		ListCell   *lc;

		foreach(lc, partmgr_tier_rows(set->key))
		{
			PartmgrTierRow *tier = (PartmgrTierRow *) lfirst(lc);

			sql = psprintf("%s\n%s", sql,
						   partmgr_ddl_dump_tier(set->key, tier->name,
												 tier->older_than,
												 tier->tablespace));
		}
		if (partmgr_archive_of(set->key) != NULL)
			sql = psprintf("%s\n%s", sql,
						   partmgr_ddl_dump_archive(set->key,
													partmgr_archive_of(set->key)));
	}
	if (!get_rel_relispartition(set->parent_oid))
	{
		ListCell   *lc;

		foreach(lc, partmgr_unique_list_of(set->parent_oid))
		{
			PartmgrUnique *u = lfirst(lc);

			sql = psprintf("%s\n%s", sql,
						   partmgr_query_dump_global_unique(set->parent_schema,
															set->parent_name,
															u->name, u->ncols,
															u->columns));
		}
	}
	sql = strcpy(SPI_palloc(strlen(sql) + 1), sql);
	SPI_finish();
	PG_RETURN_TEXT_P(cstring_to_text(sql));
}
