package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// watermarkInput gives a stage's expressions that call CURRENT_WATERMARK
// the watermark each row arrived under: the batch's per-row watermarks,
// or for a batch without them the last watermark the stage passed on. A
// nil *watermarkInput is a stage whose expressions do not read it.
type watermarkInput struct{ last int64 }

// newWatermarkInput returns the input when one of exprs reads the
// watermark, nil otherwise.
func newWatermarkInput(exprs ...expr.Expr) *watermarkInput {
	for _, e := range exprs {
		if e != nil && expr.ReadsWatermark(e) {
			return &watermarkInput{last: rowtime.MinWatermark}
		}
	}
	return nil
}

// record is the record the expressions are evaluated over: b's, with the
// watermark column when they read it. The caller releases it.
func (w *watermarkInput) record(b pipeline.Batch, mem memory.Allocator) arrow.RecordBatch {
	if w == nil {
		b.Record.Retain()
		return b.Record
	}
	return expr.WithWatermarks(b.Record, b.Watermarks, w.last, mem)
}

// advance notes a watermark the stage passed on.
func (w *watermarkInput) advance(wm int64) {
	if w != nil {
		w.last = wm
	}
}
