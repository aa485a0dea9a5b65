/*-------------------------------------------------------------------------
 *
 * capture.c
 *	  Change capture for reshapes: while the rows of a child are copied
 *	  into the children that will replace it, a trigger on the child
 *	  records the key of every row that is inserted, updated or deleted in
 *	  a change log, so that the new children can be brought up to date
 *	  before they take its place (reshape.c replays the log).
 *
 * The trigger (partmgr.reshape_capture(), AFTER INSERT OR UPDATE OR DELETE
 * FOR EACH ROW and AFTER TRUNCATE FOR EACH STATEMENT, enabled ALWAYS so that
 * replicated changes are seen too) names its change log (schema, table)
 * and the key columns.  The log holds the key columns, with the child's
 * types, then partmgr_claimed and partmgr_truncated (boolean): one row per
 * key that changed (an update of the key gives one for the old key and one
 * for the new), and one with partmgr_truncated for a TRUNCATE.  Only keys
 * travel: the replay reads the rows themselves from the child, as they are
 * then, so the order of the log does not matter and replaying twice does no
 * harm.
 *
 * The log is written with heap calls: no SPI, no change of user, and
 * nothing of anyone's runs (a trigger or rule added to the log would not
 * fire).  The log must belong to the owner of the table the trigger fires
 * on, and have exactly the columns above, or the write fails: a trigger
 * made by hand cannot write into another role's table, nor write what
 * the replay would misread.  Two cases do not fail the application's
 * write: a log that is gone (dropped by hand: the reshape cannot go on
 * then, and says so) records nothing, and a key column retyped since the
 * log was made records a TRUNCATE's mark for every change (the reshape
 * copies again, then finds the columns changed and stops to be undone).
 *
 * Locks: ROW EXCLUSIVE on the log, ACCESS SHARE on pg_class through the
 * name lookup when the cache is built.  Runs in the transaction of the
 * statement that fired the trigger.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/capture.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_am.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "capture.h"
#include "catalog.h"
#include "statements.h"
#include "spi_util.h"

/*
 * What one capture trigger on one table needs, kept until a relation changes.
 */
typedef struct CaptureKey
{
	Oid			relid;
	Oid			tgoid;
} CaptureKey;

typedef struct CaptureEntry
{
	CaptureKey	key;
	bool		broken;			/* the table's key columns changed since the
								 * log was made: every change is logged as a
								 * TRUNCATE's mark */
	Oid			log;
	int			ncols;
	AttrNumber	attnums[INDEX_MAX_KEYS];	/* in the captured table */
	int16		typlen[INDEX_MAX_KEYS];
	bool		typbyval[INDEX_MAX_KEYS];
} CaptureEntry;

static HTAB *capture_cache = NULL;
static MemoryContext capture_context = NULL;
static bool capture_stale = false;

static void
forget_capture_cache(Datum arg, Oid relid)
{
	capture_stale = true;
}

static void
refuse(const Trigger *trigger, Oid relid, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("trigger \"%s\" on %s cannot record changes: %s",
					trigger->tgname,
					partmgr_key_display(partmgr_table_key(relid)), why),
			 errhint("Change logs are made by pg_partmgr's reshapes (split_partition and the like); cancel_reshape() removes them.")));
}

/*
 * capture_entry
 *		The cache entry of a trigger on a table, built on first use: the
 *		log is looked up by name and checked (see the file header).
 */
