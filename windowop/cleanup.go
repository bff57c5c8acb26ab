package windowop

import "math"

// cleanupTime is when the state of window w may be dropped (Flink's
// WindowOperator.cleanupTime). In event time it is maxTimestamp plus the
// allowed lateness; if that sum overflows the window lives until the end of
// time (math.MaxInt64, and no cleanup timer is registered for it). In
// processing time there is no lateness: state goes at maxTimestamp.
func cleanupTime(w Window, allowedLateness int64, eventTime bool) int64 {
	if !eventTime {
		return w.MaxTimestamp()
	}
	t := w.MaxTimestamp() + allowedLateness
	if allowedLateness > 0 && t < w.MaxTimestamp() {
		return math.MaxInt64
	}
	return t
}
