/*-------------------------------------------------------------------------
 *
 * unique.c
 *	  Global unique constraints (unique.h): which a set has, and keeping
 *	  their side tables in step with the rows.
 *
 *	partmgr_unique_list: a top parent's constraints, from its triggers.
 *	partmgr_unique_row, partmgr_unique_truncate: what the triggers do, with
 *		the rights of the set's owner (rights.c): a row's key is entered
 *		when the row arrives and removed when it goes.
 *	partmgr_unique_batch_open, partmgr_unique_batch_close: around a
 *		statement's AFTER row triggers, the new keys they keep are entered
 *		together (see "Batches" below).
 *	partmgr_unique_fill: the entries of a whole table, when a constraint
 *		is made or a table attached, with the duplicates named.
 *	partmgr_unique_children, partmgr_unique_waiting: which children the
 *		entries name, and how many entries of those no longer in the set
 *		wait for cleanup (plan.c plans their removal).
 *
 * Entering a key.  Under an exclusive lock on the key's hash (a lock tag of
 * our own, held only while the key is entered), the entry is inserted and
 * the side table's unique index says, as for a deferred unique constraint,
 * whether another entry of the key may exist.  Only then is the index
 * probed with a dirty snapshot, as PostgreSQL checks a unique index: an
 * entry another transaction is writing or removing is waited for, then
 * looked at again; a live entry of a child still in the set is a duplicate
 * (23505, naming the constraint, the key and the child); an entry of a
 * child that left the set is removed; and the entry is checked against the
 * index once more.  A new key so costs one descent of the unique index, as
 * in a plain unique index.  That order needs equal keys to take the same
 * lock, so it is kept for keys whose btree equality is binary equality
 * (the index's allequalimage, which deduplication asks too); for others
 * (numeric 1.0 and 1.00, a nondeterministic collation: equal keys that hash
 * apart) the index is probed first and the entry inserted after.  The
 * unique index itself is what guarantees uniqueness: the lock only makes a
 * conflict come out as our message rather than the index's, and keeps two
 * transactions from each waiting for the other's entry.
 *
 * Locks: ROW EXCLUSIVE on the side table and its unique index; the key's
 * lock (ExclusiveLock, advisory tag with field4 = 3) while a key is
 * entered; whatever the statements on the side table take.
 * Runs in the transaction of the statement that fired the trigger.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/unique.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/nbtree.h"
#include "access/relation.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/index.h"
#include "catalog/namespace.h"
#include "catalog/pg_am.h"
#include "commands/defrem.h"
#include "common/hashfn.h"
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_trigger.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "utils/sortsupport.h"
#include "utils/syscache.h"

#include "catalog.h"
#include "statements.h"
#include "locks.h"
#include "pg_partmgr.h"
#include "prefetch.h"
#include "rights.h"
#include "spi_util.h"
#include "unique.h"

/* field4 of the lock tag of a key being entered */
#define KEY_LOCK_FIELD4		3

/*
 * What a trigger of one constraint needs on one leaf, kept per backend
 * until any relation changes (the relcache callback below).
 */
typedef struct RowKey
{
	Oid			leaf;
	Oid			tgoid;
} RowKey;

typedef struct RowCache
{
	RowKey		key;
	Oid			root;
	Oid			owner;
	Oid			side;
	Oid			index;			/* the side table's unique index */
	char	   *name;
	int			ncols;
	AttrNumber	attnums[INDEX_MAX_KEYS];	/* in the leaf */
	Oid			types[INDEX_MAX_KEYS + 1];	/* and the child's regclass */
	int16		typlen[INDEX_MAX_KEYS];
	bool		typbyval[INDEX_MAX_KEYS];
	RegProcedure eqproc[INDEX_MAX_KEYS];
	Oid			collation[INDEX_MAX_KEYS];
	char	  **columns;
	bool		direct;			/* entries written in C (see plain_side) */
	bool		insert_first;	/* direct, and equal keys are equal images:
								 * insert, probe only on a possible conflict
								 * (see enter_key) */
	int			nindexes;		/* and then into these indexes */
	Oid			indexes[8];
	IndexInfo  *infos[8];		/* theirs, built on first use */
	SPIPlanPtr	insert_plan;
	SPIPlanPtr	delete_plan;
	SPIPlanPtr	delete_tid_plan;
} RowCache;

static HTAB *row_cache = NULL;
static MemoryContext row_cache_context = NULL;
static bool row_cache_stale = false;
static int	row_depth = 0;		/* triggers of ours running now */

/* a statement's new keys, entered together (see "Batches" below) */
typedef struct BatchKey
{
	RowCache   *cache;			/* the trigger's, on the row's leaf */
	Oid			caller;
	SubTransactionId gone;		/* the row went in this subtransaction */
	Datum		values[FLEXIBLE_ARRAY_MEMBER];
} BatchKey;

typedef struct Batch
{
	SubTransactionId subxact;	/* where it was opened */
	MemoryContext context;		/* under TopTransactionContext, on first key */
	int			nkeys;
	Size		bytes;			/* what the keys take, about */
	BatchKey  **keys;
} Batch;

static Batch *batches = NULL;
static int	nbatches = 0;
static int	maxbatches = 0;
static int64 batched = 0;		/* keys in all batches */
static int64 batched_gone = 0;	/* of which rows went meanwhile */
static bool batch_callbacks = false;

static void enter_batch(Batch *batch);

static void
forget_row_cache(Datum arg, Oid relid)
{
	row_cache_stale = true;
}

/* Drop every kept entry and plan; only when no other trigger of ours runs. */
static void
flush_row_cache(void)
{
	HASH_SEQ_STATUS status;
	RowCache   *entry;

	hash_seq_init(&status, row_cache);
	while ((entry = hash_seq_search(&status)) != NULL)
	{
		if (entry->insert_plan)
			SPI_freeplan(entry->insert_plan);
		if (entry->delete_plan)
			SPI_freeplan(entry->delete_plan);
		if (entry->delete_tid_plan)
			SPI_freeplan(entry->delete_tid_plan);
	}
	hash_destroy(row_cache);
	row_cache = NULL;
	MemoryContextReset(row_cache_context);
	row_cache_stale = false;
}

static Oid
rel_owner(Oid relid)
{
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			owner;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	owner = ((Form_pg_class) GETSTRUCT(tuple))->relowner;
	ReleaseSysCache(tuple);
	return owner;
}

/* A relation's name for messages and SQL (catalog.c's). */
static const char *
rel_display(Oid relid)
{
	return partmgr_key_display(partmgr_table_key(relid));
}

/* The equality operator of a btree operator family for one type. */
static Oid
btree_equality(Oid opfamily, Oid intype)
{
	Oid			op = get_opfamily_member(opfamily, intype, intype,
										 BTEqualStrategyNumber);

	if (!OidIsValid(op))
		elog(ERROR, "no equality operator in operator family %u", opfamily);
	return op;
}

/*
 * partmgr_unique_top
 *		The top parent of a table's partition tree: the table itself when it
 *		is no partition.
 */
Oid
partmgr_unique_top(Oid relid)
{
	List	   *ancestors;

	if (!get_rel_relispartition(relid))
		return relid;
	ancestors = get_partition_ancestors(relid);
	return ancestors != NIL ? llast_oid(ancestors) : relid;
}

/*
 * partmgr_unique_in_set
 *		Whether child is still a partition somewhere under root (one being
 *		detached concurrently counts): an entry of it counts.
 */
bool
partmgr_unique_in_set(Oid child, Oid root)
{
	if (child == root ||
		!SearchSysCacheExists1(RELOID, ObjectIdGetDatum(child)) ||
		!get_rel_relispartition(child))
		return false;
	return list_member_oid(get_partition_ancestors(child), root);
}

/*
 * partmgr_unique_owner
 *		The owner of a table.
 */
Oid
partmgr_unique_owner(Oid relid)
{
	return rel_owner(relid);
}

/*
 * partmgr_unique_row_function
 *		The OID of partmgr.global_unique_row(), or InvalidOid.
 */
Oid
partmgr_unique_row_function(void)
{
	return LookupFuncName(list_make2(makeString(PARTMGR_SCHEMA),
									 makeString(PARTMGR_UNIQUE_ROW_FUNCTION)),
						  0, NULL, true);
}

/*
 * partmgr_unique_is_row_function
 *		Whether fn is partmgr.global_unique_row.
 */
bool
partmgr_unique_is_row_function(Oid fn)
{
	char	   *name = get_func_name(fn);

	return name != NULL && strcmp(name, PARTMGR_UNIQUE_ROW_FUNCTION) == 0 &&
		get_func_namespace(fn) == get_namespace_oid(PARTMGR_SCHEMA, true);
}

