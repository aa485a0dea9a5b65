/*-------------------------------------------------------------------------
 *
 * prefetch.c
 *	  What a maintenance run reads of the system catalogs at once: every
 *	  partitioned table and every partition, from one scan each of
 *	  pg_class, pg_partitioned_table and pg_inherits, and the partition key
 *	  column of each partitioned table from pg_attribute's index, kept
 *	  exact by invalidations.
 *
 * An idle pass over many sets needs, per set, the parent's pg_class and
 * pg_partitioned_table rows and the pg_class row of every child, with its
 * bound.  Asked of the syscache one at a time, a backend that has not seen
 * them yet (the worker is a new process every run; run_maintenance() is
 * often called in a new connection) pays an index scan for each, about ten
 * times what the rest of the set costs.  Read here in one sequential scan
 * per catalog, they cost a fraction of that.
 *
 * What was read stays true only until the catalogs change.  So this is a
 * cache in PostgreSQL's own way: a relcache invalidation callback marks the
 * relation it names stale (any change to a pg_class row -- TRUNCATE,
 * ALTER, ATTACH, DETACH, DROP, a rename -- or to a pg_attribute row, and
 * every change of a partitioned table's partitions sends one), and a
 * change to pg_namespace or pg_partitioned_table, or a cache reset, marks
 * everything stale.  A stale relation, or one not read, is not answered
 * here: the caller asks the syscache as before.  Invalidations are taken
 * in where PostgreSQL takes them in (a transaction's start, a new lock, a
 * new command), so an answer from here is as current as the syscache's at
 * the same point.
 * pg_inherits is read whole and kept per parent: its rows change without
 * a relcache invalidation of the child (DETACH CONCURRENTLY marks them
 * pending), but never without one of the parent (ATTACH, CREATE ...
 * PARTITION OF, either step of a DETACH, a partition dropped), so a
 * parent's list of partitions is as current as the parent's entry.
 * Invalidations taken in while the catalogs are read are kept, and mark
 * what they name once it is read.
 *
 * Only while a run lasts: runner.c begins a prefetch for a run of many sets
 * (when the sets are many for the size of pg_class; see worth_it) and ends
 * it after the last set.  Its memory is a context of its own under the
 * caller's; deleting that context (the end, or an error that unwinds the
 * caller) forgets it.
 *
 * Locks: ACCESS SHARE on pg_class, pg_partitioned_table, pg_inherits and
 * pg_attribute while they are read; none on the tables described.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/prefetch.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relscan.h"
#include "access/tableam.h"
#include "access/table.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_partitioned_table.h"
#include "common/hashfn.h"
#include "executor/tuptable.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/datum.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "prefetch.h"

/*
 * A run prefetches when pg_class holds at most this many rows per set it
 * maintains (scanning a row costs about a hundredth of one syscache miss,
 * and a set saves a dozen misses or more), or at most PREFETCH_CLASS_ROWS
 * in all (a scan of a millisecond or two, whatever the run).
 */
#define PREFETCH_CLASS_ROWS_PER_SET 400
#define PREFETCH_CLASS_ROWS 10000

/* a partitioned table by namespace and name */
typedef struct NameKey
{
	Oid			nspoid;
	NameData	name;
} NameKey;

typedef struct NameEntry
{
	NameKey		key;
	Oid			relid;
} NameEntry;

/*
 * Oid -> PartmgrKnownRel: open addressing in one array, a probe or
 * two per look-up where dynahash's chains cost a cache miss each (a run
 * looks up every child of every set, and enters every partition of the
 * database).  The entries themselves are in chunks that never move, so a
 * pointer to one stays good while the hash table grows.
 */
typedef struct KnownSlot
{
	Oid			relid;
	char		status;			/* simplehash's */
	PartmgrKnownRel *rel;
} KnownSlot;

