package joinop

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/internal/cputime"
	"github.com/wsql/wsql/pipeline"
)

// BenchmarkLookupFileJoin probes a table of 1000 rates, one a key, with
// 1M rows in batches of 4096, as a LEFT join with a condition beyond the
// key.
func BenchmarkLookupFileJoin(b *testing.B) {
	const rows, size, keys = 1 << 20, 4096, 1000
	path := filepath.Join(b.TempDir(), "rates.csv")
	var table []lkRow
	for k := range int64(keys) {
		table = append(table, lkR(k, fmt.Sprint("rate-", k), k%100))
	}
	lkWrite(b, path, table, time.Now())
	cfg := tjShape{outer: true, residual: true}.lookupConfig(path, nil)
	mem := memory.NewGoAllocator()
	rnd := rand.New(rand.NewPCG(1, 2))
	var batches []arrow.RecordBatch
	for start := 0; start < rows; start += size {
		var l []tmpEvent
		for i := range size {
			l = append(l, tjL(int64(start+i), rnd.Int64N(keys+keys/10), rnd.Int64N(100)))
		}
		batches = append(batches, tjBatch(mem, cfg.Left, l))
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
		op, err := NewLookupFileJoin(cfg, mem, tjDiscard{})
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
