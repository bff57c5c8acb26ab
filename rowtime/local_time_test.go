package rowtime

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const (
	msMinute = int64(60_000)
	msHour   = 60 * msMinute
	msDay    = 24 * msHour
)

// wall is a local wall-clock time as LocalTime represents it: the epoch ms of
// the same reading in UTC.
func wall(y int, mo time.Month, d, h, mi, s, ms int) int64 {
	return time.Date(y, mo, d, h, mi, s, ms*1e6, time.UTC).UnixMilli()
}

func mustLoc(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	require.NoError(t, err)
	return loc
}

func floorMod(a, b int64) int64 { return ((a % b) + b) % b }

func TestLocalTimeUTCIdentity(t *testing.T) {
	for _, loc := range []*time.Location{nil, time.UTC, mustLoc(t, "UTC"), mustLoc(t, "Etc/UTC"), time.FixedZone("Z", 0)} {
		l := NewLocalTime(loc)
		require.True(t, l.IsUTC())
		in := []int64{math.MinInt64, math.MinInt64 + 1, -1, 0, 1, 1_700_000_000_000, math.MaxInt64 - 1, math.MaxInt64}
		out := make([]int64, len(in))
		l.ToLocalColumn(in, out)
		require.Equal(t, in, out)
		for _, v := range in {
			require.Equal(t, v, l.ToLocal(v))
			require.Equal(t, v, l.ToEpoch(v))
			require.Equal(t, v, l.ToEpochForTimer(v))
		}
	}
	require.False(t, NewLocalTime(mustLoc(t, "Asia/Shanghai")).IsUTC())
	require.False(t, NewLocalTime(time.FixedZone("", 3600)).IsUTC())
}

func TestLocalTimeShanghaiDayWindow(t *testing.T) {
	l := NewLocalTime(mustLoc(t, "Asia/Shanghai"))
	// 2024-03-15 10:00 in Shanghai is 02:00Z; its one-day window is the local
	// day, which ends at local midnight = 16:00Z, not at 00:00Z.
	ts := time.Date(2024, 3, 15, 2, 0, 0, 0, time.UTC).UnixMilli()
	local := l.ToLocal(ts)
	require.Equal(t, wall(2024, 3, 15, 10, 0, 0, 0), local)
	start := local - floorMod(local, msDay)
	end := start + msDay
	require.Equal(t, wall(2024, 3, 15, 0, 0, 0, 0), start)
	require.Equal(t, time.Date(2024, 3, 15, 16, 0, 0, 0, time.UTC).UnixMilli(), l.ToEpoch(end))
	require.Equal(t, time.Date(2024, 3, 15, 15, 59, 59, 999e6, time.UTC).UnixMilli(), l.ToEpochForTimer(end-1))
	require.Equal(t, time.Date(2024, 3, 14, 16, 0, 0, 0, time.UTC).UnixMilli(), l.ToEpoch(start))

	// Flink's TimeWindowUtilTest.testShiftedTimeZone.
	for _, c := range []struct{ local, epoch int64 }{
		{wall(1970, 1, 1, 0, 0, 1, 0), -28799000},
		{wall(1970, 1, 1, 7, 59, 59, 999), -1},
		{wall(1970, 1, 1, 8, 0, 1, 0), 1000},
		{wall(1970, 1, 1, 8, 0, 0, 1), 1},
	} {
		require.Equal(t, c.epoch, l.ToEpoch(c.local))
		require.Equal(t, c.epoch, l.ToEpochForTimer(c.local))
		require.Equal(t, c.local, l.ToLocal(c.epoch))
	}
}

