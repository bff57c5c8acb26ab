package intervalfn

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format/intervaltext"
)

// Flink computes interval * n and interval / n on the milliseconds (or
// months) as (long) (ms * n): truncated toward zero; Java's cast
// saturates a DOUBLE beyond the range and takes NaN to 0; an integer
// division by zero fails.
func TestScale(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ib := array.NewInt64Builder(mem)
	ib.AppendValues([]int64{3, -2, 0, 5}, []bool{true, true, false, true})
	ints := ib.NewArray()
	ib.Release()
	fb := array.NewFloat64Builder(mem)
	fb.AppendValues([]float64{0.5, 0, math.NaN(), -1e300}, nil)
	floats := fb.NewArray()
	fb.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: ints.DataType(), Nullable: true}, {Name: "d", Type: floats.DataType()}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{ints, floats}, 4)
	ints.Release()
	floats.Release()
	defer rec.Release()
	k := &expr.ColumnExpr{Index: 0, Name: "k", Type: ints.DataType()}
	d := &expr.ColumnExpr{Index: 1, Name: "d", Type: floats.DataType()}
	day := &expr.Literal{Type: intervaltext.DayTime, Int: 86_400_000}
	months := &expr.Literal{Type: intervaltext.YearMonth, Int: 10}

	text := func(e expr.Expr) []string {
		a, err := e.Eval(rec, mem)
		require.NoError(t, err)
		defer a.Release()
		require.True(t, arrow.TypeEqual(e.DataType(), a.DataType()))
		var out []string
		for i := range a.Len() {
			out = append(out, a.ValueStr(i))
		}
		return out
	}
	require.Equal(t, []string{"259200000ms", "-172800000ms", "(null)", "432000000ms"}, text(&Scale{Interval: day, N: k}))
	require.Equal(t, []string{"3", "-5", "(null)", "2"}, text(&Scale{Interval: months, N: k, Divide: true}))
	require.Equal(t, []string{"172800000ms", "9223372036854775807ms", "0ms", "0ms"}, text(&Scale{Interval: day, N: d, Divide: true}))
	require.Equal(t, []string{"5", "0", "0", "-2147483648"}, text(&Scale{Interval: months, N: d}))

	zero := &expr.Literal{Type: arrow.PrimitiveTypes.Int64, Int: 0}
	_, err := (&Scale{Interval: day, N: zero, Divide: true}).Eval(rec, mem)
	require.ErrorContains(t, err, "division by zero")
}
