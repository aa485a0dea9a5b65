/*-------------------------------------------------------------------------
 *
 * import.c
 *	  import_partman_config(): register the partition sets of an installed
 *	  pg_partman (4.7 or 5.x) in partmgr.part_config, one set or all, and
 *	  turn pg_partman's automatic maintenance of them off.
 *
 * Only pg_partman's own part_config is read (one that belongs to extension
 * pg_partman), with the caller's rights: its rows are read as jsonb, so
 * either version's columns do, and written into pg_partmgr's configuration
 * through config.c (part_config, part_config_sub); the set's time zone is
 * pg_partman 5.4.4's partition_timezone, or when it has none the session's,
 * in which pg_partman computed bounds.
 * Existing children are adopted as they are: nothing is created, attached
 * or moved.  The name of pg_partman's schema is the only thing written
 * into the text of the statements on its tables (quote_identifier); values
 * travel as $n parameters.
 *
 * Locks: ACCESS SHARE on pg_partman's part_config and part_config_sub;
 * ROW EXCLUSIVE on pg_partmgr's configuration tables, and with
 * p_disable_partman on pg_partman's part_config, whose row of the set is
 * updated.  No lock on the sets' tables.
 *
 * Transactions: the caller's.  Each set is imported in a subtransaction of
 * its own: one that cannot be imported leaves nothing behind, and its row
 * of the result says why.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/import.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"

#include "api.h"
#include "catalog.h"
#include "config.h"
#include "execute.h"
#include "locks.h"
#include "owner_grants.h"
#include "own_tables.h"
#include "rights.h"
#include "spi_util.h"
#include "statements.h"

PG_FUNCTION_INFO_V1(pg_partmgr_import_partman_config);

/* One set of an import (import_set). */
typedef struct ImportRun
{
	const char *schema;			/* pg_partman's schema */
	Oid			config_oid;		/* its part_config */
	const char *key;
	bool		disable;
	bool		imported;
	int			children;
	char	   *note;
	List	   *missing;		/* of PartmgrMissingGrant *: what its owner
								 * lacks */
} ImportRun;

/* run->missing, in a subtransaction: an error there is no import's error */
static void
find_missing_grants(void *arg)
{
	ImportRun  *run = (ImportRun *) arg;

	run->missing = partmgr_set_missing_grants(partmgr_config_load(run->key,
																  false),
											  InvalidOid);
}

/*
 * grants_note
 *		note, followed by the GRANTs the owner lacks for maintenance and the
 *		count of those only some operations need (missing_grants() lists
 *		them).
 */
static char *
grants_note(const char *note, List *missing)
{
	char	   *required = partmgr_missing_grants_text(missing, true);
	int			optional = 0;
	ListCell   *lc;

	foreach(lc, missing)
		optional += ((PartmgrMissingGrant *) lfirst(lc))->required ? 0 : 1;
	if (required == NULL && optional == 0)
		return (char *) note;
	return psprintf("%s%s%s%s%s", note != NULL ? note : "",
					note != NULL ? "; " : "",
					required != NULL ?
					psprintf("the owner lacks what maintenance needs: %s",
							 required) : "",
					required != NULL && optional > 0 ? "; " : "",
					optional > 0 ?
					psprintf(ngettext("%d more grant only some operations need: see missing_grants()",
									  "%d more grants only some operations need: see missing_grants()",
									  optional), optional) : "");
}

/*
 * import_set
 *		Register one of pg_partman's sets: its part_config row copied column
 *		by column (read as jsonb, so pg_partman 4.7's columns and 5.x's both
 *		work), its partition_timezone or the session's time zone for the
 *		set's time arithmetic,
 *		and the existing children adopted as they are (bounds are read from
 *		the catalog, so any naming works; new children continue the grid of
 *		the existing ones, named with pg_partman's datetime_string); a
 *		sub-partitioned set's part_config_sub row too (its sub-sets are sets
 *		of pg_partman's part_config of their own, imported like any).  Runs
 *		in a subtransaction: a set that cannot be imported is left alone.
 */
