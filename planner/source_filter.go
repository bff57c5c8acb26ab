package planner

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/sql"
)

// pushEquals offers a source that can take them (exec.EqualsPusher) the
// conditions `column = integer` among where's top-level ANDs, on the
// table's physical columns: the Nexmark event stream then makes only the
// events of the kind a view selects. It returns the rest of where, the
// conditions the source did not take (nil for none): every row the source
// makes meets those it took, so no Filter evaluates them again. taken
// gets the value each condition taken holds its column (by index in
// schema) to.
//
// Rows the source does not make do not advance the watermark, which the
// source answers for by making its rows in event-time order; the
// condition is pushed only under a watermark no later than the rowtime
// (t.Watermark's delay zero or more), or without one.
func pushEquals(p exec.EqualsPusher, where sql.Expr, t *catalog.Table, schema *arrow.Schema, taken map[int]int64) sql.Expr {
	if w := t.Watermark; w != nil && (w.Source || !w.Bounded || w.DelayMillis < 0) {
		return where
	}
	var rest sql.Expr
	for _, c := range conjuncts(where) {
		if !pushEqual(p, c, t, schema, taken) {
			rest = andExpr(rest, c)
		}
	}
	return rest
}

// pushEqual offers the source one condition, and tells whether it took it.
func pushEqual(p exec.EqualsPusher, c sql.Expr, t *catalog.Table, schema *arrow.Schema, taken map[int]int64) bool {
	b, ok := c.(*sql.Binary)
	if !ok || b.Op != "=" {
		return false
	}
	col, lit := b.L, b.R
	if _, ok := col.(*sql.Literal); ok {
		col, lit = lit, col
	}
	ref, ok := col.(*sql.ColumnRef)
	l, isLit := lit.(*sql.Literal)
	if !ok || !isLit || l.Kind != sql.LitInt {
		return false
	}
	i := t.Column(ref.Name)
	if i < 0 || t.Columns[i].Computed != nil {
		return false
	}
	idx := schema.FieldIndices(t.Columns[i].Name)
	v, err := strconv.ParseInt(l.Text, 10, 64)
	if len(idx) != 1 || err != nil || !isInteger(schema.Field(idx[0]).Type) {
		return false
	}
	if !p.PushEquals(idx[0], v) {
		return false
	}
	taken[idx[0]] = v
	return true
}

// isInteger tells whether t is a signed integer type, which compares with
// an integer literal exactly.
func isInteger(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return true
	}
	return false
}
