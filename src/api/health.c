/*-------------------------------------------------------------------------
 *
 * health.c
 *	  set_health(), behind the partmgr.health view: how each set the
 *	  caller may maintain stands -- how far its children reach ahead, rows
 *	  in its default partition, expired children not retired yet, a missing
 *	  default partition, gaps between children, what the maintenance log
 *	  says since its last good run, the privileges its owner lacks for the
 *	  maintenance (owner_grants.c) -- with a status word (ok, warning,
 *	  critical) and its reasons.
 *
 * It only reads: the configuration (config.c), the catalogs, the log
 * (log.c: two queries for all sets at once, with the caller's rights, so
 * row security shows the caller its own sets' rows), and of the set's tables,
 * with the owner's rights (rights.c), the first rows of the newest
 * children, the largest key of an id set's newest child holding rows (an
 * index on the key answers it), and of a default partition its planner
 * estimate, or its row count with p_exact.  Retention is planned
 * (retention.c) to count the children it would retire, not run.
 *
 * Locks: ACCESS SHARE on the children and default partitions looked into,
 * without queueing and bounded by pg_partmgr.lock_timeout (contents.c,
 * execute.c), held to the end of the caller's transaction; ACCESS SHARE on
 * the configuration and log tables.  No advisory lock.
 *
 * Transactions: the caller's.  Each set is looked at in a subtransaction
 * of its own: an error (a lock not granted in time, a broken
 * configuration) makes that set critical with the error as its reason and
 * does not stop the others.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/health.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_class.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "catalog/pg_trigger.h"

#include "bounds.h"
#include "catalog.h"
#include "config.h"
#include "contents.h"
#include "execute.h"
#include "locks.h"
#include "log.h"
#include "owner_grants.h"
#include "partition_data.h"
#include "plan.h"
#include "reshape.h"
#include "reshape_state.h"
#include "retention.h"
#include "rights.h"
#include "unique.h"
#include "archive.h"
#include "tiers.h"

PG_FUNCTION_INFO_V1(pg_partmgr_set_health);

/* rows a hash set holds before how they spread is told */
#define PARTMGR_HASH_SKEW_MIN_ROWS	10000

/* pg_class.reltuples of a table, 0 when unknown (-1) */
static int64
reltuples(Oid relid)
{
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	float4		tuples = 0;

	if (HeapTupleIsValid(tuple))
	{
		tuples = ((Form_pg_class) GETSTRUCT(tuple))->reltuples;
		ReleaseSysCache(tuple);
	}
	return tuples > 0 ? (int64) tuples : 0;
}

/* One set's health, as set_health returns it. */
typedef struct Health
{
	int			children;
	char	   *newest_upper;
	double		intervals_left;
	bool		have_left;
	TimestampTz runs_out_at;
	bool		have_runs_out;
	int64		default_rows;
	bool		have_default;
	int			expired;
	TimestampTz last_run;
	bool		have_last_run;
	const char *status;
	StringInfoData reasons;
} Health;

/* Add a reason, and raise the set's status to status if that is worse. */
static void
reason(Health *h, const char *status, const char *text)
{
	if (strcmp(status, "critical") == 0 ||
		(strcmp(status, "warning") == 0 && strcmp(h->status, "ok") == 0))
		h->status = status;
	appendStringInfo(&h->reasons, "%s%s", h->reasons.len > 0 ? "; " : "", text);
}

/*
 * unique_reasons
 *		What can weaken a set's global unique constraints: a side table
 *		missing or another role's (critical: inserts fail), the constraint
 *		disabled on the parent or on leaves (critical: rows are written
 *		unchecked), firing only on a replica (warning), leaves without the
 *		TRUNCATE trigger (warning: a TRUNCATE there leaves the keys in
 *		force, so inserts of them fail).
 */
