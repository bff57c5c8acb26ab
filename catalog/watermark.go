package catalog

import (
	"strings"

	"github.com/wsql/wsql/sql"
)

// Watermark is a table's `WATERMARK FOR column AS expr`, which makes the
// column the rowtime attribute. Bounded is set for the form Flink users
// write, `column - INTERVAL ...` (or `column` alone, a delay of zero): the
// watermark is then max(column - DelayMillis) over the rows seen. Other
// expressions are kept as written; the planner says whether it can run them.
type Watermark struct {
	Column      string
	Index       int // the column's index: the rowtime index
	Bounded     bool
	DelayMillis int64
	// Upstream is set for the time attribute of a subquery's rows: their
	// watermark is the one the inner query forwards; nothing generates it.
	Upstream bool
	// Source is set for `WATERMARK FOR ts AS SOURCE_WATERMARK()`, as in
	// Flink: the source supplies the watermarks (a table pushed from Go);
	// rows do not move them.
	Source bool
	Expr   sql.Expr
	At     sql.Pos
}

// newWatermark checks a WATERMARK clause against the table's columns.
func newWatermark(def *sql.WatermarkDef, t *Table) (*Watermark, error) {
	idx := t.Column(def.Column.Name)
	if idx < 0 {
		return nil, sql.Errorf(sql.ErrInvalid, def.Column.At, "watermark column %q is not a column of table %s%s",
			def.Column.Name, t.Name, sql.DidYouMean(def.Column.Name, t.ColumnNames()))
	}
	col := t.Columns[idx]
	if err := checkRowtimeType(col, def.Column.At); err != nil {
		return nil, err
	}
	if col.Proctime {
		return nil, sql.Errorf(sql.ErrInvalid, def.Column.At, "watermark column %q is a processing-time attribute (PROCTIME()); declare the watermark on an event-time column", col.Name)
	}
	def.Expr = sql.ResolveFieldRefs(def.Expr, func(n string) bool { return t.Column(n) >= 0 }) // payload.ts
	wm := &Watermark{Column: col.Name, Index: idx, Expr: def.Expr, At: def.At}
	if f, ok := def.Expr.(*sql.FuncCall); ok && strings.EqualFold(f.Name, "SOURCE_WATERMARK") {
		if len(f.Args) > 0 || f.Star {
			return nil, sql.Errorf(sql.ErrInvalid, f.At, "SOURCE_WATERMARK() takes no arguments")
		}
		wm.Source = true
		return wm, nil
	}
	delay, bounded, err := watermarkDelay(def.Expr, col.Name)
	if err != nil {
		return nil, err
	}
	wm.DelayMillis, wm.Bounded = delay, bounded
	return wm, nil
}

// watermarkDelay reads the delay out of `col`, `col - INTERVAL ...` and
// any chain of intervals added to or subtracted from the column (`col +
// INTERVAL` gives a negative delay: a watermark ahead of the data, which
// Flink allows too); bounded is false for any other expression, and for
// year-month intervals, whose length in milliseconds varies.
func watermarkDelay(e sql.Expr, column string) (delay int64, bounded bool, err error) {
	switch x := e.(type) {
	case *sql.ColumnRef:
		return 0, x.Table == "" && (x.Name == column || equalFoldASCII(x.Name, column)), nil
	case *sql.Binary:
		if iv, ok := x.R.(*sql.IntervalLiteral); ok && !iv.YearMonth && (x.Op == "-" || x.Op == "+") {
			d, ok, err := watermarkDelay(x.L, column)
			if x.Op == "-" {
				return d + iv.Millis, ok, err
			}
			return d - iv.Millis, ok, err
		}
		if iv, ok := x.L.(*sql.IntervalLiteral); ok && !iv.YearMonth && x.Op == "+" {
			d, ok, err := watermarkDelay(x.R, column)
			return d - iv.Millis, ok, err
		}
	}
	return 0, false, nil
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
