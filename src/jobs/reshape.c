/*-------------------------------------------------------------------------
 *
 * reshape.c
 *	  Reshaping children of a live set: split one child into several,
 *	  merge adjacent children into one, or both at once (a run of children
 *	  made to another grid), while the application goes on reading and
 *	  writing them.
 *
 * A reshape replaces old children (sources) by new ones (targets) covering
 * the same range.  It goes through phases, each step in a transaction of
 * its own, recorded in partmgr.reshape_operation (reshape_state.c):
 *
 *	planned		registered; nothing built yet.
 *	build		(one step) the change log and the staging table -- a table
 *				partitioned like the parent, which routes rows into the new
 *				children -- are created in the parent's schema, each new
 *				child with the unique index that identifies a row, behind a
 *				CHECK of its bound, attached to the staging table; then a
 *				trigger on each old child starts recording the key of every
 *				row that changes (capture.c).  Creating the trigger takes the
 *				old child in SHARE ROW EXCLUSIVE mode for a moment, so that
 *				no write is in flight without it.
 *	copy		the old children's blocks are copied batch by batch through
 *				the staging table (a row met twice, moved by an update, is
 *				copied once: the log names it anyway).
 *	index		the changes captured so far are applied, then each new child
 *				gets the rest of what the old one has: indexes, constraints,
 *				foreign keys, replica identity, grants, statistics settings
 *				(properties.c), and is analyzed.
 *	catch up	the default partition gets a CHECK excluding the range
 *				(added NOT VALID, validated in a step of its own: it locks
 *				the default only for a moment), and captured changes are
 *				applied until few are left; then the swap.
 *	swap		(one transaction) every lock is taken first, conditionally,
 *				in the fixed order; the last changes are applied; the old
 *				children are detached and dropped with the change log; the
 *				new ones leave the staging table and are attached to the
 *				parent under their final names.  Their bound CHECKs and the
 *				default's make ATTACH scan nothing; their indexes are
 *				adopted as the parent's.  The set's eras then record the new
 *				children's interval (range sets) and the operation is gone.
 *
 * A row is in the old children until the swap, and in the new ones from
 * its commit on: readers never see one twice, nor miss one.  A crash or a
 * cancel in any step rolls that step back; the next call goes on from the
 * last committed one, and cancel_reshape drops what was built.  An old
 * child truncated meanwhile leaves a mark in the log: the new children are
 * emptied and filled again.
 *
 * A row is found in the old children and the new ones by a unique index
 * of the old child whose columns are all NOT NULL (its primary key, its
 * replica identity, or else the first such index): a reshape needs one.
 *
 * This file decides what happens; work.c says how (locks and statements),
 * statements.c writes the SQL.  Runs in the caller's transaction, inside the
 * set owner's rights scope.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/reshape.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/relation.h"
#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_class.h"
#include "catalog/pg_tablespace_d.h"
#include "catalog/pg_type.h"
#include "commands/tablespace.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "bounds.h"
#include "capture.h"
#include "catalog.h"
#include "compat.h"
#include "config.h"
#include "execute.h"
#include "log.h"
#include "statements.h"
#include "locks.h"
#include "properties.h"
#include "rights.h"
#include "reshape.h"
#include "spi_util.h"

/* captured changes left that the swap applies itself, under its locks */
#define SWAP_BACKLOG	10000

/* What a name of the set's schema is checked against. */
static bool
relation_exists(const char *schema, const char *name)
{
	Oid			nspid = get_namespace_oid(schema, false);

	return OidIsValid(get_relname_relid(name, nspid));
}

static const char *
rel_display(Oid relid)
{
	return partmgr_key_display(partmgr_table_key(relid));
}

static bool
is_hash_kind(const char *kind)
{
	return strncmp(kind, "hash ", 5) == 0;
}

/* A move: one child into a copy of itself in another tablespace. */
static bool
is_move_kind(const char *kind)
{
	return strcmp(kind, "move") == 0 || strcmp(kind, "hash move") == 0;
}

/*
 * check_kind_fits
 *		A range reshape on a range set, a hash one on a hash set.
 */
static void
check_kind_fits(const PartmgrSet *set, const PartmgrReshapeRequest *req)
{
	if (is_hash_kind(req->kind) && set->strategy != PARTITION_STRATEGY_HASH)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partition set \"%s\" is not partitioned by HASH",
						set->key),
				 errhint("Use split_partition() or merge_partitions() for a range set.")));
	if (!is_hash_kind(req->kind) && set->strategy == PARTITION_STRATEGY_HASH)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partition set \"%s\" is partitioned by HASH",
						set->key),
				 errhint("Use split_hash_partition() or merge_hash_partitions().")));
	if (set->strategy == PARTITION_STRATEGY_LIST && is_move_kind(req->kind))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the children of list set \"%s\" cannot be moved online",
						set->key),
				 errhint("Use ALTER TABLE ... SET TABLESPACE, which locks the child while it is rewritten.")));
	if (set->strategy == PARTITION_STRATEGY_LIST)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the children of list set \"%s\" cannot be reshaped",
						set->key),
				 errdetail("Each child of a list set holds one value.")));
	if (set->undo_in_progress)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("partition set \"%s\" is being undone", set->key)));
	if (set->async_in_progress != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("partition_data_async() is filling a child of \"%s\"",
						set->key),
				 errhint("Call partition_data_async() until it finishes first.")));
}

/*
 * check_source
 *		One child to replace: a plain table (not a sub-parent) of the set,
 *		not being detached, with finite bounds, not in another reshape,
 *		nothing depending on it that dropping it would take along.
 */
static const PartmgrChild *
check_source(const PartmgrSet *set, const PartmgrTree *tree, Oid relid,
			 bool hash)
{
	const PartmgrChild *child = partmgr_tree_find_child(tree, relid);
	PartmgrReshapeOp *other;
	Oid			types[1] = {OIDOID};
	Datum		values[1];

	if (child == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("table %s is not a child of partition set \"%s\"",
						rel_display(relid),
						set->key)));
	if (child->relkind == RELKIND_PARTITIONED_TABLE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("child %s of \"%s\" is partitioned itself",
						rel_display(relid), set->key),
				 errhint("Reshape the children of its own set, %s, instead.",
						 quote_literal_cstr(partmgr_table_key(relid)))));
	if (child->detach_pending)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("child %s of \"%s\" is being detached",
						rel_display(relid), set->key)));
	if (!hash &&
		(child->lower == PARTMGR_POINT_MIN ||
		 child->upper == PARTMGR_POINT_MAX))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("child %s of \"%s\" is bounded by MINVALUE or MAXVALUE",
						rel_display(relid), set->key),
				 errdetail("A reshape cuts a range at values; an open range has none at that end.")));
	other = partmgr_reshape_of_table(set->key, partmgr_table_key(relid));
	if (other != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_IN_USE),
				 errmsg("child %s of \"%s\" is already being reshaped",
						rel_display(relid),
						set->key),
				 errdetail("Reshape " INT64_FORMAT " (%s, in phase %s) replaces it.", other->id,
						   other->kind,
						   partmgr_reshape_phase_name(other->phase)),
				 errhint("Finish it with CALL partmgr.run_reshape(%s), or undo it with SELECT partmgr.cancel_reshape(%s).",
						 quote_literal_cstr(set->key),
						 quote_literal_cstr(set->key))));

	values[0] = ObjectIdGetDatum(relid);
	if (partmgr_spi_exec_cached("SELECT"
								" v.oid::pg_catalog.regclass::pg_catalog.text"
								"  FROM pg_catalog.pg_depend d"
								"  JOIN pg_catalog.pg_rewrite w ON w.oid ="
								" d.objid"
								"  JOIN pg_catalog.pg_class v ON v.oid ="
								" w.ev_class"
								" WHERE d.classid ="
								" 'pg_catalog.pg_rewrite'::pg_catalog.regclass"
								"   AND d.refclassid ="
								" 'pg_catalog.pg_class'::pg_catalog.regclass"
								"   AND d.refobjid = $1 AND w.ev_class <> $1"
								" LIMIT 1",
								1, types, values, NULL, false,
								SPI_OK_SELECT) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
				 errmsg("view %s depends on child %s of \"%s\"",
						partmgr_spi_text(0, 1),
						rel_display(relid), set->key),
				 errdetail("The reshape drops the child once new ones hold its rows."),
				 errhint("Make the view read the parent instead.")));
	if (partmgr_spi_exec_cached("SELECT p.pubname FROM"
								" pg_catalog.pg_publication_rel r"
								"  JOIN pg_catalog.pg_publication p ON p.oid"
								" = r.prpubid"
								" WHERE r.prrelid = $1 LIMIT 1",
								1, types, values, NULL, false,
								SPI_OK_SELECT) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("child %s of \"%s\" is in publication \"%s\"",
						rel_display(relid),
						set->key, partmgr_spi_text(0, 1)),
				 errhint("Publish the parent instead, or take the child out of the publication first.")));
	if (partmgr_spi_exec_cached("SELECT t.tgname FROM pg_catalog.pg_trigger t"
								"  JOIN pg_catalog.pg_proc p ON p.oid ="
								" t.tgfoid"
								"  JOIN pg_catalog.pg_namespace n ON n.oid ="
								" p.pronamespace"
								" WHERE t.tgrelid = $1 AND NOT t.tgisinternal"
								"   AND t.tgparentid = 0"
								"   AND NOT (n.nspname = 'partmgr'"
								"            AND p.proname IN"
								" ('global_unique_truncate', 'reshape_capture'))"
								" LIMIT 1",
								1, types, values, NULL, false,
								SPI_OK_SELECT) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("child %s of \"%s\" has trigger \"%s\" of its own",
						rel_display(relid),
						set->key, partmgr_spi_text(0, 1)),
				 errdetail("The new children would not have it."),
				 errhint("Define the trigger on the parent, which gives it to every child, or drop it first.")));
	return child;
}