static PartmgrUnique *
unique_of_trigger(Oid root, const Trigger *trigger)
{
	PartmgrUnique *u = palloc0(sizeof(PartmgrUnique));
	Oid			nspid;

	u->name = pstrdup(trigger->tgname);
	u->root = root;
	u->enabled = trigger->tgenabled;
	u->side_schema = pstrdup(trigger->tgargs[0]);
	u->side_name = pstrdup(trigger->tgargs[1]);
	nspid = get_namespace_oid(u->side_schema, true);
	u->side = OidIsValid(nspid) ? get_relname_relid(u->side_name,
													nspid) : InvalidOid;
	u->ncols = trigger->tgnargs - 2;
	u->columns = palloc(sizeof(char *) * u->ncols);
	for (int i = 0; i < u->ncols; i++)
		u->columns[i] = pstrdup(trigger->tgargs[i + 2]);
	return u;
}

/*
 * partmgr_unique_list
 *		The global unique constraints of an open top parent: its own (not
 *		cloned) AFTER INSERT row triggers calling partmgr.global_unique_row,
 *		in the order of their names.
 */
List *
partmgr_unique_list(Relation root)
{
	TriggerDesc *trigdesc = root->trigdesc;
	List	   *result = NIL;

	if (trigdesc == NULL)
		return NIL;
	for (int i = 0; i < trigdesc->numtriggers; i++)
	{
		Trigger    *trigger = &trigdesc->triggers[i];

		if (trigger->tgisclone || !TRIGGER_FOR_ROW(trigger->tgtype) ||
			!TRIGGER_FOR_INSERT(trigger->tgtype) || trigger->tgnargs < 3 ||
			!partmgr_unique_is_row_function(trigger->tgfoid))
			continue;
		result = lappend(result,
						 unique_of_trigger(RelationGetRelid(root), trigger));
	}
	return result;
}

/*
 * partmgr_unique_list_of
 *		partmgr_unique_list of a table by OID (ACCESS SHARE lock taken).
 */
List *
partmgr_unique_list_of(Oid root)
{
	Relation	rel = table_open(root, AccessShareLock);
	List	   *result = partmgr_unique_list(rel);

	table_close(rel, NoLock);
	return result;
}

/*
 * partmgr_unique_none
 *		Whether a top parent certainly has no global unique constraint: it
 *		never had a trigger (pg_class.relhastriggers, which CREATE TRIGGER
 *		sets and only VACUUM clears once none is left).  Asked of the catalog
 *		cache (or the run's prefetch) without opening the table, so that an
 *		idle maintenance pass does not build a relation cache entry for
 *		every parent.
 */
bool
partmgr_unique_none(Oid root)
{
	const PartmgrKnownRel *known = partmgr_prefetched(root);
	HeapTuple	tuple;
	bool		none;

	if (known != NULL)
		return !known->hastriggers;
	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(root));
	if (!HeapTupleIsValid(tuple))
		return false;			/* let the caller's open say what is wrong */
	none = !((Form_pg_class) GETSTRUCT(tuple))->relhastriggers;
	ReleaseSysCache(tuple);
	return none;
}

/*
 * partmgr_unique_find
 *		The constraint called name on an open top parent, or NULL.
 */
PartmgrUnique *
partmgr_unique_find(Relation root, const char *name)
{
	ListCell   *lc;

	foreach(lc, partmgr_unique_list(root))
	{
		PartmgrUnique *u = lfirst(lc);

		if (strcmp(u->name, name) == 0)
			return u;
	}
	return NULL;
}

/* ----------------------------------------------------------------
 * The row triggers
 * ----------------------------------------------------------------
 */

/*
 * side_table
 *		The side table a trigger's arguments name, which must exist and
 *		belong to owner (who owns the set the trigger fired in): a trigger
 *		made by anyone else cannot make pg_partmgr write another role's
 *		table.
 */
static Oid
side_table(const char *name, const char *schema, const char *table, Oid owner)
{
	Oid			nspid = get_namespace_oid(schema, true);
	Oid			side = OidIsValid(nspid) ? get_relname_relid(table,
															 nspid) : InvalidOid;

	if (!OidIsValid(side) || get_rel_relkind(side) != RELKIND_RELATION)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("side table %s of global unique constraint \"%s\" does not exist",
						quote_qualified_identifier(schema, table), name),
				 errhint("Drop the constraint's triggers, or make it again with partmgr.create_global_unique().")));
	if (rel_owner(side) != owner)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("side table %s of global unique constraint \"%s\" does not belong to role \"%s\"",
						quote_qualified_identifier(schema, table), name,
						GetUserNameFromId(owner, false)),
				 errdetail("pg_partmgr writes a side table only with the rights of its owner, who must own the partitioned table too.")));
	return side;
}

/*
 * partmgr_unique_check_side
 *		side_table for a constraint: raise unless its side table exists and
 *		belongs to owner.
 */
void
partmgr_unique_check_side(const PartmgrUnique *u, Oid owner)
{
	(void) side_table(u->name, u->side_schema, u->side_name, owner);
}

/*
 * partmgr_unique_side_is_owners
 *		Whether a constraint's side table exists and belongs to owner.
 */
bool
partmgr_unique_side_is_owners(const PartmgrUnique *u, Oid owner)
{
	return OidIsValid(u->side) &&
		get_rel_relkind(u->side) == RELKIND_RELATION &&
		rel_owner(u->side) == owner;
}

static void
mismatch(const char *name, Oid side, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("side table %s of global unique constraint \"%s\" does not match the constraint: %s",
					rel_display(side), name, what),
			 errhint("Drop the constraint with partmgr.drop_global_unique() and make it again.")));
}

/*
 * find_unique_index
 *		The side table's valid, immediate unique btree on exactly its first
 *		ncols columns; fills the equality procedures and collations.
 */
static Oid
find_unique_index(Relation side, RowCache *entry)
{
	List	   *indexes = RelationGetIndexList(side);
	ListCell   *lc;

	foreach(lc, indexes)
	{
		Relation	index = index_open(lfirst_oid(lc), AccessShareLock);
		Form_pg_index form = index->rd_index;
		bool		fits = (form->indisunique && form->indisvalid &&
							form->indimmediate &&
							form->indnkeyatts == entry->ncols &&
							RelationGetIndexExpressions(index) == NIL &&
							RelationGetIndexPredicate(index) == NIL &&
							index->rd_rel->relam == BTREE_AM_OID);

		for (int i = 0; fits && i < entry->ncols; i++)
			fits = form->indkey.values[i] == i + 1;
		if (fits)
		{
			Oid			result = RelationGetRelid(index);

			for (int i = 0; i < entry->ncols; i++)
			{
				entry->eqproc[i] = get_opcode(btree_equality(index->rd_opfamily[i],
															 index->rd_opcintype[i]));
				entry->collation[i] = index->rd_indcollation[i];
			}
			index_close(index, AccessShareLock);
			return result;
		}
		index_close(index, AccessShareLock);
	}
	mismatch(entry->name, RelationGetRelid(side),
			 "no unique index on its key columns");
	return InvalidOid;			/* not reached */
}

/* An operator as SQL: OPERATOR(schema.name). */
static char *
operator_sql(Oid op)
{
	HeapTuple	tuple = SearchSysCache1(OPEROID, ObjectIdGetDatum(op));
	Form_pg_operator form;
	char	   *result;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for operator %u", op);
	form = (Form_pg_operator) GETSTRUCT(tuple);
	result = psprintf("OPERATOR(%s.%s)",
					  quote_identifier(get_namespace_name(form->oprnamespace)),
					  NameStr(form->oprname));
	ReleaseSysCache(tuple);
	return result;
}

/* The equality operator of the unique index on column i, for SQL text. */
static char *
equality_sql(Relation index, int i)
{
	return operator_sql(btree_equality(index->rd_opfamily[i],
									   index->rd_opcintype[i]));
}

/*
 * prepare_plans
 *		The statements a trigger runs on the side table, kept; inside the
 *		owner's scope, where search_path is pinned.
 */
static void
prepare_plans(RowCache *entry, const char *schema, const char *table)
{
	Relation	index = index_open(entry->index, AccessShareLock);
	MemoryContext old = MemoryContextSwitchTo(row_cache_context);
	char	  **ops = palloc(sizeof(char *) * entry->ncols);
	Oid			tid = TIDOID;

	for (int i = 0; i < entry->ncols; i++)
		ops[i] = equality_sql(index, i);
	index_close(index, AccessShareLock);

	entry->insert_plan =
		partmgr_spi_keep_plan(partmgr_dml_side_insert(schema, table,
													  entry->ncols,
													  entry->columns),
							  entry->ncols + 1, entry->types);
	entry->delete_plan =
		partmgr_spi_keep_plan(partmgr_dml_side_delete_key(schema, table,
														  entry->ncols,
														  entry->columns, ops),
							  entry->ncols + 1, entry->types);
	entry->delete_tid_plan =
		partmgr_spi_keep_plan(partmgr_dml_side_delete_tid(schema, table), 1,
							  &tid);
	MemoryContextSwitchTo(old);
}

/* Whether writing the side table runs code: a trigger, rule, policy, CHECK */
static bool
side_runs_code(Relation side)
{
	return (side->trigdesc != NULL || side->rd_rules != NULL ||
			side->rd_rel->relrowsecurity ||
			(side->rd_att->constr != NULL &&
			 side->rd_att->constr->num_check > 0));
}

