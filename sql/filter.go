package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// An aggregate's FILTER clause, COUNT(*) FILTER (WHERE x > 1), is Flink's
// (SQL:2003) and not MySQL's. The rewriter wraps the call and turns the
// clause into a second argument:
//
//	COUNT(*) FILTER (WHERE x > 1)  ->  __wsql_filter(COUNT(*), x > 1)
//
// "__wsql_filter(" is written in the splice of the call's name token, so
// both the wrapper and the call map back to the user's COUNT; the
// condition's tokens are copied, so its positions are exact.

// filterClauses are the FILTER clauses of a statement's tokens: the name
// token of each filtered call, and the FILTER token of each clause. It also
// holds the DISTINCT of Flink's aggregates MySQL lacks (LISTAGG(DISTINCT
// x)), which TiDB would not parse: the DISTINCT is dropped and the call
// wrapped, __wsql_distinct(LISTAGG(x)); distinctCalls are their name
// tokens, distinctWords their DISTINCT and distinctEnds their ")".
type filterClauses struct {
	calls, clauses                             map[int]bool
	distinctCalls, distinctWords, distinctEnds map[int]bool
	nulls                                      nullsClauses
}

// distinctAggregates are Flink's aggregates that MySQL's grammar does not
// know, so it cannot read DISTINCT in them.
var distinctAggregates = wordSet("FIRST_VALUE LAST_VALUE LISTAGG PERCENTILE COLLECT ARRAY_AGG")

// prefix is what the rewriter writes before the call named by toks[i].
func (f filterClauses) prefix(i int) string {
	p := ""
	if f.calls[i] {
		p += internalPrefix + "filter("
	}
	if f.distinctCalls[i] {
		p += internalPrefix + "distinct("
	}
	if f.nulls.ignoreCalls[i] {
		p += internalPrefix + "ignorenulls("
	}
	return p
}

// findDistincts finds every DISTINCT in a call of distinctAggregates.
func (f *filterClauses) findDistincts(toks []token) {
	for k := 2; k < len(toks); k++ {
		if !toks[k].is("DISTINCT") || !toks[k-1].isOp("(") || toks[k-2].kind != tokIdent || !distinctAggregates[strings.ToUpper(toks[k-2].text)] {
			continue
		}
		end := closeParen(toks, k-1)
		if end < 0 {
			continue // TiDB reports the missing ")"
		}
		if f.distinctCalls == nil {
			f.distinctCalls, f.distinctWords, f.distinctEnds = map[int]bool{}, map[int]bool{}, map[int]bool{}
		}
		f.distinctCalls[k-2], f.distinctWords[k], f.distinctEnds[end] = true, true, true
	}
}

// findFilters finds every "name(...) FILTER (WHERE" in toks.
func findFilters(toks []token) (filterClauses, *Error) {
	var f filterClauses
	for k := 1; k+2 < len(toks); k++ {
		if !toks[k].is("FILTER") || !toks[k+1].isOp("(") || !toks[k+2].is("WHERE") {
			continue
		}
		open := openParen(toks, k-1)
		if open < 1 || !isCallName(toks[open-1]) {
			return f, Errorf(ErrSyntax, toks[k].pos, "FILTER (WHERE ...) must follow an aggregate call, as in COUNT(*) FILTER (WHERE x > 1)")
		}
		if f.calls == nil {
			f.calls, f.clauses = map[int]bool{}, map[int]bool{}
		}
		f.calls[open-1], f.clauses[k] = true, true
	}
	f.findDistincts(toks)
	f.nulls = findNullsClauses(toks)
	return f, nil
}

// isCallName reports whether t can name a called function: a name, not a
// word of the grammar such as SELECT or AND (FIRST_VALUE is both).
func isCallName(t token) bool {
	w := strings.ToUpper(t.text)
	return t.kind == tokQuotedIdent || t.kind == tokIdent && w != "FILTER" && (!tidbReserved[w] || plainAggregates[w])
}

// openParen returns the index of the "(" that the ")" at toks[close]
// closes, or -1.
func openParen(toks []token, close int) int {
	if close < 0 || !toks[close].isOp(")") {
		return -1
	}
	depth := 0
	for k := close; k >= 0; k-- {
		switch {
		case toks[k].isOp(")"):
			depth++
		case toks[k].isOp("("):
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return -1
}

// filter lifts the placeholder call __wsql_filter(call, condition).
func (l *lifter) filter(e *ast.FuncCallExpr, at Pos) (Expr, *Error) {
	if len(e.Args) != 2 {
		return nil, Errorf(ErrSyntax, at, "FILTER takes one condition: FILTER (WHERE condition)")
	}
	x, err := l.expr(e.Args[0])
	if err != nil {
		return nil, err
	}
	call, ok := x.(*FuncCall)
	if !ok {
		return nil, Errorf(ErrSyntax, at, "FILTER (WHERE ...) must follow an aggregate call, as in COUNT(*) FILTER (WHERE x > 1)")
	}
	if call.Filter, err = l.expr(e.Args[1]); err != nil {
		return nil, err
	}
	return call, nil
}

// distinct lifts the placeholder call __wsql_distinct(call).
func (l *lifter) distinct(e *ast.FuncCallExpr, at Pos) (Expr, *Error) {
	x, err := l.expr(e.Args[0])
	if err != nil {
		return nil, err
	}
	call, ok := x.(*FuncCall)
	if len(e.Args) != 1 || !ok {
		panic(bug("bad placeholder call __wsql_distinct"))
	}
	call.Distinct = true
	return call, nil
}
