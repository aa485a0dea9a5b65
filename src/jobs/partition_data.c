/*-------------------------------------------------------------------------
 *
 * partition_data.c
 *	  Plan the moves of rows into and out of a partition set.
 *
 * partition_data: each batch starts at the smallest (or, descending, the
 * largest) key left in the source -- the default partition or a separate
 * table -- and covers the child slot that key belongs in (from the default
 * partition always the whole slot, as PostgreSQL cannot attach a child
 * while the default still holds rows of its range; from a table at most
 * the batch width).  A missing child is created as a standalone table,
 * loaded with the rows behind a CHECK that matches its bound, then attached:
 * one DELETE ... RETURNING feeding one INSERT, and no scan of the new child
 * when it is attached.  Rows for an existing child go straight into it.
 *
 * undo_partition: the default partition first, then the children from the
 * lowest, each batch moves a child's rows (or the rows up to a batch width
 * above its smallest key) into the target table with one statement, and a
 * child found empty is detached (and dropped unless kept).
 *
 * Each batch is a plan executed in one transaction (or subtransaction): its
 * rows move all at once or not at all, so no reader ever sees a row twice
 * or misses one, and a crash or cancel loses and duplicates nothing.
 * Planning reads catalogs and data, changes nothing.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/partition_data.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "catalog/partition.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "parser/parse_coerce.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "bounds.h"
#include "children.h"
#include "config.h"
#include "contents.h"
#include "statements.h"
#include "mover.h"
#include "partition_data.h"
#include "rights.h"
#include "spi_util.h"

/*
 * column_type
 *		Type of a live column of a relation, or InvalidOid; *identity_always
 *		tells whether it is GENERATED ALWAYS AS IDENTITY, *generated whether
 *		it is a generated column.
 */
static Oid
column_type(Relation rel, const char *name, bool *identity_always,
			bool *generated)
{
	TupleDesc	desc = RelationGetDescr(rel);

	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0)
		{
			*identity_always = att->attidentity == ATTRIBUTE_IDENTITY_ALWAYS;
			*generated = att->attgenerated != '\0';
			return att->atttypid;
		}
	}
	return InvalidOid;
}

static bool
name_in(List *names, const char *name)
{
	ListCell   *lc;

	foreach(lc, names)
	{
		if (strcmp((char *) lfirst(lc), name) == 0)
			return true;
	}
	return false;
}

/*
 * check_columns
 *		Check that rows can travel between the parent and another table by
 *		column name: every column of columns exists in the other table, the
 *		control column with the parent's type, the others with a type that
 *		casts to (or from, for a target) the parent's on assignment; a source
 *		may hold no other column that is not ignored (its values would be
 *		lost), a target may (they get their defaults).
 */
static void
check_columns(const PartmgrSet *set, Oid other, List *columns, List *ignored,
			  bool other_is_source)
{
	Relation	parent = relation_open(set->parent_oid, AccessShareLock);
	Relation	rel = relation_open(other, AccessShareLock);
	const char *other_name = quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
														RelationGetRelationName(rel));
	TupleDesc	desc = RelationGetDescr(rel);
	ListCell   *lc;

	foreach(lc, columns)
	{
		const char *name = (const char *) lfirst(lc);
		bool		identity;
		bool		generated;
		Oid			want = column_type(parent, name, &identity, &generated);
		Oid			have = column_type(rel, name, &identity, &generated);

		if (!OidIsValid(have))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_COLUMN),
					 other_is_source ?
					 errmsg("source table %s has no column \"%s\", which \"%s\" has",
							other_name, name, set->key) :
					 errmsg("target table %s has no column \"%s\", which \"%s\" has",
							other_name, name, set->key),
					 errhint("Add the column, or name it in p_ignored_columns to leave it out.")));

		/*
		 * Other columns take the value with an assignment cast, as INSERT
		 * does (and pg_partman's INSERT ... SELECT); a value the cast refuses
		 * fails its batch, which moves nothing.  The key decides which child
		 * a row goes to, so it must be of the same type.
		 */
		if (have != want &&
			(strcmp(name, set->control) == 0 ||
			 !can_coerce_type(1, other_is_source ? &have : &want,
							  other_is_source ? &want : &have,
							  COERCION_ASSIGNMENT)))
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 other_is_source ?
					 errmsg("column \"%s\" of source table %s has type %s, but in \"%s\" it has type %s",
							name, other_name, format_type_be(have), set->key,
							format_type_be(want)) :
					 errmsg("column \"%s\" of target table %s has type %s, but in \"%s\" it has type %s",
							name, other_name, format_type_be(have), set->key,
							format_type_be(want)),
					 strcmp(name, set->control) == 0 ?
					 errdetail("The control column must have the same type in both.") :
					 errdetail("There is no assignment cast from %s to %s.",
							   format_type_be(other_is_source ? have : want),
							   format_type_be(other_is_source ? want : have))));
	}

	for (int i = 0; other_is_source && i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		const char *name = NameStr(att->attname);

		bool		identity;
		bool		generated = false;

		if (att->attisdropped || att->attgenerated != '\0' ||
			name_in(columns, name) || name_in(ignored, name))
			continue;
		if (OidIsValid(column_type(parent, name, &identity, &generated)) &&
			generated)
			ereport(ERROR,
					(errcode(ERRCODE_GENERATED_ALWAYS),
					 errmsg("column \"%s\" of source table %s is a generated column in \"%s\"",
							name, other_name, set->key),
					 errdetail("The child computes its values; the source's cannot be moved into it."),
					 errhint("Name the column in p_ignored_columns.")));
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("source table %s has a column \"%s\" that \"%s\" does not have",
						other_name, name, set->key),
				 errdetail("Its values would be lost."),
				 errhint("Drop the column from the source, add it to the parent, or name it in p_ignored_columns.")));
	}
	relation_close(rel, AccessShareLock);
	relation_close(parent, AccessShareLock);
}

