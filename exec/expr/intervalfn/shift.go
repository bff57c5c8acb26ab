package intervalfn

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/rowtime"
)

const msPerDay = 86_400_000

// Shift is X ± an interval computed per row, as Flink's generated code
// computes it (ScalarOperatorGens.generateTemporalPlusMinus), of X's type:
//   - a TIMESTAMP or TIMESTAMP_LTZ moves by the milliseconds, or by
//     months with the day of month clamped (DateTimeUtils.addMonths; an
//     LTZ moves its wall clock in the session zone Loc);
//   - a DATE moves by whole days, ms / 86400000 truncated toward zero,
//     or by months, clamped;
//   - a TIME wraps around the day, ((t + day) ± ms % day) % day, and a
//     year-month interval leaves it unchanged.
//
// The planner gives a TIMESTAMP(0) X as TIMESTAMP(3), as for constants.
type Shift struct {
	X        expr.Expr
	Interval expr.Expr // duration[ms] or month_interval
	Minus    bool
	Loc      *time.Location
}

func (e *Shift) DataType() arrow.DataType { return e.X.DataType() }
func (e *Shift) Children() []expr.Expr    { return []expr.Expr{e.X, e.Interval} }

func (e *Shift) String() string {
	op := "+"
	if e.Minus {
		op = "-"
	}
	return fmt.Sprintf("(%s %s %s)", e.X, op, e.Interval)
}

func (e *Shift) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	iv, err := e.Interval.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer iv.Release()
	n := x.Len()
	sign := int64(1)
	if e.Minus {
		sign = -1
	}
	months := iv.DataType().ID() == arrow.INTERVAL_MONTHS
	var amounts []int64
	var monthAmounts []int32
	if months {
		monthAmounts = expr.ValuesOf[int32](iv)
	} else {
		amounts = expr.ValuesOf[int64](iv)
	}
	validity, nulls := expr.AndValidity(mem, n, x, iv)
	switch dt := x.DataType().(type) {
	case *arrow.TimestampType:
		perMs := map[arrow.TimeUnit]int64{arrow.Millisecond: 1, arrow.Microsecond: 1000, arrow.Nanosecond: 1_000_000}[dt.Unit]
		if perMs == 0 {
			return nil, fmt.Errorf("%w: %s must be of milliseconds or finer", expr.ErrEval, e)
		}
		vb, out := expr.NewValues[int64](mem, n)
		xs := expr.ValuesOf[int64](x)
		if months {
			var lt *rowtime.LocalTime
			if dt.TimeZone != "" {
				lt = rowtime.NewLocalTime(e.Loc)
			}
			for i, v := range xs {
				out[i] = expr.AddMonthsTimestamp(v, perMs, sign*int64(monthAmounts[i]), lt)
			}
		} else {
			for i, v := range xs {
				out[i] = v + sign*amounts[i]*perMs
			}
		}
		return expr.NewArray(dt, n, validity, nulls, vb), nil
	case *arrow.Date32Type:
		vb, out := expr.NewValues[int32](mem, n)
		for i, d := range expr.ValuesOf[int32](x) {
			if months {
				out[i] = int32(expr.ShiftMonths(int64(d), sign*int64(monthAmounts[i])))
			} else {
				out[i] = d + int32(sign*(amounts[i]/msPerDay))
			}
		}
		return expr.NewArray(dt, n, validity, nulls, vb), nil
	case *arrow.Time32Type:
		perSec := int64(1)
		if dt.Unit == arrow.Second {
			perSec = 1000
		}
		vb, out := expr.NewValues[int32](mem, n)
		for i, t := range expr.ValuesOf[int32](x) {
			if months {
				out[i] = t
				continue
			}
			ms := (int64(t)*perSec + msPerDay + sign*(amounts[i]%msPerDay)) % msPerDay
			out[i] = int32(ms / perSec)
		}
		return expr.NewArray(dt, n, validity, nulls, vb), nil
	}
	return nil, fmt.Errorf("%w: cannot add an interval to %s", expr.ErrEval, x.DataType())
}

// Sum is L ± R of two intervals of one kind, Flink's plain long (or int)
// addition of their milliseconds (or months).
type Sum struct {
	L, R  expr.Expr
	Minus bool
}

func (e *Sum) DataType() arrow.DataType { return e.L.DataType() }
func (e *Sum) Children() []expr.Expr    { return []expr.Expr{e.L, e.R} }

func (e *Sum) String() string {
	op := "+"
	if e.Minus {
		op = "-"
	}
	return fmt.Sprintf("(%s %s %s)", e.L, op, e.R)
}

func (e *Sum) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	l, err := e.L.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	r, err := e.R.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	if l.DataType().ID() == arrow.INTERVAL_MONTHS {
		return sum(e, mem, expr.ValuesOf[int32](l), expr.ValuesOf[int32](r), l, r), nil
	}
	return sum(e, mem, expr.ValuesOf[int64](l), expr.ValuesOf[int64](r), l, r), nil
}

func sum[T int32 | int64](e *Sum, mem memory.Allocator, ls, rs []T, l, r arrow.Array) arrow.Array {
	n := l.Len()
	validity, nulls := expr.AndValidity(mem, n, l, r)
	vb, out := expr.NewValues[T](mem, n)
	for i := range out {
		if e.Minus {
			out[i] = ls[i] - rs[i]
		} else {
			out[i] = ls[i] + rs[i]
		}
	}
	return expr.NewArray(l.DataType(), n, validity, nulls, vb)
}
