package regex

import (
	"strings"
	"unicode/utf8"
)

// A straight program is one without choice points: no alternation, no
// loop, and each repetition of a rune class followed by something that
// cannot start with a rune of the class (or by the end of the pattern).
// Backing off such a repetition leaves a rune of the class where the rest
// must start, so it never helps: the repetition is possessive (as Java
// and PCRE make it by themselves) and a search attempt is one pass over
// the instructions, without a trail, undo or recursion. id=(\d+),
// [a-z]+@\w+ and ^\d{4}-\d{2} are straight; ab|cd, (ab)+ and \d+1 are not.
// It finds exactly what the backtracker finds (TestStraightAgreesWithBacktracker).

// instr is one instruction of a straight program.
type instr struct {
	op       op
	cls      *class
	ascii    *[256]bool // the ASCII runes of cls, by byte
	wide     bool       // cls has runes beyond ASCII
	str      string
	slot     int
	min, max int
	// saves are the capture slots to set to the position before the
	// instruction runs (the saves of the pattern, folded into what
	// follows them).
	saves []int
}

type straight struct {
	ins []instr
	// The program's search hints (program.analyze), kept here for the
	// search loop.
	anchored   bool
	prefix     string
	first      [4]uint64
	firstKnown bool
	// prefixed: the first instruction is the program's literal prefix,
	// which the search finds with indexPrefix.
	prefixed bool
	// tail are the capture slots saved at the end of a match.
	tail []int
	// rare is the offset in the prefix of the byte IndexByte looks for.
	rare int
	// run1 is the one instruction after the prefix when it is a
	// repetition of ASCII runes (id=(\d+)), run in the search loop.
	run1 *instr
}

// straighten is p's straight form, nil if p has a choice point.
func straighten(p *program) *straight {
	l := &straight{anchored: p.anchored, prefix: p.prefix, first: p.first, firstKnown: p.firstKnown}
	for i := p.start; ; {
		n := &p.nodes[i]
		switch n.op {
		case opMatch:
			l.fold(p.prefix)
			return l
		case opFail, opAlt, opLoop:
			return nil
		case opRepeat:
			cls := &p.classes[n.cls]
			rest := p.skipSaves(n.next)
			in := instr{op: opRepeat, cls: cls, ascii: asciiTable(cls), wide: len(cls.ranges) > 0, min: n.min, max: n.max}
			if in.max < 0 {
				in.max = int(^uint(0) >> 1)
			}
			switch {
			case !n.greedy && rest.op == opMatch:
				in.max = in.min // a lazy repetition at the end takes min runes
			case !p.cannotStartIn(rest, cls):
				return nil
			}
			l.ins = append(l.ins, in)
		case opClass:
			l.ins = append(l.ins, instr{op: opClass, cls: &p.classes[n.cls]})
		default:
			l.ins = append(l.ins, instr{op: n.op, str: n.str, slot: n.slot})
		}
		i = n.next
	}
}

// fold moves each save into the instruction after it, and finds the
// literal prefix.
func (l *straight) fold(prefix string) {
	var ins []instr
	var saves []int
	for _, in := range l.ins {
		if in.op == opSave {
			saves = append(saves, in.slot)
			continue
		}
		in.saves, saves = saves, nil
		ins = append(ins, in)
	}
	l.ins, l.tail = ins, saves
	if prefix != "" && len(ins) > 0 && ins[0].op == opLit && ins[0].str == prefix {
		l.prefixed, l.rare = true, rareByte(prefix)
		if len(ins) == 2 && ins[1].op == opRepeat && !ins[1].wide {
			l.run1 = &l.ins[1]
		}
	}
}

func (p *program) skipSaves(i int) *node {
	for p.nodes[i].op == opSave {
		i = p.nodes[i].next
	}
	return &p.nodes[i]
}

// cannotStartIn reports that what node n begins cannot match at a rune of
// cls: then backing off a repetition of cls before n never finds a match.
func (p *program) cannotStartIn(n *node, cls *class) bool {
	switch n.op {
	case opMatch:
		return true // the longest run matches at once
	case opEndText:
		return true
	case opDollar, opEndLine: // these match only before a line terminator
		for _, r := range []rune{'\n', '\r', 0x85, 0x2028, 0x2029} {
			if cls.has(r) {
				return false
			}
		}
		return true
	case opLit:
		r, _ := utf8.DecodeRuneInString(n.str)
		return !cls.has(r)
	case opClass:
		return cls.disjoint(&p.classes[n.cls])
	case opRepeat:
		return n.min > 0 && cls.disjoint(&p.classes[n.cls])
	}
	return false
}

// rareByte picks the byte of a prefix to look for: one that is not a
// letter, a digit or a space, which text holds fewer of ('=' of id=), or
// else the first.
func rareByte(prefix string) int {
	for i := 0; i < len(prefix); i++ {
		c := prefix[i]
		if c < utf8.RuneSelf && c != ' ' && !('0' <= c && c <= '9') && !('a' <= c && c <= 'z') && !('A' <= c && c <= 'Z') {
			return i
		}
	}
	return 0
}

