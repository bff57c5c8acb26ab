package windowop

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/internal/arrowtest"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// snapshotAndRestore closes op after snapshotting it and returns a new
// operator restored from the snapshot, writing to the same output.
func snapshotAndRestore(t *testing.T, op *WindowOperator, cfg Config, mem memory.Allocator, out pipeline.Operator) *WindowOperator {
	t.Helper()
	return restart(t, op, func() (*WindowOperator, error) { return NewWindowOperator(cfg, mem, out) })
}

// restartable is an operator a checkpoint can hold.
type restartable interface {
	SnapshotState(*checkpoint.Encoder) error
	RestoreState(*checkpoint.Decoder) error
	Close()
}

// restart snapshots op, closes it, and restores the snapshot into a fresh
// operator, which must snapshot the same bytes again.
func restart[T restartable](t *testing.T, op T, fresh func() (T, error)) T {
	t.Helper()
	var e checkpoint.Encoder
	require.NoError(t, op.SnapshotState(&e))
	op.Close()
	restored, err := fresh()
	require.NoError(t, err)
	d := checkpoint.NewDecoder(e.Data())
	require.NoError(t, restored.RestoreState(d))
	require.NoError(t, d.Finish())
	var again checkpoint.Encoder
	require.NoError(t, restored.SnapshotState(&again))
	require.Equal(t, e.Data(), again.Data(), "a restored operator snapshots the same state")
	return restored
}

// A run restarted from a snapshot after any batch gives the same results,
// watermarks and counters as an uninterrupted run: TUMBLE, HOP, CUMULATE
// and SESSION with lateness, early and late firing, over random streams.
func TestRestoreFromSnapshotContinuesTheRun(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 9))
	for i := range 400 {
		data := make([]byte, 20+rnd.IntN(400))
		for j := range data {
			data[j] = byte(rnd.Uint32())
		}
		data[0] = byte(i % 4) // every window kind in turn
		c, rows, cuts := fuzzWorkload(data)
		cfg := c.operatorConfig(t)
		want, wantStats := runCuts(t, cfg, rows, c.delay, cuts)
		every, everyStats := runCutsRestoring(t, cfg, rows, c.delay, cuts, func(int) bool { return true })
		require.Equal(t, want, every, "config %+v, restored after every batch", c)
		require.Equal(t, wantStats, everyStats, "config %+v", c)
		k := rnd.IntN(len(cuts))
		once, _ := runCutsRestoring(t, cfg, rows, c.delay, cuts, func(i int) bool { return i == k })
		require.Equal(t, want, once, "config %+v, restored after batch %d", c, k)
	}
}

// Keys of every kind keep their ids through a snapshot: one int key (the
// dense table and the map), NULL keys, and several key columns.
func TestKeyTableSnapshot(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ints := arrowtest.Array(t, mem, arrow.PrimitiveTypes.Int64, 5, 1<<40, -3, 5, nil)
	defer ints.Release()
	strs := arrowtest.Array(t, mem, arrow.BinaryTypes.String, "a", "b", "", "a", nil)
	defer strs.Release()
	bools := arrowtest.Array(t, mem, arrow.FixedWidthTypes.Boolean, true, false, true, true, nil)
	defer bools.Release()
	big := decimal128.New(1<<40, 7) // beyond 64 bits
	decs := arrowtest.Array(t, mem, &arrow.Decimal128Type{Precision: 38, Scale: 2}, 125, -125, big, 125, nil)
	defer decs.Release()

	for _, cols := range [][]arrow.Array{{ints}, {strs}, {decs}, {ints, strs, bools, decs}, {}} {
		types := make([]arrow.DataType, len(cols))
		for i, c := range cols {
			types[i] = c.DataType()
		}
		a, err := newKeyTable(types)
		require.NoError(t, err)
		ids := make([]uint32, 5)
		a.intern(cols, 5, ids)

		var e checkpoint.Encoder
		a.save(&e)
		b, err := newKeyTable(types)
		require.NoError(t, err)
		d := checkpoint.NewDecoder(e.Data())
		require.NoError(t, b.load(d, mem))
		require.NoError(t, d.Finish())
		require.Equal(t, a.n, b.n)
		again := make([]uint32, 5)
		b.intern(cols, 5, again)
		require.Equal(t, ids, again, "every key finds its old id")
		require.Equal(t, a.n, b.n, "and no key is new")
	}
	// DECIMAL keys (grouping by a DECIMAL was refused): equal values one
	// key, NULL one key, values given back as they came
	keys, err := newKeyTable([]arrow.DataType{decs.DataType()})
	require.NoError(t, err)
	ids := make([]uint32, 5)
	keys.intern([]arrow.Array{decs}, 5, ids)
	require.Equal(t, []uint32{0, 1, 2, 0, 3}, ids)
	out := array.NewDecimal128Builder(mem, decs.DataType().(*arrow.Decimal128Type))
	defer out.Release()
	keys.cols[0].appendTo([]uint32{2, 1, 3}, out)
	got := out.NewDecimal128Array()
	defer got.Release()
	require.Equal(t, big, got.Value(0))
	require.Equal(t, "-1.25", got.ValueStr(1))
	require.True(t, got.IsNull(2))
}

