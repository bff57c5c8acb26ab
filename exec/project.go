package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/wsql/wsql/windowop"
)

// ProjectSpec picks and renames input columns: output column i is input
// column Columns[i] named Schema.Field(i).Name. Picking shares the input's
// arrays (zero copy).
type ProjectSpec struct {
	Columns []int
	Schema  *arrow.Schema
}

// Project is the running stage of a ProjectSpec.
type Project struct {
	spec ProjectSpec
	next windowop.Operator
	cols []arrow.Array
}

// NewProject checks spec against the input schema and returns the stage.
func NewProject(spec ProjectSpec, input *arrow.Schema, next windowop.Operator) (*Project, error) {
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
	return &Project{spec: spec, next: next, cols: make([]arrow.Array, len(spec.Columns))}, nil
}

// ProcessBatch forwards a batch made of the picked columns.
func (p *Project) ProcessBatch(b windowop.Batch) error {
	for i, c := range p.spec.Columns {
		p.cols[i] = b.Record.Column(c)
	}
	rec := array.NewRecordBatch(p.spec.Schema, p.cols, b.Record.NumRows())
	defer rec.Release()
	return p.next.ProcessBatch(windowop.Batch{Record: rec, Watermarks: b.Watermarks})
}

func (p *Project) ProcessWatermark(wm int64) error { return p.next.ProcessWatermark(wm) }
func (p *Project) ProcessEnd() error               { return p.next.ProcessEnd() }
func (p *Project) Close()                          {}

var _ windowop.Operator = (*Project)(nil)