static void
unique_reasons(Health *h, const PartmgrSet *set)
{
	ListCell   *lc;

	foreach(lc, partmgr_unique_list_of(set->parent_oid))
	{
		PartmgrUnique *u = lfirst(lc);
		int64		no_truncate;
		int64		disabled;

		if (!partmgr_unique_side_is_owners(u, set->parent_owner))
		{
			reason(h, "critical",
				   psprintf("global unique constraint %s: side table %s is missing or not the owner's",
							u->name,
							quote_qualified_identifier(u->side_schema,
													   u->side_name)));
			continue;
		}
		if (u->enabled == TRIGGER_DISABLED)
			reason(h, "critical",
				   psprintf("global unique constraint %s is disabled: rows are written unchecked",
							u->name));
		else if (u->enabled == TRIGGER_FIRES_ON_REPLICA)
			reason(h, "warning",
				   psprintf("global unique constraint %s fires only for replicated rows",
							u->name));
		partmgr_unique_leaves_unguarded(u, &no_truncate, &disabled);
		if (disabled > 0 && u->enabled != TRIGGER_DISABLED)
			reason(h, "critical",
				   psprintf("global unique constraint %s is disabled on " INT64_FORMAT " children: rows there are written unchecked",
							u->name, disabled));
		if (no_truncate > 0)
			reason(h, "warning",
				   psprintf("global unique constraint %s: " INT64_FORMAT
							" children lack its TRUNCATE trigger (reapply_child_properties() adds it)",
							u->name, no_truncate));
	}
}

/* One set being looked at (assess_set). */
typedef struct HealthRun
{
	const char *key;
	bool		exact;
	HTAB	   *facts;
	Health	   *health;
	bool		not_permitted;	/* the caller lacks the owner's privileges */
} HealthRun;

/*
 * count_gaps
 *		How many holes there are between consecutive children: values no
 *		child takes, which go to the default partition (or fail).
 */
static int
count_gaps(const PartmgrTree *tree)
{
	int			gaps = 0;

	for (int i = 1; i < tree->nchildren; i++)
	{
		if (tree->children[i - 1].upper < tree->children[i].lower)
			gaps++;
	}
	return gaps;
}

static void assess_set_as_owner(HealthRun *run, PartmgrSet *set);

/*
 * reshape_reasons
 *		Reshapes of the set not finished (warning: its old and new children
 *		stand side by side, and the change log grows until it is done),
 *		with the error that stopped one.
 */
static void
reshape_reasons(Health *h, const PartmgrSet *set)
{
	ListCell   *lc;

	foreach(lc, partmgr_reshape_list(set->key))
	{
		PartmgrReshapeOp *op = lfirst(lc);

		/*
		 * a move to a tier goes on run after run: a warning once it failed,
		 * or stood still for a day
		 */
		if (partmgr_reshape_is_move(op) && op->last_error == NULL &&
			TimestampDifferenceExceeds(op->updated_at, GetCurrentTimestamp(),
									   USECS_PER_DAY / 1000) == false)
			continue;
		reason(h, "warning",
			   psprintf("reshape " INT64_FORMAT
						" (%s) is in phase %s since %s%s%s: run_reshape() finishes it, cancel_reshape() undoes it",
						op->id, op->kind, partmgr_reshape_phase_name(op->phase),
						timestamptz_to_str(op->updated_at),
						op->last_error ? "; it last failed: " : "",
						op->last_error ? op->last_error : ""));
	}
}

/*
 * tier_reasons
 *		Tiers that move nothing (warning): a tablespace gone, or one the
 *		owner may not create in; an archive that takes nothing (gone, no
 *		longer a set, another owner's, other columns).
 */
static void
tier_reasons(Health *h, PartmgrSet *set)
{
	ListCell   *lc;

	foreach(lc, partmgr_tier_problems(set))
		reason(h, "warning", (char *) lfirst(lc));
	foreach(lc, partmgr_archive_problems(set))
		reason(h, "warning", (char *) lfirst(lc));
}

/*
 * owner_reasons
 *		Children (and the default partition) another role owns than the
 *		set's owner, superusers aside (critical): pg_partmgr acts on none of
 *		them (see work.c's check_owner), so they are neither retired nor
 *		given rows, and no row leaves them.
 */
static void
owner_reasons(Health *h, const PartmgrSet *set, const PartmgrTree *tree)
{
	int			n = 0;
	Oid			first = InvalidOid;
	Oid			first_owner = InvalidOid;

	for (int i = -1; i < tree->nchildren; i++)
	{
		Oid			relid = i < 0 ? tree->default_oid : tree->children[i].relid;
		Oid			owner;

		if (!OidIsValid(relid))
			continue;
		owner = partmgr_foreign_owner(relid, set->parent_owner);
		if (!OidIsValid(owner))
			continue;
		if (n++ == 0)
		{
			first = relid;
			first_owner = owner;
		}
	}
	if (n > 0)
		reason(h, "critical",
			   psprintf("%d %s owned by another role than the set's owner"
						" (%s, by role %s): pg_partmgr does not act on %s"
						" until ALTER TABLE ... OWNER TO %s",
						n, n == 1 ? "table of the set is" :
						"tables of the set are",
						partmgr_key_display(partmgr_table_key(first)),
						quote_identifier(GetUserNameFromId(first_owner, false)),
						n == 1 ? "it" : "them",
						quote_identifier(GetUserNameFromId(set->parent_owner,
														   false))));
}