/*
 * check_not_referenced
 *		Refuse a set that foreign keys reference: detaching an old child
 *		checks that no row references it, and its rows are still there.
 */
static void
check_not_referenced(const PartmgrSet *set)
{
	Oid			types[1] = {OIDOID};
	Datum		values[1];
	List	   *tables = list_make1_oid(set->parent_oid);
	ListCell   *lc;

	if (get_rel_relispartition(set->parent_oid))
		tables = list_concat(tables, get_partition_ancestors(set->parent_oid));
	foreach(lc, tables)
	{
		values[0] = ObjectIdGetDatum(lfirst_oid(lc));
		if (partmgr_spi_exec_cached("SELECT"
									" conrelid::pg_catalog.regclass::pg_catalog.text, conname"
									"  FROM pg_catalog.pg_constraint"
									" WHERE contype = 'f' AND confrelid = $1"
									" AND conparentid = 0 LIMIT 1",
									1, types, values, NULL, false,
									SPI_OK_SELECT) > 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("children of \"%s\" cannot be reshaped while foreign key \"%s\" of %s references %s",
							set->key, partmgr_spi_text(0, 2),
							partmgr_spi_text(0, 1),
							rel_display(lfirst_oid(lc))),
					 errdetail("Detaching a child checks that no row references it.")));
	}
}

/*
 * key_index
 *		The unique index of a child that identifies its rows: its primary
 *		key, else its replica identity index, else its first valid unique
 *		index on plain columns all NOT NULL, without a predicate.
 */
static Oid
key_index(const PartmgrSet *set, Oid relid)
{
	static const char *const sql =
	"SELECT i.indexrelid FROM pg_catalog.pg_index i"
	" WHERE i.indrelid = $1 AND i.indisunique AND i.indisvalid AND i.indislive"
	"   AND i.indimmediate AND i.indpred IS NULL AND i.indexprs IS NULL"
	"   AND NOT EXISTS (SELECT FROM"
	" pg_catalog.unnest(i.indkey[0:i.indnkeyatts - 1]) k(attnum)"
	"                    JOIN pg_catalog.pg_attribute a"
	"                      ON a.attrelid = i.indrelid AND a.attnum = k.attnum"
	"                   WHERE NOT a.attnotnull)"
	" ORDER BY i.indisprimary DESC, i.indisreplident DESC, i.indexrelid LIMIT 1";
	Oid			types[1] = {OIDOID};
	Datum		values[1];
	bool		isnull;

	values[0] = ObjectIdGetDatum(relid);
	if (partmgr_spi_exec_cached(sql, 1, types, values, NULL, false,
								SPI_OK_SELECT) == 0)
	{
		HeapTuple	att = SearchSysCacheAttName(set->parent_oid, set->control);
		bool		key_not_null = HeapTupleIsValid(att) &&
		((Form_pg_attribute) GETSTRUCT(att))->attnotnull;

		if (HeapTupleIsValid(att))
			ReleaseSysCache(att);
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("child %s of \"%s\" has no primary key",
						rel_display(relid), set->key),
				 errdetail("A reshape finds each row in the old child and in the new ones by a unique index whose columns are all NOT NULL, without a predicate or an expression."),
				 key_not_null ?
				 errhint("Add a primary key to the parent (it must include %s), or a unique index on NOT NULL columns to the child.",
						 quote_identifier(set->control)) :
				 errhint("Column %s can be NULL, so no primary key can include it: add a unique index on NOT NULL columns to the child (CREATE UNIQUE INDEX ON %s (...)).",
						 quote_identifier(set->control), rel_display(relid))));
	}
	return DatumGetObjectId(partmgr_spi_value(0, 1, &isnull));
}

/*
 * with_pieces
 *		A copy of set whose span of the pieces follows them (the eras it
 *		will have once they are swapped in).
 */
static PartmgrSet *
with_pieces(const PartmgrSet *set, const PartmgrEra *pieces, int npieces,
			PartmgrPoint lowest)
{
	PartmgrSet *trial = palloc(sizeof(PartmgrSet));

	*trial = *set;
	trial->eras = partmgr_eras_reshape(set, pieces, npieces, lowest,
									   &trial->neras);
	return trial;
}

static void
make_piece(const PartmgrSet *set, PartmgrEra *piece, PartmgrPoint lower,
		   PartmgrPoint upper,
		   const PartmgrStep *step, const char *format, bool aligned)
{
	memset(piece, 0, sizeof(*piece));
	piece->start = lower;
	piece->end = upper;
	piece->step = *step;
	piece->interval_text = partmgr_step_text(step);
	piece->datetime_string = (char *) format;
	piece->aligned = aligned;
}

/*
 * new_format
 *		The suffix format of children of step replacing children of the era
 *		holding point: the era's own, unless it was its interval's default
 *		(then step's default).  NULL for id sets.
 */
static const char *
new_format(const PartmgrSet *set, PartmgrPoint point, const PartmgrStep *step)
{
	PartmgrEra	era = partmgr_era_at(set, point);

	if (set->axis.kind != PARTMGR_KEY_TIME)
		return NULL;
	if (era.datetime_string == NULL ||
		strcmp(era.datetime_string,
			   partmgr_default_datetime_string(&era.step)) == 0)
		return partmgr_default_datetime_string(step);
	return era.datetime_string;
}

/*
 * names_clash
 *		Whether two of the targets' names are the same, or one is taken by a
 *		table that is not one of the old children.
 */
static bool
names_clash(const PartmgrSet *set, char **names, int n,
			const PartmgrReshapeRequest *req,
			bool report)
{
	Oid			nspid = get_namespace_oid(set->parent_schema, false);

	for (int i = 0; i < n; i++)
	{
		Oid			taken = get_relname_relid(names[i], nspid);
		bool		source = false;

		for (int j = 0; j < req->nsources; j++)
			source |= taken == req->sources[j];
		if (OidIsValid(taken) && !source)
		{
			if (report)
				ereport(ERROR,
						(errcode(ERRCODE_DUPLICATE_TABLE),
						 errmsg("relation \"%s\" already exists",
								quote_qualified_identifier(set->parent_schema,
														   names[i])),
						 errdetail("A new child of \"%s\" needs the name.",
								   set->key),
						 errhint("Rename or drop that table first.")));
			return true;
		}
		for (int j = 0; j < i; j++)
		{
			if (strcmp(names[i], names[j]) == 0)
			{
				if (report)
					ereport(ERROR,
							(errcode(ERRCODE_DUPLICATE_TABLE),
							 errmsg("two new children of \"%s\" would both be named \"%s\"",
									set->key, names[i]),
							 errhint("Set part_config.datetime_string to a format precise enough for the new children.")));
				return true;
			}
		}
	}
	return false;
}

static int
compare_points(const void *a, const void *b)
{
	PartmgrPoint x = *(const PartmgrPoint *) a;
	PartmgrPoint y = *(const PartmgrPoint *) b;

	return x < y ? -1 : x > y;
}

/*
 * range_targets
 *		The bounds (n + 1 of them) and names of the children a range reshape
 *		makes, and how their era is written down (op->interval, format,
 *		aligned).  Returns n.
 */
