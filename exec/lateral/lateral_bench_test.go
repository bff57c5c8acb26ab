package lateral

import (
	"math/rand"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/internal/cputime"
	"github.com/wsql/wsql/pipeline"
)

type discard struct{}

func (discard) ProcessBatch(pipeline.Batch) error { return nil }
func (discard) ProcessWatermark(int64) error      { return nil }
func (discard) ProcessEnd() error                 { return nil }
func (discard) Close()                            {}

// BenchmarkUnnest expands 4096-row batches of ARRAY<STRING> (0 to 3
// elements, 1.5 on average) and of ARRAY<ROW<STRING, INT>> with
// LEFT JOIN padding; rows/cpu-s counts input rows.
func BenchmarkUnnest(b *testing.B) {
	for _, tc := range []struct {
		name string
		arg  int
		left bool
	}{{"array", 2, false}, {"rows_left", 3, true}, {"function", -1, false}} {
		b.Run(tc.name, func(b *testing.B) {
			mem := memory.NewGoAllocator()
			rec := build(mem, randomRows(rand.New(rand.NewSource(1)), 4096))
			defer rec.Release()
			l, err := New(spec(b, tc.arg, tc.left, false, tc.arg < 0), mem, discard{})
			if err != nil {
				b.Fatal(err)
			}
			cpu := cputime.Process()
			b.ResetTimer()
			for range b.N {
				if err := l.ProcessBatch(pipeline.Batch{Record: rec}); err != nil {
					b.Fatal(err)
				}
			}
			rows := float64(b.N) * 4096
			b.ReportMetric(rows/b.Elapsed().Seconds(), "rows/s")
			if d := cputime.Process() - cpu; d > 0 {
				b.ReportMetric(rows/(float64(d)/float64(time.Second)), "rows/cpu-s")
			}
		})
	}
}
