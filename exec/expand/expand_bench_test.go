package expand

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
)

type discard struct{}

func (discard) ProcessBatch(pipeline.Batch) error { return nil }
func (discard) ProcessWatermark(int64) error      { return nil }
func (discard) ProcessEnd() error                 { return nil }
func (discard) Close()                            {}

// BenchmarkExpandRollup copies 4096-row batches for ROLLUP (a, b): three
// sets, the key copies and two constant columns per batch. rows/s counts
// input rows.
func BenchmarkExpandRollup(b *testing.B) {
	mem := memory.NewGoAllocator()
	var rows []row
	for i := range 4096 {
		rows = append(rows, row{ts: int64(i), a: []string{"x", "y", ""}[i%3], b: int64(i % 7), wmAt: int64(i)})
	}
	rec := batch(mem, rows)
	defer rec.Release()
	e, err := New(rollupSpec(), mem, discard{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if err := e.ProcessBatch(pipeline.Batch{Record: rec}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*4096/b.Elapsed().Seconds(), "rows/s")
}
