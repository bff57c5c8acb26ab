package sql

import (
	"strings"
)

// Flink's window table-valued functions in FROM:
//
//	TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), size [, offset]))
//	TABLE(HOP(TABLE t, DESCRIPTOR(ts), slide, size [, offset]))
//	TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), step, size [, offset]))
//	TABLE(SESSION(TABLE t [PARTITION BY k, ...], DESCRIPTOR(ts), gap))
//
// MySQL has nothing like them, so the rewriter reads the call from tokens
// here, parses the interval arguments as expressions of their own, and
// hands TiDB a placeholder table name (__wsql_tvf_0) that the lifter
// replaces with the WindowTVF. Arguments may also be named (SIZE => ...);
// they are put in positional order.

// tvfParams are each TVF's parameter names in positional order and how
// many of them are required.
var tvfParams = map[WindowKind]struct {
	names    []string
	required int
	usage    string
}{
	Tumble:   {[]string{"DATA", "TIMECOL", "SIZE", "OFFSET"}, 3, "TUMBLE(TABLE t, DESCRIPTOR(ts), size [, offset])"},
	Hop:      {[]string{"DATA", "TIMECOL", "SLIDE", "SIZE", "OFFSET"}, 4, "HOP(TABLE t, DESCRIPTOR(ts), slide, size [, offset])"},
	Cumulate: {[]string{"DATA", "TIMECOL", "STEP", "SIZE", "OFFSET"}, 4, "CUMULATE(TABLE t, DESCRIPTOR(ts), step, size [, offset])"},
	Session:  {[]string{"DATA", "TIMECOL", "GAP"}, 3, "SESSION(TABLE t [PARTITION BY k], DESCRIPTOR(ts), gap)"},
}

// tvfArg is one argument as written, before it is put in its slot.
type tvfArg struct {
	name        token // the NAME of NAME =>, or the zero token
	at          Pos
	table       *Ident // TABLE t
	partitionAt Pos    // of PARTITION BY, when written
	partition   []Ident
	descriptor  *Ident // DESCRIPTOR(ts)
	expr        Expr
}

// parseWindowTVF reads the TVF starting at toks[i] (the word TABLE,
// followed by "(") and returns it with the index after its last ")".
func parseWindowTVF(src *source, toks []token, i int) (*WindowTVF, int, *Error) {
	p := &reader{src: src, toks: toks, i: i + 2}
	fn := p.peek()
	kind := WindowKind(0)
	for _, k := range []WindowKind{Tumble, Hop, Cumulate, Session} {
		if fn.is(k.String()) {
			kind = k
		}
	}
	if kind == 0 {
		if fn.isName() && p.i+1 < len(toks) && toks[p.i+1].isOp("(") {
			return nil, 0, Errorf(ErrUnsupported, fn.pos, "table function %s is not supported; use TUMBLE, HOP, CUMULATE or SESSION%s",
				fn.text, DidYouMean(fn.text, []string{"TUMBLE", "HOP", "CUMULATE", "SESSION"}))
		}
		return nil, 0, p.expected("TUMBLE, HOP, CUMULATE or SESSION in TABLE(...)")
	}
	p.i++
	if err := p.op("("); err != nil {
		return nil, 0, err
	}
	var args []tvfArg
	for {
		a, err := p.tvfArg()
		if err != nil {
			return nil, 0, err
		}
		args = append(args, a)
		if p.peek().isOp(",") {
			p.i++
			continue
		}
		break
	}
	closeAt := tokPos(toks, p.i)
	if err := p.op(")"); err != nil {
		return nil, 0, err
	}
	if err := p.op(")"); err != nil {
		return nil, 0, err
	}
	tvf := &WindowTVF{At: toks[i].pos, Kind: kind}
	if err := tvf.fill(fn, args, closeAt); err != nil {
		return nil, 0, err
	}
	return tvf, p.i, nil
}

// tvfArg reads one argument: [NAME =>] TABLE t [PARTITION BY ...],
// DESCRIPTOR(col) or an expression.
func (p *reader) tvfArg() (tvfArg, *Error) {
	var a tvfArg
	if t := p.peek(); t.kind == tokIdent && p.i+1 < len(p.toks) && p.toks[p.i+1].isOp("=>") {
		a.name = t
		p.i += 2
	}
	t := p.peek()
	a.at = tokPos(p.toks, p.i)
	next := token{}
	if p.i+1 < len(p.toks) {
		next = p.toks[p.i+1]
	}
	switch {
	case t.is("TABLE") && next.isName():
		p.i++
		name, err := p.tableName("a table name after TABLE")
		if err != nil {
			return a, err
		}
		a.table = &name
		if by := p.peek(); p.accept("PARTITION", "BY") {
			a.partitionAt = by.pos
			if a.partition, err = p.partitionKeys(); err != nil {
				return a, err
			}
		}
	case t.is("DESCRIPTOR") && next.isOp("("):
		p.i += 2
		col, err := p.name("the time column in DESCRIPTOR(...)")
		if err != nil {
			return a, err
		}
		if p.peek().isOp(",") {
			return a, Errorf(ErrInvalid, p.peek().pos, "DESCRIPTOR takes one time column")
		}
		if err := p.op(")"); err != nil {
			return a, err
		}
		a.descriptor = &col
	default:
		start, depth := p.i, 0
		for ; p.i < len(p.toks); p.i++ {
			t := p.toks[p.i]
			if depth == 0 && (t.isOp(",") || t.isOp(")")) {
				break
			}
			if t.isOp("(") {
				depth++
			} else if t.isOp(")") {
				depth--
			}
		}
		if p.i == start {
			return a, p.expected("an argument")
		}
		e, err := parseExprTokens(p.src, p.toks[start:p.i])
		if err != nil {
			return a, err
		}
		a.expr = e
	}
	return a, nil
}

