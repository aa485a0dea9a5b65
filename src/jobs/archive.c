/*-------------------------------------------------------------------------
 *
 * archive.c
 *	  Archive sets (partmgr.part_config_archive): the registered set that a
 *	  set's retention moves expired children into, instead of dropping or
 *	  detaching them.
 *
 * The archive is a range set of its own (interval, premake, retention,
 * tiers, an archive of its own), owned by the set's owner, keyed by the
 * same column with the same kind of key, holding every column of the set
 * with the same type.  An expired child goes there one of two ways:
 *
 * - attached as it is, when its bounds are exactly one child of the
 *   archive's grid that the archive has no child for yet, both parents have
 *   the same columns, the child is a plain table and the archive is not
 *   sub-partitioned, has no global unique constraint and no row of that
 *   range in its default partition: detached, renamed to the archive's
 *   naming (its indexes too) and attached, in one transaction;
 * - otherwise its rows are moved into the archive's children, made as
 *   needed, by one statement per table that deletes them from the child
 *   and inserts them into the archive (a reader of either set, or of a view
 *   over both, sees each row once in every snapshot), under ROW EXCLUSIVE
 *   locks; retention then moves what was written meanwhile and drops the
 *   emptied child under its usual locks.  A count of the archive's rows in
 *   the child's range before and after proves that every row moved arrived
 *   (a trigger or a rule cannot swallow one).
 *
 * Planning and checks only: the moves are actions (work.c) of a plan made
 * before retention (partmgr_plan_archive_moves) and of the set's retention
 * plan (retention.c, partmgr_archive_place).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/archive.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "archive.h"
#include "bounds.h"
#include "catalog.h"
#include "children.h"
#include "config.h"
#include "locks.h"
#include "retention.h"
#include "setup.h"
#include "spi_util.h"
#include "statements.h"
#include "tiers_state.h"
#include "unique.h"

/* the longest chain of archives followed when looking for a loop */
#define ARCHIVE_CHAIN_MAX 64

/*
 * column_missing
 *		The first live column of table a (generated ones too when
 *		with_generated) that table b lacks with the same name, type and
 *		kind (generated or not), or NULL.
 */
static char *
column_missing(Oid a, Oid b, bool with_generated)
{
	static const char *const sql =
	"SELECT a.attname::text FROM pg_catalog.pg_attribute a"
	" WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped"
	" AND ($3 OR a.attgenerated = '')"
	" AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute b"
	"  WHERE b.attrelid = $2 AND b.attname = a.attname AND NOT b.attisdropped"
	"  AND b.atttypid = a.atttypid AND b.atttypmod = a.atttypmod"
	"  AND b.attgenerated = a.attgenerated)"
	" ORDER BY a.attnum LIMIT 1";
	Oid			types[3] = {OIDOID, OIDOID, BOOLOID};
	Datum		values[3];

	values[0] = ObjectIdGetDatum(a);
	values[1] = ObjectIdGetDatum(b);
	values[2] = BoolGetDatum(with_generated);
	if (partmgr_spi_exec_cached(sql, 3, types, values, NULL, false,
								SPI_OK_SELECT) == 0)
		return NULL;
	return partmgr_spi_text(0, 1);
}

static bool
same_text(const char *a, const char *b)
{
	return (a == NULL) == (b == NULL) && (a == NULL || strcmp(a, b) == 0);
}

/*
 * check_archive
 *		The checks of set key's archive (archive, as written), with errors
 *		that name both; the archive's set when they pass.
 */
