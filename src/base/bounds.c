/*-------------------------------------------------------------------------
 *
 * bounds.c
 *	  Partition arithmetic: which key types are supported, partition
 *	  intervals, points on a set's key axis, and child table names.
 *
 * Time arithmetic is done in the set's own time zone (stored with the set,
 * UTC by default), never in the session's TimeZone, so whoever runs
 * maintenance gets the same bounds.  Adding an interval follows PostgreSQL's
 * timestamptz + interval rules (months and days move the wall clock in that
 * zone, the time part moves the instant).  For timestamp and date keys the
 * wall-clock value is used as is, which is the same arithmetic in UTC.
 *
 * Pure functions: no SPI, no catalog access, no locks, no transactions --
 * except that a set whose text or uuid key stands for times calls its
 * owner's encoder and decoder, which rights.c runs with the owner's rights
 * (an internal error outside the scope of those rights), and that reading a
 * time given as text in the set's zone sets TimeZone for that one call.
 *
 * Copyright (c) 2026, the pg_partmgr authors
 * Licensed under the PostgreSQL License; see LICENSE.
 *
 * IDENTIFICATION
 *	  src/base/bounds.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "common/int.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/fmgrprotos.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "bounds.h"
#include "rights.h"

static const char *const trunc_units[] = {
	"microseconds", "milliseconds", "second", "minute", "hour", "day", "week",
	"month", "quarter", "year", "decade", "century", "millennium", NULL
};

/*
 * partmgr_key_kind_for_type
 *		Tell whether a control column of this type can be managed, and how.
 */
bool
partmgr_key_kind_for_type(Oid typid, PartmgrKeyKind *kind)
{
	switch (typid)
	{
		case TIMESTAMPTZOID:
		case TIMESTAMPOID:
		case DATEOID:
			*kind = PARTMGR_KEY_TIME;
			return true;
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case NUMERICOID:
			*kind = PARTMGR_KEY_ID;
			return true;
		default:
			return false;
	}
}

/*
 * partmgr_zone_is_valid
 *		True if the name is a time zone that the server knows (a full name
 *		such as "Europe/Berlin" or "UTC", not an abbreviation).
 */
bool
partmgr_zone_is_valid(const char *zone_name)
{
	pg_tz	   *tz;

	if (zone_name == NULL || zone_name[0] == '\0')
		return false;
	tz = pg_tzset(zone_name);
	return tz != NULL && pg_tz_acceptable(tz);
}

/*
 * partmgr_axis_init
 *		Prepare the arithmetic of a set whose control column has type typid
 *		and whose time zone is zone_name.  Raises an error for an unknown
 *		zone.  The pg_tz pointers stay valid for the life of the backend.
 */
void
partmgr_axis_init(PartmgrAxis *axis, Oid typid, const char *zone_name)
{
	/* a part_config row written by hand can name a table of any key type */
	if (!partmgr_key_kind_for_type(typid, &axis->kind))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("pg_partmgr cannot partition by a control column of type %s",
						format_type_be(typid)),
				 errhint("Supported types are timestamp with time zone, timestamp, date, smallint, integer, bigint and numeric; text, varchar and uuid with a time encoder and decoder.")));

	if (!partmgr_zone_is_valid(zone_name))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("time zone \"%s\" is not recognized", zone_name),
				 errhint("Use a full time zone name from pg_timezone_names, such as \"UTC\" or \"Europe/Berlin\".")));

	axis->typid = typid;
	axis->column_typid = typid;
	axis->epoch_unit = 0;
	axis->encoder = InvalidOid;
	axis->decoder = InvalidOid;
	axis->zone_name = pstrdup(zone_name);
	axis->zone = pg_tzset(zone_name);
	if (typid == TIMESTAMPTZOID)
	{
		axis->calc_zone_name = axis->zone_name;
		axis->calc_zone = axis->zone;
	}
	else
	{
		axis->calc_zone_name = "UTC";
		axis->calc_zone = pg_tzset("UTC");
	}
}

/*
 * partmgr_axis_set_epoch
 *		Make the axis of an integer control column an epoch axis: the column
 *		holds Unix time in the given unit ("seconds", "milliseconds",
 *		"microseconds" or "nanoseconds"; "none" leaves it alone), children
 *		span time intervals in the set's zone and bounds are written as the
 *		matching integers.
 */
void
partmgr_axis_set_epoch(PartmgrAxis *axis, const char *epoch)
{
	static const struct
	{
		const char *name;
		int64		unit;
	}			units[] = {
		{"seconds", 1}, {"milliseconds", 1000}, {"microseconds", 1000000},
		{"nanoseconds", INT64CONST(1000000000)}
	};

	if (epoch == NULL || strcmp(epoch, "none") == 0)
		return;
	if (axis->column_typid != INT4OID && axis->column_typid != INT8OID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("epoch \"%s\" needs an integer or bigint control column, not %s",
						epoch, format_type_be(axis->column_typid)),
				 errhint("An epoch set keeps Unix time in an integer column; a timestamp column needs p_epoch => 'none'.")));
	for (int i = 0; i < lengthof(units); i++)
	{
		if (strcmp(epoch, units[i].name) == 0)
		{
			axis->epoch_unit = units[i].unit;
			axis->kind = PARTMGR_KEY_TIME;
			axis->typid = TIMESTAMPTZOID;
			axis->calc_zone_name = axis->zone_name;
			axis->calc_zone = axis->zone;
			return;
		}
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("epoch \"%s\" is not a unit of Unix time", epoch),
			 errhint("epoch is 'none', 'seconds', 'milliseconds', 'microseconds' or 'nanoseconds'.")));
}

static void raise_out_of_range(void);

