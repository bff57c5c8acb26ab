package planner

import (
	"math"

	"github.com/wsql/wsql/exec/joinop"
	"github.com/wsql/wsql/sql"
)

// intervalBounds finds, among a join's residual conjuncts, the bounds of
// an interval join as Flink's IntervalJoinUtil does: comparisons of the
// two sides' time attributes, each moved by a constant interval (l.ts
// BETWEEN r.ts - INTERVAL '1' HOUR AND r.ts, l.ts > r.ts - ..., ...). It
// returns the interval when both a lower and an upper bound were found,
// and the conjuncts that remain the residual condition.
func intervalBounds(conds []sql.Expr, l, r joinSide) (*joinop.Interval, []sql.Expr) {
	if l.timeAttr < 0 || r.timeAttr < 0 {
		return nil, conds
	}
	lower, upper := int64(math.MinInt64), int64(math.MaxInt64)
	var rest []sql.Expr
	for _, c := range conds {
		parts := []sql.Expr{c}
		if b, ok := c.(*sql.Between); ok && !b.Not && !b.Symmetric {
			parts = []sql.Expr{
				&sql.Binary{At: b.At, Op: ">=", L: b.X, R: b.Lo},
				&sql.Binary{At: b.At, Op: "<=", L: b.X, R: b.Hi},
			}
		}
		var found []timeBound
		for _, p := range parts {
			if tb, ok := timeBoundOf(p, l, r); ok {
				found = append(found, tb)
			}
		}
		if len(found) != len(parts) {
			rest = append(rest, c)
			continue
		}
		for _, tb := range found {
			if tb.lower {
				lower = max(lower, tb.millis)
			} else {
				upper = min(upper, tb.millis)
			}
		}
	}
	if lower == math.MinInt64 || upper == math.MaxInt64 {
		return nil, conds
	}
	return &joinop.Interval{LeftTime: l.dataIndex(l.timeAttr), RightTime: r.dataIndex(r.timeAttr), Lower: lower, Upper: upper}, rest
}

// timeBound is one bound on l.ts - r.ts: at least millis (lower) or at
// most millis.
type timeBound struct {
	lower  bool
	millis int64
}

// timeBoundOf reads c as a bound of l.ts - r.ts: a comparison of the two
// time attributes, each plus or minus a constant day-time interval.
func timeBoundOf(c sql.Expr, l, r joinSide) (timeBound, bool) {
	b, ok := c.(*sql.Binary)
	if !ok {
		return timeBound{}, false
	}
	op := b.Op
	switch op {
	case ">=", ">", "<=", "<":
	default:
		return timeBound{}, false
	}
	sa, ma, okA := timeOffset(b.L, l, r)
	sb, mb, okB := timeOffset(b.R, l, r)
	if !okA || !okB || sa == sb {
		return timeBound{}, false
	}
	// l + ma op r + mb  ⇔  l - r op mb - ma; with the sides the other way
	// round the comparison turns.
	d := mb - ma
	if sa == 1 {
		d = ma - mb
		op = map[string]string{">=": "<=", ">": "<", "<=": ">=", "<": ">"}[op]
	}
	switch op {
	case ">=":
		return timeBound{lower: true, millis: d}, true
	case ">":
		return timeBound{lower: true, millis: d + 1}, true
	case "<=":
		return timeBound{millis: d}, true
	default:
		return timeBound{millis: d - 1}, true
	}
}

// timeOffset reads e as a side's time attribute plus a constant: the side
// (0 left, 1 right) and the milliseconds added.
func timeOffset(e sql.Expr, l, r joinSide) (side int, millis int64, ok bool) {
	switch x := e.(type) {
	case *sql.ColumnRef:
		if i, err := l.cols.find(x); err == nil && i == l.timeAttr {
			return 0, 0, true
		}
		if i, err := r.cols.find(x); err == nil && i == r.timeAttr {
			return 1, 0, true
		}
	case *sql.Binary:
		iv, isIv := x.R.(*sql.IntervalLiteral)
		if !isIv || iv.YearMonth || x.Op != "+" && x.Op != "-" {
			return 0, 0, false
		}
		side, m, ok := timeOffset(x.L, l, r)
		if !ok || m != 0 {
			return 0, 0, false
		}
		if x.Op == "-" {
			return side, -iv.Millis, true
		}
		return side, iv.Millis, true
	}
	return 0, 0, false
}

// dataIndex is the index in the side's schema of its data column i.
func (s joinSide) dataIndex(i int) int {
	return joinop.DataColumns(s.plan.Schema())[i]
}