/*
 * computed_columns
 *		The ignored columns of the parent that inserting into the parent
 *		would fill: identity columns from their sequence, columns with a
 *		default from it.  Rows are loaded into the children directly, which
 *		have no identity of their own (before PostgreSQL 17), so these are
 *		written into the statement.
 */
static void
computed_columns(const PartmgrSet *set, List *ignored, PartmgrRowSource *source)
{
	static const char *const sql =
	"SELECT a.attname::text, CASE WHEN a.attidentity <> ''"
	" THEN format('nextval(%L::regclass)',"
	" pg_catalog.pg_get_serial_sequence(a.attrelid::regclass::text, a.attname))"
	" ELSE pg_catalog.pg_get_expr(d.adbin, d.adrelid) END"
	" FROM pg_catalog.pg_attribute a"
	" LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum"
	" = a.attnum"
	" WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped"
	" AND a.attgenerated = '' AND a.attname = ANY ($2)"
	" AND (a.attidentity <> '' OR d.adbin IS NOT NULL) ORDER BY a.attnum";
	Oid			types[2] = {OIDOID, TEXTARRAYOID};
	Datum		values[2];
	Datum	   *names;
	int			n = 0;
	ListCell   *lc;
	uint64		rows;

	if (ignored == NIL)
		return;
	names = palloc(sizeof(Datum) * list_length(ignored));
	foreach(lc, ignored)
		names[n++] = CStringGetTextDatum((char *) lfirst(lc));
	values[0] = ObjectIdGetDatum(set->parent_oid);
	values[1] = PointerGetDatum(construct_array(names, n, TEXTOID, -1, false,
												TYPALIGN_INT));
	rows = partmgr_spi_exec_cached(sql, 2, types, values, NULL, false,
								   SPI_OK_SELECT);
	for (uint64 i = 0; i < rows; i++)
	{
		source->computed = lappend(source->computed, partmgr_spi_text(i, 1));
		source->computed_exprs = lappend(source->computed_exprs,
										 partmgr_spi_text(i, 2));
	}
}

/*
 * parse_batch
 *		A batch width given as text: an interval for time sets, a whole number
 *		for id sets, more than zero.
 */
static void
parse_batch(const PartmgrSet *set, const char *text, PartmgrStep *batch)
{
	PartmgrAxis axis = set->axis;

	/* a batch need not be whole days, even on a date key */
	if (axis.kind == PARTMGR_KEY_TIME)
		axis.typid = TIMESTAMPTZOID;
	partmgr_step_parse(&axis, text, PARTMGR_STEP_BATCH, batch);
}

/*
 * check_move_table
 *		Raise 42501 unless a table rows are moved from (is_source) or into
 *		belongs to the set's owner (or to a superuser) -- its triggers,
 *		defaults and constraints run with the owner's rights while the rows
 *		move -- and the owner holds the privileges the move takes there:
 *		SELECT and DELETE on a source, INSERT on a target.
 */
