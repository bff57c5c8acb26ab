package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/internal/arrowtest"
	"github.com/wsql/wsql/pipeline"
)

const (
	benchRows  = 1 << 20
	benchBatch = 8192 // rows per batch, as the CSV decoder makes them
)

// benchBatches cuts 1M rows into batches.
func benchBatches(rec arrow.RecordBatch) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	for off := int64(0); off < rec.NumRows(); off += benchBatch {
		out = append(out, rec.NewSlice(off, min(off+benchBatch, rec.NumRows())))
	}
	return out
}

func releaseBatches(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}

// benchRecord is 1M rows: an INT, a DOUBLE and a BIGINT column.
func benchRecord(mem memory.Allocator) arrow.RecordBatch {
	ib, db, lb := array.NewInt32Builder(mem), array.NewFloat64Builder(mem), array.NewInt64Builder(mem)
	defer ib.Release()
	defer db.Release()
	defer lb.Release()
	for i := range benchRows {
		ib.Append(int32(i % 1000))
		db.Append(float64(i%977) * 1.5)
		lb.Append(int64(i))
	}
	return arrowtest.Batch(ib.NewArray(), db.NewArray(), lb.NewArray())
}

type discard struct{ rows int64 }

func (d *discard) ProcessBatch(b pipeline.Batch) error { d.rows += b.Record.NumRows(); return nil }
func (d *discard) ProcessWatermark(int64) error        { return nil }
func (d *discard) ProcessEnd() error                   { return nil }
func (d *discard) Close()                              {}

// BenchmarkFilterCompareAnd is, over 1M rows in batches of 8192, WHERE c0 > 100 AND c1 < 1000.0 (about 60%
// of the rows kept), compaction included.
func BenchmarkFilterCompareAnd(b *testing.B) {
	mem := memory.NewGoAllocator()
	rec := benchRecord(mem)
	defer rec.Release()
	batches := benchBatches(rec)
	defer releaseBatches(batches)
	cond := &expr.And{
		L: &expr.Compare{Op: ">", L: col(rec, 0), R: lit(i32, 100)},
		R: &expr.Compare{Op: "<", L: col(rec, 1), R: lit(f64, 1000.0)},
	}
	sink := &discard{}
	f, err := NewFilter(cond, mem, sink)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, r := range batches {
			if err := f.ProcessBatch(pipeline.Batch{Record: r}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)*benchRows/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkProjectArithmetic is, over 1M rows in batches of 8192, SELECT c2 * 2 + c0, c1 / 3.0 (the INT
// widened to BIGINT as the planner casts it).
func BenchmarkProjectArithmetic(b *testing.B) {
	mem := memory.NewGoAllocator()
	rec := benchRecord(mem)
	defer rec.Release()
	batches := benchBatches(rec)
	defer releaseBatches(batches)
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: i64}, {Name: "b", Type: f64}}, nil)
	spec := ProjectSpec{Schema: schema, Exprs: []expr.Expr{
		&expr.Arith{Op: '+', L: &expr.Arith{Op: '*', L: col(rec, 2), R: lit(i64, 2), Type: i64}, R: &expr.Cast{X: col(rec, 0), To: i64}, Type: i64},
		&expr.Arith{Op: '/', L: col(rec, 1), R: lit(f64, 3.0), Type: f64},
	}}
	p, err := NewProject(spec, rec.Schema(), mem, &discard{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, r := range batches {
			if err := p.ProcessBatch(pipeline.Batch{Record: r}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)*benchRows/b.Elapsed().Seconds(), "rows/s")
}
