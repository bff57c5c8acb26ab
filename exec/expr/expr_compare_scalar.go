package expr

import (
	"cmp"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A comparison with a constant side (k <> 'literal', x > 10) compares the
// column against the one value instead of a column of copies of it: a
// large string literal repeated over a batch would cost its length times
// the rows, and pass Arrow's 2 GiB limit for a string column.

// The operators of a column compared to a scalar, written column-first.
const (
	scalarEq = iota
	scalarLt
	scalarLe
	scalarGt
	scalarGe
)

// scalarOps maps an operator with the column on its left; mirrored maps it
// with the column on its right (5 > x is x < 5). <> is = inverted.
var (
	scalarOps = map[string]int{"=": scalarEq, "<>": scalarEq, "!=": scalarEq, "<": scalarLt, "<=": scalarLe, ">": scalarGt, ">=": scalarGe}
	mirrored  = map[string]int{"=": scalarEq, "<>": scalarEq, "!=": scalarEq, "<": scalarGt, "<=": scalarGe, ">": scalarLt, ">=": scalarLe}
)

// constantSide returns the column side and the literal of a comparison
// with one non-NULL literal operand of a type the scalar kernels take,
// and the operator written column-first.
func (e *Compare) constantSide() (Expr, *Literal, int, bool) {
	if l, ok := e.R.(*Literal); ok && scalarComparable(l, e.L) {
		op, known := scalarOps[e.Op]
		return e.L, l, op, known
	}
	if l, ok := e.L.(*Literal); ok && scalarComparable(l, e.R) {
		op, known := mirrored[e.Op]
		return e.R, l, op, known
	}
	return nil, nil, 0, false
}

// scalarComparable tells whether a scalar kernel compares x against l:
// l is a value (not NULL) stored as x's values are.
func scalarComparable(l *Literal, x Expr) bool {
	if l.Null || storageID(l.Type) != storageID(x.DataType()) {
		return false
	}
	if _, both := x.(*Literal); both {
		return false // folded by the planner; nothing to spare
	}
	switch storageID(l.Type) {
	case arrow.STRING, arrow.DECIMAL128, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64:
		return true
	}
	return false
}

// evalScalar compares x's column against lit.
func (e *Compare) evalScalar(rec arrow.RecordBatch, mem memory.Allocator, x Expr, lit *Literal, op int) (arrow.Array, error) {
	col, err := x.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer col.Release()
	n := col.Len()
	vb, out := NewBits(mem, n)
	switch c := col.(type) {
	case *array.String:
		compareStringScalar(op, c, lit.Str, out)
	case *array.Decimal128:
		compareDecimalScalar(op, c.Values(), lit.Dec, out)
	default:
		switch storageID(col.DataType()) {
		case arrow.INT8:
			compareNumScalar(op, valuesOf[int8](col), int8(lit.Int), out)
		case arrow.INT16:
			compareNumScalar(op, valuesOf[int16](col), int16(lit.Int), out)
		case arrow.INT32:
			compareNumScalar(op, valuesOf[int32](col), int32(lit.Int), out)
		case arrow.INT64:
			compareNumScalar(op, valuesOf[int64](col), lit.Int, out)
		case arrow.FLOAT32:
			compareNumScalar(op, valuesOf[float32](col), float32(lit.Float), out)
		case arrow.FLOAT64:
			compareNumScalar(op, valuesOf[float64](col), lit.Float, out)
		default:
			vb.Release()
			return nil, fmt.Errorf("cannot compare %s", col.DataType())
		}
	}
	if e.Op == "<>" || e.Op == "!=" {
		for i := range out {
			out[i] = ^out[i]
		}
	}
	validity, nulls := andValidity(mem, n, col)
	return NewArray(arrow.FixedWidthTypes.Boolean, n, validity, nulls, vb), nil
}

// compareNumScalar is one loop per operator, so the comparison is the
// loop's only work; floats compare as Java's primitive operators (NaN is
// unequal to everything).
func compareNumScalar[T cmp.Ordered](op int, vals []T, s T, out []byte) {
	switch op {
	case scalarEq:
		for i, v := range vals {
			out[i>>3] |= b2u(v == s) << (i & 7)
		}
	case scalarLt:
		for i, v := range vals {
			out[i>>3] |= b2u(v < s) << (i & 7)
		}
	case scalarLe:
		for i, v := range vals {
			out[i>>3] |= b2u(v <= s) << (i & 7)
		}
	case scalarGt:
		for i, v := range vals {
			out[i>>3] |= b2u(v > s) << (i & 7)
		}
	case scalarGe:
		for i, v := range vals {
			out[i>>3] |= b2u(v >= s) << (i & 7)
		}
	}
}

// compareStringScalar orders by UTF-8 bytes, as compareStrings does.
func compareStringScalar(op int, c *array.String, s string, out []byte) {
	for i := range c.Len() {
		if scalarHolds(op, cmp.Compare(c.Value(i), s)) {
			bitutil.SetBit(out, i)
		}
	}
}

// compareDecimalScalar compares decimals of one scale (the planner casts
// both sides to their common type).
func compareDecimalScalar(op int, vals []decimal128.Num, s decimal128.Num, out []byte) {
	for i, v := range vals {
		if scalarHolds(op, v.Cmp(s)) {
			bitutil.SetBit(out, i)
		}
	}
}

// scalarHolds tells whether op holds for a three-way comparison result.
func scalarHolds(op, c int) bool {
	switch op {
	case scalarEq:
		return c == 0
	case scalarLt:
		return c < 0
	case scalarLe:
		return c <= 0
	case scalarGt:
		return c > 0
	}
	return c >= 0
}