static void
check_move_table(const PartmgrSet *set, Oid relid, bool is_source)
{
	PartmgrParentInfo info;
	const char *owner = GetUserNameFromId(set->parent_owner, false);
	const char *table;

	partmgr_read_parent(relid, &info);
	table = quote_qualified_identifier(info.schema, info.name);
	if (!partmgr_owner_trusts(set->parent_owner, info.owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 is_source ?
				 errmsg("source table %s belongs to role \"%s\", not to \"%s\", the owner of \"%s\"",
						table, GetUserNameFromId(info.owner, false), owner,
						set->key) :
				 errmsg("target table %s belongs to role \"%s\", not to \"%s\", the owner of \"%s\"",
						table, GetUserNameFromId(info.owner, false), owner,
						set->key),
				 errdetail("Rows are moved with the rights of the set's owner, so only tables of that owner take part."),
				 errhint("ALTER TABLE %s OWNER TO %s first.", table,
						 quote_identifier(owner))));
	if (is_source &&
		pg_class_aclcheck(relid, set->parent_owner,
						  ACL_SELECT | ACL_DELETE) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("role \"%s\", the owner of \"%s\", lacks SELECT, DELETE on source table %s",
						owner, set->key, table),
				 errdetail("Rows are moved with the rights of the set's owner."),
				 errhint("GRANT SELECT, DELETE ON %s TO %s.", table,
						 quote_identifier(owner))));
	if (!is_source &&
		pg_class_aclcheck(relid, set->parent_owner, ACL_INSERT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("role \"%s\", the owner of \"%s\", lacks INSERT on target table %s",
						owner, set->key, table),
				 errdetail("Rows are moved with the rights of the set's owner."),
				 errhint("GRANT INSERT ON %s TO %s.", table,
						 quote_identifier(owner))));
}

/*
 * partmgr_data_move_init
 *		Prepare partition_data for a set: the source (source_table, or the
 *		default partition when NULL; a set without one has nothing to move),
 *		the columns that travel, the batch width (a batch never spans two
 *		children; from the default partition it is always one whole child,
 *		and no other width may be asked for, as in pg_partman) and the order.
 */
void
partmgr_data_move_init(PartmgrSet *set, PartmgrTree *tree, Oid source_oid,
					   const char *batch_text, bool descending, List *ignored,
					   PartmgrDataMove *move)
{
	memset(move, 0, sizeof(*move));
	move->descending = descending;
	move->batch = set->step;
	move->source.columns = partmgr_movable_columns(set->parent_oid, ignored);
	computed_columns(set, ignored, &move->source);

	if (!OidIsValid(source_oid))
	{
		if (batch_text != NULL)
		{
			PartmgrStep batch;

			parse_batch(set, batch_text, &batch);
			if (memcmp(&batch, &set->step, sizeof(batch)) != 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("rows are moved out of the default partition of \"%s\" one whole child at a time",
								set->key),
						 errdetail("PostgreSQL cannot attach a child while the default partition still holds rows of its range."),
						 errhint("Leave the batch interval NULL.")));
		}
		move->from_default = true;
		if (!OidIsValid(tree->default_oid))
			return;
		move->source.relid = tree->default_oid;
		move->source.schema = tree->default_schema;
		move->source.name = tree->default_name;
		return;
	}

	move->source.relid = source_oid;
	move->source.schema = get_namespace_name(get_rel_namespace(source_oid));
	move->source.name = get_rel_name(source_oid);
	/* rows moved out of it would be routed back into it (pg_partman 5.3) */
	if (source_oid == tree->default_oid)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("source table %s is the default partition of \"%s\"",
						quote_qualified_identifier(move->source.schema,
												   move->source.name),
						set->key),
				 errhint("Leave p_source_table NULL to move rows out of the default partition.")));
	if (source_oid == set->parent_oid ||
		get_rel_relkind(source_oid) != RELKIND_RELATION ||
		get_rel_relispartition(source_oid))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("source table \"%s\" must be a plain table outside the partition set",
						quote_qualified_identifier(move->source.schema,
												   move->source.name)),
				 errhint("Leave p_source_table NULL to move rows out of the default partition.")));
	check_move_table(set, source_oid, true);
	check_columns(set, move->source.relid, move->source.columns, ignored, true);
	/* a batch never spans two children: it ends at its child's bound */
	if (batch_text != NULL)
		parse_batch(set, batch_text, &move->batch);
}

/*
 * end_key
 *		The smallest (descending: largest) key left in a table; false when
 *		it holds none.
 */
static bool end_key_sql(const PartmgrSet *set, const char *sql,
						PartmgrPoint *key);

static bool
end_key(const PartmgrSet *set, const char *schema, const char *name,
		bool descending,
		bool finite_only, PartmgrPoint *key)
{
	return end_key_sql(set,
					   partmgr_ddl_min_control(set, schema, name, descending,
											   finite_only),
					   key);
}

/*
 * check_finite_key
 *		Raise 22008 when the next key to move out of a time set's source is
 *		infinity or -infinity: no child's range holds it (new_slot would
 *		look for one without end), so such rows can only stay where they
 *		are.  p_ignore_infinity leaves them there and moves the others; the
 *		hint says so, or for partition_data_async, which has no such
 *		parameter, what to do instead.
 */
