/*-------------------------------------------------------------------------
 *
 * citus.c
 *	  What a Citus cluster changes for pg_partmgr.
 *
 * pg_partmgr does not link with Citus and works without it; when the citus
 * extension is in the database, it reads Citus's catalogs directly:
 *
 *	- pg_dist_local_group says which node this is: group 0 is the
 *	  coordinator, where maintenance runs; on a worker the tables are
 *	  shards of the coordinator's and maintenance does nothing.
 *	- pg_dist_partition lists the tables Citus manages (distributed,
 *	  reference, Citus-managed local).  On the coordinator such a table is a
 *	  shell: its rows are in the shards, so whether it holds rows is asked
 *	  with a query, never read from its own storage, and rows move by
 *	  statements that Citus runs on the shards.
 *
 * A statement on a distributed table runs on the workers too, where
 * lock_timeout of the coordinator does not reach.  Before an action on a
 * Citus table, the executor sets citus.propagate_set_commands to 'local'
 * (partmgr_citus_propagate_set_local) and runs SET LOCAL lock_timeout in a
 * DO block -- Citus sends a SET LOCAL on to the workers only inside a
 * transaction block, a DO block or a procedure, and maintenance runs in
 * none when the worker or a plain function runs it.  Before anything is
 * read of a Citus set, the transaction switches to
 * citus.multi_shard_modify_mode 'sequential' (partmgr_citus_sequential,
 * from the owner's rights scope that every path enters): a child created
 * or attached in the parallel mode fails in a transaction when the parent
 * has a foreign key to a reference table, a switch after a parallel read
 * fails too, and maintenance of several sets in one transaction must not
 * switch modes between them.
 *
 * Locks: ACCESS SHARE on pg_dist_partition, pg_dist_local_group and
 * pg_constraint while they are read.  Runs in the caller's transaction;
 * what it learns is kept for that transaction only.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/citus.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_constraint.h"
#include "catalog/pg_namespace.h"
#include "commands/extension.h"
#include "nodes/primnodes.h"
#include "nodes/readfuncs.h"
#include "storage/proc.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "citus.h"
#include "compat.h"

/* pg_dist_partition's columns, as Citus 11 to 13 define them */
#define DIST_PARTITION_LOGICALRELID		1
#define DIST_PARTITION_PARTMETHOD		2
#define DIST_PARTITION_PARTKEY			3

/* partmethod of a table that is not sharded (reference, Citus-managed local) */
#define DIST_PARTMETHOD_NONE			'n'
/* partmethod of a table sharded by the hash of a column */
#define DIST_PARTMETHOD_HASH			'h'

/* What this transaction knows of Citus; looked up again in the next one. */
typedef struct CitusFacts
{
	LocalTransactionId lxid;
	bool		present;
	Oid			dist_partition; /* pg_catalog.pg_dist_partition */
	Oid			dist_partition_index;	/* its index on logicalrelid */
	PartmgrCitusNode node;
	bool		node_known;
} CitusFacts;

static CitusFacts facts = {InvalidLocalTransactionId};

/* The set whose Citus settings were last logged, and in which transaction. */
static LocalTransactionId logged_lxid = InvalidLocalTransactionId;
static Oid	logged_parent = InvalidOid;

static LocalTransactionId
current_lxid(void)
{
	return partmgr_my_lxid();
}

/*
 * citus_facts
 *		Whether the citus extension is in this database, with the catalogs
 *		to read, for the current transaction.
 */
