/*-------------------------------------------------------------------------
 *
 * contents.c
 *	  What the tables of a partition set hold.
 *
 * Whether a child holds rows is answered in C without a query: a plain
 * table that has no blocks is empty, otherwise the first tuple visible to
 * the active snapshot settles it.  An idle maintenance pass therefore runs
 * no query per child.  The largest key value is asked with a query (an
 * index on the key answers it at once).  A table Citus manages is only a
 * shell on the coordinator, its rows in the shards: it is always asked
 * with a query, which Citus runs on them (citus.c).
 *
 * Locks: ACCESS SHARE on the tables looked into, taken without queueing and
 * bounded by pg_partmgr.lock_timeout (execute.c).  Runs in the caller's
 * transaction, connected to SPI, inside the scope of the set owner's rights
 * (rights.c): the queries run as the owner, and reading rows in C is
 * refused outside such a scope.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/contents.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "access/table.h"
#include "access/tableam.h"
#include "catalog/pg_class.h"
#include "common/relpath.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "compat.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/fd.h"
#include "storage/lmgr.h"
#include "storage/smgr.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "bounds.h"
#include "citus.h"
#include "contents.h"
#include "statements.h"
#include "locks.h"
#include "prefetch.h"
#include "rights.h"
#include "spi_util.h"

/*
 * partmgr_max_control
 *		Largest control value of a table (ONLY that table, or the whole set
 *		when only is false) as a point; false when it holds no rows.
 */
bool
partmgr_max_control(const PartmgrSet *set, const char *schema, const char *name,
					bool only, PartmgrPoint *result)
{
	bool		isnull;
	Datum		value;

	partmgr_spi_table_exec(partmgr_ddl_max_control(set, schema, name, only), 0,
						   NULL,
						   NULL, NULL, false, SPI_OK_SELECT);
	value = partmgr_spi_value(0, 1, &isnull);
	if (isnull)
		return false;
	*result = partmgr_point_from_datum(&set->axis, value);
	return true;
}

/*
 * storage_is_empty
 *		Whether a relation's main fork, by its pg_class facts, has no block.
 *		A temporary relation, or one without storage of its own, counts as
 *		not empty (a scan decides).
 *
 *		The size of the fork's first segment file says it with one stat():
 *		a block is written to the file when the relation is extended, before
 *		any row goes into it, so a file of no bytes is a relation of no
 *		blocks.  Asking the storage manager instead opens, seeks and closes
 *		the file, three times the work for each premade child of every set
 *		in an idle pass; it is asked when the file cannot be looked at.  A
 *		relation in the database's default tablespace is looked at relative
 *		to the database's directory, opened once for the process: the
 *		kernel then looks up one name, not three.
 */
static bool
storage_is_empty(char persistence, Oid tablespace, Oid filenode)
{
	/* the database's directory, for its default tablespace's files */
	static int	dir_fd = -1;
	static bool dir_opened = false;
	PartmgrRelFile node;
	char	   *path;
	struct stat st;

	if (persistence == RELPERSISTENCE_TEMP || !OidIsValid(filenode))
		return false;
	if (!OidIsValid(tablespace))
	{
		char		name[16];

		/* once: a process stays in its database (-1 if it cannot be opened) */
		if (!dir_opened)
		{
			path = GetDatabasePath(MyDatabaseId, MyDatabaseTableSpace);
			dir_fd = BasicOpenFile(path, O_RDONLY | O_DIRECTORY);
			dir_opened = true;
			pfree(path);
		}
		snprintf(name, sizeof(name), "%u", filenode);
		if (dir_fd >= 0 && fstatat(dir_fd, name, &st, 0) == 0)
			return st.st_size == 0;
	}
	node = partmgr_rel_file(tablespace, filenode);
	path = relpathperm(node, MAIN_FORKNUM);
	if (stat(path, &st) == 0)
	{
		pfree(path);
		return st.st_size == 0;
	}
	pfree(path);
	return smgrnblocks(smgropen(node, PARTMGR_NO_BACKEND), MAIN_FORKNUM) == 0;
}

