package windowtvf

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
)

// discard drops what it is sent.
type discard struct{}

func (discard) ProcessBatch(pipeline.Batch) error { return nil }
func (discard) ProcessWatermark(int64) error      { return nil }
func (discard) ProcessEnd() error                 { return nil }
func (discard) Close()                            {}

// BenchmarkOperator measures input rows per second through the
// replication: TUMBLE passes the columns on, HOP and CUMULATE take each
// row three times.
func BenchmarkOperator(b *testing.B) {
	mem := memory.NewGoAllocator()
	keys, ts := make([]string, 4096), make([]int64, 4096)
	for i := range keys {
		keys[i], ts[i] = fmt.Sprintf("k%d", i%100), int64(i)*7
	}
	rec := testBatch(mem, keys, ts)
	defer rec.Release()
	for _, cfg := range []Config{
		{Kind: Tumble, Size: 3000},
		{Kind: Hop, Slide: 1000, Size: 3000},
		{Kind: Cumulate, Step: 1000, Size: 3000},
	} {
		cfg.Input, cfg.RowtimeIndex = testSchema, 1
		b.Run(fmt.Sprint(cfg.Kind), func(b *testing.B) {
			op, err := New(cfg, mem, discard{})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := op.ProcessBatch(pipeline.Batch{Record: rec}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*4096/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

func (k Kind) String() string { return [...]string{"TUMBLE", "HOP", "CUMULATE"}[k] }
