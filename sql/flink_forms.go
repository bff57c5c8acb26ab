package sql

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
)

// Flink forms MySQL's grammar lacks, rewritten into text TiDB reads and
// lifted back from the user's tokens:
//
//	x IS [NOT] DISTINCT FROM y   -> x <=> y          (the lifter reads the words before y)
//	x BETWEEN SYMMETRIC a AND b  -> x BETWEEN a AND b (the word before a)
//	x [NOT] SIMILAR TO p         -> x [NOT] LIKE p    (the words before p)
//	FLOOR(x TO DAY)              -> __wsql_floor(x, __wsql_time_unit(k))
//	TIMESTAMPADD(DAY, n, t)      -> __wsql_timestampadd(__wsql_time_unit(k), n, t)
//	CASE x WHEN a, b THEN r      -> CASE x WHEN __wsql_when(a, b) THEN r
//
// k indexes rewritten.units. A user writing <=> gets Flink's answer: it
// is not an operator of Flink SQL.

// replacement is one part of a rewritten form: toks[start:end] become text.
type replacement struct {
	start, end int
	text       string
}

// timeUnits are the units of FLOOR/CEIL(x TO unit), TIMESTAMPADD and
// TIMESTAMPDIFF, as Flink (Calcite) reads them.
var timeUnits = wordSet("MILLENNIUM CENTURY DECADE YEAR QUARTER MONTH WEEK DAY HOUR MINUTE SECOND MILLISECOND MICROSECOND NANOSECOND")

// unitCalls are the functions whose calls carry a time unit.
var unitCalls = wordSet("FLOOR CEIL CEILING TIMESTAMPADD TIMESTAMPDIFF")

// isFlinkForm reports whether toks[i] starts a form flinkForm rewrites.
func isFlinkForm(toks []token, i int) bool {
	t := toks[i]
	at := func(k int, w string) bool { return k < len(toks) && toks[k].is(w) }
	open := i+1 < len(toks) && toks[i+1].isOp("(")
	switch {
	case t.is("IS"):
		return at(i+1, "DISTINCT") || at(i+1, "NOT") && at(i+2, "DISTINCT")
	case t.is("BETWEEN"):
		return (at(i+1, "SYMMETRIC") || at(i+1, "ASYMMETRIC")) && !at(i+2, "AND")
	case t.is("SIMILAR"):
		return at(i+1, "TO")
	case t.is("FLOOR"), t.is("CEIL"), t.is("CEILING"):
		return open && wordInParens(toks, i+1, "TO") >= 0
	case t.is("TIMESTAMPADD"), t.is("TIMESTAMPDIFF"):
		return open
	case t.is("WHEN"):
		_, commas := whenValues(toks, i)
		return commas
	}
	return false
}

// flinkForm rewrites the form at toks[i]; the first replacement starts at
// i, the others come later in the statement.
func (rw *rewritten) flinkForm(toks []token, i int) ([]replacement, *Error) {
	t := toks[i]
	switch {
	case t.is("IS"):
		end := i + 3
		if toks[i+1].is("NOT") {
			end++
		}
		if end > len(toks) || !toks[end-1].is("FROM") {
			return nil, Errorf(ErrSyntax, tokPos(toks, end-1), "expected FROM after IS DISTINCT, as in a IS DISTINCT FROM b")
		}
		return []replacement{{i, end, "<=>"}}, nil
	case t.is("BETWEEN"):
		return []replacement{{i, i + 2, "BETWEEN"}}, nil
	case t.is("SIMILAR"):
		return []replacement{{i, i + 2, "LIKE"}}, nil
	case t.is("WHEN"):
		then, _ := whenValues(toks, i)
		return []replacement{{i, i + 1, t.text + " " + internalPrefix + "when("}, {then, then + 1, ") " + toks[then].text}}, nil
	case t.is("TIMESTAMPADD"), t.is("TIMESTAMPDIFF"):
		unit, err := rw.timeUnit(toks, i+2, t.text)
		if err != nil {
			return nil, err
		}
		if i+3 >= len(toks) || !toks[i+3].isOp(",") {
			return nil, Errorf(ErrSyntax, tokPos(toks, i+3), "expected , after the unit of %s, as in %s(DAY, 1, ts)", strings.ToUpper(t.text), strings.ToUpper(t.text))
		}
		return []replacement{{i, i + 1, internalPrefix + strings.ToLower(t.text)}, {i + 2, i + 3, unit}}, nil
	}
	// FLOOR / CEIL (x TO unit)
	to := wordInParens(toks, i+1, "TO")
	unit, err := rw.timeUnit(toks, to+1, t.text)
	if err != nil {
		return nil, err
	}
	if to+2 >= len(toks) || !toks[to+2].isOp(")") {
		return nil, Errorf(ErrSyntax, tokPos(toks, to+2), "expected ) after the unit of %s(x TO unit)", strings.ToUpper(t.text))
	}
	return []replacement{{i, i + 1, internalPrefix + strings.ToLower(t.text)}, {to, to + 2, ", " + unit}}, nil
}

