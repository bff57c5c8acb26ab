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
