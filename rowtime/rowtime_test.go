package rowtime

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBoundedOutOfOrdernessIsRunningMaxWithoutMinusOne(t *testing.T) {
	g := NewBoundedOutOfOrderness(5000)
	require.Equal(t, MinWatermark, g.Current())
	perRow := make([]int64, 4)
	after := g.Assign([]int64{10_000, 8_000, 12_000, 11_000}, perRow)
	// row i sees the watermark of the rows before it; no extra -1 ms.
	require.Equal(t, []int64{MinWatermark, 5_000, 5_000, 7_000}, perRow)
	require.Equal(t, int64(7_000), after)
	require.Equal(t, int64(7_000), g.Current())
}

func TestAssignIsIndependentOfBatchSize(t *testing.T) {
	ts := []int64{3, 1, 9, 4, 4, 20, 2, 18, 30, 25, 26}
	whole := NewBoundedOutOfOrderness(2)
	want := make([]int64, len(ts))
	whole.Assign(ts, want)
	for _, size := range []int{1, 2, 3, 4096} {
		g := NewBoundedOutOfOrderness(2)
		got := make([]int64, len(ts))
		for i := 0; i < len(ts); i += size {
			end := min(i+size, len(ts))
			g.Assign(ts[i:end], got[i:end])
		}
		require.Equal(t, want, got, "batch size %d", size)
		require.Equal(t, whole.Current(), g.Current())
	}
}

func TestWatermarkNearStartOfTimeDoesNotWrap(t *testing.T) {
	g := NewBoundedOutOfOrderness(10)
	perRow := make([]int64, 1)
	after := g.Assign([]int64{math.MinInt64 + 3}, perRow)
	require.Equal(t, MinWatermark, after)
}

func TestSaturatingArithmetic(t *testing.T) {
	require.Equal(t, int64(math.MaxInt64), AddSaturating(math.MaxInt64-1, 5))
	require.Equal(t, int64(math.MinInt64), AddSaturating(math.MinInt64+1, -5))
	require.Equal(t, int64(7), AddSaturating(3, 4))
	require.Equal(t, int64(math.MinInt64), SubSaturating(math.MinInt64+1, 5))
	require.Equal(t, int64(math.MaxInt64), SubSaturating(math.MaxInt64-1, -5))
	require.Equal(t, int64(-1), SubSaturating(4, 5))
}

func TestFloorDivRoundsTowardNegativeInfinity(t *testing.T) {
	require.Equal(t, int64(-1), FloorDiv(-1, 1000))
	require.Equal(t, int64(-1), FloorDiv(-1000, 1000))
	require.Equal(t, int64(-2), FloorDiv(-1001, 1000))
	require.Equal(t, int64(0), FloorDiv(999, 1000))
	require.Equal(t, int64(-1), FloorDiv(1, -1000))
	require.Equal(t, int64(math.MinInt64/86_400_000-1), FloorDiv(math.MinInt64, 86_400_000))
}