static int
range_targets(const PartmgrSet *set, const PartmgrTree *tree,
			  const PartmgrReshapeRequest *req,
			  const PartmgrChild **sources, PartmgrReshapeOp *op,
			  PartmgrPoint **bounds)
{
	PartmgrPoint lower = sources[0]->lower;
	PartmgrPoint upper = sources[req->nsources - 1]->upper;
	PartmgrPoint lowest = tree->children[0].lower;
	PartmgrPoint *b = palloc(sizeof(PartmgrPoint) *
							 (PARTMGR_RESHAPE_MAX_TARGETS + 1));
	PartmgrEra *pieces;
	PartmgrSet *trial;
	PartmgrStep step;
	int			n = 0;
	const char *format;

	if (req->interval != NULL)
	{
		PartmgrEra	piece;
		PartmgrErrorContext argctx;

		partmgr_context_push(&argctx, "argument %s", "p_interval");
		partmgr_step_parse(&set->axis, req->interval, PARTMGR_STEP_PARTITION,
						   &step);
		partmgr_context_pop(&argctx);
		if (step.kind == PARTMGR_KEY_ID && step.id < 2)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("partition interval of a range id set must be at least 2")));
		format = new_format(set, lower, &step);
		make_piece(set, &piece, lower, upper, &step, format, true);
		trial = with_pieces(set, &piece, 1, lowest);
		b[n++] = lower;
		while (b[n - 1] < upper)
		{
			CHECK_FOR_INTERRUPTS();
			if (n > PARTMGR_RESHAPE_MAX_TARGETS)
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("splitting %s into children of %s would make more than %d of them",
								rel_display(req->sources[0]), req->interval,
								PARTMGR_RESHAPE_MAX_TARGETS)));
			b[n] = Min(partmgr_slot_upper(trial, b[n - 1]), upper);
			n++;
		}
		n--;
		if (n < 2 && strcmp(req->kind, "split") == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("interval %s does not split child %s of \"%s\"",
							req->interval,
							rel_display(req->sources[0]), set->key),
					 errdetail("The child covers values from %s to %s, no more than one child of %s.",
							   partmgr_point_display(&set->axis, lower),
							   partmgr_point_display(&set->axis, upper),
							   req->interval)));
		op->interval = partmgr_step_text(&step);
		op->aligned = true;
	}
	else
	{
		ListCell   *lc;
		PartmgrStep finest;

		b[n++] = lower;
		foreach(lc, req->bounds)
		{
			PartmgrErrorContext argctx;
			PartmgrPoint point;

			if (n >= PARTMGR_RESHAPE_MAX_TARGETS)
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("a reshape makes at most %d children",
								PARTMGR_RESHAPE_MAX_TARGETS)));
			partmgr_context_push(&argctx, "argument %s", "p_bounds");
			point = partmgr_point_parse(&set->axis, (char *) lfirst(lc));
			partmgr_context_pop(&argctx);
			if (point <= lower || point >= upper)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("bound %s lies outside child %s of \"%s\"",
								(char *) lfirst(lc),
								rel_display(req->sources[0]), set->key),
						 errdetail("The child covers values from %s (inclusive) to %s (exclusive); a bound must lie strictly between.",
								   partmgr_point_display(&set->axis, lower),
								   partmgr_point_display(&set->axis, upper))));
			b[n++] = point;
		}
		b[n++] = upper;
		qsort(b + 1, n - 2, sizeof(PartmgrPoint), compare_points);
		for (int i = 1; i < n; i++)
		{
			if (b[i] == b[i - 1])
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("bound %s is given twice",
								partmgr_point_display(&set->axis, b[i]))));
		}
		n--;
		/* the format tells the shortest apart */
		partmgr_natural_step(&set->axis, b[0], b[1], &finest);
		for (int i = 1; i < n; i++)
		{
			PartmgrStep s;

			partmgr_natural_step(&set->axis, b[i], b[i + 1], &s);
			if (set->axis.kind == PARTMGR_KEY_TIME &&
				DatumGetInt32(DirectFunctionCall2(interval_cmp,
												  IntervalPGetDatum(&s.time),
												  IntervalPGetDatum(&finest.time))) < 0)
				finest = s;
		}
		format = new_format(set, lower, &finest);
		op->interval = NULL;
		op->aligned = false;
	}

	/* each piece its own era when there is no one interval */
	pieces = palloc(sizeof(PartmgrEra) * n);
	for (int i = 0; i < n; i++)
	{
		PartmgrStep s;

		if (op->interval != NULL)
			s = step;
		else
			partmgr_natural_step(&set->axis, b[i], b[i + 1], &s);
		make_piece(set, &pieces[i], b[i], b[i + 1], &s, format, op->aligned);
	}
	if (op->interval != NULL)
	{
		pieces[0].end = upper;
		trial = with_pieces(set, pieces, 1, lowest);
	}
	else
		trial = with_pieces(set, pieces, n, lowest);
	op->targets = palloc(sizeof(char *) * n);
	for (int i = 0; i < n; i++)
		op->targets[i] = partmgr_child_name(trial, b[i]);
	if (set->axis.kind == PARTMGR_KEY_TIME &&
		names_clash(set, op->targets, n, req, false) &&
		strcmp(format, partmgr_default_datetime_string(&pieces[0].step)) != 0)
	{
		/* the set's own format does not tell them apart: the default does */
		format = partmgr_default_datetime_string(&pieces[0].step);
		for (int i = 0; i < n; i++)
			pieces[i].datetime_string = (char *) format;
		trial = with_pieces(set, pieces, op->interval != NULL ? 1 : n, lowest);
		for (int i = 0; i < n; i++)
			op->targets[i] = partmgr_child_name(trial, b[i]);
	}
	(void) names_clash(set, op->targets, n, req, true);
	op->format = (char *) format;
	*bounds = b;
	return n;
}

/*
 * check_moduli
 *		PostgreSQL's rule for the children of a hash-partitioned table, once
 *		the old children are replaced by children of new_modulus: sorted,
 *		every modulus divides the next.
 */
static void
check_moduli(const PartmgrSet *set, const PartmgrTree *tree,
			 const PartmgrReshapeRequest *req,
			 int new_modulus)
{
	int		   *moduli = palloc(sizeof(int) * (tree->nchildren + 1));
	int			n = 0;

	for (int i = 0; i < tree->nchildren; i++)
	{
		bool		replaced = false;

		for (int j = 0; j < req->nsources; j++)
			replaced |= tree->children[i].relid == req->sources[j];
		if (!replaced)
			moduli[n++] = tree->children[i].modulus;
	}
	moduli[n++] = new_modulus;
	for (int i = 0; i < n; i++)
	{
		for (int j = 0; j < n; j++)
		{
			int			lo = Min(moduli[i], moduli[j]);
			int			hi = Max(moduli[i], moduli[j]);

			if (hi % lo != 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("hash set \"%s\" would have children of modulus %d and %d", set->key,
								lo, hi),
						 errdetail("PostgreSQL needs each modulus of a hash-partitioned table to divide the next larger one.")));
		}
	}
}

/*
 * hash_targets
 *		The children a hash reshape makes: a split of remainder r of modulus
 *		m into r and r + m of modulus 2m, or the merge of those two back.
 *		Returns how many (op->targets and op->bounds, "modulus/remainder",
 *		filled in).
 */
static int
hash_targets(const PartmgrSet *set, const PartmgrTree *tree,
			 const PartmgrReshapeRequest *req,
			 const PartmgrChild **sources, PartmgrReshapeOp *op)
{
	int			moduli[2];
	int			remainders[2];
	int			n;

	if (strcmp(req->kind, "hash split") == 0)
	{
		int			m = sources[0]->modulus;
		int			r = sources[0]->remainder;

		if (m * 2 > PARTMGR_MAX_HASH_MODULUS)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("child %s of \"%s\" has modulus %d: a split would make it more than %d",
							rel_display(sources[0]->relid), set->key, m,
							PARTMGR_MAX_HASH_MODULUS)));
		n = 2;
		moduli[0] = moduli[1] = m * 2;
		remainders[0] = r;
		remainders[1] = r + m;
	}
	else
	{
		const PartmgrChild *a = sources[0];
		const PartmgrChild *b = sources[1];

		if (req->nsources != 2)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("merge_hash_partitions() merges two children, not %d", req->nsources)));
		if (a->remainder > b->remainder)
		{
			a = sources[1];
			b = sources[0];
		}
		if (a->modulus != b->modulus || a->modulus % 2 != 0 ||
			b->remainder != a->remainder + a->modulus / 2)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("children %s and %s of \"%s\" are not the two halves of one remainder",
							rel_display(a->relid), rel_display(b->relid),
							set->key),
					 errdetail("They hold remainder %d of modulus %d and remainder %d of modulus %d; two halves hold remainders r and r + m of modulus 2m.",
							   a->remainder, a->modulus, b->remainder,
							   b->modulus)));
		n = 1;
		moduli[0] = a->modulus / 2;
		remainders[0] = a->remainder;
	}
	check_moduli(set, tree, req, moduli[0]);
	op->targets = palloc(sizeof(char *) * n);
	op->bounds = palloc(sizeof(char *) * n);
	for (int i = 0; i < n; i++)
	{
		op->targets[i] = partmgr_hash_child_name(set, moduli[i], remainders[i]);
		op->bounds[i] = psprintf("%d/%d", moduli[i], remainders[i]);
	}
	(void) names_clash(set, op->targets, n, req, true);
	return n;
}

/*
 * partmgr_owner_may_create_in
 *		Whether the set's owner may make tables in a tablespace (the
 *		database's own: always).
 */
bool
partmgr_owner_may_create_in(const PartmgrSet *set, Oid spcid)
{
	return spcid == MyDatabaseTableSpace ||
		partmgr_tablespace_aclcheck(spcid, set->parent_owner,
									ACL_CREATE) == ACLCHECK_OK;
}

/*
 * partmgr_check_owner_tablespace
 *		A tablespace that moves go to: it must exist (42704), hold tables
 *		(not pg_global: 22023) and be one the set's owner may create in
 *		(42501, with the GRANT; detail says why the owner's rights count).
 */
void
partmgr_check_owner_tablespace(const PartmgrSet *set, const char *tablespace,
							   const char *detail)
{
	Oid			spcid = get_tablespace_oid(tablespace, false);

	if (spcid == GLOBALTABLESPACE_OID)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("only shared relations can be placed in the pg_global tablespace")));
	if (!partmgr_owner_may_create_in(set, spcid))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("the owner of \"%s\", %s, may not create tables in tablespace \"%s\"",
						set->key, GetUserNameFromId(set->parent_owner, false),
						tablespace),
				 errdetail("%s", detail),
				 errhint("%s", partmgr_ddl_grant_on("CREATE", "TABLESPACE",
													quote_identifier(tablespace),
													set->parent_owner))));
}

/*
 * move_targets
 *		A move's one new child: the old one's bounds and name, in the
 *		tablespace req names.  The name stays, so the child must be in the
 *		parent's schema, where new children are made (0A000).  The
 *		tablespace must exist, hold tables (not pg_global: 22023) and be one
 *		the set's owner may create in (42501, with the GRANT): every step
 *		runs with the owner's rights.
 */
static int
move_targets(const PartmgrSet *set, const PartmgrReshapeRequest *req,
			 const PartmgrChild *source, PartmgrReshapeOp *op,
			 PartmgrPoint **bounds)
{
	if (req->nsources != 1)
		elog(ERROR, "a move takes one child, not %d", req->nsources);
	if (get_rel_namespace(source->relid) !=
		get_namespace_oid(set->parent_schema, false))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("child %s of \"%s\" is not in the parent's schema",
						rel_display(source->relid), set->key),
				 errdetail("An online move makes the new child in the parent's schema, under the old one's name.")));
	partmgr_check_owner_tablespace(set, req->tablespace,
								   "Every step of a move runs with the rights of the set's owner.");
	op->targets = palloc(sizeof(char *));
	op->targets[0] = get_rel_name(source->relid);
	op->tablespace = pstrdup(req->tablespace);
	if (is_hash_kind(req->kind))
	{
		op->bounds = palloc(sizeof(char *));
		op->bounds[0] = psprintf("%d/%d", source->modulus, source->remainder);
	}
	else
	{
		*bounds = palloc(sizeof(PartmgrPoint) * 2);
		(*bounds)[0] = source->lower;
		(*bounds)[1] = source->upper;
	}
	return 1;
}

