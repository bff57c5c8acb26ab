package joinop

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// runTimeJoinRowWatermarks is runTimeJoin recording each output row's
// watermark.
func runTimeJoinRowWatermarks(t testing.TB, cfg Config, events []tjEvent, size int) *wmRecorder {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	out := newWmRecorder()
	op, err := New(cfg, mem, out)
	require.NoError(t, err)
	defer op.Close()
	feed(t, op, mem, cfg, events, size)
	require.NoError(t, op.ProcessEnd())
	return out
}

// An interval join's rows go out under the watermark held back from the
// one they were made under: a row's joined and padded rows under the
// row's, the rows a row's watermark expired under the one before it.
func TestIntervalJoinRowWatermarks(t *testing.T) {
	cfg := intervalConfig(LeftOuter, -2, 2, false) // held back by 2
	events := []tjEvent{
		{row: &tjRow{side: 0, k: 1, t: 10, w: 5}},
		{row: &tjRow{side: 0, k: 2, t: 10, w: 5}},
		{row: &tjRow{side: 1, k: 1, t: 11, w: 8}},  // joins (1, 10) under 8
		{row: &tjRow{side: 0, k: 1, t: 20, w: 20}}, // expires (2, 10), padded under 8
		{wm: 30}, // expires (1, 20), padded under 20
	}
	for _, size := range []int{1, 3, 4096} {
		out := runTimeJoinRowWatermarks(t, cfg, events, size)
		require.Equal(t, []string{
			"1 1970-01-01T00:00:00.01 0 1 1970-01-01T00:00:00.011 0",
			"2 1970-01-01T00:00:00.01 0 (null) (null) (null)",
			"1 1970-01-01T00:00:00.02 0 (null) (null) (null)",
		}, out.rows)
		require.Equal(t, []int64{6, 6, 18}, out.wms, "batches of %d", size)
		out.checkWatermarksForwarded(t)
	}
}

// Over random streams the interval join's rows and their watermarks are
// the same at batches of 1, 3 and 4096 rows, rising between the
// watermarks it forwards.
func TestIntervalJoinRowWatermarksRandom(t *testing.T) {
	for seed := range uint64(150) {
		rnd := rand.New(rand.NewPCG(seed, 29))
		cfg := randomIntervalConfig(rnd)
		events := mergedWatermarks(intervalStream(rnd, 20+rnd.IntN(150), seed%2 == 0))
		want := runTimeJoinRowWatermarks(t, cfg, events, 1)
		want.checkWatermarksForwarded(t)
		for _, size := range []int{3, 4096} {
			got := runTimeJoinRowWatermarks(t, cfg, events, size)
			if !slices.Equal(got.rows, want.rows) || !slices.Equal(got.wms, want.wms) {
				t.Fatalf("seed %d, batches of %d: %v %v\nbatches of 1: %v %v", seed, size, got.rows, got.wms, want.rows, want.wms)
			}
		}
	}
}

// mergedWatermarks is events with each ProcessWatermark raised to the
// watermarks of the rows before it, as the merge of the inputs forwards
// the combined watermark only once the rows under it are out.
func mergedWatermarks(events []tjEvent) []tjEvent {
	out := slices.Clone(events)
	w := int64(math.MinInt64)
	for i, e := range out {
		if e.row != nil {
			w = max(w, e.row.w)
		} else {
			out[i].wm = max(e.wm, w)
		}
	}
	return out
}