/*
 * hash_reasons
 *		A hash set: remainders no child holds (critical: rows there are
 *		refused), and a child that holds more than twice the rows of the
 *		average child, by the planner's estimates, once the set holds rows
 *		enough to tell (warning: split_hash_partition() divides it without
 *		touching the others, and so brings it nearer the average; a child
 *		measured against the share its modulus gives it would stay over
 *		any bound a split can bring its halves under).
 */
static void
hash_reasons(Health *h, const PartmgrTree *tree)
{
	double		covered = 0;
	double		total = 0;
	double	   *rows = palloc0(sizeof(double) * Max(tree->nchildren, 1));

	for (int i = 0; i < tree->nchildren; i++)
	{
		covered += 1.0 / tree->children[i].modulus;
		rows[i] = (double) reltuples(tree->children[i].relid);
		total += rows[i];
	}
	if (tree->nchildren > 0 && covered < 1.0 - 1e-9)
		reason(h, "critical",
			   psprintf("its children hold %.1f%% of the hash remainders: rows of the others are refused",
						covered * 100));
	if (total < PARTMGR_HASH_SKEW_MIN_ROWS)
		return;
	for (int i = 0; i < tree->nchildren; i++)
	{
		double		average = 1.0 / tree->nchildren;
		double		share = rows[i] / total;

		if (share > 2 * average)
			reason(h, "warning",
				   psprintf("child %s holds %.1f%% of the rows, more than twice the average child's %.1f%% (split_hash_partition() divides it)",
							quote_qualified_identifier(tree->children[i].schema,
													   tree->children[i].name),
							share * 100, average * 100));
	}
}

/*
 * grant_reasons
 *		The privileges the owner lacks that the set's maintenance fails
 *		without (owner_grants.c), each a critical reason with its GRANT.
 *		Returns true when there is one: the set is not looked into further
 *		(without USAGE on the parent's schema nothing can be read as the
 *		owner, and the rest would only restate the same failure).
 */
static bool
grant_reasons(Health *h, const PartmgrSet *set)
{
	bool		any = false;
	ListCell   *lc;

	foreach(lc, partmgr_set_missing_grants(set, InvalidOid))
	{
		PartmgrMissingGrant *m = (PartmgrMissingGrant *) lfirst(lc);

		if (!m->required)
			continue;
		reason(h, "critical",
			   psprintf("the owner lacks %s ON %s %s, needed for %s (%s)",
						m->privilege, m->object_kind, m->object, m->needed_for,
						m->grant_sql));
		any = true;
	}
	return any;
}

/*
 * assess_set
 *		Look at one set: children, how far its children reach ahead of its
 *		data (of now, for time sets), rows in the default partition,
 *		expired children retention has not removed yet, a default partition
 *		the set should have and does not, holes between children, and the
 *		log.  Reads the set's tables with the owner's rights; a set the
 *		caller may not maintain is left out (run->not_permitted).  Runs in a
 *		subtransaction: an error makes the set critical.
 */
static void
assess_set(void *arg)
{
	HealthRun  *run = (HealthRun *) arg;
	PartmgrSet *set = partmgr_config_load(run->key, false);
	PartmgrRights rights;

	if (!partmgr_may_act_on(set->parent_owner))
	{
		run->not_permitted = true;
		return;
	}
	if (grant_reasons(run->health, set))
		return;
	partmgr_rights_enter_set(set, PARTMGR_RIGHTS_ACT, &rights);
	assess_set_as_owner(run, set);
	partmgr_rights_leave(&rights);
}