/*
 * partmgr_in_tablespace
 *		Whether a table and every index of it are in tablespace spcid (the
 *		database's default when InvalidOid).
 */
bool
partmgr_in_tablespace(Oid relid, Oid spcid)
{
	Oid			types[3] = {OIDOID, OIDOID, OIDOID};
	Datum		values[3];
	bool		isnull;

	values[0] = ObjectIdGetDatum(relid);
	values[1] = ObjectIdGetDatum(OidIsValid(spcid) ? spcid :
								 MyDatabaseTableSpace);
	values[2] = ObjectIdGetDatum(MyDatabaseTableSpace);
	(void) partmgr_spi_exec_cached("SELECT pg_catalog.bool_and(COALESCE(NULLIF(x.reltablespace, 0), $3) = $2)"
								   "  FROM (SELECT c.reltablespace FROM pg_catalog.pg_class c"
								   "         WHERE c.oid = $1"
								   "        UNION ALL"
								   "        SELECT c.reltablespace FROM pg_catalog.pg_index i"
								   "          JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid"
								   "         WHERE i.indrelid = $1) x",
								   3, types, values, NULL, false, SPI_OK_SELECT);
	return DatumGetBool(partmgr_spi_value(0, 1, &isnull)) && !isnull;
}

/*
 * partmgr_reshape_register
 *		Check a request, work out the children it makes, and register it
 *		(reshape_operation, phase planned).  Nothing else changes.  Errors:
 *		22023 for a child of another set, children that are not adjacent,
 *		bounds outside the child, an interval that does not split it; 0A000
 *		for a sub-parent, a set foreign keys reference, a child in a
 *		publication or with triggers of its own; 55006 for a child another
 *		reshape replaces; 55000 for a child without a key; 42P07 for a name
 *		taken; 2BP01 for a view on a child.
 */
PartmgrReshapeOp *
partmgr_reshape_register(PartmgrSet *set, PartmgrTree *tree,
						 const PartmgrReshapeRequest *req)
{
	PartmgrReshapeOp *op = partmgr_reshape_prepare(set, tree, req);

	op->id = partmgr_reshape_insert(op);
	return op;
}

/*
 * partmgr_reshape_prepare
 *		partmgr_reshape_register's checks and the operation it would
 *		register (id 0), registering nothing.
 */
PartmgrReshapeOp *
partmgr_reshape_prepare(PartmgrSet *set, PartmgrTree *tree,
						const PartmgrReshapeRequest *req)
{
	const PartmgrChild **sources = palloc(sizeof(PartmgrChild *) *
										  req->nsources);
	PartmgrReshapeOp *op = palloc0(sizeof(PartmgrReshapeOp));
	bool		hash = is_hash_kind(req->kind);
	PartmgrPoint *bounds;
	int			n;

	check_kind_fits(set, req);
	check_not_referenced(set);
	partmgr_rights_check_trigger_schema(set->parent_owner, set->key,
										"A reshape");
	for (int i = 0; i < req->nsources; i++)
	{
		for (int j = 0; j < i; j++)
		{
			if (req->sources[i] == req->sources[j])
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("child %s is named twice",
								rel_display(req->sources[i]))));
		}
		sources[i] = check_source(set, tree, req->sources[i], hash);
		(void) key_index(set, req->sources[i]);
	}
	if (is_move_kind(req->kind))
	{
		n = move_targets(set, req, sources[0], op, &bounds);
		if (!hash)
		{
			op->bounds = palloc(sizeof(char *) * 2);
			for (int i = 0; i <= 1; i++)
				op->bounds[i] = partmgr_point_display(&set->axis, bounds[i]);
		}
	}
	else if (!hash)
	{
		/* adjacent, lowest first */
		for (int i = 1; i < req->nsources; i++)
		{
			for (int j = i; j > 0 &&
				 sources[j]->lower < sources[j - 1]->lower; j--)
			{
				const PartmgrChild *c = sources[j];

				sources[j] = sources[j - 1];
				sources[j - 1] = c;
			}
		}
		for (int i = 1; i < req->nsources; i++)
		{
			if (sources[i - 1]->upper != sources[i]->lower)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("children %s and %s of \"%s\" are not adjacent",
								rel_display(sources[i - 1]->relid),
								rel_display(sources[i]->relid),
								set->key),
						 errdetail("Values from %s to %s lie between them.",
								   partmgr_point_display(&set->axis,
														 sources[i - 1]->upper),
								   partmgr_point_display(&set->axis,
														 sources[i]->lower))));
		}
		n = range_targets(set, tree, req, sources, op, &bounds);
		op->bounds = palloc(sizeof(char *) * (n + 1));
		for (int i = 0; i <= n; i++)
			op->bounds[i] = partmgr_point_display(&set->axis, bounds[i]);
	}
	else
		n = hash_targets(set, tree, req, sources, op);

	op->key = set->key;
	op->kind = (char *) req->kind;
	op->nsources = req->nsources;
	op->sources = palloc(sizeof(char *) * req->nsources);
	for (int i = 0; i < req->nsources; i++)
		op->sources[i] = partmgr_table_key(sources[i]->relid);
	op->ntargets = n;
	op->phase = PARTMGR_RESHAPE_PLANNED;
	return op;
}

/*
 * partmgr_reshape_runs
 *		change_interval's p_reshape_existing: the reshapes that make the
 *		children below upper follow interval, on the grid the new interval
 *		has from the lowest of them on (aligned as create_parent aligns, and
 *		cut at upper).  The span is cut where a bound of the old children
 *		meets a bound of the new grid; each part that holds more than one
 *		old child, or an old child not on the new grid, is a request of kind
 *		"reshape" (the old children of the part into the new grid's).  A
 *		part with a hole (a child missing) is left as it is, with a NOTICE.
 *		Returns a List of PartmgrReshapeRequest.
 */
List *
partmgr_reshape_runs(PartmgrSet *set, PartmgrTree *tree, PartmgrPoint upper,
					 const char *interval)
{
	PartmgrStep step;
	PartmgrEra	piece;
	PartmgrSet *trial;
	PartmgrPoint lower;
	PartmgrPoint point;
	List	   *requests = NIL;
	int			first = 0;
	int			start;

	while (first < tree->nchildren &&
		   (tree->children[first].lower == PARTMGR_POINT_MIN ||
			tree->children[first].relkind != RELKIND_RELATION))
		first++;
	if (first >= tree->nchildren || tree->children[first].lower >= upper)
		return NIL;
	lower = tree->children[first].lower;
	partmgr_step_parse(&set->axis, interval, PARTMGR_STEP_PARTITION, &step);
	make_piece(set, &piece, lower, upper, &step, NULL, true);
	trial = with_pieces(set, &piece, 1, lower);

	/* walk the new grid; a part ends where it meets a bound of the children */
	start = first;
	point = lower;
	while (start < tree->nchildren && tree->children[start].lower < upper)
	{
		int			end = start;
		bool		hole = tree->children[start].lower != point;
		int			pieces = 0;

		CHECK_FOR_INTERRUPTS();
		while (!hole)
		{
			const PartmgrChild *child = &tree->children[end];

			while (point < child->upper)
			{
				point = Min(partmgr_slot_upper(trial, point), upper);
				pieces++;
			}
			if (point == child->upper)
				break;			/* the part ends with this child */
			/* a slot of the new grid goes on into the next child */
			if (end + 1 >= tree->nchildren ||
				tree->children[end + 1].lower != child->upper ||
				tree->children[end + 1].relkind != RELKIND_RELATION)
				hole = true;
			else
				end++;
		}
		if (hole)
		{
			ereport(NOTICE,
					(errmsg("children of \"%s\" from %s on are left as they are",
							set->key,
							partmgr_point_display(&set->axis,
												  tree->children[start].lower)),
					 errdetail("A child is missing among them, or one is partitioned itself.")));
			break;
		}
		if (end > start || pieces > 1)
		{
			PartmgrReshapeRequest *req = palloc0(sizeof(PartmgrReshapeRequest));

			req->kind = "reshape";
			req->nsources = end - start + 1;
			req->sources = palloc(sizeof(Oid) * req->nsources);
			for (int i = start; i <= end; i++)
				req->sources[i - start] = tree->children[i].relid;
			req->interval = interval;
			requests = lappend(requests, req);
		}
		start = end + 1;
	}
	return requests;
}

/*
 * partmgr_reshape_same_request
 *		Whether a registered operation is what req asks for again (a call
 *		after a crash or a cancel goes on with it).
 */
