package windowop

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// Processing-time windows take their time from an injected clock: rows are
// assigned to the window of "now", and a window fires when the clock has
// passed its end (checked as batches arrive) or at the end of input.
func TestProcessingTimeWindowsFollowTheClock(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	clock := rowtime.NewManualClock(time.UnixMilli(100))
	tum, _ := NewTumble(10, 0)
	cfg := Config{Input: clickSchema, RowtimeIndex: -1, ProcTime: true, Clock: clock, KeyIndexes: []int{1},
		Assigner: tum, GapIndex: -1, Aggs: []AggSpec{{Kind: CountStar, Name: "n"}}}
	rec := &recorder{}
	op, err := NewWindowOperator(cfg, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	feed := func(rows ...click) {
		b := clickBatch(t, mem, rows)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b}))
		b.Release()
	}
	// event times in the rows are ignored: processing time decides
	feed(click{ts: 999_999, usr: "a"}, click{ts: -5, usr: "b"})
	clock.Advance(5 * time.Millisecond)
	feed(click{usr: "a"})
	require.Empty(t, rec.events, "the clock has not passed 109 yet")
	clock.Advance(10 * time.Millisecond) // now 115
	feed(click{usr: "a"})
	require.Equal(t, []string{"row a 100 110 109 2", "row b 100 110 109 1"}, rec.events)
	// watermarks pass through without firing processing-time windows
	require.NoError(t, op.ProcessWatermark(1_000_000))
	require.NoError(t, op.ProcessEnd())
	require.Equal(t, []string{"row a 100 110 109 2", "row b 100 110 109 1", "wm 1000000", "row a 110 120 119 1", "end"}, rec.events)
}
