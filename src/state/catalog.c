/*-------------------------------------------------------------------------
 *
 * catalog.c
 *	  Read a partition set's tables and bounds from the system catalogs.
 *
 * Names given by users are resolved to OIDs once; the config key of a table
 * is its "schema.table" text, as in pg_partman.  Children and their bounds
 * come from pg_inherits and pg_class.relpartbound.
 *
 * Locks: none.  Catalog rows are read with the catalog snapshot; callers
 * lock the tables they then act on (execute.c) and re-read where it
 * matters.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/catalog.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/heap.h"
#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_partitioned_table.h"
#include "catalog/pg_statistic_ext.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "nodes/makefuncs.h"
#include "nodes/parsenodes.h"
#include "partitioning/partbounds.h"
#include "lib/stringinfo.h"
#include "compat.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"
#include "utils/lsyscache.h"
#include "utils/varlena.h"
#include "utils/syscache.h"

#include "bounds.h"
#include "catalog.h"
#include "statements.h"
#include "locks.h"
#include "prefetch.h"

/*
 * partmgr_resolve_table
 *		OID of the table a user named.  pg_partman's form "schema.table" is
 *		tried first, matched exactly (so 'Partman_Test.Time_Table' finds the
 *		mixed-case table, as with pg_partman); then PostgreSQL's identifier
 *		rules apply, as for regclass input ('"My Schema"."My Table"', or an
 *		unqualified name found through search_path).  Raises 42P01 unless
 *		missing_ok, in which case InvalidOid is returned.
 */
Oid
partmgr_resolve_table(const char *name, bool missing_ok)
{
	Oid			relid = InvalidOid;
	const char *dot = strchr(name, '.');

	if (strchr(name, '"') == NULL && dot != NULL &&
		strchr(dot + 1, '.') == NULL)
	{
		char	   *schema = pnstrdup(name, dot - name);
		Oid			nspid = get_namespace_oid(schema, true);

		if (OidIsValid(nspid))
			relid = get_relname_relid(dot + 1, nspid);
	}

	if (!OidIsValid(relid))
	{
		char	   *raw = pstrdup(name);
		List	   *names;

		if (!SplitIdentifierString(raw, '.', &names) || names == NIL ||
			list_length(names) > 2)
		{
			if (missing_ok)
				return InvalidOid;
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_NAME),
					 errmsg("invalid table name \"%s\"", name),
					 errhint("Give the table as 'schema.table'; quote names that need quoting, as in '\"My Schema\".\"My Table\"'.")));
		}
		else
		{
			List	   *qualified = NIL;
			ListCell   *lc;

			foreach(lc, names)
				qualified = lappend(qualified, makeString((char *) lfirst(lc)));
			relid = RangeVarGetRelid(makeRangeVarFromNameList(qualified),
									 NoLock, true);
		}
	}

	if (!OidIsValid(relid) && !missing_ok)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("table \"%s\" does not exist", name),
				 errhint("Give the table as 'schema.table'; quote names that need quoting, as in '\"My Schema\".\"My Table\"'.")));
	return relid;
}

/*
 * Keys.  part_config.parent_table (and part_config_sub.sub_parent, and
 * template_table) name a table as pg_partman stores it -- "schema.table",
 * unquoted, case kept -- when neither name holds a period or a double
 * quote, which is every name pg_partman can manage.  Otherwise both names
 * are written as SQL identifiers ("My.Schema"."Odd""Name"), which a key
 * without a double quote can never be mistaken for.  Read back, a key
 * names exactly the table it was written for.
 */
static bool
key_part_is_plain(const char *name)
{
	return strchr(name, '.') == NULL && strchr(name, '"') == NULL;
}

/*
 * partmgr_names_key
 *		The key of the table schema.name (see above).  Palloc'd.
 */
char *
partmgr_names_key(const char *schema, const char *name)
{
	if (key_part_is_plain(schema) && key_part_is_plain(name))
		return psprintf("%s.%s", schema, name);
	return psprintf("%s.%s", quote_identifier(schema), quote_identifier(name));
}

/*
 * partmgr_table_key
 *		The key of a relation.  Palloc'd.
 */
