package sql

import (
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// Flink's value access (its "valueaccess" functions) and value
// construction with brackets, which MySQL's grammar does not read:
//
//	arr[1]          -> __wsql_item(arr, 1)
//	m['k']          -> __wsql_item(m, 'k')
//	a.b.c           -> __wsql_field(a.b, 0)     (0 indexes rewritten.fields)
//	f(x).c, arr[1].c -> __wsql_field(..., 0)
//	ARRAY[1, 2]     -> __wsql_array(1, 2)
//	MAP['k', 1]     -> __wsql_map('k', 1)
//
// A two-part name a.b stays as TiDB reads it (table a, column b); the
// planner decides whether a is a table or a ROW column, as Flink does.

// FieldAccess is x.field: a field of a ROW value.
type FieldAccess struct {
	At    Pos
	X     Expr
	Field Ident
}

// ItemAccess is x[index]: an element of an ARRAY (1-based) or the value of
// a MAP's key.
type ItemAccess struct {
	At    Pos
	X     Expr
	Index Expr
}

func (e *FieldAccess) Pos() Pos { return e.At }
func (e *ItemAccess) Pos() Pos  { return e.At }
func (*FieldAccess) expr()      {}
func (*ItemAccess) expr()       {}

// valueAccess is what the rewriter changes for value access and
// construction: text put before a token (the calls opened there, the
// outermost first) and token spans replaced.
type valueAccess struct {
	prefix map[int]string
	edits  map[int]tokenEdit
}

// findValueAccess finds the subscripts, field accesses past a two-part
// name, and ARRAY[...] / MAP[...] constructors in toks. Field names go to
// rw.fields.
func (rw *rewritten) findValueAccess(toks []token) (valueAccess, *Error) {
	va := valueAccess{prefix: map[int]string{}, edits: map[int]tokenEdit{}}
	open := func(start int, call string) {
		va.prefix[start] = internalPrefix + call + "(" + va.prefix[start]
	}
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		switch {
		case t.isOp("["):
			end := matchingBracket(toks, k)
			if end < 0 {
				return va, Errorf(ErrSyntax, t.pos, "[ is not closed: missing ]")
			}
			if k > 0 && (toks[k-1].is("ARRAY") || toks[k-1].is("MAP")) {
				va.edits[k-1] = tokenEdit{end: k + 1, text: internalPrefix + lowerASCII(toks[k-1].text) + "("}
				va.edits[end] = tokenEdit{end: end + 1, text: ")"}
				continue
			}
			start := primaryStart(toks, k-1)
			if start < 0 {
				return va, Errorf(ErrSyntax, t.pos, "[ must follow an ARRAY or MAP value, as in arr[1] or m['key']")
			}
			if end == k+1 {
				return va, Errorf(ErrSyntax, toks[end].pos, "expected an index or a key inside [ ]")
			}
			open(start, "item")
			va.edits[k] = tokenEdit{end: k + 1, text: ","}
			va.edits[end] = tokenEdit{end: end + 1, text: ")"}
		case t.isOp(".") && k > 0 && k+1 < len(toks) && toks[k+1].isName() &&
			!(k+2 < len(toks) && toks[k+2].isOp("(")):
			prev := toks[k-1]
			chained := prev.isOp("]") || prev.isOp(")")
			if prev.isName() {
				// the third or later part of a name chain a.b.c, or a
				// name after a subscript or call: arr[1].b.c
				names, start := nameChainStart(toks, k-1), primaryStart(toks, k-1)
				chained = start >= 0 && (start != names || k-start >= 3) && !(start > 0 && tableWord(toks[start-1]))
			}
			if !chained {
				continue
			}
			start := primaryStart(toks, k-1)
			if start < 0 {
				continue
			}
			open(start, "field")
			va.edits[k] = tokenEdit{end: k + 2, text: ", " + strconv.Itoa(len(rw.fields)) + ")"}
			rw.fields = append(rw.fields, Ident{Name: toks[k+1].value(), At: toks[k+1].pos})
		}
	}
	return va, nil
}

// tableWord reports whether t is a word after which a name is a table's.
func tableWord(t token) bool {
	for _, w := range []string{"FROM", "JOIN", "INTO", "TABLE", "LIKE", "VIEW", "DESCRIBE", "DESC", "EXISTS"} {
		if t.is(w) {
			return true
		}
	}
	return false
}

