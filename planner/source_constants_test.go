package planner

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

// A computed column's CASE on a column the source holds to one value
// keeps the branches that value does not decide, and is the branch it
// picks when it picks one.
func TestDecideOnTaken(t *testing.T) {
	i32 := arrow.PrimitiveTypes.Int32
	kind := &expr.ColumnExpr{Index: 0, Name: "event_type", Type: i32}
	other := &expr.ColumnExpr{Index: 4, Name: "x", Type: i32}
	is := func(v int64) expr.Expr {
		return &expr.Compare{Op: "=", L: kind, R: &expr.Literal{Type: i32, Int: v}}
	}
	thens := make([]expr.Expr, 4)
	for i := range thens {
		thens[i] = &expr.ColumnExpr{Index: 10 + i, Name: "t", Type: i32}
	}
	then := func(i int) expr.Expr { return thens[i] }
	nexmark := &expr.Case{Whens: []expr.Expr{is(0), is(1)}, Thens: []expr.Expr{then(0), then(1)}, Else: then(2), Type: i32}
	for v, want := range []expr.Expr{then(0), then(1), then(2)} {
		require.Same(t, want, decideOnTaken(nexmark, map[int]int64{0: int64(v)}))
	}
	require.Same(t, nexmark, decideOnTaken(nexmark, map[int]int64{}), "nothing taken")
	require.Same(t, nexmark, decideOnTaken(nexmark, map[int]int64{4: 0}), "another column taken")

	// the literal first; no ELSE: NULL
	reversed := &expr.Case{Whens: []expr.Expr{&expr.Compare{Op: "=", L: &expr.Literal{Type: i32, Int: 1}, R: kind}}, Thens: []expr.Expr{then(0)}, Type: i32}
	require.Same(t, then(0), decideOnTaken(reversed, map[int]int64{0: 1}))
	null := decideOnTaken(reversed, map[int]int64{0: 2})
	require.True(t, null.(*expr.Literal).Null)
	require.Equal(t, i32, null.DataType())

	// a condition it cannot decide keeps the branches from it on
	mixed := &expr.Case{Whens: []expr.Expr{is(0), &expr.Compare{Op: "=", L: other, R: &expr.Literal{Type: i32, Int: 3}}, is(2)},
		Thens: []expr.Expr{then(0), then(1), then(2)}, Else: then(3), Type: i32}
	got := decideOnTaken(mixed, map[int]int64{0: 2}).(*expr.Case)
	require.Equal(t, mixed.Whens[1:], got.Whens)
	require.Equal(t, mixed.Thens[1:], got.Thens)
	require.Same(t, mixed.Else, got.Else)
	// only `=` is decided
	notEq := &expr.Case{Whens: []expr.Expr{&expr.Compare{Op: "<>", L: kind, R: &expr.Literal{Type: i32, Int: 0}}}, Thens: []expr.Expr{then(0)}, Type: i32}
	require.Same(t, notEq, decideOnTaken(notEq, map[int]int64{0: 2}))
}