static void
assess_set_as_owner(HealthRun *run, PartmgrSet *set)
{
	Health	   *h = run->health;
	PartmgrTree *tree = partmgr_read_tree(set);
	const PartmgrChild *newest = partmgr_newest_child_with_rows(tree);
	const PartmgrChild *last = tree->nchildren > 0 ? &tree->children[tree->nchildren - 1] : NULL;
	TimestampTz now = GetCurrentTransactionStartTimestamp();
	PartmgrRetention retention;
	PartmgrLogFacts *facts;
	int			gaps;

	h->children = tree->nchildren;
	if (set->strategy == PARTITION_STRATEGY_HASH)
	{
		/* no bounds, no default partition, no retention: how rows spread */
		if (last == NULL)
			reason(h, "critical", "no child");
		hash_reasons(h, tree);
		owner_reasons(h, set, tree);
		h->have_last_run = !set->maintenance_last_run_isnull;
		h->last_run = set->maintenance_last_run;
		unique_reasons(h, set);
		reshape_reasons(h, set);
		return;
	}
	if (last != NULL && last->upper != PARTMGR_POINT_MAX)
		h->newest_upper = partmgr_point_display(&set->axis, last->upper);
	/* how far the children reach */
	if (last != NULL && last->upper != PARTMGR_POINT_MAX)
	{
		PartmgrPoint from = PARTMGR_POINT_MIN;

		if (set->axis.kind == PARTMGR_KEY_TIME)
			from = partmgr_point_now(&set->axis, now);
		else if (newest != NULL)
			(void) partmgr_max_control(set, newest->schema, newest->name, true,
									   &from);
		if (from != PARTMGR_POINT_MIN)
		{
			h->intervals_left = partmgr_steps_between(&set->axis, &set->step,
													  from, last->upper);
			h->have_left = true;
		}
		if (set->axis.kind == PARTMGR_KEY_TIME)
		{
			h->runs_out_at = partmgr_point_to_timestamptz(&set->axis,
														  last->upper);
			h->have_runs_out = true;
		}
	}

	owner_reasons(h, set, tree);

	/* rows in the default partition */
	if (OidIsValid(tree->default_oid))
	{
		partmgr_lock_relation(tree->default_oid, AccessShareLock);
		h->have_default = true;
		if (partmgr_has_no_blocks(tree->default_oid))
			h->default_rows = 0;
		else if (run->exact)
			h->default_rows = partmgr_count_rows(tree->default_schema,
												 tree->default_name, true);
		else
		{
			/*
			 * the planner's estimate; at least one if it has never been
			 * counted
			 */
			PartmgrChild def;

			memset(&def, 0, sizeof(def));
			def.relid = tree->default_oid;
			def.schema = tree->default_schema;
			def.name = tree->default_name;
			def.relkind = get_rel_relkind(tree->default_oid);
			h->default_rows = reltuples(tree->default_oid);
			if (h->default_rows == 0 && partmgr_child_has_rows(&def))
				h->default_rows = 1;
		}
	}

	/* retention not done yet */
	if (partmgr_retention_from_config(set, &retention))
	{
		ListCell   *lc;

		foreach(lc,
				partmgr_plan_retention(set, tree, &retention, now, 0)->actions)
			h->expired += ((PartmgrAction *) lfirst(lc))->kind == PARTMGR_ACTION_RETIRE_CHILD;
	}

	h->have_last_run = !set->maintenance_last_run_isnull;
	h->last_run = set->maintenance_last_run;

	/* what it means */
	facts = partmgr_log_find_facts(run->facts, set->key);
	if (set->axis.kind == PARTMGR_KEY_ID && h->have_left && facts != NULL &&
		facts->ncreated == 2 && facts->created[0] > facts->created[1] &&
		facts->latest_children > 0)
	{
		/*
		 * Between two runs that made children the data advanced as many
		 * intervals as the later run made children: that is the pace.
		 */
		double		per_interval = (double) (facts->created[0] -
											 facts->created[1]) /
		facts->latest_children;

		h->runs_out_at = now + (TimestampTz) (h->intervals_left * per_interval);
		h->have_runs_out = true;
	}
	if (set->has_limits && last != NULL &&
		(last->upper >= set->limit_upper ||
		 (set->axis.kind == PARTMGR_KEY_TIME &&
		  (partmgr_point_now(&set->axis, now) < set->limit_lower ||
		   partmgr_point_now(&set->axis, now) >= set->limit_upper))))
	{
		/*
		 * a sub-set whose children reach the end of the range its table
		 * covers, or whose range does not hold the current time: nothing is
		 * missing ahead
		 */
		h->have_left = false;
	}
	if (last == NULL)
		reason(h, "critical", "no child");
	else if (h->have_left &&
			 h->intervals_left < (set->axis.kind == PARTMGR_KEY_TIME ? 0 : 1))
		reason(h, "critical", set->axis.kind == PARTMGR_KEY_TIME ?
			   "no child for the current time: new rows go to the default partition" :
			   "the newest child holding rows is the last child");
	else if (h->have_left && h->intervals_left < set->premake)
		reason(h, "warning",
			   psprintf("%.1f intervals of children ahead, premake is %d",
						h->intervals_left, set->premake));
	if (h->have_default && h->default_rows > 0)
		reason(h, "warning",
			   psprintf(INT64_FORMAT "%s rows in the default partition",
						h->default_rows, run->exact ? "" :
						" (estimated)"));
	if (set->default_table && !OidIsValid(tree->default_oid))
		reason(h, "warning",
			   pstrdup("no default partition: a row outside every child is refused"));
	gaps = count_gaps(tree);
	if (gaps > 0)
		reason(h, "warning", gaps == 1 ?
			   pstrdup("1 gap between children: rows there go to the default partition (partition_gap_fill() fills them)") :
			   psprintf("%d gaps between children: rows there go to the default partition (partition_gap_fill() fills them)",
						gaps));
	if (h->expired > 0)
		reason(h, "warning",
			   psprintf("%d expired children not retired yet", h->expired));
	if (set->async_in_progress != NULL)
		reason(h, "warning",
			   psprintf("partition_data_async is filling the child from %s: its rows are not visible until it is attached",
						set->async_in_progress));
	if (!get_rel_relispartition(set->parent_oid))
		unique_reasons(h, set);
	reshape_reasons(h, set);
	tier_reasons(h, set);
	if (facts != NULL && facts->error != NULL &&
		(!h->have_last_run || facts->error_at > h->last_run))
		reason(h, strcmp(facts->error_outcome, "failed") == 0 ? "critical" :
			   "warning",
			   psprintf("since the last successful run: %s", facts->error));
}

