package scalartext

import (
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/rowtime"
)

// ParseDate parses the yyyy-MM-dd prefix of b into days since 1970-01-01.
func ParseDate(b []byte) (int64, string) {
	if len(b) < 10 || b[4] != '-' || b[7] != '-' {
		return 0, "expected yyyy-MM-dd"
	}
	y, ok1 := Digits(b[0:4])
	m, ok2 := Digits(b[5:7])
	d, ok3 := Digits(b[8:10])
	if !ok1 || !ok2 || !ok3 {
		return 0, "expected yyyy-MM-dd"
	}
	if m < 1 || m > 12 {
		return 0, fmt.Sprintf("month %d out of range", m)
	}
	if d < 1 || d > rowtime.DaysInMonth(y, m) {
		return 0, fmt.Sprintf("day %d out of range for %04d-%02d", d, y, m)
	}
	return rowtime.DaysFromCivil(int64(y), int64(m), int64(d)), ""
}

// ParseTimeOfDay parses HH:mm[:ss[.fraction]] (up to 9 fraction digits,
// truncated by the caller's unit) into nanoseconds of the day.
func ParseTimeOfDay(b []byte) (int64, string) {
	const bad = "expected HH:mm:ss[.SSS]"
	if len(b) < 5 || b[2] != ':' {
		return 0, bad
	}
	h, ok1 := Digits(b[0:2])
	mi, ok2 := Digits(b[3:5])
	if !ok1 || !ok2 {
		return 0, bad
	}
	s, nanos := 0, 0
	if len(b) > 5 {
		if len(b) < 8 || b[5] != ':' {
			return 0, bad
		}
		var ok bool
		if s, ok = Digits(b[6:8]); !ok {
			return 0, bad
		}
		if len(b) > 8 {
			frac := b[9:]
			if b[8] != '.' || len(frac) == 0 || len(frac) > 9 {
				return 0, bad
			}
			if nanos, ok = Digits(frac); !ok {
				return 0, bad
			}
			for range 9 - len(frac) {
				nanos *= 10
			}
		}
	}
	if h > 23 || mi > 59 || s > 59 {
		return 0, fmt.Sprintf("time %02d:%02d:%02d out of range", h, mi, s)
	}
	return int64(h)*3600e9 + int64(mi)*60e9 + int64(s)*1e9 + int64(nanos), ""
}

// ParseTime is ParseTimeOfDay of text: CAST(s AS TIME) and TIME
// literals read what a TIME column of a CSV file holds, and also a
// one-digit hour (TIME '2:55:00' in Flink's OVERLAPS examples), as
// Flink's DateTimeUtils.parseTime does.
func ParseTime(s string) (nanos int64, msg string) {
	if len(s) > 1 && s[1] == ':' {
		s = "0" + s
	}
	return ParseTimeOfDay([]byte(s))
}

// ParseTimestamp parses yyyy-MM-dd[ T]HH:mm[:ss[.fraction]] (plus an
// optional trailing Z when zoned) as UTC and returns it in unit since the
// epoch. Sub-unit digits are truncated, as Flink does for TIMESTAMP(3).
func ParseTimestamp(b []byte, zoned bool, unit arrow.TimeUnit) (int64, string) {
	const bad = "expected yyyy-MM-dd HH:mm:ss[.SSS]"
	if zoned && len(b) > 0 && b[len(b)-1] == 'Z' {
		b = b[:len(b)-1]
	}
	if len(b) < 16 || (b[10] != ' ' && b[10] != 'T') {
		return 0, bad
	}
	days, msg := ParseDate(b[:10])
	if msg != "" {
		if strings.HasPrefix(msg, "expected") {
			msg = bad
		}
		return 0, msg
	}
	nanos, msg := ParseTimeOfDay(b[11:])
	if msg != "" {
		if strings.HasPrefix(msg, "expected") {
			msg = bad
		}
		return 0, msg
	}
	sec := days*86400 + nanos/1e9
	frac := nanos % 1e9
	switch unit {
	case arrow.Second:
		return sec, ""
	case arrow.Millisecond:
		return sec*1e3 + frac/1e6, ""
	case arrow.Microsecond:
		return sec*1e6 + frac/1e3, ""
	}
	if sec > math.MaxInt64/1_000_000_000-1 || sec < math.MinInt64/1_000_000_000+1 {
		return 0, "value out of range for nanosecond precision"
	}
	return sec*1e9 + frac, ""
}
