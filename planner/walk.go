package planner

import (
	"strings"

	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/sql"
)

// walkExpr calls fn for e and, while fn returns true, for every
// sub-expression, depth first in source order.
func walkExpr(e sql.Expr, fn func(sql.Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	switch x := e.(type) {
	case *sql.Unary:
		walkExpr(x.X, fn)
	case *sql.Binary:
		walkExpr(x.L, fn)
		walkExpr(x.R, fn)
	case *sql.IsNull:
		walkExpr(x.X, fn)
	case *sql.Cast:
		walkExpr(x.X, fn)
	case *sql.FuncCall:
		for _, a := range x.Args {
			walkExpr(a, fn)
		}
		walkExpr(x.Filter, fn)
	case *sql.WindowCall:
		for _, a := range x.Args {
			walkExpr(a, fn)
		}
	case *sql.WindowAux:
		for _, a := range x.Args {
			walkExpr(a, fn)
		}
	case *sql.In:
		walkExpr(x.X, fn)
		for _, a := range x.List {
			walkExpr(a, fn)
		}
	case *sql.Between:
		walkExpr(x.X, fn)
		walkExpr(x.Lo, fn)
		walkExpr(x.Hi, fn)
	case *sql.Like:
		walkExpr(x.X, fn)
		walkExpr(x.Pattern, fn)
		walkExpr(x.Escape, fn)
	case *sql.Case:
		walkExpr(x.Operand, fn)
		for _, w := range x.Whens {
			walkExpr(w.Cond, fn)
			for _, m := range w.More {
				walkExpr(m, fn)
			}
			walkExpr(w.Result, fn)
		}
		walkExpr(x.Else, fn)
	case *sql.Extract:
		walkExpr(x.X, fn)
	case *sql.IsTruth:
		walkExpr(x.X, fn)
	case *sql.Trim:
		walkExpr(x.Chars, fn)
		walkExpr(x.X, fn)
	case *sql.FieldAccess:
		walkExpr(x.X, fn)
	case *sql.ItemAccess:
		walkExpr(x.X, fn)
		walkExpr(x.Index, fn)
	}
}

// isAggregateCall reports whether e calls an aggregate function of fns.
func isAggregateCall(fns *function.Registry, e sql.Expr) bool {
	f, ok := e.(*sql.FuncCall)
	return ok && fns.IsKind(strings.ToUpper(f.Name), function.AggregateFunction)
}

// hasAggregate reports whether e contains an aggregate call.
func hasAggregate(fns *function.Registry, e sql.Expr) bool {
	found := false
	walkExpr(e, func(x sql.Expr) bool {
		if isAggregateCall(fns, x) {
			found = true
		}
		return !found
	})
	return found
}
