/*-------------------------------------------------------------------------
 *
 * rights.c
 *	  The trust boundary: act on a partition set with its owner's rights.
 *
 * A set's owner controls code that runs when its tables are touched: index
 * expressions and partial-index predicates (the planner evaluates immutable
 * ones while it plans a read), CHECK constraints, generated columns,
 * defaults, triggers, the template table's indexes, the set's time encoder
 * and decoder.  pg_partmgr runs unattended as a superuser, so before it
 * touches a set it does what VACUUM and ANALYZE do: switch to the owner of
 * the set's parent inside a security-restricted operation, at a new GUC
 * nest level with search_path = pg_catalog, pg_temp (so no function or
 * operator a user created in another schema is picked up), whoever called.
 * A scope that acts on the set also sets row_security = off: a statement
 * that row security would filter for the owner (a policy with FORCE ROW
 * LEVEL SECURITY) raises an error instead of reading or writing only part
 * of the rows, so no copy that is followed by a drop or a delete misses a
 * row.  What the owner's code changes in the session's settings is undone
 * when the scope is left.
 *
 * Only two doors lead from pg_partmgr into code a user controls: a
 * statement on a set's tables (spi_util.c) and a call of the set's encoder
 * or decoder (partmgr_call_owner_function).  Both refuse to run outside a
 * scope.  While one of them runs, the scope counts it: a pg_partmgr
 * function that the owner's code calls from there is a fresh call made
 * with the owner's rights, and may not step back to the caller's.
 *
 * pg_partmgr's own tables and the system catalogs are read and written
 * with the caller's rights (partmgr_caller_begin): the owner need not have
 * been granted anything on schema partmgr, and what a run records (log
 * rows, maintenance_last_run) is checked against the caller by the
 * database (row security on the log, the trigger on the configuration).
 *
 * Two more doors exist that the owner does not hold the key to: a
 * trigger a role with the TRIGGER privilege put on pg_partmgr's own tables
 * (spi_util.c refuses to write them while one is there), and a deferrable
 * trigger on a table rows move through, which would fire at commit, after
 * the scope is gone (execute.c refuses to move those rows); both find such
 * triggers with partmgr_user_trigger.  To act on a set, its owner must also
 * be able to use the parent's schema (partmgr_rights_enter_table).
 *
 * What each scope is lives here, in a small array, not with its caller: an
 * error unwinds the caller's stack before the (sub)transaction aborts, and
 * the callbacks below must still be able to forget the scopes entered in
 * it.
 *
 * Locks: ACCESS SHARE on pg_trigger while looking for triggers; none else.
 * Transactions: a scope lives inside the (sub)transaction it was entered
 * in; the callbacks below forget scopes whose (sub)transaction aborted.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/rights.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_trigger.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "citus.h"
#include "compat.h"
#include "prefetch.h"
#include "rights.h"

/* deeper than this, something calls in circles */
#define MAX_SCOPES	32

typedef struct Scope
{
	Oid			owner;			/* whose rights the scope acts with */
	PartmgrRightsMode mode;
	Oid			caller;			/* who entered it: our own tables are used
								 * with its rights */
	int			caller_sec;		/* and its security context */
	Oid			entered_userid; /* the user and security context it was */
	int			entered_sec;	/* entered with, restored when it is left */
	int			nestlevel;		/* GUC nest level of the pinned settings */
	int			owner_code;		/* doors into the owner's code open now */
	SubTransactionId subid;		/* subtransaction it was entered in */
} Scope;

static Scope scopes[MAX_SCOPES];
static int	nscopes = 0;
static bool callbacks_registered = false;

/*
 * forget_aborted_xact, forget_aborted_subxact
 *		A (sub)transaction that ended took the scopes entered in it along:
 *		on abort PostgreSQL restored the user, the security context and the
 *		settings; only the list is left to trim.
 */
static void
forget_aborted_xact(XactEvent event, void *arg)
{
	/* a scope never spans a commit (rights.h): only an abort ends one */
	Assert(nscopes == 0 ||
		   (event != XACT_EVENT_COMMIT && event != XACT_EVENT_PARALLEL_COMMIT &&
			event != XACT_EVENT_PREPARE));
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT ||
		event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PREPARE)
		nscopes = 0;
}

static void
forget_aborted_subxact(SubXactEvent event, SubTransactionId mySubid,
					   SubTransactionId parentSubid, void *arg)
{
	if (event != SUBXACT_EVENT_ABORT_SUB)
		return;
	while (nscopes > 0 && scopes[nscopes - 1].subid >= mySubid)
		nscopes--;
}

/* The innermost scope, or NULL. */
static Scope *
innermost(void)
{
	return nscopes > 0 ? &scopes[nscopes - 1] : NULL;
}