#define SH_PREFIX			knownrels
#define SH_ELEMENT_TYPE		KnownSlot
#define SH_KEY_TYPE			Oid
#define SH_KEY				relid
#define SH_HASH_KEY(tb, key) murmurhash32(key)
#define SH_EQUAL(tb, a, b)	((a) == (b))
#define SH_SCOPE			static inline
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

/* entries are allocated this many at a time */
#define KNOWN_CHUNK 1024

typedef struct Prefetch
{
	MemoryContext cxt;
	knownrels_hash *rels;		/* Oid -> PartmgrKnownRel */
	PartmgrKnownRel *chunk;		/* where the next entry goes */
	int			chunk_used;
	bool		reading;		/* the catalogs are being read */
	List	   *early;			/* of Oid: invalidated while reading */
	HTAB	   *names;			/* NameKey -> NameEntry, partitioned tables */
	bool		stale;			/* everything invalidated */
} Prefetch;

/* the entry of relid, or NULL */
static PartmgrKnownRel *
lookup(Prefetch *p, Oid relid)
{
	KnownSlot  *slot = knownrels_lookup(p->rels, relid);

	return slot != NULL ? slot->rel : NULL;
}

/* a new, empty entry for relid (a snapshot of pg_class holds it once) */
static PartmgrKnownRel *
enter(Prefetch *p, Oid relid)
{
	KnownSlot  *slot;
	bool		found;

	if (p->chunk_used == KNOWN_CHUNK)
	{
		p->chunk = MemoryContextAllocZero(p->cxt,
										  sizeof(PartmgrKnownRel) * KNOWN_CHUNK);
		p->chunk_used = 0;
	}
	slot = knownrels_insert(p->rels, relid, &found);
	Assert(!found);
	slot->rel = &p->chunk[p->chunk_used++];
	slot->rel->relid = relid;
	return slot->rel;
}

/* the prefetch of the run in progress, or NULL */
static Prefetch *active = NULL;

static bool callbacks_registered = false;

/*
 * invalidate_rel, invalidate_all
 *		Invalidation callbacks: a relation's cache entry, or everything (a
 *		cache reset comes as InvalidOid; a change of pg_namespace or
 *		pg_partitioned_table as a syscache invalidation).
 */
static void
invalidate_rel(Datum arg, Oid relid)
{
	PartmgrKnownRel *known;

	if (active == NULL)
		return;
	if (!OidIsValid(relid))
	{
		active->stale = true;
		return;
	}
	if (active->reading)
	{
		/* its entry may be read yet, from catalogs as they were before */
		MemoryContext outer = MemoryContextSwitchTo(active->cxt);

		active->early = lappend_oid(active->early, relid);
		MemoryContextSwitchTo(outer);
		return;
	}
	known = lookup(active, relid);
	if (known != NULL)
		known->stale = true;
}

static void
invalidate_all(Datum arg, int cacheid, uint32 hashvalue)
{
	if (active != NULL)
		active->stale = true;
}

/* the memory of a prefetch went: forget it */
static void
forget(void *arg)
{
	if (active == (Prefetch *) arg)
		active = NULL;
}

/*
 * class_rows
 *		How many rows pg_class holds, as last counted (its reltuples), or -1
 *		when never counted.
 */
static float4
class_rows(void)
{
	HeapTuple	tuple = SearchSysCache1(RELOID,
										ObjectIdGetDatum(RelationRelationId));
	float4		rows;

	if (!HeapTupleIsValid(tuple))
		return -1;
	rows = ((Form_pg_class) GETSTRUCT(tuple))->reltuples;
	ReleaseSysCache(tuple);
	return rows;
}

/*
 * worth_it
 *		Whether scanning pg_class (rows of it, -1 when unknown) costs less
 *		than the syscache misses of nsets sets: pg_class holds few rows for
 *		each, or few at all (unknown counts as few).
 */
static bool
worth_it(int nsets, float4 rows)
{
	return rows < 0 || rows <= Max((float4) nsets * PREFETCH_CLASS_ROWS_PER_SET,
								   PREFETCH_CLASS_ROWS);
}

