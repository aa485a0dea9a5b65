/*-------------------------------------------------------------------------
 *
 * api.h
 *	  Helpers shared by the SQL-callable functions (sets.c, data.c and the
 *	  others of this folder): argument checks, loading a named set with its
 *	  owner's rights, the set lock of interactive calls.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/api/api.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_API_H
#define PARTMGR_API_H

#include "fmgr.h"

#include "config.h"
#include "pg_partmgr.h"
#include "rights.h"

extern void partmgr_require_arg(FunctionCallInfo fcinfo, int argno,
								const char *name);
extern char *partmgr_text_arg(FunctionCallInfo fcinfo, int argno,
							  const char *name);
extern char *partmgr_text_arg_or_null(FunctionCallInfo fcinfo, int argno);
extern List *partmgr_text_array_arg(FunctionCallInfo fcinfo, int argno);
extern PartmgrSet *partmgr_act_on_table(const char *table,
										PartmgrRightsMode mode,
										PartmgrRights *rights);
extern void partmgr_check_not_hash(const PartmgrSet *set, const char *needs);
extern PartmgrSet *partmgr_load_set_of_kind(const char *table,
											PartmgrKeyKind kind,
											const char *other_function,
											PartmgrRights *rights);

/* sub_parent.c: whether the sub-sets' settings fit a set (create_sub_parent) */
extern void partmgr_check_sub_args(const PartmgrSet *set,
								   const PartmgrCreateArgs *a);

extern void partmgr_unique_hooks_install(void);

#endif							/* PARTMGR_API_H */