/*
 * plain_side
 *		Whether the side table runs no code of anyone when it is written --
 *		no trigger (a foreign key referencing it has some), rule, row
 *		security or CHECK, and indexes on plain columns only, at most
 *		lengthof(entry->indexes) -- so that entries are written in C, with
 *		heap and index calls, without SPI or a change of user; their
 *		indexes go to entry.  Any other side table is written by SQL
 *		statements with the owner's rights.
 */
static bool
plain_side(Relation side, RowCache *entry)
{
	List	   *indexes;
	ListCell   *lc;

	if (side_runs_code(side))
		return false;
	indexes = RelationGetIndexList(side);
	if (list_length(indexes) > lengthof(entry->indexes))
		return false;
	entry->nindexes = 0;
	foreach(lc, indexes)
	{
		Relation	index = index_open(lfirst_oid(lc), AccessShareLock);
		bool		plain = (RelationGetIndexExpressions(index) == NIL &&
							 RelationGetIndexPredicate(index) == NIL);

		index_close(index, AccessShareLock);
		if (!plain)
			return false;
		entry->indexes[entry->nindexes++] = lfirst_oid(lc);
	}
	return true;
}

/*
 * row_cache_entry
 *		What the trigger needs on its leaf, built on first use: the set's
 *		top parent and owner, the side table (checked: the owner's, its
 *		columns those of the key), its unique index.  The plans are
 *		prepared later, inside the owner's scope.
 */
static RowCache *
row_cache_entry(Relation leaf, const Trigger *trigger)
{
	RowKey		key;
	RowCache   *entry;
	bool		found;
	Relation	side;
	TupleDesc	desc;
	TupleDesc	leafdesc = RelationGetDescr(leaf);
	MemoryContext old;

	if (row_cache_stale && row_depth <= 1 && row_cache != NULL &&
		batched == 0)
		flush_row_cache();
	if (row_cache_context == NULL)
	{
		row_cache_context = AllocSetContextCreate(TopMemoryContext,
												  "pg_partmgr global unique triggers",
												  ALLOCSET_SMALL_SIZES);
		CacheRegisterRelcacheCallback(forget_row_cache, (Datum) 0);
	}
	if (row_cache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(RowKey);
		ctl.entrysize = sizeof(RowCache);
		ctl.hcxt = row_cache_context;
		row_cache = hash_create("pg_partmgr global unique triggers", 16, &ctl,
								HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}

	memset(&key, 0, sizeof(key));
	key.leaf = RelationGetRelid(leaf);
	key.tgoid = trigger->tgoid;
	entry = hash_search(row_cache, &key, HASH_FIND, NULL);
	if (entry != NULL)
		return entry;

	if (trigger->tgnargs < 3 || trigger->tgnargs - 2 > INDEX_MAX_KEYS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("trigger \"%s\" on %s does not name a side table and key columns",
						trigger->tgname, rel_display(key.leaf)),
				 errhint("Global unique constraints are made with partmgr.create_global_unique().")));

	/* all checks before the entry exists: an error leaves none half made */
	{
		RowCache	proto;

		memset(&proto, 0, sizeof(proto));
		proto.key = key;
		proto.root = partmgr_unique_top(key.leaf);
		proto.owner = rel_owner(proto.root);
		proto.side = side_table(trigger->tgname, trigger->tgargs[0],
								trigger->tgargs[1],
								proto.owner);
		proto.ncols = trigger->tgnargs - 2;
		proto.name = trigger->tgname;
		side = table_open(proto.side, AccessShareLock);
		desc = RelationGetDescr(side);
		if (desc->natts != proto.ncols + 1)
			mismatch(trigger->tgname, proto.side,
					 "its columns are not the key and the child");
		for (int i = 0; i < proto.ncols; i++)
		{
			const char *column = trigger->tgargs[i + 2];
			AttrNumber	attnum = get_attnum(key.leaf, column);
			Form_pg_attribute sideatt = TupleDescAttr(desc, i);

			if (attnum <= 0 ||
				TupleDescAttr(leafdesc, attnum - 1)->attisdropped)
				ereport(ERROR,
						(errcode(ERRCODE_UNDEFINED_COLUMN),
						 errmsg("column \"%s\" of global unique constraint \"%s\" does not exist in %s",
								column, trigger->tgname,
								rel_display(key.leaf))));
			if (sideatt->attisdropped ||
				strcmp(NameStr(sideatt->attname), column) != 0 ||
				sideatt->atttypid != TupleDescAttr(leafdesc,
												   attnum - 1)->atttypid)
				mismatch(trigger->tgname, proto.side,
						 psprintf("column \"%s\" differs from the table's",
								  column));
			proto.attnums[i] = attnum;
			proto.types[i] = sideatt->atttypid;
			proto.typlen[i] = sideatt->attlen;
			proto.typbyval[i] = sideatt->attbyval;
		}
		if (TupleDescAttr(desc, proto.ncols)->atttypid != REGCLASSOID ||
			strcmp(NameStr(TupleDescAttr(desc, proto.ncols)->attname),
				   "child") != 0)
			mismatch(trigger->tgname, proto.side,
					 "its last column is not child regclass");
		proto.types[proto.ncols] = REGCLASSOID;
		proto.index = find_unique_index(side, &proto);
		proto.direct = plain_side(side, &proto);
		if (proto.direct)
		{
			Relation	index = index_open(proto.index, AccessShareLock);

			proto.insert_first = _bt_allequalimage(index, false);
			index_close(index, AccessShareLock);
		}
		table_close(side, AccessShareLock);

		entry = hash_search(row_cache, &key, HASH_ENTER, &found);
		memcpy(entry, &proto, sizeof(RowCache));
	}
	old = MemoryContextSwitchTo(row_cache_context);
	entry->name = pstrdup(trigger->tgname);
	entry->columns = palloc(sizeof(char *) * entry->ncols);
	for (int i = 0; i < entry->ncols; i++)
		entry->columns[i] = pstrdup(trigger->tgargs[i + 2]);
	MemoryContextSwitchTo(old);
	return entry;
}

/*
 * may_see_key
 *		Whether the role may see the key values of a row of rel in an error,
 *		by PostgreSQL's own rule for a unique violation: no row security on
 *		it, and SELECT on the table or on every key column.
 */
static bool
may_see_key(Oid relid, Oid role, const RowCache *entry)
{
	if (check_enable_rls(relid, role, true) == RLS_ENABLED)
		return false;
	if (pg_class_aclcheck(relid, role, ACL_SELECT) == ACLCHECK_OK)
		return true;
	for (int i = 0; i < entry->ncols; i++)
	{
		if (pg_attribute_aclcheck(relid, entry->attnums[i], role,
								  ACL_SELECT) != ACLCHECK_OK)
			return false;
	}
	return true;
}

static char *
key_text(const RowCache *entry, const Datum *values)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '(');
	for (int i = 0; i < entry->ncols; i++)
		appendStringInfo(&buf, "%s%s", i > 0 ? ", " : "",
						 quote_identifier(entry->columns[i]));
	appendStringInfoString(&buf, ")=(");
	for (int i = 0; i < entry->ncols; i++)
	{
		Oid			out;
		bool		varlena;

		getTypeOutputInfo(entry->types[i], &out, &varlena);
		appendStringInfo(&buf, "%s%s", i > 0 ? ", " : "",
						 OidOutputFunctionCall(out, values[i]));
	}
	appendStringInfoChar(&buf, ')');
	return buf.data;
}

static void
report_duplicate(const RowCache *entry, Oid leafid, const Datum *values,
				 Oid holder,
				 Oid caller)
{
	bool		show = may_see_key(leafid, caller, entry);
	Relation	leaf = relation_open(leafid, NoLock);

	ereport(ERROR,
			(errcode(ERRCODE_UNIQUE_VIOLATION),
			 errmsg("duplicate key value violates global unique constraint \"%s\"", entry->name),
			 show ? errdetail("Key %s already exists in partition %s.",
							  key_text(entry, values), rel_display(holder)) :
			 errdetail("The key already exists in partition %s.",
					   rel_display(holder)),
			 errtableconstraint(leaf, entry->name)));
}

static uint32
key_hash(const RowCache *entry, const Datum *values)
{
	uint32		h = 0;

	for (int i = 0; i < entry->ncols; i++)
		h = hash_combine(h,
						 datum_image_hash(values[i], entry->typbyval[i],
										  entry->typlen[i]));
	return h;
}

/*
 * direct_index_insert
 *		Insert the entry (key, child) whose heap tuple is at tid into each of
 *		the side table's indexes, the unique one checking as it does for any
 *		insert -- or, with partial, only saying whether another entry of the
 *		key may exist (false), as for a deferred unique constraint.
 *		unique_index is the unique index, open already; others, when not
 *		NULL, the other indexes, open already too (in entry->indexes'
 *		order, as enter_keys opens them).  True: the unique index holds no
 *		other entry of the key.
 */
