/*-------------------------------------------------------------------------
 *
 * tiers.c
 *	  Storage tiers (partmgr.part_config_tier): which tablespace each child
 *	  of a set belongs in, the move maintenance registers for a child that
 *	  is elsewhere, and where new children are made.
 *
 * A tier says: a child whose upper bound is older than older_than -- an
 * interval before now for a time set, an amount below the largest key
 * (in the newest child holding rows) for an id set, the horizons of
 * retention -- belongs in tablespace_name, with every index of it.  A
 * child that reached several tiers belongs in the oldest; one that reached
 * none belongs in the parent's tablespace (where new children are made).
 * Tiers are configured on the top set of a sub-partitioned set; the leaves
 * under a child of it belong where that child does, each moved as a child
 * of its own sub-set.
 *
 * Maintenance registers one move at a time per set (the oldest child out
 * of place first): a reshape of kind move (reshape.c) into the tier's
 * tablespace, which the runner carries out step by step, paced by
 * pg_partmgr.tier_bytes_per_run (runner.c).  A tier whose tablespace is
 * gone, or that the owner may not create in, moves nothing; health says so.
 * A child that cannot be moved (no key, a view on it: see reshape.c) is
 * passed over for the next one; when none can be, the step fails with the
 * first one's error.
 *
 * Locks: none beyond what reading the children takes (an id set's largest
 * key: contents.c).  Runs inside the set owner's rights scope.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/tiers.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "catalog/partition.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_class.h"
#include "catalog/pg_tablespace_d.h"
#include "catalog/pg_type.h"
#include "commands/tablespace.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"

#include "bounds.h"
#include "catalog.h"
#include "config.h"
#include "contents.h"
#include "locks.h"
#include "reshape.h"
#include "reshape_state.h"
#include "spi_util.h"
#include "statements.h"
#include "tiers.h"
#include "tiers_state.h"

/* Whether a set is a sub-set: its parent is a child of another set. */
static bool
is_sub_set(const PartmgrSet *set)
{
	return get_rel_relispartition(set->parent_oid);
}

/* Where a set's children belong that reached no tier: the parent's. */
static Oid
home_tablespace(Oid parent)
{
	Oid			spcid = get_rel_tablespace(parent);

	return OidIsValid(spcid) ? spcid : MyDatabaseTableSpace;
}

/*
 * partmgr_tiers_apply
 *		Whether maintenance looks at a set's tiers: a range set, not a
 *		sub-set, with tiers configured (which costs no query while no tier
 *		was ever written, tiers_state.c).
 */
bool
partmgr_tiers_apply(const PartmgrSet *set)
{
	return set->strategy == PARTITION_STRATEGY_RANGE && !is_sub_set(set) &&
		partmgr_tier_rows(set->key) != NIL;
}

/*
 * parse_age
 *		older_than as the set's axis reads it: a positive interval (time
 *		sets) or a positive whole number (id sets); 22023 otherwise.
 */
static void
parse_age(const PartmgrSet *set, const char *tier, const char *text,
		  PartmgrStep *age)
{
	memset(age, 0, sizeof(*age));
	if (set->axis.kind == PARTMGR_KEY_ID)
	{
		int64		amount;
		char	   *end;

		errno = 0;
		amount = strtoi64(text, &end, 10);
		while (*end == ' ')
			end++;
		if (text[0] == '\0' || *end != '\0' || errno != 0 || amount <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("older_than \"%s\" of tier \"%s\" of partition set \"%s\" is not a positive whole number",
							text, tier, set->key),
					 errhint("A tier of an id set holds the children this many ids or more below its largest id, such as '1000000'.")));
		age->kind = PARTMGR_KEY_ID;
		age->id = amount;
		return;
	}
	if (!partmgr_interval_parse(text, &age->time) ||
		age->time.month < 0 || age->time.day < 0 || age->time.time < 0 ||
		(age->time.month == 0 && age->time.day == 0 && age->time.time == 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("older_than \"%s\" of tier \"%s\" of partition set \"%s\" is not a positive interval",
						text, tier, set->key),
				 errhint("A tier of a time set holds the children older than this, such as '30 days'.")));
	age->kind = PARTMGR_KEY_TIME;
}