/*
 * partmgr_axis_set_codec
 *		Make the axis of a time axis (initialised for timestamptz) the axis
 *		of a text, varchar or uuid control column whose values stand for
 *		times (pg_partman 5.2's time encoder and decoder): bounds are the
 *		encoder's values for the bound times, and a value's time is what
 *		the decoder says.
 */
void
partmgr_axis_set_codec(PartmgrAxis *axis, Oid column_typid, Oid encoder,
					   Oid decoder)
{
	axis->column_typid = column_typid;
	axis->encoder = encoder;
	axis->decoder = decoder;
}


/*
 * epoch_to_point, epoch_from_point
 *		An epoch column's integer and the point it stands for.  Nanoseconds
 *		are floored to the microsecond a timestamptz can hold.
 */
static PartmgrPoint
epoch_to_point(const PartmgrAxis *axis, int64 value)
{
	int64		usecs;

	if (axis->epoch_unit >= USECS_PER_SEC)
	{
		int64		per = axis->epoch_unit / USECS_PER_SEC;

		usecs = value / per - ((value % per) < 0 ? 1 : 0);
	}
	else if (pg_mul_s64_overflow(value, USECS_PER_SEC / axis->epoch_unit,
								 &usecs))
		raise_out_of_range();
	return usecs - PARTMGR_UNIX_EPOCH_USECS;
}

static bool
epoch_from_point(const PartmgrAxis *axis, PartmgrPoint point, int64 *value)
{
	int64		usecs = point + PARTMGR_UNIX_EPOCH_USECS;

	if (axis->epoch_unit >= USECS_PER_SEC)
		return !pg_mul_s64_overflow(usecs, axis->epoch_unit / USECS_PER_SEC,
									value);
	/* bounds fall on whole units: intervals are at least a second */
	*value = usecs / (USECS_PER_SEC / axis->epoch_unit);
	return true;
}

/*
 * partmgr_check_list_set
 *		A LIST set holds one integer value per child (pg_partman 5.1): its
 *		control column is smallint, integer or bigint and its interval 1.
 */
void
partmgr_check_list_set(const PartmgrAxis *axis, const PartmgrStep *step)
{
	if (axis->column_typid != INT2OID && axis->column_typid != INT4OID &&
		axis->column_typid != INT8OID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("a list partition set needs a smallint, integer or bigint control column, not %s",
						format_type_be(axis->column_typid))));
	if (axis->epoch_unit != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a list partition set cannot be an epoch set")));
	if (step->kind != PARTMGR_KEY_ID || step->id != 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the partition interval of a list partition set must be 1"),
				 errhint("Each child of a list set holds one value; use p_type => 'range' for wider children.")));
}

/*
 * partmgr_interval_parse
 *		Parse interval input the way interval_in does, but report failure by
 *		return value so the caller can name the offending parameter.
 */
bool
partmgr_interval_parse(const char *text, Interval *result)
{
	char		workbuf[256];
	char	   *field[MAXDATEFIELDS];
	int			ftype[MAXDATEFIELDS];
	int			nf;
	int			dtype;
	struct pg_itm_in itm_in;
	int			dterr;

	memset(&itm_in, 0, sizeof(itm_in));
	dterr = ParseDateTime(text, workbuf, sizeof(workbuf), field, ftype,
						  MAXDATEFIELDS, &nf);
	if (dterr == 0)
		dterr = DecodeInterval(field, ftype, nf, INTERVAL_FULL_RANGE,
							   &dtype, &itm_in);
	if (dterr == DTERR_BAD_FORMAT)
	{
		char	   *copy = pstrdup(text);

		memset(&itm_in, 0, sizeof(itm_in));
		dterr = DecodeISO8601Interval(copy, &dtype, &itm_in);
	}
	if (dterr != 0 || dtype != DTK_DELTA)
		return false;
	return itmin2interval(&itm_in, result) == 0;
}

/*
 * interval_usecs
 *		Length of an interval in microseconds, counting a month as 30 days
 *		and a day as 24 hours, as interval comparison does.  Used only to
 *		compare intervals with thresholds.
 */
static double
interval_usecs(const Interval *span)
{
	return (double) span->month * DAYS_PER_MONTH * USECS_PER_DAY +
		(double) span->day * USECS_PER_DAY + (double) span->time;
}

/*
 * partmgr_step_parse
 *		Parse an interval for a set on this axis, given as text for the use
 *		named (each use has error messages of its own, as whole sentences):
 *		an interval of at least one second for time keys (whole days for date
 *		keys), a positive integer for id keys.  Raises 22023 otherwise.
 */
void
partmgr_step_parse(const PartmgrAxis *axis, const char *text,
				   PartmgrStepUse use,
				   PartmgrStep *step)
{
	bool		batch = use == PARTMGR_STEP_BATCH;

	Assert(use == PARTMGR_STEP_PARTITION || use == PARTMGR_STEP_BATCH);
	memset(step, 0, sizeof(*step));
	step->kind = axis->kind;

	if (axis->kind == PARTMGR_KEY_ID)
	{
		int64		width;
		char	   *end;

		errno = 0;
		width = strtoi64(text, &end, 10);
		while (*end == ' ')
			end++;
		if (text[0] == '\0' || *end != '\0' || errno != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 batch ?
					 errmsg("batch interval \"%s\" is not an integer", text) :
					 errmsg("partition interval \"%s\" is not an integer",
							text),
					 errhint("An id partition set takes a whole number of key values per child, such as '1000'.")));
		if (width <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 batch ?
					 errmsg("batch interval must be greater than zero, not %s",
							text) :
					 errmsg("partition interval must be greater than zero, not %s", text)));
		step->id = width;
		return;
	}

	if (!partmgr_interval_parse(text, &step->time))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 batch ?
				 errmsg("batch interval \"%s\" is not a valid interval", text) :
				 errmsg("partition interval \"%s\" is not a valid interval",
						text),
				 errhint("Use an interval such as '1 day', '1 hour', '15 minutes', '1 week', '1 month' or '1 year'.")));

	if (step->time.month < 0 || step->time.day < 0 || step->time.time < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 batch ?
				 errmsg("batch interval \"%s\" has a negative part", text) :
				 errmsg("partition interval \"%s\" has a negative part", text),
				 errdetail("Months, days and time of an interval must each be zero or more.")));
	if (interval_usecs(&step->time) < (double) USECS_PER_SEC)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 batch ?
				 errmsg("batch interval \"%s\" is shorter than one second",
						text) :
				 errmsg("partition interval \"%s\" is shorter than one second",
						text)));

	if (axis->typid == DATEOID && step->time.time != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 batch ?
				 errmsg("batch interval \"%s\" is not a whole number of days",
						text) :
				 errmsg("partition interval \"%s\" is not a whole number of days", text),
				 errdetail("The control column has type date, so every bound must fall on midnight.")));
}