static bool
direct_index_insert(RowCache *entry, Relation side, Relation unique_index,
					Relation *others, const Datum *values, Oid child,
					bool partial, ItemPointer tid)
{
	Datum		row[INDEX_MAX_KEYS + 1];
	bool		unique = true;

	memcpy(row, values, sizeof(Datum) * entry->ncols);
	row[entry->ncols] = ObjectIdGetDatum(child);
	for (int i = 0; i < entry->nindexes; i++)
	{
		bool		opened = (entry->indexes[i] != entry->index &&
							  others == NULL);
		Relation	index = (entry->indexes[i] == entry->index ? unique_index :
							 others != NULL ? others[i] :
							 index_open(entry->indexes[i], RowExclusiveLock));
		IndexInfo  *info;
		Datum		keys[INDEX_MAX_KEYS];
		bool		keynulls[INDEX_MAX_KEYS] = {0};

		if (!index->rd_index->indisready)
		{
			if (opened)
				index_close(index, NoLock);
			continue;
		}
		if (entry->infos[i] == NULL)
		{
			MemoryContext old = MemoryContextSwitchTo(row_cache_context);

			entry->infos[i] = BuildIndexInfo(index);
			MemoryContextSwitchTo(old);
		}
		info = entry->infos[i];
		for (int k = 0; k < info->ii_NumIndexAttrs; k++)
			keys[k] = row[info->ii_IndexAttrNumbers[k] - 1];
		if (!index_insert(index, keys, keynulls, tid, side,
						  !index->rd_index->indisunique ? UNIQUE_CHECK_NO :
						  partial && entry->indexes[i] == entry->index ?
						  UNIQUE_CHECK_PARTIAL : UNIQUE_CHECK_YES,
						  false, info) &&
			entry->indexes[i] == entry->index)
			unique = false;
		if (opened)
			index_close(index, NoLock);
	}
	return !partial || unique;
}

/* The side table's tuple of the entry (key, child); *self: its TID. */
static void
heap_entry(RowCache *entry, Relation side, const Datum *values, Oid child,
		   ItemPointer self)
{
	Datum		row[INDEX_MAX_KEYS + 1];
	bool		nulls[INDEX_MAX_KEYS + 1] = {0};
	HeapTuple	tuple;

	memcpy(row, values, sizeof(Datum) * entry->ncols);
	row[entry->ncols] = ObjectIdGetDatum(child);
	tuple = heap_form_tuple(RelationGetDescr(side), row, nulls);
	simple_heap_insert(side, tuple);
	ItemPointerCopy(&tuple->t_self, self);
}

/*
 * direct_recheck
 *		After a possible conflict was looked into (probe_key), check the
 *		entry at self against the unique index as an insert would, waiting
 *		for and failing on another entry of the key: the index, not the
 *		probe, guarantees uniqueness.
 */
static void
direct_recheck(RowCache *entry, Relation side, Relation index,
			   const Datum *values, Oid child, ItemPointer self)
{
	IndexInfo  *info = BuildIndexInfo(index);
	Datum		row[INDEX_MAX_KEYS + 1];
	Datum		keys[INDEX_MAX_KEYS];
	bool		keynulls[INDEX_MAX_KEYS] = {0};

	memcpy(row, values, sizeof(Datum) * entry->ncols);
	row[entry->ncols] = ObjectIdGetDatum(child);
	for (int k = 0; k < info->ii_NumIndexAttrs; k++)
		keys[k] = row[info->ii_IndexAttrNumbers[k] - 1];
	(void) index_insert(index, keys, keynulls, self, side,
						UNIQUE_CHECK_EXISTING, false, info);
}

/*
 * direct_delete
 *		Delete one entry by its TID; one another transaction deleted first
 *		(waited for) is gone already.
 */
static void
direct_delete(Relation side, ItemPointer tid)
{
	TM_FailureData tmfd;
	TM_Result	result;

	result = heap_delete(side, tid, GetCurrentCommandId(true), InvalidSnapshot,
						 true,
						 &tmfd, false);
	if (result != TM_Ok && result != TM_Deleted && result != TM_SelfModified)
		ereport(ERROR,
				(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				 errmsg("could not remove an entry of side table \"%s\": it changed meanwhile",
						RelationGetRelationName(side))));
}

/*
 * probe_key
 *		Look for the entries of the key in the side table's unique index
 *		with a dirty snapshot, as PostgreSQL checks a unique index, leaving
 *		out the one at self (ours, just inserted; NULL: none): wait for one
 *		another transaction is writing or removing, then look again; a live
 *		entry of a child still in the set is a duplicate (23505); the
 *		entries of children that left the set are removed.
 */
static void
probe_key(RowCache *entry, Oid leaf, Relation side, Relation index,
		  const Datum *values, Oid caller, ItemPointer self)
{
	ScanKeyData skeys[INDEX_MAX_KEYS];
	List	   *stale;
	ListCell   *lc;

	for (int i = 0; i < entry->ncols; i++)
		ScanKeyEntryInitialize(&skeys[i], 0, i + 1, BTEqualStrategyNumber,
							   InvalidOid,
							   entry->collation[i], entry->eqproc[i],
							   values[i]);

	for (;;)
	{
		SnapshotData dirty;
		IndexScanDesc scan;
		TupleTableSlot *slot = table_slot_create(side, NULL);
		TransactionId xwait = InvalidTransactionId;
		ItemPointerData waited;

		stale = NIL;
		InitDirtySnapshot(dirty);
		scan = index_beginscan(side, index, &dirty, entry->ncols, 0);
		index_rescan(scan, skeys, entry->ncols, NULL, 0);
		while (index_getnext_slot(scan, ForwardScanDirection, slot))
		{
			bool		isnull;
			Oid			holder;

			if (self != NULL && ItemPointerEquals(&slot->tts_tid, self))
				continue;
			xwait = TransactionIdIsValid(dirty.xmin) ? dirty.xmin : dirty.xmax;
			if (TransactionIdIsValid(xwait))
			{
				waited = slot->tts_tid;
				break;
			}
			holder = DatumGetObjectId(slot_getattr(slot, entry->ncols + 1,
												   &isnull));
			if (!isnull && partmgr_unique_in_set(holder, entry->root))
				report_duplicate(entry, leaf, values, holder, caller);
			{
				ItemPointer tid = palloc(sizeof(ItemPointerData));

				ItemPointerCopy(&slot->tts_tid, tid);
				stale = lappend(stale, tid);
			}
		}
		index_endscan(scan);
		ExecDropSingleTupleTableSlot(slot);
		if (!TransactionIdIsValid(xwait))
			break;
		/* an entry being written or removed: wait for it, then look again */
		XactLockTableWait(xwait, side, &waited, XLTW_InsertIndex);
	}

	foreach(lc, stale)
	{
		Datum		tid = PointerGetDatum(lfirst(lc));

		if (entry->direct)
			direct_delete(side, (ItemPointer) lfirst(lc));
		else
			partmgr_spi_table_exec_plan(entry->delete_tid_plan,
										"removal of a global unique entry of a child no longer in the set",
										&tid, NULL, SPI_OK_DELETE);
	}
}

/* The lock a key is entered under (see the file header). */
static void
lock_key(LOCKTAG *tag, const RowCache *entry, const Datum *values)
{
	SET_LOCKTAG_ADVISORY(*tag, MyDatabaseId, entry->side,
						 key_hash(entry, values),
						 KEY_LOCK_FIELD4);
	(void) LockAcquire(tag, ExclusiveLock, false, false);
}

/*
 * index_entry
 *		With the key's lock held, index the entry at tid, in the side table
 *		already, of an insert_first key (others: as for direct_index_insert):
 *		only when the unique index says another entry of the key may exist
 *		is it probed for, and the entry checked again.
 */
static void
index_entry(RowCache *entry, Relation side, Relation index, Relation *others,
			const Datum *values, Oid child, Oid caller, ItemPointer tid)
{
	if (!direct_index_insert(entry, side, index, others, values, child, true,
							 tid))
	{
		probe_key(entry, child, side, index, values, caller, tid);
		direct_recheck(entry, side, index, values, child, tid);
	}
}

/*
 * enter_key
 *		Enter the key values of a row of child (see the file header).  When
 *		equal keys are equal images (insert_first: every key of a type whose
 *		btree equality is binary equality, so that equal keys take the same
 *		lock), the entry is inserted first and the unique index says whether
 *		another entry of the key may exist: only then is it probed for and
 *		the entry checked again, so a new key costs one descent of the
 *		index, as in a plain unique index.  Otherwise the index is probed
 *		first.
 */
