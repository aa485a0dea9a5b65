/*-------------------------------------------------------------------------
 *
 * properties.c
 *	  Read what a child should get beyond what PostgreSQL carries over from
 *	  the parent, build the statements that give it, find how existing
 *	  children differ, and drop a forgotten set's template table.
 *
 * pg_partman 5's rules.  The template table (part_config.template_table)
 * gives a new child its persistence (UNLOGGED), its storage parameters
 * (and those of its TOAST table) and the PRIMARY KEY / UNIQUE indexes the
 * parent does not have -- uniqueness per child on columns without the
 * partition key, which a partitioned table cannot enforce.  The parent
 * gives each column's compression and storage (CREATE TABLE ... LIKE
 * copies them) and statistics target (pg_partman 5.5; LIKE does not copy
 * it), its extended statistics (pg_partman 5.2's INCLUDING STATISTICS;
 * created here under names of ours, so that a child made with the
 * caller's rights gets them owned by its owner), its replica identity and,
 * with inherit_privileges, its grants; the owner is always the parent's
 * (see work.c).  Extended statistics belong on the leaf children: the
 * planner estimates the scan of each partition from that partition's own
 * statistics, and the parent's object only describes the whole tree.
 *
 * What a plan's new tables get is filled into the plan here, when the job
 * that made it asks (partmgr_plan_table_properties): the executor only
 * reads it.  check_children and reapply_child_properties compare existing
 * children with the same rules (partmgr_child_drift) and fix them through
 * ALTER_CHILD actions.  Everything here reads catalogs only, in the scope of
 * the owner's rights, but for partmgr_drop_unused_template, which drops the
 * template table of a forgotten set with the caller's rights (it is
 * pg_partmgr's configuration: no action, no maintenance_log row), and takes
 * ACCESS EXCLUSIVE on it through DROP TABLE.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/jobs/properties.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_class.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "compat.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "bounds.h"
#include "catalog.h"
#include "config.h"
#include "statements.h"
#include "execute.h"
#include "plan.h"
#include "properties.h"
#include "rights.h"
#include "spi_util.h"
#include "unique.h"

static List *grant_statements(const PartmgrProperties *props,
							  const char *schema,
							  const char *name);
static bool list_has_string(List *list, const char *s);

/*
 * partmgr_template_name
 *		The name of the template create_parent makes: template_<schema>_<table>,
 *		cut to 63 bytes, in schema partmgr (pg_partman's, in its schema).
 */
char *
partmgr_template_name(const char *schema, const char *table)
{
	return partmgr_name_with_suffix(psprintf("template_%s_%s", schema, table),
									"");
}

/*
 * partmgr_drop_unused_template
 *		Drop a set's template table once the set is forgotten, unless
 *		another set in part_config still names it.  As pg_partman does,
 *		whichever table it is, if it belongs to the set's owner (it is
 *		dropped with the owner's rights); with pg_partmgr.keep_user_templates
 *		only the one create_parent made (partmgr.template_<schema>_<table>).
 */
void
partmgr_drop_unused_template(const PartmgrSet *set)
{
	char	   *made;
	Oid			relid;

	if (set->template_table == NULL)
		return;
	made = partmgr_names_key(PARTMGR_SCHEMA,
							 partmgr_template_name(set->parent_schema,
												   set->parent_name));
	if (partmgr_keep_user_templates && strcmp(set->template_table, made) != 0)
		return;
	relid = partmgr_key_relid(set->template_table);
	if (!OidIsValid(relid) || get_rel_relkind(relid) != RELKIND_RELATION)
		return;
	{
		PartmgrParentInfo info;

		/* another role's table is never ours to drop */
		partmgr_read_parent(relid, &info);
		if (info.owner != set->parent_owner)
		{
			ereport(NOTICE,
					(errmsg("kept template table %s of \"%s\": it belongs to role \"%s\", not to the table's owner \"%s\"",
							quote_qualified_identifier(info.schema, info.name),
							set->key,
							GetUserNameFromId(info.owner, false),
							GetUserNameFromId(set->parent_owner, false)),
					 errhint("Drop it yourself if it is no longer needed.")));
			return;
		}
	}

	/*
	 * The owner's own table, dropped with the caller's rights like the one
	 * create_parent made in schema partmgr (where the owner need have no
	 * grant): DROP TABLE evaluates nothing the owner defined.  A template is
	 * pg_partmgr's configuration, not a table of the set: like the rows of
	 * part_config it is not in the maintenance log.
	 */
	if (!partmgr_config_template_in_use(set->template_table))
		partmgr_spi_exec(partmgr_ddl_drop_table(get_namespace_name(get_rel_namespace(relid)),
												get_rel_name(relid), false),
						 0, NULL, NULL, NULL, false, SPI_OK_UTILITY);
}

/*
 * check_template_owner
 *		Raise 42501 unless the template belongs to the parent's owner (or to a
 *		superuser): the indexes of a template run their expressions on every
 *		new child, with the owner's rights, so pg_partmgr never takes up a
 *		table of another role as a template -- not even one made in advance
 *		under the name create_parent would give its own.
 */
static void
check_template_owner(Oid template_oid, Oid template_owner, Oid parent_owner,
					 const char *parent_key)
{
	if (partmgr_owner_trusts(parent_owner, template_owner))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("template table %s of \"%s\" is owned by role \"%s\", not by the table's owner \"%s\"",
					quote_qualified_identifier(get_namespace_name(get_rel_namespace(template_oid)),
											   get_rel_name(template_oid)),
					parent_key, GetUserNameFromId(template_owner, false),
					GetUserNameFromId(parent_owner, false)),
			 errdetail("pg_partmgr uses only templates that belong to the owner of the partitioned table."),
			 errhint("Drop or rename that table, or give it to role \"%s\" if it is meant as the template.",
					 GetUserNameFromId(parent_owner, false))));
}

/*
 * partmgr_check_template
 *		The template table a user named for a parent (template_table, found
 *		as relid, InvalidOid when there is none): it must exist (42P01), be
 *		a plain table (42809), belong to the parent's owner (42501) and have
 *		no column the parent lacks (42703).
 */
Oid
partmgr_check_template(Oid parent, const char *template_table, Oid relid)
{
	static const char *const extra_sql =
	"SELECT t.attname FROM pg_catalog.pg_attribute t"
	" WHERE t.attrelid = $1 AND t.attnum > 0 AND NOT t.attisdropped"
	"   AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute p"
	"                    WHERE p.attrelid = $2 AND p.attname = t.attname"
	"                      AND NOT p.attisdropped AND p.atttypid = t.atttypid)"
	" ORDER BY t.attnum";
	Oid			types[2] = {OIDOID, OIDOID};
	Datum		values[2];

	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("template table \"%s\" does not exist", template_table),
				 errhint("Create it first, or leave p_template_table NULL to have one made.")));
	if (get_rel_relkind(relid) != RELKIND_RELATION)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("template table \"%s\" is not a plain table",
						template_table)));
	{
		PartmgrParentInfo template_info;
		PartmgrParentInfo parent_info;

		partmgr_read_parent(relid, &template_info);
		partmgr_read_parent(parent, &parent_info);
		check_template_owner(relid, template_info.owner, parent_info.owner,
							 partmgr_table_key(parent));
	}
	values[0] = ObjectIdGetDatum(relid);
	values[1] = ObjectIdGetDatum(parent);
	if (partmgr_spi_exec_cached(extra_sql, 2, types, values, NULL, false,
								SPI_OK_SELECT) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("template table \"%s\" has column \"%s\", which the parent table does not have with that type",
						template_table, partmgr_spi_text(0, 1))));
	return relid;
}

/*
 * unique_indexes
 *		The valid PRIMARY KEY and UNIQUE indexes of a table, primary first.
 *		With except, those for which that table has an index of the same
 *		definition, or a primary key on the same columns, are left out
 *		(pg_partman's rule).  With replica_only, only its replica identity
 *		index.
 */