/*
 * partmgr_step_text
 *		Canonical text of an interval, as stored in part_config: the
 *		"postgres" IntervalStyle whatever the session uses ('7 days',
 *		'1 mon', '01:00:00'), or the integer for id sets.  Palloc'd.
 */
char *
partmgr_step_text(const PartmgrStep *step)
{
	struct pg_itm tt;
	char		buf[MAXDATELEN + 1];

	if (step->kind == PARTMGR_KEY_ID)
		return psprintf(INT64_FORMAT, step->id);

	interval2itm(step->time, &tt);
	EncodeInterval(&tt, INTSTYLE_POSTGRES, buf);
	return pstrdup(buf);
}

/*
 * partmgr_default_datetime_string
 *		to_char() format of child suffixes, as pg_partman 5 chooses it.
 */
const char *
partmgr_default_datetime_string(const PartmgrStep *step)
{
	if (step->kind != PARTMGR_KEY_TIME)
		return NULL;
	if (interval_usecs(&step->time) < (double) USECS_PER_DAY)
		return "YYYYMMDD_HH24MISS";
	return "YYYYMMDD";
}

/*
 * partmgr_default_trunc_unit
 *		date_trunc() unit that aligns the first child of a time set when the
 *		user gives none: the largest calendar unit not longer than the
 *		interval, with pg_partman 5's thresholds.
 */
const char *
partmgr_default_trunc_unit(const PartmgrStep *step)
{
	double		len = interval_usecs(&step->time);
	double		year = (double) DAYS_PER_MONTH * MONTHS_PER_YEAR * USECS_PER_DAY;

	if (len >= 1000 * year)
		return "millennium";
	if (len >= 100 * year)
		return "century";
	if (len >= 10 * year)
		return "decade";
	if (len >= year)
		return "year";
	if (len >= (double) DAYS_PER_MONTH * USECS_PER_DAY)
		return "month";
	if (len >= (double) USECS_PER_DAY)
		return "day";
	if (len >= (double) USECS_PER_MINUTE)
		return "hour";
	return "minute";
}

/*
 * partmgr_trunc_unit_is_valid
 *		True for the date_trunc() units accepted as p_date_trunc_interval.
 */
bool
partmgr_trunc_unit_is_valid(const char *unit)
{
	for (int i = 0; trunc_units[i] != NULL; i++)
	{
		if (pg_strcasecmp(unit, trunc_units[i]) == 0)
			return true;
	}
	return false;
}

/*
 * partmgr_check_trunc_unit
 *		A p_date_trunc_interval fits a set's interval when it is no longer
 *		than the interval (a coarser anchor would start a weekly set mid-week
 *		and restart its grid at every month), and, for intervals of months,
 *		is not a week, which no number of months is made of.
 */
void
partmgr_check_trunc_unit(const PartmgrStep *step, const char *unit)
{
	/* the length of each unit of trunc_units, in days */
	static const double unit_days[] = {
		1.0 / USECS_PER_DAY, 1.0 / (1000.0 * SECS_PER_DAY), 1.0 / SECS_PER_DAY,
		1.0 / MINS_PER_HOUR / HOURS_PER_DAY, 1.0 / HOURS_PER_DAY, 1, 7,
		DAYS_PER_MONTH, 3 * DAYS_PER_MONTH, 12 * DAYS_PER_MONTH,
		120 * DAYS_PER_MONTH, 1200 * DAYS_PER_MONTH, 12000 * DAYS_PER_MONTH
	};
	int			i;

	for (i = 0; trunc_units[i] != NULL; i++)
	{
		if (pg_strcasecmp(unit, trunc_units[i]) == 0)
			break;
	}
	if (trunc_units[i] == NULL || step->kind != PARTMGR_KEY_TIME)
		return;					/* reported elsewhere */
	if (unit_days[i] * USECS_PER_DAY > interval_usecs(&step->time) ||
		(step->time.month != 0 && strcmp(trunc_units[i], "week") == 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_date_trunc_interval \"%s\" does not fit partition interval \"%s\"",
						unit, partmgr_step_text(step)),
				 errhint("Use a unit no longer than the interval: 'week' or 'day' for weeks, 'month' for months.")));
}

static void
raise_out_of_range(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("partition bound out of range for type timestamp")));
}

/*
 * time_add
 *		*ts + span, with PostgreSQL's timestamptz + interval rules evaluated
 *		in the given zone: the month part, then the day part move the wall
 *		clock; the time part moves the instant.  False when the result falls
 *		outside the range of timestamps.
 */
