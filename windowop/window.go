package windowop

import "math"

// Window is a time window [Start, End) in epoch milliseconds.
type Window struct {
	Start int64
	End   int64
}

// MaxTimestamp is the largest timestamp that still belongs to the window,
// End - 1 (Flink's TimeWindow.maxTimestamp). It is the window's rowtime.
func (w Window) MaxTimestamp() int64 {
	if w.End == math.MinInt64 {
		return math.MinInt64
	}
	return w.End - 1
}

// Intersects reports whether two windows overlap or touch; touching session
// windows merge (a.End == b.Start counts).
func (w Window) Intersects(o Window) bool {
	return w.Start <= o.End && w.End >= o.Start
}
