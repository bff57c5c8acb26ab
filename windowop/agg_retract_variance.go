package windowop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/checkpoint"
)

// retractVariance is VAR_POP, VAR_SAMP, STDDEV_POP and STDDEV_SAMP with
// retraction, as Flink computes them (its WelfordM2AggFunction, which the
// planner rewrites the variance family into): a row comes in by Welford's
// method, as varianceAcc folds it, and goes out by the same steps run
// backwards. Floating point does not undo exactly, so after retractions
// M2 can drift a little from what the remaining rows alone would give;
// when it drifts below zero the result is NULL, as Flink's is. The count
// goes on counting past zero (a row taken out that never came), and the
// mean and M2 start again when it returns to zero.
type retractVariance struct{ varianceAcc }

func newRetractVariance(kind AggKind, in arrow.DataType) (*retractVariance, error) {
	if in.ID() == arrow.STRUCT {
		return nil, fmt.Errorf("%s takes one argument", kind)
	}
	acc, err := newVarianceAcc(kind, in)
	if err != nil {
		return nil, err
	}
	return &retractVariance{*acc}, nil
}

func (a *retractVariance) update(col arrow.Array, slots []int32, from, to int) {
	a.fold(col, slots, from, to, a.add)
}

func (a *retractVariance) retract(col arrow.Array, slots []int32, from, to int) {
	a.fold(col, slots, from, to, a.remove)
}

// add is Flink's accumulate: a count at or below zero is only counted.
func (a *retractVariance) add(s int32, x float64) {
	if a.n[s]++; a.n[s] <= 0 {
		return
	}
	d := x - a.mean[s]
	a.mean[s] += d / float64(a.n[s])
	a.m2[s] += d * (x - a.mean[s])
}

func (a *retractVariance) remove(s int32, x float64) {
	if a.n[s]--; a.n[s] <= 0 {
		if a.n[s] == 0 {
			a.mean[s], a.m2[s] = 0, 0
		}
		return
	}
	d2 := x - a.mean[s]
	a.mean[s] -= d2 / float64(a.n[s])
	a.m2[s] -= (x - a.mean[s]) * d2
}

func (a *retractVariance) fold(col arrow.Array, slots []int32, from, to int, f func(s int32, x float64)) {
	for i := from; i < to; i++ {
		if s := slots[i]; s >= 0 && col.IsValid(i) {
			f(s, numberValue(col, i, a.scale))
		}
	}
}

// numberValue is row i of a numeric column as DOUBLE.
func numberValue(col arrow.Array, i int, scale int32) float64 {
	switch c := col.(type) {
	case *array.Float32, *array.Float64:
		return floatValue(c, i)
	case *array.Decimal128:
		return c.Value(i).ToFloat64(scale)
	}
	return float64(intValue(col, i))
}

// result is varianceAcc's, NULL where Flink's M2 is: without rows or
// below zero.
func (a *retractVariance) result(s int32) (float64, bool) {
	if a.n[s] <= 0 || a.m2[s] < 0 {
		return 0, false
	}
	return a.varianceAcc.result(s)
}

func (a *retractVariance) appendResults(slots []int32, b array.Builder) {
	appendDoubleResults(slots, b, a.result)
}

func (a *retractVariance) sameResult(x, y int32) bool { return sameDoubleResult(a.result, x, y) }

// merge is Flink's: a slot whose count is not positive adds only its count.
func (a *retractVariance) merge(dst, src int32) {
	switch {
	case a.n[src] <= 0:
		a.n[dst] += a.n[src]
	case a.n[dst] <= 0:
		n := a.n[dst] + a.n[src]
		a.copyTo(dst, src)
		a.n[dst] = n
	default:
		a.varianceAcc.merge(dst, src)
	}
	if a.n[dst] <= 0 {
		a.mean[dst], a.m2[dst] = 0, 0
	}
}

// load reads what varianceAcc.save wrote; counts may be negative.
func (a *retractVariance) load(d *checkpoint.Decoder, n int) {
	a.n = fit(d, checkpoint.ReadInts[int64](d), n)
	a.mean = fit(d, d.Floats(), n)
	a.m2 = fit(d, d.Floats(), n)
}
