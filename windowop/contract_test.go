package windowop

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
)

// The contract between the WindowOperator and its parts, pinned with fakes
// that record every call (in the spirit of Flink's WindowOperatorContractTest).

// fakeAssigner puts each row in a pane of 10 and each pane in two windows
// 20 long, [p-10, p+10) and [p, p+20), in the order their timers fire.
type fakeAssigner struct{}

func (fakeAssigner) String() string       { return "fake" }
func (fakeAssigner) Pane() (int64, int64) { return 10, 0 }
func (fakeAssigner) WindowsOfPane(p int64, dst []Window) []Window {
	return append(dst, Window{p - 10, p + 10}, Window{p, p + 20})
}

// recordingTrigger fires on its own timer and records each call.
type recordingTrigger struct {
	calls  []string
	onTime TriggerResult
}

func (r *recordingTrigger) OnElement(w Window, ctx TriggerContext) TriggerResult {
	r.calls = append(r.calls, fmt.Sprintf("element %v", w))
	ctx.RegisterEventTimeTimer(w.MaxTimestamp())
	return Continue
}

func (r *recordingTrigger) OnEventTime(t int64, w Window, ctx TriggerContext) TriggerResult {
	r.calls = append(r.calls, fmt.Sprintf("time %d %v wm=%d", t, w, ctx.CurrentWatermark()))
	if t == w.MaxTimestamp() {
		return r.onTime
	}
	return Continue
}

func (r *recordingTrigger) String() string { return "recording" }

// recordingAcc wraps COUNT(*) and records calls that cross the interface.
type recordingAcc struct {
	countAcc
	calls []string
}

func (r *recordingAcc) update(col arrow.Array, slots []int32, from, to int) {
	r.calls = append(r.calls, fmt.Sprintf("update rows %d..%d", from, to))
	r.countAcc.update(col, slots, from, to)
}
func (r *recordingAcc) merge(dst, src int32) {
	r.calls = append(r.calls, "merge")
	r.countAcc.merge(dst, src)
}
func (r *recordingAcc) reset(s int32) {
	r.calls = append(r.calls, "reset")
	r.countAcc.reset(s)
}

type contractHarness struct {
	mem     *memory.CheckedAllocator
	op      *WindowOperator
	rec     *recorder
	trigger *recordingTrigger
	acc     *recordingAcc
}

func newContractHarness(t *testing.T, onTime TriggerResult) *contractHarness {
	h := &contractHarness{mem: memory.NewCheckedAllocator(memory.NewGoAllocator()), rec: &recorder{},
		trigger: &recordingTrigger{onTime: onTime}, acc: &recordingAcc{countAcc: countAcc{star: true}}}
	cfg := Config{Input: clickSchema, RowtimeIndex: 0, KeyIndexes: []int{1}, Assigner: fakeAssigner{},
		Trigger: h.trigger, GapIndex: -1, Aggs: []AggSpec{{Kind: CountStar, Name: "n"}}}
	op, err := NewWindowOperator(cfg, h.mem, h.rec)
	require.NoError(t, err)
	// swap in the recording accumulator (same type of state)
	op.accs[0] = h.acc
	op.slots.accs = op.accs
	h.op = op
	return h
}

func (h *contractHarness) batch(t *testing.T, wms []int64, rows ...click) {
	b := clickBatch(t, h.mem, rows)
	defer b.Release()
	require.NoError(t, h.op.ProcessBatch(pipeline.Batch{Record: b, Watermarks: wms}))
}

func (h *contractHarness) close(t *testing.T) {
	h.op.Close()
	h.mem.AssertSize(t, 0)
}

func TestContractTriggerSeesEachWindowOnceNotEachRow(t *testing.T) {
	h := newContractHarness(t, Fire)
	defer h.close(t)
	h.batch(t, nil, click{ts: 1, usr: "a"}, click{ts: 2, usr: "a"}, click{ts: 3, usr: "a"}, click{ts: 4, usr: "b"})
	require.Equal(t, []string{
		"element {-10 10}", "element {0 20}", // key a's pane opens two windows
		"element {-10 10}", "element {0 20}", // key b's pane
	}, h.trigger.calls)
	require.Equal(t, []string{"update rows 0..4"}, h.acc.calls, "one accumulator call for the whole batch")
}