// matchingBracket returns the index of the ] closing the [ at toks[k].
func matchingBracket(toks []token, k int) int {
	depth := 0
	for j := k; j < len(toks); j++ {
		switch {
		case toks[j].isOp("["):
			depth++
		case toks[j].isOp("]"):
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// primaryStart returns the index of the first token of the primary
// expression ending at toks[e]: a name chain, a call, a parenthesised
// expression or a literal, with any subscripts; -1 when there is none.
func primaryStart(toks []token, e int) int {
	if e < 0 {
		return -1
	}
	t := toks[e]
	switch {
	case t.isOp("]"):
		depth := 0
		for j := e; j >= 0; j-- {
			switch {
			case toks[j].isOp("]"):
				depth++
			case toks[j].isOp("["):
				if depth--; depth == 0 {
					if j > 0 && (toks[j-1].is("ARRAY") || toks[j-1].is("MAP")) {
						return j - 1
					}
					return primaryStart(toks, j-1)
				}
			}
		}
		return -1
	case t.isOp(")"):
		depth := 0
		for j := e; j >= 0; j-- {
			switch {
			case toks[j].isOp(")"):
				depth++
			case toks[j].isOp("("):
				if depth--; depth == 0 {
					if j > 0 && toks[j-1].isName() {
						return j - 1
					}
					return j
				}
			}
		}
		return -1
	case t.isName():
		j := nameChainStart(toks, e)
		if j >= 2 && toks[j-1].isOp(".") && (toks[j-2].isOp("]") || toks[j-2].isOp(")")) {
			return primaryStart(toks, j-2)
		}
		return j
	case t.kind == tokString || t.kind == tokNumber:
		return e
	}
	return -1
}

// nameChainStart returns the index of the first name of the chain
// a.b.c ending at the name toks[e].
func nameChainStart(toks []token, e int) int {
	j := e
	for j >= 2 && toks[j-1].isOp(".") && toks[j-2].isName() {
		j -= 2
	}
	return j
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// valueAccessCall lifts the placeholders of value access and construction;
// ok is false for any other call.
func (l *lifter) valueAccessCall(e *ast.FuncCallExpr, name string, at Pos) (Expr, bool, *Error) {
	switch name {
	case "FIELD":
		if len(e.Args) != 2 {
			panic(bug("bad placeholder call " + e.FnName.O))
		}
		x, err := l.expr(e.Args[0])
		if err != nil {
			return nil, true, err
		}
		f := l.rw.fields[l.sideIndex(e, 1, len(l.rw.fields))]
		return &FieldAccess{At: at, X: x, Field: f}, true, nil
	case "ITEM":
		if len(e.Args) != 2 {
			// a[1, 2] reaches TiDB as a call of three
			return nil, true, Errorf(ErrSyntax, at, "expected one index or key inside [ ]")
		}
		args, err := l.exprs(e.Args)
		if err != nil {
			return nil, true, err
		}
		return &ItemAccess{At: at, X: args[0], Index: args[1]}, true, nil
	case "ARRAY", "MAP":
		args, err := l.exprs(e.Args)
		if err != nil {
			return nil, true, err
		}
		return &FuncCall{At: at, Name: name, Args: args}, true, nil
	}
	return nil, false, nil
}

// ResolveFieldRefs returns e with every a.b whose a is a column
// (isColumn) read as field b of column a, as Flink resolves a name: a
// column first, then a table. Nodes are changed in place.
func ResolveFieldRefs(e Expr, isColumn func(name string) bool) Expr {
	return MapExpr(e, func(x Expr) Expr {
		c, ok := x.(*ColumnRef)
		if !ok || c.Table == "" || !isColumn(c.Table) {
			return x
		}
		at := c.NameAt
		if !at.IsValid() {
			at = c.At
		}
		return &FieldAccess{At: c.At, X: &ColumnRef{At: c.At, Name: c.Table}, Field: Ident{Name: c.Name, At: at}}
	})
}

// MapExpr replaces, bottom up, every sub-expression x of e by fn(x); the
// nodes are changed in place.
func MapExpr(e Expr, fn func(Expr) Expr) Expr {
	if e == nil {
		return nil
	}
	m := func(x *Expr) { *x = MapExpr(*x, fn) }
	all := func(xs []Expr) {
		for i := range xs {
			m(&xs[i])
		}
	}
	switch x := e.(type) {
	case *Unary:
		m(&x.X)
	case *Binary:
		m(&x.L)
		m(&x.R)
	case *IsNull:
		m(&x.X)
	case *Cast:
		m(&x.X)
	case *FuncCall:
		all(x.Args)
		m(&x.Filter)
	case *WindowCall:
		all(x.Args)
	case *WindowAux:
		all(x.Args)
	case *In:
		m(&x.X)
		all(x.List)
	case *Between:
		m(&x.X)
		m(&x.Lo)
		m(&x.Hi)
	case *Like:
		m(&x.X)
		m(&x.Pattern)
		m(&x.Escape)
	case *Case:
		m(&x.Operand)
		for i := range x.Whens {
			m(&x.Whens[i].Cond)
			m(&x.Whens[i].Result)
		}
		m(&x.Else)
	case *Extract:
		m(&x.X)
	case *IsTruth:
		m(&x.X)
	case *Trim:
		m(&x.Chars)
		m(&x.X)
	case *FieldAccess:
		m(&x.X)
	case *ItemAccess:
		m(&x.X)
		m(&x.Index)
	}
	return fn(e)
}