// Flink's TimeWindowUtilTest.testDaylightSaving: Los Angeles, 2021.
func TestLocalTimeFlinkDaylightSaving(t *testing.T) {
	l := NewLocalTime(mustLoc(t, "America/Los_Angeles"))
	for _, c := range []struct {
		local         int64
		epoch, timer  int64
		whatHappening string
	}{
		{wall(2021, 3, 14, 0, 0, 0, 0), 1615708800000, 1615708800000, "before gap"},
		{wall(2021, 3, 14, 1, 0, 0, 0), 1615712400000, 1615712400000, "before gap"},
		{wall(2021, 3, 14, 2, 0, 0, 0), 1615716000000, 1615716000000, "gap start"},
		{wall(2021, 3, 14, 2, 30, 0, 0), 1615717800000, 1615716000000, "in gap"},
		{wall(2021, 3, 14, 2, 59, 59, 0), 1615719599000, 1615716000000, "gap end"},
		{wall(2021, 3, 14, 3, 0, 0, 0), 1615716000000, 1615716000000, "after gap"},
		{wall(2021, 3, 14, 3, 30, 0, 0), 1615717800000, 1615717800000, "after gap"},
		{wall(2021, 3, 14, 3, 59, 59, 0), 1615719599000, 1615719599000, "after gap"},
		{wall(2021, 11, 7, 0, 0, 0, 0), 1636268400000, 1636268400000, "before overlap"},
		{wall(2021, 11, 7, 0, 0, 1, 0), 1636268401000, 1636268401000, "before overlap"},
		{wall(2021, 11, 7, 1, 0, 0, 0), 1636272000000, 1636275600000, "overlap start"},
		{wall(2021, 11, 7, 1, 59, 59, 0), 1636275599000, 1636279199000, "overlap end"},
		{wall(2021, 11, 7, 2, 0, 0, 0), 1636279200000, 1636279200000, "after overlap"},
		{wall(2021, 11, 7, 2, 0, 1, 0), 1636279201000, 1636279201000, "after overlap"},
	} {
		require.Equal(t, c.epoch, l.ToEpoch(c.local), c.whatHappening)
		require.Equal(t, c.timer, l.ToEpochForTimer(c.local), c.whatHappening)
	}
	require.Equal(t, wall(2021, 11, 7, 1, 0, 0, 0), l.ToLocal(1636272000000))
	require.Equal(t, wall(2021, 11, 7, 1, 0, 0, 0), l.ToLocal(1636275600000))
	require.Equal(t, wall(2021, 11, 7, 1, 0, 1, 0), l.ToLocal(1636272001000))
	require.Equal(t, wall(2021, 11, 7, 1, 59, 59, 0), l.ToLocal(1636275599000))
}