func TestContractTimersFireInOrderAndResultsPrecedeWatermark(t *testing.T) {
	h := newContractHarness(t, Fire)
	defer h.close(t)
	h.batch(t, nil, click{ts: 12, usr: "b"}, click{ts: 3, usr: "a"})
	h.trigger.calls, h.acc.calls = nil, nil
	require.NoError(t, h.op.ProcessWatermark(9))
	// due: only key a's window ending at 10 (key b's end at 20 and 30)
	require.Equal(t, []string{"time 9 {-10 10} wm=9"}, h.trigger.calls)
	require.Equal(t, []string{"row a -10 10 9 1", "wm 9"}, h.rec.events)
	require.Equal(t, 2, h.op.OpenWindows(), "key a's pane is still needed by [0,20)")
	h.trigger.calls = nil
	require.NoError(t, h.op.ProcessWatermark(29))
	// key b's row came first, so b's timers precede a's at the same time
	require.Equal(t, []string{
		"time 19 {0 20} wm=29",
		"time 19 {0 20} wm=29",
		"time 29 {10 30} wm=29",
	}, h.trigger.calls)
	require.Equal(t, []string{"row a -10 10 9 1", "wm 9", "row b 0 20 19 1", "row a 0 20 19 1", "row b 10 30 29 1", "wm 29"}, h.rec.events)
	require.Equal(t, 0, h.op.OpenWindows())
}

func TestContractFiringMergesPanes(t *testing.T) {
	h := newContractHarness(t, Fire)
	defer h.close(t)
	h.batch(t, nil, click{ts: 3, usr: "a"}, click{ts: 13, usr: "a"})
	h.acc.calls = nil
	require.NoError(t, h.op.ProcessWatermark(19))
	// window [0,20) merges panes 0 and 10 into a scratch slot
	require.Contains(t, h.acc.calls, "merge")
	require.Contains(t, h.rec.events, "row a 0 20 19 2")
}

func TestContractFireAndPurgeClearsState(t *testing.T) {
	h := newContractHarness(t, FireAndPurge)
	defer h.close(t)
	h.batch(t, nil, click{ts: 3, usr: "a"})
	require.NoError(t, h.op.ProcessWatermark(9))
	require.Equal(t, []string{"row a -10 10 9 1", "wm 9"}, h.rec.events)
	// purging a window frees the panes no later window needs: none here
	require.Equal(t, 1, h.op.OpenWindows())
	require.NoError(t, h.op.ProcessWatermark(19))
	require.Equal(t, 0, h.op.OpenWindows())
}

func TestContractEndOfInputFiresEverythingThenForwardsEnd(t *testing.T) {
	h := newContractHarness(t, Fire)
	defer h.close(t)
	h.batch(t, nil, click{ts: 3, usr: "a"})
	require.NoError(t, h.op.ProcessEnd())
	require.Equal(t, []string{"row a -10 10 9 1", "row a 0 20 19 1", "end"}, h.rec.events)
	require.Equal(t, 0, h.op.OpenWindows())
	require.Equal(t, 0, h.op.timers.Len())
}

// The operator borrows input batches: it keeps nothing after the call.
func TestContractInputIsBorrowed(t *testing.T) {
	h := newContractHarness(t, Fire)
	defer h.close(t)
	b := clickBatch(t, h.mem, []click{{ts: 3, usr: "a"}})
	require.NoError(t, h.op.ProcessBatch(pipeline.Batch{Record: b}))
	b.Release() // the caller's release frees everything: no hidden retain
	require.NoError(t, h.op.ProcessEnd())
	_ = array.NewInt64Builder // keep the import honest for future fakes
}