static PartmgrSet *
check_archive(const char *key, const char *archive)
{
	PartmgrSet *set = partmgr_config_load(key, true);
	PartmgrSet *arch;
	Oid			relid;
	char	   *akey;
	char	   *column;
	char	   *next;
	ListCell   *lc;

	if (set == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("table \"%s\" is not managed by pg_partmgr", key)));
	if (set->strategy != PARTITION_STRATEGY_RANGE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("partition set \"%s\" is partitioned by %s: an archive needs a range set",
						key, set->strategy == PARTITION_STRATEGY_HASH ?
						"HASH" : "LIST"),
				 errdetail("Retention, which moves children into the archive, retires the children older than an age, which the children of a hash or list set do not have.")));
	if (get_rel_relispartition(set->parent_oid))	/* a sub-set */
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("partition set \"%s\" is a sub-set of another set", key),
				 errhint("Configure the archive of the top set: its expired children go there with the rows of their leaves.")));

	relid = partmgr_resolve_table(archive, true);
	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("archive \"%s\" of partition set \"%s\" does not exist",
						archive, key)));
	akey = partmgr_table_key(relid);
	arch = partmgr_config_load(akey, true);
	if (arch == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("archive \"%s\" of partition set \"%s\" is not a set managed by pg_partmgr",
						partmgr_key_display(akey), key),
				 errhint("Register it first with partmgr.create_parent(); it keeps its own interval and retention.")));
	if (arch->parent_oid == set->parent_oid)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partition set \"%s\" cannot be its own archive", key)));
	if (arch->strategy != PARTITION_STRATEGY_RANGE ||
		get_rel_relispartition(arch->parent_oid))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("archive \"%s\" of partition set \"%s\" is not the top of a range set",
						arch->key, key),
				 errdetail("An archive takes children and rows by the ranges of their keys.")));
	if (arch->parent_owner != set->parent_owner)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("archive \"%s\" is owned by role \"%s\", not by \"%s\", the owner of partition set \"%s\"",
						arch->key, GetUserNameFromId(arch->parent_owner, false),
						GetUserNameFromId(set->parent_owner, false), key),
				 errdetail("pg_partmgr moves children and rows into the archive with the rights of the set's owner, and runs no code of another role's with them."),
				 errhint("ALTER TABLE %s OWNER TO %s, or archive into a set of your own.",
						 partmgr_key_display(arch->key),
						 quote_identifier(GetUserNameFromId(set->parent_owner, false)))));
	foreach(lc, find_all_inheritors(arch->parent_oid, NoLock, NULL))
	{
		Oid			other = partmgr_foreign_owner(lfirst_oid(lc),
												  arch->parent_owner);

		if (OidIsValid(other))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("table %s of archive \"%s\" is owned by role \"%s\", not by \"%s\", the owner of partition set \"%s\"",
							partmgr_key_display(partmgr_table_key(lfirst_oid(lc))),
							arch->key, GetUserNameFromId(other, false),
							GetUserNameFromId(set->parent_owner, false), key),
					 errdetail("Rows moved into the archive reach its children, whose triggers would run with the rights of the set's owner.")));
	}
	if (strcmp(arch->control, set->control) != 0 ||
		arch->axis.kind != set->axis.kind ||
		get_atttype(arch->parent_oid, arch->control_attnum) !=
		get_atttype(set->parent_oid, set->control_attnum) ||
		!same_text(arch->time_encoder, set->time_encoder) ||
		!same_text(arch->time_decoder, set->time_decoder))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("archive \"%s\" of partition set \"%s\" is not partitioned by the same key",
						arch->key, key),
				 errdetail("The set is partitioned by column %s of type %s, the archive by column %s of type %s.",
						   quote_identifier(set->control),
						   format_type_be(get_atttype(set->parent_oid, set->control_attnum)),
						   quote_identifier(arch->control),
						   format_type_be(get_atttype(arch->parent_oid, arch->control_attnum)))));
	column = column_missing(set->parent_oid, arch->parent_oid, false);
	if (column != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("archive \"%s\" of partition set \"%s\" has no column %s of the same type as the set's",
						arch->key, key, quote_identifier(column)),
				 errdetail("Every column of the set travels into the archive.")));

	/* no loop: the archive's archive, and so on, never comes back here */
	next = partmgr_archive_of(arch->key);
	for (int i = 0; next != NULL && i < ARCHIVE_CHAIN_MAX; i++)
	{
		Oid			nrel = partmgr_resolve_table(next, true);

		if (!OidIsValid(nrel))
			break;
		if (nrel == set->parent_oid)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("archive \"%s\" of partition set \"%s\" archives into it in turn",
							arch->key, key),
					 errdetail("Children would go round in a loop of archives.")));
		next = partmgr_archive_of(partmgr_table_key(nrel));
	}
	return arch;
}

