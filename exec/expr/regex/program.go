package regex

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// The backtracking matcher's program: nodes linked by next, compiled from
// Go's parse of the pattern. Running it tries, as Java does, the
// alternatives and repetition counts in order and takes the first that
// reaches the end (leftmost-first, greedy or lazy).

type op uint8

const (
	opFail op = iota
	opMatch
	opLit        // the bytes of str
	opClass      // one rune of classes[cls]
	opRepeat     // min to max (max < 0: unbounded) runes of classes[cls]
	opAlt        // each of alts in order
	opLoop       // body any number of times (greedy or lazy), then next
	opSave       // remember pos in capture slot, then next
	opBeginText  // \A, ^
	opEndText    // \z
	opDollar     // Java's $: the end, or before a line terminator that ends the input
	opBeginLine  // ^ with MULTILINE
	opEndLine    // $ with MULTILINE
	opWordEdge   // \b
	opNoWordEdge // \B
)

type node struct {
	op     op
	greedy bool
	next   int
	cls    int
	min    int
	max    int
	slot   int // capture slot (opSave) or loop slot (opLoop)
	body   int // opLoop
	str    string
	alts   []int
}

// class is a set of runes: ASCII by bitmap, the rest by sorted ranges.
type class struct {
	ascii  [2]uint64
	ranges []rune // lo, hi pairs of runes >= 0x80
}

func (c *class) has(r rune) bool {
	if r < utf8.RuneSelf {
		return c.ascii[r>>6]&(1<<(uint(r)&63)) != 0
	}
	rs := c.ranges
	for len(rs) > 0 { // binary search over the pairs
		m := len(rs) / 4 * 2
		switch {
		case r < rs[m]:
			rs = rs[:m]
		case r > rs[m+1]:
			rs = rs[m+2:]
		default:
			return true
		}
	}
	return false
}

func newClass(pairs []rune) class {
	var c class
	for i := 0; i+1 < len(pairs); i += 2 {
		lo, hi := pairs[i], pairs[i+1]
		for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
			c.ascii[r>>6] |= 1 << (uint(r) & 63)
		}
		if hi >= utf8.RuneSelf {
			c.ranges = append(c.ranges, max(lo, utf8.RuneSelf), hi)
		}
	}
	return c
}

// javaLineTerminators are what Java's `.` does not match and `$` stops
// before: \n, \r, U+0085, U+2028, U+2029.
func isLineTerminator(r rune) bool {
	return r == '\n' || r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029
}

// dotClass is Java's `.` without DOTALL: any rune but a line terminator.
var dotClass = newClass([]rune{0, '\n' - 1, '\n' + 1, '\r' - 1, '\r' + 1, 0x84, 0x86, 0x2027, 0x202A, unicode.MaxRune})

var anyClass = newClass([]rune{0, unicode.MaxRune})

// program is a compiled pattern.
type program struct {
	nodes   []node
	classes []class
	start   int
	ncap    int // capture slots: 2 per group, group 0 included
	nloop   int
	// anchored: the pattern starts with \A or ^ (not MULTILINE), so only
	// position 0 is tried.
	anchored bool
	// prefix is a literal every match starts with ("" if none), found
	// with strings.Index before the matcher runs.
	prefix string
	// first marks the bytes a match can start with (when known).
	first      [4]uint64
	firstKnown bool
	// later marks the bytes a match can start with past position 0, where
	// a branch starting with \A or ^ fails (when laterKnown): for
	// (&|^)x=, only an '&' is a start worth trying there.
	later      [4]uint64
	laterKnown bool
}

type compiler struct {
	p *program
}

// compileProgram builds the program of a parsed pattern.
func compileProgram(re *syntax.Regexp) *program {
	p := &program{ncap: 2 * (re.MaxCap() + 1)}
	c := &compiler{p: p}
	p.nodes = append(p.nodes, node{op: opFail}, node{op: opMatch})
	end := c.emit(node{op: opSave, slot: 1, next: 1})
	p.start = c.compile(re, end)
	p.start = c.emit(node{op: opSave, slot: 0, next: p.start})
	p.analyze()
	return p
}

