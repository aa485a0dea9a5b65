/*-------------------------------------------------------------------------
 *
 * retention.c
 *	  Decide which children of a set have expired.
 *
 * pg_partman 5's rules.  A time child expires when its upper bound is
 * older than now minus the retention interval (computed in the set's time
 * zone); an id child when its upper bound is at most the largest id (in the
 * newest child holding rows) minus the retention distance.  A child that
 * still covers the horizon is kept, and so is the last child of a set.
 * Each expired child is detached; then, as configured, its indexes are
 * dropped, it leaves its publications, it moves to retention_schema, or it
 * is dropped (retention_keep_table = false).  Detaching first is what keeps
 * a foreign key that references the set intact: PostgreSQL refuses to
 * detach a child whose rows are still referenced, and that child is kept.
 * A child whose DETACH ... CONCURRENTLY was interrupted is finished first.
 * A set with an archive (archive.c) moves each expired child there instead:
 * attached as it is, or its rows moved (partmgr_plan_archive_moves, before
 * retention) and the emptied child dropped.
 *
 * Planning only: reads catalogs and data, changes nothing.  The checks of
 * the configuration raise errors that name the set.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/retention.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "bounds.h"
#include "citus.h"
#include "compat.h"
#include "contents.h"
#include "execute.h"
#include "locks.h"
#include "reshape_state.h"
#include "retention.h"
#include "statements.h"

/*
 * partmgr_retention_parse
 *		Parse a retention of the set's kind: an interval for time sets (more
 *		than zero), a distance of zero or more ids for id sets.  Errors name
 *		the set.
 */
void
partmgr_retention_parse(const PartmgrSet *set, const char *text,
						PartmgrStep *age)
{
	memset(age, 0, sizeof(*age));
	if (set->axis.kind == PARTMGR_KEY_ID)
	{
		int64		distance;
		char	   *end;

		errno = 0;
		distance = strtoi64(text, &end, 10);
		while (*end == ' ')
			end++;
		if (text[0] == '\0' || *end != '\0' || errno != 0 || distance < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("retention \"%s\" of partition set \"%s\" is not a whole number of zero or more",
							text, set->key),
					 errhint("An id set keeps the children within this many ids of its largest id, such as '1000000'.")));
		age->kind = PARTMGR_KEY_ID;
		age->id = distance;
		return;
	}

	if (!partmgr_interval_parse(text, &age->time) ||
		age->time.month < 0 || age->time.day < 0 || age->time.time < 0 ||
		(age->time.month == 0 && age->time.day == 0 && age->time.time == 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("retention \"%s\" of partition set \"%s\" is not a positive interval",
						text, set->key),
				 errhint("A time set keeps the children younger than this interval, such as '30 days'.")));
	age->kind = PARTMGR_KEY_TIME;
}

/*
 * partmgr_retention_check_schema
 *		A retention schema must exist and let role create tables in it: the
 *		set's owner for the schema of its configuration (detached children
 *		are moved there with the owner's rights, whoever runs retention), the
 *		caller for one named in the call (moved with the caller's rights).
 */
void
partmgr_retention_check_schema(const PartmgrSet *set, const char *schema,
							   Oid role)
{
	Oid			nspid = get_namespace_oid(schema, true);

	if (!OidIsValid(nspid))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_SCHEMA_NAME),
				 errmsg("retention schema \"%s\" of partition set \"%s\" does not exist",
						schema, set->key)));
	if (partmgr_schema_aclcheck(nspid, role, ACL_CREATE) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("role \"%s\" may not create tables in retention schema \"%s\" of partition set \"%s\"",
						GetUserNameFromId(role, false), schema, set->key),
				 errhint("%s.",
						 partmgr_ddl_grant_on("CREATE", "SCHEMA",
											  quote_identifier(schema),
											  role))));
}

/*
 * partmgr_retention_from_config
 *		The set's retention policy from part_config; false when it has none.
 *		The schema is checked here, so a bad one stops retention, not the
 *		creation of new children.
 */
bool
partmgr_retention_from_config(const PartmgrSet *set,
							  PartmgrRetention *retention)
{
	partmgr_retention_settings(set, retention);
	if (set->retention == NULL)
		return false;
	partmgr_retention_parse(set, set->retention, &retention->age);
	if (retention->retire.schema != NULL)
		partmgr_retention_check_schema(set, retention->retire.schema,
									   set->parent_owner);
	return true;
}

