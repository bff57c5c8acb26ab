package rowtime

import (
	"math"
	"time"
)

// Windows over a TIMESTAMP_LTZ rowtime are aligned in the session time zone
// ('table.local-time-zone'), as Flink's TimeWindowUtil does: an instant is
// shifted to local wall-clock milliseconds ("epoch ms of the same wall clock
// read as UTC"), windows are assigned on that value, and a window's local
// bounds are shifted back to instants to compare with watermarks and to
// register timers. So a one-day window closes at local midnight and a DST day
// is 23 or 25 hours long.
//
// Local → instant is not a function of the wall clock alone: across a
// transition some local times do not exist (gap, clocks jump forward) and
// some exist twice (overlap, clocks fall back).
//
//   - ToEpoch is Flink's toEpochMills, i.e. Java's LocalDateTime.atZone: the
//     offset in force just before the transition is used in both cases. A
//     gap time is thereby moved later by the gap's length (02:30 in New York
//     on spring-forward day is 03:30 EDT); an overlap time gets its earlier
//     occurrence (01:30 on fall-back day is 01:30 EDT, not EST).
//   - ToEpochForTimer is Flink's toEpochMillsForTimer, used for the instant a
//     window fires. For zones that still observe DST it compares
//     t1 = ToEpoch(l) with t2 = ToEpoch(l + 1h): equal means l is in a
//     one-hour gap and the timer goes to t1 truncated to the hour (the
//     transition instant, so a window ending inside the gap fires as soon as
//     the gap is passed); more than an hour apart means l is in an overlap
//     and the timer goes to t1 + 1h (the later occurrence, so both copies of
//     the repeated hour are in the window before it fires). Otherwise, and
//     always for zones without current DST (Java's useDaylightTime() is
//     false, e.g. Asia/Shanghai even for its 1986-91 DST), it is ToEpoch.
//
// math.MaxInt64 (MaxWatermark, the end of input) passes through every
// conversion unchanged, as in Flink. wsql does the same for math.MinInt64
// (MinWatermark), where Flink would shift it or throw on overflow; every other
// result saturates at the int64 range instead of wrapping.

const msPerHour = int64(time.Hour / time.Millisecond)

// dstProbeMs is an instant (3000-01-01Z) past every zone's transition table,
// so only a recurring rule can still change the offset there: that is Java's
// TimeZone.useDaylightTime(), which gates Flink's timer rule. Fixed, so the
// result never depends on the wall clock.
const dstProbeMs = int64(32503680000000)

// LocalTime converts between epoch instants and local wall-clock
// milliseconds in one zone. It caches the zone period of the last lookup, so
// a stream of nearby values costs a compare and an add each; it is therefore
// not safe for concurrent use.
type LocalTime struct {
	loc *time.Location
	utc bool
	dst bool

	// ToLocal cache: epochMs in [eLo, eHi) maps to epochMs + eOff. The bounds
	// are narrowed so that the add cannot overflow and the watermark flags
	// always take the slow path.
	eLo, eHi, eOff int64
	// ToEpoch cache: localMs in [lLo, lHi) maps to localMs - lOff, with the
	// same narrowing.
	lLo, lHi, lOff int64
}

// NewLocalTime returns the converter for loc. nil, UTC and any zone that is
// offset 0 forever (Etc/UTC) convert as the identity.
func NewLocalTime(loc *time.Location) *LocalTime {
	l := &LocalTime{loc: loc}
	if loc == nil || loc == time.UTC {
		l.utc = true
	} else if start, end, off := l.period(0); off == 0 && start == math.MinInt64 && end == math.MaxInt64 {
		l.utc = true
	} else {
		_, end, _ := l.period(dstProbeMs)
		l.dst = end != math.MaxInt64
	}
	if l.utc {
		l.eLo, l.eHi = math.MinInt64+1, math.MaxInt64
		l.lLo, l.lHi = math.MinInt64+1, math.MaxInt64
	}
	return l
}

// IsUTC reports whether the conversions are the identity.
func (l *LocalTime) IsUTC() bool { return l.utc }

// ToLocal converts an instant to local wall-clock ms (Flink's
// toUtcTimestampMills): epochMs plus the zone's offset at that instant.
func (l *LocalTime) ToLocal(epochMs int64) int64 {
	if epochMs >= l.eLo && epochMs < l.eHi {
		return epochMs + l.eOff
	}
	return l.toLocalSlow(epochMs)
}

func (l *LocalTime) toLocalSlow(epochMs int64) int64 {
	if l.utc || epochMs == math.MinInt64 || epochMs == math.MaxInt64 {
		return epochMs
	}
	start, end, off := l.period(epochMs)
	lo, hi := max(start, math.MinInt64+1), end
	if off > 0 {
		hi = min(hi, math.MaxInt64-off)
	} else {
		lo = max(lo, math.MinInt64-off)
	}
	l.eLo, l.eHi, l.eOff = lo, hi, off
	return AddSaturating(epochMs, off)
}