bool
partmgr_reshape_same_request(const PartmgrSet *set, PartmgrTree *tree,
							 const PartmgrReshapeOp *op,
							 const PartmgrReshapeRequest *req)
{
	PartmgrReshapeOp probe;
	const PartmgrChild **sources;
	PartmgrPoint *bounds;
	int			n;

	if (strcmp(op->kind, req->kind) != 0 || op->nsources != req->nsources)
		return false;
	for (int i = 0; i < req->nsources; i++)
	{
		char	   *key = partmgr_table_key(req->sources[i]);
		bool		found = false;

		for (int j = 0; j < op->nsources; j++)
			found |= strcmp(op->sources[j], key) == 0;
		if (!found)
			return false;
	}
	if (is_move_kind(req->kind))
		return op->tablespace != NULL && req->tablespace != NULL &&
			strcmp(op->tablespace, req->tablespace) == 0;
	if (is_hash_kind(req->kind))
		return true;
	sources = palloc(sizeof(PartmgrChild *) * req->nsources);
	for (int i = 0; i < req->nsources; i++)
	{
		sources[i] = partmgr_tree_find_child(tree, req->sources[i]);
		if (sources[i] == NULL)
			return false;
	}
	if (strcmp(req->kind, "split") != 0)
		return true;			/* the same children, merged */
	memset(&probe, 0, sizeof(probe));
	n = range_targets((PartmgrSet *) set, tree, req, sources, &probe, &bounds);
	if (n != op->ntargets)
		return false;
	for (int i = 0; i <= n; i++)
	{
		if (strcmp(partmgr_point_display(&set->axis, bounds[i]),
				   op->bounds[i]) != 0)
			return false;
	}
	return true;
}

/* ----------------------------------------------------------------
 * What one reshape works with
 * ----------------------------------------------------------------
 */

static char *
work_name(const PartmgrSet *set, int64 id, const char *what)
{
	return partmgr_name_with_suffix(set->parent_name,
									psprintf("_reshape" INT64_FORMAT "%s", id,
											 what));
}

/*
 * read_key
 *		The key columns of an old child (its key index), their types as the
 *		change log declares them and the equality operators that match them.
 */
static void
read_key(PartmgrReshapeTables *r, Oid index)
{
	static const char *const sql =
	"SELECT a.attname,"
	"       pg_catalog.format_type(a.atttypid, a.atttypmod) ||"
	"       CASE WHEN a.attcollation <> 0 AND a.attcollation <> t.typcollation"
	"            THEN ' COLLATE ' || pg_catalog.quote_ident(cn.nspname) ||"
	" '.' ||"
	"                 pg_catalog.quote_ident(co.collname) ELSE '' END,"
	"       'OPERATOR(' || pg_catalog.quote_ident(opn.nspname) || '.' ||"
	" o.oprname || ')'"
	"  FROM pg_catalog.pg_index i"
	"  CROSS JOIN LATERAL ROWS FROM"
	" (pg_catalog.unnest((i.indkey::pg_catalog.int2[])[0:i.indnkeyatts - 1]),"
	"                               "
	" pg_catalog.unnest(i.indclass::pg_catalog.oid[]))"
	"       WITH ORDINALITY AS k(attnum, opclass, n)"
	"  JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum"
	" = k.attnum"
	"  JOIN pg_catalog.pg_type t ON t.oid = a.atttypid"
	"  LEFT JOIN pg_catalog.pg_collation co ON co.oid = a.attcollation"
	"  LEFT JOIN pg_catalog.pg_namespace cn ON cn.oid = co.collnamespace"
	"  JOIN pg_catalog.pg_opclass oc ON oc.oid = k.opclass"
	"  JOIN pg_catalog.pg_amop ao ON ao.amopfamily = oc.opcfamily"
	"   AND ao.amoplefttype = oc.opcintype AND ao.amoprighttype = oc.opcintype"
	"   AND ao.amopstrategy = 3 AND ao.amopmethod = 403"
	"  JOIN pg_catalog.pg_operator o ON o.oid = ao.amopopr"
	"  JOIN pg_catalog.pg_namespace opn ON opn.oid = o.oprnamespace"
	" WHERE i.indexrelid = $1 ORDER BY k.n";
	Oid			types[1] = {OIDOID};
	Datum		values[1];
	uint64		n;

	values[0] = ObjectIdGetDatum(index);
	n = partmgr_spi_exec_cached(sql, 1, types, values, NULL, false,
								SPI_OK_SELECT);
	if (n == 0)
		elog(ERROR, "index %u has no btree equality for its key", index);
	r->nkeys = (int) n;
	r->key_columns = palloc(sizeof(char *) * n);
	r->key_types = palloc(sizeof(char *) * n);
	r->key_equals = palloc(sizeof(char *) * n);
	for (uint64 i = 0; i < n; i++)
	{
		r->key_columns[i] = partmgr_spi_text(i, 1);
		r->key_types[i] = partmgr_spi_text(i, 2);
		r->key_equals[i] = partmgr_spi_text(i, 3);
	}
}

/* The persistence, storage parameters and tablespace of the first old child. */
static void
read_storage(PartmgrReshapeTables *r)
{
	Oid			types[1] = {OIDOID};
	Datum		values[1];
	bool		isnull;
	uint64		n;

	values[0] = ObjectIdGetDatum(r->source_oids[0]);
	n = partmgr_spi_exec_cached("SELECT c.relpersistence = 'u',"
								" c.reltablespace,"
								"       o.option_name || '=' ||"
								" pg_catalog.quote_literal(o.option_value)"
								"  FROM pg_catalog.pg_class c"
								"  LEFT JOIN LATERAL"
								" pg_catalog.pg_options_to_table(c.reloptions) o ON true"
								" WHERE c.oid = $1",
								1, types, values, NULL, false, SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
	{
		char	   *option = partmgr_spi_text(i, 3);

		r->unlogged = DatumGetBool(partmgr_spi_value(i, 1, &isnull));
		r->tablespace = DatumGetObjectId(partmgr_spi_value(i, 2, &isnull));
		if (option != NULL)
			r->reloptions = lappend(r->reloptions, option);
	}
}

/* The tables the set's foreign keys reference. */
static List *
referenced_tables(const PartmgrSet *set)
{
	Oid			types[1] = {OIDOID};
	Datum		values[1];
	List	   *oids = NIL;
	uint64		n;
	bool		isnull;

	values[0] = ObjectIdGetDatum(set->parent_oid);
	n = partmgr_spi_exec_cached("SELECT DISTINCT confrelid FROM"
								" pg_catalog.pg_constraint"
								" WHERE conrelid = $1 AND contype = 'f' ORDER"
								" BY 1",
								1, types, values, NULL, false, SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
		oids = lappend_oid(oids,
						   DatumGetObjectId(partmgr_spi_value(i, 1, &isnull)));
	return oids;
}

/* The xmin of an operation's row: the transaction of its last step. */
static TransactionId
op_xmin(int64 id)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1];
	bool		isnull;

	values[0] = Int64GetDatum(id);
	if (partmgr_spi_exec_cached("SELECT xmin FROM partmgr.reshape_operation"
								" WHERE operation_id = $1",
								1, types, values, NULL, false,
								SPI_OK_SELECT) == 0)
		return InvalidTransactionId;
	return DatumGetTransactionId(partmgr_spi_value(0, 1, &isnull));
}

/*
 * reshape_tables
 *		What the steps of an operation work with, read afresh: the old
 *		children (an old child gone is an error, unless only_existing, for
 *		a cancel), the new ones and the working tables.
 */
static PartmgrReshapeTables *
reshape_tables(const PartmgrSet *set, const PartmgrTree *tree,
			   const PartmgrReshapeOp *op,
			   bool only_existing)
{
	PartmgrReshapeTables *r = palloc0(sizeof(PartmgrReshapeTables));

	r->id = op->id;
	r->schema = set->parent_schema;
	r->stage = work_name(set, op->id, "");
	r->log = work_name(set, op->id, "_log");
	r->trigger = psprintf("partmgr_reshape_" INT64_FORMAT, op->id);
	r->nsources = op->nsources;
	r->source_oids = palloc0(sizeof(Oid) * op->nsources);
	r->source_schemas = palloc(sizeof(char *) * op->nsources);
	r->source_names = palloc(sizeof(char *) * op->nsources);
	for (int i = 0; i < op->nsources; i++)
	{
		r->source_oids[i] = partmgr_key_relid(op->sources[i]);
		if (!OidIsValid(r->source_oids[i]) && !only_existing)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("child %s of \"%s\", which reshape " INT64_FORMAT " replaces, does not exist any more",
							partmgr_key_display(op->sources[i]), set->key,
							op->id),
					 errhint("Undo the reshape with SELECT partmgr.cancel_reshape(%s).",
							 quote_literal_cstr(set->key))));
		if (!partmgr_key_split(op->sources[i], &r->source_schemas[i],
							   &r->source_names[i]))
			elog(ERROR,
				 "reshape " INT64_FORMAT " names \"%s\", which is not a table key",
				 op->id, op->sources[i]);
		/* a row written by hand may name any table: only the set's children */
		if (OidIsValid(r->source_oids[i]) &&
			partmgr_tree_find_child(tree, r->source_oids[i]) == NULL)
		{
			if (!only_existing)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("reshape " INT64_FORMAT " of \"%s\" names %s, which is not a child of the set",
								op->id, set->key,
								partmgr_key_display(op->sources[i])),
						 errhint("Undo the reshape with SELECT partmgr.cancel_reshape(%s).",
								 quote_literal_cstr(set->key))));
			r->source_oids[i] = InvalidOid; /* a cancel leaves it alone */
		}
	}
	r->ntargets = op->ntargets;
	r->work_names = palloc(sizeof(char *) * op->ntargets);
	r->final_names = op->targets;
	r->old_names = palloc(sizeof(char *) * op->nsources);
	for (int i = 0; i < op->nsources; i++)
		r->old_names[i] = work_name(set, op->id, psprintf("_old%d", i));
	r->drop_later = partmgr_reshape_drops_later();
	for (int i = 0; i < op->ntargets; i++)
		r->work_names[i] = work_name(set, op->id, psprintf("_%d", i));
	if (is_hash_kind(op->kind))
	{
		r->moduli = palloc(sizeof(int) * op->ntargets);
		r->remainders = palloc(sizeof(int) * op->ntargets);
		for (int i = 0; i < op->ntargets; i++)
		{
			if (sscanf(op->bounds[i], "%d/%d", &r->moduli[i],
					   &r->remainders[i]) != 2)
				elog(ERROR,
					 "reshape " INT64_FORMAT " has a bad hash bound \"%s\"",
					 op->id,
					 op->bounds[i]);
		}
	}
	else
	{
		r->lowers = palloc(sizeof(PartmgrPoint) * op->ntargets);
		r->uppers = palloc(sizeof(PartmgrPoint) * op->ntargets);
		for (int i = 0; i < op->ntargets; i++)
		{
			r->lowers[i] = partmgr_point_parse(&set->axis, op->bounds[i]);
			r->uppers[i] = partmgr_point_parse(&set->axis, op->bounds[i + 1]);
		}
		r->default_oid = tree->default_oid;
		if (OidIsValid(r->default_oid))
			r->exclusion = psprintf("partmgr_reshape_" INT64_FORMAT, op->id);
	}
	r->columns = partmgr_movable_columns(set->parent_oid, NIL);
	if (OidIsValid(r->source_oids[0]))
	{
		read_key(r, key_index(set, r->source_oids[0]));
		read_storage(r);
	}
	if (is_move_kind(op->kind))
	{
		r->move_tablespace = op->tablespace;
		r->tablespace = get_tablespace_oid(op->tablespace, false);
		if (r->tablespace == MyDatabaseTableSpace)
			r->tablespace = InvalidOid;
	}
	r->referenced = referenced_tables(set);
	r->settled_xid = op_xmin(op->id);
	return r;
}

