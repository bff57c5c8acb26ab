package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/rowtime"
)

// nanosOfFraction are EXTRACT's units of the second's fraction, in
// nanoseconds. As in Calcite and Flink they count the seconds of the
// minute too: 12.345678 s is 12345 MILLISECOND, 12345678 MICROSECOND.
var nanosOfFraction = map[string]int64{"MILLISECOND": 1_000_000, "MICROSECOND": 1_000, "NANOSECOND": 1}

// IsFractionUnit reports an EXTRACT unit read from a value's own
// precision (a TIMESTAMP(9) keeps its nanoseconds).
func IsFractionUnit(unit string) bool { return nanosOfFraction[unit] > 0 }

// secondFraction is EXTRACT of a unit of nanosOfFraction over x (a DATE or
// a TIMESTAMP of any precision, a TIMESTAMP_LTZ on its wall clock in Loc).
func (e *Extract) secondFraction(x arrow.Array, mem memory.Allocator) arrow.Array {
	per := nanosOfFraction[e.Unit]
	n := x.Len()
	validity, nulls := andValidity(mem, n, x)
	vb, out := NewValues[int64](mem, n)
	ts, ok := x.DataType().(*arrow.TimestampType)
	if !ok { // a DATE is midnight
		return NewArray(arrow.PrimitiveTypes.Int64, n, validity, nulls, vb)
	}
	tick := int64(ts.Unit.Multiplier()) // nanoseconds
	in := valuesOf[int64](x)
	var sub []int64 // the nanoseconds below the millisecond
	if tick < 1_000_000 {
		sub = make([]int64, n)
	}
	for i, v := range in {
		if tick >= 1_000_000 {
			out[i] = v * (tick / 1_000_000)
			continue
		}
		perMs := 1_000_000 / tick
		out[i] = rowtime.FloorDiv(v, perMs)
		sub[i] = (v - out[i]*perMs) * tick
	}
	if ts.TimeZone != "" {
		rowtime.NewLocalTime(e.Loc).ToLocalColumn(out, out)
	}
	for i, ms := range out {
		f := rowtime.FloorMod(ms, 60_000) * (1_000_000 / per)
		if sub != nil {
			f += sub[i] / per
		}
		out[i] = f
	}
	return NewArray(arrow.PrimitiveTypes.Int64, n, validity, nulls, vb)
}
