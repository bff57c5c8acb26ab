package planner

import (
	"fmt"
	"strings"
	"time"

	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/planner/intervalfold"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// Window is a planned group window, from GROUP BY TUMBLE(...) or from a
// window table-valued function: both lower to the same Window.
type Window struct {
	Kind  sql.WindowKind
	Size  int64 // ms; TUMBLE, HOP, CUMULATE
	Slide int64 // ms; HOP
	Step  int64 // ms; CUMULATE
	Gap   int64 // ms; SESSION (with GapColumn: the unit the column counts in)
	// GapColumn names the integer column of a dynamic session gap,
	// SESSION(ts, INTERVAL '1' SECOND * col): each row's gap is col × Gap.
	GapColumn string
	Offset    int64 // ms
	At        sql.Pos
	// COUNT_WINDOW uses Size and Slide as row counts.
}

func (w Window) String() string {
	var args []string
	switch w.Kind {
	case sql.Tumble:
		args = append(args, "size="+Millis(w.Size))
	case sql.Hop:
		args = append(args, "slide="+Millis(w.Slide), "size="+Millis(w.Size))
	case sql.Cumulate:
		args = append(args, "step="+Millis(w.Step), "size="+Millis(w.Size))
	case sql.Session:
		if w.GapColumn != "" {
			args = append(args, fmt.Sprintf("gap=%s * %s per row", w.GapColumn, Millis(w.Gap)))
		} else {
			args = append(args, "gap="+Millis(w.Gap))
		}
	case sql.CountWindow:
		args = append(args, fmt.Sprintf("size=%d rows", w.Size))
		if w.Slide != w.Size {
			args = append(args, fmt.Sprintf("slide=%d rows", w.Slide))
		}
	}
	if w.Offset != 0 {
		args = append(args, "offset="+Millis(w.Offset))
	}
	return fmt.Sprintf("%s(%s)", w.Kind, strings.Join(args, ", "))
}

// Millis prints a duration in ms the short way: 1 min, 5 s, 1500 ms.
func Millis(ms int64) string { return rowtime.MillisText(ms) }

// windowArgs checks the interval arguments of a window (as written in
// GROUP BY or a TVF) and fills in w. args are in Flink's positional order.
func windowArgs(kind sql.WindowKind, at sql.Pos, args []sql.Expr, notices *[]Notice) (Window, error) {
	w := Window{Kind: kind, At: at}
	usage := map[sql.WindowKind]string{
		sql.Tumble:   "TUMBLE(ts, size [, offset])",
		sql.Hop:      "HOP(ts, slide, size [, offset])",
		sql.Cumulate: "CUMULATE(ts, step, size [, offset])",
		sql.Session:  "SESSION(ts, gap)",
	}[kind]
	want := map[sql.WindowKind][2]int{sql.Tumble: {1, 2}, sql.Hop: {2, 3}, sql.Cumulate: {2, 3}, sql.Session: {1, 1}}[kind]
	if len(args) < want[0] || len(args) > want[1] {
		return w, sql.Errorf(sql.ErrInvalid, at, "%s takes a time attribute and %s: %s", kind, map[bool]string{true: "one interval", false: fmt.Sprintf("%d to %d intervals", want[0], want[1])}[want[0] == want[1]], usage)
	}
	ms := make([]int64, len(args))
	for i, a := range args {
		if err := intervalfold.WindowArg(a, usage); err != nil {
			return w, err
		}
		ms[i] = a.(*sql.IntervalLiteral).Millis
	}
	positive := func(i int, what string) error {
		if ms[i] <= 0 {
			return sql.Errorf(sql.ErrInvalid, args[i].Pos(), "window %s must be positive, got %s", what, args[i].(*sql.IntervalLiteral).Text)
		}
		return nil
	}
	offsetAt := -1
	switch kind {
	case sql.Tumble:
		w.Size = ms[0]
		if err := positive(0, "size"); err != nil {
			return w, err
		}
		offsetAt = 1
	case sql.Hop:
		w.Slide, w.Size = ms[0], ms[1]
		if err := positive(0, "slide"); err != nil {
			return w, err
		}
		if err := positive(1, "size"); err != nil {
			return w, err
		}
		if err := windowsPerRow(kind, args[0], windowop.HopWindowsPerRow(w.Slide, w.Size), w.Slide, w.Size); err != nil {
			return w, err
		}
		if w.Slide > w.Size {
			// usually the two intervals swapped: say the order, Flink's
			*notices = append(*notices, Notice{At: at, Msg: fmt.Sprintf(
				"HOP slide %s is larger than its size %s: rows in the gaps between windows belong to no window; the arguments are HOP(time, slide, size), as in Flink, so for %s windows every %s swap the two intervals",
				Millis(w.Slide), Millis(w.Size), Millis(w.Slide), Millis(w.Size))})
		}
		offsetAt = 2
	case sql.Cumulate:
		w.Step, w.Size = ms[0], ms[1]
		if err := positive(0, "step"); err != nil {
			return w, err
		}
		if err := positive(1, "size"); err != nil {
			return w, err
		}
		if w.Size%w.Step != 0 {
			return w, sql.Errorf(sql.ErrInvalid, args[1].Pos(), "CUMULATE size %s must be a whole multiple of its step %s", Millis(w.Size), Millis(w.Step))
		}
		if err := windowsPerRow(kind, args[0], windowop.CumulateWindowsPerRow(w.Step, w.Size), w.Step, w.Size); err != nil {
			return w, err
		}
		offsetAt = 2
	case sql.Session:
		w.Gap = ms[0]
		if err := positive(0, "gap"); err != nil {
			return w, err
		}
	}
	if offsetAt >= 0 && len(args) > offsetAt {
		w.Offset = ms[offsetAt]
		limit := w.Size
		if kind == sql.Hop {
			limit = w.Slide
		}
		if w.Offset >= limit || -w.Offset >= limit {
			what := map[bool]string{true: "slide", false: "size"}[kind == sql.Hop]
			return w, sql.Errorf(sql.ErrInvalid, args[offsetAt].Pos(), "window offset %s must be smaller than the %s %s", Millis(w.Offset), what, Millis(limit))
		}
	}
	return w, nil
}

// windowsPerRow refuses a HOP slide or CUMULATE step that puts a row in
// more than windowop.MaxWindowsPerRow windows (per of them), at the
// argument, naming the smallest slide or step that would do.
func windowsPerRow(kind sql.WindowKind, arg sql.Expr, per, by, size int64) error {
	if per <= windowop.MaxWindowsPerRow {
		return nil
	}
	what := map[bool]string{true: "slide", false: "step"}[kind == sql.Hop]
	least := (size-1)/windowop.MaxWindowsPerRow + 1
	hint := fmt.Sprintf("use a %s of at least %s", what, Millis(least))
	if kind == sql.Cumulate {
		hint += " that divides the size"
	}
	return sql.Errorf(sql.ErrInvalid, arg.Pos(), "%s %s %s with size %s puts every row in %d windows; at most %d are supported: %s",
		kind, what, Millis(by), Millis(size), per, windowop.MaxWindowsPerRow, hint)
}

// Notice is a warning about a statement that still runs.
type Notice struct {
	At  sql.Pos
	Msg string
}

func (n Notice) String() string { return n.At.String() + ": warning: " + n.Msg }

// ParseDuration reads a duration setting as Flink writes one ('10 s',
// '1 min', '500ms'; no unit is milliseconds).
func ParseDuration(text string) (time.Duration, error) { return connector.ParseDuration(text) }
