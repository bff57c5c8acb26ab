package rankop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wsql/wsql/internal/cputime"

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

// benchRank runs cfg over 1M rows of 1000 partitions, time advancing 1 ms
// a row, values uniform, in batches of 4096. Issue 18's targets: Top-N
// (N = 10, 1000 partitions) 5M rows per CPU-second, deduplication 10M.
func benchRank(b *testing.B, cfg Config) {
	const rows, size = 1 << 20, 4096
	mem := memory.NewGoAllocator()
	rnd := rand.New(rand.NewPCG(1, 2))
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprintf("key-%04d", i)
	}
	var batches []arrow.RecordBatch
	for start := 0; start < rows; start += size {
		bld := array.NewRecordBuilder(mem, testSchema)
		for i := range size {
			bld.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(start + i))
			bld.Field(1).(*array.StringBuilder).Append(keys[rnd.IntN(len(keys))])
			bld.Field(2).(*array.Int64Builder).Append(rnd.Int64N(1_000_000))
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
	cpu0 := cputime.Process()
	for range b.N {
		op, err := NewRank(cfg, mem, discard{})
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range batches {
			if err := op.ProcessBatch(pipeline.Batch{Record: r}); err != nil {
				b.Fatal(err)
			}
		}
		if err := op.ProcessEnd(); err != nil {
			b.Fatal(err)
		}
		op.Close()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	if cpu := cputime.Process() - cpu0; cpu > 0 {
		b.ReportMetric(float64(rows)*float64(b.N)/cpu.Seconds(), "rows/cpu-s")
	}
}

func BenchmarkTopN(b *testing.B) {
	benchRank(b, Config{Input: testSchema, Partition: []int{1}, Order: []SortKey{{Index: 2, Desc: true}}, Start: 1, End: 10, RankName: "rn", Mode: TopN})
}

func BenchmarkDeduplicateLastByTime(b *testing.B) {
	benchRank(b, Config{Input: testSchema, Partition: []int{1}, Rowtime: 0, Mode: LastByTime})
}

func BenchmarkDeduplicateFirstByArrival(b *testing.B) {
	benchRank(b, Config{Input: testSchema, Partition: []int{1}, Mode: FirstByArrival})
}
