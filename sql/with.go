package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// CTE is one common table expression of WITH: name [(columns)] AS (query).
// The query reads like a view for the later expressions and the query
// after them, for that statement only.
type CTE struct {
	Name    Ident
	Columns []Ident // optional names for the query's columns
	Query   *Select
}

// with lifts the WITH clause that starts l's scope. TiDB's AST gives the
// expressions no offsets, so their tokens are walked: name, an optional
// column list, AS and the parenthesised query, which a lifter of its own
// lifts like a FROM subquery. It returns the expressions and the tokens of
// the query after them.
func (l *lifter) with(w *ast.WithClause) ([]CTE, []token, *Error) {
	toks := l.scope
	i := 1 // after WITH
	if w.IsRecursive || (i < len(toks) && toks[i].is("RECURSIVE")) {
		at := toks[0].pos
		if i < len(toks) {
			at = toks[i].pos
		}
		return nil, nil, l.unsupported(at, "WITH RECURSIVE is not supported")
	}
	var out []CTE
	for k, c := range w.CTEs {
		if k > 0 {
			if i >= len(toks) || !toks[i].isOp(",") {
				return nil, nil, l.unsupported(l.start(), "this form of WITH is not supported")
			}
			i++
		}
		if i >= len(toks) {
			return nil, nil, l.unsupported(l.start(), "this form of WITH is not supported")
		}
		cte := CTE{Name: Ident{Name: c.Name.O, At: toks[i].pos}}
		i++
		if i < len(toks) && toks[i].isOp("(") {
			end := closeParen(toks, i)
			names := c.ColNameList
			for j := i + 1; j < end; j++ {
				if toks[j].isName() && len(cte.Columns) < len(names) {
					cte.Columns = append(cte.Columns, Ident{Name: names[len(cte.Columns)].O, At: toks[j].pos})
				}
			}
			i = end + 1
		}
		if i >= len(toks) || !toks[i].is("AS") || i+1 >= len(toks) || !toks[i+1].isOp("(") {
			return nil, nil, l.unsupported(cte.Name.At, "this form of WITH is not supported")
		}
		open := i + 1
		inner := parenContent(toks, open)
		if len(inner) == 0 {
			return nil, nil, l.unsupported(toks[open].pos, "this form of WITH is not supported")
		}
		sub := &lifter{rw: l.rw, scope: inner}
		var sel *Select
		var err *Error
		switch q := c.Query.Query.(type) {
		case *ast.SelectStmt:
			sel, err = sub.selectStmt(q)
		case *ast.SetOprStmt:
			sel, err = sub.setOp(q)
		default:
			err = l.unsupported(toks[open].pos, "this form of WITH is not supported")
		}
		if err != nil {
			return nil, nil, err
		}
		cte.Query = sel
		for _, prev := range out {
			if strings.EqualFold(prev.Name.Name, cte.Name.Name) {
				return nil, nil, Errorf(ErrInvalid, cte.Name.At, "WITH names %s twice", cte.Name.Name)
			}
		}
		out = append(out, cte)
		i = closeParen(toks, open) + 1
	}
	if i >= len(toks) {
		return nil, nil, Errorf(ErrSyntax, toks[len(toks)-1].endAt, "expected a SELECT query after WITH")
	}
	return out, toks[i:], nil
}
