package sql

import (
	"slices"
	"strings"
)

// Hints are Flink's /*+ ... */ comments. The lexer reads their content as
// tokens between a tokHintStart and a tokHintEnd; takeHints removes them
// from a statement's tokens before anything else reads it, so TiDB never
// sees one, and records each by what it follows:
//
//	FROM t /*+ OPTIONS('k' = 'v') */       a table hint: dynamic table options
//	INSERT INTO t /*+ OPTIONS(...) */ ...  likewise, for the table written
//	SELECT /*+ BROADCAST(t) */ ...         a query hint: not supported yet
//
// A table hint waits in the source for the table reference it follows
// (the lifter's FROM, INSERT's target), which takes it by the offset of
// the reference's first token. A hint anywhere else is a syntax error, as
// in Flink, and so is one no table reference took.

// flinkQueryHints are the query hints Flink knows; wsql runs none yet.
var flinkQueryHints = []string{"BROADCAST", "SHUFFLE_HASH", "SHUFFLE_MERGE", "NEST_LOOP", "LOOKUP", "STATE_TTL"}

// hintOptions is the one hint wsql honours: Flink's dynamic table options.
const hintOptions = "OPTIONS"

// pendingHint is a table hint recorded until its table reference takes it.
type pendingHint struct {
	hint  *TableHint
	start Pos // the /*+ of its first comment
	used  bool
}

// misplacedHint is the error of a hint that follows neither SELECT nor a
// table's name.
func misplacedHint(at Pos) *Error {
	return Errorf(ErrSyntax, at, "a hint can only follow SELECT or a table's name, as in FROM t /*+ OPTIONS('key' = 'value') */")
}

// takeHints returns toks without the hints in them, recording the table
// hints in s for the table references they follow.
func takeHints(s *source, toks []token) ([]token, *Error) {
	if !slices.ContainsFunc(toks, func(t token) bool { return t.kind == tokHintStart }) {
		return toks, nil
	}
	rest := make([]token, 0, len(toks))
	for i := 0; i < len(toks); i++ {
		if toks[i].kind != tokHintStart {
			rest = append(rest, toks[i])
			continue
		}
		end := i + 1
		for end < len(toks) && toks[end].kind != tokHintEnd {
			end++
		}
		if end == len(toks) {
			// a ';' inside the hint cut the statement
			return nil, Errorf(ErrSyntax, toks[i].pos, "hint is not closed: missing */")
		}
		items, err := parseHintItems(toks[i+1:end], toks[end])
		if err != nil {
			return nil, err
		}
		if err := recordHint(s, rest, toks[i].pos, items); err != nil {
			return nil, err
		}
		s.hintsEnd = toks[end].end
		i = end
	}
	return rest, nil
}

// hintItem is one hint of a comment: its name and, for OPTIONS, its
// key-value pairs.
type hintItem struct {
	name    token
	options []Option
}

// parseHintItems reads the hints of one comment: name [(args)] [, ...].
// Only OPTIONS' arguments are read; the other hints are refused by name.
func parseHintItems(toks []token, end token) ([]hintItem, *Error) {
	var items []hintItem
	p := &reader{toks: toks}
	for {
		t := p.peek()
		if t.kind != tokIdent {
			return nil, hintExpected(t, end, "a hint name, as in /*+ OPTIONS('key' = 'value') */")
		}
		p.i++
		item := hintItem{name: t}
		if p.peek().isOp("(") {
			close := closeParen(toks, p.i)
			if close < 0 {
				return nil, Errorf(ErrSyntax, toks[p.i].pos, "expected ) to close the arguments of hint %s", t.text)
			}
			if strings.EqualFold(t.text, hintOptions) {
				opts, err := parseHintOptions(toks[p.i+1:close], toks[close], t)
				if err != nil {
					return nil, err
				}
				item.options = opts
			}
			p.i = close + 1
		} else if strings.EqualFold(t.text, hintOptions) {
			return nil, hintExpected(p.peek(), end, "( after OPTIONS, as in OPTIONS('key' = 'value')")
		}
		items = append(items, item)
		switch t := p.peek(); {
		case p.i == len(toks):
			return items, nil
		case t.isOp(","):
			p.i++
		default:
			return nil, Errorf(ErrSyntax, t.pos, "expected , or */ after hint %s", item.name.text)
		}
	}
}

