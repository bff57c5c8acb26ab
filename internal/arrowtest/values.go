package arrowtest

import (
	"fmt"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// appendValue appends v (nil: NULL) to b, converted as the package doc
// says.
func appendValue(b array.Builder, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	bad := func() error { return fmt.Errorf("%v (%T) is not a value of %s", v, v, b.Type()) }
	switch bb := b.(type) {
	case *array.Int8Builder:
		n, ok := signed(v, math.MinInt8, math.MaxInt8)
		if !ok {
			return bad()
		}
		bb.Append(int8(n))
	case *array.Int16Builder:
		n, ok := signed(v, math.MinInt16, math.MaxInt16)
		if !ok {
			return bad()
		}
		bb.Append(int16(n))
	case *array.Int32Builder:
		n, ok := signed(v, math.MinInt32, math.MaxInt32)
		if !ok {
			return bad()
		}
		bb.Append(int32(n))
	case *array.Int64Builder:
		n, ok := signed(v, math.MinInt64, math.MaxInt64)
		if !ok {
			return bad()
		}
		bb.Append(n)
	case *array.Uint8Builder:
		n, ok := signed(v, 0, math.MaxUint8)
		if !ok {
			return bad()
		}
		bb.Append(uint8(n))
	case *array.Uint16Builder:
		n, ok := signed(v, 0, math.MaxUint16)
		if !ok {
			return bad()
		}
		bb.Append(uint16(n))
	case *array.Uint32Builder:
		n, ok := signed(v, 0, math.MaxUint32)
		if !ok {
			return bad()
		}
		bb.Append(uint32(n))
	case *array.Uint64Builder:
		if u, ok := v.(uint64); ok {
			bb.Append(u)
			break
		}
		n, ok := signed(v, 0, math.MaxInt64)
		if !ok {
			return bad()
		}
		bb.Append(uint64(n))
	case *array.Float32Builder:
		f, ok := float(v)
		if !ok {
			return bad()
		}
		bb.Append(float32(f))
	case *array.Float64Builder:
		f, ok := float(v)
		if !ok {
			return bad()
		}
		bb.Append(f)
	case *array.BooleanBuilder:
		x, ok := v.(bool)
		if !ok {
			return bad()
		}
		bb.Append(x)
	case *array.StringBuilder:
		s, ok := v.(string)
		if !ok {
			return bad()
		}
		bb.Append(s)
	case *array.BinaryBuilder:
		switch x := v.(type) {
		case []byte:
			bb.Append(x)
		case string:
			bb.AppendString(x)
		default:
			return bad()
		}
	case *array.Date32Builder:
		if t, ok := v.(time.Time); ok {
			bb.Append(arrow.Date32FromTime(t.UTC()))
			break
		}
		n, ok := signed(v, math.MinInt32, math.MaxInt32)
		if !ok {
			return bad()
		}
		bb.Append(arrow.Date32(n))
	case *array.TimestampBuilder:
		if t, ok := v.(time.Time); ok {
			ts, err := arrow.TimestampFromTime(t, bb.Type().(*arrow.TimestampType).Unit)
			if err != nil {
				return err
			}
			bb.Append(ts)
			break
		}
		n, ok := signed(v, math.MinInt64, math.MaxInt64)
		if !ok {
			return bad()
		}
		bb.Append(arrow.Timestamp(n))
	case *array.Decimal128Builder:
		dt := bb.Type().(*arrow.Decimal128Type)
		switch x := v.(type) {
		case decimal128.Num:
			bb.Append(x)
		case string:
			n, err := decimal128.FromString(x, dt.Precision, dt.Scale)
			if err != nil {
				return fmt.Errorf("%q as %s: %w", x, dt, err)
			}
			bb.Append(n)
		default:
			n, ok := signed(v, math.MinInt64, math.MaxInt64)
			if !ok {
				return bad()
			}
			bb.Append(decimal128.FromI64(n))
		}
	default:
		return fmt.Errorf("arrowtest has no values for %s", b.Type())
	}
	return nil
}

// signed reads any Go integer, in [lo, hi].
func signed(v any, lo, hi int64) (int64, bool) {
	var n int64
	switch x := v.(type) {
	case int:
		n = int64(x)
	case int8:
		n = int64(x)
	case int16:
		n = int64(x)
	case int32:
		n = int64(x)
	case int64:
		n = x
	case uint:
		if uint64(x) > math.MaxInt64 {
			return 0, false
		}
		n = int64(x)
	case uint8:
		n = int64(x)
	case uint16:
		n = int64(x)
	case uint32:
		n = int64(x)
	case uint64:
		if x > math.MaxInt64 {
			return 0, false
		}
		n = int64(x)
	default:
		return 0, false
	}
	return n, n >= lo && n <= hi
}

// float reads a float32, float64 or any Go integer.
func float(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	}
	n, ok := signed(v, math.MinInt64, math.MaxInt64)
	return float64(n), ok
}
