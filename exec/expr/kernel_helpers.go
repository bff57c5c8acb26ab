package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The helpers a kernel written outside this package (a function family's
// own file, a user-defined function) builds its result with: the same
// typed buffer access, validity and constant-argument handling the
// kernels here use.

// Parent is implemented by an expression of another package that has
// sub-expressions, so a conditional form finds the ones that can fail
// (see mayFail).
type Parent interface{ Children() []Expr }

// Failer is implemented by an expression of another package that can
// fail on some values; inside CASE, AND, OR and COALESCE it is evaluated
// only on the rows that reach it.
type Failer interface{ CanFail() bool }

// ValuesOf returns the fixed-width values of a as []T (a's offset
// applied). T must have the width of a's elements.
func ValuesOf[T any](a arrow.Array) []T { return valuesOf[T](a) }

// AndValidity returns the bitmap of rows valid in every input (nil when
// none has a null) and the resulting null count; n is the rows.
func AndValidity(mem memory.Allocator, n int, arrs ...arrow.Array) (*memory.Buffer, int) {
	return andValidity(mem, n, arrs...)
}

// AndValidityInto clears the bits of out where a is NULL.
func AndValidityInto(out []byte, a arrow.Array) { andValidityInto(out, a) }

// NullsOf copies a validity bitmap of n rows into a buffer, nil when
// nothing is NULL.
func NullsOf(mem memory.Allocator, valid []byte, n int) *memory.Buffer {
	return nullsOf(mem, valid, n)
}

// StringArg is a STRING argument of a kernel: a column, or a constant
// read in place for every row rather than copied into a column.
type StringArg struct{ arg strArg }

// EvalStringArg evaluates the STRING expression x over rec. A constant is
// not evaluated (arr is nil); otherwise the caller releases arr.
func EvalStringArg(x Expr, rec arrow.RecordBatch, mem memory.Allocator) (s StringArg, arr arrow.Array, err error) {
	if l, ok := x.(*Literal); ok && !l.Null && l.Type.ID() == arrow.STRING {
		return StringArg{strArg{constant: l.Str, isConst: true}}, nil, nil
	}
	a, err := x.Eval(rec, mem)
	if err != nil {
		return StringArg{}, nil, err
	}
	col, _ := a.(*array.String)
	return StringArg{strArg{arr: a, col: col}}, a, nil
}

// At is the value of row i (not meaningful for a NULL row).
func (s StringArg) At(i int) string { return s.arg.at(i) }

// IsConst reports a constant argument.
func (s StringArg) IsConst() bool { return s.arg.isConst }

// IsNull reports a NULL row (never for a constant).
func (s StringArg) IsNull(i int) bool { return !s.arg.isConst && s.arg.arr.IsNull(i) }

// Take returns the rows idx of a (each index in range) as a new array.
func Take(a arrow.Array, idx []int32, mem memory.Allocator) (arrow.Array, error) {
	return takeArray(a, idx, mem)
}