// ToEpoch converts local wall-clock ms to an instant with Flink's
// toEpochMills rule: in a gap or an overlap the offset in force before the
// transition applies (see the comment at the top of this file).
func (l *LocalTime) ToEpoch(localMs int64) int64 {
	if localMs >= l.lLo && localMs < l.lHi {
		return localMs - l.lOff
	}
	return l.toEpochSlow(localMs)
}

func (l *LocalTime) toEpochSlow(localMs int64) int64 {
	if l.utc || localMs == math.MinInt64 || localMs == math.MaxInt64 {
		return localMs
	}
	// With the "offset before the transition" rule each zone period owns the
	// local range [start+max(prevOff, off), end+max(off, nextOff)), and these
	// ranges tile the local time line in order. Start at the period of a good
	// guess and walk to a neighbour until the owner is found (at most a step
	// or two in practice).
	_, _, guessOff := l.period(localMs)
	at := SubSaturating(localMs, guessOff)
	var off int64
	for range 16 {
		var start, end int64
		start, end, off = l.period(at)
		lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
		if start != math.MinInt64 {
			_, _, prev := l.period(start - 1)
			lo = AddSaturating(start, max(prev, off))
		}
		if end != math.MaxInt64 {
			_, _, next := l.period(end)
			hi = AddSaturating(end, max(off, next))
		}
		if localMs < lo {
			at = start - 1
			continue
		}
		if localMs >= hi {
			at = end
			continue
		}
		lo = max(lo, math.MinInt64+1)
		if off > 0 {
			lo = max(lo, math.MinInt64+off)
		} else {
			hi = min(hi, math.MaxInt64+off)
		}
		l.lLo, l.lHi, l.lOff = lo, hi, off
		break
	}
	return SubSaturating(localMs, off)
}

// ToEpochForTimer converts a window's local time (its maxTimestamp or
// cleanup time) to the instant its timer fires, with Flink's
// toEpochMillsForTimer rule (see the comment at the top of this file).
func (l *LocalTime) ToEpochForTimer(localMs int64) int64 {
	t1 := l.ToEpoch(localMs)
	// Within an hour of the end of time the probe at +1h would saturate and
	// misread as an overlap; nothing fires there but MaxWatermark anyway.
	if !l.dst || localMs == math.MinInt64 || localMs > math.MaxInt64-msPerHour {
		return t1
	}
	t2 := l.ToEpoch(localMs + msPerHour)
	switch {
	case t1 == t2:
		// Java's % truncates like Go's, so before 1970 this rounds up to the
		// next hour: Flink's behaviour, kept.
		return t1 - t1%msPerHour
	case t2-t1 > msPerHour:
		return AddSaturating(t1, msPerHour)
	}
	return t1
}

// ToLocalColumn writes ToLocal(epoch[i]) to out[i]; out must be at least as
// long as epoch and may be epoch itself.
func (l *LocalTime) ToLocalColumn(epoch []int64, out []int64) {
	out = out[:len(epoch)]
	if l.utc {
		copy(out, epoch)
		return
	}
	lo, hi, off := l.eLo, l.eHi, l.eOff
	for i, v := range epoch {
		if v >= lo && v < hi {
			out[i] = v + off
			continue
		}
		out[i] = l.toLocalSlow(v)
		lo, hi, off = l.eLo, l.eHi, l.eOff
	}
}

// period returns the zone period holding the instant ms: its bounds in epoch
// ms ([start, end), math.MinInt64/MaxInt64 when unbounded or beyond the ms
// range) and its offset in ms.
func (l *LocalTime) period(ms int64) (start, end, off int64) {
	t := time.UnixMilli(ms).In(l.loc)
	_, offSec := t.Zone()
	s, e := t.ZoneBounds()
	start, end = math.MinInt64, math.MaxInt64
	if !s.IsZero() {
		start = secToMs(s.Unix())
	}
	if !e.IsZero() {
		end = secToMs(e.Unix())
	}
	off = int64(offSec) * 1000
	// Past a zone's transition table Go derives bounds from the zone's rule
	// string and reports year boundaries as bounds (harmless: the offset is
	// the same on both sides), but in a leap year it ends the year a day
	// early, so end can be <= ms. Extend over the missing day.
	for end <= ms && end != math.MaxInt64 {
		_, e2, off2 := l.period(end + msPerHour*24)
		if off2 != off || e2 <= end {
			end = ms + 1 // a real change there; never seen, but stay correct
			break
		}
		end = e2
	}
	return start, end, off
}

func secToMs(sec int64) int64 {
	switch {
	case sec > math.MaxInt64/1000:
		return math.MaxInt64
	case sec < math.MinInt64/1000:
		return math.MinInt64
	}
	return sec * 1000
}

// Clone returns a converter of the same zone with caches of its own: a
// LocalTime is used by one goroutine at a time, and parallel window
// operators each need one.
func (l *LocalTime) Clone() *LocalTime {
	c := *l
	return &c
}