func TestLocalTimeDST(t *testing.T) {
	type day struct {
		y      int
		mo     time.Month
		d      int
		t      time.Time // the transition instant
		before int       // local hour at which the transition happens
	}
	for _, z := range []struct {
		name         string
		spring, fall day
	}{
		{"America/New_York",
			day{2024, 3, 10, time.Date(2024, 3, 10, 7, 0, 0, 0, time.UTC), 2},
			day{2024, 11, 3, time.Date(2024, 11, 3, 6, 0, 0, 0, time.UTC), 2}},
		{"Europe/Berlin",
			day{2024, 3, 31, time.Date(2024, 3, 31, 1, 0, 0, 0, time.UTC), 2},
			day{2024, 10, 27, time.Date(2024, 10, 27, 1, 0, 0, 0, time.UTC), 3}},
	} {
		t.Run(z.name, func(t *testing.T) {
			l := NewLocalTime(mustLoc(t, z.name))

			// Spring forward: local [h, h+1) does not exist.
			s := z.spring
			T := s.t.UnixMilli()
			gapStart := wall(s.y, s.mo, s.d, s.before, 0, 0, 0)
			require.Equal(t, gapStart-1, l.ToLocal(T-1))
			require.Equal(t, gapStart+msHour, l.ToLocal(T))
			// A gap time moves later by the gap (offset before the transition).
			require.Equal(t, T+30*msMinute, l.ToEpoch(gapStart+30*msMinute))
			require.Equal(t, T, l.ToEpoch(gapStart))
			require.Equal(t, T+msHour-1, l.ToEpoch(gapStart+msHour-1))
			// A window ending in the gap fires at the transition.
			require.Equal(t, T, l.ToEpochForTimer(gapStart))
			require.Equal(t, T, l.ToEpochForTimer(gapStart+30*msMinute))
			require.Equal(t, T, l.ToEpochForTimer(gapStart+msHour-1))
			require.Equal(t, T-1, l.ToEpochForTimer(gapStart-1))
			require.Equal(t, T, l.ToEpochForTimer(gapStart+msHour))
			// The one-day window of that day is 23 hours long.
			dayStart := wall(s.y, s.mo, s.d, 0, 0, 0, 0)
			require.Equal(t, 23*msHour, l.ToEpoch(dayStart+msDay)-l.ToEpoch(dayStart))
			require.Equal(t, l.ToEpoch(dayStart+msDay)-1, l.ToEpochForTimer(dayStart+msDay-1))
			local := l.ToLocal(T + 10*msHour)
			require.Equal(t, dayStart, local-floorMod(local, msDay))

			// Fall back: local [h-1, h) happens twice.
			f := z.fall
			T = f.t.UnixMilli()
			overlapStart := wall(f.y, f.mo, f.d, f.before-1, 0, 0, 0)
			require.Equal(t, overlapStart+msHour-1, l.ToLocal(T-1))
			require.Equal(t, overlapStart, l.ToLocal(T))
			require.Equal(t, overlapStart+30*msMinute, l.ToLocal(T-30*msMinute))
			require.Equal(t, overlapStart+30*msMinute, l.ToLocal(T+30*msMinute))
			// An overlap time gets its earlier occurrence ...
			require.Equal(t, T-msHour, l.ToEpoch(overlapStart))
			require.Equal(t, T-30*msMinute, l.ToEpoch(overlapStart+30*msMinute))
			require.Equal(t, T-1, l.ToEpoch(overlapStart+msHour-1))
			require.Equal(t, T+msHour, l.ToEpoch(overlapStart+msHour))
			// ... but a timer waits for the later one.
			require.Equal(t, T, l.ToEpochForTimer(overlapStart))
			require.Equal(t, T+30*msMinute, l.ToEpochForTimer(overlapStart+30*msMinute))
			require.Equal(t, T+msHour-1, l.ToEpochForTimer(overlapStart+msHour-1))
			require.Equal(t, T-msHour-1, l.ToEpochForTimer(overlapStart-1))
			require.Equal(t, T+msHour, l.ToEpochForTimer(overlapStart+msHour))
			// The one-day window of that day is 25 hours long.
			dayStart = wall(f.y, f.mo, f.d, 0, 0, 0, 0)
			require.Equal(t, 25*msHour, l.ToEpoch(dayStart+msDay)-l.ToEpoch(dayStart))
			require.Equal(t, l.ToEpoch(dayStart+msDay)-1, l.ToEpochForTimer(dayStart+msDay-1))

			// Round trips, minute by minute plus a ms jitter, over both days.
			for _, tr := range []time.Time{s.t, f.t} {
				for x := tr.UnixMilli() - 2*msDay; x < tr.UnixMilli()+2*msDay; x += msMinute + 7 {
					lx := l.ToLocal(x)
					back := l.ToEpoch(lx)
					if back != x {
						// Only the second occurrence of an overlap time.
						require.Equal(t, x-msHour, back, "instant %d", x)
						require.Equal(t, lx, l.ToLocal(back))
					}
					e := l.ToEpoch(x)
					if l.ToLocal(e) != x {
						// Only a gap time, moved later by the gap.
						require.Equal(t, x+msHour, l.ToLocal(e), "local %d", x)
					}
				}
			}
		})
	}
}

