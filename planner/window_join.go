package planner

import (
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/joinop"
	"github.com/wsql/wsql/sql"
)

// windowBounds finds the columns of p's rows that are the window_start and
// window_end of a window table function: the TVF's own rows, a window
// aggregation over it (or over the windows its rows come with, an
// attached one), or a filter and projection of either that passes them
// on (under any name). Flink's window join needs them on both sides;
// a group window's (GROUP BY TUMBLE(...)) do not count, as in Flink.
func windowBounds(p *Plan) (start, end int, w Window, ok bool) {
	switch {
	case p.TVF != nil:
		n := p.Schema().NumFields()
		return n - 3, n - 2, p.TVF.Window, true
	case p.Join != nil || p.Union != nil || p.Rank != nil || p.SetOp != nil || p.Over != nil || p.Order != nil:
		return 0, 0, Window{}, false
	case p.Plain && p.Input != nil && p.Computed == nil:
		if start, end, w, ok = windowBounds(p.Input); !ok {
			return 0, 0, Window{}, false
		}
	case !p.Plain && !p.Group && p.ByTVF && p.PostWindow == nil && p.Window.Kind != sql.CountWindow:
		shift := 0
		if p.Updates() {
			shift = 1
		}
		start, end, w = shift+len(p.Keys), shift+len(p.Keys)+1, p.Window
		if a := p.Attached; a != nil {
			// the bounds are grouping keys: the operator's own are those
			// of the tumbling window it runs as
			start, end = shift+a.StartKey, shift+a.EndKey
		}
	default:
		return 0, 0, Window{}, false
	}
	// the projection's columns that read them
	s, e := projectedFrom(p.Project, start), projectedFrom(p.Project, end)
	return s, e, w, s >= 0 && e >= 0
}

// projectedFrom is the output column of a projection that passes input
// column c on unchanged, or -1.
func projectedFrom(spec exec.ProjectSpec, c int) int {
	if spec.Exprs == nil {
		for i, k := range spec.Columns {
			if k == c {
				return i
			}
		}
		return -1
	}
	for i, e := range spec.Exprs {
		if col, ok := e.(*expr.ColumnExpr); ok && col.Index == c {
			return i
		}
	}
	return -1
}

// windowJoin makes a join of two window TVFs' rows a window join when ON
// equates both sides' window_start and window_end, which it takes out of
// the keys (Flink's WindowJoinUtil). Both sides must have the same window.
func windowJoin(cfg *joinop.Config, l, r joinSide, jpl *JoinPlan) error {
	ls, le, lw, okL := windowBounds(l.plan)
	rs, re, rw, okR := windowBounds(r.plan)
	if !okL || !okR {
		return nil
	}
	var keepL, keepR []int
	var keys []string
	startEq, endEq := false, false
	for i, lk := range cfg.LeftKeys {
		rk := cfg.RightKeys[i]
		switch {
		case lk == ls && rk == rs:
			startEq = true
		case lk == le && rk == re:
			endEq = true
		default:
			keepL, keepR = append(keepL, lk), append(keepR, rk)
			keys = append(keys, jpl.Keys[i])
		}
	}
	if !startEq || !endEq {
		return nil // a regular join of the windows' rows, as in Flink
	}
	lw.At, rw.At = sql.Pos{}, sql.Pos{}
	if lw != rw {
		return sql.Errorf(sql.ErrUnsupported, jpl.At, "a window join needs the same window on both sides: the left has %s, the right %s (Flink's restriction too)", lw, rw)
	}
	cfg.LeftKeys, cfg.RightKeys, jpl.Keys = keepL, keepR, keys
	cfg.Window = &joinop.Window{LeftStart: ls, LeftEnd: le, RightStart: rs, RightEnd: re}
	jpl.Window = lw.String()
	return nil
}
