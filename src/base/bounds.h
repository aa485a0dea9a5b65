/*-------------------------------------------------------------------------
 *
 * bounds.h
 *	  Partition arithmetic: key kinds, intervals, points, child names.
 *
 * Everything here is computation on values: no SPI, no locks, and no catalog
 * access beyond calling a set's time encoder and decoder.  Errors are raised
 * with ereport for values a user supplied; callers add an error context that
 * names the partition set.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/bounds.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARTMGR_BOUNDS_H
#define PARTMGR_BOUNDS_H

#include "pg_partmgr.h"

/* Microseconds from 1970-01-01 to 2000-01-01, where TimestampTz counts from. */
#define PARTMGR_UNIX_EPOCH_USECS \
	((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY)

/* Key types */
extern bool partmgr_key_kind_for_type(Oid typid, PartmgrKeyKind *kind);

/* Time zones and axes */
extern bool partmgr_zone_is_valid(const char *zone_name);
extern void partmgr_axis_init(PartmgrAxis *axis, Oid typid,
							  const char *zone_name);
extern void partmgr_axis_set_epoch(PartmgrAxis *axis, const char *epoch);
extern void partmgr_axis_set_codec(PartmgrAxis *axis, Oid column_typid,
								   Oid encoder,
								   Oid decoder);
extern void partmgr_check_list_set(const PartmgrAxis *axis,
								   const PartmgrStep *step);

/* What an interval given as text is for; its error messages name it. */
typedef enum PartmgrStepUse
{
	PARTMGR_STEP_PARTITION,		/* a set's partition interval */
	PARTMGR_STEP_BATCH			/* the width of a batch of moved rows */
} PartmgrStepUse;

/* Intervals */
extern bool partmgr_interval_parse(const char *text, Interval *result);
extern void partmgr_step_parse(const PartmgrAxis *axis, const char *text,
							   PartmgrStepUse use, PartmgrStep *step);
extern char *partmgr_step_text(const PartmgrStep *step);
extern const char *partmgr_default_datetime_string(const PartmgrStep *step);
extern const char *partmgr_default_trunc_unit(const PartmgrStep *step);
extern bool partmgr_trunc_unit_is_valid(const char *unit);
extern void partmgr_check_trunc_unit(const PartmgrStep *step, const char *unit);

/* Points */
extern PartmgrPoint partmgr_point_add(const PartmgrAxis *axis,
									  const PartmgrStep *step,
									  PartmgrPoint point, int64 times);
extern PartmgrPoint partmgr_point_align(const PartmgrAxis *axis,
										const PartmgrStep *step,
										const char *trunc_unit,
										PartmgrPoint point);
extern PartmgrPoint partmgr_point_now(const PartmgrAxis *axis, TimestampTz now);
extern PartmgrPoint partmgr_point_parse(const PartmgrAxis *axis,
										const char *text);
extern PartmgrPoint partmgr_point_from_timestamptz(const PartmgrAxis *axis,
												   TimestampTz ts);
extern TimestampTz partmgr_point_to_timestamptz(const PartmgrAxis *axis,
												PartmgrPoint point);
extern PartmgrPoint partmgr_point_from_datum(const PartmgrAxis *axis,
											 Datum value);
extern bool partmgr_point_fits_type(const PartmgrAxis *axis,
									PartmgrPoint point);
extern char *partmgr_point_literal(const PartmgrAxis *axis, PartmgrPoint point);
extern char *partmgr_point_display(const PartmgrAxis *axis, PartmgrPoint point);
extern double partmgr_steps_between(const PartmgrAxis *axis,
									const PartmgrStep *step,
									PartmgrPoint from, PartmgrPoint to);

/* Eras: the intervals a set has had (change_interval) */
extern PartmgrEra partmgr_era_at(const PartmgrSet *set, PartmgrPoint point);
extern bool partmgr_era_slot_lower(const PartmgrSet *set, PartmgrPoint value,
								   PartmgrPoint *lower);
extern PartmgrPoint partmgr_slot_upper(const PartmgrSet *set,
									   PartmgrPoint lower);
extern const PartmgrStep *partmgr_finest_step(const PartmgrSet *set);
extern void partmgr_natural_step(const PartmgrAxis *axis, PartmgrPoint lower,
								 PartmgrPoint upper, PartmgrStep *step);
extern bool partmgr_same_step(const PartmgrStep *a, const PartmgrStep *b);
extern PartmgrEra *partmgr_eras_reshape(const PartmgrSet *set,
										const PartmgrEra *pieces,
										int npieces, PartmgrPoint lowest,
										int *neras);

/* Names */
extern char *partmgr_time_suffix(const PartmgrAxis *axis, PartmgrPoint point,
								 const char *datetime_string);
extern char *partmgr_name_with_suffix(const char *base, const char *suffix);

#endif							/* PARTMGR_BOUNDS_H */
