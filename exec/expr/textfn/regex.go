package textfn

import (
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/regex"
)

// RegexKind is which of Flink's regular-expression functions a Regex
// kernel computes.
type RegexKind int

const (
	// RegexpMatches is REGEXP(s, p): whether any substring matches; an
	// empty or invalid pattern is FALSE.
	RegexpMatches RegexKind = iota
	// RegexpExtract is REGEXP_EXTRACT(s, p [, group]): the group (default
	// 0, the whole match) of the first match; NULL when nothing matches,
	// the group does not exist or did not take part, or p is invalid.
	RegexpExtract
	// RegexpReplace is REGEXP_REPLACE(s, p, r): every match replaced by r
	// taken literally (Flink quotes the replacement); NULL if p is invalid.
	RegexpReplace
	// RegexpCount is REGEXP_COUNT(s, p): the number of matches (INT).
	RegexpCount
	// RegexpInstr is REGEXP_INSTR(s, p): the 1-based character position of
	// the first match, 0 if none (INT).
	RegexpInstr
	// RegexpSubstr is REGEXP_SUBSTR(s, p): the first match, NULL if none.
	RegexpSubstr
)

var regexNames = [...]string{"REGEXP", "REGEXP_EXTRACT", "REGEXP_REPLACE", "REGEXP_COUNT", "REGEXP_INSTR", "REGEXP_SUBSTR"}

// Regex is a regular-expression function over STRING s and pattern p;
// Third is REGEXP_EXTRACT's group (BIGINT) or REGEXP_REPLACE's
// replacement (STRING). A constant pattern is compiled once, by
// NewRegex; another is compiled when it changes from row to row.
type Regex struct {
	Kind   RegexKind
	S, P   expr.Expr
	Third  expr.Expr
	re     *regex.Regex
	bad    bool // the constant pattern is invalid
	isCons bool
	cons   string
}

// NewRegex builds the kernel, compiling p when it is a constant string.
func NewRegex(kind RegexKind, s, p, third expr.Expr) *Regex {
	e := &Regex{Kind: kind, S: s, P: p, Third: third}
	if l, ok := p.(*expr.Literal); ok && !l.Null {
		e.isCons, e.cons = true, l.Str
		e.re, e.bad = compilePattern(kind, l.Str)
	}
	return e
}

// compilePattern compiles a pattern; bad is an invalid one, and REGEXP's
// empty pattern, which Flink answers FALSE.
func compilePattern(kind RegexKind, p string) (*regex.Regex, bool) {
	if kind == RegexpMatches && p == "" {
		return nil, true
	}
	re, err := regex.Compile(p)
	if err != nil {
		return nil, true
	}
	return re, false
}

func (e *Regex) DataType() arrow.DataType {
	switch e.Kind {
	case RegexpMatches:
		return arrow.FixedWidthTypes.Boolean
	case RegexpCount, RegexpInstr:
		return arrow.PrimitiveTypes.Int32
	}
	return arrow.BinaryTypes.String
}

func (e *Regex) Children() []expr.Expr {
	if e.Third != nil {
		return []expr.Expr{e.S, e.P, e.Third}
	}
	return []expr.Expr{e.S, e.P}
}

func (e *Regex) String() string { return argsString(regexNames[e.Kind], e.Children()) }

// patterns hands out the matcher of each row's pattern: one for a
// constant, and for a column the last pattern's, compiled again only
// when the pattern changes.
type patterns struct {
	cons   bool // a constant pattern: m (or bad) never changes
	kind   RegexKind
	last   string
	m      *regex.Matcher
	bad    bool
	primed bool
}

func (ps *patterns) matcher(p string) (*regex.Matcher, bool) {
	if ps.cons {
		return ps.m, !ps.bad
	}
	if !ps.primed || p != ps.last {
		ps.primed, ps.last = true, p
		re, bad := compilePattern(ps.kind, p)
		ps.bad, ps.m = bad, nil
		if !bad {
			ps.m = re.NewMatcher()
		}
	}
	return ps.m, !ps.bad
}

