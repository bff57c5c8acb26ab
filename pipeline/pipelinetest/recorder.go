package pipelinetest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/pipeline"
)

// errInjected is the error a failing downstream returns.
var errInjected = errors.New("pipelinetest: downstream failed on purpose")

// recorder is the downstream of the operator under test. It writes every
// call it receives as a line of text, keeps (retains) every batch to check
// later that it stayed valid, fails its failAt-th call when set, and notes
// every breach of the contract it can see from downstream.
type recorder struct {
	events   []string
	problems []string

	resultTime func(rec arrow.RecordBatch, row int) int64

	kept []keptBatch

	calls  int
	failAt int // the call (from 1) that returns errInjected; 0 for none
	failed bool

	hasWM  bool
	lastWM int64
	ends   int
}

// keptBatch is a batch the recorder received, retained, with its text at
// the time of the call.
type keptBatch struct {
	rec  arrow.RecordBatch
	text string
}

func (r *recorder) problem(format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
}

// call counts a call and reports whether it must fail.
func (r *recorder) call(what string) bool {
	if r.failed {
		r.problem("%s called after the downstream failed: the first error stops the pipeline", what)
	}
	if r.ends > 0 {
		r.problem("%s called after ProcessEnd was forwarded", what)
	}
	r.calls++
	if r.calls == r.failAt {
		r.failed = true
		return true
	}
	return false
}

func (r *recorder) ProcessBatch(b pipeline.Batch) error {
	if r.call("ProcessBatch") {
		return fmt.Errorf("batch %d: %w", r.calls, errInjected)
	}
	if b.Record == nil {
		r.problem("ProcessBatch with a nil record")
		r.events = append(r.events, "batch <nil>")
		return nil
	}
	if int(b.Record.NumCols()) != b.Record.Schema().NumFields() {
		// a released record drops its columns
		r.problem("batch of %d fields has %d columns: it was released before it was passed downstream", b.Record.Schema().NumFields(), b.Record.NumCols())
	}
	n := int(b.Record.NumRows())
	if b.Watermarks != nil && len(b.Watermarks) != n {
		r.problem("batch of %d rows with %d row watermarks", n, len(b.Watermarks))
	}
	if r.resultTime != nil && r.hasWM {
		for row := range n {
			if t := r.resultTime(b.Record, row); t <= r.lastWM {
				r.problem("result row %d complete at %d arrived after watermark %d was forwarded", row, t, r.lastWM)
			}
		}
	}
	text := recordText(b.Record)
	r.events = append(r.events, fmt.Sprintf("batch %s watermarks=%v", text, b.Watermarks))
	// The recorder keeps the batch: if the operator released memory the
	// batch still points into, its text changes by the end of the run.
	b.Record.Retain()
	r.kept = append(r.kept, keptBatch{rec: b.Record, text: text})
	return nil
}

func (r *recorder) ProcessWatermark(wm int64) error {
	if r.call("ProcessWatermark") {
		return fmt.Errorf("watermark %d: %w", wm, errInjected)
	}
	if r.hasWM && wm <= r.lastWM {
		r.problem("watermark %d forwarded after %d: watermarks only advance, a stale one is ignored", wm, r.lastWM)
	}
	if !r.hasWM || wm > r.lastWM {
		r.lastWM = wm
	}
	r.hasWM = true
	r.events = append(r.events, fmt.Sprintf("watermark %d", wm))
	return nil
}

func (r *recorder) ProcessEnd() error {
	if r.call("ProcessEnd") {
		return fmt.Errorf("end: %w", errInjected)
	}
	r.ends++
	r.events = append(r.events, "end")
	return nil
}

func (r *recorder) Close() {
	r.problem("the operator closed its downstream: the driver closes each stage")
}

// release checks that every kept batch still reads as it did when it
// arrived, then releases them.
func (r *recorder) release() {
	for i, k := range r.kept {
		if now := recordText(k.rec); now != k.text {
			r.problem("output batch %d changed after the call (it points into memory released since):\nat the call: %s\nnow:         %s", i, k.text, now)
		}
		k.rec.Release()
	}
	r.kept = nil
}

// recordText prints every value of rec; reading a batch over poisoned
// memory may panic, which is reported as its text.
func recordText(rec arrow.RecordBatch) (text string) {
	defer func() {
		if v := recover(); v != nil {
			text = fmt.Sprintf("<unreadable: %v>", v)
		}
	}()
	var b strings.Builder
	fmt.Fprintf(&b, "%d rows", rec.NumRows())
	for i, col := range rec.Columns() {
		fmt.Fprintf(&b, " %s=%s", rec.ColumnName(i), col)
	}
	return b.String()
}
