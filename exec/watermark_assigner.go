package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// WatermarkAssigner is the stage right after a source: it computes, for
// every row, the watermark in effect when the row arrived (docs/semantics.md, "Watermarks"; the
// prefix maximum, combined over the source's splits) and, after each batch,
// forwards the new watermark. It runs before any filter, so rows a WHERE
// clause removes still advance time.
//
// Batches carry no split, and a stage (computed columns) may sit between the
// source and the assigner, so the driver tells the assigner directly:
// SelectSplit before pushing a split's batch into the chain, EndSplit when a
// split ends. Calls are synchronous, so the selected split is the one every
// row reaching ProcessBatch came from.
type WatermarkAssigner struct {
	index  int
	wm     *rowtime.CombinedWatermark
	split  int
	next   pipeline.Operator
	perRow []int64
	last   int64

	// expr, when set, is a general `WATERMARK FOR ts AS expr`: the watermark
	// is the maximum of expr (a timestamp) over the rows so far, so the
	// combined watermark runs with no delay over expr's values. Rows where
	// expr is NULL do not move it.
	expr  expr.Expr
	mem   memory.Allocator
	cands []int64

	// fromSource is set for `WATERMARK FOR ts AS SOURCE_WATERMARK()`: the
	// source supplies watermarks (AdvanceSplit) and rows do not move them.
	fromSource bool

	// future, when set, drops rows outside the event times wsql accepts
	// and rows too far beyond their split's latest event time
	// ('scan.watermark.max-future') before they can move it.
	future *futureFilter
}

// UseSourceWatermarks makes the assigner take watermarks only from
// AdvanceSplit, as the source supplies them; rows no longer move them.
func (a *WatermarkAssigner) UseSourceWatermarks() { a.fromSource = true }

// AdvanceSplit records a watermark the source supplied for split and
// forwards the combined watermark if it advanced.
func (a *WatermarkAssigner) AdvanceSplit(split int, wm int64) error {
	a.grow(split + 1)
	return a.ProcessWatermark(a.wm.Advance(split, wm))
}

// IdleSplit marks split idle, as the source says, and forwards the
// combined watermark if the split was holding it back.
func (a *WatermarkAssigner) IdleSplit(split int) error {
	a.grow(split + 1)
	return a.ProcessWatermark(a.wm.MarkIdle(split))
}

// SetExpression makes the assigner take each row's watermark candidate from
// expr instead of the rowtime column (the watermark's delay must then be 0).
func (a *WatermarkAssigner) SetExpression(expr expr.Expr, mem memory.Allocator) {
	a.expr, a.mem = expr, mem
}

// NewWatermarkAssigner reads event time from column index and combines the
// splits' watermarks with wm.
func NewWatermarkAssigner(index int, wm *rowtime.CombinedWatermark, next pipeline.Operator) *WatermarkAssigner {
	return &WatermarkAssigner{index: index, wm: wm, next: next, last: rowtime.MinWatermark}
}

// SelectSplit says that the batches that follow come from split.
func (a *WatermarkAssigner) SelectSplit(split int) {
	a.grow(split + 1)
	a.split = split
}

// Refresh is called when a followed source has nothing new: it registers
// the splits the source added (it now has n) and forwards the watermark if
// splits that went idle were holding it back.
func (a *WatermarkAssigner) Refresh(n int) error {
	a.grow(n)
	return a.ProcessWatermark(a.wm.Refresh())
}

// grow adds splits to the combined watermark until it has n.
func (a *WatermarkAssigner) grow(n int) {
	for a.wm.NumSplits() < n {
		a.wm.AddSplit()
	}
}

// EndSplit says that split delivers no more rows and forwards the watermark
// if the split was holding it back.
func (a *WatermarkAssigner) EndSplit(split int) error {
	return a.ProcessWatermark(a.wm.EndSplit(split))
}