/*
 * partmgr_retention_settings
 *		What happens to the set's expired children, from part_config, not
 *		checked yet (the age is left zero).
 */
void
partmgr_retention_settings(const PartmgrSet *set, PartmgrRetention *retention)
{
	memset(retention, 0, sizeof(*retention));
	retention->retire.keep_table = set->retention_keep_table;
	retention->retire.keep_index = set->retention_keep_index;
	retention->retire.keep_publication = set->retention_keep_publication;
	retention->retire.schema = set->retention_schema;
}

/*
 * time_horizon
 *		For a time set, the point a child's upper bound must reach to be
 *		kept: now minus the retention, in the set's time zone.
 */
static PartmgrPoint
time_horizon(const PartmgrSet *set, const PartmgrStep *age, TimestampTz now)
{
	return partmgr_point_add(&set->axis, age,
							 partmgr_point_from_timestamptz(&set->axis, now),
							 -1);
}

/*
 * partmgr_time_child_expired
 *		Whether a time child with that upper bound has expired at the
 *		horizon: strictly before it, as in pg_partman.
 */
bool
partmgr_time_child_expired(PartmgrPoint upper, PartmgrPoint horizon)
{
	return upper < horizon;
}

/*
 * partmgr_creation_horizon
 *		For the creation of new children of a time set (pg_partman 5.2: none
 *		is made that retention would retire at once): the horizon its
 *		retention would retire children below at now
 *		(partmgr_time_child_expired).  False for an id set (its retention
 *		counts from its largest id, and premake only makes children above
 *		that), for a set without retention, and for a retention that is not
 *		a positive interval: that one stops retention, with its error, not
 *		the creation of children.
 */
bool
partmgr_creation_horizon(const PartmgrSet *set, TimestampTz now,
						 PartmgrPoint *horizon)
{
	PartmgrStep age;

	if (set->axis.kind != PARTMGR_KEY_TIME || set->retention == NULL)
		return false;
	memset(&age, 0, sizeof(age));
	age.kind = PARTMGR_KEY_TIME;
	if (!partmgr_interval_parse(set->retention, &age.time) ||
		age.time.month < 0 || age.time.day < 0 || age.time.time < 0 ||
		(age.time.month == 0 && age.time.day == 0 && age.time.time == 0))
		return false;
	*horizon = time_horizon(set, &age, now);
	return true;
}

/*
 * being_reshaped
 *		Whether an expired child is one a reshape replaces, or holds the
 *		children of one (a sub-parent): it is kept until the reshape is
 *		over or undone, with a NOTICE.  Looked up only for a child that
 *		has expired, so that idle sets pay nothing for it.
 */
static bool
being_reshaped(const PartmgrSet *set, const PartmgrChild *child)
{
	List	   *ops = partmgr_reshape_list(NULL);
	char	   *key;
	List	   *below = NIL;
	ListCell   *lc;

	if (ops == NIL)
		return false;
	key = partmgr_names_key(child->schema, child->name);
	if (child->relkind == RELKIND_PARTITIONED_TABLE)
		below = partmgr_sub_parents_below(child->relid);
	foreach(lc, ops)
	{
		PartmgrReshapeOp *op = lfirst(lc);
		bool		busy = strcmp(op->key, key) == 0;
		ListCell   *sc;

		/*
		 * the set's own reshapes only: a row of another set may name anything
		 */
		for (int i = 0; i < op->nsources && !busy &&
			 strcmp(op->key, set->key) == 0; i++)
			busy = strcmp(op->sources[i], key) == 0;
		foreach(sc, below)
			busy |= strcmp(op->key, (char *) lfirst(sc)) == 0;
		if (busy)
		{
			ereport(NOTICE,
					(errmsg("kept expired partition \"%s\" of \"%s\": reshape " INT64_FORMAT " is working on it",
							quote_qualified_identifier(child->schema,
													   child->name), set->key,
							op->id)));
			return true;
		}
	}
	return false;
}

/*
 * partmgr_plan_retention
 *		Plan the retention of a set: finish interrupted concurrent detaches,
 *		then retire every expired child (see the file header), oldest first,
 *		at most limit of them (0: no limit).
 *		Children are detached concurrently when retire.concurrently asks for
 *		it and the set has no default partition (PostgreSQL's condition)
 *		and is not a Citus table (Citus refuses it: plain DETACH then).
 */
