package rowtime

import "math"

// MinWatermark is the watermark before any row was seen: nothing is late yet.
// MaxWatermark is the end of time, sent at the end of a bounded input so that
// every window fires (Flink's Watermark.MAX_WATERMARK).
const (
	MinWatermark int64 = math.MinInt64
	MaxWatermark int64 = math.MaxInt64
)

// SubSaturating returns ts - d clamped to the int64 range, so a watermark
// delay applied to a timestamp near the start of time cannot wrap around to
// the far future (underflow-safe watermark initialisation).
func SubSaturating(ts, d int64) int64 {
	r := ts - d
	if d > 0 && r > ts {
		return math.MinInt64
	}
	if d < 0 && r < ts {
		return math.MaxInt64
	}
	return r
}

// AddSaturating returns a + b clamped to the int64 range.
func AddSaturating(a, b int64) int64 {
	r := a + b
	if b > 0 && r < a {
		return math.MaxInt64
	}
	if b < 0 && r > a {
		return math.MinInt64
	}
	return r
}

// The event times wsql accepts are Flink's range of TIMESTAMP values
// (DateTimeUtils' MIN_EPOCH_MILLS and MAX_EPOCH_MILLS): 0000-01-01
// 00:00:00.000 to 9999-12-31 23:59:59.999 UTC. A row outside it is a bad
// row before it can move the watermark or reach a window. Window sizes,
// slides, steps, gaps and offsets are intervals of at most 2^52 ms, so
// every window bound of an accepted row, its cleanup time and the times
// of windows cascaded on it stay far inside int64.
const (
	MinEventTime int64 = -62_167_219_200_000 // 0000-01-01 00:00:00.000 UTC
	MaxEventTime int64 = 253_402_300_799_999 // 9999-12-31 23:59:59.999 UTC
)

// InEventTimeRange reports whether ms is an event time wsql accepts.
func InEventTimeRange(ms int64) bool { return ms >= MinEventTime && ms <= MaxEventTime }

// MaxWindowLength bounds a window's size, slide, step, offset and session
// gap in ms: the longest interval literal (sql's maxIntervalMillis, about
// 142,800 years). A dynamic session gap beyond it is refused.
const MaxWindowLength int64 = 1 << 52

// FloorDiv is a / b rounded toward negative infinity (Java's
// Math.floorDiv): days or seconds of an instant before 1970 round down,
// not toward zero.
func FloorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// FloorMod is a - FloorDiv(a, b)*b (Java's Math.floorMod): the time of day
// of an instant before 1970 is positive.
func FloorMod(a, b int64) int64 { return a - FloorDiv(a, b)*b }