char *
partmgr_table_key(Oid relid)
{
	char	   *relname = get_rel_name(relid);

	if (relname == NULL)
		elog(ERROR, "cache lookup failed for relation %u", relid);
	return partmgr_names_key(get_namespace_name(get_rel_namespace(relid)),
							 relname);
}

/*
 * partmgr_key_split
 *		The schema and table names a key stands for, exactly; false when it
 *		is not a key (no period, or quoting that does not parse as two
 *		names).
 */
bool
partmgr_key_split(const char *key, char **schema, char **name)
{
	const char *dot;

	if (strchr(key, '"') != NULL)
	{
		char	   *raw = pstrdup(key);
		List	   *names;

		if (!SplitIdentifierString(raw, '.', &names) || list_length(names) != 2)
			return false;
		*schema = pstrdup((char *) linitial(names));
		*name = pstrdup((char *) lsecond(names));
		return true;
	}
	dot = strchr(key, '.');
	if (dot == NULL || strchr(dot + 1, '.') != NULL)
		return false;
	*schema = pnstrdup(key, dot - key);
	*name = pstrdup(dot + 1);
	return true;
}

/*
 * partmgr_key_relid
 *		The relation a key names, or InvalidOid when there is none.
 */
Oid
partmgr_key_relid(const char *key)
{
	char	   *schema;
	char	   *name;
	Oid			nspid;
	Oid			relid;

	if (!partmgr_key_split(key, &schema, &name))
		return InvalidOid;
	nspid = get_namespace_oid(schema, true);
	if (!OidIsValid(nspid))
		return InvalidOid;
	relid = partmgr_prefetched_relid(nspid, name);
	return OidIsValid(relid) ? relid : get_relname_relid(name, nspid);
}

/*
 * partmgr_key_display
 *		A key quoted for messages and SQL: "schema"."table" where quoting is
 *		needed.
 */
char *
partmgr_key_display(const char *key)
{
	char	   *schema;
	char	   *name;

	if (!partmgr_key_split(key, &schema, &name))
		return pstrdup(quote_identifier(key));
	return quote_qualified_identifier(schema, name);
}

/*
 * partmgr_rel_owner
 *		The owner of relid (from the run's prefetch while it is unchanged
 *		since), or InvalidOid when it no longer exists.
 */
Oid
partmgr_rel_owner(Oid relid)
{
	const PartmgrKnownRel *known = partmgr_prefetched(relid);
	HeapTuple	tuple;
	Oid			owner;

	if (known != NULL && known->filled)
		return known->owner;
	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tuple))
		return InvalidOid;
	owner = ((Form_pg_class) GETSTRUCT(tuple))->relowner;
	ReleaseSysCache(tuple);
	return owner;
}

/*
 * partmgr_foreign_owner
 *		The owner of relid when it is neither owner (a set's) nor a
 *		superuser: a role whose code must not run with owner's rights (see
 *		work.c's check_owner); else InvalidOid.
 */
Oid
partmgr_foreign_owner(Oid relid, Oid owner)
{
	Oid			relowner = partmgr_rel_owner(relid);

	if (!OidIsValid(relowner) || relowner == owner || superuser_arg(relowner))
		return InvalidOid;
	return relowner;
}

/*
 * partmgr_read_parent
 *		Fill info with the partitioning facts of relid.  info->strategy is 0
 *		when the relation is not a partitioned table.  Raises 42P01 when the
 *		relation does not exist.
 */
