package sql

import "strings"

// EXPLAIN [PLAN FOR] stmt, where stmt is a query or an INSERT. Flink's
// EXPLAIN details (ESTIMATED_COST, CHANGELOG_MODE, ...) choose what its
// planner prints; wsql has one plan text, so they are not supported.

var explainDetails = map[string]bool{
	"ESTIMATED_COST": true, "CHANGELOG_MODE": true, "JSON_EXECUTION_PLAN": true, "PLAN_ADVICE": true,
}

func parseExplain(src *source, toks []token) (*Explain, *Error) {
	p := &reader{src: src, toks: toks, i: 1}
	ex := &Explain{At: toks[0].pos}
	if t := p.peek(); t.kind == tokIdent && explainDetails[strings.ToUpper(t.text)] {
		return nil, Errorf(ErrUnsupported, t.pos, "EXPLAIN %s is not supported", strings.ToUpper(t.text))
	}
	if p.peek().is("PLAN") && !p.accept("PLAN", "FOR") {
		p.i++
		return nil, p.expected("FOR after EXPLAIN PLAN")
	}
	rest := toks[p.i:]
	switch t := p.peek(); {
	case t.is("INSERT"):
		ins, err := parseInsert(src, rest)
		if err != nil {
			return nil, err
		}
		ex.Stmt = ins
	case t.is("SELECT"), t.is("WITH"), t.isOp("("), t.is("VALUES"):
		sel, err := parseQuery(src, rest, endPos(toks))
		if err != nil {
			return nil, err
		}
		ex.Stmt = sel
	default:
		return nil, p.expected("a SELECT query or an INSERT statement to explain")
	}
	return ex, nil
}