/*
 * expected_rels
 *		How many relations the prefetch is likely to enter (partitioned
 *		tables and partitions): a third of pg_class's rows, as a child
 *		usually comes with its TOAST table and that table's index, and at
 *		least a few for each set; at most forty a set, so that a database
 *		of many other tables does not make the hash table large.  The hash
 *		table is made that large at once: each doubling would zero a new
 *		array and move every entry, and a new process pays for each page of
 *		memory it touches for the first time.
 */
static uint32
expected_rels(int nsets, float4 rows)
{
	double		n = rows > 0 ? rows / 3 : 0;

	n = Min(n, (double) nsets * 40);
	n = Max(n, (double) nsets * 4);
	return (uint32) Max(n, 1024);
}

/*
 * A reader of the shapes of relpartbound text that the children of range
 * and hash sets have, for the prefetch: stringToNode builds every node of a
 * bound and costs as much as the rest of the prefetch.  It reads what
 * PostgreSQL writes for a PartitionBoundSpec (outfuncs.c): a default, a
 * hash bound, or a range bound whose first column is MINVALUE, MAXVALUE or
 * a value passed by value (a timestamp, a date, an integer).  Anything else
 * -- another shape, a value passed by reference -- it declines, and
 * stringToNode reads it; so does an assert-enabled build, to check it.
 */
static bool
skip(const char **p, const char *expected)
{
	size_t		n = strlen(expected);

	if (strncmp(*p, expected, n) != 0)
		return false;
	*p += n;
	return true;
}

static bool
read_long(const char **p, long *value)
{
	char	   *end;

	errno = 0;
	*value = strtol(*p, &end, 10);
	if (end == *p || errno != 0)
		return false;
	*p = end;
	return true;
}

/* the first PartitionRangeDatum of a list of them, at *p */
static bool
read_range_datum(const char **p, PartitionRangeDatumKind *kind, Datum *value)
{
	const char *q;
	long		k;
	long		ignored;
	char		bytes[sizeof(Datum)];

	if (!skip(p, "({PARTITIONRANGEDATUM :kind ") || !read_long(p, &k))
		return false;
	if (k == PARTITION_RANGE_DATUM_MINVALUE ||
		k == PARTITION_RANGE_DATUM_MAXVALUE)
	{
		*kind = (PartitionRangeDatumKind) k;
		*value = (Datum) 0;
		return skip(p, " :value <>");
	}
	if (k != PARTITION_RANGE_DATUM_VALUE ||
		!skip(p, " :value {CONST :consttype ") ||
		(q = strstr(*p, " :constbyval ")) == NULL)
		return false;
	*p = q;
	if (!skip(p, " :constbyval true :constisnull false :location ") ||
		!read_long(p, &ignored) || !skip(p, " :constvalue ") ||
		!read_long(p, &ignored) || !skip(p, " ["))
		return false;
	for (int i = 0; i < (int) sizeof(Datum); i++)
	{
		long		b;

		if (!skip(p, " ") || !read_long(p, &b) || b < -128 || b > 127)
			return false;
		bytes[i] = (char) b;
	}
	if (!skip(p, " ]}"))
		return false;
	*kind = PARTITION_RANGE_DATUM_VALUE;
	memcpy(value, bytes, sizeof(Datum));
	return true;
}