static void
check_finite_key(const PartmgrSet *set, const PartmgrDataMove *move,
				 PartmgrPoint key,
				 bool async)
{
	const char *table = quote_qualified_identifier(move->source.schema,
												   move->source.name);

	if (set->axis.kind != PARTMGR_KEY_TIME ||
		(key != PARTMGR_POINT_MIN && key != PARTMGR_POINT_MAX))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 move->from_default ?
			 errmsg("default partition %s of \"%s\" holds rows with %s %s, which no child can hold",
					table, set->key, quote_identifier(set->control),
					key == PARTMGR_POINT_MAX ? "infinity" : "-infinity") :
			 errmsg("source table %s holds rows with %s %s, which no child of \"%s\" can hold",
					table, quote_identifier(set->control),
					key == PARTMGR_POINT_MAX ? "infinity" : "-infinity",
					set->key),
			 errdetail("Every child covers a finite range of time; rows at infinity or -infinity can only stay where they are."),
			 async ?
			 errhint("Move or delete those rows first, or move the others with CALL partmgr.partition_data_proc('%s', p_ignore_infinity => true).",
					 set->key) :
			 errhint("Pass p_ignore_infinity => true to leave them where they are and move the other rows.")));
}

/* The key a query for one (min/max) returns; false for NULL. */
static bool
end_key_sql(const PartmgrSet *set, const char *sql, PartmgrPoint *key)
{
	bool		isnull;
	Datum		value;

	partmgr_spi_table_exec(sql, 0, NULL, NULL, NULL, false, SPI_OK_SELECT);
	value = partmgr_spi_value(0, 1, &isnull);
	if (isnull)
		return false;
	*key = partmgr_point_from_datum(&set->axis, value);
	return true;
}

/*
 * batch_end
 *		Where a batch that starts at key "from" ends: going up, the exclusive
 *		upper end from + width; going down, the inclusive lower end
 *		from - width + one step of the key, so that a batch holds as many key
 *		values either way.  On a date key a width that is not whole days is
 *		rounded up to the next day.
 */
static PartmgrPoint
batch_end(const PartmgrSet *set, const PartmgrStep *batch, PartmgrPoint from,
		  bool down)
{
	PartmgrPoint end = partmgr_point_add(&set->axis, batch, from, down ? -1 :
										 1);

	if (end == PARTMGR_POINT_MIN || end == PARTMGR_POINT_MAX)
		return end;
	if (down)
		end++;					/* one id, or one microsecond */
	if (set->axis.typid == DATEOID && end % USECS_PER_DAY != 0)
	{
		PartmgrPoint below = end - ((end % USECS_PER_DAY) +
									USECS_PER_DAY) % USECS_PER_DAY;

		end = below + USECS_PER_DAY;
	}
	return end;
}

/*
 * new_slot
 *		The range of the new child a key belongs in (lower bound returned,
 *		upper in *upper); raises an error when it cannot be made.
 */
static PartmgrPoint
new_slot(const PartmgrSet *set, const PartmgrTree *tree, PartmgrPoint key,
		 PartmgrPoint *upper)
{
	PartmgrPoint lower = partmgr_slot_lower(set, tree, key);
	const PartmgrChild *overlap;

	*upper = partmgr_slot_upper(set, lower);
	overlap = partmgr_tree_find_overlap(tree, lower, *upper);
	if (overlap != NULL || !partmgr_point_fits_type(&set->axis, lower))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("no child can be made for the row of \"%s\" with %s %s",
						set->key, quote_identifier(set->control),
						partmgr_point_display(&set->axis, key)),
				 overlap ?
				 errdetail("The child for values from %s to %s would overlap \"%s\".",
						   partmgr_point_display(&set->axis, lower),
						   partmgr_point_display(&set->axis, *upper),
						   quote_qualified_identifier(overlap->schema,
													  overlap->name)) :
				 errdetail("The value lies outside the range pg_partmgr can partition.")));
	return lower;
}

/*
 * add_batch_child
 *		Append "create the child for [lower, upper)" to the plan of a batch,
 *		for a range new_slot found free; raise an error naming the child
 *		when it cannot be made after all.
 */
