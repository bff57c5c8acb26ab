package rowtime

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// assign feeds one batch of split s and returns its per-row watermarks.
func assign(c *CombinedWatermark, s int, ts ...int64) []int64 {
	perRow := make([]int64, len(ts))
	c.Assign(s, ts, perRow)
	return perRow
}

func TestCombinedWatermarkIsMinimumOverSplits(t *testing.T) {
	c := NewCombinedWatermark(2, 1000, 0, nil)
	// Split 1 has not delivered anything: it holds the source back.
	require.Equal(t, []int64{MinWatermark, MinWatermark}, assign(c, 0, 60_000, 61_000))
	require.Equal(t, MinWatermark, c.Current())
	require.Equal(t, int64(60_000), c.Split(0))
	// Split 1 lags by a minute: the combined watermark follows it, so its
	// rows are not late although split 0 is far ahead.
	require.Equal(t, []int64{MinWatermark, 1000}, assign(c, 1, 2000, 3000))
	require.Equal(t, int64(2000), c.Current())
	// Rows of split 0 see split 1's watermark, not their own.
	require.Equal(t, []int64{2000, 2000}, assign(c, 0, 62_000, 63_000))
	require.Equal(t, int64(2000), c.Current())
}

func TestEndedSplitStopsHoldingTheMinimumBack(t *testing.T) {
	c := NewCombinedWatermark(3, 0, 0, nil)
	assign(c, 0, 10_000)
	assign(c, 1, 50_000)
	assign(c, 2, 30_000)
	require.Equal(t, int64(10_000), c.Current())
	require.Equal(t, int64(30_000), c.EndSplit(0))
	// Rows of split 1 now only wait for split 2.
	require.Equal(t, []int64{30_000, 30_000}, assign(c, 1, 51_000, 52_000))
	require.Equal(t, int64(52_000), c.Split(1))
	require.Equal(t, int64(52_000), c.EndSplit(2))
	require.Equal(t, []int64{52_000}, assign(c, 1, 53_000))
	// When every split has ended, the maximum over all of them holds.
	require.Equal(t, int64(53_000), c.EndSplit(1))
}

func TestAllSplitsEndedIsMaximumWhateverTheOrder(t *testing.T) {
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}} {
		c := NewCombinedWatermark(3, 5, 0, nil)
		assign(c, 0, 100)
		assign(c, 1, 900)
		assign(c, 2, 400)
		for _, s := range order {
			c.EndSplit(s)
		}
		require.Equal(t, int64(895), c.Current(), "order %v", order)
	}
}

func TestIdleSplitIsLeftOutOfTheMinimum(t *testing.T) {
	clock := NewManualClock(time.Unix(0, 0))
	c := NewCombinedWatermark(2, 0, 5*time.Second, clock)
	assign(c, 0, 1000)
	assign(c, 1, 2000)
	require.Equal(t, int64(1000), c.Current())

	// Split 0 says nothing for exactly the timeout: not idle yet (Flink
	// waits for more than the timeout).
	clock.Advance(5 * time.Second)
	assign(c, 1, 3000)
	require.False(t, c.Idle(0))
	require.Equal(t, int64(1000), c.Current())

	clock.Advance(time.Millisecond)
	// Split 0 is idle from this batch on: split 1's rows see only their own
	// watermark (clamped to what was emitted).
	require.Equal(t, []int64{3000, 4000}, assign(c, 1, 4000, 5000))
	require.True(t, c.Idle(0))
	require.Equal(t, int64(5000), c.Current())

	// Rows bring split 0 back. The combined watermark does not go back, so
	// its rows see at least 5 s: the row at 1.5 s is late, as in Flink.
	require.Equal(t, []int64{5000}, assign(c, 0, 1500))
	require.False(t, c.Idle(0))
	require.Equal(t, int64(5000), c.Current())
	require.Equal(t, []int64{5000, 5000}, assign(c, 1, 9000, 9500))
	require.Equal(t, int64(5000), c.Current(), "split 0 holds the minimum again")
}

