package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

// COALESCE takes each row's first argument that is not NULL, evaluates
// every argument once per batch, a fallible one only on the rows still
// NULL, and stops when no row is left.
func TestCoalesce(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, i64, 1, nil, nil, 4), arrowtest.Array(t, mem, i64, 10, 20, nil, nil), arrowtest.Array(t, mem, str, nil, "b", nil, "d"))
	defer rec.Release()
	a := &counted{Expr: col(rec, 0)}
	b := &counted{Expr: col(rec, 1), fallible: true}
	c := &counted{Expr: lit(i64, 7), fallible: true}
	co := &Coalesce{Args: []Expr{a, b, c}, Type: i64}
	require.Equal(t, []string{"1", "20", "7", "4"}, texts(t, mem, co, rec))
	require.Equal(t, []int{4}, a.evals)
	require.Equal(t, []int{2}, b.evals) // rows 1 and 2
	require.Equal(t, []int{1}, c.evals) // row 2
	require.Equal(t, "COALESCE(c0#0, c1#1, 7)", co.String())

	// no row left: later arguments are not evaluated
	d := &counted{Expr: lit(i64, 0), fallible: true}
	full := &Coalesce{Args: []Expr{&Coalesce{Args: []Expr{col(rec, 0), lit(i64, 5)}, Type: i64}, d}, Type: i64}
	require.Equal(t, []string{"1", "5", "5", "4"}, texts(t, mem, full, rec))
	require.Empty(t, d.evals)

	// the last argument's NULLs stay NULL; strings
	s := &Coalesce{Args: []Expr{col(rec, 2), NullLiteral(str)}, Type: str}
	require.Equal(t, []string{"NULL", "b", "NULL", "d"}, texts(t, mem, s, rec))
}