static void
enter_key(RowCache *entry, Oid child, Datum *values, Oid caller)
{
	LOCKTAG		tag;
	Relation	side;
	Relation	index;
	Datum		args[INDEX_MAX_KEYS + 1];
	ItemPointerData self;

	lock_key(&tag, entry, values);
	side = table_open(entry->side, RowExclusiveLock);
	index = index_open(entry->index, RowExclusiveLock);

	if (entry->insert_first)
	{
		heap_entry(entry, side, values, child, &self);
		index_entry(entry, side, index, NULL, values, child, caller, &self);
	}
	else
	{
		probe_key(entry, child, side, index, values, caller, NULL);
		if (entry->direct)
		{
			heap_entry(entry, side, values, child, &self);
			(void) direct_index_insert(entry, side, index, NULL, values,
									   child, false, &self);
		}
		else
		{
			memcpy(args, values, sizeof(Datum) * entry->ncols);
			args[entry->ncols] = ObjectIdGetDatum(child);
			partmgr_spi_table_exec_plan(entry->insert_plan,
										"insert of a global unique entry",
										args, NULL, SPI_OK_INSERT);
		}
	}
	index_close(index, NoLock);
	table_close(side, NoLock);
	LockRelease(&tag, ExclusiveLock, false);
}

/* ----------------------------------------------------------------
 * Batches: the new keys of a statement, entered together
 * ----------------------------------------------------------------
 *
 * While a statement's AFTER row triggers fire (api/global_unique.c opens a
 * batch around ExecutorFinish and around COPY FROM), the row trigger keeps
 * the keys of inserted rows (of insert_first constraints) in the innermost
 * batch instead of entering each at once; an UPDATE's new key is entered at
 * once, after its old one left.  The batch is entered when it holds
 * PARTMGR_UNIQUE_BATCH keys or PARTMGR_UNIQUE_BATCH_BYTES of them, when a
 * key is to be removed (see forget_key), and when the statement's triggers
 * have fired: its keys sorted in the order of the unique index, their
 * tuples written by multi-inserts, and each key then indexed under its lock
 * exactly as enter_key does.  A duplicate so raises the same 23505 from the
 * same statement, only after every row of it was written.
 *
 * A batch belongs to the subtransaction it was opened in; a trigger that
 * fires in another (user code in an exception block: it opens batches of
 * its own) enters its keys at once.  Aborting a subtransaction drops its
 * batches, with the rows whose keys they held.  Keys are kept only where a
 * batch is open: the apply worker of logical replication, which fires row
 * triggers outside any executor run, enters each key at once.
 */

/* Drop the batches from depth up, unentered. */
static void
drop_batches(int depth)
{
	while (nbatches > depth)
	{
		Batch	   *batch = &batches[--nbatches];

		for (int i = 0; i < batch->nkeys; i++)
			if (batch->keys[i]->gone != InvalidSubTransactionId)
				batched_gone--;
		batched -= batch->nkeys;
		if (batch->context != NULL)
		{
			/* an error while a key was copied leaves its context current */
			if (CurrentMemoryContext == batch->context)
				MemoryContextSwitchTo(TopTransactionContext);
			MemoryContextDelete(batch->context);
		}
		batch->context = NULL;
		batch->nkeys = 0;
		batch->bytes = 0;
	}
}

static void
batch_xact_callback(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
		case XACT_EVENT_PRE_PREPARE:
			if (batched > batched_gone)
				ereport(ERROR,
						(errcode(ERRCODE_INTERNAL_ERROR),
						 errmsg("global unique keys of the transaction were not entered")));
			break;
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PREPARE:
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_PARALLEL_ABORT:
			/* their memory goes with TopTransactionContext */
			nbatches = 0;
			batched = 0;
			batched_gone = 0;
			break;
		default:
			break;
	}
}

/*
 * batch_subxact_callback
 *		Aborting a subtransaction drops the batches opened in it (and in the
 *		ones below it), and the rows it removed come back: their keys count
 *		again.  Committing it hands those rows to its parent.
 */
static void
batch_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
					   SubTransactionId parentSubid, void *arg)
{
	int			depth = nbatches;

	if (event != SUBXACT_EVENT_ABORT_SUB && event != SUBXACT_EVENT_COMMIT_SUB)
		return;
	if (event == SUBXACT_EVENT_ABORT_SUB)
	{
		while (depth > 0 && batches[depth - 1].subxact >= mySubid)
			depth--;
		drop_batches(depth);
	}
	else
	{
		for (int b = 0; b < nbatches; b++)
			if (batches[b].subxact == mySubid)
				batches[b].subxact = parentSubid;
	}
	for (int b = 0; b < nbatches && batched_gone > 0; b++)
	{
		Batch	   *batch = &batches[b];

		for (int i = 0; i < batch->nkeys; i++)
		{
			BatchKey   *key = batch->keys[i];

			if (key->gone != mySubid)
				continue;
			if (event == SUBXACT_EVENT_COMMIT_SUB)
				key->gone = parentSubid;
			else
			{
				key->gone = InvalidSubTransactionId;
				batched_gone--;
			}
		}
	}
}

/*
 * partmgr_unique_batch_open
 *		Open a batch for the row triggers about to fire; the depth returned
 *		is what partmgr_unique_batch_close takes.
 */
int
partmgr_unique_batch_open(void)
{
	if (nbatches == maxbatches)
	{
		int			more = Max(maxbatches * 2, 8);

		batches = (batches == NULL ?
				   MemoryContextAlloc(TopMemoryContext,
									  sizeof(Batch) * more) :
				   repalloc(batches, sizeof(Batch) * more));
		maxbatches = more;
	}
	batches[nbatches].subxact = GetCurrentSubTransactionId();
	batches[nbatches].context = NULL;
	batches[nbatches].nkeys = 0;
	batches[nbatches].bytes = 0;
	batches[nbatches].keys = NULL;
	return nbatches++;
}

/*
 * partmgr_unique_batch_close
 *		Close the batch opened at depth (and any left above it): with enter,
 *		its keys are entered first; without (an error), they are dropped
 *		with the rows of the failed statement.
 */
void
partmgr_unique_batch_close(int depth, bool enter)
{
	if (depth >= nbatches)
		return;
	if (enter)
	{
		drop_batches(depth + 1);
		enter_batch(&batches[depth]);
	}
	drop_batches(depth);
}

/* The innermost batch, when this trigger's keys may wait in it. */
static Batch *
open_batch(void)
{
	if (nbatches == 0 ||
		batches[nbatches - 1].subxact != GetCurrentSubTransactionId())
		return NULL;
	return &batches[nbatches - 1];
}

/* Keep a new key in the batch; enter the batch when it is full. */
static void
batch_key(Batch *batch, RowCache *entry, const Datum *values, Oid caller)
{
	MemoryContext old;
	BatchKey   *key;

	if (!batch_callbacks)
	{
		RegisterXactCallback(batch_xact_callback, NULL);
		RegisterSubXactCallback(batch_subxact_callback, NULL);
		batch_callbacks = true;
	}
	if (batch->context == NULL)
	{
		batch->context = AllocSetContextCreate(TopTransactionContext,
											   "pg_partmgr global unique keys",
											   ALLOCSET_DEFAULT_SIZES);
		batch->keys = MemoryContextAlloc(batch->context,
										 sizeof(BatchKey *) *
										 PARTMGR_UNIQUE_BATCH);
	}
	old = MemoryContextSwitchTo(batch->context);
	key = palloc(offsetof(BatchKey, values) + sizeof(Datum) * entry->ncols);
	key->cache = entry;
	key->caller = caller;
	key->gone = InvalidSubTransactionId;
	batch->bytes += offsetof(BatchKey, values) + sizeof(Datum) * entry->ncols;
	for (int i = 0; i < entry->ncols; i++)
	{
		key->values[i] = datumCopy(values[i], entry->typbyval[i],
								   entry->typlen[i]);
		if (!entry->typbyval[i])
			batch->bytes += datumGetSize(values[i], false, entry->typlen[i]);
	}
	MemoryContextSwitchTo(old);
	batch->keys[batch->nkeys++] = key;
	batched++;
	if (batch->nkeys == PARTMGR_UNIQUE_BATCH ||
		batch->bytes >= PARTMGR_UNIQUE_BATCH_BYTES)
		enter_batch(batch);
}

/*
 * forget_key
 *		Before a key of a row of child is removed: enter the batches of this
 *		subtransaction, so that the row's entry is in the side table (and
 *		visible to the removal, which may come in the command that wrote
 *		it: user code deleting a row its statement inserted); a key
 *		still kept in a batch of an outer subtransaction (the row came in a
 *		statement whose triggers are firing, and user code removes it in an
 *		exception block) is marked gone instead, and counts again if this
 *		subtransaction aborts.  True: the key was marked.
 */