static void
report_no_rights(Oid owner, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied for partition set \"%s\"", what),
			 errdetail("Only roles with the privileges of role \"%s\", which owns the table, may maintain it or read its rows.",
					   GetUserNameFromId(owner, false))));
}

/*
 * partmgr_may_act_on
 *		Whether the current user has the privileges of a set's owner (a
 *		superuser has everyone's), which changing a set or reading its rows
 *		takes.
 */
bool
partmgr_may_act_on(Oid owner)
{
	return has_privs_of_role(GetUserId(), owner);
}

/*
 * partmgr_owner_trusts
 *		Whether a table of object_owner may take part in what is done with
 *		set_owner's rights (a template whose indexes are built on new
 *		children, a table rows are moved from or into): its code then runs
 *		with set_owner's rights, so it must be set_owner's own, or a
 *		superuser's.  A table of any other role is never taken up.
 */
bool
partmgr_owner_trusts(Oid set_owner, Oid object_owner)
{
	return object_owner == set_owner || superuser_arg(object_owner);
}

/*
 * partmgr_check_may_act_on
 *		Raise 42501, naming what (a set or a table) and its owner, unless
 *		partmgr_may_act_on.
 */
void
partmgr_check_may_act_on(Oid owner, const char *what)
{
	if (!partmgr_may_act_on(owner))
		report_no_rights(owner, what);
}

/*
 * rights_enter
 *		Start acting with owner's rights (see the file header) until
 *		partmgr_rights_leave.  With PARTMGR_RIGHTS_ACT the caller must have
 *		the owner's privileges (42501 naming what otherwise).  The caller is
 *		the current user; but a scope entered by pg_partmgr's own code inside
 *		another (a sub-set registered while its table is made) keeps the
 *		caller of the outer one.
 */
static void
rights_enter(Oid owner, PartmgrRightsMode mode, const char *what,
			 PartmgrRights *rights)
{
	Scope	   *outer = innermost();
	Scope	   *scope;
	Oid			userid;
	int			sec;
	Oid			caller;
	int			caller_sec;

	if (!callbacks_registered)
	{
		RegisterXactCallback(forget_aborted_xact, NULL);
		RegisterSubXactCallback(forget_aborted_subxact, NULL);
		callbacks_registered = true;
	}
	if (nscopes >= MAX_SCOPES)
		ereport(ERROR,
				(errcode(ERRCODE_STATEMENT_TOO_COMPLEX),
				 errmsg("pg_partmgr functions nested more than %d deep",
						MAX_SCOPES)));

	GetUserIdAndSecContext(&userid, &sec);
	if (outer != NULL && outer->owner_code == 0)
	{
		/* our own nesting: authority stays with whoever called us */
		caller = outer->caller;
		caller_sec = outer->caller_sec;
	}
	else
	{
		caller = userid;
		caller_sec = sec;
	}
	if (mode == PARTMGR_RIGHTS_ACT && !has_privs_of_role(caller, owner))
		report_no_rights(owner, what);

	scope = &scopes[nscopes];
	scope->owner = owner;
	scope->mode = mode;
	scope->caller = caller;
	scope->caller_sec = caller_sec;
	scope->entered_userid = userid;
	scope->entered_sec = sec;
	scope->owner_code = 0;
	scope->subid = GetCurrentSubTransactionId();
	scope->nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", PARTMGR_SAFE_SEARCH_PATH,
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
							 true, 0, false);

	/*
	 * Acting on a set, a statement must see and write every row: one that row
	 * security would filter for the owner (FORCE ROW LEVEL SECURITY) fails
	 * instead, naming the table, and nothing is moved or dropped.
	 */
	if (mode == PARTMGR_RIGHTS_ACT)
		(void) set_config_option("row_security", "off",
								 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
								 true, 0, false);
	SetUserIdAndSecContext(owner, sec | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	rights->level = ++nscopes;
}

/*
 * partmgr_rights_enter_table
 *		Enter a scope (rights_enter) for acting on the table relid (the parent
 *		of a set, what names it): to act, its owner must be able to use the
 *		table's schema, for every statement names the table there; 42501 with
 *		the grant otherwise.  On a table Citus manages, the caller's
 *		transaction switches to Citus's sequential mode first (citus.c): every
 *		read and change of a set begins here.
 */
void
partmgr_rights_enter_table(Oid relid, Oid owner, PartmgrRightsMode mode,
						   const char *what,
						   PartmgrRights *rights)
{
	const PartmgrKnownRel *known = partmgr_prefetched(relid);
	Oid			nspid = known != NULL ? known->nspoid : get_rel_namespace(relid);

	/*
	 * in the caller's GUC level, before the set's first multi-shard statement
	 */
	(void) partmgr_citus_sequential(relid);
	rights_enter(owner, mode, what, rights);
	if (mode == PARTMGR_RIGHTS_ACT &&
		partmgr_schema_aclcheck(nspid, owner, ACL_USAGE) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("role \"%s\", which owns \"%s\", may not use schema \"%s\"",
						GetUserNameFromId(owner, false), what,
						get_namespace_name(nspid)),
				 errdetail("pg_partmgr acts on a partition set with the rights of its parent table's owner."),
				 errhint("GRANT USAGE ON SCHEMA %s TO %s.",
						 quote_identifier(get_namespace_name(nspid)),
						 quote_identifier(GetUserNameFromId(owner, false)))));
}