// parseHintOptions reads OPTIONS' arguments: 'key' = 'value' pairs.
func parseHintOptions(toks []token, close, name token) ([]Option, *Error) {
	if len(toks) == 0 {
		// as Flink: "Hint [OPTIONS] only support non empty key value options"
		return nil, Errorf(ErrSyntax, close.pos, "OPTIONS needs at least one 'key' = 'value' pair")
	}
	var opts []Option
	p := &reader{toks: toks}
	for {
		k := p.peek()
		if k.kind != tokString {
			return nil, hintExpected(k, close, "a 'key' = 'value' pair in OPTIONS, as in OPTIONS('csv.ignore-parse-errors' = 'true')")
		}
		p.i++
		if !p.peek().isOp("=") {
			return nil, hintExpected(p.peek(), close, "= and a value after the key "+k.text)
		}
		p.i++
		v := p.peek()
		if v.kind != tokString {
			return nil, hintExpected(v, close, "a value in quotes after "+k.text+" =, as in 'true'")
		}
		p.i++
		opts = append(opts, Option{Key: k.value(), Value: v.value(), At: k.pos})
		switch t := p.peek(); {
		case p.i == len(toks):
			return opts, nil
		case t.isOp(","):
			p.i++
		default:
			return nil, Errorf(ErrSyntax, t.pos, "expected , or ) after the option %s", k.text)
		}
	}
}

// hintExpected is the syntax error at t, or at end when the hint's or
// argument list's tokens ran out.
func hintExpected(t, end token, what string) *Error {
	if t.kind == 0 {
		t = end
	}
	return Errorf(ErrSyntax, t.pos, "expected %s", what)
}

// recordHint checks where a hint comment is (after rest's last token)
// and what it asks for, and records a table hint in s.
func recordHint(s *source, rest []token, start Pos, items []hintItem) *Error {
	n := len(rest)
	if n > 0 && rest[n-1].is("SELECT") {
		for _, it := range items {
			if strings.EqualFold(it.name.text, hintOptions) {
				return Errorf(ErrInvalid, it.name.pos, "OPTIONS is a table hint: write it right after the table's name, as in FROM t /*+ OPTIONS('key' = 'value') */")
			}
			if err := refuseHint(it.name); err != nil {
				return err
			}
		}
		return nil
	}
	ref := tableRefStart(rest)
	if ref < 0 {
		return misplacedHint(start)
	}
	if s.hints == nil {
		s.hints = map[int]*pendingHint{}
	}
	ph := s.hints[rest[ref].off]
	if ph == nil {
		ph = &pendingHint{hint: &TableHint{}, start: start}
		s.hints[rest[ref].off] = ph
	}
	h := ph.hint
	for _, it := range items {
		if !strings.EqualFold(it.name.text, hintOptions) {
			return refuseHint(it.name)
		}
		if !h.At.IsValid() {
			h.At = it.name.pos
		}
		for _, o := range it.options {
			if slices.ContainsFunc(h.Options, func(p Option) bool { return p.Key == o.Key }) {
				return Errorf(ErrInvalid, o.At, "option '%s' is given twice", o.Key)
			}
			h.Options = append(h.Options, o)
		}
	}
	return nil
}

// refuseHint is the error of a hint wsql does not run: Flink's other hints
// are not supported yet, and a name Flink does not know is a mistake.
func refuseHint(name token) *Error {
	upper := strings.ToUpper(name.text)
	if slices.Contains(flinkQueryHints, upper) {
		return Errorf(ErrUnsupported, name.pos, "hint %s is not supported yet; wsql supports the OPTIONS table hint only", upper)
	}
	return Errorf(ErrInvalid, name.pos, "unknown hint %s%s", name.text, DidYouMean(upper, append([]string{hintOptions}, flinkQueryHints...)))
}

// tableRefStart returns the index in toks of the first token of the table
// name that ends toks, right after FROM, JOIN or INSERT INTO/OVERWRITE;
// -1 when toks does not end so.
func tableRefStart(toks []token) int {
	j := len(toks) - 1
	if j < 0 || !toks[j].isName() {
		return -1
	}
	for j >= 2 && toks[j-1].isOp(".") && toks[j-2].isName() {
		j -= 2
	}
	if j < 1 {
		return -1
	}
	switch before := toks[j-1]; {
	case before.is("FROM"), before.is("JOIN"), before.is("INTO"), before.is("OVERWRITE"):
		return j
	}
	return -1
}

// endWithHints is end, or the end of the statement's hint comment
// that follows it: a view's text ends with its last table's hint.
func (s *source) endWithHints(end int) int { return max(end, s.hintsEnd) }

// tableHint returns the table hint that follows the table reference whose
// first token starts at off, or nil, and marks it taken.
func (s *source) tableHint(off int) *TableHint {
	ph := s.hints[off]
	if ph == nil {
		return nil
	}
	ph.used = true
	return ph.hint
}

// untakenHint is the error of a table hint no table reference took: one
// after FROM in EXTRACT(DAY FROM ts), say.
func (s *source) untakenHint() *Error {
	var first *pendingHint
	for _, ph := range s.hints {
		if !ph.used && (first == nil || ph.start.Offset < first.start.Offset) {
			first = ph
		}
	}
	if first == nil {
		return nil
	}
	return misplacedHint(first.start)
}