static bool
forget_key(RowCache *entry, Oid child, const Datum *values)
{
	SubTransactionId here = GetCurrentSubTransactionId();
	bool		entered = false;

	for (int b = 0; b < nbatches; b++)
	{
		if (batches[b].subxact == here && batches[b].nkeys > 0)
		{
			enter_batch(&batches[b]);
			entered = true;
		}
	}
	/* the entry may be one just written: the removal must see it */
	if (entered)
		CommandCounterIncrement();
	for (int b = nbatches - 1; b >= 0 && batched > batched_gone; b--)
	{
		Batch	   *batch = &batches[b];

		for (int i = batch->nkeys - 1; i >= 0; i--)
		{
			BatchKey   *key = batch->keys[i];
			bool		same = (key->gone == InvalidSubTransactionId &&
								key->cache->side == entry->side &&
								key->cache->key.leaf == child);

			for (int c = 0; same && c < entry->ncols; c++)
				same = datum_image_eq(key->values[c], values[c],
									  entry->typbyval[c], entry->typlen[c]);
			if (same)
			{
				key->gone = here;
				batched_gone++;
				return true;
			}
		}
	}
	return false;
}

/* How the keys of one constraint sort: in its unique index's order. */
typedef struct KeyOrder
{
	int			ncols;
	SortSupportData ssup[INDEX_MAX_KEYS];
} KeyOrder;

static int
compare_keys(const void *a, const void *b, void *arg)
{
	const BatchKey *ka = *(BatchKey *const *) a;
	const BatchKey *kb = *(BatchKey *const *) b;
	KeyOrder   *order = arg;

	for (int i = 0; i < order->ncols; i++)
	{
		int			c = ApplySortComparator(ka->values[i], false,
											kb->values[i], false,
											&order->ssup[i]);

		if (c != 0)
			return c;
	}
	return 0;
}

/*
 * sort_keys
 *		Put keys in the unique index's order.  The keys of a statement often
 *		come in ascending runs (COPY writes the rows of each child in turn,
 *		a hundred or so at a time): runs at least four keys long on average
 *		are merged, in n * log2(runs) comparisons; others are sorted.
 */
static void
sort_keys(BatchKey **keys, int n, KeyOrder *order)
{
	int		   *starts;
	int			nruns = 1;
	BatchKey  **from = keys;
	BatchKey  **to;

	for (int k = 1; k < n && nruns <= n / 4; k++)
		if (compare_keys(&keys[k - 1], &keys[k], order) > 0)
			nruns++;
	if (nruns == 1)
		return;
	if (nruns > n / 4)
	{
		qsort_arg(keys, n, sizeof(BatchKey *), compare_keys, order);
		return;
	}
	starts = palloc(sizeof(int) * (nruns + 1));
	nruns = 0;
	starts[nruns++] = 0;
	for (int k = 1; k < n; k++)
		if (compare_keys(&keys[k - 1], &keys[k], order) > 0)
			starts[nruns++] = k;
	starts[nruns] = n;
	to = palloc(sizeof(BatchKey *) * n);
	while (nruns > 1)
	{
		int			merged = 0;

		for (int r = 0; r < nruns; r += 2)
		{
			int			a = starts[r];
			int			amax = starts[r + 1];
			int			b = amax;
			int			bmax = r + 1 < nruns ? starts[r + 2] : amax;
			int			out = a;

			while (a < amax && b < bmax)
				to[out++] = (compare_keys(&from[b], &from[a], order) < 0 ?
							 from[b++] : from[a++]);
			while (a < amax)
				to[out++] = from[a++];
			while (b < bmax)
				to[out++] = from[b++];
			starts[merged++] = starts[r];
		}
		starts[merged] = n;
		nruns = merged;
		{
			BatchKey  **swap = from;

			from = to;
			to = swap;
		}
	}
	if (from != keys)
		memcpy(keys, from, sizeof(BatchKey *) * n);
	pfree(from == keys ? to : from);
	pfree(starts);
}

/*
 * check_batch_side
 *		The side table must still run nobody's code, with the indexes the
 *		keys' triggers know: what was decided for each row still holds.
 */
static void
check_batch_side(Relation side, BatchKey **keys, int n)
{
	RowCache   *entry = keys[0]->cache;
	List	   *indexes = RelationGetIndexList(side);
	bool		same = (!side_runs_code(side) &&
						list_length(indexes) == entry->nindexes);

	for (int i = 0; same && i < entry->nindexes; i++)
		same = list_nth_oid(indexes, i) == entry->indexes[i];
	for (int k = 1; same && k < n; k++)
		same = (keys[k]->cache == keys[k - 1]->cache ||
				(keys[k]->cache->nindexes == entry->nindexes &&
				 memcmp(keys[k]->cache->indexes, entry->indexes,
						sizeof(Oid) * entry->nindexes) == 0));
	if (!same)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("side table %s of global unique constraint \"%s\" changed while the statement ran",
						rel_display(RelationGetRelid(side)), entry->name),
				 errhint("Run the statement again.")));
}

/*
 * enter_keys
 *		Enter n keys of one constraint: sorted in the unique index's order
 *		(unless they are already), their tuples written by multi-inserts,
 *		then each indexed under its lock (index_entry).
 */
static void
enter_keys(BatchKey **keys, int n)
{
	RowCache   *entry = keys[0]->cache;
	Relation	side;
	Relation	index;
	Relation   *others;
	KeyOrder	order;
	TupleDesc	desc;
	ItemPointerData *tids;
	TupleTableSlot **slots;
	int			nslots = Min(n, 1000);
	CommandId	cid = GetCurrentCommandId(true);

	if (n == 1)
	{
		enter_key(entry, entry->key.leaf, keys[0]->values, keys[0]->caller);
		return;
	}
	side = table_open(entry->side, RowExclusiveLock);
	check_batch_side(side, keys, n);
	index = index_open(entry->index, RowExclusiveLock);
	others = palloc0(sizeof(Relation) * entry->nindexes);
	for (int i = 0; i < entry->nindexes; i++)
		if (entry->indexes[i] != entry->index)
			others[i] = index_open(entry->indexes[i], RowExclusiveLock);

	order.ncols = entry->ncols;
	memset(order.ssup, 0, sizeof(order.ssup));
	for (int i = 0; i < entry->ncols; i++)
	{
		order.ssup[i].ssup_cxt = CurrentMemoryContext;
		order.ssup[i].ssup_collation = index->rd_indcollation[i];
		order.ssup[i].ssup_nulls_first = false;
		order.ssup[i].ssup_attno = i + 1;
		PrepareSortSupportFromIndexRel(index, BTLessStrategyNumber,
									   &order.ssup[i]);
	}
	sort_keys(keys, n, &order);

	/* a copy of the descriptor, which the slots need not pin */
	desc = CreateTupleDescCopy(RelationGetDescr(side));
	tids = palloc(sizeof(ItemPointerData) * n);
	slots = palloc(sizeof(TupleTableSlot *) * nslots);
	for (int i = 0; i < nslots; i++)
		slots[i] = MakeSingleTupleTableSlot(desc, table_slot_callbacks(side));
	for (int done = 0; done < n;)
	{
		int			chunk = Min(n - done, nslots);

		for (int i = 0; i < chunk; i++)
		{
			TupleTableSlot *slot = slots[i];
			BatchKey   *key = keys[done + i];

			ExecClearTuple(slot);
			memcpy(slot->tts_values, key->values,
				   sizeof(Datum) * entry->ncols);
			slot->tts_values[entry->ncols] =
				ObjectIdGetDatum(key->cache->key.leaf);
			memset(slot->tts_isnull, 0, sizeof(bool) * (entry->ncols + 1));
			ExecStoreVirtualTuple(slot);
		}
		table_multi_insert(side, slots, chunk, cid, 0, NULL);
		for (int i = 0; i < chunk; i++)
			tids[done + i] = slots[i]->tts_tid;
		done += chunk;
	}
	for (int i = 0; i < nslots; i++)
		ExecDropSingleTupleTableSlot(slots[i]);
	FreeTupleDesc(desc);

	for (int k = 0; k < n; k++)
	{
		BatchKey   *key = keys[k];
		LOCKTAG		tag;

		CHECK_FOR_INTERRUPTS();
		lock_key(&tag, key->cache, key->values);
		index_entry(key->cache, side, index, others, key->values,
					key->cache->key.leaf, key->caller, &tids[k]);
		LockRelease(&tag, ExclusiveLock, false);
	}
	pfree(tids);
	pfree(slots);
	for (int i = 0; i < entry->nindexes; i++)
		if (others[i] != NULL)
			index_close(others[i], NoLock);
	index_close(index, NoLock);
	table_close(side, NoLock);
}

/*
 * enter_batch
 *		Enter the keys a batch keeps (those whose rows are still there), one
 *		constraint after the other, and empty it.
 */
