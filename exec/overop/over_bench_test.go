package overop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wsql/wsql/internal/cputime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/windowop"
)

// discard is a sink that drops what it gets.
type discard struct{}

func (discard) ProcessBatch(pipeline.Batch) error { return nil }
func (discard) ProcessWatermark(int64) error      { return nil }
func (discard) ProcessEnd() error                 { return nil }
func (discard) Close()                            {}

// BenchmarkOverRows100 is the benchmark: SUM and COUNT(*) OVER
// (PARTITION BY k ORDER BY ts ROWS BETWEEN 100 PRECEDING AND CURRENT ROW)
// over 1000 partitions, event time, batches of 4096 rows with a
// watermark after each (docs/performance.md, "Update streams").
func BenchmarkOverRows100(b *testing.B) {
	for _, frame := range []Config{{Rows: true, Preceding: 100}, {Rows: true, Unbounded: true}, {Preceding: 100}} {
		b.Run(frame.FrameText(), func(b *testing.B) {
			mem := memory.NewGoAllocator()
			rng := rand.New(rand.NewPCG(1, 2))
			const batches, size = 64, 4096
			var recs []arrow.RecordBatch
			ts := int64(0)
			for range batches {
				rows := make([]row, size)
				for i := range rows {
					ts += int64(rng.IntN(2))
					rows[i] = row{ts: ts, k: fmt.Sprintf("k%d", rng.IntN(1000)), v: int64(rng.IntN(100)), id: int64(i)}
				}
				recs = append(recs, batch(mem, rows))
			}
			defer func() {
				for _, r := range recs {
					r.Release()
				}
			}()
			cfg := frame
			cfg.Input, cfg.Time, cfg.PartitionBy = testSchema, 0, []int{1}
			cfg.Aggs = []windowop.AggSpec{{Kind: windowop.Sum, Input: 2, Name: "s"}, {Kind: windowop.CountStar, Name: "n"}}
			b.ResetTimer()
			cpu0 := cputime.Process()
			rows := 0
			for b.Loop() {
				op, err := New(cfg, mem, discard{})
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range recs {
					if err := op.ProcessBatch(pipeline.Batch{Record: r}); err != nil {
						b.Fatal(err)
					}
					last := r.Column(0).(interface{ Value(int) arrow.Timestamp }).Value(int(r.NumRows()) - 1)
					if err := op.ProcessWatermark(int64(last) - 1); err != nil {
						b.Fatal(err)
					}
				}
				if err := op.ProcessEnd(); err != nil {
					b.Fatal(err)
				}
				op.Close()
				rows += batches * size
			}
			b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(rows)/(cputime.Process()-cpu0).Seconds(), "rows/cpu-s")
		})
	}
}
