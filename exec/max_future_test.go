package exec

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/rowtime"
)

// The filter keeps exactly the rows of the rule, row by row: in the event
// time range, and with a bound no further than it beyond the largest time
// kept before them in their split; whether a batch is decided at once or
// row by row, over random batches with and without bad rows.
func TestFutureFilterKeepsTheRowsOfTheRule(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(1, 2))
	ms := &arrow.TimestampType{Unit: arrow.Millisecond}
	schema := arrow.NewSchema([]arrow.Field{{Name: "ts", Type: ms}}, nil)
	for _, bound := range []int64{0, 50, 1000} {
		f := &futureFilter{bound: bound, mem: mem}
		want := rowtime.MinWatermark // the reference's largest kept time
		base := int64(1_700_000_000_000)
		for range 300 {
			n := 1 + r.IntN(40)
			ts := make([]int64, n)
			for i := range ts {
				ts[i] = base + r.Int64N(60)
				switch r.IntN(200) {
				case 0:
					ts[i] += 5000 // beyond the bounds
				case 1:
					ts[i] = rowtime.MaxEventTime + 1 // out of range
				}
			}
			base += 20
			var kept []arrow.Timestamp
			for _, t := range ts {
				if !rowtime.InEventTimeRange(t) || bound > 0 && want != rowtime.MinWatermark && t > want+bound {
					continue
				}
				want = max(want, t)
				kept = append(kept, arrow.Timestamp(t))
			}
			b := array.NewTimestampBuilder(mem, ms)
			for _, t := range ts {
				b.Append(arrow.Timestamp(t))
			}
			col := b.NewArray()
			b.Release()
			rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(n))
			col.Release()
			out, err := f.filter(rec, 0, 0)
			require.NoError(t, err)
			require.Equal(t, kept, append([]arrow.Timestamp(nil), out.Column(0).(*array.Timestamp).TimestampValues()...))
			require.Equal(t, want, f.splitMax[0])
			if out != rec {
				out.Release()
			}
			rec.Release()
		}
	}
}

// BenchmarkFutureFilterAllGood is the check of a batch of 4096 event times
// in order, all good: the path of nearly every batch.
func BenchmarkFutureFilterAllGood(b *testing.B) {
	f := &futureFilter{}
	ts := make([]int64, 4096)
	for i := range ts {
		ts[i] = 1_700_000_000_000 + int64(i)
	}
	b.SetBytes(int64(8 * len(ts)))
	for b.Loop() {
		if _, ok := f.allGood(ts, rowtime.MinWatermark); !ok {
			b.Fatal("a good batch is not good")
		}
	}
}
