/*-------------------------------------------------------------------------
 *
 * api_dump.c
 *	  dump_partitioned_table_definition(): the SQL that registers a set
 *	  again with its current configuration, in pg_partman 5's words.
 *
 * The configuration is read (config.c) and the text written by ddl.c
 * (partmgr_ddl_dump_definition); nothing is run and nothing changes.
 *
 * Locks: none of its own; reading part_config takes ACCESS SHARE on it.
 * Transactions: the caller's.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api_dump.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/spi.h"
#include "fmgr.h"
#include "utils/builtins.h"

#include "api.h"
#include "config.h"
#include "ddl.h"

PG_FUNCTION_INFO_V1(pg_partmgr_dump_partitioned_table_definition);

/*
 * pg_partmgr_dump_partitioned_table_definition
 *		dump_partitioned_table_definition(p_parent_table,
 *		p_ignore_template_table): the SQL that registers the set again with
 *		its current configuration (see partmgr_ddl_dump_definition).
 */
Datum
pg_partmgr_dump_partitioned_table_definition(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	bool		ignore_template = !PG_ARGISNULL(1) && PG_GETARG_BOOL(1);
	PartmgrSet *set;
	char	   *sql;

	SPI_connect();
	set = partmgr_config_load_table(table);
	sql = partmgr_ddl_dump_definition(set, ignore_template);
	sql = strcpy(SPI_palloc(strlen(sql) + 1), sql);
	SPI_finish();
	PG_RETURN_TEXT_P(cstring_to_text(sql));
}
