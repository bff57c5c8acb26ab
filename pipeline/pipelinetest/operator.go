package pipelinetest

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestOperator checks the operator h builds against each rule of the
// pipeline.Operator contract, one subtest per rule. Every run also checks
// that the Arrow memory of the run is all released once the operator is
// closed and the inputs and outputs are released.
func TestOperator(t *testing.T, h Harness) {
	t.Helper()
	ref := run(t, h, runConfig{keepInputs: true, steps: -1})
	if ref.err != nil {
		t.Fatalf("the sample input failed: %v", ref.err)
	}
	t.Run("Ownership", func(t *testing.T) { testOwnership(t, h, ref) })
	t.Run("Order", func(t *testing.T) { testOrder(t, h, ref) })
	t.Run("EndOfInput", func(t *testing.T) { testEndOfInput(t, h, ref) })
	t.Run("Errors", func(t *testing.T) { testErrors(t, h, ref) })
	t.Run("Close", func(t *testing.T) { testClose(t, h) })
}

// testOwnership: ProcessBatch borrows its batch, so releasing each input
// (its memory overwritten) right after the call changes no output; the
// batches passed downstream stay valid while the downstream holds them and
// are released by the operator (the run's memory ends at zero).
func testOwnership(t testing.TB, h Harness, ref runResult) {
	got := run(t, h, runConfig{steps: -1})
	if got.err != nil {
		t.Fatalf("with each input released after its call: %v", got.err)
	}
	sameEvents(t, "each input released after its call", ref.events, got.events)
}

// testOrder: watermarks reach the downstream only advancing (the recorder
// checks every run), a stale watermark is ignored, and a result reaches the
// downstream before a watermark that completes it (Harness.ResultTime).
func testOrder(t testing.TB, h Harness, ref runResult) {
	got := run(t, h, runConfig{keepInputs: true, stale: true, steps: -1})
	if got.err != nil {
		t.Fatalf("with stale watermarks: %v", got.err)
	}
	sameEvents(t, "each watermark repeated and followed by a smaller one", ref.events, got.events)
}

// testEndOfInput: ProcessEnd is forwarded once, as the last call, after
// every result; an empty input ends the same way.
func testEndOfInput(t testing.TB, h Harness, ref runResult) {
	if h.Sink {
		if ref.ends != 0 {
			t.Errorf("a sink forwarded ProcessEnd %d times; it has no downstream", ref.ends)
		}
		return
	}
	if ref.ends != 1 {
		t.Errorf("ProcessEnd forwarded %d times, want once", ref.ends)
	}
	if len(ref.events) == 0 || ref.events[len(ref.events)-1] != "end" {
		t.Errorf("ProcessEnd is not the last call downstream: %v", ref.events)
	}
	empty := h
	empty.Input = func(memory.Allocator) []Step { return nil }
	got := run(t, empty, runConfig{steps: -1})
	if got.err != nil {
		t.Fatalf("empty input: %v", got.err)
	}
	if got.ends != 1 || got.events[len(got.events)-1] != "end" {
		t.Errorf("empty input: ProcessEnd forwarded %d times, calls %v", got.ends, got.events)
	}
}

// testErrors: an error of the downstream, at any of its calls, comes back
// from the operator (first error stops the pipeline: no further downstream
// call), and Close after it releases everything; so does the operator's
// own error on Harness.FailingInput.
func testErrors(t testing.TB, h Harness, ref runResult) {
	for k := 1; k <= ref.calls; k++ {
		got := run(t, h, runConfig{failAt: k, steps: -1})
		if !errors.Is(got.err, errInjected) {
			t.Errorf("downstream failing at call %d of %d: the operator returned %v, not the downstream's error", k, ref.calls, got.err)
		}
	}
	if h.FailingInput != nil {
		got := run(t, h, runConfig{failing: true, steps: -1})
		if got.err == nil {
			t.Errorf("the failing input gave no error")
		}
	}
}

// testClose: Close at any point of the stream (before any input, after
// each step, before ProcessEnd) releases everything, may be called twice,
// and closes nothing downstream (the recorder checks every run).
func testClose(t testing.TB, h Harness) {
	mem := newAllocator()
	steps := h.Input(mem)
	for _, st := range steps {
		if st.isBatch() {
			st.Batch.Record.Release()
		}
	}
	for n := 0; n <= len(steps); n++ {
		run(t, h, runConfig{steps: n})
	}
}

// sameEvents fails when a variant run's downstream calls differ from the
// reference run's.
func sameEvents(t testing.TB, variant string, want, got []string) {
	t.Helper()
	if slices.Equal(want, got) {
		return
	}
	t.Errorf("%s changed what reached the downstream:\nwant:\n%s\ngot:\n%s", variant, strings.Join(want, "\n"), strings.Join(got, "\n"))
}