static List *
unique_indexes(Oid relid, Oid except, bool replica_only)
{
	static const char *const sql =
	"WITH idx AS ("
	"  SELECT i.indexrelid, i.indrelid, i.indisprimary, i.indisunique,"
	" i.indisreplident,"
	"         substring(pg_catalog.pg_get_indexdef(i.indexrelid) FROM '"
	" (USING .*)$') AS def,"
	"         (SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY k.n)"
	"            FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)"
	"            JOIN pg_catalog.pg_attribute a"
	"              ON a.attrelid = i.indrelid AND a.attnum = k.attnum) AS cols,"
	"         quote_ident(s.spcname) AS spc,"
	"         i.indexprs IS NULL AND i.indpred IS NULL AS plain,"
	"         c.reltablespace AS spcid"
	"    FROM pg_catalog.pg_index i"
	"    JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid"
	"    LEFT JOIN pg_catalog.pg_tablespace s ON s.oid = c.reltablespace"
	"   WHERE i.indrelid IN ($1, $2) AND i.indisvalid)"
	"SELECT t.indisprimary, t.cols, t.def, t.spc, t.plain, t.spcid FROM idx t"
	" WHERE t.indrelid = $1 AND t.indisunique AND (NOT $3 OR t.indisreplident)"
	"   AND NOT EXISTS (SELECT 1 FROM idx p WHERE p.indrelid = $2"
	"                      AND (p.def = t.def OR (p.indisprimary AND"
	" t.indisprimary"
	"                                             AND p.cols = t.cols)))"
	" ORDER BY t.indisprimary DESC, t.indexrelid";
	Oid			types[3] = {OIDOID, OIDOID, BOOLOID};
	Datum		values[3];
	List	   *result = NIL;
	uint64		n;

	values[0] = ObjectIdGetDatum(relid);
	values[1] = ObjectIdGetDatum(except);
	values[2] = BoolGetDatum(replica_only);
	n = partmgr_spi_exec_cached(sql, 3, types, values, NULL, false,
								SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
	{
		PartmgrUniqueIndex *index = palloc(sizeof(PartmgrUniqueIndex));
		bool		isnull;

		index->primary = DatumGetBool(partmgr_spi_value(i, 1, &isnull));
		index->columns = partmgr_spi_text(i, 2);
		index->definition = partmgr_spi_text(i, 3);
		index->tablespace = partmgr_spi_text(i, 4);
		index->plain = DatumGetBool(partmgr_spi_value(i, 5, &isnull));
		index->spcid = DatumGetObjectId(partmgr_spi_value(i, 6, &isnull));
		result = lappend(result, index);
	}
	return result;
}

/*
 * table_grants
 *		The grants on a table to others than its owner and owner (the set's:
 *		a child another role owns is given to it, and what was granted to
 *		it then is its own), one entry per grantee and grant option,
 *		privileges sorted.
 */
static List *
table_grants(Oid relid, Oid owner)
{
	static const char *const sql =
	"SELECT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(r.rolname)"
	" END,"
	"       string_agg(a.privilege_type, ', ' ORDER BY a.privilege_type),"
	" a.is_grantable"
	"  FROM pg_catalog.pg_class c"
	"  CROSS JOIN LATERAL aclexplode(c.relacl) AS a"
	"  LEFT JOIN pg_catalog.pg_roles r ON r.oid = a.grantee"
	" WHERE c.oid = $1 AND a.grantee <> c.relowner AND a.grantee <> $2"
	" GROUP BY 1, 3 ORDER BY 1, 3";
	Oid			types[2] = {OIDOID, OIDOID};
	Datum		values[2];
	List	   *result = NIL;
	uint64		n;

	values[0] = ObjectIdGetDatum(relid);
	values[1] = ObjectIdGetDatum(owner);
	n = partmgr_spi_exec_cached(sql, 2, types, values, NULL, false,
								SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
	{
		PartmgrGrant *grant = palloc(sizeof(PartmgrGrant));
		bool		isnull;

		grant->grantee = partmgr_spi_text(i, 1);
		grant->privileges = partmgr_spi_text(i, 2);
		grant->grantable = DatumGetBool(partmgr_spi_value(i, 3, &isnull));
		result = lappend(result, grant);
	}
	return result;
}

/* The OID of a table's primary key index, or InvalidOid. */
static Oid
get_primary_key_index(Oid relid)
{
	Oid			primary;
	Oid			replident;

	partmgr_index_flags(relid, &primary, &replident);
	return primary;
}

/* What decides a table's properties, from pg_class. */
typedef struct TableState
{
	bool		has_indexes;	/* relhasindex */
	bool		has_grants;		/* relacl is not NULL */
	Oid			owner;
	bool		unlogged;
	char		replica_identity;
	Oid			replica_index;	/* its index with indisreplident */
	Oid			primary_index;	/* its primary key's index */
	List	   *reloptions;		/* of char *, as in PartmgrProperties */
} TableState;

/*
 * quoted_options
 *		A pg_class row's storage parameters as name='value' (the value a
 *		quoted literal), each name after prefix, added to list.
 */
static List *
quoted_options(List *list, HeapTuple reltup, const char *prefix)
{
	bool		isnull;
	Datum		options = SysCacheGetAttr(RELOID, reltup,
										  Anum_pg_class_reloptions, &isnull);
	Datum	   *elems;
	int			n;

	if (isnull)
		return list;
	deconstruct_array(DatumGetArrayTypeP(options), TEXTOID, -1, false,
					  TYPALIGN_INT,
					  &elems, NULL, &n);
	for (int i = 0; i < n; i++)
	{
		char	   *option = TextDatumGetCString(elems[i]);
		char	   *eq = strchr(option, '=');

		/*
		 * reloptions always holds name=value; a bare name is taken as its own
		 * value
		 */
		if (eq != NULL)
			*eq = '\0';
		list = lappend(list, psprintf("%s%s=%s", prefix, option,
									  quote_literal_cstr(eq != NULL ? eq + 1 :
														 option)));
	}
	return list;
}

/* list_sort's order of strings: bytewise, the "C" collation of reloptions */
static int
compare_strings(const ListCell *a, const ListCell *b)
{
	return strcmp((const char *) lfirst(a), (const char *) lfirst(b));
}

/*
 * read_table_state
 *		A table's TableState from the catalog caches.  Its storage
 *		parameters and its TOAST table's (named toast.<name>) are in one
 *		list in byte order.
 */
static void
read_table_state(Oid relid, TableState *state)
{
	HeapTuple	reltup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Form_pg_class form;
	bool		isnull;

	if (!HeapTupleIsValid(reltup))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	form = (Form_pg_class) GETSTRUCT(reltup);
	state->owner = form->relowner;
	state->unlogged = form->relpersistence == RELPERSISTENCE_UNLOGGED;
	state->replica_identity = form->relreplident;
	state->has_indexes = form->relhasindex;
	(void) SysCacheGetAttr(RELOID, reltup, Anum_pg_class_relacl, &isnull);
	state->has_grants = !isnull;
	state->reloptions = quoted_options(NIL, reltup, "");
	if (OidIsValid(form->reltoastrelid))
	{
		HeapTuple	toasttup = SearchSysCache1(RELOID,
											   ObjectIdGetDatum(form->reltoastrelid));

		if (HeapTupleIsValid(toasttup))
		{
			state->reloptions = quoted_options(state->reloptions, toasttup,
											   "toast.");
			ReleaseSysCache(toasttup);
		}
	}
	list_sort(state->reloptions, compare_strings);
	/* relhasindex is never false while the table has an index */
	state->replica_index = InvalidOid;
	state->primary_index = InvalidOid;
	if (form->relhasindex)
		partmgr_index_flags(relid, &state->primary_index,
							&state->replica_index);
	ReleaseSysCache(reltup);
}

/*
 * read_columns
 *		The compression, storage and statistics target of each column of a
 *		table, in column order.
 */
static List *
read_columns(Oid relid)
{
	HeapTuple	reltup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	int			natts;
	List	   *result = NIL;

	if (!HeapTupleIsValid(reltup))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	natts = ((Form_pg_class) GETSTRUCT(reltup))->relnatts;
	ReleaseSysCache(reltup);
	for (int attnum = 1; attnum <= natts; attnum++)
	{
		HeapTuple	tuple = SearchSysCache2(ATTNUM, ObjectIdGetDatum(relid),
											Int16GetDatum(attnum));
		Form_pg_attribute att;
		PartmgrColumn *column;

		if (!HeapTupleIsValid(tuple))
			continue;
		att = (Form_pg_attribute) GETSTRUCT(tuple);
		if (att->attisdropped)
		{
			ReleaseSysCache(tuple);
			continue;
		}
		column = palloc(sizeof(PartmgrColumn));
		column->name = pstrdup(NameStr(att->attname));
		column->compression = (att->attcompression == 'p' ? "pglz" :
							   att->attcompression == 'l' ? "lz4" : "default");
		column->storage = (att->attstorage == TYPSTORAGE_PLAIN ? "plain" :
						   att->attstorage == TYPSTORAGE_EXTERNAL ? "external" :
						   att->attstorage == TYPSTORAGE_MAIN ? "main" :
						   "extended");
		column->stattarget = partmgr_attribute_stattarget(tuple);
		result = lappend(result, column);
		ReleaseSysCache(tuple);
	}
	return result;
}

/*
 * partmgr_read_properties
 *		What new children of the set get beyond the parent's shape (see the
 *		file header).  A template that no longer exists is an error naming
 *		the set.
 */
void
partmgr_read_properties(const PartmgrSet *set, PartmgrProperties *props)
{
	TableState	parent;
	TableState	template;

	memset(props, 0, sizeof(*props));
	read_table_state(set->parent_oid, &parent);
	if (set->template_table != NULL)
	{
		props->template_oid = partmgr_key_relid(set->template_table);
		if (!OidIsValid(props->template_oid))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("template table \"%s\" of partition set \"%s\" does not exist",
							set->template_table, set->key),
					 errhint("Create it, or UPDATE partmgr.part_config SET template_table = NULL.")));
		read_table_state(props->template_oid, &template);
		check_template_owner(props->template_oid, template.owner,
							 set->parent_owner, set->key);
		props->unlogged = template.unlogged;
		props->reloptions = template.reloptions;
		if (template.has_indexes)
			props->unique_indexes = unique_indexes(props->template_oid,
												   set->parent_oid, false);
		if (props->unique_indexes != NIL)
			props->parent_has_primary = OidIsValid(parent.primary_index);
	}
	props->replica_identity = parent.replica_identity;
	props->replica_index_oid = parent.replica_index;
	if (props->replica_identity == REPLICA_IDENTITY_INDEX)
	{
		List	   *index = unique_indexes(set->parent_oid, InvalidOid, true);

		if (index == NIL)
			props->replica_identity = REPLICA_IDENTITY_DEFAULT;
		else
			props->replica_index = (PartmgrUniqueIndex *) linitial(index);
	}
	if (parent.has_grants)
		props->grants = table_grants(set->parent_oid, set->parent_owner);
	props->columns = read_columns(set->parent_oid);
	props->statistics = partmgr_statistics_on(set->parent_oid);
}