static CitusFacts *
citus_facts(void)
{
	if (facts.lxid == current_lxid() && facts.lxid != InvalidLocalTransactionId)
		return &facts;
	memset(&facts, 0, sizeof(facts));
	facts.lxid = current_lxid();
	facts.present = OidIsValid(get_extension_oid("citus", true));
	if (facts.present)
	{
		facts.dist_partition = get_relname_relid("pg_dist_partition",
												 PG_CATALOG_NAMESPACE);
		facts.dist_partition_index =
			get_relname_relid("pg_dist_partition_logical_relid_index",
							  PG_CATALOG_NAMESPACE);
		/* a Citus this code does not know: treat it as absent, but say so */
		if (!OidIsValid(facts.dist_partition) ||
			!OidIsValid(facts.dist_partition_index))
		{
			ereport(WARNING,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("pg_partmgr: the citus extension is installed but pg_catalog.pg_dist_partition or its index on logicalrelid is missing"),
					 errdetail("pg_partmgr maintains the database as if Citus were not there.")));
			facts.present = false;
		}
	}
	return &facts;
}

/*
 * partmgr_citus_node
 *		What this node is to Citus: none (no citus extension here), the
 *		coordinator (group 0 in pg_dist_local_group), or a worker.
 */
PartmgrCitusNode
partmgr_citus_node(void)
{
	CitusFacts *f = citus_facts();
	Oid			relid;
	Relation	rel;
	SysScanDesc scan;
	HeapTuple	tuple;

	if (!f->present)
		return PARTMGR_CITUS_NONE;
	if (f->node_known)
		return f->node;
	f->node = PARTMGR_CITUS_COORDINATOR;
	relid = get_relname_relid("pg_dist_local_group", PG_CATALOG_NAMESPACE);
	if (OidIsValid(relid))
	{
		rel = table_open(relid, AccessShareLock);
		scan = systable_beginscan(rel, InvalidOid, false, NULL, 0, NULL);
		tuple = systable_getnext(scan);
		if (HeapTupleIsValid(tuple))
		{
			bool		isnull;
			Datum		group = heap_getattr(tuple, 1, RelationGetDescr(rel),
											 &isnull);

			if (!isnull && DatumGetInt32(group) != 0)
				f->node = PARTMGR_CITUS_WORKER;
		}
		systable_endscan(scan);
		table_close(rel, AccessShareLock);
	}
	f->node_known = true;
	return f->node;
}

/*
 * dist_partition_row
 *		relid's partmethod in pg_dist_partition, or '\0' when Citus does not
 *		manage it (or is not there); with partkey, also the text of its
 *		distribution column's Var (NULL when it has none).
 */
