/*-------------------------------------------------------------------------
 *
 * own_tables.c
 *	  pg_partmgr's own relations -- the tables and sequences that are
 *	  members of the extension (its views are read only through them) --
 *	  and the two rules that cover every one of them: the order in which a
 *	  run locks them, and the triggers pg_partmgr refuses on them.
 *
 * Which relations.  The members of extension pg_partmgr in pg_class, read
 * from pg_depend, so that a table a later version adds is covered without
 * being named here.  The list is kept per backend, read again when one of
 * its relations changes (a relcache invalidation, as CREATE TRIGGER, ALTER
 * TABLE and DROP EXTENSION send) and at the start of every run
 * (partmgr_own_forget), so that a table added by ALTER EXTENSION UPDATE is
 * in it from the next run on.  Template tables that create_parent makes in
 * schema partmgr are not members: they are a set's tables.
 *
 * Lock order.  A run takes ROW EXCLUSIVE on every one of them, in OID
 * order, at the start of each transaction (or step) in which it works,
 * before it touches any table of a set: conditionally, within one
 * pg_partmgr.lock_timeout (partmgr_lock_relations_in_order).  DROP
 * EXTENSION, ALTER EXTENSION UPDATE and other DDL on these tables lock
 * them before they lock anything a run holds, so either the DDL waits for
 * the step to end, or the run finds one of them taken and gives up its
 * turn -- it never waits for the DDL while holding what the DDL needs, and
 * the two cannot deadlock.  doc/locking.md says what a DBA's DDL meets.
 *
 * Triggers.  Statements on these tables run with the caller's rights (a
 * superuser running maintenance), so a trigger that another role put on one
 * of them (pg_partman's documentation grants ALL on the schema's tables)
 * would run its code with those rights.  Before its first statement that
 * may write one of them, pg_partmgr checks all of them and refuses while
 * any has a trigger that is neither PostgreSQL's own nor the extension's.
 *
 * Locks: ACCESS SHARE on pg_depend and pg_trigger to read them; ROW
 * EXCLUSIVE on the relations themselves, to the end of the transaction.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/own_tables.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/pg_class.h"
#include "catalog/pg_depend.h"
#include "catalog/pg_extension.h"
#include "commands/extension.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"

#include "locks.h"
#include "own_tables.h"
#include "rights.h"

/* more than the extension will ever have; a guard, not a limit */
#define MAX_OWN_RELATIONS 64

typedef struct OwnRelation
{
	Oid			relid;
	char		relkind;
} OwnRelation;

static OwnRelation own[MAX_OWN_RELATIONS];
static int	n_own = 0;
static Oid	own_ext = InvalidOid;
static bool own_valid = false;	/* own[] is current */
static bool triggers_checked = false;	/* and none has a foreign trigger */

static void
forget_on_change(Datum arg, Oid relid)
{
	bool		ours = !OidIsValid(relid);

	for (int i = 0; i < n_own && !ours; i++)
		ours = relid == own[i].relid;
	if (ours)
		own_valid = triggers_checked = false;
}

static int
compare_relid(const void *a, const void *b)
{
	Oid			x = ((const OwnRelation *) a)->relid;
	Oid			y = ((const OwnRelation *) b)->relid;

	return x < y ? -1 : x > y ? 1 : 0;
}

/*
 * read_members
 *		Fill own[] with the extension's member relations in OID order (none
 *		when it is not installed).  While CREATE EXTENSION runs the list is
 *		not kept: members are still being made.
 */
