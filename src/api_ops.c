/*-------------------------------------------------------------------------
 *
 * api_ops.c
 *	  SQL-callable functions for operators: plan_maintenance (what the next
 *	  run would do, without doing it) and set_health (behind the
 *	  partmgr.health view).
 *
 * Both only read: catalogs, the configuration, the maintenance log and, for
 * tables whose contents decide what maintenance does, their first rows.
 * The only locks are ACCESS SHARE, taken without queueing.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api_ops.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "commands/extension.h"
#include "catalog/partition.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"
#include "catalog/pg_class.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "api.h"
#include "bounds.h"
#include "children.h"
#include "config.h"
#include "constraints.h"
#include "contents.h"
#include "ddl.h"
#include "execute.h"
#include "locks.h"
#include "partition_data.h"
#include "properties.h"
#include "retention.h"
#include "rights.h"
#include "setup.h"
#include "spi_util.h"
#include "work.h"

PG_FUNCTION_INFO_V1(pg_partmgr_plan_maintenance);

/* One row of plan_maintenance, kept until the set is done. */
typedef struct PlanRow
{
	char	   *action;
	char	   *object;
	char	   *detail;
	List	   *statements;		/* of char * */
	List	   *locks;			/* of char * */
	List	   *reads;			/* of char * */
	char	   *note;
} PlanRow;

typedef struct SetPlans
{
	const char *key;
	List	   *rows;			/* of PlanRow * */
} SetPlans;

static Datum
text_array(List *items)
{
	Datum	   *elems;
	ListCell   *lc;

	if (items == NIL)
		return PointerGetDatum(construct_empty_array(TEXTOID));
	elems = palloc(sizeof(Datum) * list_length(items));
	foreach(lc, items)
		elems[foreach_current_index(lc)] = CStringGetTextDatum((char *) lfirst(lc));
	return PointerGetDatum(construct_array(elems, list_length(items), TEXTOID, -1, false,
										   TYPALIGN_INT));
}

/*
 * plan_rows
 *		The rows of one plan: each action worked out as a run would, without
 *		its locks.  note_add goes on the rows that add constraints.
 */
static void
plan_rows(SetPlans *out, const PartmgrPlan *plan, const char *note_all, const char *note_add)
{
	ListCell   *lc;

	foreach(lc, plan->actions)
	{
		const PartmgrAction *action = (const PartmgrAction *) lfirst(lc);
		PartmgrActionWork work;
		PlanRow    *row = palloc0(sizeof(PlanRow));
		ListCell   *item;

		memset(&work, 0, sizeof(work));
		partmgr_action_work(plan, action, &work);
		row->action = pstrdup(partmgr_action_name(action));
		row->object = quote_qualified_identifier(action->schema, action->name);
		row->detail = partmgr_action_bounds(plan, action);
		foreach(item, work.statements)
			row->statements = lappend(row->statements,
									  ((PartmgrWorkStatement *) lfirst(item))->sql);
		foreach(item, work.locks)
		{
			PartmgrWorkLock *lock = (PartmgrWorkLock *) lfirst(item);

			/* a child this plan creates has no OID yet */
			row->locks = lappend(row->locks,
								 psprintf("%s %s",
										  OidIsValid(lock->relid) ?
										  quote_qualified_identifier(get_namespace_name(get_rel_namespace(lock->relid)),
																	 get_rel_name(lock->relid)) :
										  row->object,
										  partmgr_lock_mode_name(lock->mode)));
		}
		row->reads = work.reads;
		if (work.skip != NULL)
			row->note = psprintf("a run would skip it: %s", work.skip);
		else if (action->kind == PARTMGR_ACTION_ADD_CONSTRAINTS && note_add != NULL)
			row->note = pstrdup(note_add);
		else
			row->note = note_all ? pstrdup(note_all) : NULL;
		out->rows = lappend(out->rows, row);
	}
}

static int
compare_children(const void *a, const void *b)
{
	PartmgrPoint x = ((const PartmgrChild *) a)->lower;
	PartmgrPoint y = ((const PartmgrChild *) b)->lower;

	return x < y ? -1 : x > y;
}

/*
 * tree_after
 *		The children of a set as they will be once a plan has run: the
 *		children it creates added (with no OID yet: they hold no rows), those
 *		it retires removed.  The next step of a dry run is planned from it,
 *		as the run plans it from the children it finds then.
 */
static PartmgrTree *
tree_after(const PartmgrTree *tree, const PartmgrPlan *plan)
{
	PartmgrTree *after = palloc(sizeof(PartmgrTree));
	int			n = 0;
	ListCell   *lc;

	*after = *tree;
	after->children = palloc(sizeof(PartmgrChild) * (tree->nchildren + list_length(plan->actions) + 1));
	for (int i = 0; i < tree->nchildren; i++)
	{
		bool		retired = false;

		foreach(lc, plan->actions)
		{
			const PartmgrAction *action = (const PartmgrAction *) lfirst(lc);

			if (action->kind == PARTMGR_ACTION_RETIRE_CHILD &&
				strcmp(action->schema, tree->children[i].schema) == 0 &&
				strcmp(action->name, tree->children[i].name) == 0)
				retired = true;
		}
		if (!retired)
			after->children[n++] = tree->children[i];
	}
	foreach(lc, plan->actions)
	{
		const PartmgrAction *action = (const PartmgrAction *) lfirst(lc);
		PartmgrChild *child;

		if (action->kind != PARTMGR_ACTION_CREATE_CHILD)
			continue;
		child = &after->children[n++];
		memset(child, 0, sizeof(*child));
		child->schema = action->schema;
		child->name = action->name;
		child->relkind = RELKIND_RELATION;
		child->lower = action->lower;
		child->upper = action->upper;
	}
	after->nchildren = n;
	qsort(after->children, n, sizeof(PartmgrChild), compare_children);
	return after;
}