static char
dist_partition_row(Oid relid, char **partkey)
{
	const CitusFacts *f = citus_facts();
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	char		method = '\0';

	if (partkey != NULL)
		*partkey = NULL;
	if (!f->present)
		return '\0';
	rel = table_open(f->dist_partition, AccessShareLock);
	ScanKeyInit(&key, DIST_PARTITION_LOGICALRELID, BTEqualStrategyNumber,
				F_OIDEQ,
				ObjectIdGetDatum(relid));
	scan = systable_beginscan(rel, f->dist_partition_index, true, NULL, 1,
							  &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
	{
		bool		isnull;
		Datum		value = heap_getattr(tuple, DIST_PARTITION_PARTMETHOD,
										 RelationGetDescr(rel), &isnull);

		method = isnull ? '?' : DatumGetChar(value);
		value = heap_getattr(tuple, DIST_PARTITION_PARTKEY,
							 RelationGetDescr(rel), &isnull);
		if (partkey != NULL && !isnull)
			*partkey = TextDatumGetCString(value);
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return method;
}

/*
 * partmgr_citus_distribution_column
 *		The column by whose hash Citus shards relid, or NULL when it is not
 *		sharded so (no Citus, a reference or local table).
 */
char *
partmgr_citus_distribution_column(Oid relid)
{
	char	   *partkey;
	Node	   *node;

	if (dist_partition_row(relid, &partkey) != DIST_PARTMETHOD_HASH ||
		partkey == NULL)
		return NULL;
	node = stringToNode(partkey);
	if (!IsA(node, Var))
		return NULL;
	return get_attname(relid, ((Var *) node)->varattno, false);
}

/*
 * partmgr_citus_table
 *		Whether Citus manages relid (a distributed, reference or
 *		Citus-managed local table): on this node it is a shell whose rows
 *		are elsewhere.  False without Citus.
 */
bool
partmgr_citus_table(Oid relid)
{
	return dist_partition_row(relid, NULL) != '\0';
}

/*
 * partmgr_citus_reference_target
 *		The qualified name of a table that is not sharded by Citus (a
 *		reference table) which a foreign key of relid references, or NULL.
 */
char *
partmgr_citus_reference_target(Oid relid)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	char	   *found = NULL;

	if (!citus_facts()->present)
		return NULL;
	rel = table_open(ConstraintRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_constraint_conrelid, BTEqualStrategyNumber,
				F_OIDEQ,
				ObjectIdGetDatum(relid));
	scan = systable_beginscan(rel, ConstraintRelidTypidNameIndexId, true, NULL,
							  1, &key);
	while (found == NULL && HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_constraint con = (Form_pg_constraint) GETSTRUCT(tuple);

		if (con->contype == CONSTRAINT_FOREIGN &&
			dist_partition_row(con->confrelid, NULL) == DIST_PARTMETHOD_NONE)
			found = quote_qualified_identifier(get_namespace_name(get_rel_namespace(con->confrelid)),
											   get_rel_name(con->confrelid));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return found;
}

/*
 * partmgr_citus_sequential
 *		When Citus manages relid (the parent of a set about to be read or
 *		changed), run the rest of the transaction's multi-shard statements
 *		over one connection per worker (SET LOCAL
 *		citus.multi_shard_modify_mode = 'sequential'), before the first of
 *		them; a mode switched after a parallel one fails.  Returns whether
 *		Citus manages it.
 */
bool
partmgr_citus_sequential(Oid relid)
{
	if (!partmgr_citus_table(relid))
		return false;
	(void) set_config_option("citus.multi_shard_modify_mode", "sequential",
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_LOCAL,
							 true, 0, false);
	return true;
}

/*
 * partmgr_citus_propagate_set_local
 *		Have Citus send SET LOCAL statements on to the workers
 *		(citus.propagate_set_commands 'local') to the end of the caller's
 *		GUC nest level, which the caller opened.
 */
void
partmgr_citus_propagate_set_local(void)
{
	(void) set_config_option("citus.propagate_set_commands", "local",
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
							 true, 0, false);
}

/*
 * partmgr_citus_report
 *		The LOG line that says how an action on the Citus set whose parent
 *		is parent (key names it) runs, and why: once per set and
 *		transaction.
 */
void
partmgr_citus_report(Oid parent, const char *key, int lock_timeout_ms)
{
	char	   *reference;

	if (logged_lxid == current_lxid() && logged_parent == parent)
		return;
	logged_lxid = current_lxid();
	logged_parent = parent;
	reference = partmgr_citus_reference_target(parent);
	ereport(LOG,
			(errmsg("pg_partmgr: partition set %s is a Citus table: its statements run in citus.multi_shard_modify_mode 'sequential', with lock_timeout %d ms on the workers",
					key, lock_timeout_ms),
			 errdetail("%s Its expired children are detached without CONCURRENTLY, which Citus refuses.",
					   reference != NULL ?
					   psprintf("Its parent has a foreign key to reference table %s, and a child created or attached in the parallel mode fails inside a transaction then.",
								reference) :
					   "Maintenance of several sets in one transaction must not switch Citus's mode between them.")));
}

/*
 * partmgr_citus_refuse
 *		0A000 when the set whose parent is parent (key names it) is a Citus
 *		table: what (a function) does not work there, for the reason why.
 */
void
partmgr_citus_refuse(Oid parent, const char *key, const char *what,
					 const char *why)
{
	if (!partmgr_citus_table(parent))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s does not work on partition set \"%s\": its parent is a Citus table",
					what, key),
			 errdetail("%s", why),
			 errhint("doc/citus.md lists what pg_partmgr does on a Citus cluster.")));
}