static bool
time_add(TimestampTz *ts, const Interval *span, pg_tz *zone)
{
	struct pg_tm tt;
	fsec_t		fsec;
	int			tzoff;
	TimestampTz t = *ts;

	if (TIMESTAMP_NOT_FINITE(t))
		return true;

	if (span->month != 0)
	{
		if (timestamp2tm(t, &tzoff, &tt, &fsec, NULL, zone) != 0)
			return false;
		tt.tm_mon += span->month;
		if (tt.tm_mon > MONTHS_PER_YEAR)
		{
			tt.tm_year += (tt.tm_mon - 1) / MONTHS_PER_YEAR;
			tt.tm_mon = ((tt.tm_mon - 1) % MONTHS_PER_YEAR) + 1;
		}
		else if (tt.tm_mon < 1)
		{
			tt.tm_year += tt.tm_mon / MONTHS_PER_YEAR - 1;
			tt.tm_mon = tt.tm_mon % MONTHS_PER_YEAR + MONTHS_PER_YEAR;
		}
		if (tt.tm_mday > day_tab[isleap(tt.tm_year)][tt.tm_mon - 1])
			tt.tm_mday = day_tab[isleap(tt.tm_year)][tt.tm_mon - 1];
		tzoff = DetermineTimeZoneOffset(&tt, zone);
		if (tm2timestamp(&tt, fsec, &tzoff, &t) != 0)
			return false;
	}

	if (span->day != 0)
	{
		int			julian;

		if (timestamp2tm(t, &tzoff, &tt, &fsec, NULL, zone) != 0)
			return false;
		julian = date2j(tt.tm_year, tt.tm_mon, tt.tm_mday) + span->day;
		j2date(julian, &tt.tm_year, &tt.tm_mon, &tt.tm_mday);
		tzoff = DetermineTimeZoneOffset(&tt, zone);
		if (tm2timestamp(&tt, fsec, &tzoff, &t) != 0)
			return false;
	}

	if (pg_add_s64_overflow(t, span->time, &t) || !IS_VALID_TIMESTAMP(t))
		return false;
	*ts = t;
	return true;
}

/*
 * partmgr_point_add
 *		point + times * step.  For time sets the interval is multiplied
 *		first (so three months from January 31 is April 30, as with
 *		timestamptz + 3 * '1 month').  A result beyond what the axis can hold
 *		is PARTMGR_POINT_MAX (or _MIN going down): as an upper bound it is
 *		written MAXVALUE, as a lower bound it is refused by
 *		partmgr_point_fits_type.
 */
PartmgrPoint
partmgr_point_add(const PartmgrAxis *axis, const PartmgrStep *step,
				  PartmgrPoint point, int64 times)
{
	PartmgrPoint beyond = times < 0 ? PARTMGR_POINT_MIN : PARTMGR_POINT_MAX;

	if (point == PARTMGR_POINT_MIN || point == PARTMGR_POINT_MAX)
		return point;
	if (step->kind == PARTMGR_KEY_ID)
	{
		int64		delta;
		int64		result;

		if (pg_mul_s64_overflow(step->id, times, &delta) ||
			pg_add_s64_overflow(point, delta, &result))
			return beyond;
		return result;
	}
	else
	{
		Interval	span;
		int64		month;
		int64		day;
		TimestampTz result = point;

		if (times < PG_INT32_MIN || times > PG_INT32_MAX ||
			pg_mul_s64_overflow(step->time.month, times, &month) ||
			pg_mul_s64_overflow(step->time.day, times, &day) ||
			pg_mul_s64_overflow(step->time.time, times, &span.time) ||
			month < PG_INT32_MIN || month > PG_INT32_MAX ||
			day < PG_INT32_MIN || day > PG_INT32_MAX)
			return beyond;
		span.month = (int32) month;
		span.day = (int32) day;
		if (!time_add(&result, &span, axis->calc_zone))
			return beyond;
		return result;
	}
}

/*
 * partmgr_point_align
 *		Lower bound of the first child for a start point: date_trunc() in the
 *		set's zone by the given unit (or the interval's default unit) for time
 *		sets; the multiple of the interval at or below the point for id sets.
 */
PartmgrPoint
partmgr_point_align(const PartmgrAxis *axis, const PartmgrStep *step,
					const char *trunc_unit, PartmgrPoint point)
{
	if (step->kind == PARTMGR_KEY_ID)
	{
		int64		rem = point % step->id;

		/* floor, also for negative points */
		if (rem < 0)
			rem += step->id;
		return point - rem;
	}

	if (trunc_unit == NULL)
		trunc_unit = partmgr_default_trunc_unit(step);
	return DatumGetTimestampTz(DirectFunctionCall3(timestamptz_trunc_zone,
												   CStringGetTextDatum(trunc_unit),
												   TimestampTzGetDatum(point),
												   CStringGetTextDatum(axis->calc_zone_name)));
}

/*
 * wall_clock
 *		The wall-clock time of an instant in a zone, as a Timestamp.
 */
static Timestamp
wall_clock(TimestampTz ts, pg_tz *zone)
{
	struct pg_tm tt;
	fsec_t		fsec;
	int			tzoff;
	Timestamp	result;

	if (TIMESTAMP_NOT_FINITE(ts))
		return ts;
	if (timestamp2tm(ts, &tzoff, &tt, &fsec, NULL, zone) != 0 ||
		tm2timestamp(&tt, fsec, NULL, &result) != 0)
		raise_out_of_range();
	return result;
}

/*
 * partmgr_point_from_timestamptz
 *		The point of an instant: the instant itself for timestamptz keys, its
 *		wall-clock time in the set's zone for timestamp and date keys.
 */
PartmgrPoint
partmgr_point_from_timestamptz(const PartmgrAxis *axis, TimestampTz ts)
{
	Assert(axis->kind == PARTMGR_KEY_TIME);
	if (axis->typid == TIMESTAMPTZOID)
		return ts;
	return wall_clock(ts, axis->zone);
}

/*
 * partmgr_point_now
 *		The point that stands for "now" (the transaction start time).
 */