/*
 * partmgr_archive_validate
 *		The checks of a part_config_archive row before it is written (its
 *		trigger): see check_archive.
 */
void
partmgr_archive_validate(const char *key, const char *archive)
{
	(void) check_archive(key, archive);
}

/*
 * partmgr_archive_load
 *		The archive set of a set, checked again (it may have changed since
 *		its row was written: then retention stops with the error, and keeps
 *		its children), or NULL when it has none.
 */
PartmgrSet *
partmgr_archive_load(const PartmgrSet *set)
{
	char	   *archive = partmgr_archive_of(set->key);

	if (archive == NULL)
		return NULL;
	return check_archive(set->key, archive);
}

/* What archive_problem passes into its subtransaction. */
typedef struct ArchiveProbe
{
	PartmgrSet *set;
	char	   *archive;
} ArchiveProbe;

static void
probe_archive(void *arg)
{
	ArchiveProbe *probe = (ArchiveProbe *) arg;

	(void) check_archive(probe->set->key, probe->archive);
}

/*
 * partmgr_archive_problems
 *		Why the archive of a set takes nothing now (it was dropped, is no
 *		longer a set, changed owner or columns): the message of the check
 *		that fails, for health; NIL when it is fine or there is none.
 */
List *
partmgr_archive_problems(PartmgrSet *set)
{
	ArchiveProbe probe;
	ErrorData  *edata = NULL;

	probe.set = set;
	probe.archive = partmgr_archive_of(set->key);
	if (probe.archive == NULL ||
		partmgr_run_subxact(probe_archive, &probe, &edata))
		return NIL;
	return list_make1(psprintf("archive: %s, so retention keeps the expired children",
							   edata->message));
}

/*
 * partmgr_archive_fit
 *		The name a child takes in the archive when it can be attached there
 *		as it is (see the file header), or NULL when its rows must move.
 */
char *
partmgr_archive_fit(const PartmgrSet *set, const PartmgrSet *archive,
					const PartmgrTree *archive_tree, const PartmgrChild *child)
{
	char	   *name;
	bool		isnull;

	if (child->relkind != RELKIND_RELATION ||
		child->lower == PARTMGR_POINT_MIN || child->upper == PARTMGR_POINT_MAX)
		return NULL;
	for (int i = 0; i < archive_tree->nchildren; i++)
	{
		if (archive_tree->children[i].relkind != RELKIND_RELATION)
			return NULL;
	}
	if (partmgr_sub_spec_load(archive->key) != NULL ||
		!partmgr_unique_none(archive->parent_oid))
		return NULL;
	if (partmgr_slot_lower(archive, archive_tree, child->lower) != child->lower ||
		partmgr_slot_upper(archive, child->lower) != child->upper ||
		partmgr_tree_find_overlap(archive_tree, child->lower,
								  child->upper) != NULL)
		return NULL;
	if (column_missing(set->parent_oid, archive->parent_oid, true) != NULL ||
		column_missing(archive->parent_oid, set->parent_oid, true) != NULL)
		return NULL;
	name = partmgr_child_name(archive, child->lower);
	if (OidIsValid(get_relname_relid(name,
									 get_namespace_oid(archive->parent_schema,
													   false))))
		return NULL;
	if (OidIsValid(archive_tree->default_oid))
	{
		partmgr_spi_table_exec(partmgr_query_count_range(set,
														 archive_tree->default_schema,
														 archive_tree->default_name,
														 child->lower,
														 child->upper, 0),
							   0, NULL, NULL, NULL, false, SPI_OK_SELECT);
		if (DatumGetInt64(partmgr_spi_value(0, 1, &isnull)) > 0)
			return NULL;
	}
	return name;
}

/*
 * partmgr_plan_archive_children
 *		The archive's plan of the children its grid has in each range (a List
 *		of PartmgrChild, the expired children whose rows move there) that it
 *		lacks, with what new tables get (partmgr_plan_tables).
 */