func (e *Regex) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	b, err := evalBatch(rec, mem, e.Children())
	if err != nil {
		return nil, err
	}
	defer b.release()
	ps := &patterns{kind: e.Kind}
	if e.isCons {
		ps.cons, ps.bad = true, e.bad
		if !e.bad {
			ps.m = e.re.NewMatcher()
		}
	}
	n := b.n
	s, p := b.strs[0], b.strs[1]
	switch e.Kind {
	case RegexpMatches:
		out := newBoolOut(mem, n)
		for i := range n {
			if !b.ok(i) {
				continue
			}
			m, ok := ps.matcher(p.At(i))
			if !ok {
				out.set(i, false)
				continue
			}
			m.Reset()
			out.set(i, m.Find(s.At(i)))
		}
		return out.finish(n), nil
	case RegexpCount, RegexpInstr:
		out := newFixedOut[int32](mem, n)
		for i := range n {
			if !b.ok(i) {
				continue
			}
			m, ok := ps.matcher(p.At(i))
			if !ok {
				continue
			}
			str := s.At(i)
			m.Reset()
			if e.Kind == RegexpInstr {
				pos := int32(0)
				if m.Find(str) {
					start, _, _ := m.Group(0)
					pos = int32(utf8.RuneCountInString(str[:start])) + 1
				}
				out.set(i, pos)
				continue
			}
			count := int32(0)
			for m.Find(str) {
				count++
			}
			out.set(i, count)
		}
		return out.finish(arrow.PrimitiveTypes.Int32, n), nil
	}
	if col, ok := b.cols[0].(*array.String); ok && ps.cons && !ps.bad && e.Kind != RegexpReplace {
		return e.firstMatches(b, col, ps.m, mem)
	}
	hint := 0
	if col, ok := b.cols[0].(*array.String); ok && e.Kind != RegexpReplace {
		hint = min(len(col.ValueBytes()), expr.MaxStringColumnBytes) // a match is no longer than its row
	}
	out := newRawStrings(mem, n, regexNames[e.Kind], hint)
	var groups []int64
	if e.Kind == RegexpExtract && e.Third != nil {
		groups = b.ints(2)
	}
	var buf []byte
	for i := range n {
		if !b.ok(i) {
			out.null()
			continue
		}
		m, ok := ps.m, !ps.bad // a constant pattern's, without a call
		if !ps.cons {
			m, ok = ps.matcher(p.At(i))
		}
		if !ok {
			out.null()
			continue
		}
		str := s.At(i)
		m.Reset()
		switch e.Kind {
		case RegexpExtract:
			g := int64(0)
			if groups != nil {
				g = groups[i]
			}
			if !m.Find(str) || g < 0 || g > int64(m.Groups()) {
				out.null()
				continue
			}
			start, end, took := m.Group(int(g))
			if !took {
				out.null()
				continue
			}
			if err := out.add(str[start:end]); err != nil {
				out.release()
				return nil, err
			}
		case RegexpSubstr:
			if !m.Find(str) {
				out.null()
				continue
			}
			start, end, _ := m.Group(0)
			if err := out.add(str[start:end]); err != nil {
				out.release()
				return nil, err
			}
		case RegexpReplace:
			repl := b.strs[2].At(i)
			buf = buf[:0]
			last := 0
			for m.Find(str) {
				start, end, _ := m.Group(0)
				buf = append(buf, str[last:start]...)
				buf = append(buf, repl...)
				last = end
			}
			buf = append(buf, str[last:]...)
			if err := out.add(unsafe.String(unsafe.SliceData(buf), len(buf))); err != nil {
				out.release()
				return nil, err
			}
		}
	}
	return out.finish(), nil
}

// firstMatches is REGEXP_EXTRACT and REGEXP_SUBSTR of a constant pattern
// over a STRING column: the rows are read straight from the column's
// offsets and data and the results written straight into the output's,
// without a call per row beyond the matcher's.
func (e *Regex) firstMatches(b *batch, col *array.String, m *regex.Matcher, mem memory.Allocator) (arrow.Array, error) {
	n := b.n
	offs := col.ValueOffsets()
	data := col.ValueBytes()
	base := offs[0]
	text := unsafe.String(unsafe.SliceData(data), len(data))
	// A match is no longer than its row, and usually much shorter: the
	// data buffer starts at 8 bytes a row and grows when it must.
	out := newRawStrings(mem, n, regexNames[e.Kind], min(len(data), 8*n, expr.MaxStringColumnBytes))
	var groups []int64
	if e.Kind == RegexpExtract && e.Third != nil {
		groups = b.ints(2)
	}
	maxGroup := int64(m.Groups())
	anyNull := bitutil.CountSetBits(b.valid, 0, n) < n
	for i := range n {
		if anyNull && !b.ok(i) {
			out.null()
			continue
		}
		g := int64(0)
		if groups != nil {
			g = groups[i]
		}
		str := text[offs[i]-base : offs[i+1]-base]
		m.Reset()
		if g < 0 || g > maxGroup || !m.Find(str) {
			out.null()
			continue
		}
		start, end, took := m.Group(int(g))
		if !took {
			out.null()
			continue
		}
		// out.add written out: the call costs more than the copy.
		if out.size+end-start > len(out.data) {
			if err := out.grow(end - start); err != nil {
				out.release()
				return nil, err
			}
		}
		out.size += copy(out.data[out.size:], str[start:end])
		out.row++
		out.offsets[out.row] = int32(out.size)
	}
	return out.finish(), nil
}