/*
 * partmgr_has_no_blocks
 *		Whether a plain table (locked) has no block in its main fork, asked
 *		of the storage manager from its pg_class row (as the run's prefetch
 *		read it, when unchanged since the lock was taken, else from the
 *		syscache): an idle pass looks at the empty premade children of every
 *		set, and building a relcache entry for each would cost more than
 *		everything else it does.
 */
bool
partmgr_has_no_blocks(Oid relid)
{
	const PartmgrKnownRel *known = partmgr_prefetched(relid);
	HeapTuple	tuple;
	Form_pg_class form;
	bool		empty;

	/* a Citus table's rows are in its shards: its storage says nothing */
	if (partmgr_citus_table(relid))
		return false;
	if (known != NULL)
		return storage_is_empty(known->persistence, known->tablespace,
								known->filenode);
	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	form = (Form_pg_class) GETSTRUCT(tuple);
	empty = storage_is_empty(form->relpersistence, form->reltablespace,
							 form->relfilenode);
	ReleaseSysCache(tuple);
	return empty;
}

/*
 * look_into
 *		partmgr_child_has_rows once the child is locked.
 */
static bool
look_into(const PartmgrChild *child)
{
	Relation	rel;
	TableScanDesc scan;
	TupleTableSlot *slot;
	bool		found;

	if (child->relkind != RELKIND_RELATION || partmgr_citus_table(child->relid))
	{
		partmgr_spi_table_exec(partmgr_query_count_rows(child->schema,
														child->name, false,
														true),
							   0, NULL, NULL, NULL, false, SPI_OK_SELECT);
		return DatumGetInt64(partmgr_spi_value(0, 1, &found)) > 0;
	}
	if (partmgr_has_no_blocks(child->relid))
		return false;
	rel = table_open(child->relid, NoLock);
	scan = table_beginscan(rel, GetActiveSnapshot(), 0, NULL);
	slot = table_slot_create(rel, NULL);
	found = table_scan_getnextslot(scan, ForwardScanDirection, slot);
	ExecDropSingleTupleTableSlot(slot);
	table_endscan(scan);
	table_close(rel, NoLock);
	return found;
}

/*
 * partmgr_child_has_rows
 *		Whether a child holds a row visible to the active snapshot.  A plain
 *		table with no blocks is empty without a scan; otherwise the first
 *		visible tuple settles it.  Other kinds (a partitioned child) are asked
 *		with a query.  Takes ACCESS SHARE on the child, bounded, for the
 *		look only (unless the transaction held it already): a pass over
 *		thousands of sets looks into thousands of children, and keeping
 *		those locks to its end would only fill the lock table.
 */
bool
partmgr_child_has_rows(const PartmgrChild *child)
{
	bool		release;
	bool		found;

	if (!OidIsValid(child->relid))
		return false;			/* planned, not created yet (a dry run) */

	/* reading a set's rows takes its owner's privileges, as a query would */
	(void) partmgr_rights_require(PARTMGR_RIGHTS_ACT, "reading a child");
	release = partmgr_lock_relation_briefly(child->relid, AccessShareLock);
	found = look_into(child);
	if (release)
		UnlockRelationOid(child->relid, AccessShareLock);
	return found;
}

/*
 * partmgr_newest_child_with_rows
 *		The child with the highest bounds that holds rows (children whose
 *		detach is pending do not count), or NULL.
 */
const PartmgrChild *
partmgr_newest_child_with_rows(const PartmgrTree *tree)
{
	for (int i = tree->nchildren - 1; i >= 0; i--)
	{
		const PartmgrChild *child = &tree->children[i];

		if (!child->detach_pending && partmgr_child_has_rows(child))
			return child;
	}
	return NULL;
}