PartmgrPlan *
partmgr_plan_archive_children(PartmgrSet *archive, const List *ranges)
{
	PartmgrTree *tree = partmgr_read_tree(archive);
	PartmgrPlan *plan = partmgr_plan_new(archive, tree);
	const ListCell *lc;

	foreach(lc, ranges)
	{
		const PartmgrChild *range = (const PartmgrChild *) lfirst(lc);
		PartmgrPoint lower = partmgr_slot_lower(archive, tree, range->lower);

		while (lower < range->upper)
		{
			PartmgrPoint upper = partmgr_slot_upper(archive, lower);
			const PartmgrChild *there = partmgr_tree_find_overlap(tree, lower,
																  upper);

			CHECK_FOR_INTERRUPTS();
			if (there != NULL)
				upper = there->upper;	/* what it holds goes there */
			else if (partmgr_plan_add_child(plan, lower,
											upper) == PARTMGR_SLOT_OUT_OF_RANGE)
				break;
			if (upper <= lower)
				break;
			lower = upper;
		}
	}
	partmgr_plan_tables(plan);
	return plan;
}

/*
 * partmgr_archive_retention
 *		Put the set's archive, checked, into its retention policy (read by
 *		partmgr_retention_from_config): expired children then go there, in
 *		one transaction each, and none is kept or moved to a schema.  False
 *		when the set has no archive.
 */
bool
partmgr_archive_retention(const PartmgrSet *set, PartmgrRetention *retention)
{
	retention->retire.archive = partmgr_archive_load(set);
	if (retention->retire.archive == NULL)
		return false;
	retention->retire.keep_table = false;
	retention->retire.schema = NULL;
	retention->retire.concurrently = false;
	return true;
}

/*
 * bound_check_state
 *		Whether a child has the CHECK of its bounds that ATTACH can take for
 *		its partition constraint (PARTMGR_BOUND_CHECK): 0 none, 1 NOT VALID,
 *		2 valid.
 */
static int
bound_check_state(Oid relid)
{
	static const char *const sql =
	"SELECT convalidated FROM pg_catalog.pg_constraint"
	" WHERE conrelid = $1 AND conname = $2 AND contype = 'c'";
	Oid			types[2] = {OIDOID, TEXTOID};
	Datum		values[2];
	bool		isnull;

	values[0] = ObjectIdGetDatum(relid);
	values[1] = CStringGetTextDatum(PARTMGR_BOUND_CHECK);
	if (partmgr_spi_exec_cached(sql, 2, types, values, NULL, false,
								SPI_OK_SELECT) == 0)
		return 0;
	return DatumGetBool(partmgr_spi_value(0, 1, &isnull)) ? 2 : 1;
}

/*
 * partmgr_archive_place
 *		For each child a retention plan puts into the archive: whether it is
 *		attached there as it is, and under which name (partmgr_archive_fit),
 *		with the archive's children as they are now, and whether its bound
 *		CHECK is valid.  The children in wait (OIDs) leave the plan: their
 *		CHECK was added NOT VALID in this transaction, and the next run
 *		validates it and attaches them.
 */
void
partmgr_archive_place(const PartmgrSet *set, PartmgrPlan *plan, List *wait)
{
	PartmgrTree *archive_tree = NULL;
	ListCell   *lc;

	foreach(lc, plan->actions)
	{
		PartmgrAction *action = (PartmgrAction *) lfirst(lc);
		PartmgrChild child;

		if (action->kind != PARTMGR_ACTION_RETIRE_CHILD ||
			action->retire.archive == NULL)
			continue;
		if (list_member_oid(wait, action->relid))
		{
			plan->actions = foreach_delete_current(plan->actions, lc);
			continue;
		}
		if (archive_tree == NULL)
			archive_tree = partmgr_read_tree(action->retire.archive);
		memset(&child, 0, sizeof(child));
		child.relid = action->relid;
		child.relkind = get_rel_relkind(action->relid);
		child.lower = action->lower;
		child.upper = action->upper;
		action->retire.archive_as = partmgr_archive_fit(set,
														action->retire.archive,
														archive_tree, &child);
		action->retire.archive_check = (action->retire.archive_as != NULL &&
										bound_check_state(action->relid) == 2);
	}
}