func TestAllIdleUsesTheMaximum(t *testing.T) {
	clock := NewManualClock(time.Unix(0, 0))
	c := NewCombinedWatermark(3, 0, time.Second, clock)
	assign(c, 0, 1000)
	assign(c, 1, 7000)
	assign(c, 2, 4000)
	require.Equal(t, int64(1000), c.Current())
	clock.Advance(2 * time.Second)
	// Split 2 ends; 0 and 1 are idle: no split is active, the maximum holds.
	require.Equal(t, int64(7000), c.EndSplit(2))
	require.True(t, c.Idle(0))
	require.True(t, c.Idle(1))
}

func TestSplitsThatNeverDeliverGoIdle(t *testing.T) {
	clock := NewManualClock(time.Unix(0, 0))
	c := NewCombinedWatermark(2, 0, time.Second, clock)
	assign(c, 0, 1000)
	require.Equal(t, MinWatermark, c.Current())
	clock.Advance(1001 * time.Millisecond)
	require.Equal(t, []int64{1000}, assign(c, 0, 2000))
	require.Equal(t, int64(2000), c.Current())
}

func TestCombinedWatermarkOnlyAdvances(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	clock := NewManualClock(time.Unix(0, 0))
	const splits = 4
	c := NewCombinedWatermark(splits, 100, 3*time.Second, clock)
	ended := make([]bool, splits)
	last := MinWatermark
	for step := 0; step < 2000; step++ {
		clock.Advance(time.Duration(rng.IntN(1500)) * time.Millisecond)
		s := rng.IntN(splits)
		if ended[s] {
			continue
		}
		if rng.IntN(100) == 0 {
			ended[s] = true
			wm := c.EndSplit(s)
			require.GreaterOrEqual(t, wm, last)
			last = wm
			continue
		}
		ts := make([]int64, 1+rng.IntN(5))
		for i := range ts {
			ts[i] = int64(rng.IntN(100_000))
		}
		perRow := make([]int64, len(ts))
		wm := c.Assign(s, ts, perRow)
		for _, w := range perRow {
			require.GreaterOrEqual(t, w, last, "a row never sees the watermark go back")
			require.LessOrEqual(t, w, wm)
			last = w
		}
		require.GreaterOrEqual(t, wm, last)
		last = wm
	}
}

func TestCombineRows(t *testing.T) {
	perRow := []int64{MinWatermark, 5, 8, 8, 12, 20}
	// The other splits stand at 10; 7 was already emitted.
	CombineRows(perRow, 10, 7)
	require.Equal(t, []int64{7, 7, 8, 8, 10, 10}, perRow)

	perRow = []int64{3, 4}
	CombineRows(perRow, MaxWatermark, MinWatermark) // no other active split
	require.Equal(t, []int64{3, 4}, perRow)
}

// TestAssignIsRowAtATime pins that a batch gives every row the watermark it
// would see if rows of the same arrival order came one at a time: cutting a
// split's run of rows into batches of any size changes nothing.
func TestAssignIsRowAtATime(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	type row struct {
		split int
		ts    int64
	}
	var rows []row
	for range 500 {
		s := rng.IntN(3)
		rows = append(rows, row{s, int64(s*60_000 + rng.IntN(30_000))})
	}
	run := func(size int) []int64 {
		c := NewCombinedWatermark(3, 2000, 0, nil)
		out := make([]int64, len(rows))
		for i := 0; i < len(rows); {
			// A batch is a run of rows of one split, at most size long.
			j := i + 1
			for j < len(rows) && j-i < size && rows[j].split == rows[i].split {
				j++
			}
			ts := make([]int64, j-i)
			for k := range ts {
				ts[k] = rows[i+k].ts
			}
			c.Assign(rows[i].split, ts, out[i:j])
			i = j
		}
		return out
	}
	want := run(1)
	for _, size := range []int{2, 3, 7, 4096} {
		require.Equal(t, want, run(size), "batch size %d", size)
	}
}
