/*-------------------------------------------------------------------------
 *
 * capture.h
 *	  Change capture for reshapes: the trigger that records the key of
 *	  every row that changes in a child being reshaped (see capture.c).
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/state/capture.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_CAPTURE_H
#define PARTMGR_CAPTURE_H

#include "commands/trigger.h"

extern void partmgr_capture_fire(TriggerData *trigdata);
extern bool partmgr_capture_truncated(const char *schema, const char *log);

#endif							/* PARTMGR_CAPTURE_H */
