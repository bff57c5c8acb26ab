package temporal

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/rowtime"
)

const msPerDay = int64(86_400_000)

// fixedUnits are the units of a fixed length, in milliseconds.
var fixedUnits = map[string]int64{
	"MILLISECOND": 1, "SECOND": 1000, "MINUTE": 60_000, "HOUR": 3_600_000,
	"DAY": msPerDay, "WEEK": 7 * msPerDay,
}

// monthUnits are the calendar units, in months.
var monthUnits = map[string]int64{"MONTH": 1, "QUARTER": 3, "YEAR": 12}

// CheckUnit reports whether the kernels take unit, with the error to give
// otherwise.
func CheckUnit(unit, fn string) error {
	if fixedUnits[unit] == 0 && monthUnits[unit] == 0 {
		return fmt.Errorf("%s does not support the unit %s yet; use MILLISECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER or YEAR", fn, unit)
	}
	return nil
}

// WithinDay reports a unit of a day or less that divides it: the units a
// TIME is rounded to.
func WithinDay(unit string) bool { return fixedUnits[unit] > 0 && fixedUnits[unit] < msPerDay }

// addMonths adds n months to wall-clock ms, the day clamped to the length
// of the month reached (2024-01-31 plus a month is 2024-02-29), as
// Calcite's DateTimeUtils.addMonths.
func addMonths(ms, n int64) int64 {
	days := rowtime.FloorDiv(ms, msPerDay)
	tod := ms - days*msPerDay
	return addMonthsToDays(days, n)*msPerDay + tod
}

func addMonthsToDays(days, n int64) int64 {
	y, m, d := rowtime.CivilFromDays(days)
	m0 := y*12 + (m - 1) + n
	y, m = rowtime.FloorDiv(m0, 12), m0-rowtime.FloorDiv(m0, 12)*12+1
	d = min(d, int64(rowtime.DaysInMonth(int(y), int(m))))
	return rowtime.DaysFromCivil(y, m, d)
}

// subtractMonths is the whole months from t1 to t0 (wall-clock ms), as
// Calcite's DateTimeUtils.subtractMonths(long, long).
func subtractMonths(t0, t1 int64) int64 {
	d0 := rowtime.FloorDiv(t0, msPerDay)
	ms0 := t0 - d0*msPerDay
	d1 := rowtime.FloorDiv(t1, msPerDay)
	ms1 := t1 - d1*msPerDay
	x := subtractMonthDays(d0, d1)
	if addMonthsToDays(d1, x) == d0 && ms0 < ms1 {
		x--
	}
	return x
}

func subtractMonthDays(d0, d1 int64) int64 {
	if d0 < d1 {
		return -subtractMonthDays(d1, d0)
	}
	m := (d0 - d1) / 31 // no month is longer: m is not past the answer
	for {
		if addMonthsToDays(d1, m) >= d0 || addMonthsToDays(d1, m+1) > d0 {
			return m
		}
		m++
	}
}

// floorUnit rounds wall-clock ms down to unit. Weeks start on Sunday, as
// Calcite's floor does; quarters on January, April, July, October.
func floorUnit(ms int64, unit string) int64 {
	if unit == "WEEK" {
		days := rowtime.FloorDiv(ms, msPerDay)
		// 1970-01-01 was a Thursday, 4 days after a Sunday
		return (days - (days + 4 - rowtime.FloorDiv(days+4, 7)*7)) * msPerDay
	}
	if u := fixedUnits[unit]; u > 0 {
		return rowtime.FloorDiv(ms, u) * u
	}
	y, m, _ := rowtime.CivilFromDays(rowtime.FloorDiv(ms, msPerDay))
	switch unit {
	case "YEAR":
		m = 1
	case "QUARTER":
		m = (m-1)/3*3 + 1
	}
	return rowtime.DaysFromCivil(y, m, 1) * msPerDay
}

// ceilUnit rounds wall-clock ms up to unit: itself when on a boundary.
func ceilUnit(ms int64, unit string) int64 {
	f := floorUnit(ms, unit)
	if f == ms {
		return f
	}
	if n := monthUnits[unit]; n > 0 {
		return addMonths(f, n)
	}
	if unit == "WEEK" {
		return f + 7*msPerDay
	}
	return f + fixedUnits[unit]
}

// millis is the values of a TIMESTAMP (ms) or DATE (as ms at midnight)
// column, converted into scratch for a DATE.
func millis(a arrow.Array, scratch []int64) []int64 {
	if a.DataType().ID() == arrow.DATE32 {
		days := expr.ValuesOf[int32](a)
		scratch = scratch[:0]
		for _, d := range days {
			scratch = append(scratch, int64(d)*msPerDay)
		}
		return scratch
	}
	return expr.ValuesOf[int64](a)
}