/* Whether a statistics object of that name exists in the schema. */
static bool
statistics_name_taken(Oid nspid, const char *name)
{
	static const char *const sql =
	"SELECT 1 FROM pg_catalog.pg_statistic_ext"
	" WHERE stxnamespace = $1 AND stxname OPERATOR(pg_catalog.=)"
	" $2::pg_catalog.name";
	Oid			types[2] = {OIDOID, TEXTOID};
	Datum		values[2];

	values[0] = ObjectIdGetDatum(nspid);
	values[1] = CStringGetTextDatum(name);
	return partmgr_spi_exec_cached(sql, 2, types, values, NULL, false,
								   SPI_OK_SELECT) > 0;
}

/*
 * statistics_name
 *		The name of a table's copy of the parent's statistics object:
 *		<table>_<parent's object>, the parent's name cut to 30 bytes and the
 *		table's so that it fits, then _1, _2, ... until neither a statistics
 *		object of the schema nor one named before in *taken (of char *,
 *		"schema.name": the names given to other tables of the same plan,
 *		whose names cut short may end alike) has it; the name chosen is
 *		added to *taken.
 */
static char *
statistics_name(const char *schema, const char *table, const char *parent_stat,
				List **taken)
{
	Oid			nspid = get_namespace_oid(schema, true);
	char	   *suffix = psprintf("_%.*s",
								  pg_mbcliplen(parent_stat,
											   strlen(parent_stat), 30),
								  parent_stat);
	char	   *name = partmgr_name_with_suffix(table, suffix);
	char	   *key = psprintf("%s.%s", schema, name);

	for (int i = 1; list_has_string(*taken, key) ||
		 (OidIsValid(nspid) && statistics_name_taken(nspid, name)); i++)
	{
		name = partmgr_name_with_suffix(table, psprintf("%s_%d", suffix, i));
		key = psprintf("%s.%s", schema, name);
	}
	*taken = lappend(*taken, key);
	return name;
}

/*
 * column_statistics_statement
 *		The statement that gives a table the statistics target of each
 *		column of the parent that has one, or NULL when none has.
 */
static char *
column_statistics_statement(const PartmgrProperties *props, const char *schema,
							const char *name)
{
	List	   *columns = NIL;
	List	   *targets = NIL;
	ListCell   *lc;

	foreach(lc, props->columns)
	{
		PartmgrColumn *column = (PartmgrColumn *) lfirst(lc);

		if (column->stattarget < 0)
			continue;
		columns = lappend(columns, column->name);
		targets = lappend(targets, psprintf("%d", column->stattarget));
	}
	if (columns == NIL)
		return NULL;
	return partmgr_ddl_alter_columns(schema, name, "STATISTICS", columns,
									 targets);
}

/*
 * new_table_statistics
 *		What gives a new table the parent's extended statistics (see
 *		PartmgrAction: statistics_sql, statistics_owner_sql) and their
 *		statistics targets (appended to *property_sql, run as the owner once
 *		the objects are its own).
 */
static void
new_table_statistics(const PartmgrSet *set, const PartmgrProperties *props,
					 PartmgrAction *action, List **property_sql, List **taken)
{
	ListCell   *lc;

	foreach(lc, props->statistics)
	{
		PartmgrStatistics *stat = (PartmgrStatistics *) lfirst(lc);
		char	   *stat_name = statistics_name(action->schema, action->name,
												stat->name,
												taken);

		action->statistics_sql = lappend(action->statistics_sql,
										 partmgr_ddl_create_statistics(action->schema,
																	   stat_name,
																	   stat->kinds,
																	   stat->columns,
																	   action->schema,
																	   action->name));
		action->statistics_owner_sql = lappend(action->statistics_owner_sql,
											   partmgr_ddl_statistics_owner(action->schema,
																			stat_name,
																			set->parent_owner));
		if (stat->target >= 0)
			*property_sql = lappend(*property_sql,
									partmgr_ddl_statistics_target(action->schema, stat_name,
																  stat->target));
	}
}

/*
 * column_statements
 *		What a new table (a leaf or a sub-parent) gets from the parent's
 *		columns and extended statistics before anything else the parent
 *		gives it: the statement list property_sql starts with.
 */
static List *
column_statements(const PartmgrSet *set, const PartmgrProperties *props,
				  PartmgrAction *action, List **taken)
{
	List	   *statements = NIL;
	char	   *targets = column_statistics_statement(props, action->schema,
													  action->name);

	if (targets != NULL)
		statements = lappend(statements, targets);
	new_table_statistics(set, props, action, &statements, taken);
	return statements;
}

