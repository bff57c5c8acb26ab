package sql

import (
	"fmt"
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// OrderItem is one key of ORDER BY: an expression, or the position of a
// select item (ORDER BY 1: Position 1, Expr nil), descending or not.
type OrderItem struct {
	Expr     Expr
	Position int
	Desc     bool
	At       Pos
}

// Limit is LIMIT n, or FETCH FIRST n ROWS ONLY, which reads the same.
type Limit struct {
	Count int64
	At    Pos
}

// orderBy lifts the keys of ORDER BY.
func (l *lifter) orderBy(o *ast.OrderByClause) ([]OrderItem, *Error) {
	var out []OrderItem
	starts := l.orderItemStarts()
	for i, it := range o.Items {
		if p, ok := it.Expr.(*ast.PositionExpr); ok && p.P == nil {
			at := l.findWord("ORDER")
			if i < len(starts) {
				at = starts[i]
			}
			out = append(out, OrderItem{Position: p.N, Desc: it.Desc, At: at})
			continue
		}
		e, err := l.expr(it.Expr)
		if err != nil {
			return nil, err
		}
		out = append(out, OrderItem{Expr: e, Desc: it.Desc, At: l.exprPos(it.Expr)})
	}
	return out, nil
}

// limit lifts LIMIT n and FETCH FIRST n ROWS ONLY. OFFSET, and MySQL's
// LIMIT m, n, are refused: a stream has no cheap way to skip rows it
// never keeps in order.
func (l *lifter) limit(lim *ast.Limit) (*Limit, *Error) {
	at := l.findWord("LIMIT", "FETCH")
	if lim.Offset != nil {
		return nil, l.unsupported(l.findWord("OFFSET", ","), "OFFSET is not supported yet")
	}
	v, ok := lim.Count.(interface{ GetValue() any })
	if !ok {
		return nil, Errorf(ErrInvalid, at, "LIMIT takes a number of rows")
	}
	n, err := strconv.ParseInt(fmt.Sprint(v.GetValue()), 10, 64)
	if err != nil {
		return nil, Errorf(ErrInvalid, at, "LIMIT takes a number of rows up to %d", int64(1<<63-1))
	}
	return &Limit{Count: n, At: at}, nil
}

// orderItemStarts are the positions of the first tokens of the ORDER BY
// items (TiDB gives a position item, ORDER BY 1, no offset).
func (l *lifter) orderItemStarts() []Pos {
	var out []Pos
	depth, in, next := 0, false, false
	for i, t := range l.scope {
		switch {
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			depth--
		}
		if depth != 0 && !t.isOp("(") {
			continue
		}
		switch {
		case t.is("BY") && i > 0 && l.scope[i-1].is("ORDER") && depth == 0:
			in, next = true, true
			continue
		case in && depth == 0 && (t.is("LIMIT") || t.is("FETCH") || t.is("OFFSET")):
			return out
		case in && t.isOp(",") && depth == 0:
			next = true
			continue
		}
		if in && next {
			out = append(out, t.pos)
			next = false
		}
	}
	return out
}