PartmgrPoint
partmgr_point_now(const PartmgrAxis *axis, TimestampTz now)
{
	return partmgr_point_from_timestamptz(axis, now);
}

/*
 * partmgr_point_to_timestamptz
 *		Inverse of partmgr_point_from_timestamptz: wall-clock points of
 *		timestamp and date sets are read in the set's zone.
 */
TimestampTz
partmgr_point_to_timestamptz(const PartmgrAxis *axis, PartmgrPoint point)
{
	struct pg_tm tt;
	fsec_t		fsec;
	int			tzoff;
	TimestampTz result;

	Assert(axis->kind == PARTMGR_KEY_TIME);
	if (axis->typid == TIMESTAMPTZOID || TIMESTAMP_NOT_FINITE(point))
		return point;
	if (timestamp2tm(point, NULL, &tt, &fsec, NULL, NULL) != 0)
		raise_out_of_range();
	tzoff = DetermineTimeZoneOffset(&tt, axis->zone);
	if (tm2timestamp(&tt, fsec, &tzoff, &result) != 0)
		raise_out_of_range();
	return result;
}

/*
 * numeric_to_point
 *		floor() of a numeric as int64; raises an error when it does not fit.
 */
static PartmgrPoint
numeric_to_point(Datum num)
{
	Datum		floored = DirectFunctionCall1(numeric_floor, num);

	return DatumGetInt64(DirectFunctionCall1(numeric_int8, floored));
}

/*
 * partmgr_point_from_datum
 *		The point of a value of the control column's type.
 */
PartmgrPoint
partmgr_point_from_datum(const PartmgrAxis *axis, Datum value)
{
	if (OidIsValid(axis->decoder))
	{
		Oid			output;
		bool		varlena;
		char	   *text;

		getTypeOutputInfo(axis->column_typid, &output, &varlena);
		text = OidOutputFunctionCall(output, value);

		return DatumGetTimestampTz(partmgr_call_owner_function(axis->decoder,
															   CStringGetTextDatum(text)));
	}
	if (axis->epoch_unit != 0)
		return epoch_to_point(axis, axis->column_typid == INT4OID ?
							  (int64) DatumGetInt32(value) :
							  DatumGetInt64(value));
	switch (axis->typid)
	{
		case TIMESTAMPTZOID:
		case TIMESTAMPOID:
			return DatumGetTimestamp(value);
		case DATEOID:
			{
				DateADT		d = DatumGetDateADT(value);

				if (DATE_IS_NOBEGIN(d))
					return PARTMGR_POINT_MIN;
				if (DATE_IS_NOEND(d))
					return PARTMGR_POINT_MAX;
				return (PartmgrPoint) d * USECS_PER_DAY;
			}
		case INT2OID:
			return DatumGetInt16(value);
		case INT4OID:
			return DatumGetInt32(value);
		case INT8OID:
			return DatumGetInt64(value);
		case NUMERICOID:
			return numeric_to_point(value);
	}
	elog(ERROR, "unsupported control column type %u", axis->typid);
	return 0;					/* keep compiler quiet */
}

/*
 * with_zone_timestamptz_in
 *		timestamptz input read in the given zone when the text names none.
 *		timestamptz_in takes the zone from the session, so TimeZone is set to
 *		it for the call at a GUC nest level of its own, as a function's SET
 *		clause does: on success the session's zone is restored here, on error
 *		by the abort of the (sub)transaction.  Needs a transaction.
 */