/* The statement that gives a table a grant. */
static char *
grant_statement(const char *schema, const char *name, const PartmgrGrant *grant)
{
	return partmgr_ddl_grant(schema, name, grant->privileges, grant->grantee,
							 grant->grantable);
}

/* A unique index of a new child, under a name of ours or PostgreSQL's. */
static char *
index_statement(const char *schema, const char *name,
				const PartmgrUniqueIndex *index,
				bool primary, const char *index_name)
{
	return partmgr_ddl_unique_index(schema, name, primary, index_name,
									index->columns,
									index->definition, index->tablespace);
}

/* The name of the index a child's replica identity uses. */
static char *
replica_index_name(const PartmgrUniqueIndex *index, const char *child)
{
	return partmgr_name_with_suffix(child, index->primary ? "_pkey" :
									"_replica_identity_key");
}

/*
 * child_index_statements
 *		The indexes a new, still empty and unattached child gets after CREATE
 *		TABLE: the template's unique indexes and, for a replica identity
 *		USING INDEX, the index it names (ATTACH adopts it as the child's
 *		index of the parent's).  *plain says whether all of them are plain
 *		(no expression, no predicate).
 */
static List *
child_index_statements(const PartmgrProperties *props, const char *schema,
					   const char *name, bool *plain)
{
	List	   *statements = NIL;
	ListCell   *lc;

	*plain = true;
	foreach(lc, props->unique_indexes)
	{
		PartmgrUniqueIndex *index = (PartmgrUniqueIndex *) lfirst(lc);

		/* a child cannot have a primary key beside the parent's */
		statements = lappend(statements,
							 index_statement(schema, name, index,
											 index->primary &&
											 !props->parent_has_primary,
											 NULL));
		*plain &= index->plain;
	}
	if (props->replica_identity == REPLICA_IDENTITY_INDEX)
	{
		PartmgrUniqueIndex *index = props->replica_index;

		statements = lappend(statements,
							 index_statement(schema, name, index,
											 index->primary,
											 replica_index_name(index, name)));
		*plain &= index->plain;
	}
	return statements;
}

/*
 * child_property_statements
 *		What a new child gets after its indexes (child_index_statements):
 *		the parent's replica identity and, with inherit_privileges, the
 *		parent's grants.
 */
static List *
child_property_statements(const PartmgrSet *set, const PartmgrProperties *props,
						  const char *schema, const char *name)
{
	List	   *statements = NIL;

	if (props->replica_identity == REPLICA_IDENTITY_INDEX)
		statements = lappend(statements,
							 partmgr_ddl_replica_identity(schema, name,
														  REPLICA_IDENTITY_INDEX,
														  replica_index_name(props->replica_index,
																			 name)));
	else if (props->replica_identity != REPLICA_IDENTITY_DEFAULT)
		statements = lappend(statements,
							 partmgr_ddl_replica_identity(schema, name,
														  props->replica_identity, NULL));
	if (set->inherit_privileges)
		statements = list_concat(statements,
								 grant_statements(props, schema, name));
	return statements;
}

/*
 * partmgr_plan_table_properties
 *		Fill in what each table the plan creates gets (see PartmgrPlan): the
 *		template's persistence and storage parameters for CREATE TABLE, and
 *		per new child or default partition its indexes and the statements
 *		that give it the parent's properties.  A child created partitioned
 *		(plan->sub, already filled in) gets the parent's column statistics
 *		targets, extended statistics and grants only: its own children get
 *		the rest when they are made, and their columns from it.  Allocated
 *		in the plan's memory.
 */
void
partmgr_plan_table_properties(PartmgrPlan *plan)
{
	MemoryContext caller = MemoryContextSwitchTo(GetMemoryChunkContext(plan));
	PartmgrProperties props;
	bool		read = false;
	List	   *stat_names = NIL;
	ListCell   *lc;

	foreach(lc, plan->actions)
	{
		PartmgrAction *action = (PartmgrAction *) lfirst(lc);

		if (action->kind != PARTMGR_ACTION_CREATE_CHILD &&
			action->kind != PARTMGR_ACTION_CREATE_DEFAULT)
			continue;
		if (!read)
		{
			partmgr_read_properties(plan->set, &props);
			plan->unlogged = props.unlogged;
			plan->reloptions = props.reloptions;
			read = true;
		}
		action->property_sql = column_statements(plan->set, &props, action,
												 &stat_names);
		if (plan->sub != NULL && action->kind == PARTMGR_ACTION_CREATE_CHILD &&
			!action->staged && !action->unattached)
		{
			/* the columns too: the sub-set's children are made like it */
			if (plan->set->inherit_privileges)
				action->property_sql = list_concat(action->property_sql,
												   grant_statements(&props,
																	action->schema,
																	action->name));
			continue;
		}
		action->index_sql = child_index_statements(&props, action->schema,
												   action->name,
												   &action->plain_indexes);
		action->property_sql = list_concat(action->property_sql,
										   child_property_statements(plan->set,
																	 &props,
																	 action->schema,
																	 action->name));
	}
	plan->tables_read = true;
	MemoryContextSwitchTo(caller);
}

/*
 * grant_statements
 *		GRANT statements that give a new table the parent's grants.
 */
static List *
grant_statements(const PartmgrProperties *props, const char *schema,
				 const char *name)
{
	List	   *statements = NIL;
	ListCell   *lc;

	foreach(lc, props->grants)
		statements = lappend(statements,
							 grant_statement(schema, name,
											 (PartmgrGrant *) lfirst(lc)));
	return statements;
}

static const PartmgrGrant *
find_grant(List *grants, const char *grantee, bool grantable)
{
	ListCell   *lc;

	foreach(lc, grants)
	{
		const PartmgrGrant *grant = (const PartmgrGrant *) lfirst(lc);

		if (strcmp(grant->grantee, grantee) == 0 &&
			grant->grantable == grantable)
			return grant;
	}
	return NULL;
}

/* "role: INSERT, SELECT; other: SELECT (grantable)", or "none" */
static char *
grants_text(List *grants)
{
	StringInfoData buf;
	ListCell   *lc;

	if (grants == NIL)
		return "none";
	initStringInfo(&buf);
	foreach(lc, grants)
	{
		const PartmgrGrant *grant = (const PartmgrGrant *) lfirst(lc);

		appendStringInfo(&buf, "%s%s: %s%s", buf.len > 0 ? "; " : "",
						 grant->grantee,
						 grant->privileges, grant->grantable ? " (grantable)" :
						 "");
	}
	return buf.data;
}

static char *
options_text(List *options)
{
	StringInfoData buf;
	ListCell   *lc;

	if (options == NIL)
		return "none";
	initStringInfo(&buf);
	foreach(lc, options)
		appendStringInfo(&buf, "%s%s", buf.len > 0 ? ", " : "",
						 (char *) lfirst(lc));
	return buf.data;
}

static const char *
replica_identity_text(char ident, Oid index)
{
	switch (ident)
	{
		case REPLICA_IDENTITY_FULL:
			return "full";
		case REPLICA_IDENTITY_NOTHING:
			return "nothing";
		case REPLICA_IDENTITY_INDEX:
			return OidIsValid(index) ? psprintf("using index %s",
												get_rel_name(index)) :
				"using index";
		default:
			return "default";
	}
}

/*
 * The index of a child that is its partition of a parent's index, or
 * InvalidOid.
 */
static Oid
child_index_of(Oid child, Oid parent_index)
{
	static const char *const sql =
	"SELECT h.inhrelid FROM pg_catalog.pg_inherits h"
	"  JOIN pg_catalog.pg_index i ON i.indexrelid = h.inhrelid"
	" WHERE h.inhparent = $1 AND i.indrelid = $2";
	Oid			types[2] = {OIDOID, OIDOID};
	Datum		values[2];
	bool		isnull;

	values[0] = ObjectIdGetDatum(parent_index);
	values[1] = ObjectIdGetDatum(child);
	if (partmgr_spi_exec_cached(sql, 2, types, values, NULL, false,
								SPI_OK_SELECT) == 0)
		return InvalidOid;
	return DatumGetObjectId(partmgr_spi_value(0, 1, &isnull));
}

