package windowop

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// A positive early-fire delay fires a window that long after its first row
// since the last firing, in processing time (Flink's
// AfterFirstElementPeriodic); the on-time firing then emits only a change.
func TestPeriodicEarlyFiring(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	clock := rowtime.NewManualClock(time.UnixMilli(0))
	cfg := tumbleConfig(t, 10)
	cfg.Clock = clock
	cfg.Emit = EmitStrategy{EarlyFire: true, EarlyFireDelay: 10}
	rec := &recorder{}
	op, err := NewWindowOperator(cfg, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	feed := func(rows ...click) {
		b := clickBatch(t, mem, rows)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b, Watermarks: make([]int64, len(rows))}))
		b.Release()
	}
	feed(click{ts: 1, usr: "a", amount: 1}, click{ts: 2, usr: "a", amount: 1}) // arms a timer at 10 ms
	clock.Advance(5 * time.Millisecond)
	feed(click{ts: 3, usr: "a", amount: 1})
	require.Empty(t, rec.events, "5 ms of processing time: not yet")
	clock.Advance(7 * time.Millisecond)     // 12 ms: the timer is due
	feed(click{ts: 4, usr: "a", amount: 1}) // fires first (3 rows), then arms again
	require.Equal(t, []string{"row +I a 0 10 9 3 3"}, rec.events)
	require.NoError(t, op.ProcessWatermark(9)) // on time: the 4th row changed the value
	require.NoError(t, op.ProcessEnd())
	require.Equal(t, []string{
		"row +I a 0 10 9 3 3",
		"row -U a 0 10 9 3 3", "row +U a 0 10 9 4 4", "wm 9",
		"end",
	}, rec.events)
}

// Periodic firing needs a clock; the operator says so instead of guessing.
func TestPeriodicFiringNeedsAClock(t *testing.T) {
	cfg := tumbleConfig(t, 10)
	cfg.Emit = EmitStrategy{LateFire: true, LateFireDelay: 1000}
	cfg.AllowedLateness = 10
	_, err := NewWindowOperator(cfg, memory.NewGoAllocator(), &recorder{})
	require.ErrorIs(t, err, ErrUnsupportedEmit)
}
