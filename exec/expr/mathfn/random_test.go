package mathfn

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

// java.util.Random's published sequences: new Random(42).nextDouble()
// gives 0.7275636800328681, 0.6832234717598454, 0.30871945533265976; new
// Random(0).nextInt(10) gives 0, 8, 9, 7.
func TestJavaRandom(t *testing.T) {
	r := NewJavaRandom(42)
	require.Equal(t, []float64{0.7275636800328681, 0.6832234717598454, 0.30871945533265976},
		[]float64{r.NextDouble(), r.NextDouble(), r.NextDouble()})
	r = NewJavaRandom(0)
	require.Equal(t, []int32{0, 8, 9, 7}, []int32{r.NextInt(10), r.NextInt(10), r.NextInt(10), r.NextInt(10)})
}

// A seeded RAND draws its rows in order from one generator for the whole
// query, whatever the batches.
func TestSeededRandAcrossBatches(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	seed := int64(42)
	e := &Rand{Seed: &seed}
	schema := arrow.NewSchema(nil, nil)
	var got []float64
	for _, n := range []int64{1, 2} {
		rec := array.NewRecordBatch(schema, nil, n)
		out, err := e.Eval(rec, mem)
		require.NoError(t, err)
		got = append(got, out.(*array.Float64).Float64Values()...)
		out.Release()
		rec.Release()
	}
	require.Equal(t, []float64{0.7275636800328681, 0.6832234717598454, 0.30871945533265976}, got)

	bound := &expr.Literal{Type: arrow.PrimitiveTypes.Int64, Int: 0}
	rec := array.NewRecordBatch(schema, nil, 1)
	defer rec.Release()
	_, err := (&Rand{Bound: bound}).Eval(rec, mem)
	require.ErrorContains(t, err, "the bound must be positive")
}