static CaptureEntry *
capture_entry(Relation rel, const Trigger *trigger)
{
	CaptureKey	key;
	CaptureEntry proto;
	CaptureEntry *entry;
	Oid			nspid;
	Relation	log;
	TupleDesc	desc;
	TupleDesc	reldesc = RelationGetDescr(rel);
	bool		found;

	if (capture_context == NULL)
	{
		capture_context = AllocSetContextCreate(TopMemoryContext,
												"pg_partmgr change capture",
												ALLOCSET_SMALL_SIZES);
		CacheRegisterRelcacheCallback(forget_capture_cache, (Datum) 0);
	}
	if (capture_stale && capture_cache != NULL)
	{
		hash_destroy(capture_cache);
		capture_cache = NULL;
		MemoryContextReset(capture_context);
	}
	capture_stale = false;
	if (capture_cache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(CaptureKey);
		ctl.entrysize = sizeof(CaptureEntry);
		ctl.hcxt = capture_context;
		capture_cache = hash_create("pg_partmgr change capture", 16, &ctl,
									HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	memset(&key, 0, sizeof(key));
	key.relid = RelationGetRelid(rel);
	key.tgoid = trigger->tgoid;
	entry = hash_search(capture_cache, &key, HASH_FIND, NULL);
	if (entry != NULL)
		return entry;

	if (trigger->tgnargs < 3 || trigger->tgnargs - 2 > INDEX_MAX_KEYS)
		refuse(trigger, key.relid,
			   "it does not name a change log and key columns");
	memset(&proto, 0, sizeof(proto));
	proto.key = key;
	nspid = get_namespace_oid(trigger->tgargs[0], true);
	proto.log = OidIsValid(nspid) ? get_relname_relid(trigger->tgargs[1],
													  nspid) : InvalidOid;
	if (!OidIsValid(proto.log))
		return NULL;			/* the reshape cannot go on without it anyway */
	proto.ncols = trigger->tgnargs - 2;
	log = table_open(proto.log, AccessShareLock);
	desc = RelationGetDescr(log);
	if (log->rd_rel->relowner != rel->rd_rel->relowner)
		refuse(trigger, key.relid, "its change log belongs to another role");
	if (log->rd_rel->relkind != RELKIND_RELATION ||
		log->rd_rel->relam != HEAP_TABLE_AM_OID)
		refuse(trigger, key.relid, "its change log is not a plain heap table");
	if (desc->natts != proto.ncols + 2 ||
		TupleDescAttr(desc, proto.ncols)->atttypid != BOOLOID ||
		strcmp(NameStr(TupleDescAttr(desc, proto.ncols)->attname),
			   PARTMGR_CAPTURE_CLAIMED_COLUMN) != 0 ||
		TupleDescAttr(desc, proto.ncols + 1)->atttypid != BOOLOID ||
		strcmp(NameStr(TupleDescAttr(desc, proto.ncols + 1)->attname),
			   PARTMGR_CAPTURE_TRUNCATED_COLUMN) != 0)
		refuse(trigger, key.relid,
			   "its change log does not have the columns of one");
	for (int i = 0; i < proto.ncols; i++)
	{
		const char *column = trigger->tgargs[i + 2];
		AttrNumber	attnum = get_attnum(key.relid, column);
		Form_pg_attribute logatt = TupleDescAttr(desc, i);

		if (logatt->attisdropped ||
			strcmp(NameStr(logatt->attname), column) != 0)
			refuse(trigger, key.relid,
				   psprintf("key column \"%s\" is not in its change log",
							column));
		if (attnum <= 0 || TupleDescAttr(reldesc, attnum - 1)->attisdropped ||
			logatt->atttypid != TupleDescAttr(reldesc, attnum - 1)->atttypid)
		{
			/*
			 * the table's column was retyped (or renamed) since: the
			 * application's writes go on, and the reshape starts again, then
			 * stops to be undone (reshape.c checks the columns)
			 */
			proto.broken = true;
			continue;
		}
		proto.attnums[i] = attnum;
		proto.typlen[i] = logatt->attlen;
		proto.typbyval[i] = logatt->attbyval;
	}
	for (int i = 0; i < desc->natts; i++)
	{
		if (TupleDescAttr(desc, i)->attisdropped)
			refuse(trigger, key.relid, "its change log has dropped columns");
	}
	table_close(log, AccessShareLock);

	entry = hash_search(capture_cache, &key, HASH_ENTER, &found);
	memcpy(entry, &proto, sizeof(CaptureEntry));
	return entry;
}

/*
 * row_key
 *		The key of a row, detoasted; false when a key column is NULL (a row
 *		of a unique key with a NULL cannot be told apart: the reshape
 *		refuses keys that allow it, so this is only a guard).
 */
static bool
row_key(const CaptureEntry *entry, TupleTableSlot *slot, Datum *values)
{
	return partmgr_slot_key(slot, entry->ncols, entry->attnums, entry->typlen,
							values);
}

static bool
same_image(const CaptureEntry *entry, const Datum *a, const Datum *b)
{
	for (int i = 0; i < entry->ncols; i++)
	{
		if (!datum_image_eq(a[i], b[i], entry->typbyval[i], entry->typlen[i]))
			return false;
	}
	return true;
}

/* One row of the log: a key (or none, for a TRUNCATE). */
static void
log_row(Relation log, const CaptureEntry *entry, const Datum *values,
		bool truncated)
{
	Datum		row[INDEX_MAX_KEYS + 2];
	bool		nulls[INDEX_MAX_KEYS + 2];

	for (int i = 0; i < entry->ncols; i++)
	{
		row[i] = values != NULL ? values[i] : (Datum) 0;
		nulls[i] = values == NULL;
	}
	row[entry->ncols] = BoolGetDatum(false);
	nulls[entry->ncols] = false;
	row[entry->ncols + 1] = BoolGetDatum(truncated);
	nulls[entry->ncols + 1] = false;
	simple_heap_insert(log, heap_form_tuple(RelationGetDescr(log), row, nulls));
}

/*
 * partmgr_capture_fire
 *		The capture trigger (see the file header): the checks of the
 *		protocol are the caller's.
 */
void
partmgr_capture_fire(TriggerData *trigdata)
{
	TriggerEvent event = trigdata->tg_event;
	CaptureEntry *entry = capture_entry(trigdata->tg_relation,
										trigdata->tg_trigger);
	Relation	log;
	Datum		old_key[INDEX_MAX_KEYS];
	Datum		new_key[INDEX_MAX_KEYS];
	bool		has_old = false;
	bool		has_new = false;

	if (entry == NULL)
		return;					/* the change log is gone: nothing to record */
	log = table_open(entry->log, RowExclusiveLock);
	if (TRIGGER_FIRED_BY_TRUNCATE(event) || entry->broken)
	{
		log_row(log, entry, NULL, true);
		table_close(log, NoLock);
		return;
	}
	if (TRIGGER_FIRED_BY_DELETE(event) || TRIGGER_FIRED_BY_UPDATE(event))
		has_old = row_key(entry, trigdata->tg_trigslot, old_key);
	if (TRIGGER_FIRED_BY_INSERT(event))
		has_new = row_key(entry, trigdata->tg_trigslot, new_key);
	else if (TRIGGER_FIRED_BY_UPDATE(event))
		has_new = row_key(entry, trigdata->tg_newslot, new_key);
	if (has_old && has_new && same_image(entry, old_key, new_key))
		has_old = false;
	if (has_old)
		log_row(log, entry, old_key, false);
	if (has_new)
		log_row(log, entry, new_key, false);
	table_close(log, NoLock);
}

/*
 * partmgr_capture_truncated
 *		Whether a change log holds a TRUNCATE's mark: an old child was
 *		emptied, and the new children must be filled again.  Read with the
 *		rights of the scope the caller is in (the set owner's).
 */
bool
partmgr_capture_truncated(const char *schema, const char *log)
{
	partmgr_spi_table_exec(partmgr_query_log_flagged(schema, log,
													 PARTMGR_CAPTURE_TRUNCATED_COLUMN),
						   0, NULL, NULL, NULL, false, SPI_OK_SELECT);
	return SPI_processed > 0;
}
