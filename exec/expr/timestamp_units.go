package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/rowtime"
)

// TIMESTAMP(p) is kept in seconds, milliseconds, microseconds or
// nanoseconds (catalog/timestamp_precision.go), TIME(p) in seconds or
// milliseconds. The zone and date arithmetic work in milliseconds, so a value
// is split into epoch milliseconds and the nanoseconds below them, converted,
// and joined again in the target unit. Joining truncates toward the past, as
// Flink's CAST to a lower precision drops digits of the second.

// splitMillis is v (in unit) as floor milliseconds and the nanoseconds
// within that millisecond (0 to 999,999).
func splitMillis(v int64, unit arrow.TimeUnit) (ms, subNanos int64) {
	switch unit {
	case arrow.Second:
		return v * 1000, 0
	case arrow.Millisecond:
		return v, 0
	case arrow.Microsecond:
		ms = rowtime.FloorDiv(v, 1000)
		return ms, (v - ms*1000) * 1000
	}
	ms = rowtime.FloorDiv(v, 1_000_000)
	return ms, v - ms*1_000_000
}

// joinMillis is splitMillis's inverse, truncated to unit.
func joinMillis(ms, subNanos int64, unit arrow.TimeUnit) int64 {
	switch unit {
	case arrow.Second:
		return rowtime.FloorDiv(ms, 1000)
	case arrow.Millisecond:
		return ms
	case arrow.Microsecond:
		return ms*1000 + subNanos/1000
	}
	return ms*1_000_000 + subNanos
}

// subMilliNanos reads the digits past the third of a timestamp text's
// fraction ("…:05.123456" → 456,000 ns): the layouts read milliseconds.
func subMilliNanos(text string) int64 {
	dot := -1
	for i := len(text) - 1; i >= 0; i-- {
		c := text[i]
		if c == '.' {
			dot = i
			break
		}
		if c < '0' || c > '9' {
			return 0
		}
	}
	if dot < 0 {
		return 0
	}
	var nanos int64
	frac := text[dot+1:]
	for k := 3; k < 9; k++ {
		nanos *= 10
		if k < len(frac) {
			nanos += int64(frac[k] - '0')
		}
	}
	return nanos
}

// timeUnitOf is the unit of a TIMESTAMP or TIME type (DATE: days, returned
// as seconds, unused).
func timeUnitOf(dt arrow.DataType) arrow.TimeUnit {
	switch t := dt.(type) {
	case *arrow.TimestampType:
		return t.Unit
	case *arrow.Time32Type:
		return t.Unit
	}
	return arrow.Second
}

// castTime converts between DATE, TIME(p), TIMESTAMP(p) and
// TIMESTAMP_LTZ(p): a TIMESTAMP_LTZ's wall time is read in the session zone;
// a finer precision to a coarser one truncates; TIMESTAMP to TIME keeps the
// time of day.
func (e *Cast) castTime(x arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	from, to := x.DataType(), e.To
	fromLTZ := from.ID() == arrow.TIMESTAMP && from.(*arrow.TimestampType).TimeZone != ""
	toLTZ := to.ID() == arrow.TIMESTAMP && to.(*arrow.TimestampType).TimeZone != ""
	fu, tu := timeUnitOf(from), timeUnitOf(to)
	local := rowtime.NewLocalTime(e.Loc)
	validity, nulls := andValidity(mem, x.Len(), x)
	var vals *memory.Buffer
	switch {
	case from.ID() == arrow.TIMESTAMP && to.ID() == arrow.TIMESTAMP:
		in := valuesOf[int64](x)
		var out []int64
		vals, out = NewValues[int64](mem, len(in))
		for i, v := range in {
			ms, sub := splitMillis(v, fu)
			switch {
			case fromLTZ && !toLTZ:
				ms = local.ToLocal(ms)
			case !fromLTZ && toLTZ:
				ms = local.ToEpoch(ms)
			}
			out[i] = joinMillis(ms, sub, tu)
		}
	case from.ID() == arrow.TIMESTAMP && to.ID() == arrow.DATE32:
		in := valuesOf[int64](x)
		var out []int32
		vals, out = NewValues[int32](mem, len(in))
		for i, v := range in {
			ms, _ := splitMillis(v, fu)
			if fromLTZ {
				ms = local.ToLocal(ms)
			}
			out[i] = int32(rowtime.FloorDiv(ms, msPerDay))
		}
	case from.ID() == arrow.TIMESTAMP && to.ID() == arrow.TIME32:
		in := valuesOf[int64](x)
		var out []int32
		vals, out = NewValues[int32](mem, len(in))
		for i, v := range in {
			ms, _ := splitMillis(v, fu)
			if fromLTZ {
				ms = local.ToLocal(ms)
			}
			out[i] = int32(joinMillis(ms-rowtime.FloorDiv(ms, msPerDay)*msPerDay, 0, tu))
		}
	case from.ID() == arrow.DATE32 && to.ID() == arrow.TIMESTAMP:
		in := valuesOf[int32](x)
		var out []int64
		vals, out = NewValues[int64](mem, len(in))
		for i, v := range in {
			ms := int64(v) * msPerDay
			if toLTZ {
				ms = local.ToEpoch(ms)
			}
			out[i] = joinMillis(ms, 0, tu)
		}
	case from.ID() == arrow.TIME32 && to.ID() == arrow.TIME32:
		in := valuesOf[int32](x)
		var out []int32
		vals, out = NewValues[int32](mem, len(in))
		for i, v := range in {
			ms, _ := splitMillis(int64(v), fu)
			out[i] = int32(joinMillis(ms, 0, tu))
		}
	default:
		if validity != nil {
			validity.Release()
		}
		return nil, fmt.Errorf("CAST from %s to %s is not supported", from, to)
	}
	return NewArray(to, x.Len(), validity, nulls, vals), nil
}
