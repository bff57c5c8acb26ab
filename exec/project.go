package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
)

// ProjectSpec makes the output columns, named by Schema. With Exprs set,
// output column i is Exprs[i] evaluated over the input (a plain column
// reference, a *ColumnExpr, still shares the input's array); otherwise it
// is input column Columns[i], picked without a copy.
type ProjectSpec struct {
	Columns []int
	Exprs   []expr.Expr
	Schema  *arrow.Schema
}

// Project is the running stage of a ProjectSpec.
type Project struct {
	spec       ProjectSpec
	mem        memory.Allocator
	next       pipeline.Operator
	watermarks pipeline.WatermarkGate
	cols       []arrow.Array
	wm         *watermarkInput // CURRENT_WATERMARK in an expression
}

// NewProject checks spec against the input schema and returns the stage;
// mem allocates the computed columns.
func NewProject(spec ProjectSpec, input *arrow.Schema, mem memory.Allocator, next pipeline.Operator) (*Project, error) {
	if spec.Exprs != nil {
		if len(spec.Exprs) != spec.Schema.NumFields() {
			return nil, fmt.Errorf("projection computes %d expressions for %d output fields", len(spec.Exprs), spec.Schema.NumFields())
		}
		for i, e := range spec.Exprs {
			if c, ok := e.(*expr.ColumnExpr); ok && (c.Index < 0 || c.Index >= input.NumFields()) {
				return nil, fmt.Errorf("projection column %d out of range", c.Index)
			}
			if !arrow.TypeEqual(e.DataType(), spec.Schema.Field(i).Type) {
				return nil, fmt.Errorf("projection of %s changes type %s to %s", e, e.DataType(), spec.Schema.Field(i).Type)
			}
		}
		return &Project{spec: spec, mem: mem, next: next, cols: make([]arrow.Array, len(spec.Exprs)), wm: newWatermarkInput(spec.Exprs...)}, nil
	}
	if len(spec.Columns) != spec.Schema.NumFields() {
		return nil, fmt.Errorf("projection picks %d columns for %d output fields", len(spec.Columns), spec.Schema.NumFields())
	}
	for i, c := range spec.Columns {
		if c < 0 || c >= input.NumFields() {
			return nil, fmt.Errorf("projection column %d out of range", c)
		}
		if !arrow.TypeEqual(input.Field(c).Type, spec.Schema.Field(i).Type) {
			return nil, fmt.Errorf("projection of %s changes type %s to %s", input.Field(c).Name, input.Field(c).Type, spec.Schema.Field(i).Type)
		}
	}
	return &Project{spec: spec, mem: mem, next: next, cols: make([]arrow.Array, len(spec.Columns))}, nil
}

// ProcessBatch forwards a batch made of the output columns.
func (p *Project) ProcessBatch(b pipeline.Batch) error {
	if p.spec.Exprs == nil {
		for i, c := range p.spec.Columns {
			p.cols[i] = b.Record.Column(c)
		}
		rec := array.NewRecordBatch(p.spec.Schema, p.cols, b.Record.NumRows())
		defer rec.Release()
		return p.next.ProcessBatch(pipeline.Batch{Record: rec, Watermarks: b.Watermarks})
	}
	clear(p.cols)
	defer expr.ReleaseAll(p.cols)
	in := p.wm.record(b, p.mem)
	defer in.Release()
	for i, e := range p.spec.Exprs {
		a, err := e.Eval(in, p.mem)
		if err != nil {
			return err
		}
		p.cols[i] = a
	}
	rec := array.NewRecordBatch(p.spec.Schema, p.cols, b.Record.NumRows())
	defer rec.Release()
	return p.next.ProcessBatch(pipeline.Batch{Record: rec, Watermarks: b.Watermarks})
}

// ProcessWatermark passes on a watermark that advances; a stale one is ignored.
func (p *Project) ProcessWatermark(wm int64) error {
	if !p.watermarks.Advance(wm) {
		return nil
	}
	p.wm.advance(wm)
	return p.next.ProcessWatermark(wm)
}

func (p *Project) ProcessEnd() error { return p.next.ProcessEnd() }
func (p *Project) Close()            {}

var _ pipeline.Operator = (*Project)(nil)
