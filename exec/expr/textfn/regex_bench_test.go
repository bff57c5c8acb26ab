package textfn

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

// shortStrings is a batch of n short log-like strings.
func shortStrings(mem memory.Allocator, n int) arrow.RecordBatch {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	for i := range n {
		b.Append(fmt.Sprintf("user%d GET /item?id=%d ok", i%97, i*7919%100000))
	}
	col := b.NewArray()
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{col}, int64(n))
}

func extractID() *Regex {
	s := &expr.ColumnExpr{Index: 0, Name: "s", Type: arrow.BinaryTypes.String}
	return NewRegex(RegexpExtract, s, &expr.Literal{Type: arrow.BinaryTypes.String, Str: `id=(\d+)`},
		&expr.Literal{Type: arrow.PrimitiveTypes.Int64, Int: 1})
}

// BenchmarkRegexpExtract: REGEXP_EXTRACT(s, 'id=(\d+)', 1) over short
// strings, one 4096-row batch per iteration; reports rows per second.
func BenchmarkRegexpExtract(b *testing.B) {
	mem := memory.NewGoAllocator()
	const n = 4096
	rec := shortStrings(mem, n)
	defer rec.Release()
	e := extractID()
	b.ReportAllocs()
	cpu0 := cputime.Process().Seconds()
	for b.Loop() {
		out, err := e.Eval(rec, mem)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	// On a shared machine wall time counts other processes' turns; the
	// process's CPU time is the cost per core.
	b.ReportMetric(float64(n)*float64(b.N)/(cputime.Process().Seconds()-cpu0), "rows/cpu-s")
}

// The matcher allocates per batch, never per row: a batch of 8192 rows
// costs about as many allocations as one of 1024 (the output buffers grow
// a few more times).
func TestRegexpExtractAllocatesPerBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	e := extractID()
	allocs := func(n int) float64 {
		rec := shortStrings(mem, n)
		defer rec.Release()
		return testing.AllocsPerRun(20, func() {
			out, err := e.Eval(rec, mem)
			require.NoError(t, err)
			out.Release()
		})
	}
	small, large := allocs(1024), allocs(8192)
	require.LessOrEqual(t, large, small+16, "allocations grow with the rows: %v for 1024 rows, %v for 8192", small, large)
	rec := shortStrings(mem, 3)
	defer rec.Release()
	out, err := e.Eval(rec, mem)
	require.NoError(t, err)
	defer out.Release()
	require.Equal(t, `["0" "7919" "15838"]`, fmt.Sprint(out))
}
