package windowop

import (
	"slices"
	"sync"

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
// false, to b when it is a BIGINT or INT builder, and reports whether b
// was one. The values are gathered into a scratch slice and appended in
// one AppendValues, which sets the validity bits of a run at once: the
// GROUP BY output writes a key and each result per row, twice per input
// row, and a type switch per value was a fifth of the group-by benchmark
// query's CPU, a validity bit set per value another tenth.
func appendIntsAt[I int32 | uint32](b array.Builder, at []I, has []bool, vals []int64) bool {
	if len(at) <= fewResults {
		return appendFewIntsAt(b, at, has, vals)
	}
	switch bb := b.(type) {
	case *array.Int64Builder:
		s := int64Scratch.Get().(*gathered[int64])
		bb.AppendValues(gatherAt(s, at, has, vals))
		int64Scratch.Put(s)
	case *array.Int32Builder:
		s := int32Scratch.Get().(*gathered[int32])
		bb.AppendValues(gatherAt(s, at, has, vals)) // narrowed wrapping, as appendInt
		int32Scratch.Put(s)
	default:
		return false
	}
	return true
}

// fewResults is the most results appended one by one. A GROUP BY whose
// few keys repeat within a batch emits segments of one or two rows, for
// which the scratch pool and the bulk append's bitmap cost more than the
// values: Nexmark q15 (one key, 12 aggregates) spent 6 of its 25 CPU-s
// in appendIntsAt.
const fewResults = 4

// appendFewIntsAt is appendIntsAt a value at a time.
func appendFewIntsAt[I int32 | uint32](b array.Builder, at []I, has []bool, vals []int64) bool {
	switch bb := b.(type) {
	case *array.Int64Builder:
		for _, i := range at {
			if has != nil && !has[i] {
				bb.AppendNull()
			} else {
				bb.Append(vals[i])
			}
		}
	case *array.Int32Builder:
		for _, i := range at {
			if has != nil && !has[i] {
				bb.AppendNull()
			} else {
				bb.Append(int32(vals[i])) // narrowed wrapping, as appendInt
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
	if len(at) <= fewResults {
		for _, i := range at {
			if has != nil && !has[i] {
				bb.AppendNull()
			} else {
				bb.Append(vals[i])
			}
		}
		return true
	}
	s := float64Scratch.Get().(*gathered[float64])
	bb.AppendValues(gatherAt(s, at, has, vals))
	float64Scratch.Put(s)
	return true
}

// gathered is a scratch column of values and their validity, reused
// through a pool: operators run on several goroutines.
type gathered[V int32 | int64 | float64] struct {
	vals  []V
	valid []bool
}

var (
	int64Scratch   = sync.Pool{New: func() any { return new(gathered[int64]) }}
	int32Scratch   = sync.Pool{New: func() any { return new(gathered[int32]) }}
	float64Scratch = sync.Pool{New: func() any { return new(gathered[float64]) }}
)

// gatherAt is vals[i] as a V for each i of at, with has[i] as their
// validity (nil when every one is valid; has nil: all are), in g's reused
// slices.
func gatherAt[I int32 | uint32, W int64 | float64, V int32 | int64 | float64](g *gathered[V], at []I, has []bool, vals []W) ([]V, []bool) {
	out := slices.Grow(g.vals[:0], len(at))[:len(at)]
	g.vals = out
	if has == nil {
		for k, i := range at {
			out[k] = V(vals[i])
		}
		return out, nil
	}
	all := true
	for k, i := range at {
		out[k] = V(vals[i])
		all = all && has[i]
	}
	if all {
		return out, nil
	}
	valid := slices.Grow(g.valid[:0], len(at))[:len(at)]
	for k, i := range at {
		valid[k] = has[i]
	}
	g.valid = valid
	return out, valid
}
