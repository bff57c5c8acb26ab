package regex

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// stepBudget bounds the backtracking work of one search. A search that
// exceeds it (a pattern with nested repetitions on a long row, where Java
// itself would take exponential time) is finished by Go's linear-time
// regexp.
const stepBudget = 1 << 20

// backtracker runs a program over one string; its slots are reused from
// row to row.
type backtracker struct {
	p       *program
	caps    []int
	loops   []int
	trail   []int // (slot, old value) pairs of captures to undo on backtracking
	steps   int
	aborted bool
}

func newBacktracker(p *program) *backtracker {
	return &backtracker{p: p, caps: make([]int, p.ncap), loops: make([]int, p.nloop)}
}

// find searches s from byte from; the match is in caps.
func (b *backtracker) find(s string, from int) bool {
	b.steps, b.aborted = 0, false
	p := b.p
	if p.anchored && from > 0 {
		return false
	}
	for pos := from; pos <= len(s); {
		if p.prefix != "" {
			k := strings.Index(s[pos:], p.prefix)
			if k < 0 {
				return false
			}
			pos += k
		} else if p.firstKnown {
			for pos < len(s) && p.first[s[pos]>>6]&(1<<(s[pos]&63)) == 0 {
				pos++
			}
			if pos == len(s) {
				return false // a match needs a first byte
			}
		} else if p.laterKnown && pos > 0 {
			// Past position 0 only a byte of later starts a match: a
			// backtracking run per byte of a URL was 90% of Nexmark q21.
			for pos < len(s) && p.later[s[pos]>>6]&(1<<(s[pos]&63)) == 0 {
				pos++
			}
			if pos == len(s) {
				return false // a match there needs a first byte
			}
		}
		for i := range b.caps {
			b.caps[i] = -1
		}
		for i := range b.loops {
			b.loops[i] = -1
		}
		b.trail = b.trail[:0]
		if b.run(s, p.start, pos) {
			return true
		}
		if b.aborted || p.anchored {
			return false
		}
		if pos == len(s) {
			break
		}
		_, size := utf8.DecodeRuneInString(s[pos:])
		pos += size
	}
	return false
}

func (b *backtracker) run(s string, i, pos int) bool {
	for {
		b.steps++
		if b.steps > stepBudget {
			b.aborted = true
			return false
		}
		n := &b.p.nodes[i]
		switch n.op {
		case opFail:
			return false
		case opMatch:
			return true
		case opLit:
			if !strings.HasPrefix(s[pos:], n.str) {
				return false
			}
			pos += len(n.str)
		case opClass:
			if pos >= len(s) {
				return false
			}
			r, size := rune(s[pos]), 1
			if r >= utf8.RuneSelf {
				r, size = utf8.DecodeRuneInString(s[pos:])
			}
			if !b.p.classes[n.cls].has(r) {
				return false
			}
			pos += size
		case opRepeat:
			return b.repeat(s, n, pos)
		case opAlt:
			last := len(n.alts) - 1
			mark := len(b.trail)
			for _, a := range n.alts[:last] {
				if b.run(s, a, pos) {
					return true
				}
				if b.aborted {
					return false
				}
				b.undo(mark)
			}
			i = n.alts[last]
			continue
		case opLoop:
			if b.loops[n.slot] == pos { // an empty iteration ends the loop
				break
			}
			old, mark := b.loops[n.slot], len(b.trail)
			if n.greedy {
				b.loops[n.slot] = pos
				if b.run(s, n.body, pos) {
					return true
				}
				b.loops[n.slot] = old
				if b.aborted {
					return false
				}
				b.undo(mark)
				break
			}
			if b.run(s, n.next, pos) {
				return true
			}
			if b.aborted {
				return false
			}
			b.undo(mark)
			b.loops[n.slot] = pos
			if b.run(s, n.body, pos) {
				return true
			}
			b.loops[n.slot] = old
			return false
		case opSave:
			// The old value goes on the trail, which the choice points
			// undo to when a branch fails.
			b.trail = append(b.trail, n.slot, b.caps[n.slot])
			b.caps[n.slot] = pos
		case opBeginText:
			if pos != 0 {
				return false
			}
		case opEndText:
			if pos != len(s) {
				return false
			}
		case opDollar:
			if !javaDollar(s, pos) {
				return false
			}
		case opBeginLine:
			if pos != 0 && !(pos < len(s) && afterLineTerminator(s, pos)) {
				return false
			}
		case opEndLine:
			if pos != len(s) && !beforeLineTerminator(s, pos) {
				return false
			}
		case opWordEdge:
			if isWordBefore(s, pos) == isWordAt(s, pos) {
				return false
			}
		case opNoWordEdge:
			if isWordBefore(s, pos) != isWordAt(s, pos) {
				return false
			}
		}
		i = n.next
	}
}

