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

// clock is the resolution of a column's values: ticks per day (a
// TIMESTAMP(0) counts seconds, TIMESTAMP(3) milliseconds, TIMESTAMP(6)
// microseconds, TIMESTAMP(9) nanoseconds; a DATE is read as milliseconds).
// Calendar work splits a value into days and the ticks of the day, so no
// precision is lost.
type clock struct{ day int64 }

var msClock = clock{day: msPerDay}

// clockOf is the clock of a TIMESTAMP type (milliseconds for others).
func clockOf(dt arrow.DataType) clock {
	if ts, ok := dt.(*arrow.TimestampType); ok {
		return clock{day: 86_400 * int64(arrow.Second.Multiplier()/ts.Unit.Multiplier())}
	}
	return msClock
}

// ticks is n fixed units of unitMs milliseconds.
func (c clock) ticks(n, unitMs int64) int64 {
	if per := unitMs * c.day / msPerDay; per > 0 {
		return n * per
	}
	return n * unitMs * c.day / msPerDay // below the clock's resolution
}

// addMonths adds n months to a wall-clock value, the day clamped to the
// length of the month reached (2024-01-31 plus a month is 2024-02-29), as
// Calcite's DateTimeUtils.addMonths.
func (c clock) addMonths(v, n int64) int64 {
	days := rowtime.FloorDiv(v, c.day)
	tod := v - days*c.day
	return addMonthsToDays(days, n)*c.day + tod
}

func addMonthsToDays(days, n int64) int64 {
	y, m, d := rowtime.CivilFromDays(days)
	m0 := y*12 + (m - 1) + n
	y, m = rowtime.FloorDiv(m0, 12), m0-rowtime.FloorDiv(m0, 12)*12+1
	d = min(d, int64(rowtime.DaysInMonth(int(y), int(m))))
	return rowtime.DaysFromCivil(y, m, d)
}

// subtractMonths is the whole months from t1 to t0 (wall clock), as
// Calcite's DateTimeUtils.subtractMonths(long, long).
func (c clock) subtractMonths(t0, t1 int64) int64 {
	d0 := rowtime.FloorDiv(t0, c.day)
	tod0 := t0 - d0*c.day
	d1 := rowtime.FloorDiv(t1, c.day)
	tod1 := t1 - d1*c.day
	x := subtractMonthDays(d0, d1)
	if addMonthsToDays(d1, x) == d0 && tod0 < tod1 {
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

// floor rounds a wall-clock value down to unit. Weeks start on Sunday, as
// Calcite's floor does; quarters on January, April, July, October.
func (c clock) floor(v int64, unit string) int64 {
	days := rowtime.FloorDiv(v, c.day)
	switch unit {
	case "WEEK":
		// 1970-01-01 was a Thursday, 4 days after a Sunday
		return (days - (days + 4 - rowtime.FloorDiv(days+4, 7)*7)) * c.day
	case "YEAR", "QUARTER", "MONTH":
		y, m, _ := rowtime.CivilFromDays(days)
		switch unit {
		case "YEAR":
			m = 1
		case "QUARTER":
			m = (m-1)/3*3 + 1
		}
		return rowtime.DaysFromCivil(y, m, 1) * c.day
	}
	u := c.ticks(1, fixedUnits[unit])
	if u == 0 {
		return v // a unit finer than the clock
	}
	return rowtime.FloorDiv(v, u) * u
}

// ceil rounds a wall-clock value up to unit: itself when on a boundary.
func (c clock) ceil(v int64, unit string) int64 {
	f := c.floor(v, unit)
	if f == v {
		return f
	}
	if n := monthUnits[unit]; n > 0 {
		return c.addMonths(f, n)
	}
	return f + c.ticks(1, fixedUnits[unit])
}

// step is v plus n units.
func (c clock) step(v, n int64, unit string) int64 {
	if m := monthUnits[unit]; m > 0 {
		return c.addMonths(v, n*m)
	}
	return v + c.ticks(n, fixedUnits[unit])
}

// values is a TIMESTAMP column's values, or a DATE column's as
// milliseconds at midnight, converted into scratch.
func values(a arrow.Array, scratch []int64) []int64 {
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
