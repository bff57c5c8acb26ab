package joinop

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/rowkind"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// stepper drives a join an event at a time and tells each event's output.
type stepper struct {
	t   *testing.T
	mem *memory.CheckedAllocator
	op  Operator
	rec *recorder
	cfg Config
}

func newStepper(t *testing.T, cfg Config) *stepper {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	rec := &recorder{}
	op, err := New(cfg, mem, rec)
	require.NoError(t, err)
	st := &stepper{t: t, mem: mem, op: op, rec: rec, cfg: cfg}
	t.Cleanup(func() {
		op.Close()
		mem.AssertSize(t, 0)
	})
	return st
}

// step feeds one event and returns what it emitted.
func (st *stepper) step(input int, kind rowkind.Kind, k, v int64) []string {
	schema := st.cfg.Left
	if input == 1 {
		schema = st.cfg.Right
	}
	in := regularBatchOf(st.mem, schema, []event{{input: input, kind: kind, row: row{k: k, v: v}}})
	defer in.Release()
	st.rec.rows = nil
	require.NoError(st.t, st.op.ProcessInput(input, pipeline.Batch{Record: in}))
	return st.rec.rows
}

const (
	left, right = 0, 1
	ins, del    = rowkind.Insert, rowkind.Delete
	ub, ua      = rowkind.UpdateBefore, rowkind.UpdateAfter
)

// A FULL OUTER join's padded rows come and go as matches do, in Flink's
// order: a padded row is taken back before the first joined row, and
// comes back after the last one goes.
func TestFullOuterJoinPadsAsFlink(t *testing.T) {
	st := newStepper(t, shape{update: [2]bool{true, true}}.config(FullOuter))
	require.Equal(t, []string{"+I 1 10 (null) (null)"}, st.step(left, ins, 1, 10))
	require.Equal(t, []string{"+I 1 11 (null) (null)"}, st.step(left, ins, 1, 11))
	require.Equal(t, []string{"-D 1 10 (null) (null)", "-D 1 11 (null) (null)", "+I 1 10 1 20", "+I 1 11 1 20"},
		st.step(right, ins, 1, 20))
	require.Equal(t, []string{"+I 1 10 1 21", "+I 1 11 1 21"}, st.step(right, ua, 1, 21))
	require.Equal(t, []string{"-D 1 10 1 20", "-D 1 10 1 21"}, st.step(left, ub, 1, 10))
	require.Equal(t, []string{"-D 1 11 1 20"}, st.step(right, del, 1, 20))
	require.Equal(t, []string{"-D 1 11 1 21", "+I (null) (null) 1 21"},
		st.step(left, del, 1, 11))
	require.Equal(t, []string{"+I (null) (null) 2 5"}, st.step(right, ins, 2, 5))
}

// An INNER join of update streams passes its input's kind on; a join of
// append-only inputs emits inserts without a kind column.
func TestInnerJoinKinds(t *testing.T) {
	st := newStepper(t, shape{update: [2]bool{true, false}}.config(Inner))
	require.Empty(t, st.step(right, ins, 1, 1))
	require.Equal(t, []string{"+U 1 2 1 1"}, st.step(left, ua, 1, 2))
	require.Equal(t, []string{"-U 1 2 1 1"}, st.step(left, ub, 1, 2))
	// a retraction of a row not kept still retracts its joined rows, as
	// in Flink (the state of an update stream may have expired)
	require.Equal(t, []string{"-U 1 2 1 1"}, st.step(left, ub, 1, 2))

	st = newStepper(t, shape{}.config(Inner))
	require.Empty(t, st.step(left, ins, 1, 1))
	require.Equal(t, []string{"1 1 1 2"}, st.step(right, ins, 1, 2))
}