void
partmgr_read_parent(Oid relid, PartmgrParentInfo *info)
{
	HeapTuple	tuple;
	Form_pg_class classform;
	const PartmgrKnownRel *known = partmgr_prefetched(relid);

	memset(info, 0, sizeof(*info));
	if (known != NULL &&
		(known->relkind != RELKIND_PARTITIONED_TABLE || known->partitioned))
	{
		/* as the run read it, unchanged since */
		info->relid = relid;
		info->name = pstrdup(known->name);
		info->schema = get_namespace_name(known->nspoid);
		info->relkind = known->relkind;
		info->owner = known->owner;
		info->ispartition = known->ispartition;
		info->hastriggers = known->hastriggers;
		if (known->relkind != RELKIND_PARTITIONED_TABLE)
			return;
		info->strategy = known->strategy;
		info->nkeys = known->nkeys;
		info->key_attnum = known->key_attnum;
		info->default_oid = known->default_oid;
		if (known->key_name != NULL)
		{
			info->key_name = pstrdup(known->key_name);
			info->key_type = known->key_type;
		}
		else if (info->key_attnum != InvalidAttrNumber)
			info->key_type = get_atttype(relid, info->key_attnum);
		return;
	}

	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tuple))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	classform = (Form_pg_class) GETSTRUCT(tuple);
	info->relid = relid;
	info->name = pstrdup(NameStr(classform->relname));
	info->schema = get_namespace_name(classform->relnamespace);
	info->relkind = classform->relkind;
	info->owner = classform->relowner;
	info->ispartition = classform->relispartition;
	info->hastriggers = classform->relhastriggers;
	ReleaseSysCache(tuple);

	if (info->relkind != RELKIND_PARTITIONED_TABLE)
		return;

	tuple = SearchSysCache1(PARTRELID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for partition key of relation %u",
			 relid);
	else
	{
		Form_pg_partitioned_table part = (Form_pg_partitioned_table) GETSTRUCT(tuple);

		info->strategy = part->partstrat;
		info->nkeys = part->partnatts;
		info->key_attnum = part->partattrs.values[0];
		info->default_oid = part->partdefid;
		ReleaseSysCache(tuple);
	}
	if (info->key_attnum != InvalidAttrNumber)
		info->key_type = get_atttype(relid, info->key_attnum);
}

/*
 * range_point
 *		The point of a range bound's first column: MINVALUE, MAXVALUE or a
 *		value.
 */
static PartmgrPoint
range_point(const PartmgrAxis *axis, PartitionRangeDatumKind kind, Datum value)
{
	if (kind == PARTITION_RANGE_DATUM_MINVALUE)
		return PARTMGR_POINT_MIN;
	if (kind == PARTITION_RANGE_DATUM_MAXVALUE)
		return PARTMGR_POINT_MAX;
	return partmgr_point_from_datum(axis, value);
}

/*
 * range_datum_point
 *		The point of one PartitionRangeDatum of a range bound.
 */
static PartmgrPoint
range_datum_point(const PartmgrAxis *axis, List *datums)
{
	PartitionRangeDatum *prd = linitial_node(PartitionRangeDatum, datums);

	return range_point(axis, prd->kind,
					   prd->kind == PARTITION_RANGE_DATUM_VALUE ?
					   castNode(Const, prd->value)->constvalue : (Datum) 0);
}

/*
 * child_bounds
 *		Lower and upper points of a child from its PartitionBoundSpec.  A list
 *		child covers [smallest value, largest value + 1).
 */
static void
child_bounds(const PartmgrSet *set, PartitionBoundSpec *spec,
			 PartmgrChild *child)
{
	if (spec->strategy == PARTITION_STRATEGY_RANGE)
	{
		child->lower = range_datum_point(&set->axis, spec->lowerdatums);
		child->upper = range_datum_point(&set->axis, spec->upperdatums);
		return;
	}
	if (spec->strategy == PARTITION_STRATEGY_LIST)
	{
		ListCell   *lc;
		bool		first = true;

		child->lower = child->upper = 0;
		foreach(lc, spec->listdatums)
		{
			Const	   *value = lfirst_node(Const, lc);
			PartmgrPoint p;

			if (value->constisnull)
				continue;
			p = partmgr_point_from_datum(&set->axis, value->constvalue);
			if (first || p < child->lower)
				child->lower = p;
			if (first || p + 1 > child->upper)
				child->upper = p + 1;
			first = false;
		}
		return;
	}
	if (spec->strategy == PARTITION_STRATEGY_HASH)
	{
		child->modulus = spec->modulus;
		child->remainder = spec->remainder;
		child->lower = spec->remainder;
		child->upper = (PartmgrPoint) spec->remainder + 1;
		return;
	}
	elog(ERROR, "unsupported partition strategy \"%c\"", spec->strategy);
}

