package function

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

func TestRowScalarReadsAndWritesEveryValueType(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s := arrowtest.Array(t, mem, arrow.BinaryTypes.String, "ab", nil, "xyz")
	defer s.Release()
	n := arrowtest.Array(t, mem, arrow.PrimitiveTypes.Int32, int32(1), int32(2), nil)
	defer n.Release()
	upper, err := RowScalar1(strings.ToUpper)(mem, []arrow.Array{s})
	require.NoError(t, err)
	defer upper.Release()
	require.Equal(t, `["AB" (null) "XYZ"]`, upper.String())
	long, err := RowScalar2(func(s string, k int32) bool { return len(s) > int(k) })(mem, []arrow.Array{s, n})
	require.NoError(t, err)
	defer long.Release()
	require.Equal(t, `[true (null) (null)]`, long.String())
	half, err := RowScalar1(func(k int32) float32 { return float32(k) / 2 })(mem, []arrow.Array{n})
	require.NoError(t, err)
	defer half.Release()
	require.Equal(t, arrow.PrimitiveTypes.Float32, half.DataType())
	require.Equal(t, `[0.5 1 (null)]`, half.String())
}

// BenchmarkRowScalar is the row adapter's cost per row over a batch of
// BIGINTs.
func BenchmarkRowScalar(b *testing.B) {
	mem := memory.NewGoAllocator()
	bld := array.NewInt64Builder(mem)
	for i := range 4096 {
		bld.Append(int64(i))
	}
	col := bld.NewArray()
	defer col.Release()
	f := RowScalar1(func(x int64) int64 { return 2 * x })
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		out, err := f(mem, []arrow.Array{col})
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	b.ReportMetric(float64(b.N)*4096/b.Elapsed().Seconds()/1e6, "Mrows/s")
}