// SEMI passes the right row's kind to the left row its first match makes
// appear; ANTI takes the left row back with -D and brings it back with +I.
func TestSemiAntiKinds(t *testing.T) {
	semi := newStepper(t, shape{update: [2]bool{false, true}}.config(Semi))
	anti := newStepper(t, shape{update: [2]bool{false, true}}.config(Anti))
	require.Empty(t, semi.step(left, ins, 1, 1))
	require.Equal(t, []string{"+I 1 1"}, anti.step(left, ins, 1, 1))
	require.Equal(t, []string{"+U 1 1"}, semi.step(right, ua, 1, 7))
	require.Equal(t, []string{"-D 1 1"}, anti.step(right, ua, 1, 7))
	require.Empty(t, semi.step(right, ins, 1, 8))
	require.Empty(t, anti.step(right, ins, 1, 8))
	require.Equal(t, []string{"+I 1 2"}, semi.step(left, ins, 1, 2))
	require.Empty(t, anti.step(left, ins, 1, 2))
	require.Empty(t, semi.step(right, ub, 1, 7))
	require.Empty(t, anti.step(right, ub, 1, 7))
	require.Equal(t, []string{"-D 1 1", "-D 1 2"}, semi.step(right, del, 1, 8))
	require.Equal(t, []string{"+I 1 1", "+I 1 2"}, anti.step(right, del, 1, 8))
}

// Watermarks pass on when they advance, after the rows before them; the
// end passes on.
func TestRegularJoinForwardsWatermarks(t *testing.T) {
	st := newStepper(t, shape{}.config(Inner))
	require.NoError(t, st.op.ProcessWatermark(5))
	require.NoError(t, st.op.ProcessWatermark(5))
	require.NoError(t, st.op.ProcessWatermark(3))
	require.NoError(t, st.op.ProcessWatermark(9))
	require.NoError(t, st.op.ProcessEnd())
	require.Equal(t, []int64{5, 9}, st.rec.watermarks)
	require.True(t, st.rec.ended)
}

// A kept row expires once the TTL has passed since it was last written:
// a match read does not write an inner side's row, a new match writes an
// outer side's row (its count of matches); expired rows are counted, and
// a retraction of an expired row finds nothing to take back.
func TestRegularJoinStateTTL(t *testing.T) {
	clock := rowtime.NewManualClock(time.UnixMilli(1_000_000))
	cfg := shape{update: [2]bool{true, true}, ttl: 100}.config(LeftOuter)
	cfg.Clock = clock
	st := newStepper(t, cfg)
	require.Equal(t, []string{"+I 1 1 (null) (null)"}, st.step(left, ins, 1, 1))
	clock.Advance(60 * time.Millisecond)
	require.Equal(t, []string{"-D 1 1 (null) (null)", "+I 1 1 1 2"}, st.step(right, ins, 1, 2)) // writes L(1,1)
	clock.Advance(60 * time.Millisecond)
	// L(1,1) written at 60 lives; R(1,2) written at 60 too
	require.Equal(t, []string{"+I 1 3 1 2"}, st.step(left, ins, 1, 3))
	clock.Advance(50 * time.Millisecond)
	// 170: L(1,1) (written at 60) is gone, L(1,3) (at 120) lives
	require.Equal(t, []string{"+I 1 3 1 4"}, st.step(right, ins, 1, 4))
	require.Equal(t, int64(1), st.op.Stats().ExpiredRows)
	// R(1,2) (at 60) is gone too; the retraction of L(1,1), no longer
	// kept, still takes back its joined row with R(1,4), as in Flink
	require.Equal(t, []string{"-D 1 1 1 4"}, st.step(left, del, 1, 1))
	require.Equal(t, int64(2), st.op.Stats().ExpiredRows)

	// an inner join's row is not written by being read
	cfg = shape{ttl: 100}.config(Inner)
	cfg.Clock = clock
	st = newStepper(t, cfg)
	require.Empty(t, st.step(left, ins, 1, 1))
	clock.Advance(60 * time.Millisecond)
	require.Equal(t, []string{"1 1 1 2"}, st.step(right, ins, 1, 2))
	clock.Advance(39 * time.Millisecond)
	require.Equal(t, []string{"1 1 1 3"}, st.step(right, ins, 1, 3)) // L(1,1) read, not written
	clock.Advance(1 * time.Millisecond)
	// 100: L(1,1) goes (the TTL is up at 100), swept
	require.Equal(t, []string{"1 4 1 2", "1 4 1 3"}, st.step(left, ins, 1, 4))
	require.Equal(t, int64(1), st.op.Stats().ExpiredRows)
	clock.Advance(100 * time.Millisecond)
	require.Empty(t, st.step(left, ins, 2, 5)) // the sweep takes every old row
	require.Equal(t, int64(4), st.op.Stats().ExpiredRows)
}