/* read_bound's work from the text, or false (see above) */
static bool
read_bound_text(PartmgrKnownRel *known, const char *text)
{
	const char *p = text;
	char		strategy;
	long		modulus;
	long		remainder;

	if (!skip(&p, "{PARTITIONBOUNDSPEC :strategy ") || *p == '\0')
		return false;
	strategy = *p++;
	if (skip(&p, " :is_default true "))
	{
		known->bound_strategy = strategy;
		known->is_default = true;
		return true;
	}
	if (!skip(&p, " :is_default false :modulus ") || !read_long(&p, &modulus) ||
		!skip(&p, " :remainder ") || !read_long(&p, &remainder))
		return false;
	known->bound_strategy = strategy;
	if (strategy == PARTITION_STRATEGY_HASH)
	{
		known->modulus = (int) modulus;
		known->remainder = (int) remainder;
		return true;
	}
	if (strategy != PARTITION_STRATEGY_RANGE ||
		(p = strstr(p, " :lowerdatums ")) == NULL)
		return false;
	p += strlen(" :lowerdatums ");
	if (!read_range_datum(&p, &known->lower_kind, &known->lower) ||
		(p = strstr(p, " :upperdatums ")) == NULL)
		return false;
	p += strlen(" :upperdatums ");
	return read_range_datum(&p, &known->upper_kind, &known->upper);
}

/*
 * read_bound
 *		A partition's bound from its relpartbound, read in the scratch
 *		context (read_bound_text, else stringToNode): a range bound's first
 *		column (its kind and value), a hash bound, or the default.  A list
 *		bound, or one not yet visible, stays unknown (catalog.c reads it
 *		itself).
 */
static void
read_bound(PartmgrKnownRel *known, HeapTuple tuple, TupleDesc desc,
		   MemoryContext scratch)
{
	bool		isnull;
	Datum		bound = heap_getattr(tuple, Anum_pg_class_relpartbound, desc,
									 &isnull);
	MemoryContext keep;
	PartitionBoundSpec *spec;
	char	   *str;

	if (isnull)
		return;
	keep = MemoryContextSwitchTo(scratch);
	str = TextDatumGetCString(bound);
	if (read_bound_text(known, str))
	{
		known->bound_known = true;
#ifndef USE_ASSERT_CHECKING
		MemoryContextSwitchTo(keep);
		MemoryContextReset(scratch);
		return;
#endif
	}
	spec = castNode(PartitionBoundSpec, stringToNode(str));
	MemoryContextSwitchTo(keep);
	if (known->bound_known)
	{
		/* an assert-enabled build checks the reader against stringToNode */
		Assert(known->bound_strategy == spec->strategy);
		Assert(known->is_default == spec->is_default);
		Assert(spec->is_default || spec->strategy != PARTITION_STRATEGY_RANGE ||
			   (known->lower_kind == linitial_node(PartitionRangeDatum,
												   spec->lowerdatums)->kind &&
				known->upper_kind == linitial_node(PartitionRangeDatum,
												   spec->upperdatums)->kind));
		MemoryContextReset(scratch);
		return;
	}
	known->bound_strategy = spec->strategy;
	if (spec->is_default)
	{
		known->is_default = true;
		known->bound_known = true;
	}
	else if (spec->strategy == PARTITION_STRATEGY_RANGE)
	{
		PartitionRangeDatum *lower = linitial_node(PartitionRangeDatum,
												   spec->lowerdatums);
		PartitionRangeDatum *upper = linitial_node(PartitionRangeDatum,
												   spec->upperdatums);

		known->lower_kind = lower->kind;
		known->upper_kind = upper->kind;
		if (lower->kind == PARTITION_RANGE_DATUM_VALUE)
		{
			Const	   *c = castNode(Const, lower->value);

			known->lower = datumCopy(c->constvalue, c->constbyval, c->constlen);
		}
		if (upper->kind == PARTITION_RANGE_DATUM_VALUE)
		{
			Const	   *c = castNode(Const, upper->value);

			known->upper = datumCopy(c->constvalue, c->constbyval, c->constlen);
		}
		known->bound_known = true;
	}
	else if (spec->strategy == PARTITION_STRATEGY_HASH)
	{
		known->modulus = spec->modulus;
		known->remainder = spec->remainder;
		known->bound_known = true;
	}
	MemoryContextReset(scratch);
}

/*
 * read_classes
 *		Every partitioned table and every partition that is a table (not an
 *		index) from one scan of pg_class.
 */
