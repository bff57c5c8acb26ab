package windowop

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// benchAccumulator folds 1M rows (batches of 4096, 1000 slots, 5% NULL)
// into one accumulator, a batch per update call as the operator does, and
// reports rows per second.
func benchAccumulator(b *testing.B, spec AggSpec, dt arrow.DataType) {
	const rows, batch, nslots = 1 << 20, 4096, 1000
	mem := memory.NewGoAllocator()
	r := rand.New(rand.NewPCG(1, 2))
	var cols []arrow.Array
	var slots [][]int32
	for start := 0; start < rows; start += batch {
		bld := array.NewBuilder(mem, dt)
		sl := make([]int32, batch)
		for i := range batch {
			sl[i] = int32(r.IntN(nslots))
			if r.IntN(20) == 0 {
				bld.AppendNull()
				continue
			}
			switch bb := bld.(type) {
			case *array.Int64Builder:
				bb.Append(r.Int64N(1_000_000))
			case *array.Float64Builder:
				bb.Append(r.Float64() * 1000)
			case *array.StringBuilder:
				bb.Append(string(rune('a' + r.IntN(26))))
			}
		}
		cols = append(cols, bld.NewArray())
		slots = append(slots, sl)
		bld.Release()
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	acc, err := newAccumulator(spec, dt)
	if err != nil {
		b.Fatal(err)
	}
	acc.resize(nslots)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for i, c := range cols {
			acc.update(c, slots[i], 0, batch)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkAvgInt64(b *testing.B)   { benchAccumulator(b, AggSpec{Kind: Avg}, tInt64) }
func BenchmarkAvgFloat64(b *testing.B) { benchAccumulator(b, AggSpec{Kind: Avg}, tFlt64) }
func BenchmarkMinInt64(b *testing.B)   { benchAccumulator(b, AggSpec{Kind: Min}, tInt64) }
func BenchmarkMinFloat64(b *testing.B) { benchAccumulator(b, AggSpec{Kind: Min}, tFlt64) }
func BenchmarkMaxString(b *testing.B)  { benchAccumulator(b, AggSpec{Kind: Max}, tStr) }
func BenchmarkVarPopFloat64(b *testing.B) {
	benchAccumulator(b, AggSpec{Kind: VarPop}, tFlt64)
}
func BenchmarkCountDistinctInt64(b *testing.B) {
	benchAccumulator(b, AggSpec{Kind: Count, Distinct: true}, tInt64)
}

// ARRAY_AGG keeps every row: run with a small -benchtime (3x), its state
// grows with each round.
func BenchmarkArrayAggInt64(b *testing.B) { benchAccumulator(b, AggSpec{Kind: ArrayAgg}, tInt64) }
func BenchmarkArrayAggString(b *testing.B) {
	benchAccumulator(b, AggSpec{Kind: ArrayAgg}, tStr)
}
func BenchmarkCollectString(b *testing.B) { benchAccumulator(b, AggSpec{Kind: Collect}, tStr) }
