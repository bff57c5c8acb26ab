package sql

import (
	"fmt"
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// OrderItem is one key of ORDER BY: an expression, descending or not.
type OrderItem struct {
	Expr Expr
	Desc bool
	At   Pos
}

// Limit is LIMIT n, or FETCH FIRST n ROWS ONLY, which reads the same.
type Limit struct {
	Count int64
	At    Pos
}

// orderBy lifts the keys of ORDER BY.
func (l *lifter) orderBy(o *ast.OrderByClause) ([]OrderItem, *Error) {
	var out []OrderItem
	for _, it := range o.Items {
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
