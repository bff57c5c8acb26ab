package sql

import "github.com/pingcap/tidb/pkg/parser/ast"

// A subquery in FROM, FROM (SELECT ...) [AS] alias, is lifted like a
// statement of its own by a lifter whose scope is the tokens between its
// parentheses: its clauses, errors and start are looked for there, not in
// the enclosing query. TiDB's AST gives a subquery no offset, but wsql
// allows one table reference, so its "(" is the first token after FROM.

// subquery lifts the table source ts, a query whose "(" is scope[open].
func (l *lifter) subquery(ts *ast.TableSource, open int) (TableRef, *Error) {
	if open < 0 || !l.scope[open].isOp("(") {
		return TableRef{}, l.unsupported(l.findWord("FROM"), "this form of table reference is not supported")
	}
	inner := parenContent(l.scope, open)
	if len(inner) == 0 {
		return TableRef{}, Errorf(ErrSyntax, l.scope[open].pos, "expected a query in parentheses")
	}
	sub := &lifter{rw: l.rw, scope: inner}
	var sel *Select
	var err *Error
	switch q := ts.Source.(type) {
	case *ast.SelectStmt:
		sel, err = sub.selectStmt(q)
	case *ast.SetOprStmt:
		sel, err = sub.setOp(q)
	default:
		err = l.unsupported(l.scope[open].pos, "this form of table reference is not supported")
	}
	if err != nil {
		return TableRef{}, err
	}
	return TableRef{Subquery: sel, Alias: ts.AsName.O, At: l.scope[open].pos}, nil
}

// parenContent returns the tokens inside the parentheses opened at
// toks[open], without the redundant pairs TiDB drops: ((SELECT 1)) is
// SELECT 1.
func parenContent(toks []token, open int) []token {
	for {
		end := closeParen(toks, open)
		if end < 0 {
			return nil
		}
		inner := toks[open+1 : end]
		if len(inner) == 0 || !inner[0].isOp("(") || closeParen(inner, 0) != len(inner)-1 {
			return inner
		}
		toks, open = inner, 0
	}
}

// closeParen returns the index of the ")" closing the "(" at toks[open],
// or -1.
func closeParen(toks []token, open int) int {
	depth := 0
	for k := open; k < len(toks); k++ {
		switch {
		case toks[k].isOp("("):
			depth++
		case toks[k].isOp(")"):
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// Subquery is a query in a condition: x [NOT] IN (SELECT y ...) or [NOT]
// EXISTS (SELECT ...), which the planner makes a semi or anti join.
type Subquery struct {
	At Pos
	// X is the tested expression of IN; nil for EXISTS.
	X     Expr
	Query *Select
	Not   bool
}

func (e *Subquery) Pos() Pos { return e.At }
func (*Subquery) expr()      {}

// subqueryExpr lifts the query in parentheses of IN (...) or EXISTS (...),
// whose tokens are those of the parentheses TiDB places the node at.
func (l *lifter) subqueryExpr(n ast.ExprNode) (*Select, *Error) {
	open := l.tokenAt(n.OriginTextPosition())
	for open >= 0 && open < len(l.rw.toks) && !l.rw.toks[open].isOp("(") {
		open++
	}
	sq, ok := n.(*ast.SubqueryExpr)
	if open < 0 || open >= len(l.rw.toks) || !ok {
		return nil, l.unsupported(l.exprPos(n), "this form of subquery is not supported")
	}
	inner := parenContent(l.rw.toks, open)
	if len(inner) == 0 {
		return nil, Errorf(ErrSyntax, l.rw.toks[open].pos, "expected a query in parentheses")
	}
	sub := &lifter{rw: l.rw, scope: inner}
	q, isSelect := sq.Query.(*ast.SelectStmt)
	if !isSelect {
		return nil, l.unsupported(inner[0].pos, "a set operation in IN (...) or EXISTS (...) is not supported yet")
	}
	return sub.selectStmt(q)
}

// exists lifts [NOT] EXISTS (SELECT ...).
func (l *lifter) exists(e *ast.ExistsSubqueryExpr, at Pos) (Expr, *Error) {
	q, err := l.subqueryExpr(e.Sel)
	if err != nil {
		return nil, err
	}
	return &Subquery{At: at, Query: q, Not: e.Not}, nil
}

// ScalarSubquery is a query in parentheses used as a value: (SELECT
// AVG(price) FROM bid). It selects one column and gives at most one row;
// the planner joins it to the query as Flink does (planner/
// scalar_subquery.go). At is its "(".
type ScalarSubquery struct {
	At    Pos
	Query *Select
}

func (e *ScalarSubquery) Pos() Pos { return e.At }
func (*ScalarSubquery) expr()      {}

// scalarSubquery lifts (SELECT ...) used as a value.
func (l *lifter) scalarSubquery(e *ast.SubqueryExpr, at Pos) (Expr, *Error) {
	if _, ok := e.Query.(*ast.SelectStmt); !ok {
		return nil, l.unsupported(at, "a set operation as a scalar subquery is not supported yet")
	}
	q, err := l.subqueryExpr(e)
	if err != nil {
		return nil, err
	}
	return &ScalarSubquery{At: at, Query: q}, nil
}