static void
enter_batch(Batch *batch)
{
	int			n = 0;
	int			start = 0;
	BatchKey  **keys;
	MemoryContext work;
	MemoryContext old;

	if (batch->nkeys == 0)
		return;
	/* what entering allocates goes at the end (or with the caller's) */
	work = AllocSetContextCreate(CurrentMemoryContext,
								 "pg_partmgr global unique entries",
								 ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(work);
	keys = palloc(sizeof(BatchKey *) * batch->nkeys);
	for (int i = 0; i < batch->nkeys; i++)
	{
		if (batch->keys[i]->gone == InvalidSubTransactionId)
			keys[n++] = batch->keys[i];
		else
			batched_gone--;
	}
	/* taken out first: an error here aborts this subtransaction anyway */
	batched -= batch->nkeys;
	batch->nkeys = 0;
	batch->bytes = 0;
	while (start < n)
	{
		Oid			side = keys[start]->cache->side;
		int			end = start + 1;

		for (int i = end; i < n; i++)
		{
			if (keys[i]->cache->side == side)
			{
				BatchKey   *swap = keys[end];

				keys[end++] = keys[i];
				keys[i] = swap;
			}
		}
		enter_keys(keys + start, end - start);
		start = end;
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(work);
	MemoryContextReset(batch->context);
	batch->keys = MemoryContextAlloc(batch->context,
									 sizeof(BatchKey *) * PARTMGR_UNIQUE_BATCH);
}

static void
remove_key(RowCache *entry, Relation leaf, Datum *values)
{
	Datum		args[INDEX_MAX_KEYS + 1];

	if (batched > batched_gone &&
		forget_key(entry, RelationGetRelid(leaf), values))
		return;

	if (entry->direct)
	{
		Relation	side = table_open(entry->side, RowExclusiveLock);
		Relation	index = index_open(entry->index, RowExclusiveLock);
		ScanKeyData skeys[INDEX_MAX_KEYS];
		IndexScanDesc scan;
		TupleTableSlot *slot = table_slot_create(side, NULL);

		for (int i = 0; i < entry->ncols; i++)
			ScanKeyEntryInitialize(&skeys[i], 0, i + 1, BTEqualStrategyNumber,
								   InvalidOid,
								   entry->collation[i], entry->eqproc[i],
								   values[i]);
		scan = index_beginscan(side, index, SnapshotSelf, entry->ncols, 0);
		index_rescan(scan, skeys, entry->ncols, NULL, 0);
		while (index_getnext_slot(scan, ForwardScanDirection, slot))
		{
			bool		isnull;

			if (DatumGetObjectId(slot_getattr(slot, entry->ncols + 1,
											  &isnull)) ==
				RelationGetRelid(leaf) && !isnull)
			{
				direct_delete(side, &slot->tts_tid);
				break;
			}
		}
		index_endscan(scan);
		ExecDropSingleTupleTableSlot(slot);
		index_close(index, NoLock);
		table_close(side, NoLock);
		return;
	}
	memcpy(args, values, sizeof(Datum) * entry->ncols);
	args[entry->ncols] = ObjectIdGetDatum(RelationGetRelid(leaf));
	partmgr_spi_table_exec_plan(entry->delete_plan,
								"removal of a global unique entry",
								args, NULL, SPI_OK_DELETE);
}

/* The key of a row; false when a column is NULL (no entry). */
static bool
slot_key(const RowCache *entry, TupleTableSlot *slot, Datum *values)
{
	return partmgr_slot_key(slot, entry->ncols, entry->attnums, entry->typlen,
							values);
}

static bool
same_key(const RowCache *entry, const Datum *a, const Datum *b)
{
	for (int i = 0; i < entry->ncols; i++)
	{
		if (!DatumGetBool(OidFunctionCall2Coll(entry->eqproc[i],
											   entry->collation[i],
											   a[i], b[i])))
			return false;
	}
	return true;
}


/*
 * partmgr_unique_row
 *		The row trigger (AFTER INSERT, UPDATE or DELETE, for each row, on a
 *		leaf): the row's old key leaves the side table, its new one enters,
 *		with the rights of the set's owner.
 */
void
partmgr_unique_row(TriggerData *trigdata)
{
	Relation	leaf = trigdata->tg_relation;
	TriggerEvent event = trigdata->tg_event;
	Oid			caller = GetUserId();

	row_depth++;
	PG_TRY();
	{
		RowCache   *entry = row_cache_entry(leaf, trigdata->tg_trigger);
		PartmgrRights rights;
		Datum		old_key[INDEX_MAX_KEYS];
		Datum		new_key[INDEX_MAX_KEYS];
		bool		has_old = false;
		bool		has_new = false;
		Batch	   *batch;

		if (TRIGGER_FIRED_BY_DELETE(event) || TRIGGER_FIRED_BY_UPDATE(event))
			has_old = slot_key(entry, trigdata->tg_trigslot, old_key);
		if (TRIGGER_FIRED_BY_INSERT(event))
			has_new = slot_key(entry, trigdata->tg_trigslot, new_key);
		else if (TRIGGER_FIRED_BY_UPDATE(event))
			has_new = slot_key(entry, trigdata->tg_newslot, new_key);
		if (has_old && has_new && same_key(entry, old_key, new_key))
			has_old = has_new = false;

		if ((has_old || has_new) && entry->direct)
		{
			/* nobody's code runs: no change of user, no SPI */
			if (has_old)
				remove_key(entry, leaf, old_key);
			if (has_new && !has_old && entry->insert_first &&
				TRIGGER_FIRED_BY_INSERT(event) &&
				(batch = open_batch()) != NULL)
				batch_key(batch, entry, new_key, caller);
			else if (has_new)
				enter_key(entry, RelationGetRelid(leaf), new_key, caller);
		}
		else if (has_old || has_new)
		{
			partmgr_rights_enter_trigger(entry->owner, entry->name, &rights);
			SPI_connect();
			if (entry->insert_plan == NULL)
				prepare_plans(entry, trigdata->tg_trigger->tgargs[0],
							  trigdata->tg_trigger->tgargs[1]);
			if (has_old)
				remove_key(entry, leaf, old_key);
			if (has_new)
				enter_key(entry, RelationGetRelid(leaf), new_key, caller);
			SPI_finish();
			partmgr_rights_leave(&rights);
		}
	}
	PG_FINALLY();
	{
		row_depth--;
	}
	PG_END_TRY();
}

/*
 * partmgr_unique_forget_child
 *		Remove every entry of child, with the rights of the scope the caller
 *		is in (the owner's).
 */
void
partmgr_unique_forget_child(const PartmgrUnique *u, Oid child)
{
	partmgr_spi_table_exec(partmgr_dml_unique_forget(u->side_schema,
													 u->side_name,
													 list_make1_oid(child)),
						   0, NULL, NULL, NULL, false, SPI_OK_DELETE);
}

/*
 * partmgr_unique_truncate
 *		The TRUNCATE trigger of a leaf: the leaf's entries go, with the
 *		rights of the set's owner.
 */
void
partmgr_unique_truncate(TriggerData *trigdata)
{
	Trigger    *trigger = trigdata->tg_trigger;
	Oid			leaf = RelationGetRelid(trigdata->tg_relation);
	Oid			root;
	Oid			owner;
	Relation	rel;
	PartmgrUnique *u;
	PartmgrRights rights;

	if (trigger->tgnargs < 3)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("trigger \"%s\" on %s does not name a side table and key columns",
						trigger->tgname, rel_display(leaf))));

	/*
	 * A table that left the set keeps the trigger (DETACH removes only cloned
	 * triggers): its entries count no longer, so there is nothing to do, and
	 * nothing when the constraint is gone either.
	 */
	root = partmgr_unique_top(leaf);
	if (root == leaf)
		return;
	rel = table_open(root, AccessShareLock);
	u = partmgr_unique_find(rel, trigger->tgargs[1]);
	table_close(rel, NoLock);
	if (u == NULL)
		return;
	owner = rel_owner(root);
	partmgr_unique_check_side(u, owner);
	partmgr_rights_enter_trigger(owner, u->name, &rights);
	SPI_connect();
	partmgr_unique_forget_child(u, leaf);
	SPI_finish();
	partmgr_rights_leave(&rights);
}

/* ----------------------------------------------------------------
 * Whole tables: making a constraint, attaching a table
 * ----------------------------------------------------------------
 */

static Datum
oid_array(List *oids)
{
	Datum	   *elems = palloc(sizeof(Datum) * Max(list_length(oids), 1));
	int			n = 0;
	ListCell   *lc;

	foreach(lc, oids)
		elems[n++] = ObjectIdGetDatum(lfirst_oid(lc));
	return PointerGetDatum(construct_array(elems, n, REGCLASSOID, sizeof(Oid),
										   true,
										   TYPALIGN_INT));
}

/* The leaves of a table's partition tree (the table itself if a leaf). */
static List *
leaves_of(Oid relid)
{
	List	   *result = NIL;
	ListCell   *lc;

	foreach(lc, find_all_inheritors(relid, NoLock, NULL))
	{
		char		kind = get_rel_relkind(lfirst_oid(lc));

		if (kind == RELKIND_RELATION || kind == RELKIND_FOREIGN_TABLE)
			result = lappend_oid(result, lfirst_oid(lc));
	}
	return result;
}

/*
 * column_ops
 *		The equality operator of the default btree operator class of each
 *		key column's type, as SQL (search_path is pinned to pg_catalog).
 */
