package exec

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Values is the BatchMaker of a VALUES table (FROM (VALUES ...), INSERT
// ... VALUES, and the one row a SELECT without FROM reads): rows of
// constant expressions, each already of its column's type, evaluated when
// the read opens. It is bounded: the rows, then the end.
type Values struct {
	Rows [][]expr.Expr // Rows[r][c] is column c of row r
}

// Open evaluates the rows into one record and hands it out in slices of
// at most batchSize rows.
func (v *Values) Open(mem memory.Allocator, schema *arrow.Schema, batchSize int) (BatchReader, error) {
	one := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer one.Release()
	cols := make([]arrow.Array, schema.NumFields())
	release := func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}
	parts := make([]arrow.Array, len(v.Rows))
	for c := range cols {
		for r, row := range v.Rows {
			a, err := row[c].Eval(one, mem)
			if err != nil {
				releaseArrays(parts[:r])
				release()
				return nil, fmt.Errorf("VALUES row %d, column %d: %w", r+1, c+1, err)
			}
			parts[r] = a
		}
		var err error
		cols[c], err = array.Concatenate(parts, mem)
		releaseArrays(parts)
		if err != nil {
			release()
			return nil, err
		}
	}
	rec := array.NewRecordBatch(schema, cols, int64(len(v.Rows)))
	release()
	return &valuesReader{rec: rec, batch: max(batchSize, 1)}, nil
}

func releaseArrays(as []arrow.Array) {
	for _, a := range as {
		a.Release()
	}
}

// Explain names the rows for EXPLAIN.
func (v *Values) Explain() string { return fmt.Sprintf("values=[%d rows]", len(v.Rows)) }

// Bounded is true: the rows end.
func (v *Values) Bounded() bool { return true }

// valuesReader hands out the evaluated rows, then the end of its one split.
type valuesReader struct {
	rec   arrow.RecordBatch // nil once closed
	batch int
	next  int64 // the first row not handed out
	ended bool
}

func (r *valuesReader) Next() (SplitBatch, error) {
	switch {
	case r.rec == nil || r.ended:
		return SplitBatch{}, io.EOF
	case r.next >= r.rec.NumRows():
		r.ended = true
		return SplitBatch{End: true}, nil
	}
	end := min(r.next+int64(r.batch), r.rec.NumRows())
	part := r.rec.NewSlice(r.next, end)
	r.next = end
	return SplitBatch{Record: part}, nil
}

func (r *valuesReader) NumSplits() int { return 1 }

func (r *valuesReader) Stats() SourceStats { return SourceStats{Rows: r.next} }

func (r *valuesReader) Close() error {
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
	return nil
}
