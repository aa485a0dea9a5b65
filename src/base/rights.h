/*-------------------------------------------------------------------------
 *
 * rights.h
 *	  Whose rights pg_partmgr acts with: the one trust boundary.
 *
 * Everything pg_partmgr does to a partition set's tables -- statements,
 * reads in C, calls of the set's time encoder and decoder -- happens inside
 * a scope entered with partmgr_rights_enter_set, which switches to the
 * owner of the set's parent in a security-restricted operation with search_path
 * pinned to pg_catalog, pg_temp, as PostgreSQL's VACUUM, ANALYZE and CREATE
 * INDEX do before they touch a user's table.  Code the owner controls
 * (index expressions, CHECKs, defaults, triggers) therefore never runs with
 * the caller's rights.  pg_partmgr's own tables (partmgr.*) and the system
 * catalogs are read and written with the rights of whoever entered the
 * scope (the caller), see spi_util.h.
 *
 * Scopes are entered and left in strict nesting inside one transaction; an
 * error that aborts the (sub)transaction a scope was entered in ends the
 * scope (PostgreSQL restores the user and the settings; a callback here
 * forgets it).  A scope never spans a commit.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/rights.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_RIGHTS_H
#define PARTMGR_RIGHTS_H

#include "pg_partmgr.h"

/* What a scope allows. */
typedef enum PartmgrRightsMode
{
	PARTMGR_RIGHTS_ACT,			/* the caller has the owner's privileges:
								 * change the set, read its rows */
	PARTMGR_RIGHTS_LOOK			/* anyone: compute names and bounds (the
								 * owner's encoder and decoder run as the
								 * owner); no statement on its tables */
} PartmgrRightsMode;

/*
 * A scope as its caller holds it: which one it is.  What the scope is (the
 * owner, the caller, what to restore) lives in rights.c, where an aborted
 * (sub)transaction can forget it safely.
 */
typedef struct PartmgrRights
{
	int			level;			/* 1 for the outermost scope */
} PartmgrRights;

/* The rights of the caller, taken for one statement on our own tables. */
typedef struct PartmgrCallerRights
{
	Oid			save_userid;
	int			save_sec;
	int			nestlevel;		/* 0: nothing was pinned */
	bool		switched;
} PartmgrCallerRights;

#define PARTMGR_SAFE_SEARCH_PATH	"pg_catalog, pg_temp"

extern bool partmgr_may_act_on(Oid owner);
extern bool partmgr_owner_trusts(Oid set_owner, Oid object_owner);
extern void partmgr_check_may_act_on(Oid owner, const char *what);
extern void partmgr_rights_check_trigger_schema(Oid owner, const char *what,
												const char *why);
extern void partmgr_rights_enter_table(Oid relid, Oid owner,
									   PartmgrRightsMode mode,
									   const char *what, PartmgrRights *rights);
extern void partmgr_rights_enter_trigger(Oid owner, const char *what,
										 PartmgrRights *rights);
extern void partmgr_rights_enter_set(const PartmgrSet *set,
									 PartmgrRightsMode mode,
									 PartmgrRights *rights);
extern void partmgr_rights_leave(PartmgrRights *rights);
extern int	partmgr_rights_require(PartmgrRightsMode mode, const char *what);
extern void partmgr_owner_code_begin(int level);
extern void partmgr_owner_code_end(int level);
extern Oid	partmgr_rights_owner(void);
extern Oid	partmgr_rights_caller(void);
extern void partmgr_caller_begin(PartmgrCallerRights *saved);
extern void partmgr_caller_end(PartmgrCallerRights *saved);
extern Datum partmgr_call_owner_function(Oid fn, Datum arg);
extern char *partmgr_user_trigger(Oid relid, Oid ext, bool deferrable_only);

#endif							/* PARTMGR_RIGHTS_H */
