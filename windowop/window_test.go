package windowop

import (
	"math"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/rowtime"
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

func TestIntersectsIncludesTouching(t *testing.T) {
	require.True(t, Window{0, 10}.Intersects(Window{10, 20}))
	require.False(t, Window{0, 10}.Intersects(Window{11, 20}))
}

// TestOperatorIsLateAtEqualWatermark pins the lateness rule the operator
// applies to every row: a window is late once the watermark reaches its
// cleanup time (maxTimestamp + allowed lateness), equality included;
// processing-time windows are never late.
func TestOperatorIsLateAtEqualWatermark(t *testing.T) {
	w := Window{Start: 0, End: 10}
	for _, c := range []struct {
		lateness  int64
		procTime  bool
		watermark int64
		late      bool
	}{
		{0, false, 8, false},
		{0, false, 9, true}, // cleanupTime == watermark is late
		{5, false, 13, false},
		{5, false, 14, true},
		{0, true, 100, false}, // processing time is never late
	} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		cfg := tumbleConfig(t, 10)
		cfg.AllowedLateness, cfg.ProcTime = c.lateness, c.procTime
		if c.procTime {
			cfg.Clock = rowtime.NewManualClock(time.UnixMilli(0))
		}
		op, err := NewWindowOperator(cfg, mem, &recorder{})
		require.NoError(t, err)
		op.watermark = c.watermark
		require.Equal(t, c.late, op.isLate(w), "lateness %d, proctime %v, watermark %d", c.lateness, c.procTime, c.watermark)
		op.Close()
		mem.AssertSize(t, 0)
	}
}
