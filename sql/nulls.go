package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// Flink's ARRAY_AGG(x [RESPECT NULLS | IGNORE NULLS]) names what it does
// with NULL values in words MySQL's grammar does not read. The rewriter
// drops them; IGNORE NULLS wraps the call, as DISTINCT does (filter.go):
//
//	ARRAY_AGG(x IGNORE NULLS)   ->  __wsql_ignorenulls(ARRAY_AGG(x))
//	ARRAY_AGG(x RESPECT NULLS)  ->  ARRAY_AGG(x)   (Flink's default)

// nullsClauses are the RESPECT/IGNORE NULLS of a statement's ARRAY_AGG
// calls: the first word of each (words), and for IGNORE NULLS the call's
// name token and its ")".
type nullsClauses struct {
	words, ignoreCalls, ignoreEnds map[int]bool
}

// findNullsClauses finds every "RESPECT NULLS )" or "IGNORE NULLS )" that
// ends a call of ARRAY_AGG.
func findNullsClauses(toks []token) nullsClauses {
	var n nullsClauses
	for k := 1; k+2 < len(toks); k++ {
		if !(toks[k].is("IGNORE") || toks[k].is("RESPECT")) || !toks[k+1].is("NULLS") || !toks[k+2].isOp(")") {
			continue
		}
		open := openParen(toks, k+2)
		if open < 1 || toks[open-1].kind != tokIdent || strings.ToUpper(toks[open-1].text) != "ARRAY_AGG" {
			continue // TiDB reports the words
		}
		if n.words == nil {
			n.words, n.ignoreCalls, n.ignoreEnds = map[int]bool{}, map[int]bool{}, map[int]bool{}
		}
		n.words[k] = true
		if toks[k].is("IGNORE") {
			n.ignoreCalls[open-1], n.ignoreEnds[k+2] = true, true
		}
	}
	return n
}

// ignoreNulls lifts the placeholder call __wsql_ignorenulls(call).
func (l *lifter) ignoreNulls(e *ast.FuncCallExpr, at Pos) (Expr, *Error) {
	x, err := l.expr(e.Args[0])
	if err != nil {
		return nil, err
	}
	call, ok := x.(*FuncCall)
	if len(e.Args) != 1 || !ok {
		panic(bug("bad placeholder call __wsql_ignorenulls"))
	}
	call.IgnoreNulls = true
	return call, nil
}
