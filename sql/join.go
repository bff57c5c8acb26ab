package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// JoinKind is the type of a join in FROM.
type JoinKind int

const (
	// InnerJoin is [INNER] JOIN ... ON.
	InnerJoin JoinKind = iota
	LeftJoin
	RightJoin
	FullJoin
	// CrossJoin is a comma or CROSS JOIN: every pair, the condition (if
	// any) in WHERE.
	CrossJoin
	// SemiJoin and AntiJoin are no syntax: the planner makes them of IN
	// and EXISTS subqueries and their NOT forms.
	SemiJoin
	AntiJoin
)

// String is the join as written.
func (k JoinKind) String() string {
	return [...]string{"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "CROSS JOIN", "SEMI JOIN", "ANTI JOIN"}[k]
}

// Join is a join of two table references in FROM: a TableRef whose Join
// is set names no table itself.
type Join struct {
	// At locates the join's first word (LEFT, JOIN, CROSS ...) or comma.
	At    Pos
	Kind  JoinKind
	Left  TableRef
	Right TableRef
	// Comma is set for the comma form of CrossJoin.
	Comma bool
	// On is the ON condition; nil for a CrossJoin or USING.
	On Expr
	// Using are the columns of USING (...); nil for ON.
	Using []Ident
}

// systemTime reads FOR SYSTEM_TIME AS OF t.col after a table's name at
// toks[i-1], which TiDB cannot parse: the rewriter drops the words and
// keeps the column for the lifter (TableRef.SystemTime). It returns the
// index after the clause.
func (rw *rewritten) systemTime(toks []token, i int) (int, *Error) {
	if i == 0 || !toks[i-1].isName() {
		return 0, Errorf(ErrSyntax, toks[i].pos, "FOR SYSTEM_TIME AS OF follows the name of the table it reads, as in JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r")
	}
	k := i + 2
	if k+1 >= len(toks) || !toks[k].is("AS") || !toks[k+1].is("OF") {
		return 0, Errorf(ErrSyntax, toks[i+1].pos, "expected AS OF after FOR SYSTEM_TIME")
	}
	k += 2
	if k >= len(toks) || !toks[k].isName() {
		return 0, Errorf(ErrUnsupported, toks[min(k, len(toks)-1)].pos, "FOR SYSTEM_TIME AS OF takes a column of the other table, as in o.ts")
	}
	c := &ColumnRef{At: toks[k].pos, Name: toks[k].value(), NameAt: toks[k].pos}
	k++
	if k+1 < len(toks) && toks[k].isOp(".") && toks[k+1].isName() {
		c.Table, c.Name, c.NameAt = c.Name, toks[k+1].value(), toks[k+1].pos
		k += 2
	}
	if k < len(toks) && (toks[k].isOp(".") || toks[k].isOp("(") || toks[k].kind == tokOp && !toks[k].isOp(",") && !toks[k].isOp(")") && !toks[k].isOp(";")) {
		return 0, Errorf(ErrUnsupported, toks[k].pos, "FOR SYSTEM_TIME AS OF takes a column of the other table, not an expression")
	}
	if rw.systemTimes == nil {
		rw.systemTimes = map[int]*ColumnRef{}
	}
	rw.systemTimes[toks[i-1].off] = c
	return k, nil
}

// fromParts finds, in the FROM clause that starts at the token fromPos,
// the first token of each table reference (the "(" of a subquery) and of
// each join operator (its first word or comma), in the order written. An
// in-order walk of TiDB's join tree meets them in the same order.
func (l *lifter) fromParts(fromPos Pos) (items, ops []int) {
	toks := l.scope
	start := -1
	for i, t := range toks {
		if t.pos == fromPos {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return nil, nil
	}
	groups, expectItem := 0, true
	for i := start; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.isOp("("):
			if expectItem && !queryInParens(toks, i) {
				groups++ // a parenthesised join
				continue
			}
			if expectItem {
				items, expectItem = append(items, i), false
			}
			if end := closeParen(toks, i); end > i {
				i = end
			}
		case t.isOp(")"):
			if groups == 0 {
				return items, ops
			}
			groups--
		case expectItem:
			items, expectItem = append(items, i), false
		case t.isOp(","):
			ops, expectItem = append(ops, i), true
		case joinWordsEnd(toks, i) >= 0:
			ops = append(ops, i)
			i, expectItem = joinWordsEnd(toks, i), true
		case t.kind == tokIdent && fromEnds[strings.ToUpper(t.text)]:
			return items, ops
		}
	}
	return items, ops
}

// fromEnds are the words that end a FROM clause.
var fromEnds = map[string]bool{"WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true, "LIMIT": true,
	"WINDOW": true, "UNION": true, "EXCEPT": true, "INTERSECT": true, "MINUS": true}