static char **
column_ops(const PartmgrUnique *u)
{
	char	  **ops = palloc(sizeof(char *) * u->ncols);

	for (int i = 0; i < u->ncols; i++)
	{
		Oid			type = get_atttype(u->root,
									   get_attnum(u->root, u->columns[i]));
		Oid			opclass = GetDefaultOpClass(type, BTREE_AM_OID);

		ops[i] = operator_sql(btree_equality(get_opclass_family(opclass),
											 get_opclass_input_type(opclass)));
	}
	return ops;
}

typedef struct FillArgs
{
	const char *insert_sql;
	const char *then_sql;
} FillArgs;

static void
fill_statements(void *arg)
{
	FillArgs   *args = arg;

	partmgr_spi_table_exec(args->insert_sql, 0, NULL, NULL, NULL, false,
						   SPI_OK_INSERT);
	if (args->then_sql != NULL)
		partmgr_spi_table_utility(args->then_sql);
}

/*
 * duplicates_detail
 *		Up to five keys held twice, with the children holding them: within
 *		the table, and (attaching) between the table and the entries of the
 *		children already in the set.
 */
static char *
duplicates_detail(const PartmgrUnique *u, Oid table, bool attach)
{
	StringInfoData detail;
	StringInfoData names;
	uint64		n;

	initStringInfo(&detail);
	initStringInfo(&names);
	for (int i = 0; i < u->ncols; i++)
		appendStringInfo(&names, "%s%s", i > 0 ? ", " : "",
						 quote_identifier(u->columns[i]));
	n = partmgr_spi_table_exec(partmgr_query_side_duplicates(u->side_schema,
															 u->side_name,
															 get_namespace_name(get_rel_namespace(table)),
															 get_rel_name(table), u->ncols,
															 u->columns,
															 column_ops(u),
															 attach),
							   0, NULL, NULL, NULL, false, SPI_OK_SELECT);
	for (uint64 r = 0; r < n; r++)
		appendStringInfo(&detail, "%sKey (%s)=%s is held by %s and by %s.",
						 r > 0 ? "\n" : "", names.data, partmgr_spi_text(r, 1),
						 partmgr_spi_text(r, 2), partmgr_spi_text(r, 3));
	return detail.data;
}

/*
 * partmgr_unique_fill
 *		Enter the keys of every row of table, inside the owner's scope: at
 *		creation the side table is empty and its unique constraint is added
 *		after the rows (then_sql), attaching a table its entries left from
 *		before (a table detached and attached again) and the stale entries
 *		its keys meet are removed first.  A duplicate raises 23505 naming up
 *		to five keys and the children that hold them.
 */
void
partmgr_unique_fill(const PartmgrUnique *u, Oid table, bool attach)
{
	const char *schema = get_namespace_name(get_rel_namespace(table));
	const char *name = get_rel_name(table);
	const char *tbl = rel_display(table);
	FillArgs	args;
	ErrorData  *error;

	if (attach)
	{
		Oid			types[1] = {REGCLASSARRAYOID};
		Datum		values[1];

		values[0] = oid_array(leaves_of(table));
		partmgr_spi_table_exec(partmgr_dml_side_delete_children(u->side_schema,
																u->side_name),
							   1, types, values, NULL, false, SPI_OK_DELETE);
		/* the leaves in the set now, the attached table's among them */
		values[0] = oid_array(leaves_of(u->root));
		partmgr_spi_table_exec(partmgr_dml_side_delete_met(u->side_schema,
														   u->side_name, schema,
														   name, u->ncols,
														   u->columns,
														   column_ops(u)),
							   1, types, values, NULL, false, SPI_OK_DELETE);
	}
	args.insert_sql = partmgr_dml_side_fill(u->side_schema, u->side_name,
											schema, name,
											u->ncols, u->columns);
	args.then_sql = (attach ? NULL :
					 partmgr_ddl_unique_key(u->side_schema, u->side_name,
											u->name, u->ncols, u->columns));
	if (partmgr_run_subxact(fill_statements, &args, &error))
		return;
	if (error->sqlerrcode != ERRCODE_UNIQUE_VIOLATION)
		ReThrowError(error);
	if (attach)
		ereport(ERROR,
				(errcode(ERRCODE_UNIQUE_VIOLATION),
				 errmsg("%s cannot join the set: it would violate global unique constraint \"%s\"",
						tbl, u->name),
				 errdetail_internal("%s", duplicates_detail(u, table, true)),
				 errhint("Remove the duplicate rows from %s, then attach it again.", tbl)));
	ereport(ERROR,
			(errcode(ERRCODE_UNIQUE_VIOLATION),
			 errmsg("could not create global unique constraint \"%s\": %s holds duplicate keys",
					u->name, tbl),
			 errdetail_internal("%s", duplicates_detail(u, table, false)),
			 errhint("Remove or change the duplicate rows, then create the constraint again.")));
}

/* ----------------------------------------------------------------
 * Entries of children that left the set
 * ----------------------------------------------------------------
 */

/*
 * partmgr_unique_children
 *		The children the side table's entries name, one index probe each
 *		(a skip scan of the child index), as OIDs.
 */
List *
partmgr_unique_children(const PartmgrUnique *u)
{
	List	   *result = NIL;
	uint64		n;

	n = partmgr_spi_table_exec(partmgr_query_side_children(u->side_schema,
														   u->side_name),
							   0, NULL, NULL, NULL, false, SPI_OK_SELECT);
	for (uint64 r = 0; r < n; r++)
	{
		bool		isnull;

		result = lappend_oid(result,
							 DatumGetObjectId(partmgr_spi_value(r, 1,
																&isnull)));
	}
	return result;
}

/*
 * partmgr_unique_count_of
 *		How many entries of one child the side table holds (inside the
 *		owner's scope).
 */
int64
partmgr_unique_count_of(const PartmgrUnique *u, Oid child)
{
	Oid			type = REGCLASSOID;
	Datum		value = ObjectIdGetDatum(child);
	bool		isnull;

	partmgr_spi_table_exec(partmgr_query_side_child_entries(u->side_schema,
															u->side_name),
						   1, &type, &value, NULL, true, SPI_OK_SELECT);
	return DatumGetInt64(partmgr_spi_value(0, 1, &isnull));
}

/*
 * partmgr_unique_waiting
 *		How many entries name a child no longer in the set: they wait for
 *		cleanup.  Inside the owner's scope.
 */
int64
partmgr_unique_waiting(const PartmgrUnique *u)
{
	int64		total = 0;
	ListCell   *lc;

	foreach(lc, partmgr_unique_children(u))
	{
		Oid			child = lfirst_oid(lc);

		if (!partmgr_unique_in_set(child, u->root))
			total += partmgr_unique_count_of(u, child);
	}
	return total;
}

/*
 * partmgr_unique_leaves_unguarded
 *		How many leaves of the set lack the constraint's TRUNCATE trigger
 *		(*no_truncate), and how many have its row trigger disabled
 *		(*disabled); read from the catalogs with the caller's rights.
 */
void
partmgr_unique_leaves_unguarded(const PartmgrUnique *u, int64 *no_truncate,
								int64 *disabled)
{
	Oid			types[3] = {REGCLASSOID, TEXTOID, TEXTOID};
	Datum		values[3];
	bool		isnull;

	values[0] = ObjectIdGetDatum(u->root);
	values[1] = CStringGetTextDatum(u->name);
	values[2] = CStringGetTextDatum(psprintf("%s_truncate", u->name));
	partmgr_spi_exec("SELECT pg_catalog.count(*) FILTER (WHERE t.oid IS NULL), "
					 "pg_catalog.count(*) FILTER (WHERE r.tgenabled"
					 " OPERATOR(pg_catalog.=) 'D') "
					 "FROM pg_catalog.pg_partition_tree($1) p "
					 "LEFT JOIN pg_catalog.pg_trigger t ON t.tgrelid"
					 " OPERATOR(pg_catalog.=) p.relid "
					 " AND t.tgname OPERATOR(pg_catalog.=) $3 "
					 "LEFT JOIN pg_catalog.pg_trigger r ON r.tgrelid"
					 " OPERATOR(pg_catalog.=) p.relid "
					 " AND r.tgname OPERATOR(pg_catalog.=) $2 "
					 "WHERE p.isleaf",
					 3, types, values, NULL, true, SPI_OK_SELECT);
	*no_truncate = DatumGetInt64(partmgr_spi_value(0, 1, &isnull));
	*disabled = DatumGetInt64(partmgr_spi_value(0, 2, &isnull));
}

/*
 * partmgr_unique_referenced
 *		Whether a foreign key references the side table: the entries of a
 *		retired child must then go with it, for the key's action to run.
 */
bool
partmgr_unique_referenced(const PartmgrUnique *u)
{
	Oid			type = OIDOID;
	Datum		value = ObjectIdGetDatum(u->side);

	if (!OidIsValid(u->side))
		return false;
	return partmgr_spi_exec("SELECT 1 FROM pg_catalog.pg_constraint "
							"WHERE confrelid OPERATOR(pg_catalog.=) $1 AND"
							" contype OPERATOR(pg_catalog.=) 'f'",
							1, &type, &value, NULL, true, SPI_OK_SELECT) > 0;
}