// repeat runs a repetition of one rune class, then the rest: the longest
// run first and backing off a rune at a time (greedy), or the shortest
// first and growing (lazy), as Java's CharPropertyGreedy and Curly do.
func (b *backtracker) repeat(s string, n *node, pos int) bool {
	cls := &b.p.classes[n.cls]
	count := 0
	for ; count < n.min; count++ {
		size := classRuneAt(cls, s, pos)
		if size == 0 {
			return false
		}
		pos += size
	}
	mark := len(b.trail)
	if !n.greedy {
		for {
			if b.run(s, n.next, pos) {
				return true
			}
			if b.aborted || (n.max >= 0 && count >= n.max) {
				return false
			}
			b.undo(mark)
			size := classRuneAt(cls, s, pos)
			if size == 0 {
				return false
			}
			pos += size
			count++
			b.steps++
		}
	}
	start := pos
	for n.max < 0 || count < n.max {
		// ASCII is tested here rather than in a call per rune: with the
		// kernel's constant-pattern loop, BenchmarkRegexpExtract gained
		// 17-32% rows per CPU-second (docs/performance.md).
		if pos < len(s) && s[pos] < utf8.RuneSelf {
			if c := s[pos]; cls.ascii[c>>6]&(1<<(c&63)) == 0 {
				break
			}
			pos++
			count++
			continue
		}
		size := classRuneAt(cls, s, pos)
		if size == 0 {
			break
		}
		pos += size
		count++
	}
	for {
		if b.run(s, n.next, pos) {
			return true
		}
		if b.aborted || pos == start {
			return false
		}
		b.undo(mark)
		_, size := utf8.DecodeLastRuneInString(s[start:pos])
		pos -= size
		b.steps++
	}
}

// undo restores the captures saved since the trail was mark long.
func (b *backtracker) undo(mark int) {
	for k := len(b.trail) - 2; k >= mark; k -= 2 {
		b.caps[b.trail[k]] = b.trail[k+1]
	}
	b.trail = b.trail[:mark]
}

// classRuneAt is the size of the rune of cls at s[pos], 0 if there is
// none.
func classRuneAt(cls *class, s string, pos int) int {
	if pos >= len(s) {
		return 0
	}
	if c := s[pos]; c < utf8.RuneSelf {
		if cls.ascii[c>>6]&(1<<(c&63)) != 0 {
			return 1
		}
		return 0
	}
	r, size := utf8.DecodeRuneInString(s[pos:])
	if cls.has(r) {
		return size
	}
	return 0
}

// javaDollar is Java's `$` without MULTILINE: at the end, or before a line
// terminator ("\r\n" counts as one) that ends the input.
func javaDollar(s string, pos int) bool {
	rest := s[pos:]
	switch rest {
	case "", "\r\n", "\r", "\u0085", "\u2028", "\u2029":
		return true
	case "\n":
		return pos == 0 || s[pos-1] != '\r'
	}
	return false
}

func beforeLineTerminator(s string, pos int) bool {
	r, _ := utf8.DecodeRuneInString(s[pos:])
	if r == '\n' && pos > 0 && s[pos-1] == '\r' {
		return false // not between \r and \n
	}
	return isLineTerminator(r)
}

func afterLineTerminator(s string, pos int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:pos])
	if r == '\r' && s[pos] == '\n' {
		return false
	}
	return isLineTerminator(r)
}

// isWord is Java's word character for \b: a letter, a digit or '_'.
func isWord(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || ('0' <= r && r <= '9') || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isWordAt(s string, pos int) bool {
	if pos >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[pos:])
	return isWord(r)
}

func isWordBefore(s string, pos int) bool {
	if pos == 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:pos])
	return isWord(r)
}
