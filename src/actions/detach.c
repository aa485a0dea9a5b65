/*-------------------------------------------------------------------------
 *
 * detach.c
 *	  Retire a child with DETACH ... CONCURRENTLY, outside any transaction.
 *
 * DETACH CONCURRENTLY commits in the middle, so it cannot run in a
 * transaction block nor in a security-restricted operation: the background
 * worker runs it after committing a set's transaction, as the set's owner,
 * through a portal of its own, with lock_timeout bounding how long it waits
 * for queries that use the child.  What follows the detach (drop, move,
 * trim, forgetting sub-sets) runs in a transaction of its own, in the
 * scope of the owner's rights, and is logged like any action.  An
 * interrupted detach leaves the child "detach pending"; the next run
 * finishes it (FINALIZE_DETACH).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/actions/detach.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "catalog/pg_namespace.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "storage/proc.h"
#include "storage/sinvaladt.h"
#include "tcop/pquery.h"
#include "tcop/tcopprot.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/portal.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "catalog.h"
#include "config.h"
#include "statements.h"
#include "detach.h"
#include "execute.h"
#include "work.h"
#include "log.h"
#include "rights.h"
#include "spi_util.h"

/*
 * run_top_level
 *		Run one SQL statement as if a client had sent it on its own, outside
 *		any transaction block, so that statements that manage their own
 *		transactions (DETACH ... CONCURRENTLY) can run.  Called with no
 *		transaction open; leaves none open.  Raises the statement's errors,
 *		with the transaction still to be aborted by the caller.
 */
static void
run_top_level(const char *sql)
{
	RawStmt    *parsetree;
	List	   *plantrees;
	Portal		portal;
	DestReceiver *receiver;
	QueryCompletion qc;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	parsetree = linitial_node(RawStmt, pg_parse_query(sql));
	plantrees = pg_plan_queries(pg_analyze_and_rewrite_fixedparams(parsetree,
																   sql,
																   NULL, 0,
																   NULL),
								sql, CURSOR_OPT_PARALLEL_OK, NULL);
	portal = CreatePortal("", true, true);
	portal->visible = false;
	PortalDefineQuery(portal, NULL, sql, CreateCommandTag(parsetree->stmt),
					  plantrees, NULL);
	PortalStart(portal, NULL, 0, InvalidSnapshot);
	receiver = CreateDestReceiver(DestNone);
	(void) PortalRun(portal, FETCH_ALL, true, true, receiver, receiver, &qc);
	receiver->rDestroy(receiver);
	PortalDrop(portal, false);
	CommitTransactionCommand();
}

/*
 * partmgr_retire_concurrently
 *		Retire one expired child with DETACH ... CONCURRENTLY, which takes
 *		only SHARE UPDATE EXCLUSIVE on the parent, then (in a transaction of
 *		its own) drop, move or trim it as the action says; record the outcome
 *		in the maintenance log.  For the background worker: called with no
 *		transaction open.  The detach waits for queries that use the child at
 *		most pg_partmgr.lock_timeout; when interrupted, the child stays
 *		"detach pending" and the next run finishes it.  Raises nothing but a
 *		query cancel or a shutdown.
 */
