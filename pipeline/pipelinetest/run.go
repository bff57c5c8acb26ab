package pipelinetest

import (
	"math"
	"testing"

	"github.com/wsql/wsql/pipeline"
)

// runConfig says how one run drives the operator.
type runConfig struct {
	// keepInputs holds every input batch until after Close, instead of
	// releasing (and poisoning) it as soon as its call returns.
	keepInputs bool
	// stale adds, after every watermark of the input, the same watermark
	// again and one just below it.
	stale bool
	// failAt makes the downstream fail its failAt-th call (from 1).
	failAt int
	// steps processes only the first steps of the input and closes the
	// operator without ProcessEnd; -1 processes all of it, then the end.
	steps int
	// failing feeds Harness.FailingInput instead of Harness.Input.
	failing bool
}

// runResult is what one run saw.
type runResult struct {
	events []string // the downstream's calls, as text
	calls  int      // how many calls reached the downstream
	ends   int      // how many of them were ProcessEnd
	err    error    // the first error the operator returned
}

// staleWatermark overwrites a borrowed Watermarks slice after its call, so
// an operator that kept it without copying reads garbage.
const staleWatermark = math.MinInt64 + 0x5A5A

// run builds the operator, drives it as cfg says, stops at its first error
// as the driver does, closes it twice, and reports every breach of the
// contract the downstream saw and any Arrow memory left.
func run(t testing.TB, h Harness, cfg runConfig) runResult {
	t.Helper()
	mem := newAllocator()
	rec := &recorder{resultTime: h.ResultTime, failAt: cfg.failAt}
	op, err := h.New(mem, rec)
	if err != nil {
		t.Fatalf("building the operator: %v", err)
	}
	input := h.Input
	if cfg.failing {
		input = h.FailingInput
	}
	steps := input(mem)
	n := len(steps)
	if cfg.steps >= 0 {
		n = min(cfg.steps, n)
	}
	var res runResult
	released := make([]bool, len(steps))
	for i, st := range steps[:n] {
		if res.err = process(op, st, cfg); res.err != nil {
			break
		}
		if !cfg.keepInputs && st.isBatch() {
			st.Batch.Record.Release()
			for j := range st.Batch.Watermarks {
				st.Batch.Watermarks[j] = staleWatermark
			}
			released[i] = true
		}
	}
	if res.err == nil && cfg.steps < 0 {
		res.err = op.ProcessEnd()
	}
	op.Close()
	op.Close() // Close is idempotent
	for i, st := range steps {
		if st.isBatch() && !released[i] {
			st.Batch.Record.Release()
		}
	}
	rec.release()
	for _, p := range rec.problems {
		t.Error(p)
	}
	if left := mem.CurrentAlloc(); left != 0 {
		t.Errorf("%d bytes of Arrow memory still allocated after Close and the release of every input and output", left)
	}
	res.events, res.calls, res.ends = rec.events, rec.calls, rec.ends
	return res
}

// process makes the call of one step (with stale watermarks after a
// watermark, when asked for).
func process(op pipeline.Operator, st Step, cfg runConfig) error {
	if st.isBatch() {
		return op.ProcessBatch(st.Batch)
	}
	if err := op.ProcessWatermark(st.Watermark); err != nil || !cfg.stale {
		return err
	}
	if err := op.ProcessWatermark(st.Watermark); err != nil {
		return err
	}
	return op.ProcessWatermark(st.Watermark - 1)
}
