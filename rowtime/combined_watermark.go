package rowtime

import "time"

// CombinedWatermark is the watermark of a source made of splits (the files
// of a directory, partitions): Flink's WatermarkOutputMultiplexer with its
// CombinedWatermarkStatus. Every split has its own BoundedOutOfOrderness
// generator and the source's watermark is the minimum over the active
// splits, so a split whose event times lag behind holds the others back
// instead of having its rows declared late (docs/semantics.md, "Several files: splits").
//
// A split is active until it ends or goes idle:
//
//   - An ended split no longer holds the minimum back.
//   - A split that delivered no rows for the idle timeout of processing time
//     is idle and left out of the minimum until it delivers rows again. The
//     injected Clock is read when a batch arrives or a split ends, never per
//     row; a zero timeout means splits never go idle and the clock is unused.
//   - When no split is active the combined watermark is the maximum over all
//     splits, as Flink does when every output is idle. Unlike Flink, which
//     forgets a finished split, ended splits count in that maximum, so when
//     every split of a bounded source has ended the watermark is the maximum
//     over all of them, whatever order they ended in.
//
// Splits may join late (AddSplit): a file that appears in a followed
// directory ('source.monitor-interval'). A new split starts with no
// watermark and, while active, holds the minimum back until its own
// watermark catches up (or it goes idle), but it never drags the combined
// watermark backwards. As in Flink, its rows whose event time is below the
// combined watermark in effect when they arrive are late for the windows
// that already fired.
//
// The combined watermark only advances. A CombinedWatermark is used by one
// goroutine at a time.
type CombinedWatermark struct {
	splits      []splitWatermark
	delay       int64
	idleTimeout time.Duration
	clock       Clock
	combined    int64
}

type splitWatermark struct {
	gen        BoundedOutOfOrderness
	lastActive time.Time // when the split last delivered rows, or started
	ended      bool
	idle       bool
}

// NewCombinedWatermark returns the watermark of a source of n splits, each
// with a bounded out-of-orderness of delayMillis. A nil clock is the
// SystemClock.
func NewCombinedWatermark(n int, delayMillis int64, idleTimeout time.Duration, clock Clock) *CombinedWatermark {
	if clock == nil {
		clock = SystemClock{}
	}
	c := &CombinedWatermark{
		splits:      make([]splitWatermark, n),
		delay:       delayMillis,
		idleTimeout: idleTimeout,
		clock:       clock,
		combined:    MinWatermark,
	}
	var now time.Time
	if idleTimeout > 0 {
		now = clock.Now() // Flink's idleness timer also starts when the split does
	}
	for i := range c.splits {
		c.splits[i] = splitWatermark{gen: *NewBoundedOutOfOrderness(delayMillis), lastActive: now}
	}
	return c
}

// AddSplit adds a split that joins after the start and returns its index
// (the previous NumSplits). It starts with no watermark of its own and, for
// idleness, as active now. The combined watermark does not move: it only
// advances.
func (c *CombinedWatermark) AddSplit() int {
	var now time.Time
	if c.idleTimeout > 0 {
		now = c.clock.Now()
	}
	c.splits = append(c.splits, splitWatermark{gen: *NewBoundedOutOfOrderness(c.delay), lastActive: now})
	return len(c.splits) - 1
}

// Refresh re-checks idleness at the clock's current time, with no batch
// arriving (a followed source waiting for data), and returns the combined
// watermark, which may advance when the splits holding it back went idle.
func (c *CombinedWatermark) Refresh() int64 {
	if c.idleTimeout > 0 {
		c.markIdle(c.clock.Now())
	}
	c.combined = max(c.combined, c.candidate())
	return c.combined
}

// NumSplits returns the number of splits.
func (c *CombinedWatermark) NumSplits() int { return len(c.splits) }

// Current returns the combined watermark.
func (c *CombinedWatermark) Current() int64 { return c.combined }

// Split returns the watermark of split i's own generator.
func (c *CombinedWatermark) Split(i int) int64 { return c.splits[i].gen.Current() }

