package wsql

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/planner"
)

// WarnShare is the share of the rows read, in percent, from which the rows
// a query drops as late, or leaves in no emitted window, are a warning
// (Summary.Warning) rather than only a count: a few late rows of an
// out-of-order stream are expected, a tenth of the input is a mistake.
const WarnShare = 10

// LateRows describes the rows a query dropped as late (Summary.LateRowsDropped).
// A row's lateness is how much larger the WATERMARK delay would have had to
// be for it to be on time: the watermark at its arrival minus the last
// millisecond of its last window (plus the allowed lateness), plus 1 ms.
type LateRows struct {
	Max     time.Duration // the largest lateness
	Typical time.Duration // the median lateness (within 25%, never below it)
	P90     time.Duration // 90% of the rows were at most this late (within 25%)
	// SuggestedDelay is a WATERMARK delay that would have kept at least 90%
	// of the rows: the query's delay plus P90, rounded up to a readable
	// unit. Zero when the watermark has no fixed delay (a general
	// expression or the source's watermarks): then raise it by P90.
	SuggestedDelay time.Duration
	// Column is the time attribute the WATERMARK is declared on.
	Column string
	// KeptIn is wsql.late-data.path when the late rows were written there.
	KeptIn string
}

// lateRows fills the report of a run's late rows from the lateness
// histogram and the innermost plan's watermark.
func lateRows(stats *exec.Stats, p *planner.Plan) LateRows {
	l := &stats.Lateness
	if l.Count() == 0 {
		return LateRows{}
	}
	ms := func(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
	r := LateRows{Max: ms(l.Max), Typical: ms(l.Quantile(0.5)), P90: ms(l.Quantile(0.9)), KeptIn: p.Emit.LateDataPath}
	src := p
	for src.Input != nil {
		src = src.Input
	}
	if w := src.Watermark; w != nil {
		r.Column = w.Column
		if w.Bounded && !w.Source && src.WatermarkExpr == nil {
			r.SuggestedDelay = ms(roundUpDelay(w.DelayMillis + l.Quantile(0.9)))
		}
	}
	return r
}

// Warning explains, on lines for stderr, the rows the query lost for a
// reason the user can change: late rows, rows in the gaps of a HOP and
// rows of COUNT windows that never filled, each when they are at least
// WarnShare percent of the rows read. It is "" when there is nothing to
// say. Late rows kept in wsql.late-data.path are not lost: no warning.
func (s Summary) Warning() string {
	var b strings.Builder
	if s.LateRowsDropped > 0 && s.Late.KeptIn == "" && s.notable(s.LateRowsDropped) {
		l := s.Late
		fmt.Fprintf(&b, "wsql: warning: %s were dropped as late: the watermark had passed their windows by up to %s, typically about %s\n",
			s.share(s.LateRowsDropped), readableDuration(l.Max), readableDuration(twoDigits(l.Typical)))
		if l.SuggestedDelay > 0 {
			fmt.Fprintf(&b, "  a watermark delay of %s would have kept at least 90%% of them:\n    WATERMARK FOR %s AS %s - INTERVAL %s\n",
				readableDuration(l.SuggestedDelay), l.Column, l.Column, intervalLiteral(l.SuggestedDelay.Milliseconds()))
		} else {
			fmt.Fprintf(&b, "  a watermark delay %s larger would have kept at least 90%% of them\n",
				readableDuration(time.Duration(roundUpDelay(l.P90.Milliseconds()))*time.Millisecond))
		}
		b.WriteString("  or keep late rows in a file: SET 'wsql.late-data.path' = 'late.csv';\n")
	}
	if gaps := s.NoWindowRows - s.UnfilledCountRows; gaps > 0 && s.notable(gaps) {
		fmt.Fprintf(&b, "wsql: warning: %s fell in the gaps between HOP windows and reached no window:\n"+
			"  the slide is larger than the size; HOP(time, slide, size) takes the slide first: swap them, or make the size at least the slide\n", s.share(gaps))
	}
	if s.UnfilledCountRows > 0 && s.notable(s.UnfilledCountRows) {
		fmt.Fprintf(&b, "wsql: warning: %s are in COUNT windows that never filled, which are not emitted:\n"+
			"  COUNT_WINDOW(n) emits a key's window when its n-th row arrives; use a smaller n, or a time window to see partial groups\n", s.share(s.UnfilledCountRows))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// notable reports whether n rows are at least WarnShare percent of the rows read.
func (s Summary) notable(n int64) bool {
	return s.RowsRead <= 0 || n*100 >= s.RowsRead*WarnShare
}

// share is "n of m rows (p%)".
func (s Summary) share(n int64) string {
	if s.RowsRead <= 0 {
		return fmt.Sprintf("%d rows", n)
	}
	return fmt.Sprintf("%d of %d rows (%d%%)", n, s.RowsRead, (n*100+s.RowsRead/2)/s.RowsRead)
}

// roundUpDelay rounds a delay in ms up to a unit a DDL line is written in:
// one significant digit below a second, then whole seconds, minutes (from
// 10 min) and hours (from 10 h).
func roundUpDelay(ms int64) int64 {
	up := func(v, unit int64) int64 { return (v + unit - 1) / unit * unit }
	switch {
	case ms <= 0:
		return 0
	case ms < 1000:
		unit := int64(1)
		for unit*10 <= ms {
			unit *= 10
		}
		return up(ms, unit)
	case ms < 10*60_000:
		return up(ms, 1000)
	case ms < 10*3_600_000:
		return up(ms, 60_000)
	}
	return up(ms, 3_600_000)
}

// intervalLiteral writes ms as an INTERVAL literal in the largest unit
// that divides it (seconds with a fraction below a second).
func intervalLiteral(ms int64) string {
	for _, u := range []struct {
		ms   int64
		name string
	}{{3_600_000, "HOUR"}, {60_000, "MINUTE"}, {1000, "SECOND"}} {
		if ms >= u.ms && ms%u.ms == 0 {
			return fmt.Sprintf("'%d' %s", ms/u.ms, u.name)
		}
	}
	return "'" + strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64) + "' SECOND"
}

// twoDigits rounds d to two significant digits of milliseconds: the
// typical lateness comes from a histogram, more digits would be noise.
func twoDigits(d time.Duration) time.Duration {
	ms := d.Milliseconds()
	unit := int64(1)
	for ms >= 100*unit {
		unit *= 10
	}
	return time.Duration((ms+unit/2)/unit*unit) * time.Millisecond
}

// readableDuration writes d for a person: "350 ms", "4.5 s", "2 min 5 s",
// "3 h 20 min".
func readableDuration(d time.Duration) string {
	ms := d.Milliseconds()
	switch {
	case ms < 1000:
		return fmt.Sprintf("%d ms", ms)
	case ms < 60_000:
		return strconv.FormatFloat(float64(ms/100)/10, 'f', -1, 64) + " s"
	case ms < 3_600_000:
		return unitsText(ms/1000, 60, "min", "s")
	case ms < 86_400_000:
		return unitsText(ms/60_000, 60, "h", "min")
	}
	return unitsText(ms/3_600_000, 24, "d", "h")
}

func unitsText(small, per int64, big, smallName string) string {
	if small%per == 0 {
		return fmt.Sprintf("%d %s", small/per, big)
	}
	return fmt.Sprintf("%d %s %d %s", small/per, big, small%per, smallName)
}
