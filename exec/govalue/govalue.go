package govalue

import (
	"bytes"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/format"
)

// Reader returns the Go value of arr[i] for each i, in the types of
// database/sql/driver.Value: nil for NULL; int64 for the integer types;
// float64 for FLOAT and DOUBLE; bool; string for STRING (a copy: the
// batch's memory goes back to the allocator); time.Time for TIMESTAMP (the
// wall time, in UTC), TIMESTAMP_LTZ (the instant, in loc) and DATE
// (midnight UTC); time.Duration for a day-time interval and int64 months
// for a year-month interval; map[string]any for a ROW, []any for an ARRAY and
// map[string]any (map[any]any for keys other than strings) for a MAP or
// MULTISET (nested.go); and for DECIMAL, TIME and any other type the text
// AppendValue gives. It is chosen once per column; loc nil means UTC. The
// database/sql driver and Rows.Scan both read values through it.
func Reader(arr arrow.Array, loc *time.Location) func(i int) any {
	if loc == nil {
		loc = time.UTC
	}
	read := nonNullGoValue(arr, loc)
	if arr.NullN() == 0 {
		return read
	}
	return func(i int) any {
		if arr.IsNull(i) {
			return nil
		}
		return read(i)
	}
}

func nonNullGoValue(arr arrow.Array, loc *time.Location) func(int) any {
	switch a := arr.(type) {
	case *array.Null: // SELECT NULL: Arrow keeps no validity bits for it
		return func(int) any { return nil }
	case *array.Int8:
		return func(i int) any { return int64(a.Value(i)) }
	case *array.Int16:
		return func(i int) any { return int64(a.Value(i)) }
	case *array.Int32:
		return func(i int) any { return int64(a.Value(i)) }
	case *array.Int64:
		return func(i int) any { return a.Value(i) }
	case *array.Uint8:
		return func(i int) any { return int64(a.Value(i)) }
	case *array.Uint16:
		return func(i int) any { return int64(a.Value(i)) }
	case *array.Uint32:
		return func(i int) any { return int64(a.Value(i)) }
	case *array.Float32:
		return func(i int) any { return float64(a.Value(i)) }
	case *array.Float64:
		return func(i int) any { return a.Value(i) }
	case *array.Boolean:
		return func(i int) any { return a.Value(i) }
	case *array.String:
		return func(i int) any { return strings.Clone(a.Value(i)) }
	case *array.LargeString:
		return func(i int) any { return strings.Clone(a.Value(i)) }
	case *array.Binary: // BYTES: a copy the caller may keep
		return func(i int) any { return bytes.Clone(a.Value(i)) }
	case *array.Date32:
		return func(i int) any { return time.Unix(int64(a.Value(i))*86400, 0).UTC() }
	case *array.Date64:
		return func(i int) any { return time.UnixMilli(int64(a.Value(i))).UTC() }
	case *array.Timestamp:
		return func(i int) any { return TimestampTime(a, i, loc) }
	case *array.Duration: // a day-time interval, duration[ms]
		return func(i int) any { return time.Duration(a.Value(i)) * time.Millisecond }
	case *array.MonthInterval: // a year-month interval: its months
		return func(i int) any { return int64(a.Value(i)) }
	}
	if read := nestedGoValue(arr, loc); read != nil {
		return read
	}
	// DECIMAL (exact, with its scale's fraction digits), TIME and anything
	// else: the text the result writers print.
	app := format.ValueAppender(arr, loc)
	var buf []byte
	return func(i int) any {
		buf = app(buf[:0], i)
		return string(buf)
	}
}

// TimestampTime is the time.Time of a TIMESTAMP value (its wall time, in
// UTC) or of a TIMESTAMP_LTZ one (the instant, in loc; nil means UTC).
func TimestampTime(a *array.Timestamp, i int, loc *time.Location) time.Time {
	tt := a.DataType().(*arrow.TimestampType)
	t := a.Value(i).ToTime(tt.Unit)
	if tt.TimeZone == "" {
		return t
	}
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc) // TIMESTAMP_LTZ: an instant, seen in the session zone
}
