package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// And, Or and Not are SQL's three-valued logic, computed on whole bitmaps
// a byte at a time:
//
//	FALSE AND NULL = FALSE   TRUE AND NULL = NULL
//	TRUE OR NULL = TRUE      FALSE OR NULL = NULL     NOT NULL = NULL
//
// The right operand is evaluated only on rows the left does not decide
// when it can fail (see evalWhere), as Flink's generated code skips it.
type And struct{ L, R Expr }

// Or is L OR R.
type Or struct{ L, R Expr }

// Not is NOT X.
type Not struct{ X Expr }

func (e *And) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (e *Or) DataType() arrow.DataType  { return arrow.FixedWidthTypes.Boolean }
func (e *Not) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (e *And) String() string           { return fmt.Sprintf("(%s AND %s)", e.L, e.R) }
func (e *Or) String() string            { return fmt.Sprintf("(%s OR %s)", e.L, e.R) }
func (e *Not) String() string           { return fmt.Sprintf("NOT %s", e.X) }
func (e *And) children() []Expr         { return []Expr{e.L, e.R} }
func (e *Or) children() []Expr          { return []Expr{e.L, e.R} }
func (e *Not) children() []Expr         { return []Expr{e.X} }

func (e *And) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	return evalLogic(rec, mem, e.L, e.R, false)
}

func (e *Or) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	return evalLogic(rec, mem, e.L, e.R, true)
}

func evalLogic(rec arrow.RecordBatch, mem memory.Allocator, le, re Expr, or bool) (arrow.Array, error) {
	l, err := le.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	lv, lm := boolParts(l.(*array.Boolean))
	n := l.Len()
	nb := len(lv)
	// rows the left side does not decide: not FALSE for AND, not TRUE for OR
	need := make([]byte, nb)
	for i := range need {
		if or {
			need[i] = ^lv[i]
		} else {
			need[i] = ^(lm[i] &^ lv[i])
		}
	}
	r, err := evalWhere(re, rec, mem, need)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	rv, rm := boolParts(r.(*array.Boolean))
	vals, valid := make([]byte, nb), make([]byte, nb)
	for i := range vals {
		if or {
			vals[i] = lv[i] | rv[i]
			valid[i] = lm[i]&rm[i] | lv[i] | rv[i]
		} else {
			vals[i] = lv[i] & rv[i]
			valid[i] = lm[i]&rm[i] | lm[i]&^lv[i] | rm[i]&^rv[i]
		}
	}
	return newBool(mem, n, vals, valid), nil
}

func (e *Not) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	v, m := boolParts(x.(*array.Boolean))
	for i := range v {
		v[i] = ^v[i] & m[i]
	}
	return newBool(mem, x.Len(), v, m), nil
}

// BoolMask returns the rows where a BOOLEAN array is TRUE (not NULL, not
// FALSE) as a bitmap from bit 0, and how many there are.
func BoolMask(a *array.Boolean) ([]byte, int) {
	v, _ := boolParts(a)
	return v, bitutil.CountSetBits(v, 0, a.Len())
}