/*
 * pg_partmgr_set_health
 *		set_health(p_exact): one row per set the caller may maintain (every
 *		set for a superuser, whatever its automatic_maintenance), read with
 *		the set owner's rights, with how it stands and a status word -- ok,
 *		warning or critical -- with its reasons; behind the partmgr.health
 *		view.  Reads: the catalogs, the newest children's first rows, the
 *		largest id of an id set's newest child holding rows (an index on the
 *		key answers it), and the log (two queries for all sets); p_exact
 *		counts the rows of default partitions that hold any.
 */
Datum
pg_partmgr_set_health(PG_FUNCTION_ARGS)
{
	bool		exact = !PG_ARGISNULL(0) && PG_GETARG_BOOL(0);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	HTAB	   *facts;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	facts = partmgr_log_read_facts();
	foreach(lc, partmgr_config_list(false))
	{
		HealthRun	run;
		Health		h;
		ErrorData  *edata = NULL;
		Datum		values[12];
		bool		nulls[12] = {false};

		memset(&h, 0, sizeof(h));
		h.status = "ok";
		initStringInfo(&h.reasons);
		run.key = (const char *) lfirst(lc);
		run.exact = exact;
		run.facts = facts;
		run.health = &h;
		run.not_permitted = false;
		if (!partmgr_run_subxact(assess_set, &run, &edata))
		{
			memset(&h, 0, sizeof(h));
			h.status = "ok";
			initStringInfo(&h.reasons);
			reason(&h, "critical", psprintf("maintenance would fail (%s): %s",
											unpack_sql_state(edata->sqlerrcode),
											edata->message));
		}
		else if (run.not_permitted)
			continue;			/* not the caller's to look into */

		values[0] = CStringGetTextDatum(run.key);
		values[1] = Int32GetDatum(h.children);
		nulls[2] = h.newest_upper == NULL;
		if (h.newest_upper)
			values[2] = CStringGetTextDatum(h.newest_upper);
		nulls[3] = !h.have_left;
		values[3] = DirectFunctionCall1(float8_numeric,
										Float8GetDatum(rint(h.intervals_left * 10) / 10));
		nulls[4] = !h.have_runs_out;
		values[4] = TimestampTzGetDatum(h.runs_out_at);
		nulls[5] = !h.have_default;
		values[5] = Int64GetDatum(h.default_rows);
		values[6] = Int32GetDatum(h.expired);
		nulls[7] = !h.have_last_run;
		values[7] = TimestampTzGetDatum(h.last_run);
		values[8] = CStringGetTextDatum(h.status);
		nulls[9] = h.reasons.len == 0;
		values[9] = CStringGetTextDatum(h.reasons.data);
		nulls[10] = true;
		nulls[11] = true;
		{
			PartmgrLogFacts *f = partmgr_log_find_facts(facts, run.key);

			if (f != NULL && f->error != NULL)
			{
				nulls[10] = nulls[11] = false;
				values[10] = CStringGetTextDatum(f->error);
				values[11] = TimestampTzGetDatum(f->error_at);
			}
		}
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	SPI_finish();
	return (Datum) 0;
}