static int
child_cmp(const void *a, const void *b)
{
	const PartmgrChild *ca = (const PartmgrChild *) a;
	const PartmgrChild *cb = (const PartmgrChild *) b;

	if (ca->lower != cb->lower)
		return ca->lower < cb->lower ? -1 : 1;
	if (ca->upper != cb->upper)
		return ca->upper < cb->upper ? -1 : 1;
	return 0;
}

/*
 * known_child
 *		Fill in a child (relid set) as the run's prefetch read it, when it
 *		did and nothing changed since (see prefetch.c); false otherwise.
 *		*is_default says whether it is the default partition.
 */
static bool
known_child(const PartmgrSet *set, PartmgrChild *child, bool *is_default)
{
	const PartmgrKnownRel *known = partmgr_prefetched(child->relid);

	if (known == NULL || !known->bound_known)
		return false;
	child->name = pstrdup(known->name);
	child->schema = get_namespace_name(known->nspoid);
	child->relkind = known->relkind;
	*is_default = known->is_default;
	if (known->is_default)
		return true;
	if (known->bound_strategy == PARTITION_STRATEGY_HASH)
	{
		child->modulus = known->modulus;
		child->remainder = known->remainder;
		child->lower = known->remainder;
		child->upper = (PartmgrPoint) known->remainder + 1;
		return true;
	}
	child->lower = range_point(&set->axis, known->lower_kind, known->lower);
	child->upper = range_point(&set->axis, known->upper_kind, known->upper);
	return true;
}

/*
 * read_child
 *		Fill in a child (relid set) from the syscache: its names, kind and
 *		bounds.  false when it was dropped, or its attach is not visible yet.
 */
static bool
read_child(const PartmgrSet *set, PartmgrChild *child, bool *is_default)
{
	HeapTuple	reltup = SearchSysCache1(RELOID,
										 ObjectIdGetDatum(child->relid));
	Form_pg_class classform;
	Datum		boundtext;
	bool		isnull;
	PartitionBoundSpec *spec;

	if (!HeapTupleIsValid(reltup))
		return false;			/* dropped concurrently */
	classform = (Form_pg_class) GETSTRUCT(reltup);
	boundtext = SysCacheGetAttr(RELOID, reltup, Anum_pg_class_relpartbound,
								&isnull);
	if (isnull)
	{
		ReleaseSysCache(reltup);
		return false;			/* attach not yet visible */
	}
	spec = castNode(PartitionBoundSpec,
					stringToNode(TextDatumGetCString(boundtext)));
	child->name = pstrdup(NameStr(classform->relname));
	child->schema = get_namespace_name(classform->relnamespace);
	child->relkind = classform->relkind;
	ReleaseSysCache(reltup);
	*is_default = spec->is_default;
	if (!spec->is_default)
		child_bounds(set, spec, child);
	return true;
}

/* add a partition of the set's parent to the tree, unless it is gone */
static void
tree_add(const PartmgrSet *set, PartmgrTree *tree, int *allocated, Oid relid,
		 bool detach_pending)
{
	PartmgrChild child;
	bool		is_default;

	memset(&child, 0, sizeof(child));
	child.relid = relid;
	child.detach_pending = detach_pending;
	if (!known_child(set, &child, &is_default) &&
		!read_child(set, &child, &is_default))
		return;
	if (is_default)
	{
		tree->default_oid = child.relid;
		tree->default_schema = child.schema;
		tree->default_name = child.name;
		return;
	}
	if (tree->nchildren == *allocated)
	{
		*allocated *= 2;
		tree->children = repalloc(tree->children,
								  sizeof(PartmgrChild) * *allocated);
	}
	tree->children[tree->nchildren++] = child;
}

/*
 * partmgr_read_tree
 *		Every direct child of the set's parent with its bounds, sorted by
 *		lower bound, and the default partition.  Children whose DETACH
 *		CONCURRENTLY has not finished are listed with detach_pending set (they
 *		still hold their range).  The children come from the run's prefetch
 *		while the parent is unchanged since, else from pg_inherits' index.
 *		Allocated in the current memory context.
 */
