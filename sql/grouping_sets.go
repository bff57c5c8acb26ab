package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// GROUP BY GROUPING SETS ((a, b), (a), ()), ROLLUP (a, b) and CUBE (a, b)
// are Flink's (SQL:1999); TiDB's grammar reads only WITH ROLLUP. The
// rewriter turns each construct into placeholder calls, a parenthesized
// set into a call of its own:
//
//	GROUPING SETS ((a, b), a, ())  ->  __wsql_grouping_sets(__wsql_set(a, b), a, __wsql_set())
//	ROLLUP (a, (b, c))             ->  __wsql_rollup(a, __wsql_set(b, c))
//	CUBE (a, b)                    ->  __wsql_cube(a, b)
//
// and the lifter expands them into Select.GroupingSets: the sets of every
// construct, their cross product taken, in Flink's order.

// MaxGroupingSets bounds the grouping sets of one GROUP BY (a CUBE of n
// columns has 2^n): each is a copy of every input row.
const MaxGroupingSets = 4096

const (
	groupingSetsCall = internalPrefix + "grouping_sets"
	rollupCall       = internalPrefix + "rollup"
	cubeCall         = internalPrefix + "cube"
	setCall          = internalPrefix + "set"
)

// groupByEnd are the words that end a GROUP BY clause.
var groupByEnd = wordSet("HAVING ORDER LIMIT WINDOW UNION INTERSECT EXCEPT MINUS OFFSET FETCH")

// findGroupingSets records the edits of every grouping construct that
// starts an item of a GROUP BY clause.
func findGroupingSets(toks []token, edits map[int]tokenEdit) {
	for k := 0; k+1 < len(toks); k++ {
		if !toks[k].is("GROUP") || !toks[k+1].is("BY") {
			continue
		}
		depth, start := 0, true
	clause:
		for i := k + 2; i < len(toks); i++ {
			if depth == 0 && start {
				if end := groupingConstruct(toks, i, edits); end > i {
					i, start = end, false
					continue
				}
			}
			t := toks[i]
			start = false
			switch {
			case t.isOp("("):
				depth++
			case t.isOp(")"):
				if depth--; depth < 0 {
					break clause
				}
			case depth == 0 && t.isOp(","):
				start = true
			case depth == 0 && t.kind == tokIdent && groupByEnd[strings.ToUpper(t.text)]:
				break clause
			}
		}
	}
}

// groupingConstruct records the edits of a construct at toks[i] and
// returns the index of its closing ")", or i when there is none.
func groupingConstruct(toks []token, i int, edits map[int]tokenEdit) int {
	open, name := -1, ""
	switch {
	case i+2 < len(toks) && toks[i].is("GROUPING") && toks[i+1].is("SETS") && toks[i+2].isOp("("):
		open, name = i+2, groupingSetsCall
	case i+1 < len(toks) && (toks[i].is("ROLLUP") || toks[i].is("CUBE")) && toks[i+1].isOp("("):
		open, name = i+1, internalPrefix+strings.ToLower(toks[i].text)
	default:
		return i
	}
	end := closeParen(toks, open)
	if end < 0 {
		return i // TiDB reports the missing ")"
	}
	edits[i] = tokenEdit{end: open, text: name}
	// the elements: a parenthesized list is a set; in GROUPING SETS a
	// construct may nest
	for e := open + 1; e < end; {
		if name == groupingSetsCall {
			if c := groupingConstruct(toks, e, edits); c > e {
				e = c + 1
				continue
			}
		}
		if toks[e].isOp("(") {
			if c := closeParen(toks, e); c > 0 && (toks[c+1].isOp(",") || c+1 == end) {
				edits[e] = tokenEdit{end: e + 1, text: setCall + "("}
				for j := e + 1; j < c; j++ { // read, so the lifter can say it does not nest there
					if d := groupingConstruct(toks, j, edits); d > j {
						j = d
					}
				}
			}
		}
		// on to the next element
		for depth := 0; e < end; e++ {
			if toks[e].isOp("(") {
				depth++
			} else if toks[e].isOp(")") {
				depth--
			} else if depth == 0 && toks[e].isOp(",") {
				e++
				break
			}
		}
	}
	return end
}

