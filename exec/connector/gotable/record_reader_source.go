package gotable

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec"
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
	return &recordReaderBatches{rr: s.rr}, nil
}

// Explain names the connector for EXPLAIN.
func (s *RecordReaderSource) Explain() string { return "connector=[arrow record reader]" }

// Bounded is true: a RecordReader ends.
func (s *RecordReaderSource) Bounded() bool { return true }

// recordReaderBatches is the exec.BatchReader over one array.RecordReader.
type recordReaderBatches struct {
	rr      array.RecordReader // nil once closed
	rows    int64
	batches int64 // non-empty batches read, to name a refused one
	ended   bool
}

func (r *recordReaderBatches) Next() (exec.SplitBatch, error) {
	if r.rr == nil || r.ended {
		return exec.SplitBatch{}, io.EOF
	}
	for r.rr.Next() {
		rec := r.rr.RecordBatch()
		if rec.NumRows() == 0 {
			continue
		}
		r.batches++
		if err := checkPushedValues(rec); err != nil {
			return exec.SplitBatch{}, fmt.Errorf("%w: array.RecordReader, batch %d: %w", exec.ErrSource, r.batches, err)
		}
		rec.Retain() // the reader owns it until its next Next
		r.rows += rec.NumRows()
		return exec.SplitBatch{Record: rec}, nil
	}
	if err := r.rr.Err(); err != nil && err != io.EOF {
		return exec.SplitBatch{}, fmt.Errorf("%w: array.RecordReader: %w", exec.ErrSource, err)
	}
	r.ended = true
	return exec.SplitBatch{End: true}, nil
}

func (r *recordReaderBatches) NumSplits() int          { return 1 }
func (r *recordReaderBatches) Stats() exec.SourceStats { return exec.SourceStats{Rows: r.rows} }

func (r *recordReaderBatches) Close() error {
	if r.rr != nil {
		r.rr.Release()
		r.rr = nil
	}
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
