package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
)

// Filter is WHERE (or HAVING): it keeps the rows whose condition is TRUE
// and drops FALSE and NULL ones. It runs after the watermark assigner, so
// a dropped row has already advanced the watermark; the kept rows keep the
// watermark they arrived under (the batch's Watermarks are compacted with
// the rows), and nothing about a dropped row reaches later rows.
type Filter struct {
	cond       expr.Expr
	mem        memory.Allocator
	next       pipeline.Operator
	watermarks pipeline.WatermarkGate
	idx        []int32
	wms        []int64
	dropped    int64
	wm         *watermarkInput // CURRENT_WATERMARK in cond
}

// NewFilter returns the stage; cond must be BOOLEAN.
func NewFilter(cond expr.Expr, mem memory.Allocator, next pipeline.Operator) (*Filter, error) {
	if cond.DataType().ID() != arrow.BOOL {
		return nil, fmt.Errorf("filter condition %s is %s, not BOOLEAN", cond, cond.DataType())
	}
	return &Filter{cond: cond, mem: mem, next: next, wm: newWatermarkInput(cond)}, nil
}

// Dropped counts the rows the condition removed.
func (f *Filter) Dropped() int64 { return f.dropped }

func (f *Filter) ProcessBatch(b pipeline.Batch) error {
	in := f.wm.record(b, f.mem)
	c, err := f.cond.Eval(in, f.mem)
	in.Release()
	if err != nil {
		return err
	}
	mask, kept := expr.BoolMask(c.(*array.Boolean))
	c.Release()
	n := int(b.Record.NumRows())
	f.dropped += int64(n - kept)
	switch kept {
	case n:
		return f.next.ProcessBatch(b)
	case 0:
		return nil
	}
	f.idx = expr.SelectedRows(mask, n, f.idx)
	rec, err := expr.TakeRecord(b.Record, f.idx, f.mem)
	if err != nil {
		return err
	}
	defer rec.Release()
	out := pipeline.Batch{Record: rec}
	if b.Watermarks != nil {
		// reused between batches: an operator that keeps Watermarks copies it
		f.wms = f.wms[:0]
		for _, i := range f.idx {
			f.wms = append(f.wms, b.Watermarks[i])
		}
		out.Watermarks = f.wms
	}
	return f.next.ProcessBatch(out)
}

// ProcessWatermark passes on a watermark that advances; a stale one is ignored.
func (f *Filter) ProcessWatermark(wm int64) error {
	if !f.watermarks.Advance(wm) {
		return nil
	}
	f.wm.advance(wm)
	return f.next.ProcessWatermark(wm)
}

func (f *Filter) ProcessEnd() error { return f.next.ProcessEnd() }
func (f *Filter) Close()            {}

var _ pipeline.Operator = (*Filter)(nil)