func (c *compiler) emit(n node) int {
	c.p.nodes = append(c.p.nodes, n)
	return len(c.p.nodes) - 1
}

func (c *compiler) addClass(cl class) int {
	c.p.classes = append(c.p.classes, cl)
	return len(c.p.classes) - 1
}

// singleRune is the class of a sub-pattern that matches exactly one rune,
// or -1.
func (c *compiler) singleRune(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 1 {
			return c.addClass(literalClass(re.Rune[0], re.Flags&syntax.FoldCase != 0))
		}
	case syntax.OpCharClass:
		return c.addClass(newClass(re.Rune))
	case syntax.OpAnyCharNotNL:
		return c.addClass(dotClass)
	case syntax.OpAnyChar:
		return c.addClass(anyClass)
	}
	return -1
}

// literalClass is one rune, or with CASE_INSENSITIVE its ASCII case
// variants (Java folds only ASCII unless UNICODE_CASE is set).
func literalClass(r rune, fold bool) class {
	if fold && r < utf8.RuneSelf {
		switch {
		case 'a' <= r && r <= 'z':
			return newClass([]rune{r - 'a' + 'A', r - 'a' + 'A', r, r})
		case 'A' <= r && r <= 'Z':
			return newClass([]rune{r, r, r - 'A' + 'a', r - 'A' + 'a'})
		}
	}
	return newClass([]rune{r, r})
}

// compile emits re followed by next and returns its first node.
func (c *compiler) compile(re *syntax.Regexp, next int) int {
	switch re.Op {
	case syntax.OpNoMatch:
		return 0
	case syntax.OpEmptyMatch:
		return next
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			for i := len(re.Rune) - 1; i >= 0; i-- {
				next = c.emit(node{op: opClass, cls: c.addClass(literalClass(re.Rune[i], true)), next: next})
			}
			return next
		}
		return c.emit(node{op: opLit, str: string(re.Rune), next: next})
	case syntax.OpCharClass, syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return c.emit(node{op: opClass, cls: c.singleRune(re), next: next})
	case syntax.OpBeginText:
		return c.emit(node{op: opBeginText, next: next})
	case syntax.OpEndText:
		if re.Flags&syntax.WasDollar != 0 {
			return c.emit(node{op: opDollar, next: next})
		}
		return c.emit(node{op: opEndText, next: next})
	case syntax.OpBeginLine:
		return c.emit(node{op: opBeginLine, next: next})
	case syntax.OpEndLine:
		return c.emit(node{op: opEndLine, next: next})
	case syntax.OpWordBoundary:
		return c.emit(node{op: opWordEdge, next: next})
	case syntax.OpNoWordBoundary:
		return c.emit(node{op: opNoWordEdge, next: next})
	case syntax.OpCapture:
		end := c.emit(node{op: opSave, slot: 2*re.Cap + 1, next: next})
		body := c.compile(re.Sub[0], end)
		return c.emit(node{op: opSave, slot: 2 * re.Cap, next: body})
	case syntax.OpConcat:
		for i := len(re.Sub) - 1; i >= 0; i-- {
			next = c.compile(re.Sub[i], next)
		}
		return next
	case syntax.OpAlternate:
		alts := make([]int, len(re.Sub))
		for i, s := range re.Sub {
			alts[i] = c.compile(s, next)
		}
		return c.emit(node{op: opAlt, alts: alts})
	case syntax.OpStar:
		return c.repeat(re.Sub[0], 0, -1, re.Flags&syntax.NonGreedy == 0, next)
	case syntax.OpPlus:
		return c.repeat(re.Sub[0], 1, -1, re.Flags&syntax.NonGreedy == 0, next)
	case syntax.OpQuest:
		return c.repeat(re.Sub[0], 0, 1, re.Flags&syntax.NonGreedy == 0, next)
	case syntax.OpRepeat:
		return c.repeat(re.Sub[0], re.Min, re.Max, re.Flags&syntax.NonGreedy == 0, next)
	}
	return 0
}

