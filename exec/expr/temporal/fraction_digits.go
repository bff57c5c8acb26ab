package temporal

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format/timeprecision"
	"github.com/wsql/wsql/rowtime"
)

// FractionDigits keeps Digits digits of X's fraction of a second and drops
// the rest, toward the past: CAST to TIMESTAMP(p), TIMESTAMP_LTZ(p) or
// TIME(p) for a p between Arrow's units (1, 2, 4, 5, 7, 8), which are kept
// in the next finer unit, as Flink's CAST to a lower precision truncates.
type FractionDigits struct {
	X      expr.Expr
	Digits int
}

func (e *FractionDigits) DataType() arrow.DataType { return e.X.DataType() }
func (e *FractionDigits) Children() []expr.Expr    { return []expr.Expr{e.X} }
func (e *FractionDigits) String() string {
	return fmt.Sprintf("FRACTION_DIGITS(%s, %d)", e.X, e.Digits)
}

// fractionStep is what a value of unit u is truncated to a multiple of to
// keep digits fraction digits: 1 when the unit holds no more.
func fractionStep(u arrow.TimeUnit, digits int) int64 {
	step := int64(1)
	for range timeprecision.UnitDigits(u) - digits {
		step *= 10
	}
	return step
}

func (e *FractionDigits) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	n := x.Len()
	validity, nulls := expr.AndValidity(mem, n, x)
	switch dt := x.DataType().(type) {
	case *arrow.Time32Type: // TIME(1), TIME(2): milliseconds of the day, never negative
		step := int32(fractionStep(dt.Unit, e.Digits))
		buf, out := expr.NewValues[int32](mem, n)
		for i, v := range expr.ValuesOf[int32](x) {
			out[i] = v - v%step
		}
		return expr.NewArray(dt, n, validity, nulls, buf), nil
	case *arrow.TimestampType:
		step := fractionStep(dt.Unit, e.Digits)
		buf, out := expr.NewValues[int64](mem, n)
		for i, v := range expr.ValuesOf[int64](x) {
			out[i] = rowtime.FloorDiv(v, step) * step
		}
		return expr.NewArray(dt, n, validity, nulls, buf), nil
	}
	return nil, fmt.Errorf("FRACTION_DIGITS of %s", x.DataType())
}