static void
add_batch_child(PartmgrPlan *plan, PartmgrPoint lower, PartmgrPoint upper)
{
	const PartmgrSet *set = plan->set;
	PartmgrSlotResult result = partmgr_plan_add_child(plan, lower, upper);

	switch (result)
	{
		case PARTMGR_SLOT_ADDED:
			return;
		case PARTMGR_SLOT_OUTSIDE_PARENT:
			ereport(ERROR,
					(errcode(ERRCODE_CHECK_VIOLATION),
					 errmsg("no child of \"%s\" can be made for values from %s to %s",
							set->key, partmgr_point_display(&set->axis, lower),
							partmgr_point_display(&set->axis, upper)),
					 errdetail("\"%s\" is a partition for values from %s to %s of its own parent, and its children stay inside that range.",
							   set->key,
							   partmgr_point_display(&set->axis,
													 set->limit_lower),
							   partmgr_point_display(&set->axis,
													 set->limit_upper)),
					 errhint("Rows outside that range belong in another partition of the parent of \"%s\".",
							 set->key)));
			break;
		case PARTMGR_SLOT_OVERLAP:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("no child of \"%s\" can be made for values from %s to %s",
							set->key, partmgr_point_display(&set->axis, lower),
							partmgr_point_display(&set->axis, upper)),
					 errdetail("It would overlap another child, as the warning before this error says.")));
			break;
		case PARTMGR_SLOT_OUT_OF_RANGE:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("no child of \"%s\" can be made for values from %s to %s",
							set->key, partmgr_point_display(&set->axis, lower),
							partmgr_point_display(&set->axis, upper)),
					 errdetail("The values lie outside the range pg_partmgr can partition.")));
			break;
		case PARTMGR_SLOT_EXISTS:
		case PARTMGR_SLOT_LIMIT:
			/* new_slot found no child there, and a batch's plan has no limit */
			break;
	}
	elog(ERROR,
		 "unexpected result %d planning the child of \"%s\" for values from %s to %s",
		 (int) result, set->key, partmgr_point_display(&set->axis, lower),
		 partmgr_point_display(&set->axis, upper));
}

static int
compare_points(const void *a, const void *b)
{
	PartmgrPoint x = *(const PartmgrPoint *) a;
	PartmgrPoint y = *(const PartmgrPoint *) b;

	return x < y ? -1 : x > y;
}

/*
 * plan_default_slots
 *		Several batches out of the default partition in one plan: one scan
 *		finds the new children its rows belong in (partmgr_key_buckets);
 *		the first max_batches of them (the last, descending) are created and
 *		attached to a staging table, one statement moves their rows into
 *		them, and they are attached to the parent with no scan of the
 *		default partition each (see fill_staged in execute.c).  Instead of
 *		three scans of the default partition per child, three in all.  NULL
 *		when the default partition's rows need at most one child, or the
 *		interval has no buckets: one batch is planned the plain way then.
 *		*last says whether these are all the children its rows need.
 */
static PartmgrPlan *
plan_default_slots(PartmgrSet *set, PartmgrTree *tree,
				   const PartmgrDataMove *move,
				   int max_batches, int *nbatches, bool *last)
{
	PartmgrPoint anchor = PARTMGR_POINT_MIN;
	PartmgrPoint *slots;
	PartmgrPoint upper = PARTMGR_POINT_MAX;
	PartmgrPlan *plan;
	int			nslots;
	int			first;
	int			count;

	Assert(move->from_default);
	for (int i = 0; i < tree->nchildren && anchor == PARTMGR_POINT_MIN; i++)
		anchor = tree->children[i].lower;
	if (anchor == PARTMGR_POINT_MIN)
		anchor = partmgr_point_align(&set->axis, &set->step,
									 set->date_trunc_interval, 0);
	nslots = partmgr_key_buckets(set, move->source.relid, anchor,
								 partmgr_finest_step(set),
								 move->ignore_infinity, &slots);
	if (nslots < 0)
		return NULL;
	/* a key no child can hold fails as the move would meet it: in its order */
	qsort(slots, nslots, sizeof(PartmgrPoint), compare_points);
	for (int i = 0; i < nslots; i++)
		check_finite_key(set, move,
						 slots[move->descending ? nslots - 1 - i : i], false);
	/* the keys become the lower bounds of their children, once each */
	for (int i = 0; i < nslots; i++)
		slots[i] = partmgr_slot_lower(set, tree, slots[i]);
	qsort(slots, nslots, sizeof(PartmgrPoint), compare_points);
	count = 0;
	for (int i = 0; i < nslots; i++)
	{
		if (count == 0 || slots[i] != slots[count - 1])
			slots[count++] = slots[i];
	}
	if (count < 2)
		return NULL;

	/* the first max_batches children, or going down the last */
	*last = count <= max_batches;
	first = move->descending ? Max(count - max_batches, 0) : 0;
	count = Min(count, max_batches);
	plan = partmgr_plan_new(set, tree);
	plan->moving_data = true;
	plan->stage_name = psprintf("partmgr_stage_%u", set->parent_oid);
	for (int i = first; i < first + count; i++)
	{
		PartmgrPoint lower = new_slot(set, tree, slots[i], &upper);

		add_batch_child(plan, lower, upper);
		((PartmgrAction *) llast(plan->actions))->staged = true;
	}
	partmgr_plan_add_fill_staged(plan, &move->source, slots[first], upper);
	*nbatches = count;
	return plan;
}

