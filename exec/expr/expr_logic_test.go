package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

// every pair of TRUE, FALSE, NULL
func truthTable(mem memory.Allocator) (l, r []any) {
	vals := []any{true, false, nil}
	for _, a := range vals {
		for _, b := range vals {
			l, r = append(l, a), append(r, b)
		}
	}
	return l, r
}

func TestThreeValuedLogic(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	l, r := truthTable(mem)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, boo, l...), arrowtest.Array(t, mem, boo, r...))
	defer rec.Release()
	a, b := col(rec, 0), col(rec, 1)
	//                 T,T     T,F      T,N     F,T      F,F      F,N      N,T     N,F      N,N
	require.Equal(t, []string{"true", "false", "NULL", "false", "false", "false", "NULL", "false", "NULL"},
		texts(t, mem, &And{L: a, R: b}, rec))
	require.Equal(t, []string{"true", "true", "true", "true", "false", "NULL", "true", "NULL", "NULL"},
		texts(t, mem, &Or{L: a, R: b}, rec))
	require.Equal(t, []string{"false", "false", "false", "true", "true", "true", "NULL", "NULL", "NULL"},
		texts(t, mem, &Not{X: a}, rec))
	require.Equal(t, []string{"false", "false", "false", "false", "false", "false", "true", "true", "true"},
		texts(t, mem, &IsNull{X: a}, rec))
	require.Equal(t, []string{"true", "true", "false", "true", "true", "false", "true", "true", "false"},
		texts(t, mem, &IsNull{X: b, Not: true}, rec))
}

func TestAndSkipsFailingRightSide(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, i32, 10, 10, 10, 3), arrowtest.Array(t, mem, i32, 0, 5, 0, 1))
	defer rec.Release()
	a, b := col(rec, 0), col(rec, 1)
	// b <> 0 AND a / b > 1: Flink never divides where b = 0
	cond := &And{
		L: &Compare{Op: "<>", L: b, R: lit(i32, 0)},
		R: &Compare{Op: ">", L: &Arith{Op: '/', L: a, R: b, Type: i32}, R: lit(i32, 1)},
	}
	require.Equal(t, []string{"false", "true", "false", "true"}, texts(t, mem, cond, rec))
	// b = 0 OR a / b > 2
	or := &Or{
		L: &Compare{Op: "=", L: b, R: lit(i32, 0)},
		R: &Compare{Op: ">", L: &Arith{Op: '/', L: a, R: b, Type: i32}, R: lit(i32, 2)},
	}
	require.Equal(t, []string{"true", "false", "true", "true"}, texts(t, mem, or, rec))
}

func TestInList(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, i64, 1, 2, nil), arrowtest.Array(t, mem, str, "x", "y", nil))
	defer rec.Release()
	in := NewInList(col(rec, 0), []*Literal{lit(i64, 1), lit(i64, 3)})
	require.Equal(t, []string{"true", "false", "NULL"}, texts(t, mem, in, rec))
	// a NULL in the list: not found is NULL, so NOT IN is never TRUE
	withNull := NewInList(col(rec, 0), []*Literal{lit(i64, 1), lit(i64, nil)})
	require.Equal(t, []string{"true", "NULL", "NULL"}, texts(t, mem, withNull, rec))
	require.Equal(t, []string{"false", "NULL", "NULL"}, texts(t, mem, &Not{X: withNull}, rec))
	strs := NewInList(col(rec, 1), []*Literal{lit(str, "y")})
	require.Equal(t, []string{"false", "true", "NULL"}, texts(t, mem, strs, rec))
}