/* ----------------------------------------------------------------
 * The steps
 * ----------------------------------------------------------------
 */

static Oid
working_relid(const PartmgrReshapeTables *r, const char *name)
{
	return get_relname_relid(name, get_namespace_oid(r->schema, false));
}

/* How many changes wait in the log, counting no further than limit + 1. */
static int64
log_backlog(const PartmgrReshapeTables *r, int64 limit)
{
	bool		isnull;

	partmgr_spi_table_exec(partmgr_query_log_backlog(r->schema, r->log,
													 limit + 1),
						   0, NULL, NULL, NULL, false, SPI_OK_SELECT);
	return DatumGetInt64(partmgr_spi_value(0, 1, &isnull));
}

/*
 * copy_batch
 *		The blocks [*first, *end) of an old child a copy step takes: as many
 *		as hold about batch_rows rows by its statistics, at most max_blocks
 *		(0: no bound).  False when the child has no block left from *first.
 */
static bool
copy_batch(Oid relid, int64 from, int64 batch_rows, int64 max_blocks,
		   int64 *first, int64 *end)
{
	Relation	rel;
	BlockNumber nblocks;
	double		per_block = 0;
	Oid			types[1] = {OIDOID};
	Datum		values[1];
	bool		isnull;

	partmgr_lock_relation(relid, AccessShareLock);
	rel = relation_open(relid, NoLock);
	nblocks = RelationGetNumberOfBlocks(rel);
	relation_close(rel, NoLock);
	if (from >= nblocks)
		return false;
	values[0] = ObjectIdGetDatum(relid);
	if (partmgr_spi_exec_cached("SELECT CASE WHEN relpages > 0 AND reltuples"
								" > 0"
								"            THEN reltuples / relpages END"
								"  FROM pg_catalog.pg_class WHERE oid = $1",
								1, types, values, NULL, false,
								SPI_OK_SELECT) > 0)
	{
		Datum		d = partmgr_spi_value(0, 1, &isnull);

		if (!isnull)
			per_block = DatumGetFloat8(d);
	}
	if (per_block <= 0)
		per_block = 100;		/* unknown: a guess */
	*first = from;
	*end = Min((int64) nblocks,
			   from + Max((int64) 1, (int64) (batch_rows / per_block)));
	if (max_blocks > 0)
		*end = Min(*end, from + max_blocks);
	return true;
}

/* The default partition's CHECK: 0 missing, 1 not validated yet, 2 valid. */
static int
exclusion_state(const PartmgrReshapeTables *r)
{
	Oid			types[2] = {OIDOID, TEXTOID};
	Datum		values[2];
	bool		isnull;

	values[0] = ObjectIdGetDatum(r->default_oid);
	values[1] = CStringGetTextDatum(r->exclusion);
	if (partmgr_spi_exec_cached("SELECT convalidated FROM"
								" pg_catalog.pg_constraint"
								" WHERE conrelid = $1 AND conname = $2",
								2, types, values, NULL, false,
								SPI_OK_SELECT) == 0)
		return 0;
	return DatumGetBool(partmgr_spi_value(0, 1, &isnull)) ? 2 : 1;
}

/* The relfilenode of a table, from the catalog. */
static Oid
filenode_of(Oid relid)
{
	Oid			types[1] = {OIDOID};
	Datum		values[1];
	bool		isnull;

	values[0] = ObjectIdGetDatum(relid);
	if (partmgr_spi_exec_cached("SELECT pg_catalog.pg_relation_filenode($1)",
								1, types, values,
								NULL, false, SPI_OK_SELECT) == 0)
		return InvalidOid;
	return DatumGetObjectId(partmgr_spi_value(0, 1, &isnull));
}

/*
 * rewritten
 *		Whether an old child was rewritten since its copy began (VACUUM
 *		FULL, CLUSTER, a restore): the block the copy goes on from is then
 *		meaningless.
 */
static bool
rewritten(const PartmgrReshapeTables *r, const PartmgrReshapeOp *op)
{
	if (op->copy_filenodes == NULL)
		return true;			/* not recorded: copy again, to be safe */
	for (int i = 0; i < r->nsources; i++)
	{
		if (filenode_of(r->source_oids[i]) != op->copy_filenodes[i])
			return true;
	}
	return false;
}

/* Record the storage of the old children as the copy begins. */
static void
record_filenodes(const PartmgrSet *set, PartmgrReshapeOp *op)
{
	op->copy_filenodes = palloc0(sizeof(Oid) * op->nsources);
	for (int i = 0; i < op->nsources; i++)
		op->copy_filenodes[i] = filenode_of(partmgr_key_relid(op->sources[i]));
}

/*
 * check_columns
 *		Refuse (55000) to go on once the parent's columns differ from those
 *		the new children were built with (a column added, dropped or
 *		retyped meanwhile): they could not be attached.
 */
static void
check_columns(const PartmgrSet *set, const PartmgrReshapeTables *r)
{
	static const char *const sql =
	"WITH p AS (SELECT attname, pg_catalog.format_type(atttypid, atttypmod)"
	" AS t"
	"             FROM pg_catalog.pg_attribute"
	"            WHERE attrelid = $1 AND attnum > 0 AND NOT attisdropped),"
	"     s AS (SELECT attname, pg_catalog.format_type(atttypid, atttypmod)"
	" AS t"
	"             FROM pg_catalog.pg_attribute"
	"            WHERE attrelid = $2 AND attnum > 0 AND NOT attisdropped)"
	"SELECT attname FROM ((TABLE p EXCEPT TABLE s) UNION (TABLE s EXCEPT"
	" TABLE p)) d LIMIT 1";
	Oid			types[2] = {OIDOID, OIDOID};
	Datum		values[2];

	values[0] = ObjectIdGetDatum(set->parent_oid);
	values[1] = ObjectIdGetDatum(working_relid(r, r->stage));
	if (partmgr_spi_exec_cached(sql, 2, types, values, NULL, false,
								SPI_OK_SELECT) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("column \"%s\" of \"%s\" changed during reshape " INT64_FORMAT,
						partmgr_spi_text(0, 1), set->key, r->id),
				 errdetail("The new partitions were built with the columns the parent had then, and could not be attached now."),
				 errhint("Undo the reshape with SELECT partmgr.cancel_reshape(%s), and start it again.",
						 quote_literal_cstr(set->key))));
}

/*
 * move_tablespace_statement
 *		For a move, the statement that makes the indexes built next land in
 *		its tablespace (their definitions name none: see
 *		partmgr_replacement_statements); it lasts to the end of the step.
 *		Else nothing.
 */
static List *
move_tablespace_statement(const PartmgrReshapeTables *r)
{
	if (r->move_tablespace == NULL)
		return NIL;
	return list_make1(partmgr_ddl_set_default_tablespace(r->move_tablespace));
}

/*
 * plan_build
 *		The build step: working tables, the new children (each with the key
 *		index and its bound CHECK, in the staging table), the capture.
 */