static TimestampTz
with_zone_timestamptz_in(const char *text, const char *zone_name)
{
	int			nestlevel = NewGUCNestLevel();
	TimestampTz result;

	(void) set_config_option("TimeZone", zone_name, PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	result = DatumGetTimestampTz(DirectFunctionCall3(timestamptz_in,
													 CStringGetDatum(text),
													 ObjectIdGetDatum(InvalidOid),
													 Int32GetDatum(-1)));
	AtEOXact_GUC(true, nestlevel);
	return result;
}

/*
 * partmgr_point_parse
 *		Read a user-supplied value (p_start_partition, show_partition_name's
 *		p_value): a timestamp in the set's zone for time sets, an integer (or a
 *		numeric, floored) for id sets.  Input errors are the type's own.
 */
PartmgrPoint
partmgr_point_parse(const PartmgrAxis *axis, const char *text)
{
	if (axis->kind == PARTMGR_KEY_ID)
	{
		Datum		num = DirectFunctionCall3(numeric_in,
											  CStringGetDatum(text),
											  ObjectIdGetDatum(InvalidOid),
											  Int32GetDatum(-1));

		return numeric_to_point(num);
	}

	if (axis->typid == TIMESTAMPTZOID)
		return with_zone_timestamptz_in(text, axis->zone_name);
	if (axis->typid == TIMESTAMPOID)
		return DatumGetTimestamp(DirectFunctionCall3(timestamp_in,
													 CStringGetDatum(text),
													 ObjectIdGetDatum(InvalidOid),
													 Int32GetDatum(-1)));
	return partmgr_point_from_datum(axis,
									DirectFunctionCall1(date_in,
														CStringGetDatum(text)));
}

/*
 * partmgr_point_fits_type
 *		True if the point can be written as a value of the control column's
 *		type (a bound beyond it is written as MINVALUE or MAXVALUE).
 */
bool
partmgr_point_fits_type(const PartmgrAxis *axis, PartmgrPoint point)
{
	if (axis->epoch_unit != 0)
	{
		int64		value;

		if (point == PARTMGR_POINT_MIN || point == PARTMGR_POINT_MAX ||
			!IS_VALID_TIMESTAMP(point) ||
			!epoch_from_point(axis, point, &value))
			return false;
		return axis->column_typid != INT4OID ||
			(value >= PG_INT32_MIN && value <= PG_INT32_MAX);
	}
	switch (axis->typid)
	{
		case INT2OID:
			return point >= PG_INT16_MIN && point <= PG_INT16_MAX;
		case INT4OID:
			return point >= PG_INT32_MIN && point <= PG_INT32_MAX;
		case DATEOID:
			return point % USECS_PER_DAY == 0 &&
				IS_VALID_DATE(point / USECS_PER_DAY);
		case TIMESTAMPTZOID:
		case TIMESTAMPOID:
			return IS_VALID_TIMESTAMP(point);
		default:
			return point != PARTMGR_POINT_MIN && point != PARTMGR_POINT_MAX;
	}
}

/*
 * partmgr_point_display
 *		Human-readable text of a point (no quotes): ISO timestamps with an
 *		explicit UTC offset for timestamptz, wall-clock text for timestamp and
 *		date, digits for ids.  Independent of DateStyle and TimeZone.
 */
char *
partmgr_point_display(const PartmgrAxis *axis, PartmgrPoint point)
{
	struct pg_tm tt;
	fsec_t		fsec;
	char		buf[MAXDATELEN + 1];

	if (point == PARTMGR_POINT_MIN)
		return pstrdup("MINVALUE");
	if (point == PARTMGR_POINT_MAX)
		return pstrdup("MAXVALUE");
	if (axis->kind == PARTMGR_KEY_ID)
		return psprintf(INT64_FORMAT, point);

	/* points of every time type are read as UTC wall-clock values here */
	if (timestamp2tm(point, NULL, &tt, &fsec, NULL, NULL) != 0)
		raise_out_of_range();
	if (axis->typid == DATEOID)
		EncodeDateOnly(&tt, USE_ISO_DATES, buf);
	else
		EncodeDateTime(&tt, fsec, false, 0, NULL, USE_ISO_DATES, buf);
	if (axis->typid == TIMESTAMPTZOID)
		return psprintf("%s+00", buf);
	return pstrdup(buf);
}

/*
 * partmgr_point_literal
 *		SQL text of a partition bound: a quoted literal, or MINVALUE/MAXVALUE
 *		when the point does not fit the column's type.
 */
char *
partmgr_point_literal(const PartmgrAxis *axis, PartmgrPoint point)
{
	int64		value;

	if (!partmgr_point_fits_type(axis, point))
		return pstrdup(point < 0 ? "MINVALUE" : "MAXVALUE");
	if (axis->epoch_unit != 0)
	{
		(void) epoch_from_point(axis, point, &value);
		return psprintf("'" INT64_FORMAT "'", value);
	}
	if (OidIsValid(axis->encoder))
	{
		Oid			output;
		bool		varlena;
		Datum		encoded = partmgr_call_owner_function(axis->encoder,
														  TimestampTzGetDatum(point));

		getTypeOutputInfo(get_func_rettype(axis->encoder), &output, &varlena);
		return quote_literal_cstr(OidOutputFunctionCall(output, encoded));
	}
	return quote_literal_cstr(partmgr_point_display(axis, point));
}

/*
 * partmgr_steps_between
 *		How many intervals lie from one point to another, as a real number:
 *		whole steps counted on the grid that starts at "from", plus the
 *		fraction of the next step.  Negative when "to" is before "from".
 */
double
partmgr_steps_between(const PartmgrAxis *axis, const PartmgrStep *step,
					  PartmgrPoint from, PartmgrPoint to)
{
	int64		k;
	PartmgrPoint lo;
	PartmgrPoint hi;

	if (step->kind == PARTMGR_KEY_ID)
		return ((double) to - (double) from) / (double) step->id;

	/*
	 * infinity and -infinity (a time column's, or MAXVALUE/MINVALUE) are more
	 * steps away than partmgr_point_add takes: the walk below would never
	 * end.  Give a count it turns into PARTMGR_POINT_MAX (_MIN).
	 */
	if (to == PARTMGR_POINT_MAX || from == PARTMGR_POINT_MIN)
		return (double) PG_INT32_MAX + 1.0;
	if (to == PARTMGR_POINT_MIN || from == PARTMGR_POINT_MAX)
		return (double) PG_INT32_MIN - 1.0;

	/* first guess from the average length, then walk to the exact step */
	k = (int64) floor(((double) to - (double) from) /
					  interval_usecs(&step->time));
	lo = partmgr_point_add(axis, step, from, k);
	while (lo > to)
		lo = partmgr_point_add(axis, step, from, --k);
	hi = partmgr_point_add(axis, step, from, k + 1);
	while (hi <= to)
	{
		k++;
		lo = hi;
		hi = partmgr_point_add(axis, step, from, k + 1);
	}
	return (double) k + ((double) (to - lo)) / ((double) (hi - lo));
}

/*
 * partmgr_time_suffix
 *		to_char() of a time point in the set's zone with the set's format:
 *		"20240131" or "20240131_130000" with pg_partman 5's formats.
 *
 *		When clocks go back, an hour of wall-clock time happens twice; two
 *		children of a sub-day set would then get one name.  When the format
 *		shows the time of day and the point is the first of two instants with
 *		the same wall-clock time, "_dst" is appended ("_early" if that first
 *		instant is not daylight saving time, as when a zone moves its
 *		standard offset back), so every child keeps a name of its own.
 */
char *
partmgr_time_suffix(const PartmgrAxis *axis, PartmgrPoint point,
					const char *datetime_string)
{
	Timestamp	local = point;
	char	   *suffix;
	struct pg_tm tt;
	fsec_t		fsec;
	int			tzoff;
	bool		repeated = false;
	bool		dst = false;

	if (axis->typid == TIMESTAMPTZOID && !TIMESTAMP_NOT_FINITE(point))
	{
		TimestampTz again;

		if (timestamp2tm(point, &tzoff, &tt, &fsec, NULL, axis->zone) != 0 ||
			tm2timestamp(&tt, fsec, NULL, &local) != 0)
			raise_out_of_range();
		dst = tt.tm_isdst > 0;
		/* read back, the wall-clock time gives the later instant */
		tzoff = DetermineTimeZoneOffset(&tt, axis->zone);
		repeated = (tm2timestamp(&tt, fsec, &tzoff, &again) == 0 &&
					again != point && strstr(datetime_string, "HH") != NULL);
	}
	suffix =
		text_to_cstring(DatumGetTextPP(DirectFunctionCall2(timestamp_to_char,
														   TimestampGetDatum(local),
														   CStringGetTextDatum(datetime_string))));
	if (repeated)
		suffix = psprintf("%s%s", suffix, dst ? "_dst" : "_early");
	return suffix;
}

/*
 * partmgr_name_with_suffix
 *		base || suffix, cut to fit in NAMEDATALEN - 1 bytes by shortening the
 *		base (at a character boundary) and never the suffix: pg_partman's rule,
 *		so that migrated sets keep their children's names.
 */
char *
partmgr_name_with_suffix(const char *base, const char *suffix)
{
	int			suffix_len = strlen(suffix);
	int			base_len = strlen(base);
	int			room = NAMEDATALEN - 1 - suffix_len;

	if (room <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_NAME_TOO_LONG),
				 errmsg("name suffix \"%s\" is too long", suffix)));
	if (base_len > room)
		base_len = pg_mbcliplen(base, base_len, room);
	return psprintf("%.*s%s", base_len, base, suffix);
}

