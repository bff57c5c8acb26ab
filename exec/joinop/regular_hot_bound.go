package joinop

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
)

// boundProbe is the residual as a row of one side probes the other side's
// hot groups when it compares a column of that row with a column of the
// other side (Nexmark q5's num >= maxn): the row's value is bound, and the
// probe compares it with the values the group keeps of the other column
// (boundValues) rather than evaluating the residual over pairs.
type boundProbe struct {
	op       compareOp // with the hot side's column as its left operand
	own      int       // the probing row's column, in its side's schema
	otherCol int       // the hot side's column, in its side's schema
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
		op, ok := compareOpOf(c.Op, ownFirst)
		if !ok {
			continue
		}
		ownCol, otherCol := own.Index, other.Index
		if input == 0 {
			otherCol -= nLeft
		} else {
			ownCol -= nLeft
		}
		j.bound[input] = &boundProbe{op: op, own: ownCol, otherCol: otherCol}
	}
}
