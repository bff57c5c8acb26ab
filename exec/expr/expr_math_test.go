package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

func TestRoundHalfUp(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, f64, 2.5, -2.5, 1.005, 2.675, 0.125, -0.4, 1234.5678, nil),
		arrowtest.Array(t, mem, i32, 1250, -1250, 1249, 5, -5, 0, 99, nil))
	defer rec.Release()
	d, n := col(rec, 0), col(rec, 1)
	require.Equal(t, []string{"3.0", "-3.0", "1.0", "3.0", "0.0", "0.0", "1235.0", "NULL"}, texts(t, mem, &Round{X: d}, rec))
	// the decimal digits Java prints, not the binary value: 1.005 → 1.01, 2.675 → 2.68
	require.Equal(t, []string{"2.5", "-2.5", "1.01", "2.68", "0.13", "-0.4", "1234.57", "NULL"}, texts(t, mem, &Round{X: d, Digits: 2}, rec))
	require.Equal(t, []string{"0.0", "0.0", "0.0", "0.0", "0.0", "0.0", "1200.0", "NULL"}, texts(t, mem, &Round{X: d, Digits: -2}, rec))
	require.Equal(t, []string{"1300", "-1300", "1200", "0", "0", "0", "100", "NULL"}, texts(t, mem, &Round{X: n, Digits: -2}, rec))
	require.Equal(t, []string{"1250", "-1250", "1249", "5", "-5", "0", "99", "NULL"}, texts(t, mem, &Round{X: n, Digits: 1}, rec))
}

func TestMathFunctions(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, f64, -1.5, 4.0, nil), arrowtest.Array(t, mem, i32, -3, 4, nil))
	defer rec.Release()
	d, n := col(rec, 0), col(rec, 1)
	require.Equal(t, []string{"1.5", "4.0", "NULL"}, texts(t, mem, &MathFunc{Name: "ABS", Args: []Expr{d}}, rec))
	require.Equal(t, []string{"3", "4", "NULL"}, texts(t, mem, &MathFunc{Name: "ABS", Args: []Expr{n}}, rec))
	require.Equal(t, []string{"-2.0", "4.0", "NULL"}, texts(t, mem, &MathFunc{Name: "FLOOR", Args: []Expr{d}}, rec))
	require.Equal(t, []string{"-1.0", "4.0", "NULL"}, texts(t, mem, &MathFunc{Name: "CEIL", Args: []Expr{d}}, rec))
	require.Equal(t, []string{"-3", "4", "NULL"}, texts(t, mem, &MathFunc{Name: "CEIL", Args: []Expr{n}}, rec))
	require.Equal(t, []string{"NaN", "2.0", "NULL"}, texts(t, mem, &MathFunc{Name: "SQRT", Args: []Expr{d}}, rec))
	require.Equal(t, []string{"2.25", "16.0", "NULL"}, texts(t, mem, &MathFunc{Name: "POWER", Args: []Expr{d, lit(f64, 2.0)}}, rec))
}