/*
 * partmgr_era_at
 *		The era of a set that holds a point (see PartmgrEra): the current one
 *		for a point at or above the start of the current interval, and for a
 *		set whose eras are not bound yet (create_parent's own).
 */
PartmgrEra
partmgr_era_at(const PartmgrSet *set, PartmgrPoint point)
{
	PartmgrEra	era;

	for (int i = 0; i < set->neras; i++)
	{
		if (point < set->eras[i].end || i == set->neras - 1)
			return set->eras[i];
	}
	memset(&era, 0, sizeof(era));
	era.start = PARTMGR_POINT_MIN;
	era.end = PARTMGR_POINT_MAX;
	era.step = set->step;
	era.interval_text = set->interval_text;
	era.datetime_string = set->datetime_string;
	era.date_trunc_interval = set->date_trunc_interval;
	era.aligned = true;
	return era;
}

/*
 * era_grid
 *		The lower bound of the grid slot of a later era (one that starts
 *		where an earlier interval ended) holding value, and in *upper its
 *		upper bound: the grid runs from the era's start, aligned as
 *		create_parent aligns unless the era is not aligned (see
 *		PartmgrEra), its first slot cut at the start and its last at the
 *		era's end.
 */
static PartmgrPoint
era_grid(const PartmgrAxis *axis, const PartmgrEra *era, PartmgrPoint value,
		 PartmgrPoint *upper)
{
	PartmgrPoint base = (era->aligned ?
						 partmgr_point_align(axis, &era->step,
											 era->date_trunc_interval,
											 era->start) :
						 era->start);
	int64		k = (int64) floor(partmgr_steps_between(axis, &era->step, base,
														value));
	PartmgrPoint lower = partmgr_point_add(axis, &era->step, base, k);

	*upper = partmgr_point_add(axis, &era->step, base, k + 1);
	if (*upper > era->end)
		*upper = era->end;
	return Max(lower, era->start);
}

/*
 * partmgr_era_slot_lower
 *		The lower bound of the slot holding value on the grid of its era
 *		when that era starts where an earlier interval ended; false for a
 *		value in the first era, whose grid the existing children define
 *		(children.c's partmgr_slot_lower).
 */
bool
partmgr_era_slot_lower(const PartmgrSet *set, PartmgrPoint value,
					   PartmgrPoint *lower)
{
	PartmgrEra	era = partmgr_era_at(set, value);
	PartmgrPoint upper;

	if (era.start == PARTMGR_POINT_MIN)
		return false;
	*lower = era_grid(&set->axis, &era, value, &upper);
	return true;
}

/*
 * partmgr_slot_upper
 *		The upper bound of the child that starts at lower: one interval of
 *		its era later, or, in an era after the first, the next point of that
 *		era's grid; never beyond the end of its era.
 */
PartmgrPoint
partmgr_slot_upper(const PartmgrSet *set, PartmgrPoint lower)
{
	PartmgrEra	era = partmgr_era_at(set, lower);
	PartmgrPoint upper;

	if (era.start == PARTMGR_POINT_MIN)
	{
		upper = partmgr_point_add(&set->axis, &era.step, lower, 1);
		return Min(upper, era.end);
	}
	(void) era_grid(&set->axis, &era, lower, &upper);
	return upper;
}

/*
 * partmgr_finest_step
 *		The shortest interval a set has had (interval_cmp's order): what
 *		bins its keys so that no bin spans more than two children of any era.
 */
const PartmgrStep *
partmgr_finest_step(const PartmgrSet *set)
{
	const PartmgrStep *finest = &set->step;

	for (int i = 0; i < set->neras; i++)
	{
		const PartmgrStep *step = &set->eras[i].step;

		if (step->kind == PARTMGR_KEY_ID ? step->id < finest->id :
			DatumGetInt32(DirectFunctionCall2(interval_cmp,
											  IntervalPGetDatum((Interval *) &step->time),
											  IntervalPGetDatum((Interval *) &finest->time))) < 0)
			finest = step;
	}
	return finest;
}

