package rankop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
)

// benchWindowRank runs cfg over 1M rows of 1000 partitions, time
// advancing 1 ms a row in ten-second tumbling windows (about 10 rows per window and partition), values uniform, in
// batches of 4096 each followed by its watermark.
func benchWindowRank(b *testing.B, cfg Config) {
	const rows, size, window = 1 << 20, 4096, 10_000
	mem := memory.NewGoAllocator()
	rnd := rand.New(rand.NewPCG(1, 2))
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprintf("key-%04d", i)
	}
	var batches []arrow.RecordBatch
	for start := 0; start < rows; start += size {
		bld := array.NewRecordBuilder(mem, windowSchema)
		for i := range size {
			ts := int64(start + i)
			ws := ts - ts%window
			bld.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(ws))
			bld.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(ws + window))
			bld.Field(2).(*array.StringBuilder).Append(keys[rnd.IntN(len(keys))])
			bld.Field(3).(*array.Int64Builder).Append(rnd.Int64N(1_000_000))
			bld.Field(4).(*array.TimestampBuilder).Append(arrow.Timestamp(ts))
		}
		batches = append(batches, bld.NewRecordBatch())
		bld.Release()
	}
	defer func() {
		for _, r := range batches {
			r.Release()
		}
	}()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		op, err := NewWindowRank(cfg, mem, discard{})
		if err != nil {
			b.Fatal(err)
		}
		for i, r := range batches {
			if err := op.ProcessBatch(pipeline.Batch{Record: r}); err != nil {
				b.Fatal(err)
			}
			if err := op.ProcessWatermark(int64((i+1)*size - 1)); err != nil {
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

// BenchmarkWindowTopN: the 10 largest values per window and key.
func BenchmarkWindowTopN(b *testing.B) {
	benchWindowRank(b, windowConfig(TopN, 1, 10, "rn"))
}

// BenchmarkWindowTopNPerWindow: the 10 largest values per window.
func BenchmarkWindowTopNPerWindow(b *testing.B) {
	cfg := windowConfig(TopN, 1, 10, "rn")
	cfg.Partition = []int{0, 1}
	benchWindowRank(b, cfg)
}

// BenchmarkWindowDeduplicate: the first row per window and key.
func BenchmarkWindowDeduplicate(b *testing.B) {
	benchWindowRank(b, windowConfig(FirstByTime, 1, 1, ""))
}