/*
 * plan_data_batch
 *		Plan the next batch of partition_data (see the file header).  An empty
 *		plan means the source holds no more rows with a key.
 */
static PartmgrPlan *
plan_data_batch(PartmgrSet *set, PartmgrTree *tree, const PartmgrDataMove *move)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);
	PartmgrPoint key;
	PartmgrPoint lower;
	PartmgrPoint upper;
	PartmgrPoint from;
	PartmgrPoint to;
	const PartmgrChild *child = NULL;

	plan->moving_data = true;
	if (!OidIsValid(move->source.relid) ||
		!end_key(set, move->source.schema, move->source.name, move->descending,
				 move->ignore_infinity, &key))
		return plan;
	check_finite_key(set, move, key, false);

	for (int i = 0; i < tree->nchildren && child == NULL; i++)
	{
		if (tree->children[i].lower <= key && key < tree->children[i].upper)
			child = &tree->children[i];
	}
	if (child != NULL)
	{
		lower = child->lower;
		upper = child->upper;
	}
	else
		lower = new_slot(set, tree, key, &upper);

	/* the part of the slot this batch covers: from the default, all of it */
	from = lower;
	to = upper;
	if (!move->from_default)
	{
		if (move->descending)
			from = Max(lower, batch_end(set, &move->batch, key, true));
		else
			to = Min(upper, batch_end(set, &move->batch, key, false));
	}
	Assert(lower <= from && to <= upper);

	if (child != NULL)
	{
		partmgr_plan_add_move(plan, &move->source, child->schema, child->name,
							  from, to);
		return plan;
	}
	if (from == lower && to == upper)
	{
		PartmgrAction *action;

		add_batch_child(plan, lower, upper);
		action = (PartmgrAction *) llast(plan->actions);
		action->from = move->source;
		return plan;
	}
	/* part of a new child's range: make the child, then move into it */
	add_batch_child(plan, lower, upper);
	partmgr_plan_add_move(plan, &move->source, set->parent_schema,
						  ((PartmgrAction *) llast(plan->actions))->name, from,
						  to);
	return plan;
}

/*
 * partmgr_plan_data_batches
 *		Plan up to max_batches batches of partition_data (see the file
 *		header); *nbatches says how many were planned.  An empty plan means
 *		the source holds no more rows with a key.  *last is true when the
 *		plan moves every row with a key the source holds now (rows that come
 *		meanwhile are left to the next call, as those after it are).
 */
PartmgrPlan *
partmgr_plan_data_batches(PartmgrSet *set, PartmgrTree *tree,
						  const PartmgrDataMove *move,
						  int max_batches, int *nbatches, bool *last)
{
	PartmgrPlan *plan = NULL;

	*last = false;
	/* new children of a sub-partitioned set are made one at a time */
	if (move->from_default && OidIsValid(move->source.relid) &&
		max_batches > 1 &&
		partmgr_sub_spec_load(set->key) == NULL)
		plan = plan_default_slots(set, tree, move, max_batches, nbatches, last);
	if (plan == NULL)
	{
		plan = plan_data_batch(set, tree, move);
		*nbatches = plan->actions != NIL ? 1 : 0;
	}
	return plan;
}

/*
 * partmgr_count_rows
 *		Exact number of rows of a table (with only, not its children's).
 */
int64
partmgr_count_rows(const char *schema, const char *name, bool only)
{
	bool		isnull;

	partmgr_spi_table_exec(partmgr_query_count_rows(schema, name, true, only),
						   0, NULL, NULL,
						   NULL, false, SPI_OK_SELECT);
	return DatumGetInt64(partmgr_spi_value(0, 1, &isnull));
}

/*
 * partmgr_count_source_rows
 *		Exact number of rows partition_data has to move from its source:
 *		all of them, or with ignore_infinity those whose key is finite.
 */
int64
partmgr_count_source_rows(const PartmgrSet *set, const PartmgrDataMove *move)
{
	bool		isnull;

	if (!move->ignore_infinity)
		return partmgr_count_rows(move->source.schema, move->source.name, true);
	partmgr_spi_table_exec(partmgr_query_count_finite_rows(set,
														   move->source.schema,
														   move->source.name,
														   true),
						   0, NULL, NULL, NULL, false, SPI_OK_SELECT);
	return DatumGetInt64(partmgr_spi_value(0, 1, &isnull));
}

/*
 * undo_columns
 *		The columns whose values undo_partition copies into the target: the
 *		parent's, but those ignored; a column generated in the parent too
 *		when it is a plain column in the target, which would otherwise lose
 *		its values.
 */