static void
plan_build(PartmgrPlan *plan, PartmgrReshapeTables *r)
{
	const PartmgrSet *set = plan->set;
	Oid			key = key_index(set, r->source_oids[0]);

	if (relation_exists(r->schema, r->stage) ||
		relation_exists(r->schema, r->log))
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_TABLE),
				 errmsg("relation \"%s\" already exists",
						quote_qualified_identifier(r->schema,
												   relation_exists(r->schema,
																   r->stage) ?
												   r->stage : r->log)),
				 errdetail("Reshape " INT64_FORMAT " of \"%s\" works with a table of that name.",
						   r->id, set->key),
				 errhint("Rename or drop that table, or undo the reshape with cancel_reshape().")));
	partmgr_plan_add_reshape(plan, PARTMGR_ACTION_RESHAPE_PREPARE, r,
							 r->schema, r->stage, 0);
	for (int i = 0; i < r->ntargets; i++)
	{
		PartmgrAction *action = partmgr_plan_add_reshape(plan,
														 PARTMGR_ACTION_RESHAPE_TARGET, r,
														 r->schema,
														 r->work_names[i],
														 i);

		if (relation_exists(r->schema, r->work_names[i]))
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_TABLE),
					 errmsg("relation \"%s\" already exists",
							quote_qualified_identifier(r->schema,
													   r->work_names[i])),
					 errhint("Rename or drop that table, or undo the reshape with cancel_reshape().")));
		action->statements =
			list_concat(move_tablespace_statement(r),
						partmgr_replacement_key_statements(r->source_oids[0],
														   key, r->schema,
														   r->work_names[i],
														   r->move_tablespace != NULL));
		if (r->moduli == NULL)
			action->statements = lappend(action->statements,
										 partmgr_ddl_add_bound_check(set,
																	 r->schema,
																	 r->work_names[i],
																	 r->lowers[i],
																	 r->uppers[i]));
	}
	for (int i = 0; i < r->nsources; i++)
		partmgr_plan_add_reshape(plan, PARTMGR_ACTION_RESHAPE_CAPTURE, r,
								 r->source_schemas[i],
								 r->source_names[i], i);
}

/*
 * partmgr_plan_reshape_step
 *		The next step of an operation as a plan (see the file header),
 *		decided from its phase and, under ACCESS SHARE locks taken without
 *		queueing, from its tables: how many blocks are left, whether the log
 *		holds a TRUNCATE's mark, how many changes wait.  *step says which
 *		step it is (a COPIED step has no action).
 */
PartmgrPlan *
partmgr_plan_reshape_step(PartmgrSet *set, PartmgrTree *tree,
						  PartmgrReshapeOp *op, int64 batch_rows,
						  int64 max_blocks, PartmgrReshapeStep *step)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);
	PartmgrReshapeTables *r = reshape_tables(set, tree, op,
											 op->phase == PARTMGR_RESHAPE_SWAPPED);
	PartmgrAction *action;
	int64		backlog;

	plan->tables_read =
		true;					/* nothing of the template's: see properties.c */
	if (op->phase == PARTMGR_RESHAPE_PLANNED)
	{
		*step = PARTMGR_RESHAPE_STEP_BUILD;
		plan_build(plan, r);
		return plan;
	}
	if (op->phase == PARTMGR_RESHAPE_SWAPPED)
	{
		*step = PARTMGR_RESHAPE_STEP_DROP_OLD;
		partmgr_plan_add_reshape(plan, PARTMGR_ACTION_RESHAPE_DROP_OLD, r,
								 r->schema, r->stage, 0);
		return plan;
	}
	if (!OidIsValid(working_relid(r, r->log)) ||
		!OidIsValid(working_relid(r, r->stage)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("the working tables of reshape " INT64_FORMAT " of \"%s\" are gone",
						op->id, set->key),
				 errhint("Undo the reshape with SELECT partmgr.cancel_reshape(%s), and start again.",
						 quote_literal_cstr(set->key))));
	check_columns(set, r);
	if (partmgr_capture_truncated(r->schema, r->log))
	{
		*step = PARTMGR_RESHAPE_STEP_RESTART;
		partmgr_plan_add_reshape(plan, PARTMGR_ACTION_RESHAPE_RESTART, r,
								 r->schema, r->stage, 0);
		return plan;
	}
	switch (op->phase)
	{
		case PARTMGR_RESHAPE_PLANNED:
		case PARTMGR_RESHAPE_SWAPPED:
			break;				/* above */
		case PARTMGR_RESHAPE_COPY:
			/* under ACCESS SHARE, held to the end: no rewrite comes between */
			for (int i = 0; i < r->nsources; i++)
				partmgr_lock_relation(r->source_oids[i], AccessShareLock);
			if (rewritten(r, op))
			{
				/* its rows moved on disk: the blocks copied mean nothing */
				*step = PARTMGR_RESHAPE_STEP_RESTART;
				partmgr_plan_add_reshape(plan, PARTMGR_ACTION_RESHAPE_RESTART,
										 r, r->schema,
										 r->stage, 0);
				return plan;
			}
			{
				int			i = op->copy_source;
				int64		from = op->copy_block;
				int64		first;
				int64		end;

				while (i < r->nsources &&
					   !copy_batch(r->source_oids[i], from, batch_rows,
								   max_blocks, &first, &end))
				{
					i++;
					from = 0;
				}
				if (i >= r->nsources)
				{
					*step = PARTMGR_RESHAPE_STEP_COPIED;
					return plan;
				}
				*step = PARTMGR_RESHAPE_STEP_COPY;
				action = partmgr_plan_add_reshape(plan,
												  PARTMGR_ACTION_RESHAPE_COPY,
												  r,
												  r->schema, r->stage, i);
				action->first_block = first;
				action->end_block = end;
				return plan;
			}
		case PARTMGR_RESHAPE_INDEX:
			*step = PARTMGR_RESHAPE_STEP_INDEX;
			partmgr_plan_add_reshape(plan, PARTMGR_ACTION_RESHAPE_REPLAY, r,
									 r->schema, r->log, 0);
			for (int i = 0; i < r->ntargets; i++)
			{
				Oid			target = working_relid(r, r->work_names[i]);

				action = partmgr_plan_add_reshape(plan,
												  PARTMGR_ACTION_RESHAPE_FINISH, r,
												  r->schema, r->work_names[i],
												  i);
				action->relid = target;
				action->statements =
					list_concat(move_tablespace_statement(r),
								partmgr_replacement_statements(r->source_oids[0],
															   target,
															   r->schema,
															   r->work_names[i],
															   r->move_tablespace != NULL));
			}
			return plan;
		case PARTMGR_RESHAPE_CATCH_UP:
			if (r->exclusion != NULL)
			{
				int			state = exclusion_state(r);

				if (state == 0)
				{
					*step = PARTMGR_RESHAPE_STEP_EXCLUDE;
					partmgr_plan_add_reshape(plan,
											 PARTMGR_ACTION_RESHAPE_EXCLUDE, r,
											 tree->default_schema,
											 tree->default_name, 0);
					return plan;
				}
				if (state == 1)
				{
					*step = PARTMGR_RESHAPE_STEP_VALIDATE;
					action = partmgr_plan_add_reshape(plan,
													  PARTMGR_ACTION_VALIDATE_CONSTRAINT,
													  NULL,
													  tree->default_schema,
													  tree->default_name, 0);
					action->relid = r->default_oid;
					action->constraints = list_make1(r->exclusion);
					return plan;
				}
			}

			/*
			 * Changes are applied right before each try of the swap (one that
			 * failed leaves its error): the swap applies only what comes
			 * between, and a snapshot taken meanwhile misses only that
			 */
			backlog = log_backlog(r, SWAP_BACKLOG);
			if (backlog > SWAP_BACKLOG ||
				(backlog > 0 && op->last_error != NULL))
			{
				*step = PARTMGR_RESHAPE_STEP_REPLAY;
				partmgr_plan_add_reshape(plan, PARTMGR_ACTION_RESHAPE_REPLAY,
										 r, r->schema,
										 r->log, 0);
				return plan;
			}
			*step = PARTMGR_RESHAPE_STEP_SWAP;
			partmgr_plan_add_reshape(plan, PARTMGR_ACTION_RESHAPE_SWAP, r,
									 set->parent_schema,
									 set->parent_name, 0);
			return plan;
	}
	elog(ERROR, "reshape " INT64_FORMAT " is in an unknown phase", op->id);
	return NULL;				/* keep compiler quiet */
}

/*
 * partmgr_plan_reshape_final
 *		The swap that ends an operation, as it would run once its rows are
 *		copied (for plan_maintenance: the locks it takes, its statements).
 */
PartmgrPlan *
partmgr_plan_reshape_final(PartmgrSet *set, PartmgrTree *tree,
						   const PartmgrReshapeOp *op)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);
	PartmgrReshapeTables *r = reshape_tables(set, tree, op, false);

	plan->tables_read = true;
	partmgr_plan_add_reshape(plan, PARTMGR_ACTION_RESHAPE_SWAP, r,
							 set->parent_schema,
							 set->parent_name, 0);
	return plan;
}

/*
 * record_eras
 *		After the swap of a range reshape: the set's eras say the new
 *		children's interval, format and grid (partmgr_eras_reshape).
 */
static void
record_eras(PartmgrSet *set, const PartmgrTree *tree,
			const PartmgrReshapeOp *op)
{
	PartmgrEra *pieces = palloc(sizeof(PartmgrEra) * op->ntargets);
	PartmgrEra *eras;
	int			npieces = 0;
	int			neras;

	for (int i = 0; i < op->ntargets; i++)
	{
		PartmgrPoint lower = partmgr_point_parse(&set->axis, op->bounds[i]);
		PartmgrPoint upper = partmgr_point_parse(&set->axis, op->bounds[i + 1]);
		PartmgrStep step;

		if (op->interval != NULL)
		{
			if (i > 0)
			{
				pieces[0].end = upper;
				continue;
			}
			partmgr_step_parse(&set->axis, op->interval,
							   PARTMGR_STEP_PARTITION, &step);
		}
		else
			partmgr_natural_step(&set->axis, lower, upper, &step);
		make_piece(set, &pieces[npieces++], lower, upper, &step, op->format,
				   op->aligned);
	}
	eras = partmgr_eras_reshape(set, pieces, npieces, tree->children[0].lower,
								&neras);
	partmgr_config_set_eras(set, eras, neras);
}

/*
 * partmgr_reshape_step_done
 *		Record what a step did, in the caller's transaction (the one that
 *		ran it): the phase and progress of the operation, and after the swap
 *		the set's eras, with the operation forgotten.  rows: what the plan's
 *		actions counted (rows copied, changes applied).  True when the
 *		operation is finished.
 */