// repeat emits sub repeated min to max times (max < 0: unbounded).
func (c *compiler) repeat(sub *syntax.Regexp, lo, hi int, greedy bool, next int) int {
	if cls := c.singleRune(sub); cls >= 0 {
		return c.emit(node{op: opRepeat, cls: cls, min: lo, max: hi, greedy: greedy, next: next})
	}
	// The optional tail first: unbounded is a loop, bounded is nested
	// alternatives (x(x(x)?)?)?.
	if hi < 0 {
		loop := c.emit(node{op: opLoop, greedy: greedy, next: next, slot: c.p.nloop})
		c.p.nloop++
		c.p.nodes[loop].body = c.compile(sub, loop)
		next = loop
	} else {
		for range hi - lo {
			body := c.compile(sub, next)
			alts := []int{body, next}
			if !greedy {
				alts = []int{next, body}
			}
			next = c.emit(node{op: opAlt, alts: alts})
		}
	}
	for range lo {
		next = c.compile(sub, next)
	}
	return next
}

// analyze finds what lets a search skip positions: an anchor at the
// start, a literal prefix, the possible first bytes.
func (p *program) analyze() {
	i := p.nodes[p.start].next // past the save of group 0
	for p.nodes[i].op == opSave {
		i = p.nodes[i].next
	}
	if set, ok := p.startBytes(i, 0); ok {
		p.later, p.laterKnown = set, true
	}
	n := &p.nodes[i]
	switch n.op {
	case opBeginText:
		p.anchored = true
	case opLit:
		p.prefix = n.str
		p.setFirst(class{ascii: asciiBit(n.str[0])}, n.str[0] >= utf8.RuneSelf)
	case opClass:
		p.setFirst(p.classes[n.cls], len(p.classes[n.cls].ranges) > 0)
	case opRepeat:
		if n.min > 0 {
			p.setFirst(p.classes[n.cls], len(p.classes[n.cls].ranges) > 0)
		}
	}
}

// startBytes is the set of bytes a match from node i can start with at a
// position past 0; ok is false when that is not known (a node that may
// match without consuming a byte, other than \A or ^, which fail there).
func (p *program) startBytes(i, depth int) (set [4]uint64, ok bool) {
	if depth > 16 {
		return set, false
	}
	n := &p.nodes[i]
	switch n.op {
	case opFail, opBeginText:
		return set, true // no match starts here past position 0
	case opSave:
		return p.startBytes(n.next, depth+1)
	case opLit:
		set = classBytes(class{ascii: asciiBit(n.str[0])}, n.str[0] >= utf8.RuneSelf)
		return set, true
	case opClass:
		return classBytes(p.classes[n.cls], len(p.classes[n.cls].ranges) > 0), true
	case opRepeat:
		if n.min > 0 {
			return classBytes(p.classes[n.cls], len(p.classes[n.cls].ranges) > 0), true
		}
	case opAlt:
		for _, a := range n.alts {
			sub, ok := p.startBytes(a, depth+1)
			if !ok {
				return set, false
			}
			for k := range set {
				set[k] |= sub[k]
			}
		}
		return set, true
	}
	return set, false
}

// classBytes is the bytes a rune of c starts with: its ASCII ones, and
// every byte of a multi-byte rune when c has any.
func classBytes(c class, nonASCII bool) [4]uint64 {
	set := [4]uint64{c.ascii[0], c.ascii[1]}
	if nonASCII {
		set[2], set[3] = ^uint64(0), ^uint64(0)
	}
	return set
}

func asciiBit(b byte) [2]uint64 {
	var a [2]uint64
	if b < utf8.RuneSelf {
		a[b>>6] = 1 << (b & 63)
	}
	return a
}

func (p *program) setFirst(c class, nonASCII bool) {
	p.firstKnown = true
	p.first[0], p.first[1] = c.ascii[0], c.ascii[1]
	if nonASCII {
		p.first[2], p.first[3] = ^uint64(0), ^uint64(0)
	}
}
