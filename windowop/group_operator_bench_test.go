package windowop

import (
	"testing"

	"github.com/wsql/wsql/internal/cputime"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
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
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	if used := cputime.Process() - cpu; used > 0 {
		b.ReportMetric(float64(rows)*float64(b.N)/used.Seconds(), "rows/cpu-s")
	}
}

// keptBatches keeps the batches an operator emits.
type keptBatches struct {
	discard
	batches []pipeline.Batch
}

func (k *keptBatches) ProcessBatch(b pipeline.Batch) error {
	b.Record.Retain()
	k.batches = append(k.batches, pipeline.Batch{Record: b.Record})
	return nil
}

// BenchmarkGroupOperatorRetract: a global MAX, SUM and COUNT(*) over the
// update stream of BenchmarkGroupOperator's GROUP BY (2M rows, -U and +U
// of 1000 keys' sums): every row is folded in or taken out, and MAX keeps
// each sum with its count.
func BenchmarkGroupOperatorRetract(b *testing.B) {
	mem := memory.NewGoAllocator()
	batches := benchBatches(b, mem)
	inner, err := NewGroupOperator(GroupConfig{Input: clickSchema, KeyIndexes: []int{1},
		Aggs: []AggSpec{{Kind: CountStar, Name: "n"}, {Kind: Sum, Input: 2, Name: "s"}}}, mem, &keptBatches{})
	if err != nil {
		b.Fatal(err)
	}
	kept := inner.out.(*keptBatches)
	for _, bt := range batches {
		if err := inner.ProcessBatch(bt); err != nil {
			b.Fatal(err)
		}
		bt.Record.Release()
	}
	inner.Close()
	cfg := GroupConfig{Input: inner.Schema(), Retract: true, Aggs: []AggSpec{
		{Kind: Max, Input: 3, Name: "top"}, {Kind: Sum, Input: 3, Name: "total"}, {Kind: CountStar, Name: "keys"}}}
	rows := 0
	for _, bt := range kept.batches {
		rows += int(bt.Record.NumRows())
	}
	defer func() {
		for _, bt := range kept.batches {
			bt.Record.Release()
		}
	}()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Process()
	for range b.N {
		op, err := NewGroupOperator(cfg, mem, discard{})
		if err != nil {
			b.Fatal(err)
		}
		for _, bt := range kept.batches {
			if err := op.ProcessBatch(bt); err != nil {
				b.Fatal(err)
			}
		}
		op.Close()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	if used := cputime.Process() - cpu; used > 0 {
		b.ReportMetric(float64(rows)*float64(b.N)/used.Seconds(), "rows/cpu-s")
	}
}
