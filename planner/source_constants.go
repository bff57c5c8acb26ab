package planner

import (
	"github.com/wsql/wsql/exec/expr"
)

// decideOnTaken decides the branches of a computed column's CASE whose
// conditions compare a column the source holds to one value (a WHERE
// `column = integer` it took, pushEquals) with an integer: every row the
// source makes has that value, so those branches are known before any
// row. The Nexmark views' dateTime, CASE WHEN event_type = 0 THEN
// person.dateTime WHEN event_type = 1 THEN auction.dateTime ELSE
// bid.dateTime END, is then the one kind's dateTime: no CASE evaluated
// per row (Nexmark q5: 6% of its CPU). Branches from the first condition
// it cannot decide on stay as they are.
func decideOnTaken(e expr.Expr, taken map[int]int64) expr.Expr {
	c, ok := e.(*expr.Case)
	if !ok || len(taken) == 0 {
		return e
	}
	for k, when := range c.Whens {
		holds, known := decideEqual(when, taken)
		switch {
		case !known:
			if k == 0 {
				return e
			}
			return &expr.Case{Whens: c.Whens[k:], Thens: c.Thens[k:], Else: c.Else, Type: c.Type}
		case holds:
			return c.Thens[k]
		}
	}
	if c.Else == nil {
		return &expr.Literal{Type: c.Type, Null: true}
	}
	return c.Else
}

// decideEqual tells whether cond, `column = integer` or `integer =
// column` over a column of taken, holds, and whether it can tell.
func decideEqual(cond expr.Expr, taken map[int]int64) (holds, known bool) {
	cmp, ok := cond.(*expr.Compare)
	if !ok || cmp.Op != "=" {
		return false, false
	}
	col, isCol := cmp.L.(*expr.ColumnExpr)
	lit, isLit := cmp.R.(*expr.Literal)
	if !isCol {
		col, isCol = cmp.R.(*expr.ColumnExpr)
		lit, isLit = cmp.L.(*expr.Literal)
	}
	if !isCol || !isLit || lit.Null || !isInteger(lit.Type) {
		return false, false
	}
	v, ok := taken[col.Index]
	if !ok {
		return false, false
	}
	return v == lit.Int, true
}
