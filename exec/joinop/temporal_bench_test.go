package joinop

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/internal/cputime"
	"github.com/wsql/wsql/pipeline"
)

type tjDiscard struct{}

func (tjDiscard) ProcessBatch(pipeline.Batch) error { return nil }
func (tjDiscard) ProcessWatermark(int64) error      { return nil }
func (tjDiscard) ProcessEnd() error                 { return nil }
func (tjDiscard) Close()                            {}

// benchTemporal runs 1M orders against a versioned table of 1000 rates
// (an update stream, a new version of some rate every 8 orders), time
// advancing 1 ms an order, each input in batches of 4096 rows, the
// watermark 100 ms behind after each batch.
func benchTemporal(b *testing.B, s tjShape) {
	const orders, size, keys = 1 << 20, 4096, 1000
	cfg := s.config()
	mem := memory.NewGoAllocator()
	rnd := rand.New(rand.NewPCG(1, 2))
	type step struct {
		input int
		rec   arrow.RecordBatch
		wm    int64
	}
	var steps []step
	rows := 0
	for start := 0; start < orders; start += size {
		var l, r []tmpEvent
		for i := range size {
			ts := int64(start + i)
			l = append(l, tjL(ts, rnd.Int64N(keys), rnd.Int64N(100)))
			if i%8 == 0 {
				r = append(r, tjR("+U", ts, rnd.Int64N(keys), rnd.Int64N(100)))
			}
		}
		steps = append(steps,
			step{input: 1, rec: tjBatch(mem, cfg.Right, r)},
			step{input: 0, rec: tjBatch(mem, cfg.Left, l), wm: int64(start+size) - 100})
		rows += len(l) + len(r)
	}
	defer func() {
		for _, st := range steps {
			st.rec.Release()
		}
	}()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cputime.Process()
	for range b.N {
		op, err := New(cfg, mem, tjDiscard{})
		if err != nil {
			b.Fatal(err)
		}
		for _, st := range steps {
			if err := op.ProcessInput(st.input, pipeline.Batch{Record: st.rec}); err != nil {
				b.Fatal(err)
			}
			if st.wm != 0 {
				if err := op.ProcessWatermark(st.wm); err != nil {
					b.Fatal(err)
				}
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

// BenchmarkTemporalJoin is an INNER join of orders with the rate valid
// at their time. Issue 19's target: 1M rows per CPU-second.
func BenchmarkTemporalJoin(b *testing.B) { benchTemporal(b, tjShape{rightUpdates: true}) }

// BenchmarkTemporalJoinLeftResidual is the LEFT join with a condition
// beyond the key, about a hundredth of the pairs failing it.
func BenchmarkTemporalJoinLeftResidual(b *testing.B) {
	benchTemporal(b, tjShape{rightUpdates: true, outer: true, residual: true})
}
