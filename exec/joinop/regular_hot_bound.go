package joinop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/expr"
)

// boundProbe is the residual as a row of one side probes the other side's
// hot groups when it compares a column of that row with a column of the
// other side (Nexmark q5's num >= maxn): the row's value is bound as a
// literal, so a probe compares the group's column with one value (the
// scalar kernels) rather than with the row's value repeated in a column
// of its own, gathered for every probe.
type boundProbe struct {
	op       string
	own      int              // the probing row's column, in its side's schema
	other    *expr.ColumnExpr // the hot side's column, in schema
	ownFirst bool             // the row's column is the comparison's left operand
	schema   *arrow.Schema    // the pair schema, the probing side's columns NULL-typed
	nulls    int              // the probing side's columns: the pair's first or last
}

// bindProbes sets up the bound residual of each side's probes, where the
// residual has that form over integer columns of one type.
func (j *regularJoin) bindProbes() {
	c, ok := j.cfg.Residual.(*expr.Compare)
	if !ok {
		return
	}
	l, lok := c.L.(*expr.ColumnExpr)
	r, rok := c.R.(*expr.ColumnExpr)
	if !lok || !rok || !arrow.TypeEqual(l.Type, r.Type) {
		return
	}
	switch l.Type.ID() {
	case arrow.INT64, arrow.INT32, arrow.TIMESTAMP, arrow.DATE32:
	default:
		return
	}
	nLeft := j.sides[0].schema.NumFields()
	for input := range 2 {
		own, other, ownFirst := l, r, true
		if (l.Index < nLeft) != (input == 0) {
			own, other, ownFirst = r, l, false
		}
		if (own.Index < nLeft) != (input == 0) || (other.Index < nLeft) == (input == 0) {
			continue // both columns of one side
		}
		fields := append([]arrow.Field{}, j.pairSchema.Fields()...)
		from, to := 0, nLeft
		if input == 1 {
			from, to = nLeft, len(fields)
		}
		for k := from; k < to; k++ {
			fields[k] = arrow.Field{Name: fields[k].Name, Type: arrow.Null, Nullable: true}
		}
		ownCol := own.Index - from
		j.bound[input] = &boundProbe{op: c.Op, own: ownCol, other: other, ownFirst: ownFirst,
			schema: arrow.NewSchema(fields, nil), nulls: to - from}
	}
}

// compare is the residual bound to row i of data; nil when the row's
// value is NULL, which matches nothing.
func (b *boundProbe) compare(data arrow.RecordBatch, i int) *expr.Compare {
	col := data.Column(b.own)
	if col.IsNull(i) {
		return nil
	}
	lit := expr.LiteralAt(col, i)
	if b.ownFirst {
		return &expr.Compare{Op: b.op, L: lit, R: b.other}
	}
	return &expr.Compare{Op: b.op, L: b.other, R: lit}
}

// pairs is a part of a hot group as the bound comparison reads it: the
// probing side's columns NULL, the group's columns as kept.
func (b *boundProbe) pairs(input int, part []arrow.Array, n int) arrow.RecordBatch {
	cols := make([]arrow.Array, 0, b.nulls+len(part))
	if input == 1 {
		cols = append(cols, part...)
	}
	for range b.nulls {
		cols = append(cols, array.NewNull(n))
	}
	if input == 0 {
		cols = append(cols, part...)
	}
	rec := array.NewRecordBatch(b.schema, cols, int64(n))
	if input == 1 {
		cols = cols[len(part):]
	} else {
		cols = cols[:b.nulls]
	}
	expr.ReleaseAll(cols)
	return rec
}
