package rowtime

import "time"

// Clock tells processing time: when a split goes idle (CombinedWatermark)
// and when processing-time windows fire (windowop). It is injected: the CLI
// passes SystemClock, tests a ManualClock, and event-time results never read
// the wall clock.
type Clock interface {
	Now() time.Time
}

// SystemClock is the wall clock. time.Now carries Go's monotonic reading, so
// a change of the system time does not make splits idle.
type SystemClock struct{}

// Now returns the current time.
func (SystemClock) Now() time.Time { return time.Now() }

// ManualClock is a Clock that moves only when told to (Flink's ManualClock).
type ManualClock struct {
	now time.Time
}

// NewManualClock returns a clock standing at start.
func NewManualClock(start time.Time) *ManualClock { return &ManualClock{now: start} }

// Now returns the time the clock stands at.
func (c *ManualClock) Now() time.Time { return c.now }

// Advance moves the clock forward by d.
func (c *ManualClock) Advance(d time.Duration) { c.now = c.now.Add(d) }

var (
	_ Clock = SystemClock{}
	_ Clock = (*ManualClock)(nil)
)