// partitionKeys reads the keys after PARTITION BY: "(k1, k2)" or
// "k1, k2". Without parentheses a name continues the list only when a ","
// or ")" follows it, so the next argument (DESCRIPTOR(ts), GAP => ...)
// is not taken for a key.
func (p *reader) partitionKeys() ([]Ident, *Error) {
	if p.peek().isOp("(") {
		return p.nameList("a partition column")
	}
	k, err := p.name("a partition column after PARTITION BY")
	if err != nil {
		return nil, err
	}
	keys := []Ident{k}
	for p.i+2 < len(p.toks) && p.toks[p.i].isOp(",") && p.toks[p.i+1].isName() &&
		(p.toks[p.i+2].isOp(",") || p.toks[p.i+2].isOp(")")) {
		keys = append(keys, Ident{Name: p.toks[p.i+1].value(), At: p.toks[p.i+1].pos})
		p.i += 2
	}
	return keys, nil
}

// fill puts the arguments in their slots, by position or by name, and
// checks each slot holds what it must.
func (w *WindowTVF) fill(fn token, args []tvfArg, closeAt Pos) *Error {
	spec := tvfParams[w.Kind]
	kind := w.Kind.String()
	slots := make([]*tvfArg, len(spec.names))
	named := args[0].name.kind != 0
	for k := range args {
		a := &args[k]
		if (a.name.kind != 0) != named {
			return Errorf(ErrSyntax, a.at, "cannot mix named and positional arguments in %s", kind)
		}
		if !named {
			if k >= len(slots) {
				return Errorf(ErrInvalid, a.at, "too many arguments for %s; it takes %s", kind, spec.usage)
			}
			slots[k] = a
			continue
		}
		word := strings.ToUpper(a.name.text)
		idx := -1
		for j, n := range spec.names {
			if n == word {
				idx = j
			}
		}
		switch {
		case idx < 0:
			return Errorf(ErrInvalid, a.name.pos, "%s has no argument named %s; its arguments are %s%s",
				kind, a.name.text, strings.Join(spec.names, ", "), DidYouMean(word, spec.names))
		case slots[idx] != nil:
			return Errorf(ErrInvalid, a.name.pos, "argument %s of %s is given twice", word, kind)
		}
		slots[idx] = a
	}
	// What each written slot holds is checked first: a missing DESCRIPTOR
	// is clearer than a count.
	for j, a := range slots {
		switch {
		case a == nil:
		case j == 0 && a.table == nil:
			return Errorf(ErrSyntax, a.at, "expected TABLE and a table name as the first argument of %s, as in %s", kind, spec.usage)
		case j == 1 && a.descriptor == nil:
			return Errorf(ErrSyntax, a.at, "expected DESCRIPTOR(column) naming the time attribute as the second argument of %s, as in %s", kind, spec.usage)
		case j >= 2 && a.expr == nil:
			return Errorf(ErrSyntax, a.at, "expected an interval as the %s argument of %s", spec.names[j], kind)
		case a.partition != nil && w.Kind != Session:
			return Errorf(ErrInvalid, a.partitionAt, "PARTITION BY is only allowed in SESSION, not in %s", kind)
		}
	}
	for j := 0; j < spec.required; j++ {
		if slots[j] == nil {
			if named {
				return Errorf(ErrInvalid, closeAt, "%s needs the argument %s; it takes %s", kind, spec.names[j], spec.usage)
			}
			return Errorf(ErrInvalid, closeAt, "%s needs %d arguments, found %d; it takes %s", kind, spec.required, len(args), spec.usage)
		}
	}
	data, timecol := slots[0], slots[1]
	w.Table, w.PartitionBy, w.TimeCol = *data.table, data.partition, *timecol.descriptor
	for _, a := range slots[2:] {
		if a != nil { // an optional OFFSET may be left out
			w.Args = append(w.Args, a.expr)
		}
	}
	return nil
}
