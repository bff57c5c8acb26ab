package windowop

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/checkpoint"
)

// varianceAcc is VAR_POP, VAR_SAMP, STDDEV_POP and STDDEV_SAMP over any
// numeric argument, as DOUBLE. It keeps count, mean and M2 (the sum of
// squared deviations from the mean), updated per row by Welford's method
// and merged by Chan et al.'s parallel formula, which stay accurate where
// sum(x²) − sum(x)²/n cancels catastrophically. The sample forms are NULL
// below two values, every form NULL without values.
type varianceAcc struct {
	kind  AggKind
	scale int32 // DECIMAL arguments: their scale
	n     []int64
	mean  []float64
	m2    []float64
}

func newVarianceAcc(kind AggKind, in arrow.DataType) (*varianceAcc, error) {
	a := &varianceAcc{kind: kind}
	switch in.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64:
	case arrow.DECIMAL128:
		a.scale = in.(*arrow.Decimal128Type).Scale
	default:
		return nil, fmt.Errorf("%s over %s is not supported", kind, in)
	}
	return a, nil
}

func (a *varianceAcc) resize(n int) {
	a.n, a.mean, a.m2 = extendTo(a.n, n), extendTo(a.mean, n), extendTo(a.m2, n)
}

func (a *varianceAcc) reset(s int32) { a.n[s], a.mean[s], a.m2[s] = 0, 0, 0 }

func (a *varianceAcc) update(col arrow.Array, slots []int32, from, to int) {
	switch c := col.(type) {
	case *array.Int8:
		welford(a, c.Int8Values(), col, slots, from, to)
	case *array.Int16:
		welford(a, c.Int16Values(), col, slots, from, to)
	case *array.Int32:
		welford(a, c.Int32Values(), col, slots, from, to)
	case *array.Int64:
		welford(a, c.Int64Values(), col, slots, from, to)
	case *array.Float32:
		welford(a, c.Float32Values(), col, slots, from, to)
	case *array.Float64:
		welford(a, c.Float64Values(), col, slots, from, to)
	case *array.Decimal128:
		vals := c.Values()
		for i := from; i < to; i++ {
			if s := slots[i]; s >= 0 && c.IsValid(i) {
				a.add(s, vals[i].ToFloat64(a.scale))
			}
		}
	}
}

func welford[T int8 | int16 | int32 | int64 | float32 | float64](a *varianceAcc, vals []T, col arrow.Array, slots []int32, from, to int) {
	noNulls := col.NullN() == 0
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || (!noNulls && col.IsNull(i)) {
			continue
		}
		a.add(s, float64(vals[i]))
	}
}

func (a *varianceAcc) add(s int32, x float64) {
	a.n[s]++
	d := x - a.mean[s]
	a.mean[s] += d / float64(a.n[s])
	a.m2[s] += d * (x - a.mean[s])
}

// merge is Chan's formula: the deviation of the two means, weighted by the
// counts, adds to the sum of the two M2.
func (a *varianceAcc) merge(dst, src int32) {
	nb := a.n[src]
	if nb == 0 {
		return
	}
	na := a.n[dst]
	if na == 0 {
		a.copyTo(dst, src)
		return
	}
	n := float64(na + nb)
	d := a.mean[src] - a.mean[dst]
	a.mean[dst] += d * float64(nb) / n
	a.m2[dst] += a.m2[src] + d*d*float64(na)*float64(nb)/n
	a.n[dst] = na + nb
}

func (a *varianceAcc) copyTo(dst, src int32) {
	a.n[dst], a.mean[dst], a.m2[dst] = a.n[src], a.mean[src], a.m2[src]
}

// result is slot s's value; ok is false for NULL.
func (a *varianceAcc) result(s int32) (float64, bool) {
	n := a.n[s]
	var v float64
	switch a.kind {
	case VarPop, StddevPop:
		if n < 1 {
			return 0, false
		}
		v = a.m2[s] / float64(n)
	default:
		if n < 2 {
			return 0, false
		}
		v = a.m2[s] / float64(n-1)
	}
	v = max(v, 0) // rounding must not make a variance negative
	if a.kind == StddevPop || a.kind == StddevSamp {
		v = math.Sqrt(v)
	}
	return v, true
}

func (a *varianceAcc) appendResults(slots []int32, b array.Builder) {
	appendDoubleResults(slots, b, a.result)
}

func (a *varianceAcc) sameResult(x, y int32) bool { return sameDoubleResult(a.result, x, y) }

func (*varianceAcc) resultType() arrow.DataType { return arrow.PrimitiveTypes.Float64 }

func (a *varianceAcc) save(e *checkpoint.Encoder, n int) {
	checkpoint.Ints(e, a.n[:n])
	e.Floats(a.mean[:n])
	e.Floats(a.m2[:n])
}

func (a *varianceAcc) load(d *checkpoint.Decoder, n int) {
	a.n = rowCounts(d, fit(d, checkpoint.ReadInts[int64](d), n))
	a.mean = fit(d, d.Floats(), n)
	a.m2 = fit(d, d.Floats(), n)
}