// joinWordsEnd is the index of the JOIN that ends the join operator
// starting at toks[i] ([NATURAL] [LEFT|RIGHT|FULL [OUTER]|INNER|CROSS]
// JOIN), or -1.
func joinWordsEnd(toks []token, i int) int {
	for k := i; k < len(toks) && k < i+4; k++ {
		t := toks[k]
		switch {
		case t.is("JOIN") || t.is("STRAIGHT_JOIN"):
			return k
		case t.is("NATURAL") || t.is("LEFT") || t.is("RIGHT") || t.is("FULL") || t.is("OUTER") || t.is("INNER") || t.is("CROSS"):
			if k+1 < len(toks) && toks[k+1].isOp("(") {
				return -1 // LEFT(s, n), a call
			}
		default:
			return -1
		}
	}
	return -1
}

// queryInParens reports whether the "(" at toks[open] opens a query rather
// than a parenthesised join.
func queryInParens(toks []token, open int) bool {
	k := open
	for k < len(toks) && toks[k].isOp("(") {
		k++
	}
	return k < len(toks) && (toks[k].is("SELECT") || toks[k].is("WITH") || toks[k].is("VALUES") || toks[k].is("TABLE"))
}

// joinWalk lifts TiDB's join tree, handing out the table references' and
// join operators' tokens fromParts found as it meets them.
type joinWalk struct {
	l          *lifter
	items, ops []int
	nextItem   int
	nextOp     int
}

func (w *joinWalk) ref(n ast.ResultSetNode) (TableRef, *Error) {
	l := w.l
	switch x := n.(type) {
	case *ast.Join:
		if x.Right == nil {
			return w.ref(x.Left)
		}
		left, err := w.ref(x.Left)
		if err != nil {
			return TableRef{}, err
		}
		op := -1
		if w.nextOp < len(w.ops) {
			op = w.ops[w.nextOp]
			w.nextOp++
		}
		at := l.start()
		if op >= 0 {
			at = l.scope[op].pos
		}
		right, err := w.ref(x.Right)
		if err != nil {
			return TableRef{}, err
		}
		j := &Join{At: at, Left: left, Right: right}
		if err := w.kind(x, j, op); err != nil {
			return TableRef{}, err
		}
		return TableRef{Join: j, At: left.At}, nil
	case *ast.TableSource:
		if inner, ok := x.Source.(*ast.Join); ok && x.AsName.O == "" {
			return w.ref(inner)
		}
		next := -1
		if w.nextItem < len(w.items) {
			next = w.items[w.nextItem]
			w.nextItem++
		}
		return l.tableSource(x, next)
	}
	return TableRef{}, l.unsupported(l.findWord("FROM"), "this form of table reference is not supported")
}

// kind reads the join's type from its words (TiDB reads FULL JOIN, which
// MySQL lacks, as the LEFT JOIN the rewriter made of it) and lifts its
// condition.
func (w *joinWalk) kind(x *ast.Join, j *Join, op int) *Error {
	l := w.l
	if x.NaturalJoin {
		return l.unsupported(j.At, "NATURAL JOIN is not supported; join ON the columns")
	}
	if x.StraightJoin {
		return l.unsupported(j.At, "STRAIGHT_JOIN is not supported")
	}
	switch x.Tp {
	case ast.LeftJoin:
		j.Kind = LeftJoin
		if op >= 0 && l.scope[op].is("FULL") {
			j.Kind = FullJoin
		}
	case ast.RightJoin:
		j.Kind = RightJoin
	default:
		j.Kind = InnerJoin
		if op >= 0 && (l.scope[op].isOp(",") || l.scope[op].is("CROSS")) {
			j.Kind, j.Comma = CrossJoin, l.scope[op].isOp(",")
		}
	}
	if x.On != nil {
		on, err := l.expr(x.On.Expr)
		if err != nil {
			return err
		}
		j.On = on
	}
	for _, c := range x.Using {
		j.Using = append(j.Using, Ident{Name: c.Name.O, At: j.At})
	}
	if err := checkLateralJoin(j); err != nil { // lateral.go
		return err
	}
	switch {
	case j.Kind == CrossJoin && j.On != nil:
		return Errorf(ErrSyntax, j.At, "%s takes no ON condition", map[bool]string{true: "a comma join", false: "CROSS JOIN"}[j.Comma])
	case j.Kind != CrossJoin && j.On == nil && j.Using == nil:
		if j.Kind == InnerJoin {
			j.Kind = CrossJoin // JOIN without ON, as MySQL reads it
			return nil
		}
		return Errorf(ErrSyntax, j.At, "%s needs an ON condition", j.Kind)
	}
	return nil
}
