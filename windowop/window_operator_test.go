package windowop

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
)

// run feeds rows through a fresh operator in batches of the given size, with
// per-row watermarks (delay ms) and a watermark after each batch, then ends
// the input. It returns everything the downstream saw and the stats.
func run(t *testing.T, cfg Config, rows []click, delay int64, batchSize int) ([]string, Stats) {
	t.Helper()
	var cuts []batchCut
	for i := batchSize; i < len(rows)+batchSize; i += batchSize {
		cuts = append(cuts, batchCut{end: min(i, len(rows)), watermark: true})
	}
	return runCuts(t, cfg, rows, delay, cuts)
}

// batchCut ends a batch before rows[end]; watermark forwards the watermark
// after it.
type batchCut struct {
	end       int
	watermark bool
}

// runCuts is run with the batches and watermarks the cuts say; rows after
// the last cut are not fed.
func runCuts(t *testing.T, cfg Config, rows []click, delay int64, cuts []batchCut) ([]string, Stats) {
	return runCutsRestoring(t, cfg, rows, delay, cuts, nil)
}

// runCutsRestoring is runCuts where, after each cut i with restore(i), the
// operator's state is snapshotted, the operator closed, and a new one
// restored from the snapshot carries on: as a restart from a checkpoint.
func runCutsRestoring(t *testing.T, cfg Config, rows []click, delay int64, cuts []batchCut, restore func(i int) bool) ([]string, Stats) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := &recorder{}
	op, err := NewWindowOperator(cfg, mem, rec)
	require.NoError(t, err)
	defer func() { op.Close() }()
	wm := int64(-1 << 63)
	start := 0
	for i, c := range cuts {
		part := rows[start:c.end]
		start = c.end
		perRow, after := watermarksFor(part, delay, wm)
		wm = after
		b := clickBatch(t, mem, part)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b, Watermarks: perRow}))
		b.Release()
		if c.watermark {
			require.NoError(t, op.ProcessWatermark(wm))
		}
		if restore != nil && restore(i) {
			op = snapshotAndRestore(t, op, cfg, mem, rec)
		}
	}
	require.NoError(t, op.ProcessEnd())
	return rec.events, op.Stats()
}

func TestTumbleCountAndSumPerKey(t *testing.T) {
	rows := []click{
		{ts: 1_000, usr: "alice", amount: 1.5},
		{ts: 2_000, usr: "bob", amount: 2},
		{ts: 59_999, usr: "alice", amount: 3},
		{ts: 60_000, usr: "alice", amount: 4}, // next window
		{ts: 61_000, usr: "bob", null: true},  // SUM ignores NULL
	}
	events, stats := run(t, tumbleConfig(t, 60_000), rows, 0, 4096)
	require.Equal(t, []string{
		// watermark 60000 passes maxTimestamp 59999 of the first windows:
		// they fire and go out before the watermark is forwarded.
		"row alice 0 60000 59999 2 4.5",
		"row bob 0 60000 59999 1 2",
		"wm 61000",
		"row alice 60000 120000 119999 1 4",
		"row bob 60000 120000 119999 1 NULL",
		"end",
	}, events)
	require.Equal(t, Stats{RowsIn: 5, LateRowsDropped: 0, ResultRows: 4}, stats)
}

func TestLateRowsAreDroppedAndCounted(t *testing.T) {
	rows := []click{
		{ts: 10_000, usr: "a", amount: 1},
		{ts: 70_000, usr: "a", amount: 1}, // watermark becomes 65000: window [0,60000) fires
		{ts: 30_000, usr: "a", amount: 1}, // late: cleanupTime 59999 <= 65000
		{ts: 64_999, usr: "a", amount: 1}, // on time for [60000,120000)
	}
	events, stats := run(t, tumbleConfig(t, 60_000), rows, 5_000, 1)
	require.Equal(t, int64(1), stats.LateRowsDropped)
	require.Equal(t, []string{
		"row a 0 60000 59999 1 1",
		"row a 60000 120000 119999 2 2",
	}, rowsOnly(events))
}

func TestRowAtWatermarkOnWindowMaxTimestampIsLate(t *testing.T) {
	// With delay 0, the second row raises the watermark to 9; a row with
	// ts 9 for window [0,10) then has cleanupTime 9 <= watermark 9: late.
	cfg := tumbleConfig(t, 10)
	rows := []click{{ts: 9, usr: "a", amount: 1}, {ts: 9, usr: "a", amount: 1}}
	events, stats := run(t, cfg, rows, 0, 1)
	require.Equal(t, int64(1), stats.LateRowsDropped)
	require.Equal(t, []string{"row a 0 10 9 1 1"}, rowsOnly(events))
	// One row earlier in the same window is not late: watermark 8 < 9.
	rows = []click{{ts: 8, usr: "a", amount: 1}, {ts: 9, usr: "a", amount: 1}}
	_, stats = run(t, cfg, rows, 0, 1)
	require.Equal(t, int64(0), stats.LateRowsDropped)
}

func TestEndOfInputFlushesEveryWindow(t *testing.T) {
	rows := []click{{ts: 5, usr: "x", amount: 1}, {ts: 1_000_000, usr: "y", amount: 2}}
	events, _ := run(t, tumbleConfig(t, 60_000), rows, 10_000_000, 4096)
	// the delay is so large that nothing fires before the end of input
	require.Equal(t, []string{
		"wm -9000000",
		"row x 0 60000 59999 1 1",
		"row y 960000 1020000 1019999 1 2",
		"end",
	}, events)
}

func TestResultsDoNotDependOnBatchSize(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 11))
	var rows []click
	ts := int64(-30_000) // cross zero: negative window starts too
	for i := 0; i < 3000; i++ {
		ts += int64(rnd.IntN(200))
		jitter := int64(rnd.IntN(4000))
		rows = append(rows, click{
			ts:     ts - jitter,
			usr:    "u" + strconv.Itoa(rnd.IntN(7)),
			amount: float64(rnd.IntN(100)),
			null:   rnd.IntN(20) == 0,
		})
	}
	cfg := tumbleConfig(t, 5_000)
	want, late := reference(refConfig{kind: "tumble", size: 5_000, delay: 1_500}, rows)
	for _, size := range []int{1, 3, 4096} {
		events, stats := run(t, cfg, rows, 1_500, size)
		require.Equal(t, want, rowsOnly(events), "batch size %d", size)
		require.Equal(t, late, stats.LateRowsDropped, "batch size %d", size)
	}
	require.Positive(t, late, "the data should contain late rows")
}

func TestGlobalWindowWithoutKeys(t *testing.T) {
	cfg := tumbleConfig(t, 10)
	cfg.KeyIndexes = nil
	rows := []click{{ts: 1, usr: "a", amount: 1}, {ts: 2, usr: "b", amount: 2}, {ts: 12, usr: "a", amount: 3}}
	events, _ := run(t, cfg, rows, 0, 2)
	require.Equal(t, []string{"row 0 10 9 2 3", "row 10 20 19 1 3"}, rowsOnly(events))
}

func rowsOnly(events []string) []string {
	return (&recorder{events: events}).rows()
}