PartmgrTree *
partmgr_read_tree(const PartmgrSet *set)
{
	PartmgrTree *tree = palloc0(sizeof(PartmgrTree));
	const PartmgrKnownRel *parent = partmgr_prefetched(set->parent_oid);
	int			allocated = 16;

	tree->children = palloc(sizeof(PartmgrChild) * allocated);
	if (parent != NULL && parent->partitioned)
	{
		/* the partitions the run read, unchanged since (see prefetch.c) */
		for (int i = 0; i < parent->nchildren; i++)
			tree_add(set, tree, &allocated, parent->children[i].relid,
					 parent->children[i].detach_pending);
	}
	else
	{
		Relation	inhrel;
		SysScanDesc scan;
		ScanKeyData key;
		HeapTuple	inhtup;

		ScanKeyInit(&key, Anum_pg_inherits_inhparent, BTEqualStrategyNumber,
					F_OIDEQ, ObjectIdGetDatum(set->parent_oid));
		inhrel = table_open(InheritsRelationId, AccessShareLock);
		scan = systable_beginscan(inhrel, InheritsParentIndexId, true, NULL, 1,
								  &key);
		while ((inhtup = systable_getnext(scan)) != NULL)
		{
			Form_pg_inherits inh = (Form_pg_inherits) GETSTRUCT(inhtup);

			tree_add(set, tree, &allocated, inh->inhrelid,
					 inh->inhdetachpending);
		}
		systable_endscan(scan);
		table_close(inhrel, AccessShareLock);
	}
	qsort(tree->children, tree->nchildren, sizeof(PartmgrChild), child_cmp);
	return tree;
}

/*
 * partmgr_tree_find_overlap
 *		A child whose range shares any value with [lower, upper), or NULL.
 */
const PartmgrChild *
partmgr_tree_find_overlap(const PartmgrTree *tree, PartmgrPoint lower,
						  PartmgrPoint upper)
{
	for (int i = 0; i < tree->nchildren; i++)
	{
		const PartmgrChild *child = &tree->children[i];

		if (child->lower < upper && lower < child->upper)
			return child;
	}
	return NULL;
}

/*
 * partmgr_tree_find_child
 *		The child with this OID, or NULL if it is not a (non-default) child.
 */
const PartmgrChild *
partmgr_tree_find_child(const PartmgrTree *tree, Oid relid)
{
	for (int i = 0; i < tree->nchildren; i++)
	{
		if (tree->children[i].relid == relid)
			return &tree->children[i];
	}
	return NULL;
}

/*
 * partmgr_movable_columns
 *		Names of the columns of a table whose values travel when rows move:
 *		every live column but generated ones (they are recomputed) and those
 *		named in ignored.  In column order.
 */
List *
partmgr_movable_columns(Oid relid, List *ignored)
{
	List	   *columns = NIL;
	Relation	rel = relation_open(relid, AccessShareLock);
	TupleDesc	desc = RelationGetDescr(rel);

	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		ListCell   *lc;
		bool		skip = att->attisdropped || att->attgenerated != '\0';

		foreach(lc, ignored)
		{
			if (strcmp((char *) lfirst(lc), NameStr(att->attname)) == 0)
				skip = true;
		}
		if (!skip)
			columns = lappend(columns, pstrdup(NameStr(att->attname)));
	}
	relation_close(rel, AccessShareLock);
	return columns;
}

/* list_sort's order of PartmgrStatistics by name (a name's collation is "C") */
static int
compare_statistics(const ListCell *a, const ListCell *b)
{
	return strcmp(((const PartmgrStatistics *) lfirst(a))->name,
				  ((const PartmgrStatistics *) lfirst(b))->name);
}

/*
 * partmgr_statistics_on
 *		The extended statistics objects defined on a table, by name, from
 *		pg_statistic_ext's index (the table itself is not locked).
 */