// ProcessBatch attaches the per-row watermarks and forwards the batch, then
// the watermark after its last row.
func (a *WatermarkAssigner) ProcessBatch(b pipeline.Batch) error {
	n := int(b.Record.NumRows())
	if n == 0 {
		return nil
	}
	if cap(a.perRow) < n {
		a.perRow = make([]int64, n)
	}
	if a.future != nil {
		kept, err := a.future.filter(b.Record, a.index, a.split)
		if err == nil {
			err = a.future.err()
		}
		if err != nil {
			return err
		}
		if kept != b.Record {
			defer kept.Release()
			b.Record = kept
			if n = int(kept.NumRows()); n == 0 {
				return nil
			}
		}
	}
	if a.fromSource {
		after := a.wm.Arrive(a.split, n, a.perRow)
		if err := a.next.ProcessBatch(pipeline.Batch{Record: b.Record, Watermarks: a.perRow[:n]}); err != nil {
			return err
		}
		return a.ProcessWatermark(after)
	}
	var ts []int64
	var err error
	if a.expr != nil {
		ts, err = a.candidates(b.Record)
	} else {
		ts, err = rowtime.Millis(b.Record.Column(a.index))
	}
	if err != nil {
		return err
	}
	after := a.wm.Assign(a.split, ts, a.perRow[:n])
	if err := a.next.ProcessBatch(pipeline.Batch{Record: b.Record, Watermarks: a.perRow[:n]}); err != nil {
		return err
	}
	return a.ProcessWatermark(after)
}

// candidates evaluates the watermark expression for a batch; NULL becomes
// the start of time, which never raises the maximum.
func (a *WatermarkAssigner) candidates(rec arrow.RecordBatch) ([]int64, error) {
	arr, err := a.expr.Eval(rec, a.mem)
	if err != nil {
		return nil, err
	}
	defer arr.Release()
	col, ok := arr.(*array.Timestamp)
	if !ok {
		return nil, fmt.Errorf("watermark expression %s gives %s, not a timestamp", a.expr, arr.DataType())
	}
	n := col.Len()
	if cap(a.cands) < n {
		a.cands = make([]int64, n)
	}
	out := a.cands[:n]
	for i, v := range col.TimestampValues() {
		out[i] = int64(v)
		if col.IsNull(i) {
			out[i] = rowtime.MinWatermark
		}
	}
	return out, nil
}

// ProcessWatermark forwards a watermark if it advances time.
func (a *WatermarkAssigner) ProcessWatermark(wm int64) error {
	if wm <= a.last {
		return nil
	}
	a.last = wm
	return a.next.ProcessWatermark(wm)
}

// ProcessEnd forwards the end of input.
func (a *WatermarkAssigner) ProcessEnd() error {
	if a.future != nil {
		if err := a.future.close(); err != nil {
			return err
		}
	}
	return a.next.ProcessEnd()
}

// FutureSkipped counts the rows dropped as bad event times: outside the
// accepted range or beyond 'scan.watermark.max-future'.
func (a *WatermarkAssigner) FutureSkipped() int64 {
	if a.future == nil {
		return 0
	}
	return a.future.skipped
}

// Close closes a bad-rows file the assigner opened itself.
func (a *WatermarkAssigner) Close() {
	if a.future != nil {
		a.future.close()
	}
}

// Watermark returns the current watermark.
func (a *WatermarkAssigner) Watermark() int64 { return a.last }

var _ pipeline.Operator = (*WatermarkAssigner)(nil)

// saveState writes the watermarks: the last one forwarded, every split's
// and what 'scan.watermark.max-future' has accepted per split.
func (a *WatermarkAssigner) saveState(e *checkpoint.Encoder) {
	e.Int(a.last)
	e.Int(int64(a.split))
	a.wm.SaveState(e)
	e.Bool(a.future != nil)
	if a.future != nil {
		e.Int(a.future.bound)
		checkpoint.Ints(e, a.future.splitMax)
		e.Int(a.future.skipped)
	}
}

// restoreState reads what saveState wrote into a new assigner over the
// same splits.
func (a *WatermarkAssigner) restoreState(d *checkpoint.Decoder) {
	a.last = d.Int()
	a.split = int(d.Int())
	a.wm.RestoreState(d)
	if has := d.Bool(); has != (a.future != nil) {
		d.Fail("the check of event times was added or removed")
		return
	}
	if a.future != nil {
		if bound := d.Int(); bound != a.future.bound && d.Err() == nil {
			d.Fail("'scan.watermark.max-future' was %d ms, now %d ms", bound, a.future.bound)
			return
		}
		a.future.splitMax = checkpoint.ReadInts[int64](d)
		a.future.skipped = d.Int()
	}
	if d.Err() == nil && (a.split < 0 || a.split >= max(1, a.wm.NumSplits())) {
		d.Fail("split %d of %d", a.split, a.wm.NumSplits())
	}
}