PartmgrPlan *
partmgr_plan_retention(PartmgrSet *set, PartmgrTree *tree,
					   const PartmgrRetention *retention, TimestampTz now,
					   int limit)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);
	PartmgrRetirement retire = retention->retire;
	PartmgrPoint horizon;
	int			remaining = 0;

	plan->limit = limit;
	for (int i = 0; i < tree->nchildren; i++)
	{
		if (tree->children[i].detach_pending)
			partmgr_plan_add_finalize(plan, &tree->children[i]);
		else
			remaining++;
	}

	if (set->axis.kind == PARTMGR_KEY_TIME)
		horizon = time_horizon(set, &retention->age,
							   retention->have_reference ?
							   retention->reference : now);
	else
	{
		const PartmgrChild *newest = partmgr_newest_child_with_rows(tree);
		PartmgrPoint max_id;

		if (newest == NULL ||
			!partmgr_max_control(set, newest->schema, newest->name, true,
								 &max_id))
			return plan;		/* no data: nothing can be old */
		horizon = max_id - retention->age.id;
	}

	if (retire.archive != NULL)
		retire.concurrently = false;	/* detached and attached at once */
	if (retire.concurrently && OidIsValid(tree->default_oid))
		retire.concurrently = false;
	/* Citus refuses DETACH ... CONCURRENTLY on a distributed table */
	if (retire.concurrently && partmgr_citus_table(set->parent_oid))
		retire.concurrently = false;

	for (int i = 0; i < tree->nchildren; i++)
	{
		const PartmgrChild *child = &tree->children[i];
		bool		expired;

		if (child->detach_pending || child->upper == PARTMGR_POINT_MAX)
			continue;
		expired = (set->axis.kind == PARTMGR_KEY_TIME ?
				   partmgr_time_child_expired(child->upper, horizon) :
				   child->upper <= horizon);
		if (!expired)
			break;				/* children are sorted: the rest are younger */
		if (being_reshaped(set, child))
			break;				/* oldest first: the rest waits for it */
		if (remaining <= 1)
		{
			if (retention->quiet)
				break;
			ereport(WARNING,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("kept \"%s\", the last child of partition set \"%s\", although it has expired",
							quote_qualified_identifier(child->schema,
													   child->name), set->key),
					 errhint("Review the retention of the set, or set infinite_time_partitions so that new children keep coming without new data.")));
			break;
		}
		if (!partmgr_plan_add_retire(plan, child, &retire))
			break;
		remaining--;
	}
	return plan;
}

/* What partmgr_tree_without_expired passes into its subtransaction. */
typedef struct ExpiryProbe
{
	PartmgrSet *set;
	PartmgrTree *tree;
	TimestampTz now;
	PartmgrPlan *plan;			/* out */
} ExpiryProbe;

static void
probe_expiry(void *arg)
{
	ExpiryProbe *probe = (ExpiryProbe *) arg;
	PartmgrRetention retention;

	if (partmgr_retention_from_config(probe->set, &retention))
	{
		retention.quiet = true;
		probe->plan = partmgr_plan_retention(probe->set, probe->tree,
											 &retention, probe->now,
											 partmgr_children_per_transaction);
	}
}

/*
 * partmgr_tree_without_expired
 *		The children of a set without those its retention retires at now
 *		(as many as a run retires), for the steps of a run planned before
 *		retention runs, last: derived constraints are not derived for a
 *		child about to go.  Planned in a subtransaction whose errors are
 *		dropped -- a bad retention setting, or a lock not granted at once,
 *		is for retention to report -- and then the children are all there.
 */
PartmgrTree *
partmgr_tree_without_expired(PartmgrSet *set, PartmgrTree *tree,
							 TimestampTz now)
{
	ExpiryProbe probe;
	ErrorData  *edata = NULL;

	if (set->retention == NULL)
		return tree;
	memset(&probe, 0, sizeof(probe));
	probe.set = set;
	probe.tree = tree;
	probe.now = now;
	if (!partmgr_run_subxact(probe_expiry, &probe, &edata) ||
		probe.plan == NULL)
		return tree;
	return partmgr_tree_after(tree, probe.plan);
}
