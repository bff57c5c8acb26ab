package exec

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/pipeline"
)

// ComputedSpec appends computed columns to each batch of a source: the
// output is the input's columns followed by one column per expression.
// When RowtimeIndex points at a computed column, a row whose computed time
// is NULL (TO_TIMESTAMP could not read its text) is a bad row: an error
// naming the value, or skipped and counted when SkipBadRows is set.
type ComputedSpec struct {
	Exprs        []expr.Expr
	Schema       *arrow.Schema // input fields + one field per expression
	RowtimeIndex int           // output index of the rowtime; -1 if not computed here
	SkipBadRows  bool
	Table        string
}

// ComputedColumns is the running stage of a ComputedSpec. For a table's
// computed columns it runs right after the source, before the watermark
// assigner, so dropping a row changes no watermark. After the assigner
// (aggregate arguments) it never drops rows and passes the per-row
// watermarks on.
type ComputedColumns struct {
	spec       ComputedSpec
	mem        memory.Allocator
	next       pipeline.Operator
	watermarks pipeline.WatermarkGate
	passed     int64
	skipped    int64
	wm         *watermarkInput // CURRENT_WATERMARK in an aggregate argument
}

// NewComputedColumns returns the stage.
func NewComputedColumns(spec ComputedSpec, mem memory.Allocator, next pipeline.Operator) *ComputedColumns {
	return &ComputedColumns{spec: spec, mem: mem, next: next, wm: newWatermarkInput(spec.Exprs...)}
}

// Skipped counts rows dropped for a NULL computed rowtime.
func (c *ComputedColumns) Skipped() int64 { return c.skipped }

// Passed counts rows sent downstream.
func (c *ComputedColumns) Passed() int64 { return c.passed }

func (c *ComputedColumns) forward(rec arrow.RecordBatch) error {
	c.passed += rec.NumRows()
	return c.next.ProcessBatch(pipeline.Batch{Record: rec})
}

func (c *ComputedColumns) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	cols := make([]arrow.Array, 0, c.spec.Schema.NumFields())
	cols = append(cols, rec.Columns()...)
	var owned []arrow.Array
	defer func() {
		for _, a := range owned {
			a.Release()
		}
	}()
	in := c.wm.record(b, c.mem)
	defer in.Release()
	for _, e := range c.spec.Exprs {
		a, err := e.Eval(in, c.mem)
		if err != nil {
			return err
		}
		owned = append(owned, a)
		cols = append(cols, a)
	}
	out := array.NewRecordBatch(c.spec.Schema, cols, rec.NumRows())
	defer out.Release()
	if rt := c.spec.RowtimeIndex; rt >= 0 && out.Column(rt).NullN() > 0 {
		if !c.spec.SkipBadRows {
			// Like the decoder, pass on the rows before the bad one first, so
			// what reaches the sink does not depend on batch boundaries.
			row := firstNull(out.Column(rt))
			if row > 0 {
				good := out.NewSlice(0, int64(row))
				err := c.forward(good)
				good.Release()
				if err != nil {
					return err
				}
			}
			return c.nullRowtimeError(out, row)
		}
		kept, err := c.dropNullRowtime(out)
		if err != nil {
			return err
		}
		defer kept.Release()
		if kept.NumRows() == 0 {
			return nil
		}
		return c.forward(kept)
	}
	if c.spec.RowtimeIndex < 0 {
		// no row can be dropped: the rows keep the watermarks they came with
		c.passed += out.NumRows()
		return c.next.ProcessBatch(pipeline.Batch{Record: out, Watermarks: b.Watermarks})
	}
	return c.forward(out)
}

// nullRowtimeError names the first row whose computed rowtime is NULL by
// the values of the input columns the expression read.
func (c *ComputedColumns) nullRowtimeError(out arrow.RecordBatch, row int) error {
	rowtimeExpr := c.spec.Exprs[c.spec.RowtimeIndex-(c.spec.Schema.NumFields()-len(c.spec.Exprs))]
	var vals []string
	for i, f := range out.Schema().Fields()[:c.spec.Schema.NumFields()-len(c.spec.Exprs)] {
		if col, ok := argColumn(rowtimeExpr); ok && col == i {
			v := "NULL"
			if out.Column(i).IsValid(row) {
				v = strconv.Quote(string(format.AppendValue(nil, out.Column(i), row, nil)))
			}
			vals = append(vals, fmt.Sprintf("%s = %s", f.Name, v))
		}
	}
	why := ""
	if _, ok := rowtimeExpr.(*expr.ToTimestampLTZ); ok {
		why = " (it gives NULL for an instant outside 0000-01-01 00:00:00.000 to 9999-12-31 23:59:59.999 UTC, the event times wsql accepts)"
	}
	return fmt.Errorf("%w: table %s: rowtime %s is NULL: %s gave NULL for %v%s",
		format.ErrBadRow, c.spec.Table, c.spec.Schema.Field(c.spec.RowtimeIndex).Name, rowtimeExpr, vals, why)
}

func firstNull(a arrow.Array) int {
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			return i
		}
	}
	return -1
}

func argColumn(e expr.Expr) (int, bool) {
	switch f := e.(type) {
	case *expr.ToTimestamp:
		return argColumn(f.Arg)
	case *expr.ToTimestampLTZ:
		return argColumn(f.Arg)
	case *expr.ColumnExpr:
		return f.Index, true
	}
	return 0, false
}

// dropNullRowtime keeps the rows with a rowtime: it concatenates the runs
// of good rows (bad rows are rare, so runs are long).
func (c *ComputedColumns) dropNullRowtime(out arrow.RecordBatch) (arrow.RecordBatch, error) {
	rt := out.Column(c.spec.RowtimeIndex)
	c.skipped += int64(rt.NullN())
	type run struct{ from, to int64 }
	var runs []run
	start := -1
	for i := 0; i <= rt.Len(); i++ {
		good := i < rt.Len() && rt.IsValid(i)
		switch {
		case good && start < 0:
			start = i
		case !good && start >= 0:
			runs = append(runs, run{int64(start), int64(i)})
			start = -1
		}
	}
	cols := make([]arrow.Array, out.NumCols())
	defer func() {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
	}()
	var rows int64
	for _, r := range runs {
		rows += r.to - r.from
	}
	for ci, col := range out.Columns() {
		parts := make([]arrow.Array, len(runs))
		for k, r := range runs {
			parts[k] = array.NewSlice(col, r.from, r.to)
		}
		var err error
		if len(parts) == 0 {
			cols[ci] = array.MakeArrayOfNull(c.mem, col.DataType(), 0)
		} else {
			cols[ci], err = array.Concatenate(parts, c.mem)
		}
		for _, p := range parts {
			p.Release()
		}
		if err != nil {
			return nil, err
		}
	}
	return array.NewRecordBatch(out.Schema(), cols, rows), nil
}

// ProcessWatermark passes on a watermark that advances; a stale one is ignored.
func (c *ComputedColumns) ProcessWatermark(wm int64) error {
	if !c.watermarks.Advance(wm) {
		return nil
	}
	c.wm.advance(wm)
	return c.next.ProcessWatermark(wm)
}

func (c *ComputedColumns) ProcessEnd() error { return c.next.ProcessEnd() }
func (c *ComputedColumns) Close()            {}

var _ pipeline.Operator = (*ComputedColumns)(nil)
