package exec

import (
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// rowFiller appends the rows [from, from+n) of a generator to the
// builders of one batch.
type rowFiller interface {
	fill(b *array.RecordBuilder, from int64, n int)
}

// generatorReader is the BatchReader of a generator: one split of total
// rows (or unbounded), cut into batches, optionally paced.
type generatorReader struct {
	filler rowFiller
	b      *array.RecordBuilder // nil once closed
	size   int
	total  int64 // rows in all; -1 when unbounded
	rows   int64
	// rate, when positive, paces the read at that many rows per second of
	// wall time: rows [k, k+n) are not generated before start + k/rate.
	// Batches then hold at most a tenth of a second's rows, so a paced
	// read never sleeps long between batches.
	rate  float64
	start time.Time
	ended bool // the split's end was reported
}

func newGeneratorReader(mem memory.Allocator, schema *arrow.Schema, size int, total int64, rate float64, f rowFiller) *generatorReader {
	if size <= 0 {
		size = DefaultBatchSize
	}
	return &generatorReader{filler: f, b: array.NewRecordBuilder(mem, schema), size: size, total: total, rate: rate}
}

func (r *generatorReader) Next() (SplitBatch, error) {
	if r.ended || r.b == nil {
		return SplitBatch{}, io.EOF
	}
	n := int64(r.size)
	if r.total >= 0 && r.total-r.rows < n {
		n = r.total - r.rows
	}
	if n <= 0 {
		r.ended = true
		return SplitBatch{End: true}, nil
	}
	if r.rate > 0 {
		n = min(n, max(1, int64(r.rate/10)))
		if r.start.IsZero() {
			r.start = time.Now()
		}
		due := r.start.Add(time.Duration(float64(r.rows) / r.rate * float64(time.Second)))
		if d := time.Until(due); d > 0 {
			time.Sleep(d)
		}
	}
	r.b.Reserve(int(n))
	r.filler.fill(r.b, r.rows, int(n))
	rec := r.b.NewRecordBatch()
	r.rows += n
	return SplitBatch{Record: rec}, nil
}

func (r *generatorReader) NumSplits() int { return 1 }

func (r *generatorReader) Stats() SourceStats { return SourceStats{Rows: r.rows} }

func (r *generatorReader) Close() error {
	if r.b != nil {
		r.b.Release()
		r.b = nil
	}
	return nil
}

var _ BatchReader = (*generatorReader)(nil)