List *
partmgr_statistics_on(Oid relid)
{
	static const struct
	{
		char		kind;
		const char *name;
	}			kinds[] = {{'d', "ndistinct"}, {'f', "dependencies"}, {'m', "mcv"}};
	Relation	catalog = table_open(StatisticExtRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	List	   *result = NIL;

	ScanKeyInit(&key, Anum_pg_statistic_ext_stxrelid, BTEqualStrategyNumber,
				F_OIDEQ,
				ObjectIdGetDatum(relid));
	scan = systable_beginscan(catalog, StatisticExtRelidIndexId, true, NULL, 1,
							  &key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_statistic_ext form = (Form_pg_statistic_ext) GETSTRUCT(tuple);
		PartmgrStatistics *stat = palloc(sizeof(PartmgrStatistics));
		bool		isnull;
		Datum		kind_array = heap_getattr(tuple,
											  Anum_pg_statistic_ext_stxkind,
											  RelationGetDescr(catalog),
											  &isnull);
		Datum	   *elems = NULL;
		int			n = 0;
		StringInfoData buf;

		stat->schema = get_namespace_name(form->stxnamespace);
		stat->name = pstrdup(NameStr(form->stxname));
		stat->owner = form->stxowner;
		if (!isnull)
			deconstruct_array(DatumGetArrayTypeP(kind_array), CHAROID, 1, true,
							  TYPALIGN_CHAR, &elems, NULL, &n);
		/* the kinds other than expressions, in the order of their letters */
		initStringInfo(&buf);
		for (int k = 0; k < lengthof(kinds); k++)
		{
			for (int i = 0; i < n; i++)
			{
				if (DatumGetChar(elems[i]) == kinds[k].kind)
				{
					appendStringInfo(&buf, "%s%s", buf.len > 0 ? ", " : "",
									 kinds[k].name);
					break;
				}
			}
		}
		stat->kinds = buf.len > 0 ? buf.data : NULL;
		stat->columns = TextDatumGetCString(DirectFunctionCall1(pg_get_statisticsobjdef_columns,
																ObjectIdGetDatum(form->oid)));
		stat->target = partmgr_statistics_stattarget(tuple,
													 RelationGetDescr(catalog));
		result = lappend(result, stat);
	}
	systable_endscan(scan);
	table_close(catalog, AccessShareLock);
	list_sort(result, compare_statistics);
	return result;
}

/*
 * partmgr_statistics_of
 *		Those of partmgr_statistics_on that belong to the table's owner
 *		(those pg_partmgr gives a child, and the owner's own).
 */
List *
partmgr_statistics_of(Oid relid)
{
	HeapTuple	reltup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			owner;
	List	   *result = NIL;
	ListCell   *lc;

	if (!HeapTupleIsValid(reltup))
		return NIL;
	owner = ((Form_pg_class) GETSTRUCT(reltup))->relowner;
	ReleaseSysCache(reltup);
	foreach(lc, partmgr_statistics_on(relid))
	{
		PartmgrStatistics *stat = lfirst(lc);

		if (stat->owner == owner)
			result = lappend(result, stat);
	}
	return result;
}

/*
 * partmgr_index_flags
 *		From a table's pg_index rows: its primary key index and the index
 *		marked as its replica identity (each InvalidOid when it has none).
 */
void
partmgr_index_flags(Oid relid, Oid *primary, Oid *replident)
{
	Relation	catalog = table_open(IndexRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;

	*primary = InvalidOid;
	*replident = InvalidOid;
	ScanKeyInit(&key, Anum_pg_index_indrelid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(relid));
	scan = systable_beginscan(catalog, IndexIndrelidIndexId, true, NULL, 1,
							  &key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_index index = (Form_pg_index) GETSTRUCT(tuple);

		if (index->indisprimary)
			*primary = index->indexrelid;
		if (index->indisreplident)
			*replident = index->indexrelid;
	}
	systable_endscan(scan);
	table_close(catalog, AccessShareLock);
}

/*
 * partmgr_read_limits
 *		When the set's parent is itself a range partition of a table
 *		partitioned by the same column (a sub-set keyed like its parent
 *		set), the range it covers there, as points of the set's axis: its
 *		children outside it could never hold a row.  False otherwise.
 */
bool
partmgr_read_limits(const PartmgrSet *set, PartmgrPoint *lower,
					PartmgrPoint *upper)
{
	PartmgrParentInfo above;
	HeapTuple	reltup;
	Datum		boundtext;
	bool		isnull;
	PartitionBoundSpec *spec;
	PartmgrChild bounds;

	if (!get_rel_relispartition(set->parent_oid))
		return false;
	partmgr_read_parent(get_partition_parent(set->parent_oid, true), &above);
	if (above.strategy != PARTITION_STRATEGY_RANGE || above.nkeys != 1 ||
		above.key_attnum == InvalidAttrNumber ||
		strcmp(get_attname(above.relid, above.key_attnum, false),
			   set->control) != 0)
		return false;

	reltup = SearchSysCache1(RELOID, ObjectIdGetDatum(set->parent_oid));
	if (!HeapTupleIsValid(reltup))
		return false;
	boundtext = SysCacheGetAttr(RELOID, reltup, Anum_pg_class_relpartbound,
								&isnull);
	spec = isnull ? NULL : castNode(PartitionBoundSpec,
									stringToNode(TextDatumGetCString(boundtext)));
	ReleaseSysCache(reltup);
	if (spec == NULL || spec->is_default ||
		spec->strategy != PARTITION_STRATEGY_RANGE)
		return false;
	child_bounds(set, spec, &bounds);
	*lower = bounds.lower;
	*upper = bounds.upper;
	return true;
}

/*
 * partmgr_sub_parents_below
 *		Keys ("schema.table") of the given table and of every table below
 *		it that is partitioned itself: the sets that go when the table
 *		leaves its partition set.
 */
List *
partmgr_sub_parents_below(Oid relid)
{
	List	   *keys = NIL;
	ListCell   *lc;

	foreach(lc, find_all_inheritors(relid, NoLock, NULL))
	{
		if (get_rel_relkind(lfirst_oid(lc)) == RELKIND_PARTITIONED_TABLE)
			keys = lappend(keys, partmgr_table_key(lfirst_oid(lc)));
	}
	return keys;
}

/*
 * private_sql
 *		The statements that leave a table with owner's privileges alone,
 *		given its ACL acl of creator's: REVOKE ALL of every other grantee
 *		(PUBLIC, roles default privileges named), then GRANT ALL to owner
 *		where creator's own privileges were cut.  Entries of owner's are
 *		creator's once ALTER TABLE ... OWNER TO has run (the statements
 *		are then run by owner, the grantor of every entry).
 */
static List *
private_sql(const char *schema, const char *name, const Acl *acl, Oid creator,
			Oid owner)
{
	const AclItem *items = ACL_DAT(acl);
	AclMode		kept = ACL_NO_RIGHTS;
	List	   *others = NIL;
	List	   *statements = NIL;
	ListCell   *lc;

	for (int i = 0; i < ACL_NUM(acl); i++)
	{
		if (items[i].ai_grantee == creator || items[i].ai_grantee == owner)
			kept |= ACLITEM_GET_PRIVS(items[i]);
		else
			others = list_append_unique_oid(others, items[i].ai_grantee);
	}
	foreach(lc, others)
	{
		Oid			grantee = lfirst_oid(lc);

		statements = lappend(statements,
							 partmgr_ddl_revoke(schema, name, "ALL",
												grantee == ACL_ID_PUBLIC ?
												"PUBLIC" :
												quote_identifier(GetUserNameFromId(grantee, false))));
	}
	if ((kept & ACL_ALL_RIGHTS_RELATION) != ACL_ALL_RIGHTS_RELATION)
		statements = lappend(statements,
							 partmgr_ddl_grant(schema, name, "ALL",
											   quote_identifier(GetUserNameFromId(owner, false)),
											   false));
	return statements;
}

/*
 * partmgr_private_table_plan, partmgr_private_table_sql
 *		A table pg_partmgr makes for itself in a set's schema (a global
 *		unique constraint's side table, a reshape's change log, a staging
 *		table) has its owner's privileges alone, whatever ALTER DEFAULT
 *		PRIVILEGES gives new tables there: no other role may write the rows
 *		its correctness rests on.  The first says what a table that creator
 *		makes in schema nspid and gives to owner will need (default
 *		privileges; NIL when there are none), for a plan; the second what
 *		table relid needs now, from its ACL, for running.
 */
List *
partmgr_private_table_plan(Oid nspid, const char *name, Oid creator, Oid owner)
{
	Acl		   *acl = get_user_default_acl(OBJECT_TABLE, creator, nspid);

	if (acl == NULL)
		return NIL;
	return private_sql(get_namespace_name(nspid), name, acl, creator, owner);
}

List *
partmgr_private_table_sql(Oid relid)
{
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Form_pg_class form;
	Datum		datum;
	bool		isnull;
	List	   *statements = NIL;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	form = (Form_pg_class) GETSTRUCT(tuple);
	datum = SysCacheGetAttr(RELOID, tuple, Anum_pg_class_relacl, &isnull);
	if (!isnull)
		statements = private_sql(get_namespace_name(form->relnamespace),
								 NameStr(form->relname), DatumGetAclP(datum),
								 form->relowner, form->relowner);
	ReleaseSysCache(tuple);
	return statements;
}

/*
 * partmgr_add_hash_check
 *		Give table relid the CHECK constraint conname that is exactly the
 *		partition constraint it will have as the child of parent for
 *		remainder of modulus, built by PostgreSQL from those bounds: ATTACH
 *		then finds the partition constraint implied and scans nothing.  (The
 *		same CHECK written in SQL differs from it for a collatable key, by
 *		its input collation, and would not do.)  The table is new and
 *		empty, taken in ACCESS EXCLUSIVE mode; the parent is locked in
 *		ACCESS SHARE mode without queueing.
 */
void
partmgr_add_hash_check(Oid relid, Oid parent, int modulus, int remainder,
					   const char *conname)
{
	PartitionBoundSpec *spec = makeNode(PartitionBoundSpec);
	Constraint *con = makeNode(Constraint);
	Relation	parentrel;
	Relation	rel;
	List	   *qual;

	partmgr_lock_relation(parent, AccessShareLock);
	parentrel = table_open(parent, NoLock);
	rel = table_open(relid, AccessExclusiveLock);
	spec->strategy = PARTITION_STRATEGY_HASH;
	spec->is_default = false;
	spec->modulus = modulus;
	spec->remainder = remainder;
	spec->location = -1;
	qual = get_qual_from_partbound(parentrel, spec);
	qual = map_partition_varattnos(qual, 1, rel, parentrel);
	con->contype = CONSTR_CHECK;
	con->conname = pstrdup(conname);
	con->cooked_expr = nodeToString(make_ands_explicit(qual));
	con->initially_valid = true;
	con->skip_validation = false;
	con->location = -1;
	(void) AddRelationNewConstraints(rel, NIL, list_make1(con), false, true,
									 false, NULL);
	CommandCounterIncrement();
	table_close(rel, NoLock);
	table_close(parentrel, NoLock);
}

/*
 * partmgr_slot_key
 *		The values of a row's key columns (attnums, of lengths typlen),
 *		detoasted so that they can be stored elsewhere; false when one is
 *		NULL.  For the triggers that record keys (global unique constraints,
 *		a reshape's change capture).
 */
bool
partmgr_slot_key(TupleTableSlot *slot, int ncols, const AttrNumber *attnums,
				 const int16 *typlen, Datum *values)
{
	for (int i = 0; i < ncols; i++)
	{
		bool		isnull;

		values[i] = slot_getattr(slot, attnums[i], &isnull);
		if (isnull)
			return false;
		if (typlen[i] == -1)
			values[i] = PointerGetDatum(PG_DETOAST_DATUM_PACKED(values[i]));
	}
	return true;
}

/*
 * partmgr_total_bytes
 *		The bytes of a table with its indexes and TOAST
 *		(pg_total_relation_size).
 */
int64
partmgr_total_bytes(Oid relid)
{
	return DatumGetInt64(DirectFunctionCall1(pg_total_relation_size,
											 ObjectIdGetDatum(relid)));
}
