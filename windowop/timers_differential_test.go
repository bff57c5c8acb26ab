package windowop

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// genericEventTimeTrigger behaves as EventTimeTrigger but is another type,
// so a session operator keeps its timers in a TimerService.
type genericEventTimeTrigger struct{ EventTimeTrigger }

// TestSpecialisedTimersMatchTimerService runs random streams through the
// operator twice, with its specialised timers (alignedTimers for panes,
// sessionTimers for sessions) and with the generic TimerService, and
// requires the same output, stats and pending timer count after every
// batch: over many keys (bitset buckets), allowed lateness (separate fire
// and cleanup timers), emit strategies and windows in a zone with DST.
func TestSpecialisedTimersMatchTimerService(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	require.NoError(t, err)
	dst := time.Date(2024, 3, 31, 0, 59, 0, 0, time.UTC).UnixMilli() // clocks jump at 01:00 UTC
	kinds := []string{"tumble", "hop", "cumulate", "session"}
	for i := 0; i < 60; i++ {
		rnd := rand.New(rand.NewPCG(uint64(i), 99))
		c := refConfig{kind: kinds[i%len(kinds)], delay: rnd.Int64N(40)}
		switch c.kind {
		case "tumble":
			c.size = 5 + rnd.Int64N(40)
		case "hop":
			c.slide, c.size = 3+rnd.Int64N(15), 5+rnd.Int64N(40)
		case "cumulate":
			c.slide = 3 + rnd.Int64N(10)
			c.size = c.slide * (1 + rnd.Int64N(5))
		case "session":
			c.gap = 1 + rnd.Int64N(30)
		}
		if rnd.IntN(2) == 0 {
			c.lateness = rnd.Int64N(50)
		}
		if c.kind != "session" {
			c.early = rnd.IntN(3) == 0
			c.lateFire = rnd.IntN(3) == 0
		}
		keys := 1 + rnd.IntN(120)
		var base int64
		var local *rowtime.LocalTime
		if i%5 == 4 {
			// minutes-long windows across a DST change
			base, local = dst, rowtime.NewLocalTime(berlin)
			c.size *= 6000
			c.slide *= 6000
			c.gap *= 6000
			c.delay *= 6000
			c.lateness *= 6000
		}
		scale := max(1, c.size/40, c.gap/20)
		var rows []click
		ts := base - 100*scale
		for range 800 {
			ts += rnd.Int64N(4) * scale
			rows = append(rows, click{ts: ts - rnd.Int64N(c.delay+1), usr: fmt.Sprintf("k%d", rnd.IntN(keys)), amount: 1})
		}
		name := fmt.Sprintf("%d %+v keys=%d zone=%v", i, c, keys, local != nil)
		cfg := c.operatorConfig(t)
		cfg.Local = local
		for _, size := range []int{2, 4096} {
			fast := runTimers(t, cfg, false, rows, c.delay, size)
			generic := runTimers(t, cfg, true, rows, c.delay, size)
			require.Equal(t, generic, fast, "%s batch %d", name, size)
		}
	}
}

// runTimers runs rows and returns the output with, after each batch, the
// stats and the number of pending timers.
func runTimers(t *testing.T, cfg Config, generic bool, rows []click, delay int64, batchSize int) []string {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	if generic {
		cfg.Trigger = genericEventTimeTrigger{}
	}
	rec := &recorder{}
	op, err := NewWindowOperator(cfg, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	if _, ok := op.mode.(*paneMode); ok && generic {
		op.timers = NewTimerService()
	}
	wm := int64(-1 << 63)
	for i := 0; i < len(rows); i += batchSize {
		part := rows[i:min(i+batchSize, len(rows))]
		perRow, after := watermarksFor(part, delay, wm)
		wm = after
		b := clickBatch(t, mem, part)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b, Watermarks: perRow}))
		b.Release()
		require.NoError(t, op.ProcessWatermark(wm))
		rec.events = append(rec.events, fmt.Sprintf("stats %+v open %d timers %d", op.Stats(), op.OpenWindows(), op.timers.Len()))
	}
	require.NoError(t, op.ProcessEnd())
	rec.events = append(rec.events, fmt.Sprintf("stats %+v open %d timers %d", op.Stats(), op.OpenWindows(), op.timers.Len()))
	return rec.events
}
