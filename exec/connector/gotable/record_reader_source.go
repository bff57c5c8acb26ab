package gotable

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/pipeline"
)

// RecordReaderSource is a table over an array.RecordReader a Go program
// attached: its batches are the table's rows, one split, read once. The
// reader's schema must have the table's physical columns, by name and
// type, in order.
type RecordReaderSource struct {
	mu    sync.Mutex
	rr    array.RecordReader
	taken bool
}

// NewRecordReaderSource wraps rr; the source releases it when the query
// that reads it ends.
func NewRecordReaderSource(rr array.RecordReader) *RecordReaderSource {
	return &RecordReaderSource{rr: rr}
}

// Open starts the one read of the reader.
func (s *RecordReaderSource) Open(_ memory.Allocator, schema *arrow.Schema, _ int) (exec.BatchReader, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.taken {
		return nil, fmt.Errorf("%w: the array.RecordReader of this table was already read by an earlier query; it can be read once", exec.ErrSource)
	}
	if err := CheckSchema(s.rr.Schema(), schema); err != nil {
		return nil, fmt.Errorf("%w: array.RecordReader: %w", exec.ErrSource, err)
	}
	s.taken = true
	return &recordReaderBatches{rr: s.rr, ctx: context.Background()}, nil
}

// Explain names the connector for EXPLAIN.
func (s *RecordReaderSource) Explain() string { return "connector=[arrow record reader]" }

// Bounded is true: a RecordReader ends.
func (s *RecordReaderSource) Bounded() bool { return true }

// recordReaderBatches is the exec.BatchReader over one array.RecordReader.
// The program's reader may wait for its next batch (a network stream), so
// each rr.Next runs in a goroutine and Next waits for it or for the run's
// context (Follow): a stop never waits for the next batch. A call the stop
// abandons finishes in its goroutine, which then releases what it got and
// the reader (see Close); the reader is never used by two goroutines at once.
type recordReaderBatches struct {
	rr      array.RecordReader // nil once closed
	ctx     context.Context
	pending chan recordRead // the call of rr.Next in flight; nil when none
	rows    int64
	batches int64 // non-empty batches read, to name a refused one
	ended   bool
}

// recordRead is what one call of rr.Next gave: a batch the call retained,
// or nil at the end (err is then rr.Err()).
type recordRead struct {
	rec arrow.RecordBatch
	err error
}

// Follow gives the read the run's context, whose cancellation ends a wait.
func (r *recordReaderBatches) Follow(ctx context.Context) { r.ctx = ctx }

func (r *recordReaderBatches) Next() (exec.SplitBatch, error) {
	if r.rr == nil || r.ended {
		return exec.SplitBatch{}, io.EOF
	}
	for {
		if r.pending == nil {
			if err := r.ctx.Err(); err != nil {
				return exec.SplitBatch{}, err
			}
			r.pending = make(chan recordRead, 1) // the goroutine never waits to send
			go nextRecord(r.rr, r.pending)
		}
		var got recordRead
		select {
		case got = <-r.pending:
			r.pending = nil
		case <-r.ctx.Done():
			return exec.SplitBatch{}, r.ctx.Err()
		}
		if got.rec == nil {
			var caught *pipeline.PanicError
			if errors.As(got.err, &caught) {
				return exec.SplitBatch{}, caught
			}
			if got.err != nil && got.err != io.EOF {
				return exec.SplitBatch{}, fmt.Errorf("%w: array.RecordReader: %w", exec.ErrSource, got.err)
			}
			r.ended = true
			return exec.SplitBatch{End: true}, nil
		}
		rec := got.rec
		if rec.NumRows() == 0 {
			rec.Release()
			continue
		}
		r.batches++
		if err := checkPushedValues(rec); err != nil {
			rec.Release()
			return exec.SplitBatch{}, fmt.Errorf("%w: array.RecordReader, batch %d: %w", exec.ErrSource, r.batches, err)
		}
		r.rows += rec.NumRows()
		return exec.SplitBatch{Record: rec}, nil
	}
}

// nextRecord makes one call of rr.Next and sends what it gave, the batch
// retained: the reader owns it only until its next Next.
func nextRecord(rr array.RecordReader, to chan<- recordRead) {
	defer func() {
		if p := recover(); p != nil {
			to <- recordRead{err: pipeline.PanicAsError(p, "")} // ends the run as a panic on its goroutine would
		}
	}()
	if !rr.Next() {
		to <- recordRead{err: rr.Err()}
		return
	}
	rec := rr.RecordBatch()
	rec.Retain()
	to <- recordRead{rec: rec}
}

func (r *recordReaderBatches) NumSplits() int          { return 1 }
func (r *recordReaderBatches) Stats() exec.SourceStats { return exec.SourceStats{Rows: r.rows} }

// Close releases the reader, or leaves that to the call of rr.Next a stop
// abandoned, once it returns.
func (r *recordReaderBatches) Close() error {
	if r.rr == nil {
		return nil
	}
	rr, pending := r.rr, r.pending
	r.rr, r.pending = nil, nil
	if pending == nil {
		rr.Release()
		return nil
	}
	go func() {
		if got := <-pending; got.rec != nil {
			got.rec.Release()
		}
		rr.Release()
	}()
	return nil
}

// CheckSchema says how got, the schema of batches a Go program hands in,
// differs from want, the table's physical columns: names (case-insensitive
// as SQL names are) and types must match in order. A nullable column may
// feed a NOT NULL one; its nulls are refused when they arrive.
func CheckSchema(got, want *arrow.Schema) error {
	if got.NumFields() != want.NumFields() {
		return fmt.Errorf("batches have %d columns (%s), the table has %d (%s)",
			got.NumFields(), fieldList(got), want.NumFields(), fieldList(want))
	}
	for i, w := range want.Fields() {
		g := got.Field(i)
		if !strings.EqualFold(g.Name, w.Name) {
			return fmt.Errorf("column %d is %s, the table's is %s", i+1, g.Name, w.Name)
		}
		if !arrow.TypeEqual(g.Type, w.Type) {
			return fmt.Errorf("column %s is %s, the table declares %s", w.Name, g.Type, w.Type)
		}
	}
	return nil
}

func fieldList(s *arrow.Schema) string {
	out := ""
	for i, f := range s.Fields() {
		if i > 0 {
			out += ", "
		}
		out += f.Name
	}
	return out
}