// A key whose rows all went is forgotten at the end of the batch; it
// joins again when its rows come back.
func TestRegularJoinForgetsEmptyKeys(t *testing.T) {
	st := newStepper(t, shape{update: [2]bool{true, true}}.config(Inner))
	keys := st.op.(*regularJoin).keys
	st.step(left, ins, 1, 1)
	st.step(right, ins, 2, 1)
	require.Len(t, keys.ints, 2)
	st.step(left, del, 1, 1)
	require.Len(t, keys.ints, 1)
	st.step(right, del, 2, 1)
	require.Empty(t, keys.ints)
	st.step(left, ins, 2, 5)
	require.Equal(t, []string{"+I 2 5 2 6"}, st.step(right, ins, 2, 6))
}

// A residual condition of columns, literals and operators has only its
// columns gathered for the candidate pairs (kept apart when the others
// hold strings); one the join cannot see into has whole rows.
func TestResidualGathersWhatItReads(t *testing.T) {
	st := newStepper(t, shape{residual: 1, stringKey: true}.config(Inner))
	j := st.op.(*regularJoin)
	require.Equal(t, []int{1}, j.sides[0].residual.cols)
	require.Equal(t, []int{1}, j.sides[1].residual.cols)
	require.Equal(t, "null", j.pairSchema.Field(0).Type.String())
	st = newStepper(t, shape{residual: 3, stringKey: true}.config(Inner))
	require.Nil(t, st.op.(*regularJoin).sides[0].residual)
	// Sides of fixed widths keep no columns apart, but their rows gather
	// only the columns read for the pairs too.
	st = newStepper(t, shape{residual: 1}.config(Inner))
	j = st.op.(*regularJoin)
	require.Nil(t, j.sides[0].residual)
	require.Equal(t, []int{1}, j.sides[0].residualCols)
	require.Equal(t, "null", j.pairSchema.Field(0).Type.String())
}

// A retraction of a key never kept, or a row whose key is NULL, leaves no
// key behind.
func TestRegularJoinNumbersNoKeyItDoesNotKeep(t *testing.T) {
	st := newStepper(t, shape{update: [2]bool{true, true}, stringKey: true}.config(LeftOuter))
	keys := st.op.(*regularJoin).keys
	st.step(left, del, 1, 1)
	st.step(right, ub, 2, 1)
	require.Empty(t, keys.strs)
	require.Equal(t, []string{"+I (null) 1 (null) (null)"}, st.stepNull(left, ins, 1))
	require.Empty(t, keys.strs)
}

// stepNull feeds a row of NULL key.
func (st *stepper) stepNull(input int, kind rowkind.Kind, v int64) []string {
	schema := st.cfg.Left
	if input == 1 {
		schema = st.cfg.Right
	}
	in := regularBatchOf(st.mem, schema, []event{{input: input, kind: kind, row: row{kNull: true, v: v}}})
	defer in.Release()
	st.rec.rows = nil
	require.NoError(st.t, st.op.ProcessInput(input, pipeline.Batch{Record: in}))
	return st.rec.rows
}
