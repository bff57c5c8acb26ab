package windowop

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"

	"github.com/stretchr/testify/require"
)

// windowsOf lists the windows a row at ts belongs to through its pane.
func windowsOf(a SliceAssigner, ts int64) []Window {
	size, off := a.Pane()
	return a.WindowsOfPane(WindowStart(ts, off, size), nil)
}

func TestHopWindowsSlideFirst(t *testing.T) {
	h, err := NewHop(10, 30, 0) // slide 10, size 30
	require.NoError(t, err)
	require.Equal(t, []Window{{-10, 20}, {0, 30}, {10, 40}}, windowsOf(h, 12))
	require.Equal(t, []Window{{-30, 0}, {-20, 10}, {-10, 20}}, windowsOf(h, -1))
}

func TestHopSizeNotAMultipleOfSlide(t *testing.T) {
	h, err := NewHop(4, 10, 0) // panes of gcd(4, 10) = 2
	require.NoError(t, err)
	size, _ := h.Pane()
	require.Equal(t, int64(2), size)
	// windows [s, s+10) with s a multiple of 4 that contain 9
	require.Equal(t, []Window{{0, 10}, {4, 14}, {8, 18}}, windowsOf(h, 9))
	require.Equal(t, []Window{{4, 14}, {8, 18}, {12, 22}}, windowsOf(h, 12))
}

func TestHopSlideLargerThanSizeLeavesGaps(t *testing.T) {
	h, err := NewHop(10, 4, 0)
	require.NoError(t, err)
	require.Equal(t, []Window{{10, 14}}, windowsOf(h, 13))
	require.Empty(t, windowsOf(h, 15), "a row in a gap belongs to no window")
}

func TestHopWithOffset(t *testing.T) {
	h, err := NewHop(10, 20, 3)
	require.NoError(t, err)
	require.Equal(t, []Window{{-7, 13}, {3, 23}}, windowsOf(h, 5))
}

func TestCumulateWindows(t *testing.T) {
	c, err := NewCumulate(10, 30, 0)
	require.NoError(t, err)
	require.Equal(t, []Window{{0, 10}, {0, 20}, {0, 30}}, windowsOf(c, 5))
	require.Equal(t, []Window{{0, 30}}, windowsOf(c, 25))
	require.Equal(t, []Window{{-30, -10}, {-30, 0}}, windowsOf(c, -15))
	_, err = NewCumulate(7, 30, 0)
	require.Error(t, err)
}

func TestTumbleIsOnePane(t *testing.T) {
	tum, err := NewTumble(10, 0)
	require.NoError(t, err)
	require.Equal(t, []Window{{-10, 0}}, windowsOf(tum, -1))
}

// The assigners refuse what the planner refuses: a row in more than
// MaxWindowsPerRow windows.
func TestWindowsPerRowAreBounded(t *testing.T) {
	_, err := NewHop(1, 86_400_000, 0)
	require.EqualError(t, err, "HOP slide of 1 ms with a size of 86400000 ms puts every row in 86400000 windows; at most 100000 are supported: use a slide of at least 864 ms")
	_, err = NewCumulate(500, 86_400_000, 0)
	require.ErrorContains(t, err, "puts every row in 172800 windows; at most 100000 are supported")
	h, err := NewHop(1000, 86_400_000, 0)
	require.NoError(t, err)
	require.Len(t, windowsOf(h, 12_345), 86_400)
	c, err := NewCumulate(1, 100_000, 0)
	require.NoError(t, err)
	require.Len(t, windowsOf(c, 0), MaxWindowsPerRow)
}

// Window lengths are intervals: at most rowtime.MaxWindowLength, so the
// bounds of a row's windows never overflow; a row the operator cannot
// window is refused, not given wrapped-around windows.
func TestWindowBoundsCannotOverflow(t *testing.T) {
	_, err := NewTumble(1<<62, 0)
	require.EqualError(t, err, "window size of 4611686018427387904 ms is longer than the longest interval, 4503599627370496 ms")
	_, err = NewSession(math.MaxInt64)
	require.ErrorContains(t, err, "window gap of 9223372036854775807 ms is longer than the longest interval")
	_, err = NewHop(1<<53, 1<<53, 0)
	require.Error(t, err)

	op, err := NewWindowOperator(tumbleConfig(t, 60_000), memory.NewGoAllocator(), &recorder{})
	require.NoError(t, err)
	defer op.Close()
	rec := clickBatch(t, memory.NewGoAllocator(), []click{{ts: 1000, usr: "a"}, {ts: math.MaxInt64, usr: "b"}})
	defer rec.Release()
	err = op.ProcessBatch(pipeline.Batch{Record: rec})
	require.ErrorIs(t, err, ErrEventTimeRange)
	require.EqualError(t, err, "event time out of range: row 1 has event time 9223372036854775807 ms, outside the 4611686018427387904 ms either side of the epoch windows are computed in")
}