bool
partmgr_reshape_step_done(PartmgrSet *set, PartmgrTree *tree,
						  PartmgrReshapeOp *op,
						  PartmgrReshapeStep step, const PartmgrPlan *plan,
						  uint64 rows)
{
	switch (step)
	{
		case PARTMGR_RESHAPE_STEP_BUILD:
		case PARTMGR_RESHAPE_STEP_RESTART:
			op->phase = PARTMGR_RESHAPE_COPY;
			op->copy_source = 0;
			op->copy_block = 0;
			op->rows_copied = 0;
			record_filenodes(set, op);
			break;
		case PARTMGR_RESHAPE_STEP_COPY:
			{
				const PartmgrAction *action = linitial(plan->actions);

				op->copy_source = action->index;
				op->copy_block = action->end_block;
				op->rows_copied += rows;
			}
			break;
		case PARTMGR_RESHAPE_STEP_COPIED:
			op->phase = PARTMGR_RESHAPE_INDEX;
			op->copy_source = op->nsources;
			op->copy_block = 0;
			break;
		case PARTMGR_RESHAPE_STEP_INDEX:
			op->phase = PARTMGR_RESHAPE_CATCH_UP;
			op->rows_replayed += rows;
			break;
		case PARTMGR_RESHAPE_STEP_REPLAY:
			op->rows_replayed += rows;
			break;
		case PARTMGR_RESHAPE_STEP_EXCLUDE:
		case PARTMGR_RESHAPE_STEP_VALIDATE:
			break;
		case PARTMGR_RESHAPE_STEP_SWAP:
			/* a move keeps the child's bounds: the grid is as it was */
			if (!is_hash_kind(op->kind) && !is_move_kind(op->kind))
				record_eras(set, tree, op);
			if (partmgr_reshape_drops_later())
			{
				op->phase = PARTMGR_RESHAPE_SWAPPED;
				break;			/* the old children go in the next step */
			}
			partmgr_reshape_delete(op->id);
			return true;
		case PARTMGR_RESHAPE_STEP_DROP_OLD:
			partmgr_reshape_delete(op->id);
			return true;
	}
	partmgr_reshape_set_progress(op);
	return false;
}

/* Whether an operation is a move (move_partition, or a tier's). */
bool
partmgr_reshape_is_move(const PartmgrReshapeOp *op)
{
	return is_move_kind(op->kind);
}

/*
 * log_move
 *		The row that says what a finished move did: its rows, the changes
 *		applied, how much the child and its indexes take in the tablespace,
 *		how long it took since it was registered, and how long its swap held
 *		the locks (taken within pg_partmgr.lock_timeout).
 */
static void
log_move(const PartmgrSet *set, const PartmgrReshapeOp *op, const char *run_by,
		 TimestampTz swap_started)
{
	Oid			relid = partmgr_key_relid(op->sources[0]);
	int64		bytes = 0;

	if (OidIsValid(relid))
		bytes = partmgr_total_bytes(relid);
	partmgr_log_action(set->key, run_by, "move partition",
					   partmgr_key_display(op->sources[0]),
					   psprintf(INT64_FORMAT " rows copied and " INT64_FORMAT
								" changes applied into tablespace %s: "
								INT64_FORMAT " bytes (table and indexes);"
								" %.1f s since it was registered, the swap held its locks %ld ms",
								op->rows_copied, op->rows_replayed,
								quote_identifier(op->tablespace), bytes,
								(double) TimestampDifferenceMilliseconds(op->created_at,
																		 GetCurrentTimestamp()) / 1000.0,
								TimestampDifferenceMilliseconds(swap_started,
																GetCurrentTimestamp())),
					   op->created_at, PARTMGR_OUTCOME_DONE, NULL);
}

/* What record_error writes. */
typedef struct ReshapeError
{
	int64		id;
	const char *message;
} ReshapeError;

static void
record_error(void *arg)
{
	ReshapeError *e = (ReshapeError *) arg;

	SPI_connect();
	partmgr_reshape_set_error(e->id, e->message);
	SPI_finish();
}

/*
 * partmgr_reshape_record_error
 *		Leave the error that stopped a step of operation id in its
 *		last_error ("SQLSTATE: message"), in a subtransaction: a failure to
 *		write it loses only that.
 */
void
partmgr_reshape_record_error(int64 id, const ErrorData *edata)
{
	ReshapeError e;
	ErrorData  *again = NULL;

	e.id = id;
	e.message = psprintf("%s: %s", unpack_sql_state(edata->sqlerrcode),
						 edata->message);
	(void) partmgr_run_subxact(record_error, &e, &again);
}

/*
 * partmgr_reshape_run_step
 *		Carry out the next step of operation id of set key, in the caller's
 *		transaction (connected to SPI), with the set owner's rights and, for
 *		the swap, the set's advisory lock (55P03 when a run holds it): what
 *		the procedures and the runner's moves do per step.  A copy step takes
 *		about batch_rows rows, and no more than max_bytes of the old child's
 *		blocks (0: no bound; at least one block).  A move that is swapped
 *		in gets its row in the log (log_move).
 */
void
partmgr_reshape_run_step(const char *key, int64 id, int64 batch_rows,
						 int64 max_bytes, const char *run_by,
						 PartmgrReshapeStepRun *out)
{
	PartmgrSet *set = partmgr_config_load(key, false);
	PartmgrRights rights;
	PartmgrReshapeOp *op;

	memset(out, 0, sizeof(*out));
	partmgr_rights_enter_set(set, PARTMGR_RIGHTS_ACT, &rights);
	op = partmgr_reshape_load(id, true);
	if (op == NULL)
		out->finished = true;	/* undone meanwhile */
	else
	{
		PartmgrTree *tree = partmgr_read_tree(set);
		PartmgrPlan *plan = partmgr_plan_reshape_step(set, tree, op,
													  batch_rows,
													  max_bytes / BLCKSZ,
													  &out->step);
		TimestampTz started = GetCurrentTimestamp();

		/*
		 * Only the swap changes which children the set has: it alone keeps
		 * maintenance off the set, which a long copy would starve.
		 */
		if (out->step == PARTMGR_RESHAPE_STEP_SWAP)
			partmgr_lock_set_or_raise(set->parent_oid, set->key);
		if (out->step == PARTMGR_RESHAPE_STEP_COPY)
		{
			const PartmgrAction *copy = linitial(plan->actions);

			out->bytes = (copy->end_block - copy->first_block) * BLCKSZ;
		}
		if (plan->actions != NIL)
			(void) partmgr_execute_or_raise(plan, run_by, &out->rows);
		out->finished = partmgr_reshape_step_done(set, tree, op, out->step,
												  plan, out->rows);
		out->rows_copied = op->rows_copied;
		out->rows_replayed = op->rows_replayed;
		if (out->step == PARTMGR_RESHAPE_STEP_SWAP && is_move_kind(op->kind))
			log_move(set, op, run_by, started);
	}
	partmgr_rights_leave(&rights);
}

/*
 * partmgr_plan_reshape_cancel
 *		The step that drops what an operation built (the caller forgets the
 *		operation in the same transaction).
 */
PartmgrPlan *
partmgr_plan_reshape_cancel(PartmgrSet *set, PartmgrTree *tree,
							const PartmgrReshapeOp *op)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);
	PartmgrReshapeTables *r = reshape_tables(set, tree, op, true);

	plan->tables_read = true;
	/* after the swap the new children are in place: only the old ones go */
	partmgr_plan_add_reshape(plan, op->phase == PARTMGR_RESHAPE_SWAPPED ?
							 PARTMGR_ACTION_RESHAPE_DROP_OLD :
							 PARTMGR_ACTION_RESHAPE_CANCEL, r, r->schema,
							 r->stage, 0);
	return plan;
}

/*
 * partmgr_reshape_step_name
 *		A step in words, for progress messages.
 */
const char *
partmgr_reshape_step_name(PartmgrReshapeStep step)
{
	switch (step)
	{
		case PARTMGR_RESHAPE_STEP_BUILD:
			return "new partitions created, changes captured";
		case PARTMGR_RESHAPE_STEP_COPY:
			return "rows copied";
		case PARTMGR_RESHAPE_STEP_COPIED:
			return "every row copied";
		case PARTMGR_RESHAPE_STEP_RESTART:
			return "an old partition was truncated or rewritten: copying again";
		case PARTMGR_RESHAPE_STEP_INDEX:
			return "indexes and constraints built";
		case PARTMGR_RESHAPE_STEP_EXCLUDE:
			return "range excluded from the default partition";
		case PARTMGR_RESHAPE_STEP_VALIDATE:
			return "default partition's exclusion validated";
		case PARTMGR_RESHAPE_STEP_REPLAY:
			return "captured changes applied";
		case PARTMGR_RESHAPE_STEP_SWAP:
			return "new partitions swapped in";
		case PARTMGR_RESHAPE_STEP_DROP_OLD:
			return "old partitions dropped";
	}
	return "?";
}

/*
 * partmgr_check_no_reshape
 *		Refuse (55000) what cannot go on while a set has a reshape that is
 *		not finished: undo, partition_data, change_interval ...
 */
void
partmgr_check_no_reshape(const PartmgrSet *set, const char *what)
{
	if (partmgr_reshape_any(set->key))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("%s cannot run while children of \"%s\" are being reshaped", what,
						set->key),
				 errhint("Finish the reshape with CALL partmgr.run_reshape(%s), or undo it with SELECT partmgr.cancel_reshape(%s).",
						 quote_literal_cstr(set->key),
						 quote_literal_cstr(set->key))));
}