/* The state of a dry run of one set, step to step. */
typedef struct SetDryRun
{
	SetPlans   *out;
	bool		all_sets;		/* leave out sets the caller may not maintain */
	PartmgrSet *set;
	PartmgrTree *tree;			/* the children as the step will find them */
	TimestampTz now;
} SetDryRun;

/*
 * note_truncated
 *		A row saying that a plan stopped at pg_partmgr.children_per_transaction.
 */
static void
note_truncated(SetPlans *out, const PartmgrPlan *plan, const char *action)
{
	PlanRow    *row;

	if (!plan->truncated)
		return;
	row = palloc0(sizeof(PlanRow));
	row->action = (char *) action;
	row->note = psprintf("more is left than one transaction does (pg_partmgr.children_per_transaction = %d): the background worker and run_maintenance_proc() go on in a new transaction, run_maintenance() at its next call",
						 partmgr_children_per_transaction);
	out->rows = lappend(out->rows, row);
}

/* premake, as the run plans it */
static void
dry_premake(void *arg)
{
	SetDryRun  *dry = (SetDryRun *) arg;
	PartmgrPlan *plan;
	PartmgrRights rights;

	dry->set = partmgr_config_load(dry->out->key, false);
	if (dry->all_sets && !partmgr_may_act_on(dry->set->parent_owner))
	{
		dry->set = NULL;		/* not the caller's: a run leaves it out too */
		return;
	}
	if (dry->set->undo_in_progress || dry->set->async_in_progress != NULL)
	{
		PlanRow    *row = palloc0(sizeof(PlanRow));

		row->action = "maintain set";
		row->note = dry->set->undo_in_progress ? "skipped: undo_partition is in progress" :
			"skipped: partition_data_async is filling a child";
		dry->out->rows = lappend(dry->out->rows, row);
		dry->set = NULL;
		return;
	}
	partmgr_rights_enter_set(dry->set, PARTMGR_RIGHTS_ACT, &rights);
	dry->tree = partmgr_read_tree(dry->set);
	plan = partmgr_plan_premake(dry->set, dry->tree, dry->now,
								partmgr_children_per_transaction);
	partmgr_plan_tables(plan);
	plan_rows(dry->out, plan, NULL, NULL);
	note_truncated(dry->out, plan, "maintain set");
	dry->tree = tree_after(dry->tree, plan);
	partmgr_rights_leave(&rights);
}

/* retention, planned from the children premake leaves */
static void
dry_retention(void *arg)
{
	SetDryRun  *dry = (SetDryRun *) arg;
	PartmgrRetention retention;
	PartmgrPlan *plan;
	PartmgrRights rights;

	partmgr_rights_enter_set(dry->set, PARTMGR_RIGHTS_ACT, &rights);
	if (partmgr_retention_from_config(dry->set, &retention))
	{
		plan = partmgr_plan_retention(dry->set, dry->tree, &retention, dry->now,
									  partmgr_children_per_transaction);
		plan_rows(dry->out, plan,
				  OidIsValid(dry->tree->default_oid) ? NULL :
				  "the background worker detaches with DETACH ... CONCURRENTLY instead", NULL);
		note_truncated(dry->out, plan, "apply retention");
		dry->tree = tree_after(dry->tree, plan);
	}
	partmgr_rights_leave(&rights);
}

/* derived constraints, planned from the children retention leaves */
static void
dry_constraints(void *arg)
{
	SetDryRun  *dry = (SetDryRun *) arg;
	PartmgrRights rights;

	partmgr_rights_enter_set(dry->set, PARTMGR_RIGHTS_ACT, &rights);
	plan_rows(dry->out, partmgr_plan_constraints(dry->set, dry->tree, PARTMGR_CONSTRAIN_PASS),
			  NULL, dry->set->constraint_valid ?
			  "validated in a later transaction (the worker and run_maintenance_proc: right after)" :
			  NULL);
	partmgr_rights_leave(&rights);
}

/*
 * plan_set
 *		What a run would do to one set, step by step as the run does it --
 *		premake, then retention, then derived constraints, each planned from
 *		the children the step before leaves -- each step in a
 *		subtransaction: a step that would fail ends the set with a row that
 *		says so, as it ends the run's work on the set.
 */
static void
plan_set(SetPlans *out, bool all_sets)
{
	static void (*const steps[]) (void *) = {dry_premake, dry_retention, dry_constraints};
	static const char *const names[] = {"maintain set", "apply retention", "apply constraints"};
	SetDryRun	dry;

	memset(&dry, 0, sizeof(dry));
	dry.out = out;
	dry.all_sets = all_sets;
	dry.now = GetCurrentTransactionStartTimestamp();
	for (int i = 0; i < lengthof(steps); i++)
	{
		ErrorData  *edata = NULL;

		if (i > 0 && dry.set == NULL)
			return;
		if (!partmgr_run_subxact(steps[i], &dry, &edata))
		{
			PlanRow    *row = palloc0(sizeof(PlanRow));

			row->action = (char *) names[i];
			row->note = psprintf("a run would fail (%s): %s",
								 unpack_sql_state(edata->sqlerrcode), edata->message);
			out->rows = lappend(out->rows, row);
			return;
		}
	}
}