// refToEpoch is Java's LocalDateTime.atZone(zone).toInstant() written
// directly from its definition over the zone periods near local: the
// earliest instant that reads as local, and in a gap local read with the
// offset before the transition.
func refToEpoch(loc *time.Location, local int64) int64 {
	type period struct{ start, off int64 }
	var ps []period
	for ms := local - 2*msDay; ms <= local+2*msDay; {
		tm := time.UnixMilli(ms).In(loc)
		_, off := tm.Zone()
		ps = append(ps, period{ms, int64(off) * 1000})
		_, end := tm.ZoneBounds()
		if end.IsZero() {
			break
		}
		// Go ends a leap year a day early past the transition table.
		ms = max(end.UnixMilli(), ms+msHour)
	}
	offAt := func(ms int64) int64 {
		_, off := time.UnixMilli(ms).In(loc).Zone()
		return int64(off) * 1000
	}
	best := int64(math.MaxInt64)
	for _, p := range ps {
		if c := local - p.off; offAt(c) == p.off {
			best = min(best, c)
		}
	}
	if best != math.MaxInt64 {
		return best
	}
	for i := 1; i < len(ps); i++ {
		T, before, after := ps[i].start, ps[i-1].off, ps[i].off
		if after > before && T+before <= local && local < T+after {
			return local - before
		}
	}
	panic("no valid offset and no gap")
}

func refTimer(loc *time.Location, dst bool, local int64) int64 {
	t1 := refToEpoch(loc, local)
	if !dst {
		return t1
	}
	t2 := refToEpoch(loc, local+msHour)
	switch {
	case t1 == t2:
		return t1 - t1%msHour
	case t2-t1 > msHour:
		return t1 + msHour
	}
	return t1
}

var testZones = []struct {
	name string
	dst  bool // Java's TimeZone.useDaylightTime()
}{
	{"America/New_York", true},
	{"Europe/Berlin", true},
	{"Australia/Sydney", true},
	{"Australia/Lord_Howe", true}, // 30-minute DST
	{"America/Sao_Paulo", false},  // DST abolished in 2019
	{"Asia/Shanghai", false},      // DST 1986-91
	{"Asia/Kolkata", false},
	{"Asia/Kathmandu", false},
}

func TestLocalTimeAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	lo := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	hi := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	for _, z := range testZones {
		loc := mustLoc(t, z.name)
		l := NewLocalTime(loc)
		require.Equal(t, z.dst, l.dst, z.name)

		var in []int64
		for range 5000 {
			in = append(in, lo+rng.Int64N(hi-lo))
		}
		// Sorted runs across every transition near 2024, which is how a
		// stream looks, and the instants just around each transition.
		for x := wall(2023, 1, 1, 0, 0, 0, 0); x < wall(2025, 1, 1, 0, 0, 0, 0); x += 17 * msMinute {
			in = append(in, x)
		}
		// Historic transitions, and ones derived from the zone's rule past
		// its table (2052 is a leap year, which Go's bounds get wrong).
		for _, from := range []int64{lo, wall(2050, 1, 1, 0, 0, 0, 0)} {
			tm := time.UnixMilli(from).In(loc)
			for range 40 {
				_, end := tm.ZoneBounds()
				if end.IsZero() {
					break
				}
				e := max(end.UnixMilli(), tm.UnixMilli()+msHour)
				in = append(in, e-msHour, e-1, e, e+1, e+msHour)
				tm = time.UnixMilli(e).In(loc)
			}
		}
		for x := wall(2052, 12, 29, 0, 0, 0, 0); x < wall(2053, 1, 3, 0, 0, 0, 0); x += 13 * msMinute {
			in = append(in, x)
		}

		out := make([]int64, len(in))
		NewLocalTime(loc).ToLocalColumn(in, out)
		for i, x := range in {
			_, off := time.UnixMilli(x).In(loc).Zone()
			require.Equal(t, x+int64(off)*1000, l.ToLocal(x), "%s ToLocal(%d)", z.name, x)
			require.Equal(t, l.ToLocal(x), out[i], "%s column[%d]", z.name, i)
			// The same numbers read as local wall times.
			require.Equal(t, refToEpoch(loc, x), l.ToEpoch(x), "%s ToEpoch(%d)", z.name, x)
			require.Equal(t, refTimer(loc, z.dst, x), l.ToEpochForTimer(x), "%s ToEpochForTimer(%d)", z.name, x)
		}
	}
}

