package temporal

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format/timeprecision"
)

// FractionText is X, the text of a TIMESTAMP(p) or TIME(p) whose p lies
// between Arrow's units (CAST to STRING), written with Digits fraction
// digits as Flink writes it: the trailing zeros of the unit's digits
// dropped down to Digits.
type FractionText struct {
	X      expr.Expr
	Digits int
}

func (e *FractionText) DataType() arrow.DataType { return arrow.BinaryTypes.String }
func (e *FractionText) Children() []expr.Expr    { return []expr.Expr{e.X} }
func (e *FractionText) String() string {
	return fmt.Sprintf("FRACTION_TEXT(%s, %d)", e.X, e.Digits)
}

func (e *FractionText) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	in := x.(*array.String)
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(in.Len())
	b.ReserveData(len(in.ValueBytes()))
	var text []byte
	for i := range in.Len() {
		if in.IsNull(i) {
			b.AppendNull()
			continue
		}
		text = timeprecision.TrimFraction(append(text[:0], in.Value(i)...), 0, e.Digits)
		b.BinaryBuilder.Append(text)
	}
	return b.NewArray(), nil
}