static void
read_classes(Prefetch *p)
{
	Relation	rel = table_open(RelationRelationId, AccessShareLock);
	SysScanDesc scan = systable_beginscan(rel, InvalidOid, false, NULL, 0,
										  NULL);

	/*
	 * large enough that a bound's parse fits in its first block, kept on
	 * reset
	 */
	MemoryContext scratch = AllocSetContextCreate(CurrentMemoryContext,
												  "pg_partmgr partition bound",
												  ALLOCSET_DEFAULT_SIZES);
	HeapTuple	tuple;

	while ((tuple = systable_getnext(scan)) != NULL)
	{
		Form_pg_class form = (Form_pg_class) GETSTRUCT(tuple);
		bool		partitioned = form->relkind == RELKIND_PARTITIONED_TABLE;
		PartmgrKnownRel *known;

		if (!partitioned &&
			(!form->relispartition || form->relkind == RELKIND_INDEX ||
			 form->relkind == RELKIND_PARTITIONED_INDEX))
			continue;
		known = enter(p, form->oid);
		known->filled = true;
		known->name = pstrdup(NameStr(form->relname));
		known->nspoid = form->relnamespace;
		known->owner = form->relowner;
		known->relkind = form->relkind;
		known->persistence = form->relpersistence;
		known->ispartition = form->relispartition;
		known->hastriggers = form->relhastriggers;
		known->filenode = form->relfilenode;
		known->tablespace = form->reltablespace;
		if (form->relispartition)
			read_bound(known, tuple, RelationGetDescr(rel), scratch);
		if (partitioned)
		{
			NameKey		key;
			NameEntry  *entry;

			memset(&key, 0, sizeof(key));
			key.nspoid = form->relnamespace;
			namestrcpy(&key.name, NameStr(form->relname));
			entry = hash_search(p->names, &key, HASH_ENTER, NULL);
			entry->relid = form->oid;
		}
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	MemoryContextDelete(scratch);
}

/*
 * read_keys
 *		The name and type of each partitioned table's first key column,
 *		from pg_attribute's (attrelid, attnum) index opened once: cheaper
 *		than a syscache miss per set.  Only where partitioned tables are
 *		about as many as the run's sets (parents and their sub-sets); among
 *		many more, a probe for each would cost more than the misses of the
 *		run's own sets, so they are left to the syscache.
 */
static void
read_keys(Prefetch *p, PartmgrKnownRel **partitioned, int npartitioned,
		  int nsets)
{
	Relation	rel;
	Relation	irel;
	Snapshot	snapshot;
	IndexScanDesc scan;
	TupleTableSlot *slot;
	ScanKeyData keys[2];

	if (npartitioned == 0 || npartitioned > 2 * nsets + 64)
		return;
	rel = table_open(AttributeRelationId, AccessShareLock);
	irel = index_open(AttributeRelidNumIndexId, AccessShareLock);
	snapshot = RegisterSnapshot(GetCatalogSnapshot(AttributeRelationId));
	scan = index_beginscan(rel, irel, snapshot, 2, 0);
	slot = table_slot_create(rel, NULL);
	for (int i = 0; i < npartitioned; i++)
	{
		PartmgrKnownRel *known = partitioned[i];

		if (known->key_attnum <= 0)
			continue;			/* an expression, or a system column */

		/*
		 * index column numbers; pg_attribute's index compares as its columns
		 * do
		 */
		ScanKeyInit(&keys[0], 1, BTEqualStrategyNumber, F_OIDEQ,
					ObjectIdGetDatum(known->relid));
		ScanKeyInit(&keys[1], 2, BTEqualStrategyNumber, F_INT2EQ,
					Int16GetDatum(known->key_attnum));
		index_rescan(scan, keys, 2, NULL, 0);
		if (index_getnext_slot(scan, ForwardScanDirection, slot))
		{
			bool		shouldfree;
			HeapTuple	tuple = ExecFetchSlotHeapTuple(slot, false,
													   &shouldfree);
			Form_pg_attribute att = (Form_pg_attribute) GETSTRUCT(tuple);

			known->key_name = pstrdup(NameStr(att->attname));
			known->key_type = att->atttypid;
			if (shouldfree)
				heap_freetuple(tuple);
		}
		ExecClearTuple(slot);
	}
	ExecDropSingleTupleTableSlot(slot);
	index_endscan(scan);
	UnregisterSnapshot(snapshot);
	index_close(irel, AccessShareLock);
	table_close(rel, AccessShareLock);
}

/*
 * read_partitioned
 *		The pg_partitioned_table row of every partitioned table read, and
 *		its key column (read_keys).
 */
static void
read_partitioned(Prefetch *p, int nsets)
{
	Relation	rel = table_open(PartitionedRelationId, AccessShareLock);
	SysScanDesc scan = systable_beginscan(rel, InvalidOid, false, NULL, 0,
										  NULL);
	HeapTuple	tuple;
	int			n = 0;
	int			size = 64;
	PartmgrKnownRel **partitioned = palloc(sizeof(PartmgrKnownRel *) * size);

	while ((tuple = systable_getnext(scan)) != NULL)
	{
		Form_pg_partitioned_table form = (Form_pg_partitioned_table) GETSTRUCT(tuple);
		PartmgrKnownRel *known = lookup(p, form->partrelid);

		if (known == NULL)
			continue;
		known->partitioned = true;
		known->strategy = form->partstrat;
		known->nkeys = form->partnatts;
		known->key_attnum =
			form->partnatts > 0 ? form->partattrs.values[0] : InvalidAttrNumber;
		known->default_oid = form->partdefid;
		if (n == size)
		{
			size *= 2;
			partitioned = repalloc(partitioned,
								   sizeof(PartmgrKnownRel *) * size);
		}
		partitioned[n++] = known;
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	read_keys(p, partitioned, n, nsets);
	pfree(partitioned);
}

/*
 * read_inherits
 *		The partitions of every partitioned table read, from one scan of
 *		pg_inherits.
 */
static void
read_inherits(Prefetch *p)
{
	Relation	rel = table_open(InheritsRelationId, AccessShareLock);
	SysScanDesc scan = systable_beginscan(rel, InvalidOid, false, NULL, 0,
										  NULL);
	HeapTuple	tuple;

	while ((tuple = systable_getnext(scan)) != NULL)
	{
		Form_pg_inherits form = (Form_pg_inherits) GETSTRUCT(tuple);
		PartmgrKnownRel *parent = lookup(p, form->inhparent);
		PartmgrKnownChild *child;

		if (parent == NULL || !parent->partitioned)
			continue;
		if (parent->nchildren == parent->children_room)
		{
			parent->children_room = Max(16, parent->children_room * 2);
			parent->children = (parent->children == NULL ?
								palloc(sizeof(PartmgrKnownChild) *
									   parent->children_room) :
								repalloc(parent->children,
										 sizeof(PartmgrKnownChild) * parent->children_room));
		}
		child = &parent->children[parent->nchildren++];
		child->relid = form->inhrelid;
		child->detach_pending = form->inhdetachpending;
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
}

/*
 * partmgr_prefetch_begin
 *		Read the catalogs for a run of nsets sets, in the caller's
 *		transaction, into memory under the current context (it outlasts the
 *		transaction: the worker's run spans many).  Returns false, reading
 *		nothing, when it would not pay (see worth_it) or a prefetch is in
 *		progress already (it serves); true obliges the caller to call
 *		partmgr_prefetch_end.
 */
bool
partmgr_prefetch_begin(int nsets)
{
	MemoryContext cxt;
	MemoryContext caller;
	MemoryContextCallback *callback;
	Prefetch   *p;
	HASHCTL		ctl;
	ListCell   *lc;
	float4		rows;

	if (active != NULL || nsets <= 0)
		return false;
	rows = class_rows();
	if (!worth_it(nsets, rows))
		return false;
	if (!callbacks_registered)
	{
		CacheRegisterRelcacheCallback(invalidate_rel, (Datum) 0);
		CacheRegisterSyscacheCallback(NAMESPACEOID, invalidate_all, (Datum) 0);
		CacheRegisterSyscacheCallback(PARTRELID, invalidate_all, (Datum) 0);
		callbacks_registered = true;
	}

	cxt = AllocSetContextCreate(CurrentMemoryContext,
								"pg_partmgr prefetched catalogs",
								ALLOCSET_DEFAULT_SIZES);
	caller = MemoryContextSwitchTo(cxt);
	p = palloc0(sizeof(Prefetch));
	p->cxt = cxt;
	p->rels = knownrels_create(cxt, expected_rels(nsets, rows), NULL);
	p->chunk_used = KNOWN_CHUNK;
	memset(&ctl, 0, sizeof(ctl));
	ctl.hcxt = cxt;
	ctl.keysize = sizeof(NameKey);
	ctl.entrysize = sizeof(NameEntry);
	p->names = hash_create("pg_partmgr prefetched names", 256, &ctl,
						   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	callback = palloc0(sizeof(MemoryContextCallback));
	callback->func = forget;
	callback->arg = p;
	MemoryContextRegisterResetCallback(cxt, callback);

	/* what is invalidated from here on is marked, if only once read */
	p->reading = true;
	active = p;
	PG_TRY();
	{
		read_classes(p);
		read_partitioned(p, nsets);
		read_inherits(p);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(caller);
		MemoryContextDelete(cxt);
		PG_RE_THROW();
	}
	PG_END_TRY();
	MemoryContextSwitchTo(caller);

	/*
	 * From here on, every invalidation taken in marks what it names.  One
	 * taken in while the catalogs were read marks it now: the scans may have
	 * read it before the change.  Those of changes the scans did not see come
	 * after the scans' catalog snapshots, so nothing read is left unmarked
	 * when it changes.
	 */
	p->reading = false;
	foreach(lc, p->early)
		invalidate_rel((Datum) 0, lfirst_oid(lc));
	return true;
}

/*
 * partmgr_prefetch_end
 *		Forget the run's prefetch and free its memory.
 */
void
partmgr_prefetch_end(void)
{
	if (active != NULL)
		MemoryContextDelete(active->cxt);
	Assert(active == NULL);
}

/*
 * partmgr_prefetched
 *		What the run read of a relation, or NULL when it read nothing of it
 *		(no prefetch in progress, not a partitioned table or partition, made
 *		since) or the relation changed since.  See PartmgrKnownRel for how
 *		long the answer may be kept.
 */
const PartmgrKnownRel *
partmgr_prefetched(Oid relid)
{
	PartmgrKnownRel *known;

	if (active == NULL || active->stale)
		return NULL;
	known = lookup(active, relid);
	if (known == NULL || known->stale || !known->filled)
		return NULL;
	return known;
}

/*
 * partmgr_prefetched_relid
 *		The partitioned table called name in namespace nspoid, as the run
 *		read it and unchanged since; InvalidOid when that is not known (the
 *		caller then asks the syscache).
 */
Oid
partmgr_prefetched_relid(Oid nspoid, const char *name)
{
	NameKey		key;
	NameEntry  *entry;

	if (active == NULL || active->stale || strlen(name) >= NAMEDATALEN)
		return InvalidOid;
	memset(&key, 0, sizeof(key));
	key.nspoid = nspoid;
	namestrcpy(&key.name, name);
	entry = hash_search(active->names, &key, HASH_FIND, NULL);
	if (entry == NULL || partmgr_prefetched(entry->relid) == NULL)
		return InvalidOid;
	return entry->relid;
}