void
partmgr_retire_concurrently(const PartmgrPlan *plan,
							const PartmgrAction *action,
							const char *run_by, MemoryContext cxt)
{
	const PartmgrSet *set = plan->set;
	TimestampTz started = GetCurrentTimestamp();
	Oid			save_userid;
	int			save_sec_context;
	ErrorData  *edata = NULL;
	char	   *saved_timeout = pstrdup(GetConfigOption("lock_timeout", false,
														false));
	volatile bool detached = false;
	List	   *forget;
	PartmgrActionWork work;
	ListCell   *lc;

	Assert(!IsTransactionState());
	Assert(action->kind == PARTMGR_ACTION_RETIRE_CHILD &&
		   action->retire.concurrently);
	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetConfigOption("lock_timeout", psprintf("%d", partmgr_lock_timeout),
					PGC_SUSET, PGC_S_SESSION);
	PG_TRY();
	{
		PartmgrRights rights;

		/*
		 * The detach commits in the middle, so it cannot run inside a
		 * security-restricted operation (which lives in one transaction); it
		 * runs as the owner, and evaluates nothing the owner defined. What
		 * follows runs in a scope of the owner's rights as usual.
		 */
		partmgr_check_may_act_on(set->parent_owner, set->key);
		SetUserIdAndSecContext(set->parent_owner,
							   save_sec_context | SECURITY_LOCAL_USERID_CHANGE);
		run_top_level(partmgr_ddl_detach(set, action->schema, action->name,
										 " CONCURRENTLY"));
		SetUserIdAndSecContext(save_userid, save_sec_context);
		detached = true;
		SetCurrentStatementStartTimestamp();
		StartTransactionCommand();
		SPI_connect();
		PushActiveSnapshot(GetTransactionSnapshot());
		forget = (get_rel_relkind(action->relid) == RELKIND_PARTITIONED_TABLE ?
				  partmgr_sub_parents_below(action->relid) : NIL);
		partmgr_rights_enter_set(set, PARTMGR_RIGHTS_ACT, &rights);
		memset(&work, 0, sizeof(work));
		partmgr_work_unique_forget(&work, set->parent_oid, action->relid);
		partmgr_work_retire(&work, action);
		foreach(lc, work.statements)
		{
			PartmgrWorkStatement *stmt = (PartmgrWorkStatement *) lfirst(lc);

			if (stmt->kind == PARTMGR_STMT_CALLER_UTILITY)
				partmgr_spi_exec(stmt->sql, 0, NULL, NULL, NULL, false,
								 SPI_OK_UTILITY);
			else if (stmt->kind == PARTMGR_STMT_UNIQUE_FORGET)
				(void) partmgr_spi_table_exec(stmt->sql, 0, NULL, NULL, NULL,
											  false,
											  SPI_OK_DELETE);
			else
				partmgr_spi_table_utility(stmt->sql);
		}
		partmgr_rights_leave(&rights);
		if (forget != NIL)
			partmgr_config_forget(forget);
		partmgr_log_action(set->key, run_by, partmgr_action_name(action),
						   quote_qualified_identifier(action->schema,
													  action->name),
						   partmgr_action_bounds(plan, action), started,
						   PARTMGR_OUTCOME_DONE, NULL);
		SPI_finish();
		PopActiveSnapshot();
		CommitTransactionCommand();
		partmgr_report_done(plan, action, 0, NULL, true);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		AbortCurrentTransaction();
		SetUserIdAndSecContext(save_userid, save_sec_context);
		/* a session setting, outside any transaction: restored by hand */
		SetConfigOption("lock_timeout", saved_timeout, PGC_SUSET,
						PGC_S_SESSION);
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED ||
			edata->sqlerrcode == ERRCODE_ADMIN_SHUTDOWN)
			ReThrowError(edata);
	}
	PG_END_TRY();
	SetConfigOption("lock_timeout", saved_timeout, PGC_SUSET, PGC_S_SESSION);

	if (edata != NULL)
	{
		bool		kept = (partmgr_explain_failure(plan, action, edata) ||
							edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE);

		if (detached)
			edata->detail = psprintf("The partition was detached; what retention does next with it failed.%s%s",
									 edata->detail ? " " : "",
									 edata->detail ? edata->detail : "");
		edata->elevel = WARNING;
		ThrowErrorData(edata);

		SetCurrentStatementStartTimestamp();
		StartTransactionCommand();
		SPI_connect();
		PushActiveSnapshot(GetTransactionSnapshot());
		partmgr_log_action(set->key, run_by, partmgr_action_name(action),
						   quote_qualified_identifier(action->schema,
													  action->name),
						   partmgr_action_bounds(plan, action), started,
						   kept && !detached ? PARTMGR_OUTCOME_SKIPPED :
						   PARTMGR_OUTCOME_FAILED,
						   edata);
		SPI_finish();
		PopActiveSnapshot();
		CommitTransactionCommand();
	}
}
