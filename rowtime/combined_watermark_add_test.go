package rowtime

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestAddedSplitHoldsBackButNeverDragsBack(t *testing.T) {
	c := NewCombinedWatermark(1, 1000, 0, nil)
	assign(c, 0, 10_000)
	require.Equal(t, int64(9000), c.Current())
	require.Equal(t, 1, c.AddSplit())
	require.Equal(t, 2, c.NumSplits())
	require.Equal(t, MinWatermark, c.Split(1))
	// The new split has no watermark yet, but the combined one stays.
	require.Equal(t, int64(9000), c.Current())
	require.Equal(t, int64(9000), c.Refresh())
	// Split 0 advances: the new split holds the minimum back.
	require.Equal(t, []int64{9000}, assign(c, 0, 20_000))
	require.Equal(t, int64(9000), c.Current())
	// Its rows behind the combined watermark are late (they see 9000).
	require.Equal(t, []int64{9000, 9000}, assign(c, 1, 5000, 15_000))
	require.Equal(t, int64(14_000), c.Current())
	require.Equal(t, int64(14_000), c.Split(1))
	// The new split uses the source's delay and catches up.
	assign(c, 1, 30_000)
	require.Equal(t, int64(19_000), c.Current())
}

func TestAddedSplitGoesIdleOnRefresh(t *testing.T) {
	clock := NewManualClock(time.Unix(0, 0))
	c := NewCombinedWatermark(1, 0, 5*time.Second, clock)
	assign(c, 0, 10_000)
	clock.Advance(time.Second)
	c.AddSplit() // starts active now
	clock.Advance(time.Second)
	assign(c, 0, 20_000)
	require.Equal(t, int64(10_000), c.Current())
	require.False(t, c.Idle(1))
	// With no batch arriving, Refresh notices the idle split.
	clock.Advance(5 * time.Second)
	// the new split, silent for 6 s, is idle; split 0 (5 s) is not yet
	require.Equal(t, int64(20_000), c.Refresh())
	require.True(t, c.Idle(1))
	require.False(t, c.Idle(0))
	clock.Advance(time.Millisecond)
	require.Equal(t, int64(20_000), c.Refresh())
	require.True(t, c.Idle(0))
	// A split added when every other is idle starts active but does not
	// move the combined watermark back.
	c.AddSplit()
	require.Equal(t, int64(20_000), c.Refresh())
	require.Equal(t, []int64{20_000}, assign(c, 2, 1000))
	require.Equal(t, int64(20_000), c.Current())
}
