package jsonfn

import (
	"fmt"
	"testing"

	"github.com/wsql/wsql/internal/cputime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

// BenchmarkValue is JSON_VALUE(doc, '$.a') over a batch of short
// documents; rows/s is what the target (10M rows/s per core)
// reads.
func BenchmarkValue(b *testing.B) {
	for _, c := range []struct {
		name, path string
		ret        arrow.DataType
	}{
		{"string", "$.b", arrow.BinaryTypes.String},
		{"int", "$.a", arrow.PrimitiveTypes.Int64},
	} {
		b.Run(c.name, func(b *testing.B) {
			const n = 4096
			mem := memory.NewGoAllocator()
			sb := array.NewStringBuilder(mem)
			for i := range n {
				sb.Append(fmt.Sprintf(`{"a":%d,"b":"x%d"}`, i%100, i%10))
			}
			col := sb.NewArray()
			schema := arrow.NewSchema([]arrow.Field{{Name: "doc", Type: arrow.BinaryTypes.String}}, nil)
			rec := array.NewRecordBatch(schema, []arrow.Array{col}, n)
			v, err := NewValue(&expr.ColumnExpr{Index: 0, Name: "doc", Type: arrow.BinaryTypes.String}, str(c.path), c.ret)
			require.NoError(b, err)
			b.ReportAllocs()
			cpu0 := cputime.Process()
			b.ResetTimer()
			for range b.N {
				a, err := v.Eval(rec, mem)
				if err != nil {
					b.Fatal(err)
				}
				a.Release()
			}
			b.ReportMetric(float64(b.N)*n/b.Elapsed().Seconds(), "rows/s")
			// The rows per second of CPU time the process got: on a
			// shared machine the wall clock also counts other programs.
			b.ReportMetric(float64(b.N)*n/(cputime.Process()-cpu0).Seconds(), "rows/cpu-s")
		})
	}
}

// JSON_VALUE allocates per batch, never per row: a batch of 8192 rows
// costs about as many allocations as one of 1024. That holds for rows
// that find nothing or do not convert too (their messages are made once).
func TestValueAllocatesPerBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, c := range []struct {
		path string
		ret  arrow.DataType
	}{{"$.b", arrow.BinaryTypes.String}, {"$.a", arrow.PrimitiveTypes.Int64}, {"$.a", arrow.PrimitiveTypes.Int32},
		{"$.c", arrow.BinaryTypes.String}, {"$.b", arrow.PrimitiveTypes.Int64}, {"$.b", arrow.FixedWidthTypes.Boolean},
		{"$.a.b", arrow.BinaryTypes.String}, {"$", arrow.BinaryTypes.String}} {
		v, err := NewValue(&expr.ColumnExpr{Index: 0, Name: "doc", Type: arrow.BinaryTypes.String}, str(c.path), c.ret)
		require.NoError(t, err)
		allocs := func(n int) float64 {
			sb := array.NewStringBuilder(mem)
			for i := range n {
				sb.Append(fmt.Sprintf(`{"a":%d,"b":"x%d"}`, i%100, i%10))
			}
			col := sb.NewArray()
			sb.Release()
			schema := arrow.NewSchema([]arrow.Field{{Name: "doc", Type: arrow.BinaryTypes.String}}, nil)
			rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(n))
			col.Release()
			defer rec.Release()
			return testing.AllocsPerRun(20, func() {
				a, err := v.Eval(rec, mem)
				require.NoError(t, err)
				a.Release()
			})
		}
		small, large := allocs(1024), allocs(8192)
		require.LessOrEqual(t, large, small+16, "%s: %v allocations for 1024 rows, %v for 8192", c.path, small, large)
	}
}
