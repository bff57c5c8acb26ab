package sql

import (
	"maps"
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// EXTRACT(unit FROM x) takes Flink's units, several of which MySQL lacks
// (DOW, DOY, EPOCH, MILLISECOND ...). The rewriter reads the unit from the
// tokens and turns the call into __wsql_extract(k, x), where k indexes
// rewritten.extracts; TiDB then only parses x.

// extractUnits are the units Flink's EXTRACT accepts.
var extractUnits = wordSet("MILLENNIUM CENTURY DECADE YEAR ISOYEAR QUARTER MONTH WEEK DAY DOW ISODOW DOY " +
	"HOUR MINUTE SECOND MILLISECOND MICROSECOND NANOSECOND EPOCH")

// extractUnit reads the unit of the EXTRACT at toks[i], which is followed
// by "(", into rw.extracts and returns the index of the token after FROM.
func (rw *rewritten) extractUnit(toks []token, i int) (int, *Error) {
	if i+2 >= len(toks) || toks[i+2].kind != tokIdent {
		return 0, Errorf(ErrSyntax, tokPos(toks, i+2), "expected a time unit in EXTRACT, as in EXTRACT(HOUR FROM ts)")
	}
	unit := strings.ToUpper(toks[i+2].text)
	if !extractUnits[unit] {
		hint := DidYouMean(unit, slices.Collect(maps.Keys(extractUnits)))
		return 0, Errorf(ErrSyntax, toks[i+2].pos, "unknown time unit %s in EXTRACT%s", toks[i+2].text, hint)
	}
	if i+3 >= len(toks) || !toks[i+3].is("FROM") {
		return 0, Errorf(ErrSyntax, tokPos(toks, i+3), "expected FROM after the unit of EXTRACT, as in EXTRACT(HOUR FROM ts)")
	}
	rw.extracts = append(rw.extracts, unit)
	return i + 4, nil
}

// extract lifts the placeholder call __wsql_extract(k, x).
func (l *lifter) extract(e *ast.FuncCallExpr, at Pos) (Expr, *Error) {
	if len(e.Args) != 2 {
		// EXTRACT(YEAR FROM a, b) reaches TiDB as a call of three.
		p := at
		if len(e.Args) > 2 {
			p = l.exprPos(e.Args[2])
		}
		return nil, Errorf(ErrSyntax, p, "EXTRACT takes one expression after FROM")
	}
	unit := l.rw.extracts[l.sideIndex(e, 0, len(l.rw.extracts))]
	x, err := l.expr(e.Args[1])
	if err != nil {
		return nil, err
	}
	return &Extract{At: at, Unit: unit, X: x}, nil
}
