package windowop

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWindowStartForNegativeTimestamps(t *testing.T) {
	// Go's % truncates toward zero; the start must still be floor-aligned.
	require.Equal(t, int64(-60_000), WindowStart(-1, 0, 60_000))
	require.Equal(t, int64(-60_000), WindowStart(-60_000, 0, 60_000))
	require.Equal(t, int64(-120_000), WindowStart(-60_001, 0, 60_000))
	require.Equal(t, int64(0), WindowStart(0, 0, 60_000))
	require.Equal(t, int64(0), WindowStart(59_999, 0, 60_000))
	// with an offset, windows start at offset + k*size
	require.Equal(t, int64(-45_000), WindowStart(-1, 15_000, 60_000))
	require.Equal(t, int64(15_000), WindowStart(15_000, 15_000, 60_000))
	require.Equal(t, int64(-45_000), WindowStart(14_999, 15_000, 60_000))
}

func TestTumbleAssignsOneWindowPerRow(t *testing.T) {
	tum, err := NewTumble(10, 0)
	require.NoError(t, err)
	require.Equal(t, []Window{{-10, 0}}, windowsOf(tum, -1))
	require.Equal(t, []Window{{0, 10}}, windowsOf(tum, 0))
	require.Equal(t, []Window{{10, 20}}, windowsOf(tum, 19))
	_, err = NewTumble(0, 0)
	require.Error(t, err)
}

func TestMaxTimestampIsEndMinusOne(t *testing.T) {
	require.Equal(t, int64(59_999), Window{Start: 0, End: 60_000}.MaxTimestamp())
}

func TestCleanupTime(t *testing.T) {
	w := Window{Start: 0, End: 60_000}
	require.Equal(t, int64(59_999), cleanupTime(w, 0, true))
	require.Equal(t, int64(64_999), cleanupTime(w, 5_000, true))
	// processing time has no lateness
	require.Equal(t, int64(59_999), cleanupTime(w, 5_000, false))
	// overflow saturates to the end of time
	far := Window{Start: math.MaxInt64 - 100, End: math.MaxInt64 - 10}
	require.Equal(t, int64(math.MaxInt64), cleanupTime(far, 1_000, true))
}

func TestIsWindowLateAtEqualWatermark(t *testing.T) {
	w := Window{Start: 0, End: 10}
	require.False(t, isWindowLate(w, 0, true, 8))
	require.True(t, isWindowLate(w, 0, true, 9), "cleanupTime == watermark is late")
	require.False(t, isWindowLate(w, 0, false, 100), "processing time is never late")
	require.False(t, isWindowLate(w, 5, true, 13))
	require.True(t, isWindowLate(w, 5, true, 14))
}

func TestIntersectsIncludesTouching(t *testing.T) {
	require.True(t, Window{0, 10}.Intersects(Window{10, 20}))
	require.False(t, Window{0, 10}.Intersects(Window{11, 20}))
}