/*
 * partmgr_plan_archive_checks
 *		For the children a retention plan (placed) attaches to the archive as
 *		they are, without a valid CHECK of their bounds: the set's plan that
 *		adds it NOT VALID (a moment of ACCESS EXCLUSIVE on the child; the
 *		child goes into *wait, for retention to keep it this run) or, added
 *		by an earlier run, validates it (SHARE UPDATE EXCLUSIVE: reads and
 *		writes go on while it scans).
 */
PartmgrPlan *
partmgr_plan_archive_checks(PartmgrSet *set, PartmgrTree *tree,
							const PartmgrPlan *retire, List **wait)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);
	ListCell   *lc;

	foreach(lc, retire->actions)
	{
		const PartmgrAction *action = (const PartmgrAction *) lfirst(lc);
		PartmgrChild child;
		PartmgrAction *check;
		int			state;

		if (action->kind != PARTMGR_ACTION_RETIRE_CHILD ||
			action->retire.archive_as == NULL || action->retire.archive_check)
			continue;
		state = bound_check_state(action->relid);
		memset(&child, 0, sizeof(child));
		child.relid = action->relid;
		child.schema = action->schema;
		child.name = action->name;
		child.lower = action->lower;
		child.upper = action->upper;
		check = partmgr_plan_add_on_child(plan, state == 0 ?
										  PARTMGR_ACTION_ADD_CONSTRAINTS :
										  PARTMGR_ACTION_VALIDATE_CONSTRAINT,
										  &child);
		check->constraints = list_make1(pstrdup(PARTMGR_BOUND_CHECK));
		if (state == 0)
		{
			check->checks = list_make1(partmgr_bound_check_expr(set,
																action->lower,
																action->upper));
			*wait = lappend_oid(*wait, action->relid);
		}
	}
	return plan;
}

/*
 * partmgr_plan_archive_moves
 *		For a set with an archive: the moves of the rows of the children a
 *		retention plan (placed) archives by their rows, into the archive,
 *		each proved by a count there (a MOVE_ROWS action per table, whose
 *		retire.archive names the archive); *ranges gets those children
 *		(PartmgrChild), whose ranges the archive must have children for
 *		(partmgr_plan_archive_children).  Run before retention, under ROW
 *		EXCLUSIVE locks only, so that retention's ACCESS EXCLUSIVE locks
 *		are held for an empty child.  Paced: once the children planned hold
 *		pg_partmgr.tier_bytes_per_run (at least one child is planned), the
 *		others go into *wait, for retention to keep them this run.
 */
PartmgrPlan *
partmgr_plan_archive_moves(PartmgrSet *set, PartmgrTree *tree,
						   const PartmgrPlan *retire, List **ranges,
						   List **wait)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);
	int64		budget = (int64) partmgr_tier_bytes_per_run * 1024;
	int64		planned = 0;
	ListCell   *lc;

	*ranges = NIL;
	foreach(lc, retire->actions)
	{
		const PartmgrAction *action = (const PartmgrAction *) lfirst(lc);
		PartmgrChild *range;
		ListCell   *sc;

		if (action->kind != PARTMGR_ACTION_RETIRE_CHILD ||
			action->retire.archive == NULL ||
			action->retire.archive_as != NULL)
			continue;
		if (*ranges != NIL && planned >= budget)
		{
			/* paced: retention keeps it for a later run */
			*wait = lappend_oid(*wait, action->relid);
			continue;
		}
		range = palloc0(sizeof(PartmgrChild));
		range->relid = action->relid;
		range->schema = action->schema;
		range->name = action->name;
		range->lower = action->lower;
		range->upper = action->upper;
		*ranges = lappend(*ranges, range);
		foreach(sc, partmgr_archive_sources(set, action->relid))
		{
			PartmgrSet *archive = action->retire.archive;

			planned += partmgr_total_bytes(((PartmgrRowSource *) lfirst(sc))->relid);
			partmgr_plan_add_move(plan, (PartmgrRowSource *) lfirst(sc),
								  archive->parent_schema, archive->parent_name,
								  action->lower, action->upper);
			((PartmgrAction *) llast(plan->actions))->retire.archive = archive;
		}
	}
	return plan;
}
