package windowop

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkGroupOperator: GROUP BY key without a window, COUNT(*) and
// SUM over 1M rows of 1000 keys (benchBatches). Every row emits -U and
// +U, so the output is twice the input. Issue 18's target is 10M rows per
// CPU-second.
func BenchmarkGroupOperator(b *testing.B) {
	mem := memory.NewGoAllocator()
	batches := benchBatches(b, mem)
	defer func() {
		for _, bt := range batches {
			bt.Record.Release()
		}
	}()
	cfg := GroupConfig{Input: clickSchema, KeyIndexes: []int{1}, Aggs: []AggSpec{{Kind: CountStar, Name: "n"}, {Kind: Sum, Input: 2, Name: "s"}}}
	rows := 0
	for _, bt := range batches {
		rows += int(bt.Record.NumRows())
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		op, err := NewGroupOperator(cfg, mem, discard{})
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
	if used := cpuTime() - cpu; used > 0 {
		b.ReportMetric(float64(rows)*float64(b.N)/used.Seconds(), "rows/cpu-s")
	}
}