// indexPrefix is the offset of the first prefix in s at or after pos, -1
// if none: IndexByte finds its rare byte, then the rest is compared.
func indexPrefix(s string, pos int, prefix string, rare int) int {
	c := prefix[rare]
	for from := pos + rare; from < len(s); {
		k := strings.IndexByte(s[from:], c)
		if k < 0 {
			return -1
		}
		at := from + k - rare
		if len(s)-at >= len(prefix) && equalShort(s[at:at+len(prefix)], prefix) {
			return at
		}
		from += k + 1
	}
	return -1
}

// equalShort compares two strings of the same length; a short prefix is
// compared here, which is cheaper than the runtime's call.
func equalShort(a, b string) bool {
	if len(b) > 8 {
		return a == b
	}
	for i := 0; i < len(b); i++ {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func asciiTable(c *class) *[256]bool {
	t := new([256]bool)
	for b := range utf8.RuneSelf {
		t[b] = c.has(rune(b))
	}
	return t
}

// disjoint reports that no rune is in both c and d.
func (c *class) disjoint(d *class) bool {
	if c.ascii[0]&d.ascii[0] != 0 || c.ascii[1]&d.ascii[1] != 0 {
		return false
	}
	a, b := c.ranges, d.ranges
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[1] < b[0]:
			a = a[2:]
		case b[1] < a[0]:
			b = b[2:]
		default:
			return false
		}
	}
	return true
}

// find searches s from byte from as backtracker.find does; the match is
// in caps. aborted: the search scanned more than the step budget allows
// (a long row a pattern scans again from each start), and Go's regexp
// must finish it.
func (l *straight) find(s string, from int, caps []int) (found, aborted bool) {
	// caps is not cleared: a match writes every save of the line, and
	// the slots of groups off the line stay -1 (NewMatcher).
	if l.anchored && from > 0 {
		return false, false
	}
	steps := 0
	for pos := from; pos <= len(s); {
		start, at := 0, pos
		if l.prefixed {
			k := indexPrefix(s, pos, l.prefix, l.rare)
			if k < 0 {
				return false, false
			}
			pos = k
			for _, slot := range l.ins[0].saves {
				caps[slot] = pos
			}
			start, at = 1, pos+len(l.prefix)
		} else if l.firstKnown {
			for pos < len(s) && l.first[s[pos]>>6]&(1<<(s[pos]&63)) == 0 {
				pos++
			}
			if pos == len(s) {
				return false, false
			}
			at = pos
		}
		var end int
		if in := l.run1; in != nil {
			end = at + in.max
			if in.max >= len(s)-at {
				end = len(s)
			}
			for _, slot := range in.saves {
				caps[slot] = at
			}
			p := at
			for p < end && in.ascii[s[p]] {
				p++
			}
			if p-at >= in.min {
				for _, slot := range l.tail {
					caps[slot] = p
				}
				return true, false
			}
			end = -(p - at + 1)
		} else if end = l.run(s, start, at, caps); end >= 0 {
			return true, false
		}
		if steps += -end; steps > stepBudget {
			return false, true
		}
		if l.anchored || pos == len(s) {
			return false, false
		}
		_, size := utf8.DecodeRuneInString(s[pos:])
		pos += size
	}
	return false, false
}

// run runs the instructions from ins[k] at pos: the end of the match, or
// minus the runes the failed attempt scanned (at least 1).
func (l *straight) run(s string, k, pos int, caps []int) int {
	scanned := 1
	for ; k < len(l.ins); k++ {
		in := &l.ins[k]
		for _, slot := range in.saves {
			caps[slot] = pos
		}
		switch in.op {
		case opLit:
			if !strings.HasPrefix(s[pos:], in.str) {
				return -scanned
			}
			pos += len(in.str)
		case opClass:
			size := classRuneAt(in.cls, s, pos)
			if size == 0 {
				return -scanned
			}
			pos += size
		case opRepeat:
			// ASCII first, a byte a rune, in a loop of one test.
			ascii, start, end := in.ascii, pos, len(s)
			if in.max < end-pos {
				end = pos + in.max
			}
			for pos < end && ascii[s[pos]] {
				pos++
			}
			count := pos - start
			if in.wide && count < in.max && pos < len(s) && s[pos] >= utf8.RuneSelf {
				for count < in.max && pos < len(s) {
					if c := s[pos]; ascii[c] {
						pos++
						count++
						continue
					} else if c < utf8.RuneSelf {
						break
					}
					r, size := utf8.DecodeRuneInString(s[pos:])
					if !in.cls.has(r) {
						break
					}
					pos += size
					count++
				}
			}
			scanned += count
			if count < in.min {
				return -scanned
			}
		case opBeginText:
			if pos != 0 {
				return -scanned
			}
		case opEndText:
			if pos != len(s) {
				return -scanned
			}
		case opDollar:
			if !javaDollar(s, pos) {
				return -scanned
			}
		case opBeginLine:
			if pos != 0 && !(pos < len(s) && afterLineTerminator(s, pos)) {
				return -scanned
			}
		case opEndLine:
			if pos != len(s) && !beforeLineTerminator(s, pos) {
				return -scanned
			}
		case opWordEdge:
			if isWordBefore(s, pos) == isWordAt(s, pos) {
				return -scanned
			}
		case opNoWordEdge:
			if isWordBefore(s, pos) != isWordAt(s, pos) {
				return -scanned
			}
		}
	}
	for _, slot := range l.tail {
		caps[slot] = pos
	}
	return pos
}