// timeUnit reads the unit at toks[k] into rw.units and returns its
// placeholder call.
func (rw *rewritten) timeUnit(toks []token, k int, fn string) (string, *Error) {
	if k >= len(toks) || toks[k].kind != tokIdent {
		return "", Errorf(ErrSyntax, tokPos(toks, k), "expected a time unit in %s, such as DAY", strings.ToUpper(fn))
	}
	unit := strings.ToUpper(toks[k].text)
	if strings.HasPrefix(unit, "SQL_TSI_") {
		unit = strings.TrimPrefix(unit, "SQL_TSI_")
		if unit == "FRAC_SECOND" {
			unit = "MICROSECOND"
		}
	}
	if !timeUnits[unit] {
		hint := DidYouMean(unit, slices.Collect(maps.Keys(timeUnits)))
		return "", Errorf(ErrSyntax, toks[k].pos, "unknown time unit %s in %s%s", toks[k].text, strings.ToUpper(fn), hint)
	}
	rw.units = append(rw.units, unit)
	return internalPrefix + "time_unit(" + strconv.Itoa(len(rw.units)-1) + ")", nil
}

// whenValues finds the THEN of the WHEN at toks[i] and whether commas
// separate several values before it (CASE x WHEN a, b THEN ...).
func whenValues(toks []token, i int) (then int, commas bool) {
	depth, cases := 0, 0
	for k := i + 1; k < len(toks); k++ {
		t := toks[k]
		switch {
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			if depth--; depth < 0 {
				return -1, false
			}
		case t.is("CASE"):
			cases++
		case t.is("END") && cases > 0:
			cases--
		case depth == 0 && cases == 0 && t.isOp(","):
			commas = true
		case depth == 0 && cases == 0 && t.is("THEN"):
			return k, commas
		}
	}
	return -1, false
}

// wordsBefore reports whether the tokens right before the expression e
// (after any opening parentheses) are words.
func (l *lifter) wordsBefore(e ast.ExprNode, words ...string) bool {
	k := l.tokenAt(e.OriginTextPosition())
	for k > 0 && l.rw.toks[k-1].isOp("(") {
		k--
	}
	if k < len(words) {
		return false
	}
	for j, w := range words {
		if !l.rw.toks[k-len(words)+j].is(w) {
			return false
		}
	}
	return true
}

// distinctFrom lifts x <=> y, which only IS [NOT] DISTINCT FROM becomes.
func (l *lifter) distinctFrom(e *ast.BinaryOperationExpr, at Pos) (Expr, *Error) {
	if e.Op != opcode.NullEQ || !l.wordsBefore(e.R, "DISTINCT", "FROM") {
		return nil, l.unsupported(at, "operator <=> is not supported; use IS NOT DISTINCT FROM")
	}
	op := "IS DISTINCT FROM"
	if l.wordsBefore(e.R, "NOT", "DISTINCT", "FROM") {
		op = "IS NOT DISTINCT FROM"
	}
	x, err := l.expr(e.L)
	if err != nil {
		return nil, err
	}
	y, err := l.expr(e.R)
	if err != nil {
		return nil, err
	}
	return &Binary{At: at, Op: op, L: x, R: y}, nil
}

// isTruth lifts x IS [NOT] TRUE / FALSE.
func (l *lifter) isTruth(e *ast.IsTruthExpr, at Pos) (Expr, *Error) {
	x, err := l.expr(e.Expr)
	if err != nil {
		return nil, err
	}
	return &IsTruth{At: at, X: x, Value: e.True != 0, Not: e.Not}, nil
}

// unitCall lifts a call that names a time unit: FLOOR(x TO unit),
// TIMESTAMPADD(unit, n, t) and their relatives.
func (l *lifter) unitCall(e *ast.FuncCallExpr, name string, at Pos) (Expr, *Error) {
	f := &FuncCall{At: at, Name: name}
	for _, a := range e.Args {
		if c, ok := a.(*ast.FuncCallExpr); ok && internalName(c.FnName.L) == "TIME_UNIT" {
			f.Unit = l.rw.units[l.sideIndex(c, 0, len(l.rw.units))]
			continue
		}
		x, err := l.expr(a)
		if err != nil {
			return nil, err
		}
		f.Args = append(f.Args, x)
	}
	return f, nil
}

// whenList is the values of a WHEN: several for __wsql_when(a, b).
func (l *lifter) whenList(e ast.ExprNode) ([]Expr, *Error) {
	if c, ok := e.(*ast.FuncCallExpr); ok && internalName(c.FnName.L) == "WHEN" {
		return l.exprs(c.Args)
	}
	x, err := l.expr(e)
	if err != nil {
		return nil, err
	}
	return []Expr{x}, nil
}

// IsTruth is `x IS [NOT] TRUE` or `x IS [NOT] FALSE`: never UNKNOWN.
type IsTruth struct {
	At    Pos
	X     Expr
	Value bool
	Not   bool
}

func (e *IsTruth) Pos() Pos { return e.At }
func (*IsTruth) expr()      {}