static List *
undo_columns(const PartmgrSet *set, Oid target, List *ignored)
{
	List	   *columns = NIL;
	Relation	parent = relation_open(set->parent_oid, AccessShareLock);
	Relation	rel = relation_open(target, AccessShareLock);
	TupleDesc	desc = RelationGetDescr(parent);

	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		const char *name = NameStr(att->attname);
		bool		identity;
		bool		generated = false;

		if (att->attisdropped || name_in(ignored, name))
			continue;
		if (att->attgenerated != '\0' &&
			(!OidIsValid(column_type(rel, name, &identity, &generated)) ||
			 generated))
			continue;
		columns = lappend(columns, pstrdup(name));
	}
	relation_close(rel, AccessShareLock);
	relation_close(parent, AccessShareLock);
	return columns;
}

/*
 * partmgr_undo_init
 *		Prepare undo_partition of a set into target_table: a plain table, not
 *		the parent, with every column that travels (same type).
 */
void
partmgr_undo_init(PartmgrSet *set, Oid target_oid, const char *batch_text,
				  bool keep_table, bool drop_cascade, List *ignored,
				  PartmgrUndo *undo)
{
	memset(undo, 0, sizeof(*undo));
	undo->target_oid = target_oid;
	undo->target_schema = get_namespace_name(get_rel_namespace(target_oid));
	undo->target_name = get_rel_name(target_oid);
	if (target_oid == set->parent_oid ||
		get_rel_relispartition(target_oid) ||
		(get_rel_relkind(target_oid) != RELKIND_RELATION &&
		 get_rel_relkind(target_oid) != RELKIND_PARTITIONED_TABLE))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("target table \"%s\" must be a table outside the partition set \"%s\"",
						quote_qualified_identifier(undo->target_schema,
												   undo->target_name),
						set->key)));
	check_move_table(set, target_oid, false);
	undo->columns = undo_columns(set, undo->target_oid, ignored);
	check_columns(set, undo->target_oid, undo->columns, ignored, false);
	if (batch_text != NULL)
	{
		parse_batch(set, batch_text, &undo->batch);
		undo->have_batch = true;
	}
	undo->retire.keep_table = keep_table;
	undo->retire.keep_index = true;
	undo->retire.keep_publication = true;
	undo->retire.cascade = drop_cascade;
}

/*
 * partmgr_plan_undo_step
 *		Plan the next step of undo_partition: the default partition first,
 *		then the lowest child.  A child with rows has them (or those up to a
 *		batch width above its smallest key) moved into the target; the
 *		default partition, without a batch width, those up to one partition
 *		interval above its smallest key -- that key included, as pg_partman
 *		does; a whole
 *		child moved, or one found empty, is then retired.  An empty plan
 *		means the set has no child left.
 */
PartmgrPlan *
partmgr_plan_undo_step(PartmgrSet *set, PartmgrTree *tree,
					   const PartmgrUndo *undo)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);
	PartmgrChild current;
	PartmgrRowSource source;
	PartmgrPoint key;

	memset(&current, 0, sizeof(current));
	if (OidIsValid(tree->default_oid))
	{
		current.relid = tree->default_oid;
		current.schema = tree->default_schema;
		current.name = tree->default_name;
		current.relkind = get_rel_relkind(current.relid);
		current.lower = PARTMGR_POINT_MIN;
		current.upper = PARTMGR_POINT_MAX;
	}
	else if (tree->nchildren > 0)
		current = tree->children[0];
	else
		return plan;

	if (!current.detach_pending &&
		end_key(set, current.schema, current.name, false, false, &key))
	{
		memset(&source, 0, sizeof(source));
		source.relid = current.relid;
		source.schema = current.schema;
		source.name = current.name;
		source.columns = undo->columns;

		/*
		 * without a batch width, the default partition goes one interval at a
		 * time
		 */
		if (undo->have_batch || current.relid == tree->default_oid)
		{
			PartmgrPoint to = batch_end(set, undo->have_batch ? &undo->batch :
										&set->step,
										key, false);

			/*
			 * pg_partman's batch takes the keys up to and including the end;
			 * for numeric keys it counts from the smallest key rounded to a
			 * whole number, which leaves the end's fractions out
			 */
			if (to != PARTMGR_POINT_MAX && set->axis.column_typid != NUMERICOID)
				to += set->axis.typid == DATEOID ? USECS_PER_DAY : 1;

			partmgr_plan_add_move(plan, &source, undo->target_schema,
								  undo->target_name, PARTMGR_POINT_MIN, to);
			if (to <= current.upper || current.upper == PARTMGR_POINT_MAX)
				return plan;	/* the child may hold more: look again next
								 * step */
		}
		else
			partmgr_plan_add_move(plan, &source, undo->target_schema,
								  undo->target_name, PARTMGR_POINT_MIN,
								  PARTMGR_POINT_MAX);
	}
	if (current.detach_pending)
		partmgr_plan_add_finalize(plan, &current);
	else
		partmgr_plan_add_retire(plan, &current, &undo->retire);
	return plan;
}

