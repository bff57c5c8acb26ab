package expr

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

func TestArithIntegers(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, i32, 7, -7, 5, nil, math.MaxInt32), arrowtest.Array(t, mem, i32, 2, 2, nil, 3, 1))
	defer rec.Release()
	a, b := col(rec, 0), col(rec, 1)
	require.Equal(t, []string{"9", "-5", "NULL", "NULL", "-2147483648"}, texts(t, mem, &Arith{Op: '+', L: a, R: b, Type: i32}, rec))
	// integer division truncates toward zero, remainder takes the dividend's sign (Java)
	require.Equal(t, []string{"3", "-3", "NULL", "NULL", "2147483647"}, texts(t, mem, &Arith{Op: '/', L: a, R: b, Type: i32}, rec))
	require.Equal(t, []string{"1", "-1", "NULL", "NULL", "0"}, texts(t, mem, &Arith{Op: '%', L: a, R: b, Type: i32}, rec))
	require.Equal(t, []string{"-7", "7", "-5", "NULL", "-2147483647"}, texts(t, mem, &Negate{X: a}, rec))
}

func TestArithDivisionByZero(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, i64, 1, 2, nil), arrowtest.Array(t, mem, i64, 1, 0, 0))
	defer rec.Release()
	div := &Arith{Op: '/', L: col(rec, 0), R: col(rec, 1), Type: i64}
	_, err := div.Eval(rec, mem)
	require.ErrorIs(t, err, ErrEval)
	require.ErrorContains(t, err, "division by zero in (c0#0 / c1#1)")

	// a NULL dividend over zero is NULL, not an error
	rec2 := arrowtest.Batch(arrowtest.Array(t, mem, i64, nil), arrowtest.Array(t, mem, i64, 0))
	defer rec2.Release()
	require.Equal(t, []string{"NULL"}, texts(t, mem, &Arith{Op: '/', L: col(rec2, 0), R: col(rec2, 1), Type: i64}, rec2))

	// doubles follow IEEE 754
	rec3 := arrowtest.Batch(arrowtest.Array(t, mem, f64, 1.0, -1.0, 0.0), arrowtest.Array(t, mem, f64, 0.0, 0.0, 0.0))
	defer rec3.Release()
	require.Equal(t, []string{"Infinity", "-Infinity", "NaN"}, texts(t, mem, &Arith{Op: '/', L: col(rec3, 0), R: col(rec3, 1), Type: f64}, rec3))
}

func TestArithTimestampInterval(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, tsT, 0, -1, nil))
	defer rec.Release()
	e := &Arith{Op: '-', L: col(rec, 0), R: lit(i64, 5000), Type: tsT}
	require.Equal(t, []string{"1969-12-31 23:59:55.000", "1969-12-31 23:59:54.999", "NULL"}, texts(t, mem, e, rec))
}

func TestCompare(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(
		arrowtest.Array(t, mem, f64, 1.0, 2.0, math.NaN(), nil, 5.0, 6.0, 7.0, 8.0, 9.0),
		arrowtest.Array(t, mem, str, "a", "b", "ä", "c", nil, "b", "a", "", "z"),
		arrowtest.Array(t, mem, boo, true, false, true, nil, false, true, false, true, false),
	)
	defer rec.Release()
	two := lit(f64, 2.0)
	require.Equal(t, []string{"true", "false", "false", "NULL", "false", "false", "false", "false", "false"},
		texts(t, mem, &Compare{Op: "<", L: col(rec, 0), R: two}, rec))
	require.Equal(t, []string{"false", "true", "false", "NULL", "true", "true", "true", "true", "true"},
		texts(t, mem, &Compare{Op: ">=", L: col(rec, 0), R: two}, rec))
	require.Equal(t, []string{"true", "false", "true", "NULL", "true", "true", "true", "true", "true"},
		texts(t, mem, &Compare{Op: "<>", L: col(rec, 0), R: two}, rec), "NaN <> 2 is true, as in Java")
	require.Equal(t, []string{"false", "false", "true", "true", "NULL", "false", "false", "false", "true"},
		texts(t, mem, &Compare{Op: ">", L: col(rec, 1), R: lit(str, "b")}, rec))
	require.Equal(t, []string{"false", "true", "false", "NULL", "true", "false", "true", "false", "true"},
		texts(t, mem, &Compare{Op: "<", L: col(rec, 2), R: lit(boo, true)}, rec))
}