static PartmgrDrift *
new_drift(List **drifts, PartmgrDriftKind kind, const char *property,
		  char *expected,
		  char *actual)
{
	PartmgrDrift *drift = palloc0(sizeof(PartmgrDrift));

	drift->kind = kind;
	drift->property = property;
	drift->expected = expected;
	drift->actual = actual;
	*drifts = lappend(*drifts, drift);
	return drift;
}

static bool
list_has_string(List *list, const char *s)
{
	ListCell   *lc;

	foreach(lc, list)
	{
		if (strcmp((const char *) lfirst(lc), s) == 0)
			return true;
	}
	return false;
}

/* Whether two sorted lists of strings are the same. */
static bool
same_strings(List *a, List *b)
{
	ListCell   *la;
	ListCell   *lb;

	if (list_length(a) != list_length(b))
		return false;
	forboth(la, a, lb, b)
	{
		if (strcmp((const char *) lfirst(la), (const char *) lfirst(lb)) != 0)
			return false;
	}
	return true;
}

/* The option name of "name='value'". */
static char *
option_name(const char *option)
{
	return pnstrdup(option, strcspn(option, "="));
}

/*
 * reloption_fix
 *		ALTER TABLE ... SET the template's options the child lacks and RESET
 *		those the template does not have.
 */
static List *
reloption_fix(const char *schema, const char *name, List *want, List *have)
{
	List	   *set = NIL;
	List	   *reset = NIL;
	List	   *want_names = NIL;
	List	   *fix = NIL;
	ListCell   *lc;

	foreach(lc, want)
	{
		want_names = lappend(want_names, option_name((char *) lfirst(lc)));
		if (!list_has_string(have, (char *) lfirst(lc)))
			set = lappend(set, lfirst(lc));
	}
	foreach(lc, have)
	{
		char	   *option = option_name((char *) lfirst(lc));

		if (!list_has_string(want_names, option))
			reset = lappend(reset, option);
	}
	if (reset != NIL)
		fix = lappend(fix,
					  partmgr_ddl_set_reloptions(schema, name, reset, true));
	if (set != NIL)
		fix = lappend(fix,
					  partmgr_ddl_set_reloptions(schema, name, set, false));
	return fix;
}

/* A column of a table's by name, or NULL. */
static const PartmgrColumn *
find_column(List *columns, const char *name)
{
	ListCell   *lc;

	foreach(lc, columns)
	{
		const PartmgrColumn *column = (const PartmgrColumn *) lfirst(lc);

		if (strcmp(column->name, name) == 0)
			return column;
	}
	return NULL;
}

/* The value of a column's property of that kind, as the statement sets it. */
static char *
column_value(const PartmgrColumn *column, PartmgrDriftKind kind)
{
	switch (kind)
	{
		case PARTMGR_DRIFT_COMPRESSION:
			return (char *) column->compression;
		case PARTMGR_DRIFT_STORAGE:
			return (char *) column->storage;
		default:
			return psprintf("%d", column->stattarget);
	}
}

/* How check_children shows a column's property: "default" for -1. */
static char *
column_text(const PartmgrColumn *column, PartmgrDriftKind kind)
{
	if (kind == PARTMGR_DRIFT_STATISTICS_TARGET && column->stattarget < 0)
		return "default";
	return column_value(column, kind);
}

/*
 * column_drift
 *		The columns of a child whose property of one kind (compression,
 *		storage, statistics target) is not the parent's: a drift that lists
 *		them, "a: lz4, b: pglz" against "a: default, b: default", fixed by
 *		one ALTER TABLE ONLY.
 */
static void
column_drift(List **drifts, const PartmgrProperties *props, List *have,
			 PartmgrDriftKind kind,
			 const char *property, const char *option, const char *schema,
			 const char *name)
{
	StringInfoData expected;
	StringInfoData actual;
	List	   *columns = NIL;
	List	   *values = NIL;
	ListCell   *lc;

	initStringInfo(&expected);
	initStringInfo(&actual);
	foreach(lc, props->columns)
	{
		const PartmgrColumn *want = (const PartmgrColumn *) lfirst(lc);
		const PartmgrColumn *got = find_column(have, want->name);

		if (got == NULL ||
			strcmp(column_value(want, kind), column_value(got, kind)) == 0)
			continue;
		appendStringInfo(&expected, "%s%s: %s", columns != NIL ? ", " : "",
						 quote_identifier(want->name), column_text(want, kind));
		appendStringInfo(&actual, "%s%s: %s", columns != NIL ? ", " : "",
						 quote_identifier(want->name), column_text(got, kind));
		columns = lappend(columns, want->name);
		values = lappend(values, column_value(want, kind));
	}
	if (columns != NIL)
		new_drift(drifts, kind, property, expected.data, actual.data)->fix =
			list_make1(partmgr_ddl_alter_columns(schema, name, option, columns,
												 values));
}

/* "(ndistinct) ON a, b", with " statistics 500" for a target of its own */
static char *
statistics_text(const PartmgrStatistics *stat, bool with_target)
{
	return psprintf("%s%s%sON %s%s", stat->kinds ? "(" : "", stat->kinds ?
					stat->kinds : "",
					stat->kinds ? ") " : "", stat->columns,
					with_target && stat->target >= 0 ?
					psprintf(" statistics %d", stat->target) : "");
}

static char *
statistics_list_text(List *stats)
{
	StringInfoData buf;
	ListCell   *lc;

	if (stats == NIL)
		return "none";
	initStringInfo(&buf);
	foreach(lc, stats)
		appendStringInfo(&buf, "%s%s", buf.len > 0 ? "; " : "",
						 statistics_text((const PartmgrStatistics *) lfirst(lc), true));
	return buf.data;
}

/* Whether the owner may create objects in the schema (CREATE STATISTICS). */
static bool
owner_may_create(const char *schema, Oid owner)
{
	Oid			nspid = get_namespace_oid(schema, false);

	return partmgr_schema_aclcheck(nspid, owner, ACL_CREATE) == ACLCHECK_OK;
}

/*
 * statistics_drift
 *		The parent's extended statistics a child lacks (none of its objects
 *		has the same kinds on the same columns and expressions) and those it
 *		has with another statistics target.  Missing ones are created as on
 *		a new child: by the owner, or by the caller and given to the owner
 *		when the owner may not create objects in the child's schema.
 *		Objects of the child's own that the parent lacks are left alone
 *		and not reported.
 */
static void
statistics_drift(List **drifts, const PartmgrSet *set,
				 const PartmgrProperties *props,
				 Oid child, const char *schema, const char *name)
{
	List	   *have;
	List	   *fix = NIL;
	List	   *caller_fix = NIL;
	List	   *taken = NIL;
	bool		by_owner = true;
	bool		checked = false;
	ListCell   *lc;
	ListCell   *hc;

	if (props->statistics == NIL)
		return;
	have = partmgr_statistics_on(child);
	foreach(lc, props->statistics)
	{
		const PartmgrStatistics *want = (const PartmgrStatistics *) lfirst(lc);
		const PartmgrStatistics *got = NULL;
		char	   *want_text = statistics_text(want, false);
		char	   *stat_name;

		foreach(hc, have)
		{
			if (strcmp(statistics_text((const PartmgrStatistics *) lfirst(hc),
									   false),
					   want_text) == 0)
				got = (const PartmgrStatistics *) lfirst(hc);
		}
		if (got != NULL)
		{
			if (got->target != want->target)
				fix = lappend(fix,
							  partmgr_ddl_statistics_target(schema, got->name,
															want->target));
			continue;
		}
		if (!checked)
		{
			by_owner = owner_may_create(schema, set->parent_owner);
			checked = true;
		}
		stat_name = statistics_name(schema, name, want->name, &taken);
		if (by_owner)
			fix = lappend(fix,
						  partmgr_ddl_create_statistics(schema, stat_name,
														want->kinds,
														want->columns,
														schema, name));
		else
		{
			caller_fix = lappend(caller_fix,
								 partmgr_ddl_create_statistics(schema,
															   stat_name,
															   want->kinds,
															   want->columns,
															   schema,
															   name));
			caller_fix = lappend(caller_fix,
								 partmgr_ddl_statistics_owner(schema, stat_name,
															  set->parent_owner));
		}
		if (want->target >= 0)
			fix = lappend(fix,
						  partmgr_ddl_statistics_target(schema, stat_name,
														want->target));
	}
	if (fix != NIL || caller_fix != NIL)
	{
		PartmgrDrift *drift = new_drift(drifts,
										PARTMGR_DRIFT_EXTENDED_STATISTICS,
										"extended statistics",
										statistics_list_text(props->statistics),
										statistics_list_text(have));

		drift->fix = fix;
		drift->caller_fix = caller_fix;
	}
}