static int
compare_horizons(const ListCell *a, const ListCell *b)
{
	PartmgrPoint x = ((const PartmgrTier *) lfirst(a))->horizon;
	PartmgrPoint y = ((const PartmgrTier *) lfirst(b))->horizon;

	return x < y ? -1 : x > y;
}

/*
 * partmgr_tiers_read
 *		A set's tiers with their horizons now (an id set's from its largest
 *		key: none while it holds no row), oldest horizon first.
 */
PartmgrTiers *
partmgr_tiers_read(PartmgrSet *set, PartmgrTree *tree, TimestampTz now)
{
	PartmgrTiers *t = palloc0(sizeof(PartmgrTiers));
	PartmgrPoint reference = 0;
	ListCell   *lc;

	if (set->axis.kind == PARTMGR_KEY_TIME)
	{
		reference = partmgr_point_from_timestamptz(&set->axis, now);
		t->have_horizons = true;
	}
	else
	{
		const PartmgrChild *newest = partmgr_newest_child_with_rows(tree);

		t->have_horizons = newest != NULL &&
			partmgr_max_control(set, newest->schema, newest->name, true,
								&reference);
	}
	foreach(lc, partmgr_tier_rows(set->key))
	{
		PartmgrTierRow *row = (PartmgrTierRow *) lfirst(lc);
		PartmgrTier *tier = palloc0(sizeof(PartmgrTier));

		tier->name = row->name;
		tier->older_than = row->older_than;
		tier->tablespace = row->tablespace;
		parse_age(set, row->name, row->older_than, &tier->age);
		tier->spcid = get_tablespace_oid(row->tablespace, true);
		tier->usable = OidIsValid(tier->spcid) &&
			tier->spcid != GLOBALTABLESPACE_OID &&
			partmgr_owner_may_create_in(set, tier->spcid);
		if (t->have_horizons)
			tier->horizon = partmgr_point_add(&set->axis, &tier->age,
											  reference, -1);
		t->tiers = lappend(t->tiers, tier);
	}
	list_sort(t->tiers, compare_horizons);
	return t;
}

/*
 * partmgr_tier_of
 *		The tier a child with that upper bound belongs in: the oldest whose
 *		horizon it has reached (before it, for a time set; at or below it,
 *		for an id set, as retention counts), or NULL.
 */
const PartmgrTier *
partmgr_tier_of(const PartmgrSet *set, const PartmgrTiers *tiers,
				PartmgrPoint upper)
{
	ListCell   *lc;

	if (!tiers->have_horizons || upper == PARTMGR_POINT_MAX)
		return NULL;
	foreach(lc, tiers->tiers)
	{
		const PartmgrTier *tier = (const PartmgrTier *) lfirst(lc);

		if (set->axis.kind == PARTMGR_KEY_TIME ? upper < tier->horizon :
			upper <= tier->horizon)
			return tier;
	}
	return NULL;
}

/* Where each leaf below a set is: its table's and indexes' tablespace. */
typedef struct LeafPlace
{
	Oid			relid;
	Oid			spcid;			/* InvalidOid: not all in one tablespace */
} LeafPlace;