// A truncated or altered window state is refused, never half-loaded into
// a panic.
func TestRestoreRefusesDamagedState(t *testing.T) {
	data := []byte{3, 7, 0, 3, 5, 1, 0, 2, 20, 1, 1, 1, 0, 236, 1, 3, 2, 0, 5, 40, 2, 0}
	for kind := range byte(4) {
		data[0] = kind
		c, rows, _ := fuzzWorkload(data)
		cfg := c.operatorConfig(t)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		op, err := NewWindowOperator(cfg, mem, &recorder{})
		require.NoError(t, err)
		b := clickBatch(t, mem, rows)
		perRow, _ := watermarksFor(rows, c.delay, -1<<63)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b, Watermarks: perRow}))
		b.Release()
		var e checkpoint.Encoder
		require.NoError(t, op.SnapshotState(&e))
		op.Close()
		state := e.Data()
		for n := range len(state) {
			r, err := NewWindowOperator(cfg, mem, &recorder{})
			require.NoError(t, err)
			d := checkpoint.NewDecoder(state[:n])
			err = r.RestoreState(d)
			if err == nil {
				err = d.Finish()
			}
			require.Errorf(t, err, "%s state cut to %d of %d bytes", c.kind, n, len(state))
			r.Close()
		}
		mem.AssertSize(t, 0)
	}
}

// A pending periodic firing survives a restore: the armed window fires
// when the processing-time clock reaches its timer, as it would have.
func TestRestoreKeepsPeriodicFirings(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	clock := rowtime.NewManualClock(time.UnixMilli(0))
	cfg := tumbleConfig(t, 10)
	cfg.Clock = clock
	cfg.Emit = EmitStrategy{EarlyFire: true, EarlyFireDelay: 10}
	rec := &recorder{}
	op, err := NewWindowOperator(cfg, mem, rec)
	require.NoError(t, err)
	feed := func(rows ...click) {
		b := clickBatch(t, mem, rows)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b, Watermarks: make([]int64, len(rows))}))
		b.Release()
	}
	feed(click{ts: 1, usr: "a", amount: 1}, click{ts: 2, usr: "a", amount: 1}) // arms a timer at 10 ms
	defer func() { op.Close() }()
	op = snapshotAndRestore(t, op, cfg, mem, rec)
	clock.Advance(12 * time.Millisecond)
	feed(click{ts: 4, usr: "a", amount: 1}) // the restored timer fires first
	require.Equal(t, []string{"row +I a 0 10 9 2 2"}, rec.events)
	op = snapshotAndRestore(t, op, cfg, mem, rec)
	require.NoError(t, op.ProcessEnd())
	require.Equal(t, []string{"row +I a 0 10 9 2 2", "row -U a 0 10 9 2 2", "row +U a 0 10 9 3 3", "end"}, rec.events)
}

// FuzzRestoreState feeds arbitrary bytes to RestoreState, seeded with real
// snapshots of every window kind: it must refuse what does not fit with an
// error, never panic, and an operator it accepts must run on without
// panicking.
func FuzzRestoreState(f *testing.F) {
	seed := []byte{0, 9, 0, 5, 0, 10, 3, 1, 7, 0x11, 0, 250, 2, 3, 40, 0x91, 1, 200, 3, 0}
	for kind := range byte(4) {
		data := append([]byte{kind}, seed[1:]...)
		c, rows, _ := fuzzWorkload(data)
		state := snapshotAfter(f, c.operatorConfig(&testing.T{}), rows, c.delay)
		f.Add(kind, state)
	}
	f.Fuzz(func(t *testing.T, kind byte, state []byte) {
		data := append([]byte{kind % 4}, seed[1:]...)
		c, rows, _ := fuzzWorkload(data)
		cfg := c.operatorConfig(t)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		op, err := NewWindowOperator(cfg, mem, &recorder{})
		require.NoError(t, err)
		defer op.Close()
		d := checkpoint.NewDecoder(state)
		if err := op.RestoreState(d); err != nil || d.Finish() != nil {
			return
		}
		b := clickBatch(t, mem, rows)
		defer b.Release()
		perRow, _ := watermarksFor(rows, c.delay, op.watermark)
		if op.ProcessBatch(pipeline.Batch{Record: b, Watermarks: perRow}) == nil {
			_ = op.ProcessEnd()
		}
	})
}

// snapshotAfter returns the state of an operator that processed rows.
func snapshotAfter(f *testing.F, cfg Config, rows []click, delay int64) []byte {
	t := &testing.T{}
	mem := memory.NewGoAllocator()
	op, err := NewWindowOperator(cfg, mem, &recorder{})
	require.NoError(f, err)
	defer op.Close()
	b := clickBatch(t, mem, rows)
	perRow, _ := watermarksFor(rows, delay, -1<<63)
	require.NoError(f, op.ProcessBatch(pipeline.Batch{Record: b, Watermarks: perRow}))
	b.Release()
	var e checkpoint.Encoder
	require.NoError(f, op.SnapshotState(&e))
	return e.Data()
}
