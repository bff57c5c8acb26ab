package windowop

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/internal/cputime"
)

// BenchmarkFoldSharedRowsNexmark folds the shape of Nexmark q16's
// COUNT(DISTINCT bidder) with three FILTERs: half the rows in four hot
// slots, half spread over 10,000; a quarter of the bidders random among
// a sliding window of 1,000, the rest one hot bidder that moves slowly.
// Its sets outgrow the caches as the query's do, so it measures misses.
func BenchmarkFoldSharedRowsNexmark(b *testing.B) {
	const rows, batch, slotsN = 4_000_000, 4096, 10_004
	mem := memory.NewGoAllocator()
	r := rand.New(rand.NewPCG(1, 2))
	var cols []arrow.Array
	var slots [][]int32
	var masks [][][]bool
	for from := 0; from < rows; from += batch {
		vb := array.NewInt64Builder(mem)
		sl := make([]int32, batch)
		ms := [][]bool{nil, make([]bool, batch), make([]bool, batch), make([]bool, batch)}
		for i := range batch {
			e := int64(from+i) * 50 / 46
			person := e / 50
			v := person/100*100 + 1
			if r.IntN(4) == 0 {
				v = max(person-1000, 0) + r.Int64N(1010)
			}
			vb.Append(v)
			if r.IntN(2) == 0 {
				sl[i] = int32(r.IntN(4))
			} else {
				sl[i] = int32(4 + r.IntN(slotsN-4))
			}
			ms[1+r.IntN(3)][i] = true
		}
		cols = append(cols, vb.NewArray())
		vb.Release()
		slots, masks = append(slots, sl), append(masks, ms)
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	b.ResetTimer()
	cpu := cputime.Process()
	for range b.N {
		specs := make([]AggSpec, 4)
		accs := make([]accumulator, 4)
		for i := range specs {
			specs[i] = AggSpec{Kind: Count, Distinct: true, Filtered: i > 0}
			a, err := newAccumulator(specs[i], arrow.PrimitiveTypes.Int64)
			if err != nil {
				b.Fatal(err)
			}
			accs[i] = a
		}
		shareCountDistinct(specs, accs)
		members := make([]*sharedCountDistinct, 4)
		results := make([]*rowResults, 4)
		for i, a := range accs {
			a.resize(slotsN)
			members[i], results[i] = a.(*sharedCountDistinct), &rowResults{}
		}
		changed := make([]bool, batch)
		var o slotOrder
		for k, c := range cols {
			foldSharedRows(members, c, masks[k], slots[k], o.of(slots[k]), results, changed)
		}
	}
	if used := cputime.Process() - cpu; used > 0 {
		b.ReportMetric(float64(rows)*float64(b.N)/used.Seconds(), "rows/cpu-s")
	}
}
