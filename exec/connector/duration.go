package connector

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// durationUnits are the unit labels of Flink's TimeUtils.parseDuration;
// plural forms take an 's'.
var durationUnits = map[string]time.Duration{
	"d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
	"h": time.Hour, "hour": time.Hour, "hours": time.Hour,
	"min": time.Minute, "minute": time.Minute, "minutes": time.Minute,
	"s": time.Second, "sec": time.Second, "secs": time.Second, "second": time.Second, "seconds": time.Second,
	"ms": time.Millisecond, "milli": time.Millisecond, "millis": time.Millisecond,
	"millisecond": time.Millisecond, "milliseconds": time.Millisecond,
	"µs": time.Microsecond, "micro": time.Microsecond, "micros": time.Microsecond,
	"microsecond": time.Microsecond, "microseconds": time.Microsecond,
	"ns": time.Nanosecond, "nano": time.Nanosecond, "nanos": time.Nanosecond,
	"nanosecond": time.Nanosecond, "nanoseconds": time.Nanosecond,
}

// ParseDuration reads a duration option or setting the way Flink does: digits, then an
// optional unit label ('5 s', '1 min', '500ms'), case-insensitive and
// surrounding spaces allowed; no label means milliseconds.
func ParseDuration(text string) (time.Duration, error) {
	t := strings.TrimSpace(text)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, errors.New("a duration starts with a number")
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil {
		return 0, errors.New("the number is too large")
	}
	label := strings.ToLower(strings.TrimSpace(t[i:]))
	unit := time.Millisecond
	if label != "" {
		var ok bool
		if unit, ok = durationUnits[label]; !ok {
			return 0, errors.New("unknown unit '" + label + "' (use d, h, min, s, ms, µs or ns)")
		}
	}
	if n > math.MaxInt64/int64(unit) {
		return 0, errors.New("the duration is too large")
	}
	return time.Duration(n) * unit, nil
}
