package windowop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
)

type discard struct{}

func (discard) ProcessBatch(pipeline.Batch) error { return nil }
func (discard) ProcessWatermark(int64) error      { return nil }
func (discard) ProcessEnd() error                 { return nil }
func (discard) Close()                            {}

// benchBatches builds 1M rows over 1000 keys, event time advancing about
// 1 ms per row with up to 2 s of disorder, in batches of 4096 with per-row
// watermarks (delay 2 s).
func benchBatches(b *testing.B, mem memory.Allocator) []pipeline.Batch {
	const rows, batch = 1 << 20, 4096
	rnd := rand.New(rand.NewPCG(1, 2))
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprintf("key-%04d", i)
	}
	var batches []pipeline.Batch
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
		batches = append(batches, pipeline.Batch{Record: bld.NewRecordBatch(), Watermarks: per})
		bld.Release()
	}
	return batches
}

// benchAssigner runs COUNT(*) and SUM per key through the operator alone.
func benchAssigner(b *testing.B, a Assigner) {
	benchAggs(b, a, []AggSpec{{Kind: CountStar, Name: "n"}, {Kind: Sum, Input: 2, Name: "s"}})
}

// benchAggs runs the given aggregates per key through the operator alone.
func benchAggs(b *testing.B, a Assigner, aggs []AggSpec) {
	mem := memory.NewGoAllocator()
	batches := benchBatches(b, mem)
	cfg := Config{Input: clickSchema, RowtimeIndex: 0, KeyIndexes: []int{1}, Assigner: a, GapIndex: -1, Aggs: aggs}
	benchOperator(b, cfg, mem, batches)
}

// benchOperator runs batches through a new operator of cfg per iteration,
// and releases them at the end.
func benchOperator(b *testing.B, cfg Config, mem memory.Allocator, batches []pipeline.Batch) {
	defer func() {
		for _, bt := range batches {
			bt.Record.Release()
		}
	}()
	rows := 0
	for _, bt := range batches {
		rows += int(bt.Record.NumRows())
	}
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
}

// BenchmarkWindowOperatorTumble: 1-minute tumbling windows.
func BenchmarkWindowOperatorTumble(b *testing.B) {
	a, _ := NewTumble(60_000, 0)
	benchAssigner(b, a)
}

// BenchmarkWindowOperatorHop: 1-minute windows every 10 s (six per row),
// by panes: the cost per row stays that of one pane.
func BenchmarkWindowOperatorHop(b *testing.B) {
	a, _ := NewHop(10_000, 60_000, 0)
	benchAssigner(b, a)
}

// BenchmarkWindowOperatorHopCountAvg: the same HOP with COUNT(*) and AVG.
func BenchmarkWindowOperatorHopCountAvg(b *testing.B) {
	a, _ := NewHop(10_000, 60_000, 0)
	benchAggs(b, a, []AggSpec{{Kind: CountStar, Name: "n"}, {Kind: Avg, Input: 2, Name: "a"}})
}

// BenchmarkWindowOperatorCumulate: 1-hour windows growing by 1 minute.
func BenchmarkWindowOperatorCumulate(b *testing.B) {
	a, _ := NewCumulate(60_000, 3_600_000, 0)
	benchAssigner(b, a)
}

// BenchmarkWindowOperatorSession: 10 s gap sessions per key (keys see a
// row every ~1 s, so sessions grow row by row and merge). Every row moves
// its session's timers: sessionTimers must keep that off the heap.
func BenchmarkWindowOperatorSession(b *testing.B) {
	a, _ := NewSession(10_000)
	benchAssigner(b, a)
}

// BenchmarkWindowOperatorSessionNexmark: COUNT(*) per bidder in 10 s
// sessions over bids shaped as Nexmark's (q11): ten events per ms, three
// bids in four from the hot bidder of the moment, the others from the
// last 1000 people; per-row watermarks 4 s behind, batches of 8192.
func BenchmarkWindowOperatorSessionNexmark(b *testing.B) {
	const rows, batch = 1 << 21, 8192
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
		{Name: "bidder", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	rnd := rand.New(rand.NewPCG(1, 2))
	var batches []pipeline.Batch
	wm := int64(-1 << 63)
	for start := 0; start < rows; start += batch {
		bld := array.NewRecordBuilder(mem, schema)
		per := make([]int64, batch)
		for i := range batch {
			id := int64(start + i)
			ts := id / 10
			lastPerson := id / 50
			bidder := lastPerson/100*100 + 1
			if rnd.IntN(4) == 0 {
				bidder = max(lastPerson-1000, 0) + rnd.Int64N(1002)
			}
			bld.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(ts))
			bld.Field(1).(*array.Int64Builder).Append(bidder)
			wm = max(wm, ts-4000)
			per[i] = wm
		}
		batches = append(batches, pipeline.Batch{Record: bld.NewRecordBatch(), Watermarks: per})
		bld.Release()
	}
	a, _ := NewSession(10_000)
	cfg := Config{Input: schema, RowtimeIndex: 0, KeyIndexes: []int{1}, Assigner: a, GapIndex: -1,
		Aggs: []AggSpec{{Kind: CountStar, Name: "n"}}}
	benchOperator(b, cfg, mem, batches)
}
