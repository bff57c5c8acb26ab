package windowop

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/internal/cputime"
)

// BenchmarkGroupOperatorCountDistinct: GROUP BY key without a window,
// COUNT(*), COUNT(DISTINCT ts) (about 1000 distinct values per key) and
// COUNT(DISTINCT amount) (100) over 1M rows of 1000 keys (benchBatches),
// the shape of Nexmark q15 and q16.
func BenchmarkGroupOperatorCountDistinct(b *testing.B) {
	mem := memory.NewGoAllocator()
	batches := benchBatches(b, mem)
	defer func() {
		for _, bt := range batches {
			bt.Record.Release()
		}
	}()
	cfg := GroupConfig{Input: clickSchema, KeyIndexes: []int{1}, Aggs: []AggSpec{
		{Kind: CountStar, Name: "n"},
		{Kind: Count, Distinct: true, Input: 0, Name: "times"},
		{Kind: Count, Distinct: true, Input: 2, Name: "amounts"},
	}}
	rows := 0
	for _, bt := range batches {
		rows += int(bt.Record.NumRows())
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Process()
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
	if used := cputime.Process() - cpu; used > 0 {
		b.ReportMetric(float64(rows)*float64(b.N)/used.Seconds(), "rows/cpu-s")
	}
}
