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