/*
 * partmgr_async_init
 *		Prepare partition_data_async for a set: rows out of the default
 *		partition, batch_text wide (NULL: one partition interval), which
 *		may be narrower than the set's interval but not wider.
 */
void
partmgr_async_init(PartmgrSet *set, PartmgrTree *tree, const char *batch_text,
				   bool descending, List *ignored, PartmgrDataMove *move)
{
	partmgr_data_move_init(set, tree, InvalidOid, NULL, descending, ignored,
						   move);
	if (batch_text == NULL)
		return;
	parse_batch(set, batch_text, &move->batch);
	if (set->axis.kind == PARTMGR_KEY_ID ? move->batch.id > set->step.id :
		DatumGetInt32(DirectFunctionCall2(interval_cmp,
										  IntervalPGetDatum(&move->batch.time),
										  IntervalPGetDatum(&set->step.time))) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("batch interval \"%s\" is wider than the partition interval \"%s\" of \"%s\"",
						batch_text, set->interval_text, set->key)));
}

/*
 * partmgr_plan_async_step
 *		The next step of partition_data_async (see api/data.c): with no
 *		child in progress, create the child of the default partition's
 *		first key (descending: last) unattached (*outcome STARTED, its lower
 *		bound in *lower); with one, move the next batch of its range out of
 *		the default partition into it (MOVED), or, when none is left, attach
 *		it (ATTACHED).  An empty plan: the default partition holds no row.
 */
PartmgrPlan *
partmgr_plan_async_step(PartmgrSet *set, PartmgrTree *tree,
						const PartmgrDataMove *move,
						PartmgrAsyncOutcome *outcome, PartmgrPoint *lower)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);
	PartmgrPoint upper;
	PartmgrPoint key;
	PartmgrErrorContext ctx;
	char	   *name;
	Oid			relid;

	plan->moving_data = true;
	*outcome = PARTMGR_ASYNC_NOTHING;
	if (set->async_in_progress == NULL)
	{
		if (!OidIsValid(move->source.relid) ||
			!end_key(set, move->source.schema, move->source.name,
					 move->descending, false,
					 &key))
			return plan;
		check_finite_key(set, move, key, true);
		*lower = new_slot(set, tree, key, &upper);
		add_batch_child(plan, *lower, upper);
		((PartmgrAction *) llast(plan->actions))->unattached = true;
		*outcome = PARTMGR_ASYNC_STARTED;
		return plan;
	}

	partmgr_context_push(&ctx,
						 "async_partitioning_in_progress of partition set \"%s\"",
						 set->key);
	*lower = partmgr_point_parse(&set->axis, set->async_in_progress);
	partmgr_context_pop(&ctx);
	(void) new_slot(set, tree, *lower, &upper);
	name = partmgr_child_name(set, *lower);
	relid = get_relname_relid(name, get_rel_namespace(set->parent_oid));
	if (!OidIsValid(relid) || get_rel_relispartition(relid))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 OidIsValid(relid) ?
				 errmsg("partition_data_async of \"%s\" was filling \"%s\", which is attached",
						set->key,
						quote_qualified_identifier(set->parent_schema,
												   name)) :
				 errmsg("partition_data_async of \"%s\" was filling \"%s\", which is gone",
						set->key,
						quote_qualified_identifier(set->parent_schema,
												   name)),
				 errhint("Clear it with UPDATE partmgr.part_config SET async_partitioning_in_progress = NULL WHERE parent_table = '%s'.",
						 set->key)));
	if (OidIsValid(move->source.relid) &&
		end_key_sql(set,
					partmgr_ddl_min_control_in(set, move->source.schema,
											   move->source.name,
											   move->descending, *lower,
											   upper),
					&key))
	{
		PartmgrPoint from = *lower;
		PartmgrPoint to = upper;

		/* the batch next to the keys moved before, and what lies beyond */
		if (move->descending)
			from = Max(*lower, batch_end(set, &move->batch, key, true));
		else
			to = Min(upper, batch_end(set, &move->batch, key, false));
		partmgr_plan_add_move(plan, &move->source, set->parent_schema, name,
							  from, to);
		*outcome = PARTMGR_ASYNC_MOVED;
		return plan;
	}
	partmgr_plan_add_attach(plan, &move->source, set->parent_schema, name,
							relid, *lower, upper);
	*outcome = PARTMGR_ASYNC_ATTACHED;
	return plan;
}
