package sql

import "strings"

// overOnlyFuncs are Flink's functions that run only in an OVER window.
// MySQL's grammar rejects them without OVER, so there the rewriter renames
// them like plainAggregates: the planner then says why they do not run,
// instead of TiDB reporting a syntax error.
var overOnlyFuncs = wordSet("RANK DENSE_RANK ROW_NUMBER CUME_DIST PERCENT_RANK NTILE LEAD LAG")

// overOnlyWithoutOver reports whether toks[i] calls an OVER-only function
// with no OVER after its closing parenthesis.
func overOnlyWithoutOver(toks []token, i int) bool {
	if toks[i].kind != tokIdent || !overOnlyFuncs[strings.ToUpper(toks[i].text)] || i+1 >= len(toks) || !toks[i+1].isOp("(") {
		return false
	}
	end := closeParen(toks, i+1)
	return end >= 0 && (end+1 >= len(toks) || !toks[end+1].is("OVER"))
}

// overAggregates are the aggregates TiDB's grammar reads before OVER, as
// Flink's OVER aggregation takes them (ranking functions aside).
var overAggregates = map[string]bool{"COUNT": true, "SUM": true, "AVG": true, "MIN": true, "MAX": true,
	"STDDEV_POP": true, "STDDEV_SAMP": true, "VAR_POP": true, "VAR_SAMP": true,
	"ROW_NUMBER": true, "RANK": true, "DENSE_RANK": true}

// overUnparsed reports a call toks[i](...) OVER of a function TiDB does
// not read as a window function (LISTAGG(x) OVER (...)), which would
// otherwise be a bare syntax error.
func overUnparsed(toks []token, i int) bool {
	if overAggregates[strings.ToUpper(toks[i].text)] {
		return false
	}
	end := closeParen(toks, i+1)
	return end >= 0 && end+1 < len(toks) && toks[end+1].is("OVER")
}