/*
 * pg_partmgr_plan_maintenance
 *		plan_maintenance(p_parent_table): every action the next maintenance
 *		run would take -- of that set, or of every set a run without
 *		arguments maintains -- in order, with the SQL it would run, the
 *		locks it would take (in that order) and the tables it would read in
 *		full.  Changes nothing.
 */
Datum
pg_partmgr_plan_maintenance(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg_or_null(fcinfo, 0);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	List	   *keys;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	if (table != NULL)
	{
		PartmgrSet *set = partmgr_config_load_table(table);

		partmgr_check_may_act_on(set->parent_owner, set->key);
		keys = list_make1(set->key);
	}
	else
		keys = partmgr_config_list(true);

	foreach(lc, keys)
	{
		SetPlans	out;
		ListCell   *r;

		out.key = (const char *) lfirst(lc);
		out.rows = NIL;
		plan_set(&out, table == NULL);
		foreach(r, out.rows)
		{
			PlanRow    *row = (PlanRow *) lfirst(r);
			Datum		values[9];
			bool		nulls[9] = {false};

			values[0] = CStringGetTextDatum(out.key);
			values[1] = Int32GetDatum(foreach_current_index(r) + 1);
			values[2] = CStringGetTextDatum(row->action);
			nulls[3] = row->object == NULL;
			if (row->object)
				values[3] = CStringGetTextDatum(row->object);
			nulls[4] = row->detail == NULL;
			if (row->detail)
				values[4] = CStringGetTextDatum(row->detail);
			values[5] = text_array(row->statements);
			values[6] = text_array(row->locks);
			values[7] = text_array(row->reads);
			nulls[8] = row->note == NULL;
			if (row->note)
				values[8] = CStringGetTextDatum(row->note);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		}
	}
	SPI_finish();
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(pg_partmgr_set_health);

/* Sets are keyed by part_config.parent_table, "schema.table". */
#define FACTS_KEY_SIZE	(NAMEDATALEN * 2 + 2)

/* What the maintenance log says of one set (see log_facts). */
typedef struct LogFacts
{
	char	   *error;			/* the latest failure or skip, or NULL */
	char	   *error_outcome;
	TimestampTz error_at;
	TimestampTz created[2];		/* the latest two runs that made children */
	int			ncreated;
	int64		latest_children;	/* how many the latest of them made */
} LogFacts;

/* The log facts of a set, made empty the first time; NULL for a key too long. */
static LogFacts *
enter_facts(HTAB *facts, const char *key)
{
	char		name[FACTS_KEY_SIZE];
	bool		found;
	char	   *entry;

	if (strlen(key) >= FACTS_KEY_SIZE)
		return NULL;
	memset(name, 0, sizeof(name));
	strlcpy(name, key, sizeof(name));
	entry = hash_search(facts, name, HASH_ENTER, &found);
	if (!found)
		memset(entry + FACTS_KEY_SIZE, 0, sizeof(LogFacts));
	return (LogFacts *) (entry + FACTS_KEY_SIZE);
}

/*
 * log_facts
 *		For every set at once (two queries): the latest failed or skipped
 *		action, and the latest two runs that created children, with how many
 *		the latest made (the pace of an id set).
 */
static HTAB *
log_facts(void)
{
	static const char *const errors_sql =
	"SELECT DISTINCT ON (parent_table) parent_table,"
	"       coalesce(sqlstate || ': ', '') || coalesce(error, action), outcome, finished_at"
	"  FROM partmgr.maintenance_log WHERE outcome <> 'done'"
	" ORDER BY parent_table, log_id DESC";
	/* children made less than a second apart were made by one run */
	static const char *const created_sql =
	"SELECT parent_table, finished_at, children FROM ("
	" SELECT parent_table, max(finished_at) AS finished_at, count(*) AS children,"
	"        row_number() OVER (PARTITION BY parent_table ORDER BY max(log_id) DESC) AS n"
	"   FROM (SELECT parent_table, log_id, finished_at,"
	"                sum(new_run) OVER (PARTITION BY parent_table ORDER BY log_id) AS run"
	"           FROM (SELECT parent_table, log_id, finished_at,"
	"                        CASE WHEN finished_at - lag(finished_at) OVER w < interval '1 second'"
	"                             THEN 0 ELSE 1 END AS new_run"
	"                   FROM partmgr.maintenance_log"
	"                  WHERE action = 'create partition' AND outcome = 'done'"
	"                    AND run_by IN ('worker', 'run_maintenance', 'run_maintenance_proc')"
	"                 WINDOW w AS (PARTITION BY parent_table ORDER BY log_id)) AS made"
	"        ) AS numbered"
	"  GROUP BY parent_table, run) AS runs"
	" WHERE n <= 2 ORDER BY parent_table, n";
	HASHCTL		ctl;
	HTAB	   *facts;
	uint64		n;

	ctl.keysize = FACTS_KEY_SIZE;
	ctl.entrysize = ctl.keysize + sizeof(LogFacts);
	facts = hash_create("pg_partmgr log facts", 256, &ctl, HASH_ELEM | HASH_STRINGS);

	n = partmgr_spi_exec_cached(errors_sql, 0, NULL, NULL, NULL, true, SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
	{
		LogFacts   *f = enter_facts(facts, partmgr_spi_text(i, 1));
		bool		isnull;

		if (f == NULL)
			continue;
		f->error = partmgr_spi_text(i, 2);
		f->error_outcome = partmgr_spi_text(i, 3);
		f->error_at = DatumGetTimestampTz(partmgr_spi_value(i, 4, &isnull));
	}
	n = partmgr_spi_exec_cached(created_sql, 0, NULL, NULL, NULL, true, SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
	{
		LogFacts   *f = enter_facts(facts, partmgr_spi_text(i, 1));
		bool		isnull;

		if (f == NULL || f->ncreated >= 2)
			continue;
		if (f->ncreated == 0)
			f->latest_children = DatumGetInt64(partmgr_spi_value(i, 3, &isnull));
		f->created[f->ncreated++] = DatumGetTimestampTz(partmgr_spi_value(i, 2, &isnull));
	}
	return facts;
}

/* The log facts of a set, or NULL. */
static LogFacts *
find_facts(HTAB *facts, const char *key)
{
	char		name[FACTS_KEY_SIZE];
	char	   *entry;

	if (strlen(key) >= FACTS_KEY_SIZE)
		return NULL;
	strlcpy(name, key, sizeof(name));
	entry = hash_search(facts, name, HASH_FIND, NULL);
	return entry ? (LogFacts *) (entry + FACTS_KEY_SIZE) : NULL;
}

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

static void
reason(Health *h, const char *status, const char *text)
{
	if (strcmp(status, "critical") == 0 ||
		(strcmp(status, "warning") == 0 && strcmp(h->status, "ok") == 0))
		h->status = status;
	appendStringInfo(&h->reasons, "%s%s", h->reasons.len > 0 ? "; " : "", text);
}

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
	LogFacts   *facts;
	int			gaps;

	h->children = tree->nchildren;
	if (last != NULL && last->upper != PARTMGR_POINT_MAX)
		h->newest_upper = partmgr_point_display(&set->axis, last->upper);
	/* how far the children reach */
	if (last != NULL && last->upper != PARTMGR_POINT_MAX)
	{
		PartmgrPoint from = PARTMGR_POINT_MIN;

		if (set->axis.kind == PARTMGR_KEY_TIME)
			from = partmgr_point_now(&set->axis, now);
		else if (newest != NULL)
			(void) partmgr_max_control(set, newest->schema, newest->name, true, &from);
		if (from != PARTMGR_POINT_MIN)
		{
			h->intervals_left = partmgr_steps_between(&set->axis, &set->step, from, last->upper);
			h->have_left = true;
		}
		if (set->axis.kind == PARTMGR_KEY_TIME)
		{
			h->runs_out_at = partmgr_point_to_timestamptz(&set->axis, last->upper);
			h->have_runs_out = true;
		}
	}

	/* rows in the default partition */
	if (OidIsValid(tree->default_oid))
	{
		partmgr_lock_relation(tree->default_oid, AccessShareLock);
		h->have_default = true;
		if (partmgr_has_no_blocks(tree->default_oid))
			h->default_rows = 0;
		else if (run->exact)
			h->default_rows = partmgr_count_rows(tree->default_schema, tree->default_name, true);
		else
		{
			/* the planner's estimate; at least one if it has never been counted */
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

		foreach(lc, partmgr_plan_retention(set, tree, &retention, now, 0)->actions)
			h->expired += ((PartmgrAction *) lfirst(lc))->kind == PARTMGR_ACTION_RETIRE_CHILD;
	}

	h->have_last_run = !set->maintenance_last_run_isnull;
	h->last_run = set->maintenance_last_run;

	/* what it means */
	facts = find_facts(run->facts, set->key);
	if (set->axis.kind == PARTMGR_KEY_ID && h->have_left && facts != NULL &&
		facts->ncreated == 2 && facts->created[0] > facts->created[1] &&
		facts->latest_children > 0)
	{
		/*
		 * Between two runs that made children the data advanced as many
		 * intervals as the later run made children: that is the pace.
		 */
		double		per_interval = (double) (facts->created[0] - facts->created[1]) /
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
	else if (h->have_left && h->intervals_left < (set->axis.kind == PARTMGR_KEY_TIME ? 0 : 1))
		reason(h, "critical", set->axis.kind == PARTMGR_KEY_TIME ?
			   "no child for the current time: new rows go to the default partition" :
			   "the newest child holding rows is the last child");
	else if (h->have_left && h->intervals_left < set->premake)
		reason(h, "warning", psprintf("%.1f intervals of children ahead, premake is %d",
									  h->intervals_left, set->premake));
	if (h->have_default && h->default_rows > 0)
		reason(h, "warning", psprintf(INT64_FORMAT "%s rows in the default partition",
									  h->default_rows, run->exact ? "" : " (estimated)"));
	if (set->default_table && !OidIsValid(tree->default_oid))
		reason(h, "warning", pstrdup("no default partition: a row outside every child is refused"));
	gaps = count_gaps(tree);
	if (gaps > 0)
		reason(h, "warning", gaps == 1 ?
			   pstrdup("1 gap between children: rows there go to the default partition (partition_gap_fill() fills them)") :
			   psprintf("%d gaps between children: rows there go to the default partition (partition_gap_fill() fills them)",
						gaps));
	if (h->expired > 0)
		reason(h, "warning", psprintf("%d expired children not retired yet", h->expired));
	if (set->async_in_progress != NULL)
		reason(h, "warning", psprintf("partition_data_async is filling the child from %s: its rows are not visible until it is attached",
									  set->async_in_progress));
	if (facts != NULL && facts->error != NULL &&
		(!h->have_last_run || facts->error_at > h->last_run))
		reason(h, strcmp(facts->error_outcome, "failed") == 0 ? "critical" : "warning",
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
	facts = log_facts();
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
			LogFacts   *f = find_facts(facts, run.key);

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

PG_FUNCTION_INFO_V1(pg_partmgr_import_partman_config);

/* One set of an import (import_set). */
typedef struct ImportRun
{
	const char *schema;			/* pg_partman's schema */
	Oid			config_oid;		/* its part_config */
	const char *key;
	bool		disable;
	bool		imported;
	int			children;
	char	   *note;
} ImportRun;

/*
 * import_set
 *		Register one of pg_partman's sets: its part_config row copied column
 *		by column (read as jsonb, so pg_partman 4.7's columns and 5.x's both
 *		work), the time zone of the session for the set's time arithmetic,
 *		and the existing children adopted as they are (bounds are read from
 *		the catalog, so any naming works; new children continue the grid of
 *		the existing ones, named with pg_partman's datetime_string); a
 *		sub-partitioned set's part_config_sub row too (its sub-sets are sets
 *		of pg_partman's part_config of their own, imported like any).  Runs
 *		in a subtransaction: a set that cannot be imported is left alone.
 */
static void
import_set(void *arg)
{
	static const char *const insert_sql =
	"INSERT INTO partmgr.part_config"
	" (parent_table, control, partition_interval, partition_type, premake,"
	"  automatic_maintenance, epoch, constraint_cols, optimize_constraint,"
	"  retention, retention_schema, retention_keep_table, retention_keep_index,"
	"  retention_keep_publication, infinite_time_partitions, datetime_string, jobmon,"
	"  inherit_privileges, constraint_valid, ignore_default_data, default_table,"
	"  date_trunc_interval, maintenance_order, template_table)"
	" SELECT j->>'parent_table', j->>'control', j->>'partition_interval',"
	"        CASE WHEN j->>'partition_type' = 'list' THEN 'list' ELSE 'range' END,"
	"        coalesce((j->>'premake')::int, 4), coalesce(j->>'automatic_maintenance', 'on'),"
	"        coalesce(j->>'epoch', 'none'), CASE WHEN jsonb_typeof(j->'constraint_cols') = 'array' THEN"
	"          (SELECT array_agg(c) FROM jsonb_array_elements_text(j->'constraint_cols') c) END,"
	"        coalesce((j->>'optimize_constraint')::int, 30), j->>'retention',"
	"        j->>'retention_schema', coalesce((j->>'retention_keep_table')::boolean, true),"
	"        coalesce((j->>'retention_keep_index')::boolean, true),"
	"        coalesce((j->>'retention_keep_publication')::boolean, false),"
	"        coalesce((j->>'infinite_time_partitions')::boolean, false),"
	"        nullif(j->>'datetime_string', ''), coalesce((j->>'jobmon')::boolean, true),"
	"        coalesce((j->>'inherit_privileges')::boolean, false),"
	"        coalesce((j->>'constraint_valid')::boolean, true),"
	"        coalesce((j->>'ignore_default_data')::boolean, true), $2,"
	"        j->>'date_trunc_interval', (j->>'maintenance_order')::int,"
	"        j->>'template_table'"
	"   FROM (SELECT $1::jsonb AS j) AS config";
	static const char *const insert_sub_sql =
	"INSERT INTO partmgr.part_config_sub"
	" (sub_parent, sub_control, sub_partition_interval, sub_partition_type, sub_premake,"
	"  sub_automatic_maintenance, sub_template_table, sub_retention, sub_retention_schema,"
	"  sub_retention_keep_index, sub_retention_keep_table, sub_epoch, sub_constraint_cols,"
	"  sub_optimize_constraint, sub_infinite_time_partitions, sub_jobmon,"
	"  sub_inherit_privileges, sub_constraint_valid, sub_ignore_default_data,"
	"  sub_default_table, sub_date_trunc_interval, sub_maintenance_order,"
	"  sub_retention_keep_publication, sub_control_not_null, sub_time_encoder,"
	"  sub_time_decoder)"
	" SELECT j->>'sub_parent', j->>'sub_control',"
	/* pg_partman 4 keeps create_sub_parent's p_interval as given */
	"        CASE j->>'sub_partition_interval' WHEN 'yearly' THEN '1 year'"
	"          WHEN 'quarterly' THEN '3 mons' WHEN 'monthly' THEN '1 mon'"
	"          WHEN 'weekly' THEN '7 days' WHEN 'daily' THEN '1 day'"
	"          WHEN 'hourly' THEN '01:00:00' WHEN 'half-hour' THEN '00:30:00'"
	"          WHEN 'quarter-hour' THEN '00:15:00' ELSE j->>'sub_partition_interval' END,"
	"        CASE WHEN j->>'sub_partition_type' = 'list' THEN 'list' ELSE 'range' END,"
	"        coalesce((j->>'sub_premake')::int, 4), coalesce(j->>'sub_automatic_maintenance', 'on'),"
	"        j->>'sub_template_table', j->>'sub_retention', j->>'sub_retention_schema',"
	"        coalesce((j->>'sub_retention_keep_index')::boolean, true),"
	"        coalesce((j->>'sub_retention_keep_table')::boolean, true),"
	"        coalesce(j->>'sub_epoch', 'none'),"
	"        CASE WHEN jsonb_typeof(j->'sub_constraint_cols') = 'array' THEN"
	"          (SELECT array_agg(c) FROM jsonb_array_elements_text(j->'sub_constraint_cols') c) END,"
	"        coalesce((j->>'sub_optimize_constraint')::int, 30),"
	"        coalesce((j->>'sub_infinite_time_partitions')::boolean, false),"
	"        coalesce((j->>'sub_jobmon')::boolean, true),"
	"        coalesce((j->>'sub_inherit_privileges')::boolean, false),"
	"        coalesce((j->>'sub_constraint_valid')::boolean, true),"
	"        coalesce((j->>'sub_ignore_default_data')::boolean, true),"
	"        coalesce((j->>'sub_default_table')::boolean, true),"
	"        j->>'sub_date_trunc_interval', (j->>'sub_maintenance_order')::int,"
	"        coalesce((j->>'sub_retention_keep_publication')::boolean, false),"
	"        coalesce((j->>'sub_control_not_null')::boolean, true),"
	"        j->>'sub_time_encoder', j->>'sub_time_decoder'"
	"   FROM (SELECT $1::jsonb AS j) AS config";
	ImportRun  *run = (ImportRun *) arg;
	Oid			sub_types[1] = {TEXTOID};
	Oid			types[2] = {JSONBOID, BOOLOID};
	Datum		values[2];
	char	   *json;
	char	   *sub_json;
	char	   *type;
	char	   *template;
	char	   *encoder;
	char	   *decoder;
	Oid			parent;
	PartmgrSet *set;
	PartmgrTree *tree;
	PartmgrRights rights;

	values[0] = CStringGetTextDatum(run->key);
	partmgr_spi_exec(psprintf("SELECT to_jsonb(c)::text, c.partition_type,"
							  "       to_jsonb(c)->>'time_encoder', c.template_table,"
							  "       to_jsonb(c)->>'time_decoder'"
							  "  FROM %s.part_config c WHERE c.parent_table = $1",
							  quote_identifier(run->schema)),
					 1, sub_types, values, NULL, true, SPI_OK_SELECT);
	json = partmgr_spi_text(0, 1);
	type = partmgr_spi_text(0, 2);
	template = partmgr_spi_text(0, 4);
	encoder = partmgr_spi_text(0, 3);
	decoder = partmgr_spi_text(0, 5);

	if (partmgr_config_load(run->key, true) != NULL)
	{
		run->note = "already managed by pg_partmgr";
		return;
	}
	if (strcmp(type, "native") != 0 && strcmp(type, "range") != 0 && strcmp(type, "list") != 0)
	{
		run->note = psprintf("partition_type '%s' is not supported (only native range and list sets are)", type);
		return;
	}
	parent = partmgr_key_relid(run->key);
	if (!OidIsValid(parent))
	{
		run->note = "the parent table does not exist";
		return;
	}
	sub_json = NULL;
	values[0] = CStringGetTextDatum(run->key);
	if (OidIsValid(get_relname_relid("part_config_sub",
									 get_namespace_oid(run->schema, false))) &&
		partmgr_spi_exec(psprintf("SELECT to_jsonb(s)::text, s.sub_partition_type"
								  "  FROM %s.part_config_sub s WHERE s.sub_parent = $1",
								  quote_identifier(run->schema)),
						 1, sub_types, values, NULL, true, SPI_OK_SELECT) > 0)
	{
		char	   *sub_type = partmgr_spi_text(0, 2);

		sub_json = partmgr_spi_text(0, 1);
		if (strcmp(sub_type, "native") != 0 && strcmp(sub_type, "range") != 0 &&
			strcmp(sub_type, "list") != 0)
		{
			run->note = psprintf("its children are partitioned by pg_partman's '%s' type, which is not supported",
								 sub_type);
			return;
		}
	}

	values[0] = DirectFunctionCall1(jsonb_in, CStringGetDatum(json));
	values[1] = BoolGetDatum(OidIsValid(get_default_partition_oid(parent)));
	partmgr_spi_exec_cached(insert_sql, 2, types, values, NULL, false, SPI_OK_INSERT);
	/* how new children are partitioned in turn, pg_partman 4.7's row or 5.x's */
	if (sub_json != NULL)
	{
		values[0] = DirectFunctionCall1(jsonb_in, CStringGetDatum(sub_json));
		partmgr_spi_exec_cached(insert_sub_sql, 1, types, values, NULL, false, SPI_OK_INSERT);
	}
	{
		/* the set's time zone, and pg_partman 5.2's text and uuid keys */
		static const char *const ext_sql =
		"INSERT INTO partmgr.part_config_ext (parent_table, time_zone, time_encoder, time_decoder)"
		" VALUES ($1, $2, $3, $4)";
		static const char *const ext_sql_010 =
		"INSERT INTO partmgr.part_config_ext (parent_table, time_zone) VALUES ($1, $2)";
		Oid			ext_types[4] = {TEXTOID, TEXTOID, TEXTOID, TEXTOID};
		Datum		ext_values[4];
		char		ext_nulls[4] = {' ', ' ', 'n', 'n'};

		ext_values[0] = CStringGetTextDatum(run->key);
		ext_values[1] = CStringGetTextDatum(GetConfigOption("TimeZone", false, false));
		if (encoder != NULL)
		{
			ext_values[2] = CStringGetTextDatum(encoder);
			ext_nulls[2] = ' ';
		}
		if (decoder != NULL)
		{
			ext_values[3] = CStringGetTextDatum(decoder);
			ext_nulls[3] = ' ';
		}
		partmgr_spi_exec_cached(encoder != NULL || decoder != NULL ? ext_sql : ext_sql_010,
								encoder != NULL || decoder != NULL ? 4 : 2,
								ext_types, ext_values, ext_nulls, false, SPI_OK_INSERT);
	}

	/* the same checks as for any set, before anything else changes */
	set = partmgr_config_load(run->key, false);
	partmgr_rights_enter_set(set, PARTMGR_RIGHTS_ACT, &rights);
	tree = partmgr_read_tree(set);
	partmgr_rights_leave(&rights);
	run->children = tree->nchildren;
	if (run->disable)
	{
		/* pg_partman's table: written with the caller's rights, so no foreign trigger */
		partmgr_check_table_triggers(run->config_oid, get_extension_oid("pg_partman", true));
		values[0] = CStringGetTextDatum(run->key);
		partmgr_spi_exec(psprintf("UPDATE %s.part_config SET automatic_maintenance = 'off'"
								  " WHERE parent_table = $1", quote_identifier(run->schema)),
						 1, sub_types, values, NULL, false, SPI_OK_UPDATE);
	}
	run->imported = true;
	run->note = psprintf("time zone %s%s%s", GetConfigOption("TimeZone", false, false),
						 run->disable ? "; pg_partman's automatic maintenance turned off" : "",
						 template ? psprintf("; new children get the properties of template table %s, which belongs to pg_partman: copy it and set template_table before dropping pg_partman",
											 template) : "");
}

/*
 * pg_partmgr_import_partman_config
 *		import_partman_config(p_partman_schema, p_parent_table,
 *		p_disable_partman): register pg_partman's sets (4.7 or 5.x), one or
 *		all, in partmgr.part_config; one row per set says whether it was
 *		imported and why not.  With p_disable_partman, pg_partman's
 *		automatic maintenance of the imported sets is turned off.
 */
Datum
pg_partmgr_import_partman_config(PG_FUNCTION_ARGS)
{
	char	   *schema = PG_ARGISNULL(0) ? "partman" : text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *table = partmgr_text_arg_or_null(fcinfo, 1);
	bool		disable = PG_ARGISNULL(2) || PG_GETARG_BOOL(2);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	List	   *keys = NIL;
	ListCell   *lc;
	uint64		n;
	Oid			nspid = get_namespace_oid(schema, true);
	Oid			config_oid = OidIsValid(nspid) ? get_relname_relid("part_config", nspid) :
		InvalidOid;
	Oid			types[1] = {TEXTOID};
	Datum		values[1];

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	if (!OidIsValid(config_oid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("no pg_partman configuration table %s.part_config", quote_identifier(schema)),
				 errhint("Give the schema pg_partman is installed in as p_partman_schema.")));

	/*
	 * Only pg_partman's own table is read: one made by any role in a schema
	 * of that name could run its code (a view, a trigger) with our rights.
	 */
	if (getExtensionOfObject(RelationRelationId, config_oid) !=
		get_extension_oid("pg_partman", true) || !OidIsValid(get_extension_oid("pg_partman", true)))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("table %s.part_config does not belong to extension pg_partman",
						quote_identifier(schema)),
				 errhint("Give the schema pg_partman is installed in as p_partman_schema.")));
	if (table != NULL)
	{
		values[0] = CStringGetTextDatum(table);
		n = partmgr_spi_exec(psprintf("SELECT parent_table FROM %s.part_config"
									  " WHERE parent_table = $1", quote_identifier(schema)),
							 1, types, values, NULL, true, SPI_OK_SELECT);
	}
	else
		n = partmgr_spi_exec(psprintf("SELECT parent_table FROM %s.part_config"
									  " ORDER BY parent_table", quote_identifier(schema)),
							 0, NULL, NULL, NULL, true, SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
		keys = lappend(keys, partmgr_spi_text(i, 1));
	if (table != NULL && keys == NIL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("table \"%s\" is not in %s.part_config", table, quote_identifier(schema))));

	foreach(lc, keys)
	{
		ImportRun	run;
		ErrorData  *edata = NULL;
		Datum		values[4];
		bool		nulls[4] = {false};

		memset(&run, 0, sizeof(run));
		run.schema = schema;
		run.config_oid = config_oid;
		run.key = (const char *) lfirst(lc);
		run.disable = disable;
		if (!partmgr_run_subxact(import_set, &run, &edata))
		{
			run.imported = false;
			run.children = 0;
			run.note = psprintf("%s: %s", unpack_sql_state(edata->sqlerrcode), edata->message);
		}
		values[0] = CStringGetTextDatum(run.key);
		values[1] = BoolGetDatum(run.imported);
		values[2] = Int32GetDatum(run.children);
		nulls[3] = run.note == NULL;
		if (run.note)
			values[3] = CStringGetTextDatum(run.note);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	SPI_finish();
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(pg_partmgr_dump_partitioned_table_definition);

/*
 * pg_partmgr_dump_partitioned_table_definition
 *		dump_partitioned_table_definition(p_parent_table,
 *		p_ignore_template_table): the SQL that registers the set again with
 *		its current configuration (see partmgr_ddl_dump_definition).
 */
Datum
pg_partmgr_dump_partitioned_table_definition(PG_FUNCTION_ARGS)
{
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	bool		ignore_template = !PG_ARGISNULL(1) && PG_GETARG_BOOL(1);
	PartmgrSet *set;
	char	   *sql;

	SPI_connect();
	set = partmgr_config_load_table(table);
	sql = partmgr_ddl_dump_definition(set, ignore_template);
	sql = strcpy(SPI_palloc(strlen(sql) + 1), sql);
	SPI_finish();
	PG_RETURN_TEXT_P(cstring_to_text(sql));
}

PG_FUNCTION_INFO_V1(pg_partmgr_config_cleanup);

/*
 * pg_partmgr_config_cleanup
 *		config_cleanup(p_parent_table, p_config_table, p_config_sub_table,
 *		p_template_table) (pg_partman 5.4): forget a set and leave its
 *		tables as they are.  p_config_table deletes its part_config row
 *		(part_config_ext follows); p_template_table drops its template table
 *		unless another set uses it (see partmgr_drop_unused_template);
 *		p_config_sub_table deletes its part_config_sub row (new children
 *		are no longer partitioned in turn; part_config's row takes it along
 *		anyway).  Sub-sets registered for its children are sets of their
 *		own and stay.
 */
Datum
pg_partmgr_config_cleanup(PG_FUNCTION_ARGS)
{
	static const char *const unset_sql =
	"UPDATE partmgr.part_config SET template_table = NULL WHERE parent_table = $1";
	char	   *table = partmgr_text_arg(fcinfo, 0, "p_parent_table");
	bool		config = PG_ARGISNULL(1) || PG_GETARG_BOOL(1);
	bool		config_sub = PG_ARGISNULL(2) || PG_GETARG_BOOL(2);
	bool		template = PG_ARGISNULL(3) || PG_GETARG_BOOL(3);
	PartmgrSet *set;
	PartmgrRights rights;
	Oid			types[1] = {TEXTOID};
	Datum		values[1];

	SPI_connect();
	set = partmgr_act_on_table(table, PARTMGR_RIGHTS_ACT, &rights);
	partmgr_lock_set_or_raise(set->parent_oid, set->key);
	if (config_sub)
		(void) partmgr_sub_spec_delete(set->key);
	if (config)
		partmgr_config_delete(set->key);
	else if (template && set->template_table != NULL)
	{
		values[0] = CStringGetTextDatum(set->key);
		partmgr_spi_exec_cached(unset_sql, 1, types, values, NULL, false, SPI_OK_UPDATE);
	}
	if (template)
		partmgr_drop_unused_template(set);
	partmgr_rights_leave(&rights);
	SPI_finish();
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(pg_partmgr_run_analyze);

/*
 * pg_partmgr_run_analyze
 *		PROCEDURE run_analyze(p_skip_locked, p_quiet, p_parent_table)
 *		(pg_partman 5): ANALYZE the parent of every set (or of one), which
 *		gathers the statistics of the whole partition tree that autovacuum
 *		does not, committing after each when called with CALL outside a
 *		transaction block.  p_skip_locked skips a tree a lock is held on;
 *		each set gets a NOTICE unless p_quiet.
 */
Datum
pg_partmgr_run_analyze(PG_FUNCTION_ARGS)
{
	bool		skip_locked = !PG_ARGISNULL(0) && PG_GETARG_BOOL(0);
	bool		quiet = !PG_ARGISNULL(1) && PG_GETARG_BOOL(1);
	char	   *table = partmgr_text_arg_or_null(fcinfo, 2);
	bool		nonatomic = fcinfo->context != NULL &&
		IsA(fcinfo->context, CallContext) &&
		!castNode(CallContext, fcinfo->context)->atomic;
	List	   *keys;
	ListCell   *lc;

	SPI_connect_ext(nonatomic ? SPI_OPT_NONATOMIC : 0);
	if (table != NULL)
	{
		PartmgrSet *set = partmgr_config_load_table(table);

		partmgr_check_may_act_on(set->parent_owner, set->key);
		keys = list_make1(set->key);
	}
	else
		keys = partmgr_config_list(false);
	foreach(lc, keys)
	{
		const char *key = (const char *) lfirst(lc);
		Oid			relid = partmgr_key_relid(key);
		TimestampTz started = GetCurrentTimestamp();
		PartmgrParentInfo parent;
		PartmgrRights rights;

		if (!OidIsValid(relid))
		{
			ereport(WARNING,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("parent table of partition set \"%s\" does not exist", key)));
			continue;
		}
		partmgr_read_parent(relid, &parent);
		if (!partmgr_may_act_on(parent.owner))
			continue;			/* someone else's set */
		partmgr_rights_enter_table(relid, parent.owner, PARTMGR_RIGHTS_ACT, key, &rights);
		partmgr_spi_table_utility(psprintf("ANALYZE %s%s", skip_locked ? "(SKIP_LOCKED) " : "",
										   quote_qualified_identifier(parent.schema, parent.name)));
		partmgr_rights_leave(&rights);
		if (!quiet)
			ereport(NOTICE,
					(errmsg("analyzed %s in %ld ms", key,
							TimestampDifferenceMilliseconds(started, GetCurrentTimestamp()))));
		if (nonatomic)
			SPI_commit();
	}
	SPI_finish();
	PG_RETURN_VOID();
}