static void
read_members(void)
{
	static bool callback_registered = false;
	Relation	depend;
	ScanKeyData key[2];
	SysScanDesc scan;
	HeapTuple	tuple;

	if (!callback_registered)
	{
		CacheRegisterRelcacheCallback(forget_on_change, (Datum) 0);
		callback_registered = true;
	}
	n_own = 0;
	triggers_checked = false;
	own_ext = get_extension_oid("pg_partmgr", true);
	if (!OidIsValid(own_ext))
	{
		own_valid = false;
		return;
	}
	depend = table_open(DependRelationId, AccessShareLock);
	ScanKeyInit(&key[0], Anum_pg_depend_refclassid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(ExtensionRelationId));
	ScanKeyInit(&key[1], Anum_pg_depend_refobjid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(own_ext));
	scan = systable_beginscan(depend, DependReferenceIndexId, true, NULL, 2,
							  key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_depend dep = (Form_pg_depend) GETSTRUCT(tuple);
		char		relkind;

		if (dep->classid != RelationRelationId ||
			dep->deptype != DEPENDENCY_EXTENSION)
			continue;
		relkind = get_rel_relkind(dep->objid);
		if (relkind != RELKIND_RELATION &&
			relkind != RELKIND_PARTITIONED_TABLE &&
			relkind != RELKIND_SEQUENCE)
			continue;			/* views are read only through their tables */
		if (n_own == MAX_OWN_RELATIONS)
			elog(ERROR, "extension pg_partmgr has more than %d relations",
				 MAX_OWN_RELATIONS);
		own[n_own].relid = dep->objid;
		own[n_own].relkind = relkind;
		n_own++;
	}
	systable_endscan(scan);
	table_close(depend, AccessShareLock);
	qsort(own, n_own, sizeof(OwnRelation), compare_relid);
	own_valid = !creating_extension;
}

static void
read_if_needed(void)
{
	if (!own_valid)
		read_members();
}

/*
 * partmgr_own_forget
 *		Read the list again before its next use: called at the start of a
 *		run, so a run always locks and checks the relations the extension
 *		has then.
 */
void
partmgr_own_forget(void)
{
	own_valid = false;
	triggers_checked = false;
}

/*
 * partmgr_own_try_lock
 *		Take ROW EXCLUSIVE on every relation of the extension, in OID order,
 *		conditionally, all within pg_partmgr.lock_timeout (see the file
 *		header).  Returns InvalidOid when all are held, else the OID of the
 *		first one that was not granted (those before it stay locked until
 *		the transaction ends; the caller gives up its turn).  Needs a
 *		transaction.
 */
Oid
partmgr_own_try_lock(void)
{
	Oid			relids[MAX_OWN_RELATIONS];
	int			n;
	int			refused;

	read_if_needed();
	/* a copy: taking a lock takes in invalidations, which reset own[] */
	n = n_own;
	for (int i = 0; i < n; i++)
		relids[i] = own[i].relid;
	refused = partmgr_lock_relations_in_order(relids, n, RowExclusiveLock);
	return refused < 0 ? InvalidOid : relids[refused];
}

/*
 * partmgr_own_lock
 *		partmgr_own_try_lock, raising 55P03 (naming the table and the
 *		processes that hold it) when a lock was not granted.
 */
void
partmgr_own_lock(void)
{
	Oid			refused = partmgr_own_try_lock();

	if (OidIsValid(refused))
		partmgr_lock_unavailable(refused, RowExclusiveLock);
}

/*
 * partmgr_check_table_triggers
 *		Raise 42501 if a table has a trigger that is neither PostgreSQL's own
 *		(foreign keys) nor made by the extension ext: a role granted TRIGGER
 *		on it (pg_partman's documentation grants ALL) could otherwise make
 *		whoever writes it -- a superuser maintaining every set -- run its
 *		code.
 */
void
partmgr_check_table_triggers(Oid relid, Oid ext)
{
	char	   *trigger = partmgr_user_trigger(relid, ext, false);

	if (trigger != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("pg_partmgr does not write to table %s while it has trigger \"%s\"",
						quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
												   get_rel_name(relid)),
						trigger),
				 errdetail("The trigger was not created by the extension; it would run with the rights of whoever maintains partition sets."),
				 errhint("Drop the trigger. Roles that use pg_partmgr need no TRIGGER privilege on its tables.")));
}

/*
 * partmgr_own_check_triggers
 *		partmgr_check_table_triggers for every table of the extension, before
 *		pg_partmgr's first statement that may write one of them.  The answer
 *		is kept until one of them changes (creating a trigger invalidates the
 *		table's relcache entry) or a run starts.
 */
void
partmgr_own_check_triggers(void)
{
	read_if_needed();
	if (triggers_checked)
		return;
	for (int i = 0; i < n_own; i++)
	{
		if (own[i].relkind != RELKIND_SEQUENCE)
			partmgr_check_table_triggers(own[i].relid, own_ext);
	}
	/* a table missing now (the extension being made) is checked next time */
	triggers_checked = own_valid;
}