// Idle reports whether split i was idle at the last update.
func (c *CombinedWatermark) Idle(i int) bool { return c.splits[i].idle }

// Assign walks one batch of event times from split (which must not have
// ended), in arrival order. It writes into perRow[i] the source's watermark
// in effect when row i arrives (see CombineRows) and returns the combined
// watermark after the batch. perRow must be at least len(ts) long. An empty
// batch is no sign of life: it changes nothing.
func (c *CombinedWatermark) Assign(split int, ts []int64, perRow []int64) int64 {
	if len(ts) == 0 {
		return c.combined
	}
	c.activate(split)
	others := c.minActiveExcept(split)
	after := c.splits[split].gen.Assign(ts, perRow)
	CombineRows(perRow[:len(ts)], others, c.combined)
	c.combined = max(c.combined, min(after, others))
	return c.combined
}

// EndSplit records that split delivers no more rows and returns the combined
// watermark, which may jump now that the split no longer holds it back.
func (c *CombinedWatermark) EndSplit(split int) int64 {
	c.splits[split].ended = true
	if c.idleTimeout > 0 {
		c.markIdle(c.clock.Now())
	}
	c.combined = max(c.combined, c.candidate())
	return c.combined
}

// candidate is Flink's rule: the minimum over the active splits, or the
// maximum over all splits when none is active.
func (c *CombinedWatermark) candidate() int64 {
	lo, hi, active := MaxWatermark, MinWatermark, false
	for i := range c.splits {
		s := &c.splits[i]
		w := s.gen.Current()
		hi = max(hi, w)
		if !s.ended && !s.idle {
			lo, active = min(lo, w), true
		}
	}
	if !active {
		return hi
	}
	return lo
}

// markIdle marks the splits that delivered nothing for the idle timeout.
func (c *CombinedWatermark) markIdle(now time.Time) {
	for i := range c.splits {
		s := &c.splits[i]
		if !s.ended && now.Sub(s.lastActive) > c.idleTimeout {
			s.idle = true
		}
	}
}

// minActiveExcept returns the minimum watermark over the active splits other
// than skip, or MaxWatermark when there is none.
func (c *CombinedWatermark) minActiveExcept(skip int) int64 {
	m := MaxWatermark
	for i := range c.splits {
		if s := &c.splits[i]; i != skip && !s.ended && !s.idle {
			m = min(m, s.gen.Current())
		}
	}
	return m
}

// Advance records a watermark split supplied itself (a table declared with
// SOURCE_WATERMARK(), whose rows do not move it) and returns the combined
// watermark. Like rows, a watermark is a sign of life: the split becomes
// active again.
func (c *CombinedWatermark) Advance(split int, wm int64) int64 {
	s := &c.splits[split]
	s.gen.Raise(wm)
	c.activate(split)
	c.combined = max(c.combined, c.candidate())
	return c.combined
}

// Arrive records a batch of n rows of split when the source supplies the
// watermarks (see Advance): the rows do not move the watermark, each sees
// the combined watermark in effect, written into perRow[:n], and the split
// is active again. It returns the combined watermark.
func (c *CombinedWatermark) Arrive(split, n int, perRow []int64) int64 {
	if n == 0 {
		return c.combined
	}
	c.activate(split)
	c.combined = max(c.combined, c.candidate())
	for i := range perRow[:n] {
		perRow[i] = c.combined
	}
	return c.combined
}

// MarkIdle marks split idle now, as the source says (Flink's
// WatermarkStatus.IDLE), whatever the idle timeout: it stops holding the
// watermark back until it delivers rows or a watermark again. It returns
// the combined watermark, which may jump.
func (c *CombinedWatermark) MarkIdle(split int) int64 {
	c.splits[split].idle = true
	c.combined = max(c.combined, c.candidate())
	return c.combined
}

// activate marks split as having delivered something now.
func (c *CombinedWatermark) activate(split int) {
	s := &c.splits[split]
	s.idle = false
	if c.idleTimeout > 0 {
		now := c.clock.Now()
		s.lastActive = now
		c.markIdle(now)
	}
}