/*
 * partmgr_child_drift
 *		How an existing child differs from what the set says it should be:
 *		its owner (the parent's), with grants (inherit_privileges, or what
 *		reapply_privileges asks) its grants (the parent's), each column's
 *		compression, storage and statistics target and the extended
 *		statistics (the parent's), with a template its persistence and
 *		storage parameters (the template's), and its replica identity (the
 *		parent's) -- for a sub-parent, its owner, grants, columns and
 *		extended statistics only.  Each difference comes with the
 *		statements that remove it; grants the parent does not have are
 *		revoked with CASCADE.
 */
List *
partmgr_child_drift(const PartmgrSet *set, const PartmgrProperties *props,
					Oid child,
					bool grants)
{
	const char *schema = get_namespace_name(get_rel_namespace(child));
	const char *name = get_rel_name(child);
	List	   *drifts = NIL;
	TableState	state;
	PartmgrDrift *drift;
	Oid			index;
	ListCell   *lc;

	read_table_state(child, &state);
	if (state.owner != set->parent_owner)
	{
		char	   *owner = GetUserNameFromId(set->parent_owner, false);

		drift = new_drift(&drifts, PARTMGR_DRIFT_OWNER, "owner", owner,
						  GetUserNameFromId(state.owner, false));
		drift->fix = list_make1(partmgr_ddl_set_owner(schema, name,
													  set->parent_owner));
	}
	if (grants)
	{
		List	   *have = table_grants(child, set->parent_owner);
		List	   *fix = NIL;

		foreach(lc, have)
		{
			PartmgrGrant *grant = (PartmgrGrant *) lfirst(lc);
			const PartmgrGrant *want = find_grant(props->grants,
												  grant->grantee,
												  grant->grantable);

			if (want == NULL ||
				strcmp(want->privileges, grant->privileges) != 0)
				fix = lappend(fix,
							  partmgr_ddl_revoke(schema, name,
												 grant->privileges,
												 grant->grantee));
		}
		foreach(lc, props->grants)
		{
			PartmgrGrant *grant = (PartmgrGrant *) lfirst(lc);
			const PartmgrGrant *had = find_grant(have, grant->grantee,
												 grant->grantable);

			if (had == NULL || strcmp(had->privileges, grant->privileges) != 0)
				fix = lappend(fix, grant_statement(schema, name, grant));
		}
		if (fix != NIL)
			new_drift(&drifts, PARTMGR_DRIFT_GRANTS, "grants",
					  grants_text(props->grants),
					  grants_text(have))->fix = fix;
	}

	/*
	 * the parent's columns and extended statistics, for a sub-parent too: its
	 * own children are made like it
	 */
	{
		List	   *have = read_columns(child);

		column_drift(&drifts, props, have, PARTMGR_DRIFT_COMPRESSION,
					 "column compression",
					 "COMPRESSION", schema, name);
		column_drift(&drifts, props, have, PARTMGR_DRIFT_STORAGE,
					 "column storage",
					 "STORAGE", schema, name);
		column_drift(&drifts, props, have, PARTMGR_DRIFT_STATISTICS_TARGET,
					 "column statistics target", "STATISTICS", schema, name);
		statistics_drift(&drifts, set, props, child, schema, name);
	}

	/*
	 * a sub-parent (itself partitioned) has no storage, and its own sub-set
	 * sees to the properties of its children
	 */
	if (get_rel_relkind(child) == RELKIND_PARTITIONED_TABLE)
		return drifts;
	if (OidIsValid(props->template_oid))
	{
		if (state.unlogged != props->unlogged)
			new_drift(&drifts, PARTMGR_DRIFT_PERSISTENCE, "persistence",
					  props->unlogged ? "unlogged" : "logged",
					  state.unlogged ? "unlogged" : "logged")->fix =
				list_make1(partmgr_ddl_set_persistence(schema, name,
													   props->unlogged));
		if (!same_strings(state.reloptions, props->reloptions))
			new_drift(&drifts, PARTMGR_DRIFT_RELOPTIONS, "storage parameters",
					  options_text(props->reloptions),
					  options_text(state.reloptions))->fix =
				reloption_fix(schema, name, props->reloptions,
							  state.reloptions);
	}
	/* a leaf's TRUNCATE trigger of each global unique constraint */
	foreach(lc, partmgr_unique_list_of(partmgr_unique_top(set->parent_oid)))
	{
		PartmgrUnique *u = lfirst(lc);
		char	   *trigger = psprintf("%s_truncate", u->name);

		if (!OidIsValid(get_trigger_oid(child, trigger, true)))
			new_drift(&drifts, PARTMGR_DRIFT_GLOBAL_UNIQUE,
					  "global unique TRUNCATE trigger",
					  trigger, pstrdup("none"))->fix =
				list_make1(partmgr_ddl_unique_truncate_trigger(schema, name,
															   u->name,
															   u->side_schema,
															   u->ncols,
															   u->columns));
	}
	index = (props->replica_identity == REPLICA_IDENTITY_INDEX ?
			 child_index_of(child, props->replica_index_oid) : InvalidOid);
	if (state.replica_identity != props->replica_identity ||
		(props->replica_identity == REPLICA_IDENTITY_INDEX &&
		 state.replica_index != index))
	{
		drift = new_drift(&drifts, PARTMGR_DRIFT_REPLICA_IDENTITY,
						  "replica identity",
						  (char *) replica_identity_text(props->replica_identity, index),
						  (char *) replica_identity_text(state.replica_identity,
														 state.replica_index));
		if (props->replica_identity != REPLICA_IDENTITY_INDEX ||
			OidIsValid(index))
			drift->fix = list_make1(partmgr_ddl_replica_identity(schema, name,
																 props->replica_identity,
																 OidIsValid(index) ?
																 get_rel_name(index) : NULL));
	}
	return drifts;
}

/*
 * partmgr_template_statements
 *		What gives an existing child what the template says
 *		(inherit_template_properties): the template's unique indexes the
 *		child has no index of the same definition for (a primary key when
 *		neither the child nor the parent has one), then its persistence and
 *		storage parameters.  Empty when the child has them all.
 */
List *
partmgr_template_statements(const PartmgrSet *set,
							const PartmgrProperties *props, Oid child)
{
	const char *schema = get_namespace_name(get_rel_namespace(child));
	const char *name = get_rel_name(child);
	List	   *statements = NIL;
	bool		has_primary = (props->parent_has_primary ||
							   OidIsValid(get_primary_key_index(child)));
	ListCell   *lc;

	if (!OidIsValid(props->template_oid))
		return NIL;
	foreach(lc, unique_indexes(props->template_oid, child, false))
	{
		PartmgrUniqueIndex *index = (PartmgrUniqueIndex *) lfirst(lc);

		statements = lappend(statements,
							 index_statement(schema, name, index,
											 index->primary && !has_primary,
											 NULL));
	}
	foreach(lc, partmgr_child_drift(set, props, child, false))
	{
		PartmgrDrift *drift = (PartmgrDrift *) lfirst(lc);

		if (drift->kind == PARTMGR_DRIFT_PERSISTENCE ||
			drift->kind == PARTMGR_DRIFT_RELOPTIONS)
			statements = list_concat(statements, drift->fix);
	}
	return statements;
}

