package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// DecimalMath is ABS, FLOOR or CEIL of a DECIMAL column. ABS keeps the
// type; FLOOR and CEIL give DECIMAL(p, 0), Calcite's type for them, and
// NULL for the rare value whose carry does not fit (CEIL of 99.9 as
// DECIMAL(3, 1)).
type DecimalMath struct {
	Name string // ABS, FLOOR or CEIL
	X    Expr
	Type *arrow.Decimal128Type
}

func (e *DecimalMath) DataType() arrow.DataType { return e.Type }
func (e *DecimalMath) String() string           { return fmt.Sprintf("%s(%s)", e.Name, e.X) }
func (e *DecimalMath) children() []Expr         { return []Expr{e.X} }

func (e *DecimalMath) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	in, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	x, ok := in.(*array.Decimal128)
	if !ok {
		return nil, fmt.Errorf("%s of %s", e.Name, in.DataType())
	}
	scale := x.DataType().(*arrow.Decimal128Type).Scale
	unit := decimal128.GetScaleMultiplier(int(scale))
	b := array.NewDecimal128Builder(mem, e.Type)
	defer b.Release()
	b.Reserve(x.Len())
	vals := x.Values()
	for i := range x.Len() {
		if x.IsNull(i) {
			b.UnsafeAppendBoolToBitmap(false)
			continue
		}
		v := vals[i]
		if e.Name == "ABS" {
			b.UnsafeAppend(v.Abs())
			continue
		}
		// truncate toward zero, then step away from it for a fraction on
		// the rounding side
		t := v.ReduceScaleBy(scale, false)
		if frac := v.Sub(t.Mul(unit)); frac.Sign() != 0 {
			if e.Name == "FLOOR" && frac.Sign() < 0 {
				t = t.Sub(decimal128.FromI64(1))
			} else if e.Name == "CEIL" && frac.Sign() > 0 {
				t = t.Add(decimal128.FromI64(1))
			}
		}
		if !t.FitsInPrecision(e.Type.Precision) {
			b.UnsafeAppendBoolToBitmap(false)
			continue
		}
		b.UnsafeAppend(t)
	}
	return b.NewArray(), nil
}
