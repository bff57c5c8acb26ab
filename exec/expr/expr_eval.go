package expr

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ErrEval marks a value an expression cannot compute, where Flink's job
// fails too: integer division by zero, a CAST of text that is not a number.
var ErrEval = errors.New("expression error")

// Flink's generated code skips what it does not need: the right side of
// AND when the left is FALSE, the branches of CASE that a row does not take.
// wsql evaluates whole columns, which is the same thing for expressions that
// cannot fail. An expression that can fail on some values (failer) is
// evaluated, inside a conditional form, only on the rows that reach it, so
// `b <> 0 AND a / b > 1` and `CASE WHEN b = 0 THEN 0 ELSE a / b END` work as
// in Flink.

// failer is implemented by expressions that can fail on some values.
type failer interface{ canFail() bool }

// parent is implemented by expressions with sub-expressions.
type parent interface{ children() []Expr }

// mayFail reports whether evaluating e can fail on some row's values.
func mayFail(e Expr) bool {
	return anyExpr(e, func(x Expr) bool {
		f, ok := x.(failer)
		g, exported := x.(Failer)
		return ok && f.canFail() || exported && g.CanFail()
	})
}

// Children is e's sub-expressions.
func Children(e Expr) []Expr {
	switch p := e.(type) {
	case parent:
		return p.children()
	case Parent:
		return p.Children()
	}
	return nil
}

// anyExpr reports whether is holds for e or for any expression below it.
func anyExpr(e Expr, is func(Expr) bool) bool {
	if is(e) {
		return true
	}
	for _, c := range Children(e) {
		if c != nil && anyExpr(c, is) {
			return true
		}
	}
	return false
}

// evalWhere evaluates e for the rows whose bit is set in sel (n bits from
// bit 0). Rows outside sel may come back with any value, or NULL: callers
// ignore them. Only an expression that can fail is evaluated on the subset.
// mayFail walks e, so it is asked only when some rows are left out: a
// deep nest evaluated on all rows at every level stays linear.
func evalWhere(e Expr, rec arrow.RecordBatch, mem memory.Allocator, sel []byte) (arrow.Array, error) {
	n := int(rec.NumRows())
	count := bitutil.CountSetBits(sel, 0, n)
	if count == n {
		return e.Eval(rec, mem)
	}
	if !mayFail(e) {
		return e.Eval(rec, mem)
	}
	if count == 0 {
		return array.MakeArrayOfNull(mem, e.DataType(), n), nil
	}
	idx := SelectedRows(sel, n, make([]int32, 0, count))
	sub, err := TakeRecord(rec, idx, mem)
	if err != nil {
		return nil, err
	}
	defer sub.Release()
	part, err := e.Eval(sub, mem)
	if err != nil {
		return nil, err
	}
	defer part.Release()
	return Scatter(part, idx, n, mem)
}

// evalAll evaluates es over rec; on error it releases what it made.
func evalAll(rec arrow.RecordBatch, mem memory.Allocator, es ...Expr) ([]arrow.Array, error) {
	out := make([]arrow.Array, len(es))
	for i, e := range es {
		a, err := e.Eval(rec, mem)
		if err != nil {
			ReleaseAll(out)
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

func ReleaseAll(as []arrow.Array) {
	for _, a := range as {
		if a != nil {
			a.Release()
		}
	}
}