static HTAB *
leaf_places(Oid parent)
{
	HASHCTL		ctl;
	HTAB	   *places;
	Oid			types[2] = {OIDOID, OIDOID};
	Datum		values[2];
	uint64		n;

	ctl.keysize = sizeof(Oid);
	ctl.entrysize = sizeof(LeafPlace);
	ctl.hcxt = CurrentMemoryContext;
	places = hash_create("pg_partmgr leaf places", 64, &ctl,
						 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	values[0] = ObjectIdGetDatum(parent);
	values[1] = ObjectIdGetDatum(MyDatabaseTableSpace);
	n = partmgr_spi_exec_cached("SELECT p.relid,"
								"       CASE WHEN pg_catalog.count(DISTINCT x.spc) = 1"
								"            THEN pg_catalog.min(x.spc) END"
								"  FROM pg_catalog.pg_partition_tree($1) p"
								"  CROSS JOIN LATERAL"
								"   (SELECT COALESCE(NULLIF(c.reltablespace, 0), $2) AS spc"
								"      FROM pg_catalog.pg_class c WHERE c.oid = p.relid"
								"    UNION ALL"
								"    SELECT COALESCE(NULLIF(c.reltablespace, 0), $2)"
								"      FROM pg_catalog.pg_index i"
								"      JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid"
								"     WHERE i.indrelid = p.relid) x"
								" WHERE p.isleaf AND p.level > 0"
								" GROUP BY p.relid",
								2, types, values, NULL, false, SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
	{
		bool		isnull;
		Oid			relid = DatumGetObjectId(partmgr_spi_value(i, 1, &isnull));
		Datum		spc = partmgr_spi_value(i, 2, &isnull);
		LeafPlace  *place = hash_search(places, &relid, HASH_ENTER, NULL);

		place->spcid = isnull ? InvalidOid : DatumGetObjectId(spc);
	}
	return places;
}

/*
 * registered_move
 *		The oldest registered move of this set or of one of its sub-sets,
 *		or NULL.
 */
static const PartmgrReshapeOp *
registered_move(const char *key, Oid parent)
{
	List	   *below = NIL;
	bool		listed = false;
	ListCell   *lc;

	foreach(lc, partmgr_reshape_list(NULL))
	{
		const PartmgrReshapeOp *op = (const PartmgrReshapeOp *) lfirst(lc);
		ListCell   *sub;

		if (!partmgr_reshape_is_move(op))
			continue;
		if (strcmp(op->key, key) == 0)
			return op;
		if (!listed)
		{
			below = partmgr_sub_parents_below(parent);
			listed = true;
		}
		foreach(sub, below)
		{
			if (strcmp(op->key, (const char *) lfirst(sub)) == 0)
				return op;
		}
	}
	return NULL;
}

/* A leaf to move, and where. */
typedef struct MoveCandidate
{
	Oid			leaf;
	Oid			spcid;
	PartmgrReshapeOp *op;		/* out: prepared */
} MoveCandidate;

/* Prepare the move of one leaf, as a child of its own set. */
static void
prepare_move(void *arg)
{
	MoveCandidate *c = (MoveCandidate *) arg;
	Oid			parent = get_partition_parent(c->leaf, true);
	PartmgrSet *owner_set = partmgr_config_load(partmgr_table_key(parent),
												false);
	PartmgrTree *tree = partmgr_read_tree(owner_set);
	PartmgrReshapeRequest req;

	memset(&req, 0, sizeof(req));
	req.kind = owner_set->strategy == PARTITION_STRATEGY_HASH ?
		"hash move" : "move";
	req.nsources = 1;
	req.sources = &c->leaf;
	req.tablespace = get_tablespace_name(c->spcid);
	c->op = partmgr_reshape_prepare(owner_set, tree, &req);
}

/*
 * The leaves below a child (itself, for a plain table), but the default
 * partitions of sub-sets, which hold the rows no child takes and stay.
 */
static List *
leaves_of(const PartmgrChild *child)
{
	List	   *leaves = NIL;
	ListCell   *lc;

	if (child->relkind == RELKIND_RELATION)
		return list_make1_oid(child->relid);
	foreach(lc, find_all_inheritors(child->relid, NoLock, NULL))
	{
		Oid			leaf = lfirst_oid(lc);

		if (get_rel_relkind(leaf) == RELKIND_RELATION &&
			get_default_partition_oid(get_partition_parent(leaf, true)) != leaf)
			leaves = lappend_oid(leaves, leaf);
	}
	return leaves;
}

/*
 * partmgr_plan_tiers
 *		The tiers step of a maintenance run: register the move of the oldest
 *		child out of place (see the file header) -- none while a move of the
 *		set or of a sub-set of it is registered.
 */
PartmgrPlan *
partmgr_plan_tiers(PartmgrSet *set, PartmgrTree *tree, TimestampTz now)
{
	PartmgrPlan *plan = partmgr_plan_new(set, tree);
	PartmgrTiers *tiers;
	HTAB	   *places;
	Oid			home = home_tablespace(set->parent_oid);
	ErrorData  *first_error = NULL;

	plan->tables_read = true;	/* it makes no table */
	if (!partmgr_tiers_apply(set) ||
		registered_move(set->key, set->parent_oid) != NULL)
		return plan;
	tiers = partmgr_tiers_read(set, tree, now);
	places = leaf_places(set->parent_oid);
	for (int i = 0; i < tree->nchildren; i++)
	{
		const PartmgrChild *child = &tree->children[i];
		const PartmgrTier *tier;
		Oid			target;
		ListCell   *lc;

		if (child->detach_pending || child->lower == PARTMGR_POINT_MIN ||
			child->upper == PARTMGR_POINT_MAX || !OidIsValid(child->relid))
			continue;
		tier = partmgr_tier_of(set, tiers, child->upper);
		if (tier != NULL && !tier->usable)
			continue;			/* health says why */
		target = tier != NULL ? tier->spcid : home;
		foreach(lc, leaves_of(child))
		{
			Oid			leaf = lfirst_oid(lc);
			LeafPlace  *place = hash_search(places, &leaf, HASH_FIND, NULL);
			MoveCandidate c;
			ErrorData  *edata = NULL;
			PartmgrAction *action;

			if (place == NULL || place->spcid == target)
				continue;		/* made after this look, or in place */
			memset(&c, 0, sizeof(c));
			c.leaf = leaf;
			c.spcid = target;
			if (!partmgr_run_subxact(prepare_move, &c, &edata))
			{
				if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED)
					ReThrowError(edata);
				if (first_error == NULL)
					first_error = edata;
				continue;
			}
			action = partmgr_plan_add_on_child(plan,
											   PARTMGR_ACTION_REGISTER_MOVE,
											   child);
			action->schema = get_namespace_name(get_rel_namespace(leaf));
			action->name = get_rel_name(leaf);
			action->relid = leaf;
			action->move = c.op;
			action->tier = tier != NULL ? tier->name : NULL;
			return plan;
		}
	}
	if (first_error != NULL)
		ReThrowError(first_error);
	return plan;
}

/*
 * top_child_tier
 *		For a sub-set: its top set (tiers are configured there) and the tier
 *		the child of the top set that holds it belongs in, or NULL.
 */
static const PartmgrTier *
top_child_tier(const PartmgrSet *sub, TimestampTz now, PartmgrSet **top_out)
{
	Oid			below = sub->parent_oid;
	Oid			top = get_partition_parent(below, true);
	PartmgrSet *top_set;
	PartmgrTree *tree;
	const PartmgrChild *child;

	while (get_rel_relispartition(top))
	{
		below = top;
		top = get_partition_parent(top, true);
	}
	top_set = partmgr_config_load(partmgr_table_key(top), true);
	if (top_set == NULL || !partmgr_tiers_apply(top_set))
		return NULL;
	tree = partmgr_read_tree(top_set);
	child = partmgr_tree_find_child(tree, below);
	if (child == NULL)
		return NULL;
	*top_out = top_set;
	return partmgr_tier_of(top_set, partmgr_tiers_read(top_set, tree, now),
						   child->upper);
}

/*
 * partmgr_tiers_place_new
 *		Make the new children of a plan in the tier their bounds put them in
 *		(a usable tier whose tablespace is not the parent's already); those
 *		of a sub-set in the tier of the top set's child that holds them.
 */
void
partmgr_tiers_place_new(PartmgrPlan *plan, TimestampTz now)
{
	PartmgrSet *set = plan->set;
	PartmgrTiers *tiers = NULL;
	const PartmgrTier *sub_tier = NULL;
	bool		looked = false;
	Oid			home = home_tablespace(set->parent_oid);
	ListCell   *lc;

	foreach(lc, plan->actions)
	{
		PartmgrAction *action = (PartmgrAction *) lfirst(lc);
		const PartmgrTier *tier;

		if (action->kind != PARTMGR_ACTION_CREATE_CHILD || action->modulus > 0)
			continue;
		if (!looked)
		{
			looked = true;
			if (is_sub_set(set))
			{
				PartmgrSet *top = NULL;

				sub_tier = top_child_tier(set, now, &top);
				if (sub_tier == NULL)
					return;
				home = home_tablespace(top->parent_oid);
			}
			else if (partmgr_tiers_apply(set))
				tiers = partmgr_tiers_read(set, plan->tree, now);
			else
				return;
		}
		tier = sub_tier != NULL ? sub_tier :
			partmgr_tier_of(set, tiers, action->upper);
		if (tier == NULL || !tier->usable || tier->spcid == home)
			continue;
		action->tier = tier->name;
		action->tier_tablespace = get_tablespace_name(tier->spcid);
	}
}

/*
 * partmgr_tier_validate
 *		The checks of a tier row before it is written (part_config_tier's
 *		trigger): a range set that is not a sub-set (0A000), an older_than
 *		its axis reads as positive (22023) that no other tier of the set has
 *		(other: the row's name before an UPDATE, or NULL), a tablespace that
 *		exists (42704), holds tables (22023) and the set's owner may create
 *		in (42501, with the GRANT).
 */
void
partmgr_tier_validate(const char *key, const char *name,
					  const char *older_than, const char *tablespace,
					  const char *other)
{
	PartmgrSet *set = partmgr_config_load(key, true);
	PartmgrStep age;
	ListCell   *lc;

	if (set == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("table \"%s\" is not managed by pg_partmgr", key)));
	if (set->strategy != PARTITION_STRATEGY_RANGE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("partition set \"%s\" is partitioned by %s: tiers need a range set",
						key, set->strategy == PARTITION_STRATEGY_HASH ?
						"HASH" : "LIST"),
				 errdetail("A tier holds the children older than an age, which the children of a hash or list set do not have.")));
	if (is_sub_set(set))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("partition set \"%s\" is a sub-set of another set", key),
				 errhint("Configure the tiers of the top set: its children's leaves follow them.")));
	parse_age(set, name, older_than, &age);
	foreach(lc, partmgr_tier_rows(key))
	{
		PartmgrTierRow *row = (PartmgrTierRow *) lfirst(lc);
		PartmgrStep theirs;

		if (strcmp(row->name, name) == 0 ||
			(other != NULL && strcmp(row->name, other) == 0))
			continue;
		parse_age(set, row->name, row->older_than, &theirs);
		if (memcmp(&theirs, &age, sizeof(age)) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_UNIQUE_VIOLATION),
					 errmsg("tier \"%s\" of partition set \"%s\" has older_than \"%s\" already",
							row->name, key, row->older_than),
					 errdetail("A child belongs in one tier: the oldest it has reached.")));
	}
	partmgr_check_owner_tablespace(set, tablespace,
								   psprintf("The children of tier \"%s\" are moved there with the owner's rights.",
											name));
}

