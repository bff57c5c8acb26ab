package joinop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/rowstore"
)

// residualColumns marks in read the joined columns the residual condition
// reads, and reports whether that is all it reads: an expression it does
// not know to read only through its operands (one without operands but a
// column, a literal or a bound value) may read any column.
func residualColumns(e expr.Expr, read []bool) bool {
	switch x := e.(type) {
	case *expr.ColumnExpr:
		if x.Index < 0 || x.Index >= len(read) {
			return false
		}
		read[x.Index] = true
		return true
	case *expr.Literal, *expr.Bound:
		return true
	}
	kids := expr.Children(e)
	if len(kids) == 0 {
		return false
	}
	for _, c := range kids {
		if c != nil && !residualColumns(c, read) {
			return false
		}
	}
	return true
}

// residualRows are the columns of a side's kept rows the residual
// condition reads, kept in a row store of their own under the same ids
// (every row added and removed in step with the side's store): the
// candidate pairs gather only those (q4's join from 1.5M to 1.9M input
// rows per CPU-second).
type residualRows struct {
	cols   []int // of the side's data columns
	schema *arrow.Schema
	store  *rowstore.Store
	ids    []int32 // reused
}

// splitResidual sets up each side's residual rows when the condition
// reads only some columns, and the schema of the joined pairs it is
// evaluated on (the columns it does not read NULL-typed).
func (j *regularJoin) splitResidual(mem memory.Allocator) {
	if j.cfg.Residual == nil {
		return
	}
	read := make([]bool, j.joined.NumFields())
	if !residualColumns(j.cfg.Residual, read) {
		return
	}
	fields := append([]arrow.Field{}, j.joined.Fields()...)
	at := 0
	for _, s := range j.sides {
		if !skipsWide(s.schema, read[at:at+s.schema.NumFields()]) {
			// the side's rows gather only the columns read: Nexmark q5's
			// join of every auction's count with the maximum of its
			// window re-reads 600K counts at each new maximum
			s.residualCols = []int{}
			for c, f := range s.schema.Fields() {
				if read[at+c] {
					s.residualCols = append(s.residualCols, c)
				} else {
					fields[at+c] = arrow.Field{Name: f.Name, Type: arrow.Null, Nullable: true}
				}
			}
			at += s.schema.NumFields()
			continue
		}
		r := &residualRows{}
		var kept []arrow.Field
		for c, f := range s.schema.Fields() {
			if read[at+c] {
				r.cols = append(r.cols, c)
				kept = append(kept, f)
			} else {
				fields[at+c] = arrow.Field{Name: f.Name, Type: arrow.Null, Nullable: true}
			}
		}
		r.schema = arrow.NewSchema(kept, nil)
		r.store = rowstore.New(r.schema, mem)
		r.store.GatherFrom(j.mem)
		if s.log.on {
			// Nexmark q7_tvf's bids kept each time twice for a probe at
			// their window's end: a seventh of the query's CPU, with the
			// spill of the state the copy crowded out
			s.deferred, s.residualCols = r, append([]int{}, r.cols...) // not nil: nil is every column
		} else {
			s.residual = r
		}
		at += s.schema.NumFields()
	}
	j.pairSchema = arrow.NewSchema(fields, nil)
}

// skipsWide reports whether a side's columns the residual does not read
// (read false) hold a value of variable width: only then do its own rows
// pay for keeping the columns it reads twice. A side of fixed-width
// columns gathers them all about as fast (Nexmark q4's join, its sides
// pruned to the columns used, kept each bid's time twice for nothing).
func skipsWide(schema *arrow.Schema, read []bool) bool {
	for c, f := range schema.Fields() {
		if _, fixed := f.Type.(arrow.FixedWidthDataType); !read[c] && !fixed {
			return true
		}
	}
	return false
}

