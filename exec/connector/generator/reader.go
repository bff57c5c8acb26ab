package generator

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/internal/recycle"
)

// Filler makes the columns of the rows [from, from+n) of a
// generator: cols[i] is set to a new array of schema field i, which the
// reader releases once the batch holds it.
// It is called once per batch, never per row.
type Filler interface {
	Fill(mem memory.Allocator, cols []arrow.Array, from int64, n int)
	// Kind names the generator in its checkpointed state.
	Kind() string
	// SaveState writes the generators' state once rows have been made,
	// O(columns) in size; RestoreState reads it back into a fresh filler
	// of the same options (failing d when it does not fit them).
	SaveState(e *checkpoint.Encoder)
	RestoreState(d *checkpoint.Decoder, rows int64)
}

// A Stepper is a Filler that steps over rows it does not make (a WHERE
// the source took, exec.EqualsPusher): Covered is how many rows of the
// whole source the first made rows stand for, the rows the read counts.
type Stepper interface {
	Covered(made int64) int64
}

// reader is the BatchReader of a generator: one split of total
// rows (or unbounded), cut into batches, optionally paced.
type reader struct {
	filler Filler
	// mem hands the buffers of a batch released downstream to a later
	// batch: a generator makes its rows as fast as the query reads them,
	// and freeing every batch to the garbage collector made collection a
	// third of a query over the Nexmark bid view.
	mem    *recycle.Allocator
	schema *arrow.Schema
	cols   []arrow.Array // scratch of Next; nil once closed
	size   int
	total  int64 // rows in all; -1 when unbounded
	rows   int64
	// rate, when positive, paces the read at that many rows per second of
	// wall time (pace), from the row the read starts at. Batches then hold
	// at most a tenth of a second's rows, so a paced read never sleeps
	// long between batches.
	rate  float64
	pace  *pacer // nil when not paced
	ended bool   // the split's end was reported
	// ctx is the run's (Follow): once it is done, Next makes no more rows
	// and a paced wait ends at once.
	ctx context.Context
}

func newReader(mem memory.Allocator, schema *arrow.Schema, size int, total int64, rate float64, f Filler) *reader {
	if size <= 0 {
		size = exec.DefaultBatchSize
	}
	r := &reader{filler: f, mem: recycle.New(mem), schema: schema, cols: make([]arrow.Array, schema.NumFields()),
		size: size, total: total, rate: rate, ctx: context.Background()}
	if rate > 0 {
		r.pace = newPacer(rate)
	}
	return r
}

func (r *reader) Next() (exec.SplitBatch, error) {
	if r.ended || r.cols == nil {
		return exec.SplitBatch{}, io.EOF
	}
	if err := r.ctx.Err(); err != nil {
		return exec.SplitBatch{}, err // stopped between two batches
	}
	n := int64(r.size)
	if r.total >= 0 && r.total-r.rows < n {
		n = r.total - r.rows
	}
	if n <= 0 {
		r.ended = true
		return exec.SplitBatch{End: true}, nil
	}
	if r.pace != nil {
		n = min(n, max(1, int64(r.rate/10)))
		if err := r.pace.wait(r.ctx, r.rows); err != nil {
			return exec.SplitBatch{}, err
		}
	}
	r.filler.Fill(r.mem, r.cols, r.rows, int(n))
	rec := array.NewRecordBatch(r.schema, r.cols, n)
	for i, c := range r.cols {
		c.Release()
		r.cols[i] = nil
	}
	r.rows += n
	return exec.SplitBatch{Record: rec}, nil
}

// Follow gives the read the run's context: a generator is a Follower
// because a paced read waits, and a stop must end the wait.
func (r *reader) Follow(ctx context.Context) { r.ctx = ctx }

func (r *reader) NumSplits() int { return 1 }

func (r *reader) Stats() exec.SourceStats {
	if s, ok := r.filler.(Stepper); ok {
		covered := s.Covered(r.rows)
		return exec.SourceStats{Rows: covered, Stepped: covered - r.rows}
	}
	return exec.SourceStats{Rows: r.rows}
}

func (r *reader) Close() error {
	if r.cols != nil {
		if c, ok := r.filler.(io.Closer); ok {
			c.Close() // before the buffers it holds go back
		}
		r.mem.Close()
	}
	r.cols = nil
	return nil
}

// SaveState records the read's position between two batches: the rows
// delivered, whether the end was reported, and the filler's generators.
// Pacing is not recorded: a resumed read paces from the row it resumes
// at, starting when it reads it (see pacer).
func (r *reader) SaveState(e *checkpoint.Encoder) error {
	e.String(r.filler.Kind())
	e.Int(r.rows)
	e.Bool(r.ended)
	r.filler.SaveState(e)
	return nil
}

// restoreState continues a fresh reader from what SaveState wrote; the
// whole of d must be its state.
func (r *reader) restoreState(d *checkpoint.Decoder) error {
	if k := d.String(); d.Err() == nil && k != r.filler.Kind() {
		d.Fail("the state of a %q generator given to %q", k, r.filler.Kind())
	}
	rows := d.Int()
	ended := d.Bool()
	switch {
	case d.Err() != nil:
	case rows < 0:
		d.Fail("generator at row %d", rows)
	case r.total >= 0 && rows > r.total:
		d.Fail("generator at row %d of %d", rows, r.total)
	case ended && rows != r.total:
		d.Fail("generator ended at row %d of %d", rows, r.total)
	}
	if d.Err() == nil {
		r.filler.RestoreState(d, rows)
	}
	if err := d.Finish(); err != nil {
		return err
	}
	r.rows, r.ended = rows, ended
	return nil
}

var (
	_ exec.BatchReader = (*reader)(nil)
	_ exec.StateReader = (*reader)(nil)
	_ exec.Follower    = (*reader)(nil)
)

// Open starts the read of a generator's one split: total rows (-1 when
// unbounded) in batches of size rows (exec.DefaultBatchSize when not
// positive), made by f and paced at rate rows per second of wall time
// when rate is positive. When at is set, the read continues from the
// state a checkpoint recorded (see SaveState).
func Open(mem memory.Allocator, schema *arrow.Schema, size int, total int64, rate float64, f Filler, at *checkpoint.Decoder) (exec.BatchReader, error) {
	r := newReader(mem, schema, size, total, rate, f)
	if at != nil {
		if err := r.restoreState(at); err != nil {
			return nil, err // not a typed nil in the interface
		}
	}
	return r, nil
}
