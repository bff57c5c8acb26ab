package exec

import (
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/windowop"
)

// WatermarkAssigner is the stage right after a source: it computes, for
// every row, the watermark in effect when the row arrived (DESIGN §4, the
// prefix maximum) and, after each batch, forwards the new watermark. It runs
// before any filter, so rows a WHERE clause removes still advance time.
type WatermarkAssigner struct {
	index  int
	gen    *rowtime.BoundedOutOfOrderness
	next   windowop.Operator
	perRow []int64
	last   int64
}

// NewWatermarkAssigner reads event time from column index and applies a
// bounded out-of-orderness of delay ms.
func NewWatermarkAssigner(index int, delayMillis int64, next windowop.Operator) *WatermarkAssigner {
	return &WatermarkAssigner{
		index: index,
		gen:   rowtime.NewBoundedOutOfOrderness(delayMillis),
		next:  next,
		last:  rowtime.MinWatermark,
	}
}

// ProcessBatch attaches the per-row watermarks and forwards the batch, then
// the watermark after its last row.
func (a *WatermarkAssigner) ProcessBatch(b windowop.Batch) error {
	n := int(b.Record.NumRows())
	if n == 0 {
		return nil
	}
	ts, err := rowtime.Millis(b.Record.Column(a.index))
	if err != nil {
		return err
	}
	if cap(a.perRow) < n {
		a.perRow = make([]int64, n)
	}
	after := a.gen.Assign(ts, a.perRow[:n])
	if err := a.next.ProcessBatch(windowop.Batch{Record: b.Record, Watermarks: a.perRow[:n]}); err != nil {
		return err
	}
	if after > a.last {
		a.last = after
		return a.next.ProcessWatermark(after)
	}
	return nil
}

// ProcessWatermark forwards a watermark from upstream if it advances time.
func (a *WatermarkAssigner) ProcessWatermark(wm int64) error {
	if wm <= a.last {
		return nil
	}
	a.last = wm
	return a.next.ProcessWatermark(wm)
}

// ProcessEnd forwards the end of input.
func (a *WatermarkAssigner) ProcessEnd() error { return a.next.ProcessEnd() }

// Close holds nothing to release.
func (a *WatermarkAssigner) Close() {}

// Watermark returns the current watermark.
func (a *WatermarkAssigner) Watermark() int64 { return a.last }

var _ windowop.Operator = (*WatermarkAssigner)(nil)
