package expr

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

// allocated returns the bytes f allocates on the Go heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// keysColumn is k0, k1, ... with row 1 NULL and row 2 the given value.
func keysColumn(mem memory.Allocator, n int, at2 string) arrow.Array {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	for i := range n {
		switch i {
		case 1:
			b.AppendNull()
		case 2:
			b.Append(at2)
		default:
			b.Append(fmt.Sprintf("k%d", i))
		}
	}
	return b.NewArray()
}

// A comparison with a constant compares the column against the one value:
// a 600,000-character literal is not copied into every row (which took
// 600 MB for a batch of 1024 rows and passed Arrow's 2 GiB offsets at
// 4096, panicking).
func TestCompareAgainstLargeConstant(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	big := strings.Repeat("x", 600_000)
	rec := arrowtest.Batch(keysColumn(mem, 1024, big))
	defer rec.Release()
	k := col(rec, 0)
	bigLit := lit(str, big)
	for _, c := range []struct {
		e    Expr
		want []string // rows 0 to 3
	}{
		{&Compare{Op: "<>", L: k, R: bigLit}, []string{"true", "NULL", "false", "true"}},
		{&Compare{Op: "=", L: bigLit, R: k}, []string{"false", "NULL", "true", "false"}},
		{&Compare{Op: "<", L: k, R: bigLit}, []string{"true", "NULL", "false", "true"}},
		{&Compare{Op: "<", L: bigLit, R: k}, []string{"false", "NULL", "false", "false"}},
		{&Compare{Op: ">=", L: bigLit, R: k}, []string{"true", "NULL", "true", "true"}},
		{&Compare{Op: "<=", L: k, R: lit(str, "k3")}, []string{"true", "NULL", "false", "true"}},
	} {
		var got []string
		bytes := allocated(func() { got = texts(t, mem, c.e, rec) })
		name := strings.ReplaceAll(c.e.String(), big, "'x…'")
		require.Equal(t, c.want, got[:4], name)
		require.Less(t, bytes, uint64(4<<20), "%s allocated %d bytes", name, bytes)
	}
}

// The scalar kernels agree with comparing two columns, for every operator,
// both sides, and the types stored as integers, floats and decimals.
func TestCompareScalarMatchesColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dec := &arrow.Decimal128Type{Precision: 10, Scale: 2}
	cases := []struct {
		dt   arrow.DataType
		vals []any
		lit  *Literal
	}{
		{i32, []any{1, 2, 3, nil}, lit(i32, 2)},
		{i64, []any{-5, 7, 7, nil}, lit(i64, 7)},
		{f64, []any{1.5, nan(), 2.5, nil}, lit(f64, 1.5)},
		{f64, []any{1.5, nan(), 2.5, nil}, lit(f64, nan())},
		{tsT, []any{1000, 2000, 3000, nil}, lit(tsT, 2000)},
		{dec, []any{"1.10", "2.00", "0.50", nil}, &Literal{Type: dec, Dec: mustDec(t, "1.10", dec)}},
		{str, []any{"a", "b", "ab", nil}, lit(str, "ab")},
	}
	for _, c := range cases {
		x := arrowtest.Array(t, mem, c.dt, c.vals...)
		y := c.lit.build(len(c.vals))
		rec := arrowtest.Batch(x, y)
		for _, op := range []string{"=", "<>", "!=", "<", "<=", ">", ">="} {
			want := texts(t, mem, &Compare{Op: op, L: col(rec, 0), R: col(rec, 1)}, rec)
			require.Equal(t, want, texts(t, mem, &Compare{Op: op, L: col(rec, 0), R: c.lit}, rec), "%s %s %s", c.dt, op, c.lit)
			swapped := texts(t, mem, &Compare{Op: op, L: col(rec, 1), R: col(rec, 0)}, rec)
			require.Equal(t, swapped, texts(t, mem, &Compare{Op: op, L: c.lit, R: col(rec, 0)}, rec), "%s %s %s", c.lit, op, c.dt)
		}
		rec.Release()
	}
}

func nan() float64 { z := 0.0; return z / z }

// String results that would pass 2 GiB in one batch are a clear error,
// found before the bytes are built where the size is known up front; a
// constant argument is read in place, not copied into every row.
func TestStringResultsPastTheColumnLimit(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	big := strings.Repeat("y", 600_000)
	rec := arrowtest.Batch(keysColumn(mem, 4096, "z"))
	defer rec.Release()
	k := col(rec, 0)

	var err error
	bytes := allocated(func() {
		var a arrow.Array
		a, err = (&StringFunc{Name: "CONCAT", Args: []Expr{k, lit(str, big)}}).Eval(rec, mem)
		require.Nil(t, a)
	})
	require.ErrorIs(t, err, ErrStringLimit)
	require.ErrorContains(t, err, "the values of CONCAT over a batch of 4096 rows pass 2 GiB")
	require.Less(t, bytes, uint64(4<<20))

	_, err = lit(str, big).Eval(rec, mem)
	require.ErrorIs(t, err, ErrStringLimit)
	require.ErrorContains(t, err, "a string constant of 600000 bytes over a batch of 4096 rows")

	// within the limit: the constant joins every row
	small := rec.NewSlice(0, 3)
	defer small.Release()
	got := texts(t, mem, &StringFunc{Name: "CONCAT", Args: []Expr{lit(str, "<"), col(small, 0), lit(str, ">")}}, small)
	require.Equal(t, []string{"<k0>", "NULL", "<z>"}, got)
	got = texts(t, mem, &StringFunc{Name: "REPLACE", Args: []Expr{col(small, 0), lit(str, "k"), lit(str, "key")}}, small)
	require.Equal(t, []string{"key0", "NULL", "z"}, got)
	got = texts(t, mem, &StringFunc{Name: "CHAR_LENGTH", Args: []Expr{col(small, 0)}}, small)
	require.Equal(t, []string{"2", "NULL", "1"}, got)
}

func mustDec(t *testing.T, s string, dt *arrow.Decimal128Type) decimal128.Num {
	t.Helper()
	n, err := decimal128.FromString(s, dt.Precision, dt.Scale)
	require.NoError(t, err)
	return n
}
