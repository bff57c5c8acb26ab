package regex

import (
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A field scan runs a pattern that picks a key's value out of a list of
// fields, Nexmark q21's (&|^)channel_id=([^&]*): an alternation of a
// separator literal and the start of the text (in either order), a key
// literal, then a greedy repetition of every rune but a few ASCII bytes,
// each part maybe captured. A match starts at the text's start, or at the
// first separator+key after it, found by a byte search; the value runs to
// the first stop byte. Without choice points past the first position, the
// backtracker's search is exactly that, one attempt per '&' plus two at
// position 0 (q21's REGEXP_EXTRACT was 45% of its time). The separator
// starts with an ASCII byte, which never sits inside a rune as UTF-8 is
// decoded (continuation bytes are 0x80 to 0xBF), so every offset the byte
// search finds is one the backtracker tries.
type fieldScan struct {
	sep      string // the separator literal
	sepFirst bool   // the separator is the alternation's first branch
	key      string
	needle   string // sep + key
	rare     int    // the byte of needle that indexPrefix looks for
	stop     [2]uint64
	stopByte int // the only stop byte, or -1
	min      int // 0 for *, 1 for +
	// Capture group numbers of the alternation and the value, 0 when the
	// part is not captured.
	sepGroup, valueGroup int
}

// scanFields is re's field scan, nil if re has another shape.
func scanFields(re *syntax.Regexp) *fieldScan {
	if re.Op != syntax.OpConcat || len(re.Sub) < 2 || len(re.Sub) > 3 {
		return nil
	}
	f := &fieldScan{}
	alt, sepGroup := uncapture(re.Sub[0])
	f.sepGroup = sepGroup
	if alt.Op != syntax.OpAlternate || len(alt.Sub) != 2 {
		return nil
	}
	a, b := alt.Sub[0], alt.Sub[1]
	switch {
	case isPlainLiteral(a) && b.Op == syntax.OpBeginText:
		f.sep, f.sepFirst = string(a.Rune), true
	case a.Op == syntax.OpBeginText && isPlainLiteral(b):
		f.sep = string(b.Rune)
	default:
		return nil
	}
	if f.sep == "" || f.sep[0] >= utf8.RuneSelf {
		return nil
	}
	if len(re.Sub) == 3 {
		if !isPlainLiteral(re.Sub[1]) {
			return nil
		}
		f.key = string(re.Sub[1].Rune)
	}
	value, group := uncapture(re.Sub[len(re.Sub)-1])
	f.valueGroup = group
	switch {
	case value.Op == syntax.OpStar:
	case value.Op == syntax.OpPlus:
		f.min = 1
	default:
		return nil
	}
	if value.Flags&syntax.NonGreedy != 0 || len(value.Sub) != 1 || value.Sub[0].Op != syntax.OpCharClass {
		return nil
	}
	stops, ok := asciiComplement(value.Sub[0].Rune)
	if !ok || len(stops) == 0 {
		return nil
	}
	f.stopByte = -1
	if len(stops) == 1 {
		f.stopByte = int(stops[0])
	}
	for _, c := range stops {
		f.stop[c>>6] |= 1 << (c & 63)
	}
	if re.MaxCap() != countCaptures(re) {
		return nil
	}
	f.needle = f.sep + f.key
	f.rare = rareByte(f.needle)
	return f
}

// uncapture is r without its capture, and the group's number (0 if r is
// not a capture).
func uncapture(r *syntax.Regexp) (*syntax.Regexp, int) {
	if r.Op == syntax.OpCapture {
		return r.Sub[0], r.Cap
	}
	return r, 0
}

func countCaptures(r *syntax.Regexp) int {
	n := 0
	if r.Op == syntax.OpCapture {
		n++
	}
	for _, s := range r.Sub {
		n += countCaptures(s)
	}
	return n
}

// isPlainLiteral is a literal compared byte for byte (not case-folded).
func isPlainLiteral(r *syntax.Regexp) bool {
	return r.Op == syntax.OpLiteral && r.Flags&syntax.FoldCase == 0
}

// asciiComplement reads a class that holds every rune but some ASCII
// ones, and returns those; ok is false for another class.
func asciiComplement(ranges []rune) (stops []byte, ok bool) {
	next := rune(0) // the first rune not yet covered
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo < next || (lo > next && lo > utf8.RuneSelf) {
			return nil, false // unsorted, or a non-ASCII rune left out
		}
		for c := next; c < lo; c++ {
			stops = append(stops, byte(c))
		}
		next = hi + 1
	}
	return stops, next == unicode.MaxRune+1
}

// find searches s from byte from; caps gets the match's offsets (slot 2g
// and 2g+1 of group g).
func (f *fieldScan) find(s string, from int, caps []int) bool {
	if from == 0 {
		// The text's start: both branches, in the alternation's order.
		if f.sepFirst && f.tryAt(s, 0, len(f.sep), caps) {
			return true
		}
		if strings.HasPrefix(s, f.key) && f.match(s, 0, 0, caps) {
			return true
		}
		if !f.sepFirst && f.tryAt(s, 0, len(f.sep), caps) {
			return true
		}
		from = 1
	}
	for from < len(s) {
		at := indexPrefix(s, from, f.needle, f.rare)
		if at < 0 {
			return false
		}
		if f.match(s, at, len(f.sep), caps) {
			return true
		}
		from = at + 1
	}
	return false
}

// tryAt tries the separator branch at at.
func (f *fieldScan) tryAt(s string, at, sepLen int, caps []int) bool {
	return strings.HasPrefix(s[at:], f.needle) && f.match(s, at, sepLen, caps)
}

// match completes a match at at whose separator (sepLen bytes, 0 for the
// text's start) and key are there: the value runs to the first stop byte.
func (f *fieldScan) match(s string, at, sepLen int, caps []int) bool {
	v := at + sepLen + len(f.key)
	end := len(s)
	if f.stopByte >= 0 {
		if k := strings.IndexByte(s[v:], byte(f.stopByte)); k >= 0 {
			end = v + k
		}
	} else {
		for i := v; i < len(s); i++ {
			if c := s[i]; c < utf8.RuneSelf && f.stop[c>>6]&(1<<(c&63)) != 0 {
				end = i
				break
			}
		}
	}
	if end-v < f.min {
		return false
	}
	caps[0], caps[1] = at, end
	if g := f.sepGroup; g > 0 {
		caps[2*g], caps[2*g+1] = at, at+sepLen
	}
	if g := f.valueGroup; g > 0 {
		caps[2*g], caps[2*g+1] = v, end
	}
	return true
}