/*
 * partmgr_tier_problems
 *		Why tiers of a set move nothing: a tablespace gone, or one the owner
 *		may not create in (with the GRANT); one text each, for health.
 */
List *
partmgr_tier_problems(PartmgrSet *set)
{
	List	   *problems = NIL;
	ListCell   *lc;

	foreach(lc, partmgr_tier_rows(set->key))
	{
		PartmgrTierRow *row = (PartmgrTierRow *) lfirst(lc);
		Oid			spcid = get_tablespace_oid(row->tablespace, true);

		if (!OidIsValid(spcid))
			problems = lappend(problems,
							   psprintf("tier \"%s\": tablespace \"%s\" does not exist, so its children stay where they are",
										row->name, row->tablespace));
		else if (!partmgr_owner_may_create_in(set, spcid))
			problems = lappend(problems,
							   psprintf("tier \"%s\": the owner lacks CREATE ON TABLESPACE %s, so its children stay where they are (%s)",
										row->name,
										quote_identifier(row->tablespace),
										partmgr_ddl_grant_on("CREATE",
															 "TABLESPACE",
															 quote_identifier(row->tablespace),
															 set->parent_owner)));
	}
	return problems;
}

/*
 * partmgr_tiers_next_move
 *		The oldest registered move of set key or of a sub-set of it (where
 *		tiers register the moves of leaves), for the runner to carry on: its
 *		id and the key of the set it belongs to.  False when there is none.
 */
bool
partmgr_tiers_next_move(const char *key, int64 *id, char **op_key)
{
	Oid			parent = partmgr_key_relid(key);
	const PartmgrReshapeOp *op;

	if (!OidIsValid(parent))
		return false;
	op = registered_move(key, parent);
	if (op == NULL)
		return false;
	*id = op->id;
	*op_key = op->key;
	return true;
}
