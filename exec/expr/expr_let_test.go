package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

// Let evaluates its value once however often its body reads it, also on
// the subset of rows a branch evaluates a fallible body on.
func TestLet(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, i64, 1, 5, nil, 10))
	defer rec.Release()
	x := &counted{Expr: &Arith{Op: '+', L: col(rec, 0), R: lit(i64, 1), Type: i64}}
	v := &Bound{Type: i64, Name: "$0"}
	between := &Let{Value: x, Name: "$0", Body: &And{
		L: &Compare{Op: ">=", L: v, R: lit(i64, 2)},
		R: &Compare{Op: "<=", L: v, R: lit(i64, 6)},
	}}
	require.Equal(t, []string{"true", "true", "NULL", "false"}, texts(t, mem, between, rec))
	require.Equal(t, []int{4}, x.evals)
	require.Equal(t, "LET $0 = (c0#0 + 1) IN ((($0 >= 2) AND ($0 <= 6)))", between.String())

	// inside a branch two rows take, a fallible value is evaluated on them
	y := &counted{Expr: col(rec, 0), fallible: true}
	w := &Bound{Type: i64, Name: "$1"}
	inner := &Let{Value: y, Name: "$1", Body: &Case{
		Whens: []Expr{&Compare{Op: "=", L: w, R: lit(i64, 5)}},
		Thens: []Expr{NullLiteral(i64)},
		Else:  w,
		Type:  i64,
	}}
	branch := &Case{Whens: []Expr{&Compare{Op: ">", L: col(rec, 0), R: lit(i64, 2)}}, Thens: []Expr{inner}, Type: i64}
	require.Equal(t, []string{"NULL", "NULL", "NULL", "10"}, texts(t, mem, branch, rec))
	require.Equal(t, []int{2}, y.evals)

	// nested: the inner Let's body reads its own value, the outer's stays below
	z := &Let{Value: lit(i64, 3), Name: "$2", Body: &Let{Value: col(rec, 0), Name: "$3", Body: &Arith{Op: '+', L: &Bound{Type: i64, Name: "$3"}, R: lit(i64, 100), Type: i64}}}
	require.Equal(t, []string{"101", "105", "NULL", "110"}, texts(t, mem, z, rec))

	// nested, the inner body reading both values (LEAST(a, b) shares both
	// operands): each Bound reads its own Let's, not the nearest one's
	both := &Let{Value: lit(i64, 3), Name: "$4", Body: &Let{Value: col(rec, 0), Name: "$5",
		Body: &Arith{Op: '-', L: &Bound{Type: i64, Name: "$4"}, R: &Bound{Type: i64, Name: "$5"}, Type: i64}}}
	require.Equal(t, []string{"2", "-2", "NULL", "-7"}, texts(t, mem, both, rec))
}
