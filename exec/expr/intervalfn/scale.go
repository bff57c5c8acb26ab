package intervalfn

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Scale is interval * n, n * interval or interval / n, as Flink's
// generated code computes it on the interval's milliseconds or months:
// (long) (ms * n) and (long) (ms / n), so the result is truncated toward
// zero, an integer division by zero fails the query and a DOUBLE result
// beyond the range saturates as Java's cast does. N is a BIGINT or a
// DOUBLE (the planner converts the other numbers).
type Scale struct {
	Interval expr.Expr
	N        expr.Expr
	Divide   bool
}

func (e *Scale) DataType() arrow.DataType { return e.Interval.DataType() }
func (e *Scale) Children() []expr.Expr    { return []expr.Expr{e.Interval, e.N} }

func (e *Scale) String() string {
	op := "*"
	if e.Divide {
		op = "/"
	}
	return fmt.Sprintf("(%s %s %s)", e.Interval, op, e.N)
}

// CanFail: an integer division by zero fails, as in Flink.
func (e *Scale) CanFail() bool { return e.Divide }

func (e *Scale) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	iv, err := e.Interval.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer iv.Release()
	num, err := e.N.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer num.Release()
	if iv.DataType().ID() == arrow.INTERVAL_MONTHS {
		return scale(e, mem, expr.ValuesOf[int32](iv), iv, num, math.MinInt32, math.MaxInt32)
	}
	return scale(e, mem, expr.ValuesOf[int64](iv), iv, num, math.MinInt64, math.MaxInt64)
}

func scale[T int32 | int64](e *Scale, mem memory.Allocator, xs []T, iv, num arrow.Array, lo, hi int64) (arrow.Array, error) {
	n := iv.Len()
	validity, nulls := expr.AndValidity(mem, n, iv, num)
	vb, out := expr.NewValues[T](mem, n)
	if num.DataType().ID() == arrow.FLOAT64 {
		ds := expr.ValuesOf[float64](num)
		for i := range out {
			v := float64(xs[i]) * ds[i]
			if e.Divide {
				v = float64(xs[i]) / ds[i]
			}
			out[i] = T(javaCast(v, lo, hi))
		}
		return expr.NewArray(iv.DataType(), n, validity, nulls, vb), nil
	}
	ks := expr.ValuesOf[int64](num)
	var valid []byte
	if validity != nil {
		valid = validity.Bytes()
	}
	for i := range out {
		switch {
		case !e.Divide:
			out[i] = T(int64(xs[i]) * ks[i])
		case ks[i] != 0:
			out[i] = T(int64(xs[i]) / ks[i])
		case valid == nil || bitutil.BitIsSet(valid, i):
			vb.Release()
			if validity != nil {
				validity.Release()
			}
			return nil, fmt.Errorf("%w: division by zero in %s", expr.ErrEval, e)
		}
	}
	return expr.NewArray(iv.DataType(), n, validity, nulls, vb), nil
}

// javaCast is Java's (long) or (int) of a double: NaN is 0, values beyond
// the range [lo, hi] saturate, others truncate toward zero.
func javaCast(v float64, lo, hi int64) int64 {
	switch {
	case v != v:
		return 0
	case v <= float64(lo):
		return lo
	case v >= float64(hi):
		return hi
	}
	return int64(v)
}