static void
import_set(void *arg)
{
	ImportRun  *run = (ImportRun *) arg;
	Oid			types[1] = {TEXTOID};
	Datum		values[1];
	char	   *json;
	char	   *sub_json;
	char	   *type;
	char	   *template;
	char	   *encoder;
	char	   *decoder;
	Oid			parent;
	PartmgrSet *set;
	PartmgrTree *tree;
	PartmgrRights rights;

	values[0] = CStringGetTextDatum(run->key);
	if (partmgr_spi_exec(partmgr_query_partman_set(run->schema),
						 1, types, values, NULL, true, SPI_OK_SELECT) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("table \"%s\" is no longer in %s.part_config", run->key,
						quote_identifier(run->schema)),
				 errdetail("Its row was deleted while the import ran.")));
	json = partmgr_spi_text(0, 1);
	type = partmgr_spi_text(0, 2);
	template = partmgr_spi_text(0, 4);
	encoder = partmgr_spi_text(0, 3);
	decoder = partmgr_spi_text(0, 5);

	if (partmgr_config_load(run->key, true) != NULL)
	{
		run->note = "already managed by pg_partmgr";
		return;
	}
	if (strcmp(type, "native") != 0 && strcmp(type, "range") != 0 &&
		strcmp(type, "list") != 0)
	{
		run->note = psprintf("partition_type '%s' is not supported (only native range and list sets are)", type);
		return;
	}
	parent = partmgr_key_relid(run->key);
	if (!OidIsValid(parent))
	{
		run->note = "the parent table does not exist";
		return;
	}
	sub_json = NULL;
	values[0] = CStringGetTextDatum(run->key);
	if (OidIsValid(get_relname_relid("part_config_sub",
									 get_namespace_oid(run->schema, false))) &&
		partmgr_spi_exec(partmgr_query_partman_sub_set(run->schema),
						 1, types, values, NULL, true, SPI_OK_SELECT) > 0)
	{
		char	   *sub_type = partmgr_spi_text(0, 2);

		sub_json = partmgr_spi_text(0, 1);
		if (strcmp(sub_type, "native") != 0 && strcmp(sub_type, "range") != 0 &&
			strcmp(sub_type, "list") != 0)
		{
			run->note = psprintf("its children are partitioned by pg_partman's '%s' type, which is not supported",
								 sub_type);
			return;
		}
	}

	partmgr_config_insert_from_partman(json,
									   OidIsValid(get_default_partition_oid(parent)));

	/*
	 * how new children are partitioned in turn, pg_partman 4.7's row or 5.x's
	 */
	if (sub_json != NULL)
		partmgr_sub_spec_insert_from_partman(sub_json);
	/* pg_partman 5.2's text and uuid keys */
	if (encoder != NULL || decoder != NULL)
		partmgr_config_set_codec(run->key, encoder, decoder);

	/* the same checks as for any set, before anything else changes */
	set = partmgr_config_load(run->key, false);
	{
		ErrorData  *edata = NULL;

		(void) partmgr_run_subxact(find_missing_grants, run, &edata);
	}
	partmgr_rights_enter_set(set, PARTMGR_RIGHTS_ACT, &rights);
	tree = partmgr_read_tree(set);
	partmgr_rights_leave(&rights);
	run->children = tree->nchildren;
	if (run->disable)
	{
		/*
		 * pg_partman's table: written with the caller's rights, so no foreign
		 * trigger
		 */
		partmgr_check_table_triggers(run->config_oid,
									 get_extension_oid("pg_partman", true));
		values[0] = CStringGetTextDatum(run->key);
		partmgr_spi_exec(partmgr_dml_partman_maintenance_off(run->schema),
						 1, types, values, NULL, false, SPI_OK_UPDATE);
	}
	run->imported = true;
	run->note = psprintf("time zone %s%s%s", set->axis.zone_name,
						 run->disable ?
						 "; pg_partman's automatic maintenance turned off" : "",
						 template ?
						 psprintf("; new children get the properties of template table %s, which belongs to pg_partman: copy it and set template_table before dropping pg_partman",
								  template) : "");
}

/*
 * pg_partmgr_import_partman_config
 *		import_partman_config(p_partman_schema, p_parent_table,
 *		p_disable_partman): register pg_partman's sets (4.7 or 5.x), one or
 *		all, in partmgr.part_config; one row per set says whether it was
 *		imported and why not.  With p_disable_partman, pg_partman's
 *		automatic maintenance of the imported sets is turned off.
 */
Datum
pg_partmgr_import_partman_config(PG_FUNCTION_ARGS)
{
	char	   *schema = PG_ARGISNULL(0) ? "partman" : text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *table = partmgr_text_arg_or_null(fcinfo, 1);
	bool		disable = PG_ARGISNULL(2) || PG_GETARG_BOOL(2);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	List	   *keys = NIL;
	ListCell   *lc;
	uint64		n;
	Oid			nspid = get_namespace_oid(schema, true);
	Oid			config_oid = (OidIsValid(nspid) ?
							  get_relname_relid("part_config", nspid) :
							  InvalidOid);
	Oid			types[1] = {TEXTOID};
	Datum		values[1];

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	if (!OidIsValid(config_oid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("no pg_partman configuration table %s.part_config",
						quote_identifier(schema)),
				 errhint("Give the schema pg_partman is installed in as p_partman_schema.")));

	/*
	 * Only pg_partman's own table is read: one made by any role in a schema
	 * of that name could run its code (a view, a trigger) with our rights.
	 */
	if (getExtensionOfObject(RelationRelationId, config_oid) !=
		get_extension_oid("pg_partman", true) ||
		!OidIsValid(get_extension_oid("pg_partman", true)))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("table %s.part_config does not belong to extension pg_partman",
						quote_identifier(schema)),
				 errhint("Give the schema pg_partman is installed in as p_partman_schema.")));
	if (table != NULL)
	{
		values[0] = CStringGetTextDatum(table);
		n = partmgr_spi_exec(partmgr_query_partman_sets(schema, true),
							 1, types, values, NULL, true, SPI_OK_SELECT);
	}
	else
		n = partmgr_spi_exec(partmgr_query_partman_sets(schema, false),
							 0, NULL, NULL, NULL, true, SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
		keys = lappend(keys, partmgr_spi_text(i, 1));
	if (table != NULL && keys == NIL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("table \"%s\" is not in %s.part_config", table,
						quote_identifier(schema))));

	foreach(lc, keys)
	{
		ImportRun	run;
		ErrorData  *edata = NULL;
		Datum		values[4];
		bool		nulls[4] = {false};

		memset(&run, 0, sizeof(run));
		run.schema = schema;
		run.config_oid = config_oid;
		run.key = (const char *) lfirst(lc);
		run.disable = disable;
		if (!partmgr_run_subxact(import_set, &run, &edata))
		{
			run.imported = false;
			run.children = 0;
			run.note = psprintf("%s: %s", unpack_sql_state(edata->sqlerrcode),
								edata->message);
		}
		run.note = grants_note(run.note, run.missing);
		values[0] = CStringGetTextDatum(run.key);
		values[1] = BoolGetDatum(run.imported);
		values[2] = Int32GetDatum(run.children);
		nulls[3] = run.note == NULL;
		if (run.note)
			values[3] = CStringGetTextDatum(run.note);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	SPI_finish();
	return (Datum) 0;
}