/* ----------------------------------------------------------------
 * Replacements: what a child that replaces another gets of it (reshapes)
 * ----------------------------------------------------------------
 */

/*
 * index_statement_sql
 *		SQL (a fragment over pg_index i and pg_constraint con) that writes
 *		the statement giving table $3 an index like i: ALTER TABLE ... ADD
 *		of the constraint it backs (PRIMARY KEY, UNIQUE, EXCLUDE), else
 *		CREATE INDEX with pg_get_indexdef's USING part; named as the SQL
 *		expression name says (NULL: PostgreSQL's choice).
 */
#define INDEX_STATEMENT_SQL(name, strip) \
"CASE WHEN con.oid IS NOT NULL" \
"     THEN pg_catalog.format('ALTER TABLE %s ADD %s%s', $3," \
"                            'CONSTRAINT ' || pg_catalog.quote_ident(" name ") || ' ', " \
"                            CASE WHEN " strip " THEN pg_catalog.regexp_replace(" \
"                                   pg_catalog.pg_get_constraintdef(con.oid)," \
"                                   ' USING INDEX TABLESPACE (\"([^\"]|\"\")*\"|[^ ]+)', '')" \
"                                 ELSE pg_catalog.pg_get_constraintdef(con.oid) END)" \
"     ELSE pg_catalog.format('CREATE %sINDEX %s ON %s %s'," \
"                            CASE WHEN i.indisunique THEN 'UNIQUE ' ELSE '' END," \
"                            pg_catalog.quote_ident(" name "), $3," \
"                            substring(pg_catalog.pg_get_indexdef(i.indexrelid) FROM ' (USING .*)$'))" \
"END"

/*
 * A move's new index, for an index of the old child whose name starts with
 * the child's name and '_': the new child's name (name) with the same
 * suffix, which the swap turns back into the old index's name; else NULL
 * (PostgreSQL picks one).  ic and sc are the old index's and the old child's
 * pg_class rows.
 */
#define MOVED_INDEX_NAME_SQL(move, name) \
"CASE WHEN " move " AND pg_catalog.left(ic.relname, pg_catalog.length(sc.relname) + 1)" \
"          = sc.relname || '_'" \
"     THEN " name " || pg_catalog.substr(ic.relname, pg_catalog.length(sc.relname) + 1) END"

/*
 * partmgr_replacement_key_statements
 *		The statement that gives a new child (schema.name, still empty) the
 *		unique index of the child it replaces that identifies its rows:
 *		the copy and the replay of a reshape find rows by it.  For a move,
 *		named after the old one's and without its tablespace (see below).
 */
List *
partmgr_replacement_key_statements(Oid source, Oid key_index,
								   const char *schema,
								   const char *name, bool move)
{
	static const char *const sql =
	"SELECT " INDEX_STATEMENT_SQL(MOVED_INDEX_NAME_SQL("$4", "$5"), "$4")
	"  FROM pg_catalog.pg_index i"
	"  JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid"
	"  JOIN pg_catalog.pg_class sc ON sc.oid = i.indrelid"
	"  LEFT JOIN pg_catalog.pg_constraint con"
	"    ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid"
	"   AND con.contype IN ('p', 'u', 'x')"
	" WHERE i.indrelid = $1 AND i.indexrelid = $2";
	Oid			types[5] = {OIDOID, OIDOID, TEXTOID, BOOLOID, TEXTOID};
	Datum		values[5];

	values[0] = ObjectIdGetDatum(source);
	values[1] = ObjectIdGetDatum(key_index);
	values[2] = CStringGetTextDatum(quote_qualified_identifier(schema, name));
	values[3] = BoolGetDatum(move);
	values[4] = CStringGetTextDatum(name);
	if (partmgr_spi_exec(sql, 5, types, values, NULL, false,
						 SPI_OK_SELECT) != 1)
		elog(ERROR, "index %u of table %u vanished", key_index, source);
	return list_make1(partmgr_spi_text(0, 1));
}

/*
 * partmgr_replacement_statements
 *		What a new child (schema.name, relid target, its rows copied) gets
 *		of the child it replaces (source) that it lacks, in the order to
 *		run it: the indexes (as PRIMARY KEY, UNIQUE or EXCLUDE constraints
 *		where the old child's back one; the replica identity's named
 *		name_replident, for REPLICA IDENTITY USING INDEX to name it), the
 *		CHECK constraints (the parent's it has already, from CREATE TABLE
 *		... LIKE; pg_partmgr's own temporary ones are left out), the
 *		foreign keys (added NOT VALID, then validated: validation locks the
 *		referenced table less), the replica identity, the grants to other
 *		roles, each column's statistics target, storage and compression
 *		where they differ from the new child's, the extended statistics
 *		objects of the old child's owner, then ANALYZE.  Its indexes
 *		matching the parent's are adopted by ATTACH, with no build.  For a
 *		move the index definitions name no tablespace (the move chooses it
 *		with default_tablespace), and an index named after the old child
 *		keeps its name (MOVED_INDEX_NAME_SQL).
 */
