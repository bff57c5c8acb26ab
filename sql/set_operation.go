package sql

import "github.com/pingcap/tidb/pkg/parser/ast"

// SetOp is a set operation of queries, q1 UNION ALL q2 [UNION ALL q3 ...].
// Operators of one precedence group left to right, as in Flink: a UNION
// after a UNION ALL applies to the result of both, so the queries of one
// SetOp share one Kind and a query may itself be a set operation. A
// *Select with Set holds nothing else but the WITH expressions the whole
// set reads.
type SetOp struct {
	At      Pos // the first operator's word
	Kind    SetOpKind
	Queries []*Select // two or more
	// Ats locates the operator before each query after the first.
	Ats []Pos
}

// SetOpKind is the operator of a SetOp.
type SetOpKind int

// The set operators wsql runs.
const (
	UnionAll SetOpKind = iota
	UnionDistinct
	Intersect
	IntersectAll
	Except
	ExceptAll
)

// String is the operator as written.
func (k SetOpKind) String() string {
	return [...]string{"UNION ALL", "UNION", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL"}[k]
}

// setOpKinds maps TiDB's operators to wsql's.
var setOpKinds = map[ast.SetOprType]SetOpKind{
	ast.UnionAll: UnionAll, ast.Union: UnionDistinct, ast.Intersect: Intersect,
	ast.IntersectAll: IntersectAll, ast.Except: Except, ast.ExceptAll: ExceptAll,
}

// setOp lifts a statement of set operations. TiDB gives the queries of a
// set operation without offsets, so each is lifted with the tokens
// between its operators as its scope (subquery.go does the same for a
// subquery in FROM).
func (l *lifter) setOp(n *ast.SetOprStmt) (*Select, *Error) {
	switch {
	case n.OrderBy != nil:
		return nil, l.unsupported(l.findWord("ORDER"), "ORDER BY of a set operation is not supported yet")
	case n.Limit != nil:
		return nil, l.unsupported(l.findWord("LIMIT", "OFFSET", "FETCH"), "LIMIT of a set operation is not supported yet")
	}
	if n.With == nil {
		return l.setOpList(n.SelectList)
	}
	// WITH ... q1 UNION ALL q2: the expressions are the whole set's
	at := l.start()
	ctes, rest, err := l.with(n.With)
	if err != nil {
		return nil, err
	}
	sub := &lifter{rw: l.rw, scope: rest}
	sel, err := sub.setOpList(n.SelectList)
	if err != nil {
		return nil, err
	}
	if sel.Set == nil { // a single query in parentheses
		sel = &Select{At: sel.At, Set: &SetOp{At: sel.At, Kind: UnionAll, Queries: []*Select{sel}}}
	}
	sel.At, sel.With = at, ctes
	return sel, nil
}

// setOpList lifts the queries of list, each with its own scope.
func (l *lifter) setOpList(list *ast.SetOprSelectList) (*Select, *Error) {
	switch {
	case list.With != nil:
		return nil, l.unsupported(l.start(), "WITH queries are not supported yet")
	case list.OrderBy != nil:
		return nil, l.unsupported(l.findWord("ORDER"), "ORDER BY is not supported yet")
	case list.Limit != nil:
		return nil, l.unsupported(l.findWord("LIMIT", "OFFSET", "FETCH"), "LIMIT is not supported yet")
	}
	scopes, ops := splitSetOps(l.scope)
	if len(scopes) != len(list.Selects) {
		return nil, l.unsupported(l.start(), "this form of set operation is not supported")
	}
	var cur *Select
	for i, node := range list.Selects {
		sub := &lifter{rw: l.rw, scope: scopes[i]}
		if len(sub.scope) == 0 {
			return nil, Errorf(ErrSyntax, l.start(), "expected a query")
		}
		var q *Select
		var err *Error
		switch s := node.(type) {
		case *ast.SelectStmt:
			if i > 0 {
				if err := l.checkSetOprType(s.AfterSetOperator, ops[i-1]); err != nil {
					return nil, err
				}
			}
			q, err = sub.selectStmt(s)
		case *ast.SetOprSelectList:
			if i > 0 {
				if err := l.checkSetOprType(s.AfterSetOperator, ops[i-1]); err != nil {
					return nil, err
				}
			}
			q, err = sub.setOpList(s)
		default:
			err = sub.unsupported(sub.start(), "this form of set operation is not supported")
		}
		if err != nil {
			return nil, err
		}
		if i == 0 {
			cur = q
			continue
		}
		kind := UnionAll
		if t := afterSetOpr(node); t != nil {
			kind = setOpKinds[*t]
		}
		at := ops[i-1].pos
		if (kind == Intersect || kind == IntersectAll) && i > 1 && cur.Set.Kind != Intersect && cur.Set.Kind != IntersectAll {
			// read left to right it would apply to the result of both
			return nil, l.unsupported(at, "INTERSECT after %s needs parentheses: INTERSECT binds tighter than UNION and EXCEPT; write q1 %s (q2 INTERSECT q3)", cur.Set.Kind, cur.Set.Kind)
		}
		if cur.Set != nil && cur.Set.Kind == kind && i > 1 && (kind == UnionAll || kind == UnionDistinct) {
			cur.Set.Queries = append(cur.Set.Queries, q)
			cur.Set.Ats = append(cur.Set.Ats, at)
			continue
		}
		cur = &Select{At: cur.At, Set: &SetOp{At: at, Kind: kind, Queries: []*Select{cur, q}, Ats: []Pos{at}}}
	}
	return cur, nil
}

// checkSetOprType refuses an operator TiDB read that wsql does not know.
func (l *lifter) checkSetOprType(t *ast.SetOprType, op token) *Error {
	if _, ok := setOpKinds[ptrValue(t)]; t == nil || !ok {
		return l.unsupported(op.pos, "this form of set operation is not supported")
	}
	return nil
}

func ptrValue(t *ast.SetOprType) ast.SetOprType {
	if t == nil {
		return 0
	}
	return *t
}

func afterSetOpr(n ast.Node) *ast.SetOprType {
	switch s := n.(type) {
	case *ast.SelectStmt:
		return s.AfterSetOperator
	case *ast.SetOprSelectList:
		return s.AfterSetOperator
	}
	return nil
}

// splitSetOps cuts toks at the set operators outside parentheses: the
// tokens of each query (without parentheses around the whole of it) and
// the operator word before each query after the first.
func splitSetOps(toks []token) (scopes [][]token, ops []token) {
	depth, start := 0, 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			depth--
		case depth == 0 && (t.is("UNION") || t.is("INTERSECT") || t.is("EXCEPT")):
			scopes = append(scopes, unwrapParens(toks[start:i]))
			ops = append(ops, t)
			if i+1 < len(toks) && (toks[i+1].is("ALL") || toks[i+1].is("DISTINCT")) {
				i++
			}
			start = i + 1
		}
	}
	return append(scopes, unwrapParens(toks[start:])), ops
}

// unwrapParens drops parentheses around the whole of toks.
func unwrapParens(toks []token) []token {
	for len(toks) > 0 && toks[0].isOp("(") && closeParen(toks, 0) == len(toks)-1 {
		toks = toks[1 : len(toks)-1]
	}
	return toks
}
