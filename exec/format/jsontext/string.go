package jsontext

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plain tells the string bytes that need no attention: printable ASCII
// other than the quote and the backslash.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// String finds the end of the JSON string whose body starts at b[start],
// just after its opening quote. It returns the index of the closing quote
// and whether the body holds escapes, or -1 when the string is not valid
// JSON or not valid UTF-8 (StringProblem says where and why).
func String(b []byte, start int) (end int, esc bool) {
	// The first word test is here, not in nextSpecial: most strings are
	// short and plain, and end in their first eight bytes.
	if start+8 <= len(b) {
		if m := Special(binary.LittleEndian.Uint64(b[start:])); m != 0 {
			if i := start + bits.TrailingZeros64(m)>>3; b[i] == '"' {
				return i, false
			}
		}
	}
	return stringRest(b, start)
}

// Special flags (in their high bits) the bytes of w, eight bytes of a
// string read little-endian, that a string scan stops at: a quote, a
// backslash, a control byte or a non-ASCII byte. Only the lowest flagged
// byte is exact (a borrow only carries into the bytes above it); it is
// the one to take. Small enough to be inlined where a caller tests a
// string's first word itself.
func Special(w uint64) uint64 {
	q := w ^ (ones * '"')
	s := w ^ (ones * '\\')
	return ((q-ones)&^q | (s-ones)&^s | (w - ones*0x20) | w) & highs
}

func stringRest(b []byte, start int) (end int, esc bool) {
	i := start
	for {
		i = nextSpecial(b, i)
		if i >= len(b) {
			return -1, false
		}
		switch c := b[i]; {
		case c == '"':
			return i, esc
		case c == '\\':
			n := escapeLen(b, i)
			if n == 0 {
				return -1, false
			}
			esc = true
			i += n
		case c < 0x20:
			return -1, false
		default: // a byte of a multi-byte character
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n <= 1 {
				return -1, false
			}
			i += n
		}
	}
}

// nextSpecial is the index of the first byte from i on that is not plain,
// or len(b). It tests eight bytes at a time (SWAR): one word finds a
// quote, a backslash, a control byte or a non-ASCII byte, so plain text
// costs a few instructions per eight bytes instead of a table look-up
// per byte.
func nextSpecial(b []byte, i int) int {
	for i+8 <= len(b) {
		if m := Special(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(b) && plain[b[i]] {
		i++
	}
	return i
}

// escapeLen is the length of the valid escape at b[i] (a backslash), or 0.
func escapeLen(b []byte, i int) int {
	if i+1 >= len(b) {
		return 0
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if _, ok := Hex4(b[i+2:]); ok {
			return 6
		}
	}
	return 0
}

// StringProblem says why String refused the string whose body starts at
// b[start]: the position of the first problem and what it is.
func StringProblem(b []byte, start int) (at int, msg string) {
	for i := start; i < len(b); {
		c := b[i]
		switch {
		case c == '"':
			return -1, ""
		case c == '\\':
			if i+1 == len(b) {
				return start - 1, "unterminated string"
			}
			if escapeLen(b, i) == 0 {
				if b[i+1] == 'u' {
					return i, `invalid \u escape`
				}
				return i, "invalid escape " + strconv.Quote(string(b[i:i+2]))
			}
			i += escapeLen(b, i)
		case c < 0x20:
			return i, "control character in a string"
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n <= 1 {
				return i, "invalid UTF-8"
			}
			i += n
		default:
			i++
		}
	}
	return start - 1, "unterminated string"
}