List *
partmgr_replacement_statements(Oid source, Oid target, const char *schema,
							   const char *name, bool move)
{
	static const char *const sql =
	"WITH idx AS ("
	"  SELECT i.indexrelid, i.indrelid, i.indisunique, i.indisprimary,"
	"         i.indisreplident AS replident,"
	"         substring(pg_catalog.pg_get_indexdef(i.indexrelid) FROM '"
	" (USING .*)$') AS def,"
	"         (SELECT c.contype FROM pg_catalog.pg_constraint c"
	"           WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid"
	"             AND c.contype IN ('p', 'u', 'x')) AS contype,"
	"         " MOVED_INDEX_NAME_SQL("$5", "$4") " AS movedname"
	"    FROM pg_catalog.pg_index i"
	"    JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid"
	"    JOIN pg_catalog.pg_class sc ON sc.oid = i.indrelid"
	"   WHERE i.indrelid IN ($1, $2) AND i.indisvalid AND i.indislive)"
	"SELECT 1 AS step, s.indexrelid::pg_catalog.int8 AS ord,"
	"       (SELECT " INDEX_STATEMENT_SQL("s.newname", "$5")
	"          FROM pg_catalog.pg_index i"
	"          LEFT JOIN pg_catalog.pg_constraint con"
	"            ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid"
	"           AND con.contype IN ('p', 'u', 'x')"
	"         WHERE i.indexrelid = s.indexrelid) AS sql"
	"  FROM (SELECT s.*, COALESCE(s.movedname, CASE WHEN s.replident THEN"
	" $4 || '_replident' END) AS newname"
	"          FROM idx s) s"
	" WHERE s.indrelid = $1"
	"   AND NOT EXISTS (SELECT FROM idx t WHERE t.indrelid = $2 AND t.def ="
	" s.def"
	"                      AND t.indisunique = s.indisunique"
	"                      AND t.contype IS NOT DISTINCT FROM s.contype)"
	" UNION ALL "
	"SELECT 2, c.oid::pg_catalog.int8,"
	"       pg_catalog.format('ALTER TABLE %s ADD CONSTRAINT %I %s', $3,"
	" c.conname,"
	"                         pg_catalog.pg_get_constraintdef(c.oid))"
	"  FROM pg_catalog.pg_constraint c"
	" WHERE c.conrelid = $1 AND c.contype = 'c'"
	"   AND c.conname NOT LIKE 'partmgr\\_%' "
	"   AND NOT EXISTS (SELECT FROM pg_catalog.pg_constraint t"
	"                    WHERE t.conrelid = $2 AND t.conname = c.conname)"
	" UNION ALL "
	"SELECT 3, c.oid::pg_catalog.int8,"
	"       pg_catalog.format('ALTER TABLE %s ADD CONSTRAINT %I %s%s', $3,"
	" c.conname,"
	"                         pg_catalog.pg_get_constraintdef(c.oid),"
	"                         CASE WHEN c.convalidated THEN ' NOT VALID' ELSE"
	" '' END)"
	"  FROM pg_catalog.pg_constraint c"
	" WHERE c.conrelid = $1 AND c.contype = 'f'"
	"   AND NOT EXISTS (SELECT FROM pg_catalog.pg_constraint t"
	"                    WHERE t.conrelid = $2 AND t.conname = c.conname)"
	" UNION ALL "
	"SELECT 4, c.oid::pg_catalog.int8,"
	"       pg_catalog.format('ALTER TABLE %s VALIDATE CONSTRAINT %I', $3,"
	" c.conname)"
	"  FROM pg_catalog.pg_constraint c"
	" WHERE c.conrelid = $1 AND c.contype = 'f' AND c.convalidated"
	"   AND NOT EXISTS (SELECT FROM pg_catalog.pg_constraint t"
	"                    WHERE t.conrelid = $2 AND t.conname = c.conname AND"
	" t.convalidated)"
	" UNION ALL "
	"SELECT 5, 0, pg_catalog.format('ALTER TABLE %s REPLICA IDENTITY %s', $3,"
	"                               CASE s.relreplident WHEN 'f' THEN 'FULL'"
	" WHEN 'n' THEN 'NOTHING'"
	"                                    ELSE 'USING INDEX ' ||"
	" pg_catalog.quote_ident(COALESCE("
	"   (SELECT c.relname FROM idx x JOIN idx y ON y.indrelid = $2"
	"      AND y.def = x.def AND y.indisunique"
	"      JOIN pg_catalog.pg_class c ON c.oid = y.indexrelid"
	"     WHERE x.indrelid = $1 AND x.replident LIMIT 1),"
	"   (SELECT x.movedname FROM idx x"
	"     WHERE x.indrelid = $1 AND x.replident),"
	"   $4 || '_replident')) END)"
	"  FROM pg_catalog.pg_class s, pg_catalog.pg_class t"
	" WHERE s.oid = $1 AND t.oid = $2 AND s.relreplident <> 'd'"
	"   AND s.relreplident <> t.relreplident"
	" UNION ALL "
	"SELECT 6, 0, pg_catalog.format('GRANT %s ON %s TO %s%s', a.privs, $3,"
	" a.grantee,"
	"                               CASE WHEN a.grantable THEN ' WITH GRANT"
	" OPTION' ELSE '' END)"
	"  FROM (SELECT CASE WHEN e.grantee = 0 THEN 'PUBLIC'"
	"                    ELSE pg_catalog.quote_ident(r.rolname) END AS grantee,"
	"               e.is_grantable AS grantable,"
	"               pg_catalog.string_agg(e.privilege_type, ', ' ORDER BY"
	" e.privilege_type) AS privs"
	"          FROM pg_catalog.pg_class c"
	"          CROSS JOIN LATERAL pg_catalog.aclexplode(c.relacl) e"
	"          LEFT JOIN pg_catalog.pg_roles r ON r.oid = e.grantee"
	"         WHERE c.oid = $1 AND e.grantee <> c.relowner"
	"         GROUP BY 1, 2) a"
	" UNION ALL "
	"SELECT 7, s.attnum::pg_catalog.int8,"
	"       pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I SET STATISTICS"
	" %s', $3,"
	"                         s.attname, s.attstattarget)"
	"  FROM pg_catalog.pg_attribute s JOIN pg_catalog.pg_attribute t"
	"    ON t.attrelid = $2 AND t.attname = s.attname AND NOT t.attisdropped"
	" WHERE s.attrelid = $1 AND s.attnum > 0 AND NOT s.attisdropped"
	"   AND s.attstattarget <> t.attstattarget"
	" UNION ALL "
	"SELECT 8, s.attnum::pg_catalog.int8,"
	"       pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I SET STORAGE"
	" %s', $3, s.attname,"
	"                         CASE s.attstorage WHEN 'p' THEN 'PLAIN' WHEN"
	" 'e' THEN 'EXTERNAL'"
	"                              WHEN 'm' THEN 'MAIN' ELSE 'EXTENDED' END)"
	"  FROM pg_catalog.pg_attribute s JOIN pg_catalog.pg_attribute t"
	"    ON t.attrelid = $2 AND t.attname = s.attname AND NOT t.attisdropped"
	" WHERE s.attrelid = $1 AND s.attnum > 0 AND NOT s.attisdropped"
	"   AND s.attstorage <> t.attstorage"
	" UNION ALL "
	"SELECT 9, s.attnum::pg_catalog.int8,"
	"       pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I SET COMPRESSION"
	" %s', $3, s.attname,"
	"                         CASE s.attcompression WHEN 'p' THEN 'pglz' WHEN"
	" 'l' THEN 'lz4'"
	"                              ELSE 'default' END)"
	"  FROM pg_catalog.pg_attribute s JOIN pg_catalog.pg_attribute t"
	"    ON t.attrelid = $2 AND t.attname = s.attname AND NOT t.attisdropped"
	" WHERE s.attrelid = $1 AND s.attnum > 0 AND NOT s.attisdropped"
	"   AND s.attcompression <> t.attcompression"
	" UNION ALL "
	"SELECT 10, x.oid::pg_catalog.int8,"
	"       pg_catalog.format('CREATE STATISTICS %s%s ON %s FROM %s',"
	"                         pg_catalog.quote_ident($4 || '_' || x.stxname),"
	"                         CASE WHEN x.stxkind @> ARRAY['e']::\"char\"[]"
	"                               AND pg_catalog.cardinality(x.stxkind) = 1"
	" THEN ''"
	"                              ELSE ' (' ||"
	" pg_catalog.array_to_string(ARRAY("
	"                                SELECT CASE k WHEN 'd' THEN 'ndistinct'"
	" WHEN 'f' THEN 'dependencies'"
	"                                              WHEN 'm' THEN 'mcv' END"
	"                                  FROM pg_catalog.unnest(x.stxkind) k"
	" WHERE k <> 'e'), ', ') || ')'"
	"                         END,"
	"                        "
	" pg_catalog.pg_get_statisticsobjdef_columns(x.oid), $3)"
	"  FROM pg_catalog.pg_statistic_ext x JOIN pg_catalog.pg_class c ON c.oid"
	" = x.stxrelid"
	" WHERE x.stxrelid = $1 AND x.stxowner = c.relowner"
	"   AND NOT EXISTS (SELECT FROM pg_catalog.pg_statistic_ext t"
	"                    WHERE t.stxrelid = $2 AND t.stxkeys = x.stxkeys"
	"                      AND t.stxexprs IS NOT DISTINCT FROM x.stxexprs)"
	" UNION ALL "
	"SELECT 11, 0, pg_catalog.format('ANALYZE %s', $3)"
	" ORDER BY 1, 2";
	Oid			types[5] = {OIDOID, OIDOID, TEXTOID, TEXTOID, BOOLOID};
	Datum		values[5];
	List	   *statements = NIL;
	uint64		n;

	values[0] = ObjectIdGetDatum(source);
	values[1] = ObjectIdGetDatum(target);
	values[2] = CStringGetTextDatum(quote_qualified_identifier(schema, name));
	values[3] = CStringGetTextDatum(name);
	values[4] = BoolGetDatum(move);
	n = partmgr_spi_exec(sql, 5, types, values, NULL, false, SPI_OK_SELECT);
	for (uint64 i = 0; i < n; i++)
		statements = lappend(statements, partmgr_spi_text(i, 3));
	return statements;
}