/*
 * partmgr_natural_step
 *		The interval from lower to upper as a set would write it: a whole
 *		number of months or days where the calendar makes it one ('1 mon',
 *		'7 days'), else its length ('02:30:00'); for id sets the difference.
 *		What a reshape records as the interval of a child it makes to its
 *		own bounds.
 */
void
partmgr_natural_step(const PartmgrAxis *axis, PartmgrPoint lower,
					 PartmgrPoint upper,
					 PartmgrStep *step)
{
	PartmgrStep unit;
	double		k;

	memset(step, 0, sizeof(*step));
	step->kind = axis->kind;
	if (axis->kind == PARTMGR_KEY_ID)
	{
		step->id = upper - lower;
		return;
	}
	memset(&unit, 0, sizeof(unit));
	unit.kind = PARTMGR_KEY_TIME;
	unit.time.month = 1;
	k = partmgr_steps_between(axis, &unit, lower, upper);
	if (k >= 1 && k == floor(k) &&
		partmgr_point_add(axis, &unit, lower, (int64) k) == upper)
	{
		step->time.month = (int32) k;
		return;
	}
	unit.time.month = 0;
	unit.time.day = 1;
	k = partmgr_steps_between(axis, &unit, lower, upper);
	if (k >= 1 && k == floor(k) &&
		partmgr_point_add(axis, &unit, lower, (int64) k) == upper)
	{
		step->time.day = (int32) k;
		return;
	}
	step->time.time = upper - lower;
}

/*
 * same_step
 *		Whether two intervals of one set are the same.
 */
bool
partmgr_same_step(const PartmgrStep *a, const PartmgrStep *b)
{
	if (a->kind == PARTMGR_KEY_ID)
		return a->id == b->id;
	return a->time.month == b->time.month && a->time.day == b->time.day &&
		a->time.time == b->time.time;
}

static bool
same_text(const char *a, const char *b)
{
	return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

/*
 * on_grid
 *		Whether a point lies on the grid of era (a whole number of its
 *		intervals from its base); the first era's grid is its children's,
 *		and every bound a reshape cuts at is one of theirs.
 */
static bool
on_grid(const PartmgrAxis *axis, const PartmgrEra *era, PartmgrPoint point)
{
	PartmgrPoint base;
	double		k;

	if (era->start == PARTMGR_POINT_MIN)
		return true;
	base = (era->aligned ?
			partmgr_point_align(axis, &era->step, era->date_trunc_interval,
								era->start) :
			era->start);
	k = partmgr_steps_between(axis, &era->step, base, point);
	return k == floor(k);
}

/*
 * partmgr_eras_reshape
 *		The eras of a set once the span [pieces[0].start, pieces[n-1].end)
 *		holds children made to the given pieces (each an era: its interval,
 *		format and alignment): the eras around the span are cut at its ends
 *		and go on with their grids through the cut (their part above the
 *		span starts exactly there), then neighbours that follow one grid
 *		are joined again, and an era below lowest (the lowest child's bound
 *		afterwards) is joined into the one above it, as it holds no child.
 *		Returns a palloc'd array ending with the current era; *neras says
 *		how many.  end_text is recomputed by whoever writes them.
 */
PartmgrEra *
partmgr_eras_reshape(const PartmgrSet *set, const PartmgrEra *pieces,
					 int npieces,
					 PartmgrPoint lowest, int *neras)
{
	PartmgrPoint lower = pieces[0].start;
	PartmgrPoint upper = pieces[npieces - 1].end;
	PartmgrEra *out = palloc0(sizeof(PartmgrEra) * (set->neras + npieces + 2));
	int			n = 0;
	bool		placed = false;
	int			j;

	for (int i = 0; i < set->neras; i++)
	{
		PartmgrEra	era = set->eras[i];

		if (era.end <= lower || era.start >= upper)
		{
			if (era.start >= upper && !placed)
			{
				memcpy(&out[n], pieces, sizeof(PartmgrEra) * npieces);
				n += npieces;
				placed = true;
			}
			out[n++] = era;
			continue;
		}
		if (era.start < lower)
		{
			out[n] = era;
			out[n].end = lower;
			n++;
		}
		if (!placed)
		{
			memcpy(&out[n], pieces, sizeof(PartmgrEra) * npieces);
			n += npieces;
			placed = true;
		}
		if (era.end > upper)
		{
			out[n] = era;
			out[n].start = upper;
			out[n].aligned = false;
			n++;
		}
	}
	Assert(placed);
	/* each era's next_aligned says how the one after it starts */
	for (int i = 0; i + 1 < n; i++)
		out[i].next_aligned = out[i + 1].aligned;
	out[n - 1].next_aligned = true;

	/* join neighbours on one grid */
	j = 0;
	for (int i = 1; i < n; i++)
	{
		PartmgrEra *prev = &out[j];
		PartmgrEra *era = &out[i];
		bool		join;

		join = ((prev->end <= lowest && prev->start == PARTMGR_POINT_MIN) ||
				(partmgr_same_step(&prev->step, &era->step) &&
				 same_text(prev->datetime_string, era->datetime_string) &&
				 same_text(prev->date_trunc_interval,
						   era->date_trunc_interval) &&
				 on_grid(&set->axis, prev, era->start) &&
				 (!era->aligned ||
				  partmgr_point_align(&set->axis, &era->step,
									  era->date_trunc_interval,
									  era->start) == era->start)));
		if (join && prev->start == PARTMGR_POINT_MIN && prev->end <= lowest)
		{
			/* nothing below lowest: the era above starts at MIN */
			PartmgrPoint start = prev->start;

			*prev = *era;
			prev->start = start;
			prev->aligned = true;
		}
		else if (join)
		{
			prev->end = era->end;
			prev->next_aligned = era->next_aligned;
			prev->end_text = era->end_text;
		}
		else
			out[++j] = *era;
	}
	*neras = j + 1;
	return out;
}