func TestLocalTimeExtremes(t *testing.T) {
	vals := []int64{math.MinInt64, math.MinInt64 + 1, math.MinInt64 + msHour, math.MinInt64 + msDay,
		math.MaxInt64 - msDay, math.MaxInt64 - msHour, math.MaxInt64 - msHour - 1, math.MaxInt64 - 1, math.MaxInt64}
	names := []string{"America/New_York", "Europe/Berlin", "Asia/Shanghai", "Australia/Lord_Howe", "Pacific/Kiritimati", "Etc/GMT+12"}
	for _, name := range names {
		l := NewLocalTime(mustLoc(t, name))
		// The watermark flags pass through.
		for _, f := range []int64{math.MinInt64, math.MaxInt64} {
			require.Equal(t, f, l.ToLocal(f), name)
			require.Equal(t, f, l.ToEpoch(f), name)
			require.Equal(t, f, l.ToEpochForTimer(f), name)
		}
		out := make([]int64, len(vals))
		l.ToLocalColumn(vals, out)
		for i, v := range vals {
			// Offsets are under a day; anything else is a wrap-around.
			within := func(r int64) {
				require.GreaterOrEqual(t, r, SubSaturating(v, msDay), "%s %d", name, v)
				require.LessOrEqual(t, r, AddSaturating(v, msDay), "%s %d", name, v)
			}
			within(l.ToLocal(v))
			within(l.ToEpoch(v))
			within(l.ToEpochForTimer(v))
			require.Equal(t, l.ToLocal(v), out[i])
		}
	}
	// Saturation instead of overflow.
	sh := NewLocalTime(mustLoc(t, "Asia/Shanghai"))
	require.Equal(t, int64(math.MaxInt64), sh.ToLocal(math.MaxInt64-1))
	require.Equal(t, int64(math.MinInt64), sh.ToEpoch(math.MinInt64+1))
	ny := NewLocalTime(mustLoc(t, "America/New_York"))
	require.Equal(t, int64(math.MinInt64), ny.ToLocal(math.MinInt64+1))
	require.Equal(t, int64(math.MaxInt64), ny.ToEpoch(math.MaxInt64-1))
	require.Equal(t, int64(math.MaxInt64), ny.ToEpochForTimer(math.MaxInt64-1))
}

func TestLocalTimeNoAllocs(t *testing.T) {
	l := NewLocalTime(mustLoc(t, "Europe/Berlin"))
	in := make([]int64, 1024)
	for i := range in {
		in[i] = wall(2024, 3, 31, 0, 0, 0, 0) + int64(i)*10*msMinute // crosses the gap
	}
	out := make([]int64, len(in))
	require.Zero(t, testing.AllocsPerRun(20, func() {
		l.ToLocalColumn(in, out)
		for _, v := range in {
			l.ToEpochForTimer(v)
		}
	}))
}

func BenchmarkToLocalColumn(b *testing.B) {
	base := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	rng := rand.New(rand.NewPCG(3, 4))
	steady := make([]int64, 4096) // a stream: rising, a few minutes of rows
	random := make([]int64, 4096) // worst case: every value in 2000-2040
	for i := range steady {
		steady[i] = base + int64(i)*50 + rng.Int64N(1000)
		random[i] = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli() + rng.Int64N(40*365*msDay)
	}
	for _, c := range []struct {
		name string
		zone string
		in   []int64
	}{
		{"UTC", "UTC", steady},
		{"NewYork/steady", "America/New_York", steady},
		{"NewYork/random40y", "America/New_York", random},
	} {
		b.Run(c.name, func(b *testing.B) {
			l := NewLocalTime(mustLoc(b, c.zone))
			out := make([]int64, len(c.in))
			b.ReportAllocs()
			for b.Loop() {
				l.ToLocalColumn(c.in, out)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(c.in)), "ns/value")
		})
	}
}