// project is the residual's columns of data, a batch of the side's data
// columns (no copy).
func (r *residualRows) project(data arrow.RecordBatch) arrow.RecordBatch {
	cols := make([]arrow.Array, len(r.cols))
	for i, c := range r.cols {
		cols[i] = data.Column(c)
	}
	return array.NewRecordBatch(r.schema, cols, data.NumRows())
}

// add keeps rows of data as the side's store did, under the same ids.
func (r *residualRows) add(data arrow.RecordBatch, rows, ids []int32) error {
	rec := r.project(data)
	defer rec.Release()
	var err error
	if r.ids, err = r.store.Add(rec, rows, r.ids[:0]); err != nil {
		return err
	}
	for i, id := range r.ids {
		if id != ids[i] {
			return fmt.Errorf("join: the residual's row %d is kept as %d", ids[i], id)
		}
	}
	return nil
}

// gatherPairs appends the joined columns of side s for the candidate
// pairs' rows refs (of batch, when the input's): only those the residual
// reads, the others NULL.
func (j *regularJoin) gatherPairs(s *side, batch arrow.RecordBatch, refs []int32, cols []arrow.Array) ([]arrow.Array, error) {
	r := s.residual
	if r == nil {
		read, err := s.store.GatherColumnsWith(batch, refs, s.residualCols)
		if err != nil {
			return cols, err
		}
		if s.residualCols == nil { // every column
			return append(cols, read...), nil
		}
		return spreadColumns(cols, read, s.residualCols, s.schema.NumFields(), len(refs)), nil
	}
	if batch != nil {
		batch = r.project(batch)
		defer batch.Release()
	}
	rec, err := r.store.GatherWith(batch, refs)
	if err != nil {
		return cols, err
	}
	defer rec.Release()
	next := 0
	for c := range s.schema.NumFields() {
		if next < len(r.cols) && r.cols[next] == c {
			col := rec.Column(next)
			col.Retain()
			cols = append(cols, col)
			next++
			continue
		}
		cols = append(cols, array.NewNull(len(refs)))
	}
	return cols, nil
}

// keepResidual keeps side s's deferred residual rows from now on: the
// columns the residual reads of every row the side holds, gathered from
// its store, under the same ids. A side that logged never removed a row,
// so its rows are those of ids 0 to its store's length.
func (s *side) keepResidual() error {
	r := s.deferred
	if r == nil {
		return nil
	}
	s.deferred, s.residual, s.residualCols = nil, r, nil
	n := s.store.Len()
	var ids, rows []int32
	for from := 0; from < n; from += 1 << 16 {
		to := min(from+1<<16, n)
		ids, rows = ids[:0], rows[:0]
		for id := from; id < to; id++ {
			if !s.store.Holds(int32(id)) {
				return fmt.Errorf("join: row %d of %d not kept", id, n)
			}
			ids, rows = append(ids, int32(id)), append(rows, int32(id-from))
		}
		cols, err := s.store.GatherColumnsWith(nil, ids, r.cols)
		if err != nil {
			return err
		}
		rec := array.NewRecordBatch(r.schema, cols, int64(to-from))
		expr.ReleaseAll(cols)
		r.ids, err = r.store.Add(rec, rows, r.ids[:0])
		rec.Release()
		if err != nil {
			return err
		}
		for i, id := range r.ids {
			if id != ids[i] {
				return fmt.Errorf("join: the residual's row %d is kept as %d", ids[i], id)
			}
		}
	}
	return nil
}

// spreadColumns appends a side's nFields columns to dst: read[k] as column
// which[k] (ascending), a NULL column of n rows for each other one. A
// residual's input holds only the columns it reads.
func spreadColumns(dst, read []arrow.Array, which []int, nFields, n int) []arrow.Array {
	next := 0
	for c := range nFields {
		if next < len(which) && which[next] == c {
			dst = append(dst, read[next])
			next++
		} else {
			dst = append(dst, array.NewNull(n))
		}
	}
	return dst
}
