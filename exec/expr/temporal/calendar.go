package temporal

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/rowtime"
)

const (
	msPerDay = int64(86_400_000)
	nsPerDay = msPerDay * 1_000_000
)

// fixedUnits are the units of a fixed length, in nanoseconds.
var fixedUnits = map[string]int64{
	"NANOSECOND": 1, "MICROSECOND": 1_000, "MILLISECOND": 1_000_000, "SECOND": 1_000_000_000,
	"MINUTE": 60 * 1_000_000_000, "HOUR": 3_600 * 1_000_000_000, "DAY": nsPerDay, "WEEK": 7 * nsPerDay,
}

// monthUnits are the calendar units, in months; DECADE, CENTURY and
// MILLENNIUM only round (FLOOR and CEIL), as in Flink.
var monthUnits = map[string]int64{"MONTH": 1, "QUARTER": 3, "YEAR": 12, "DECADE": 120, "CENTURY": 1_200, "MILLENNIUM": 12_000}

// Units are the units TIMESTAMPADD and TIMESTAMPDIFF take; FLOOR and CEIL
// take RoundUnits.
const (
	Units      = "NANOSECOND, MICROSECOND, MILLISECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR"
	RoundUnits = Units + ", DECADE, CENTURY, MILLENNIUM"
)

// CheckUnit reports whether fn (TIMESTAMPADD, TIMESTAMPDIFF, FLOOR, CEIL)
// takes unit, with the error to give otherwise.
func CheckUnit(unit, fn string) error {
	units := Units
	if fn == "FLOOR" || fn == "CEIL" || fn == "CEILING" {
		units = RoundUnits
	}
	for _, u := range strings.Split(units, ", ") {
		if u == unit {
			return nil
		}
	}
	return fmt.Errorf("%s does not support the unit %s; use %s", fn, unit, units)
}

// WithinDay reports a unit of a day or less that divides it: the units a
// TIME is rounded to.
func WithinDay(unit string) bool { return fixedUnits[unit] > 0 && fixedUnits[unit] < nsPerDay }

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

// ticks is n fixed units of unitNs nanoseconds.
func (c clock) ticks(n, unitNs int64) int64 {
	tick := nsPerDay / c.day // nanoseconds
	if unitNs >= tick {
		return n * (unitNs / tick)
	}
	return n * unitNs / tick // below the clock's resolution
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
	case "YEAR", "QUARTER", "MONTH", "DECADE", "CENTURY", "MILLENNIUM":
		y, m, _ := rowtime.CivilFromDays(days)
		switch unit {
		case "YEAR":
			m = 1
		case "QUARTER":
			m = (m-1)/3*3 + 1
		case "DECADE": // 2020-01-01, as Calcite's julianDateFloor
			y, m = rowtime.FloorDiv(y, 10)*10, 1
		case "CENTURY": // centuries and millennia start in year 1: 2001-01-01
			y, m = rowtime.FloorDiv(y-1, 100)*100+1, 1
		case "MILLENNIUM":
			y, m = rowtime.FloorDiv(y-1, 1000)*1000+1, 1
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
