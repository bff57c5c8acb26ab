package windowop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

type discard struct{}

func (discard) ProcessBatch(Batch) error     { return nil }
func (discard) ProcessWatermark(int64) error { return nil }
func (discard) ProcessEnd() error            { return nil }
func (discard) Close()                       {}

// BenchmarkWindowOperatorTumble measures the operator alone: 1-minute
// tumbling COUNT(*) and SUM per key over 1000 keys, event time advancing
// about 1 ms per row with up to 2 s of disorder, batches of 4096 rows.
func BenchmarkWindowOperatorTumble(b *testing.B) {
	const rows, batch = 1 << 20, 4096
	mem := memory.NewGoAllocator()
	rnd := rand.New(rand.NewPCG(1, 2))
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprintf("key-%04d", i)
	}
	var batches []Batch
	wm := int64(-1 << 63)
	for start := 0; start < rows; start += batch {
		bld := array.NewRecordBuilder(mem, clickSchema)
		ts := make([]int64, batch)
		for i := range batch {
			ts[i] = int64(start+i) - int64(rnd.IntN(2000))
			bld.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(ts[i]))
			bld.Field(1).(*array.StringBuilder).Append(keys[rnd.IntN(len(keys))])
			bld.Field(2).(*array.Float64Builder).Append(float64(i % 100))
		}
		per := make([]int64, batch)
		for i, t := range ts {
			per[i] = wm
			if t-2000 > wm {
				wm = t - 2000
			}
		}
		batches = append(batches, Batch{Record: bld.NewRecordBatch(), Watermarks: per})
		bld.Release()
	}
	tum, _ := NewTumble(60_000, 0)
	cfg := Config{Input: clickSchema, RowtimeIndex: 0, KeyIndexes: []int{1}, Assigner: tum,
		Aggs: []AggSpec{{Kind: CountStar, Name: "n"}, {Kind: Sum, Input: 2, Name: "s"}}}
	b.ResetTimer()
	for range b.N {
		op, err := NewWindowOperator(cfg, mem, discard{})
		if err != nil {
			b.Fatal(err)
		}
		for _, bt := range batches {
			if err := op.ProcessBatch(bt); err != nil {
				b.Fatal(err)
			}
		}
		if err := op.ProcessEnd(); err != nil {
			b.Fatal(err)
		}
		op.Close()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	for _, bt := range batches {
		bt.Record.Release()
	}
}
