package sql

import "github.com/pingcap/tidb/pkg/parser/ast"

// The predicates IN, BETWEEN and LIKE and the CASE expression lift one to
// one from TiDB's nodes. Each starts at its first token, the tested
// expression for the predicates (or a "(" before it), CASE for CASE.

// in lifts x [NOT] IN (list) and x [NOT] IN (SELECT ...).
func (l *lifter) in(e *ast.PatternInExpr, at Pos) (Expr, *Error) {
	if e.Sel != nil {
		x, err := l.expr(e.Expr)
		if err != nil {
			return nil, err
		}
		q, err := l.subqueryExpr(e.Sel)
		if err != nil {
			return nil, err
		}
		return &Subquery{At: at, X: x, Query: q, Not: e.Not}, nil
	}
	x, err := l.expr(e.Expr)
	if err != nil {
		return nil, err
	}
	list, err := l.exprs(e.List)
	if err != nil {
		return nil, err
	}
	return &In{At: at, X: x, List: list, Not: e.Not}, nil
}

func (l *lifter) between(e *ast.BetweenExpr, at Pos) (Expr, *Error) {
	x, err := l.expr(e.Expr)
	if err != nil {
		return nil, err
	}
	lo, err := l.expr(e.Left)
	if err != nil {
		return nil, err
	}
	hi, err := l.expr(e.Right)
	if err != nil {
		return nil, err
	}
	return &Between{At: at, X: x, Lo: lo, Hi: hi, Not: e.Not, Symmetric: l.wordsBefore(e.Left, "SYMMETRIC")}, nil
}

// like lifts x [NOT] LIKE pattern [ESCAPE 'c']. TiDB keeps only the
// escape's byte, so the rewriter put a marker there that names the
// user's literal (escapeMarker).
func (l *lifter) like(e *ast.PatternLikeOrIlikeExpr, at Pos) (Expr, *Error) {
	if !e.IsLike {
		return nil, l.unsupported(at, "ILIKE is not supported yet; use LOWER(x) LIKE pattern")
	}
	x, err := l.expr(e.Expr)
	if err != nil {
		return nil, err
	}
	pat, err := l.expr(e.Pattern)
	if err != nil {
		return nil, err
	}
	like := &Like{At: at, X: x, Pattern: pat, Not: e.Not, Similar: l.wordsBefore(e.Pattern, "SIMILAR", "TO")}
	if e.EscapeExplicit {
		like.Escape = l.escape(e.Escape)
	}
	return like, nil
}

// caseExpr lifts both forms of CASE; Value is nil for the searched form.
func (l *lifter) caseExpr(e *ast.CaseExpr, at Pos) (Expr, *Error) {
	c := &Case{At: at}
	var err *Error
	if e.Value != nil {
		if c.Operand, err = l.expr(e.Value); err != nil {
			return nil, err
		}
	}
	for _, w := range e.WhenClauses {
		conds, err := l.whenList(w.Expr)
		if err != nil {
			return nil, err
		}
		if len(conds) > 1 && c.Operand == nil {
			return nil, Errorf(ErrSyntax, conds[1].Pos(), "several values after WHEN need the form CASE x WHEN a, b THEN ...")
		}
		res, err := l.expr(w.Result)
		if err != nil {
			return nil, err
		}
		c.Whens = append(c.Whens, When{Cond: conds[0], More: conds[1:], Result: res})
	}
	if e.ElseClause != nil {
		if c.Else, err = l.expr(e.ElseClause); err != nil {
			return nil, err
		}
	}
	return c, nil
}
