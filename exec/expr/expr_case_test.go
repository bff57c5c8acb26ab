package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

func TestCase(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, i32, 1, 5, nil, 10), arrowtest.Array(t, mem, str, "a", nil, "c", "d"))
	defer rec.Release()
	x, s := col(rec, 0), col(rec, 1)
	c := &Case{
		Whens: []Expr{&Compare{Op: "<", L: x, R: lit(i32, 3)}, &Compare{Op: "<", L: x, R: lit(i32, 8)}},
		Thens: []Expr{lit(str, "small"), s},
		Else:  lit(str, "big"),
		Type:  str,
	}
	// a NULL condition is not TRUE: the row falls to ELSE
	require.Equal(t, []string{"small", "NULL", "big", "big"}, texts(t, mem, c, rec))
	c.Else = nil
	require.Equal(t, []string{"small", "NULL", "NULL", "NULL"}, texts(t, mem, c, rec))
	// COALESCE(x, 0) as CASE
	co := &Case{Whens: []Expr{&IsNull{X: x, Not: true}}, Thens: []Expr{x}, Else: lit(i32, 0), Type: i32}
	require.Equal(t, []string{"1", "5", "0", "10"}, texts(t, mem, co, rec))
}

func TestCaseSkipsFailingBranch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, i64, 10, 10, nil), arrowtest.Array(t, mem, i64, 0, 3, 0))
	defer rec.Release()
	a, b := col(rec, 0), col(rec, 1)
	c := &Case{
		Whens: []Expr{&Compare{Op: "=", L: b, R: lit(i64, 0)}},
		Thens: []Expr{lit(i64, -1)},
		Else:  &Arith{Op: '/', L: a, R: b, Type: i64},
		Type:  i64,
	}
	require.Equal(t, []string{"-1", "3", "-1"}, texts(t, mem, c, rec))
}

// When every row takes one branch, its result is the column as it is:
// its NULLs too, whether the branch is a WHEN or the ELSE.
func TestCaseOfOneBranch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, i32, 2, 2, 2), arrowtest.Array(t, mem, str, "a", nil, "c"))
	defer rec.Release()
	x, s := col(rec, 0), col(rec, 1)
	c := &Case{
		Whens: []Expr{&Compare{Op: "=", L: x, R: lit(i32, 0)}, &Compare{Op: "=", L: x, R: lit(i32, 2)}},
		Thens: []Expr{lit(str, "zero"), s},
		Else:  lit(str, "other"),
		Type:  str,
	}
	require.Equal(t, []string{"a", "NULL", "c"}, texts(t, mem, c, rec))
	c.Whens[1] = &Compare{Op: "=", L: x, R: lit(i32, 1)}
	c.Else = s
	require.Equal(t, []string{"a", "NULL", "c"}, texts(t, mem, c, rec))
}