// isGroupingConstruct reports whether e is a rewritten construct.
func isGroupingConstruct(e ast.ExprNode) bool {
	f, ok := e.(*ast.FuncCallExpr)
	return ok && (f.FnName.L == groupingSetsCall || f.FnName.L == rollupCall || f.FnName.L == cubeCall)
}

// groupBy lifts GROUP BY's items: plain ones into s.GroupBy, constructs
// into s.GroupingSets, the cross product of their sets.
func (l *lifter) groupBy(items []*ast.ByItem, s *Select) *Error {
	var sets [][]Expr
	for _, it := range items {
		if !isGroupingConstruct(it.Expr) {
			e, err := l.groupItem(it.Expr)
			if err != nil {
				return err
			}
			s.GroupBy = append(s.GroupBy, e)
			continue
		}
		f := it.Expr.(*ast.FuncCallExpr)
		cs, err := l.groupingSets(f)
		if err != nil {
			return err
		}
		if sets == nil {
			sets = cs
			continue
		}
		if len(sets)*len(cs) > MaxGroupingSets {
			return tooManySets(l.exprPos(f), len(sets)*len(cs))
		}
		var product [][]Expr
		for _, a := range sets {
			for _, b := range cs {
				product = append(product, append(append([]Expr(nil), a...), b...))
			}
		}
		sets = product
	}
	for i, set := range sets {
		if len(set) == 0 {
			sets[i] = nil // the empty set, however written
		}
	}
	s.GroupingSets = sets
	return nil
}

func tooManySets(at Pos, n int) *Error {
	return Errorf(ErrInvalid, at, "GROUP BY has %d grouping sets; at most %d are allowed, each a copy of every row", n, MaxGroupingSets)
}

// groupingSets lifts one construct into its grouping sets.
func (l *lifter) groupingSets(f *ast.FuncCallExpr) ([][]Expr, *Error) {
	at := l.exprPos(f)
	var elems [][]Expr // ROLLUP's and CUBE's elements; GROUPING SETS' sets
	for _, a := range f.Args {
		if f.FnName.L == groupingSetsCall && isGroupingConstruct(a) {
			nested, err := l.groupingSets(a.(*ast.FuncCallExpr))
			if err != nil {
				return nil, err
			}
			elems = append(elems, nested...)
			continue
		}
		var args []ast.ExprNode
		if c, ok := a.(*ast.FuncCallExpr); ok && c.FnName.L == setCall {
			args = c.Args
		} else {
			args = []ast.ExprNode{a}
		}
		set := []Expr{}
		for _, x := range args {
			if isGroupingConstruct(x) {
				return nil, Errorf(ErrInvalid, l.exprPos(x.(*ast.FuncCallExpr)), "a grouping set lists expressions; GROUPING SETS, ROLLUP and CUBE nest only in GROUPING SETS")
			}
			e, err := l.groupItem(x)
			if err != nil {
				return nil, err
			}
			set = append(set, e)
		}
		elems = append(elems, set)
	}
	switch f.FnName.L {
	case rollupCall: // (e1 .. en), (e1 .. en-1), ..., ()
		sets := make([][]Expr, 0, len(elems)+1)
		for n := len(elems); n >= 0; n-- {
			var set []Expr
			for _, e := range elems[:n] {
				set = append(set, e...)
			}
			sets = append(sets, set)
		}
		return sets, nil
	case cubeCall: // every subset, the full one first, the empty one last
		n := len(elems)
		if n > 12 {
			return nil, tooManySets(at, 1<<min(n, 30))
		}
		sets := make([][]Expr, 0, 1<<n)
		for drop := 0; drop < 1<<n; drop++ {
			set := []Expr{}
			for j, e := range elems {
				if drop&(1<<(n-1-j)) == 0 {
					set = append(set, e...)
				}
			}
			sets = append(sets, set)
		}
		return sets, nil
	}
	if len(elems) > MaxGroupingSets {
		return nil, tooManySets(at, len(elems))
	}
	return elems, nil
}
