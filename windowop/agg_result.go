package windowop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Accumulators hold results widened: integers, booleans, dates, times and
// timestamps as int64, floats as float64. appendInt and appendFloat are the
// one place they narrow back to the result column's type.

// appendInt appends v to b, a builder of an integer, BOOLEAN, DATE, TIME
// or TIMESTAMP column: integers narrow wrapping (as Java's casts do),
// booleans are v != 0.
func appendInt(b array.Builder, v int64) {
	switch bb := b.(type) {
	case *array.Int8Builder:
		bb.Append(int8(v))
	case *array.Int16Builder:
		bb.Append(int16(v))
	case *array.Int32Builder:
		bb.Append(int32(v))
	case *array.Int64Builder:
		bb.Append(v)
	case *array.BooleanBuilder:
		bb.Append(v != 0)
	case *array.Date32Builder:
		bb.Append(arrow.Date32(v))
	case *array.Time32Builder:
		bb.Append(arrow.Time32(v))
	case *array.TimestampBuilder:
		bb.Append(arrow.Timestamp(v))
	case *array.Time64Builder:
		bb.Append(arrow.Time64(v))
	}
}

// appendFloat appends v to b, a builder of a FLOAT or DOUBLE column.
func appendFloat(b array.Builder, v float64) {
	switch bb := b.(type) {
	case *array.Float32Builder:
		bb.Append(float32(v))
	case *array.Float64Builder:
		bb.Append(v)
	}
}

// appendIntsAt appends vals[i] for each i of at, or NULL where has[i] is
// false, to b when it is a BIGINT or INT builder, with one capacity check
// for all and no type switch per value; it reports whether b was one. The
// GROUP BY output writes a key and each result per row, twice per input
// row, and a type switch per value in intKeys.appendTo and
// pickAcc.appendResults was a fifth of the group-by benchmark query's CPU.
func appendIntsAt[I int32 | uint32](b array.Builder, at []I, has []bool, vals []int64) bool {
	switch bb := b.(type) {
	case *array.Int64Builder:
		bb.Reserve(len(at))
		for _, i := range at {
			if has[i] {
				bb.UnsafeAppend(vals[i])
			} else {
				bb.UnsafeAppendBoolToBitmap(false)
			}
		}
	case *array.Int32Builder:
		bb.Reserve(len(at))
		for _, i := range at {
			if has[i] {
				bb.UnsafeAppend(int32(vals[i]))
			} else {
				bb.UnsafeAppendBoolToBitmap(false)
			}
		}
	default:
		return false
	}
	return true
}

// appendFloatsAt is appendIntsAt for a DOUBLE builder.
func appendFloatsAt[I int32 | uint32](b array.Builder, at []I, has []bool, vals []float64) bool {
	bb, ok := b.(*array.Float64Builder)
	if !ok {
		return false
	}
	bb.Reserve(len(at))
	for _, i := range at {
		if has[i] {
			bb.UnsafeAppend(vals[i])
		} else {
			bb.UnsafeAppendBoolToBitmap(false)
		}
	}
	return true
}