/*
 * partmgr_rights_check_trigger_schema
 *		owner, who owns what, must be able to use schema partmgr before
 *		pg_partmgr puts one of its triggers on the owner's tables (why says
 *		what does: "a global unique constraint", "a reshape"): CREATE
 *		TRIGGER runs with the owner's rights and looks the trigger's
 *		function up there.  42501 with the grant otherwise, before anything
 *		is changed.  Maintenance and partition_data need no such grant.
 */
void
partmgr_rights_check_trigger_schema(Oid owner, const char *what,
									const char *why)
{
	Oid			nspid = get_namespace_oid(PARTMGR_SCHEMA, false);

	if (partmgr_schema_aclcheck(nspid, owner, ACL_USAGE) == ACLCHECK_OK)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("role \"%s\", which owns \"%s\", may not use schema \"%s\"",
					GetUserNameFromId(owner, false), what, PARTMGR_SCHEMA),
			 errdetail("%s puts a trigger on the owner's tables that calls a function of schema \"%s\", and CREATE TRIGGER looks the function up with the owner's rights.",
					   why, PARTMGR_SCHEMA),
			 errhint("GRANT USAGE ON SCHEMA %s TO %s.", PARTMGR_SCHEMA,
					 quote_identifier(GetUserNameFromId(owner, false)))));
}

/*
 * partmgr_rights_enter_trigger
 *		Enter a scope (rights_enter) with the rights of owner, who owns the
 *		table a pg_partmgr trigger fired on, without asking the caller for
 *		owner's privileges: the write that fired the trigger was allowed by
 *		the server already, and the trigger only keeps owner's own side
 *		table in step with it (global unique constraints).  The caller
 *		checks that what the trigger writes is owner's.
 */
void
partmgr_rights_enter_trigger(Oid owner, const char *what, PartmgrRights *rights)
{
	rights_enter(owner, PARTMGR_RIGHTS_LOOK, what, rights);
	/* the scope writes, as ACT scopes do; nobody's privileges were asked */
	scopes[nscopes - 1].mode = PARTMGR_RIGHTS_ACT;
}

/*
 * partmgr_rights_enter_set
 *		partmgr_rights_enter_table for a set's parent.
 */
void
partmgr_rights_enter_set(const PartmgrSet *set, PartmgrRightsMode mode,
						 PartmgrRights *rights)
{
	partmgr_rights_enter_table(set->parent_oid, set->parent_owner, mode,
							   set->key, rights);
}

/*
 * partmgr_rights_leave
 *		End the innermost scope: back to the user and security context it
 *		was entered with; settings changed inside it (by the owner's code
 *		too) are undone.
 */
void
partmgr_rights_leave(PartmgrRights *rights)
{
	Scope	   *scope = innermost();

	if (scope == NULL || rights->level != nscopes || scope->owner_code != 0 ||
		scope->subid != GetCurrentSubTransactionId())
		elog(ERROR, "pg_partmgr: rights scope left out of order");
	AtEOXact_GUC(false, scope->nestlevel);
	SetUserIdAndSecContext(scope->entered_userid, scope->entered_sec);
	nscopes--;
}

/*
 * partmgr_rights_require
 *		The level of the innermost scope, after checking that it allows mode
 *		and that its owner's rights are the current ones; a door into the
 *		owner's code (what names it) opened anywhere else is a bug in
 *		pg_partmgr.
 */
int
partmgr_rights_require(PartmgrRightsMode mode, const char *what)
{
	Scope	   *scope = innermost();
	Oid			userid;
	int			sec;

	GetUserIdAndSecContext(&userid, &sec);
	if (scope == NULL ||
		(mode == PARTMGR_RIGHTS_ACT && scope->mode != PARTMGR_RIGHTS_ACT) ||
		userid != scope->owner || (sec & SECURITY_RESTRICTED_OPERATION) == 0)
		elog(ERROR,
			 "pg_partmgr: %s outside the rights of a partition set's owner",
			 what);
	return nscopes;
}

/*
 * partmgr_rights_owner
 *		The owner whose rights the innermost scope acts with, or InvalidOid.
 */
Oid
partmgr_rights_owner(void)
{
	Scope	   *scope = innermost();

	return scope != NULL ? scope->owner : InvalidOid;
}

