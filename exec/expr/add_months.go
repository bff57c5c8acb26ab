package expr

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/rowtime"
)

// AddMonths is X + INTERVAL n MONTH (or YEAR) for a DATE, TIMESTAMP(p) or
// TIMESTAMP_LTZ(p) X, with Flink's calendar arithmetic (DateTimeUtils.
// addMonths): the time of day is kept and the day of month is clamped to
// the end of the target month, so 2024-01-31 + 1 MONTH is 2024-02-29. A
// TIMESTAMP_LTZ moves its wall clock in the session zone Loc (nil is UTC).
type AddMonths struct {
	X      Expr
	Months int64
	Loc    *time.Location
}

func (e *AddMonths) DataType() arrow.DataType { return e.X.DataType() }
func (e *AddMonths) children() []Expr         { return []Expr{e.X} }
func (e *AddMonths) String() string {
	return fmt.Sprintf("ADD_MONTHS(%s, %d)", e.X, e.Months)
}

func (e *AddMonths) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	n := x.Len()
	validity, nulls := andValidity(mem, n, x)
	switch dt := x.DataType().(type) {
	case *arrow.Date32Type:
		vb, out := NewValues[int32](mem, n)
		for i, d := range valuesOf[int32](x) {
			out[i] = int32(ShiftMonths(int64(d), e.Months))
		}
		return NewArray(dt, n, validity, nulls, vb), nil
	case *arrow.TimestampType:
		var lt *rowtime.LocalTime
		if dt.TimeZone != "" {
			lt = rowtime.NewLocalTime(e.Loc)
		}
		perMs := map[arrow.TimeUnit]int64{arrow.Second: 0, arrow.Millisecond: 1, arrow.Microsecond: 1000, arrow.Nanosecond: 1_000_000}[dt.Unit]
		vb, out := NewValues[int64](mem, n)
		for i, v := range valuesOf[int64](x) {
			out[i] = AddMonthsTimestamp(v, perMs, e.Months, lt)
		}
		return NewArray(dt, n, validity, nulls, vb), nil
	}
	return nil, fmt.Errorf("cannot add months to %s", x.DataType())
}

// AddMonthsTimestamp shifts one timestamp value with perMs units per
// millisecond (0 for seconds); lt is the session zone for a TIMESTAMP_LTZ
// and nil for a TIMESTAMP.
func AddMonthsTimestamp(v, perMs, months int64, lt *rowtime.LocalTime) int64 {
	var ms, sub int64
	if perMs == 0 {
		ms = v * 1000
	} else {
		ms, sub = rowtime.FloorDiv(v, perMs), rowtime.FloorMod(v, perMs)
	}
	if lt != nil {
		ms = lt.ToLocal(ms)
	}
	days, tod := rowtime.FloorDiv(ms, msPerDay), rowtime.FloorMod(ms, msPerDay)
	ms = ShiftMonths(days, months)*msPerDay + tod
	if lt != nil {
		ms = lt.ToEpoch(ms)
	}
	if perMs == 0 {
		return rowtime.FloorDiv(ms, 1000)
	}
	return ms*perMs + sub
}

// ShiftMonths moves the day number days by months calendar months,
// clamping the day of month to the length of the target month.
func ShiftMonths(days, months int64) int64 {
	y, m, d := rowtime.CivilFromDays(days)
	total := y*12 + m - 1 + months
	ny, nm := rowtime.FloorDiv(total, 12), rowtime.FloorMod(total, 12)+1
	if last := int64(rowtime.DaysInMonth(int(ny), int(nm))); d > last {
		d = last
	}
	return rowtime.DaysFromCivil(ny, nm, d)
}
