package windowop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/checkpoint"
)

// sumAcc is SUM over integer or floating-point columns. Integers add in
// int64 and are narrowed to the argument type on output (SUM(INT) is INT in
// Flink, wrapping on overflow as Java does); floats add in float64.
type sumAcc struct {
	dt    arrow.DataType
	ints  []int64
	flts  []float64
	isFlt bool
	has   []bool // false until a non-NULL value arrives: SUM of NULLs is NULL
}

func newSumAcc(in arrow.DataType) (accumulator, error) {
	switch in.ID() {
	case arrow.DECIMAL128:
		return newDecimalSumAcc(in.(*arrow.Decimal128Type)), nil
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return &sumAcc{dt: in}, nil
	case arrow.FLOAT32, arrow.FLOAT64:
		return &sumAcc{dt: in, isFlt: true}, nil
	}
	return nil, fmt.Errorf("SUM over %s is not supported yet", in)
}

func (a *sumAcc) resize(n int) {
	a.has = extendTo(a.has, n)
	if a.isFlt {
		a.flts = extendTo(a.flts, n)
	} else {
		a.ints = extendTo(a.ints, n)
	}
}

func (a *sumAcc) reset(slot int32) {
	a.has[slot] = false
	if a.isFlt {
		a.flts[slot] = 0
	} else {
		a.ints[slot] = 0
	}
}

func (a *sumAcc) update(col arrow.Array, slots []int32, from, to int) {
	switch c := col.(type) {
	case *array.Int8:
		sumInts(a, c.Int8Values(), col, slots, from, to)
	case *array.Int16:
		sumInts(a, c.Int16Values(), col, slots, from, to)
	case *array.Int32:
		sumInts(a, c.Int32Values(), col, slots, from, to)
	case *array.Int64:
		sumInts(a, c.Int64Values(), col, slots, from, to)
	case *array.Float32:
		sumFloats(a, c.Float32Values(), col, slots, from, to)
	case *array.Float64:
		sumFloats(a, c.Float64Values(), col, slots, from, to)
	}
}

func sumInts[T int8 | int16 | int32 | int64](a *sumAcc, vals []T, col arrow.Array, slots []int32, from, to int) {
	noNulls := col.NullN() == 0
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || (!noNulls && col.IsNull(i)) {
			continue
		}
		a.ints[s] += int64(vals[i])
		a.has[s] = true
	}
}

func sumFloats[T float32 | float64](a *sumAcc, vals []T, col arrow.Array, slots []int32, from, to int) {
	noNulls := col.NullN() == 0
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || (!noNulls && col.IsNull(i)) {
			continue
		}
		a.flts[s] += float64(vals[i])
		a.has[s] = true
	}
}

func (a *sumAcc) appendResults(slots []int32, b array.Builder) {
	// the commonest result columns without a type switch per value
	if a.isFlt && appendFloatsAt(b, slots, a.has, a.flts) || !a.isFlt && appendIntsAt(b, slots, a.has, a.ints) {
		return
	}
	for _, s := range slots {
		if !a.has[s] {
			b.AppendNull()
			continue
		}
		if a.isFlt {
			appendFloat(b, a.flts[s])
		} else {
			appendInt(b, a.ints[s])
		}
	}
}

func (a *sumAcc) merge(dst, src int32) {
	if !a.has[src] {
		return
	}
	a.has[dst] = true
	if a.isFlt {
		a.flts[dst] += a.flts[src]
	} else {
		a.ints[dst] += a.ints[src]
	}
}

func (a *sumAcc) copyTo(dst, src int32) {
	a.has[dst] = a.has[src]
	if a.isFlt {
		a.flts[dst] = a.flts[src]
	} else {
		a.ints[dst] = a.ints[src]
	}
}

func (a *sumAcc) sameResult(x, y int32) bool {
	if a.has[x] != a.has[y] {
		return false
	}
	if a.isFlt {
		return a.flts[x] == a.flts[y]
	}
	return a.ints[x] == a.ints[y]
}

func (a *sumAcc) resultType() arrow.DataType { return a.dt }

func (a *sumAcc) save(e *checkpoint.Encoder, n int) {
	e.Bools(a.has[:n])
	if a.isFlt {
		e.Floats(a.flts[:n])
	} else {
		checkpoint.Ints(e, a.ints[:n])
	}
}

func (a *sumAcc) load(d *checkpoint.Decoder, n int) {
	a.has = fit(d, d.Bools(), n)
	if a.isFlt {
		a.flts = fit(d, d.Floats(), n)
	} else {
		a.ints = fit(d, checkpoint.ReadInts[int64](d), n)
	}
}