/*
 * partmgr_rights_caller
 *		Whose rights pg_partmgr's own tables are used with in the innermost
 *		scope (see partmgr_caller_begin); the current user outside scopes.
 */
Oid
partmgr_rights_caller(void)
{
	Scope	   *scope = innermost();

	return scope != NULL &&
		scope->owner_code == 0 ? scope->caller : GetUserId();
}

/*
 * partmgr_owner_code_begin, partmgr_owner_code_end
 *		Bracket a door into the owner's code (see the file header) in the
 *		scope at level: between them, a pg_partmgr function the owner's code
 *		calls runs with the owner's rights only.  The caller ends it in
 *		PG_FINALLY (when the scope is gone already, nothing is left to do).
 */
void
partmgr_owner_code_begin(int level)
{
	Assert(level == nscopes);
	scopes[level - 1].owner_code++;
}

void
partmgr_owner_code_end(int level)
{
	if (level <= nscopes && scopes[level - 1].owner_code > 0)
		scopes[level - 1].owner_code--;
}

/*
 * partmgr_caller_begin, partmgr_caller_end
 *		Bracket one statement on pg_partmgr's own tables or the system
 *		catalogs: inside a scope it runs with the caller's rights (search_path
 *		is pinned by the scope); elsewhere with the current user's, search_path
 *		pinned for the statement.  Inside a scope that acts on a set,
 *		row_security is on again for the statement: the row security of
 *		maintenance_log and reshape_operation is how the caller sees them.
 *		Code of the owner that calls pg_partmgr never reaches the caller's
 *		rights this way.  An error in between is
 *		cleaned up by the (sub)transaction's abort.
 */
void
partmgr_caller_begin(PartmgrCallerRights *saved)
{
	Scope	   *scope = innermost();

	GetUserIdAndSecContext(&saved->save_userid, &saved->save_sec);
	saved->nestlevel = 0;
	saved->switched = scope != NULL && scope->owner_code == 0;
	if (saved->switched)
	{
		SetUserIdAndSecContext(scope->caller, scope->caller_sec);
		/* the caller sees our own tables through their row security */
		if (scope->mode == PARTMGR_RIGHTS_ACT)
		{
			saved->nestlevel = NewGUCNestLevel();
			(void) set_config_option("row_security", "on",
									 PGC_USERSET, PGC_S_SESSION,
									 GUC_ACTION_SAVE,
									 true, 0, false);
		}
	}
	else
	{
		saved->nestlevel = NewGUCNestLevel();
		(void) set_config_option("search_path", PARTMGR_SAFE_SEARCH_PATH,
								 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
								 true, 0, false);
	}
}

void
partmgr_caller_end(PartmgrCallerRights *saved)
{
	if (saved->nestlevel > 0)
		AtEOXact_GUC(false, saved->nestlevel);
	if (saved->switched)
		SetUserIdAndSecContext(saved->save_userid, saved->save_sec);
}

/*
 * partmgr_call_owner_function
 *		Call fn(arg), a function the set's owner named (a time encoder or
 *		decoder), with the owner's rights: inside a scope only.
 */
Datum
partmgr_call_owner_function(Oid fn, Datum arg)
{
	int			level = partmgr_rights_require(PARTMGR_RIGHTS_LOOK,
											   "a call of a set's encoder or decoder");
	Datum		result;

	partmgr_owner_code_begin(level);
	PG_TRY();
	{
		result = OidFunctionCall1(fn, arg);
	}
	PG_FINALLY();
	{
		partmgr_owner_code_end(level);
	}
	PG_END_TRY();
	return result;
}

/*
 * partmgr_user_trigger
 *		The name of a trigger on relid that runs code a role wrote: one that
 *		is not PostgreSQL's own (foreign keys) nor made by the extension ext
 *		(InvalidOid: by none), and, with deferrable_only, one that can be
 *		deferred to commit; NULL when there is none.  Read from pg_trigger,
 *		so the table need not be locked.
 */
char *
partmgr_user_trigger(Oid relid, Oid ext, bool deferrable_only)
{
	Relation	pg_trigger = table_open(TriggerRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	char	   *found = NULL;

	ScanKeyInit(&key, Anum_pg_trigger_tgrelid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(relid));
	scan = systable_beginscan(pg_trigger, TriggerRelidNameIndexId, true, NULL,
							  1, &key);
	while (found == NULL && HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_trigger trigger = (Form_pg_trigger) GETSTRUCT(tuple);

		if (trigger->tgisinternal ||
			(deferrable_only && !trigger->tgdeferrable) ||
			(OidIsValid(ext) &&
			 getExtensionOfObject(ProcedureRelationId, trigger->tgfoid) == ext))
			continue;
		found = pstrdup(NameStr(trigger->tgname));
	}
	systable_endscan(scan);
	table_close(pg_trigger, AccessShareLock);
	return found;
}
