package sql

import (
	"strconv"
	"strings"
)

// Flink's correlated table references, joined with the table references
// left of them, each of whose rows they expand:
//
//	[CROSS JOIN | , | LEFT JOIN] UNNEST(expr) [WITH ORDINALITY] [AS] t [(cols)] [ON TRUE]
//	[CROSS JOIN | , | LEFT JOIN] LATERAL TABLE(f(args)) [AS] t [(cols)] [ON TRUE]
//
// MySQL has neither, so the rewriter reads them from tokens (the argument
// parsed as an expression of its own) and hands TiDB a placeholder table
// name (__wsql_lateral_0) that the lifter replaces, as for VALUES.

// Lateral is a table computed from each row of the table references left
// of it in FROM (Flink's correlate): UNNEST or LATERAL TABLE.
type Lateral struct {
	At Pos // UNNEST or LATERAL
	// Unnest is the array, multiset or map UNNEST expands; nil for a
	// table function.
	Unnest Expr
	// Ordinality is WITH ORDINALITY: a last column numbers each row's
	// elements from 1.
	Ordinality bool
	// Function is LATERAL TABLE's call of a table function; nil for UNNEST.
	Function *FuncCall
	Alias    string
	// Columns name the columns it gives, when written.
	Columns []Ident
}

// isLateralStart reports whether toks[i] starts UNNEST(...) or LATERAL
// TABLE(...) where a table reference may be.
func isLateralStart(toks []token, i int) bool {
	if i == 0 || i+1 >= len(toks) {
		return false
	}
	prev := toks[i-1]
	if !(prev.is("FROM") || prev.is("JOIN") || prev.isOp(",")) {
		return false
	}
	return toks[i].is("UNNEST") && toks[i+1].isOp("(") ||
		toks[i].is("LATERAL") && toks[i+1].is("TABLE") && i+2 < len(toks) && toks[i+2].isOp("(")
}

// lateral reads UNNEST(...) or LATERAL TABLE(...) with its alias at
// toks[i] and returns the placeholder that stands for it and the index
// after it.
func (rw *rewritten) lateral(toks []token, i int) (string, int, *Error) {
	p := &reader{src: rw.src, toks: toks, i: i}
	lat := &Lateral{At: toks[i].pos}
	if p.accept("UNNEST") {
		if err := p.op("("); err != nil {
			return "", 0, err
		}
		e, err := p.expr(false)
		if err != nil {
			return "", 0, err
		}
		if t := p.peek(); t.isOp(",") {
			return "", 0, Errorf(ErrUnsupported, t.pos, "UNNEST takes one array, multiset or map, as in Flink; unnest each in a join of its own")
		}
		if err := p.op(")"); err != nil {
			return "", 0, err
		}
		lat.Unnest = e
		if p.accept("WITH", "ORDINALITY") {
			lat.Ordinality = true
		}
	} else {
		p.i += 2 // LATERAL TABLE
		if err := p.op("("); err != nil {
			return "", 0, err
		}
		at := p.peek().pos
		e, err := p.expr(false)
		if err != nil {
			return "", 0, err
		}
		f, ok := e.(*FuncCall)
		if !ok || f.Star || f.Distinct || f.Filter != nil {
			return "", 0, Errorf(ErrSyntax, at, "LATERAL TABLE takes a call of a table function, as in LATERAL TABLE(split(s)) AS t(word)")
		}
		if err := p.op(")"); err != nil {
			return "", 0, err
		}
		lat.Function = f
	}
	p.accept("AS")
	if t := p.peek(); t.kind == tokQuotedIdent || t.kind == tokIdent && !notAlias[strings.ToUpper(t.text)] {
		p.i++
		lat.Alias = t.value()
		if p.peek().isOp("(") {
			cols, err := p.nameList("a column name")
			if err != nil {
				return "", 0, err
			}
			lat.Columns = cols
		}
	}
	// Back-quoted, so a token right after it cannot join the name.
	text := "`" + internalPrefix + "lateral_" + strconv.Itoa(len(rw.laterals)) + "`"
	rw.laterals = append(rw.laterals, lat)
	return text, p.i, nil
}

// notAlias are the words that may follow a correlated table reference
// without an alias.
var notAlias = func() map[string]bool {
	m := map[string]bool{"ON": true, "CROSS": true, "LEFT": true, "RIGHT": true, "FULL": true, "INNER": true, "JOIN": true, "NATURAL": true}
	for w := range fromEnds {
		m[w] = true
	}
	return m
}()

// checkLateralJoin refuses the joins with a correlated table reference
// Flink refuses: it must be the right side; a LEFT JOIN takes ON TRUE only
// (Flink's validator, since the condition would be applied before the
// padding); RIGHT and FULL joins are not defined over it.
func checkLateralJoin(j *Join) *Error {
	if lat := j.Left.Lateral; lat != nil {
		return Errorf(ErrUnsupported, lat.At, "%s follows the table whose rows it expands, as in FROM t CROSS JOIN %s", lat.what(), lat.example())
	}
	lat := j.Right.Lateral
	if lat == nil {
		return nil
	}
	switch j.Kind {
	case RightJoin, FullJoin:
		return Errorf(ErrUnsupported, j.At, "%s of %s is not supported, as in Flink: use CROSS JOIN, or LEFT JOIN ... ON TRUE to keep the rows it gives nothing for", j.Kind, lat.what())
	case LeftJoin:
		if j.On == nil {
			return nil // needs an ON condition, said after
		}
		if l, ok := j.On.(*Literal); !ok || l.Kind != LitBool || !strings.EqualFold(l.Text, "TRUE") {
			return Errorf(ErrUnsupported, j.On.Pos(), "a LEFT JOIN with %s takes ON TRUE only, as in Flink: filter its rows in WHERE", lat.what())
		}
	}
	return nil
}

// what names the correlated table reference in errors.
func (lat *Lateral) what() string {
	if lat.Function != nil {
		return "a table function"
	}
	return "UNNEST"
}

func (lat *Lateral) example() string {
	if lat.Function != nil {
		return "LATERAL TABLE(f(t.x)) AS r(y)"
	}
	return "UNNEST(t.arr) AS r(y)"
}
