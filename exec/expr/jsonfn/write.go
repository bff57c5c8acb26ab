package jsonfn

import (
	"bytes"
	"math"
	"slices"
	"strconv"
)

// Values are written as Flink writes them, through Jackson with
// ORDER_MAP_ENTRIES_BY_KEYS and USE_BIG_DECIMAL_FOR_FLOATS: compact, an
// object's keys sorted (the last of duplicate keys kept), strings with
// Jackson's escapes, integers as Java prints them, other numbers as
// BigDecimal.toString prints them (1e2 is 1E+2).

// writer re-writes values; its buffers are reused from row to row.
type writer struct {
	members []member
	keys    []byte
}

type member struct {
	key span // decoded key in writer.keys
	v   int  // the value's offset in the document
}

// value appends the value at doc[i] of a valid document.
func (w *writer) value(dst []byte, doc string, i int) []byte {
	switch doc[i] {
	case '{':
		base, keyBase := len(w.members), len(w.keys)
		forEach(doc, i, func(k span, v int) {
			start := len(w.keys)
			w.keys = appendUnescaped(w.keys, doc[k.start+1:k.end-1])
			w.members = append(w.members, member{key: span{start, len(w.keys)}, v: v})
		})
		ms := w.members[base:]
		slices.SortStableFunc(ms, func(a, b member) int {
			return bytes.Compare(w.keys[a.key.start:a.key.end], w.keys[b.key.start:b.key.end])
		})
		dst = append(dst, '{')
		first := true
		for j := base; j < len(w.members) && j-base < len(ms); j++ {
			m := w.members[j]
			if j+1 < base+len(ms) && bytes.Equal(w.keys[m.key.start:m.key.end], w.keys[w.members[j+1].key.start:w.members[j+1].key.end]) {
				continue // a later duplicate wins
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = appendQuoted(dst, w.keys[m.key.start:m.key.end])
			dst = append(dst, ':')
			dst = w.value(dst, doc, m.v)
		}
		w.members, w.keys = w.members[:base], w.keys[:keyBase]
		return append(dst, '}')
	case '[':
		dst = append(dst, '[')
		first := true
		forEach(doc, i, func(_ span, v int) {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = w.value(dst, doc, v)
		})
		return append(dst, ']')
	case '"':
		end := skipString(doc, i)
		start := len(w.keys)
		w.keys = appendUnescaped(w.keys, doc[i+1:end-1])
		dst = appendQuoted(dst, w.keys[start:])
		w.keys = w.keys[:start]
		return dst
	case 't', 'f', 'n':
		return append(dst, doc[i:skipValue(doc, i)]...)
	}
	return appendNumber(dst, doc[i:skipValue(doc, i)])
}

const hexDigits = "0123456789ABCDEF"

// appendQuoted appends s as a JSON string with Jackson's escapes.
func appendQuoted[T string | []byte](dst []byte, s T) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c >= 0x20:
			dst = append(dst, c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\b':
			dst = append(dst, '\\', 'b')
		case c == '\f':
			dst = append(dst, '\\', 'f')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		}
	}
	return append(dst, '"')
}

// appendNumber appends a JSON number as Java prints what Jackson reads it
// into: an integer as itself (-0 is 0), any other as a BigDecimal.
func appendNumber(dst []byte, tok string) []byte {
	neg := tok[0] == '-'
	if neg {
		tok = tok[1:]
	}
	intPart, frac, exp := tok, "", 0
	isInt := true
	if k := indexAny(tok, "eE"); k >= 0 {
		isInt = false
		e, _ := strconv.Atoi(tok[k+1:])
		exp = e
		intPart = tok[:k]
	}
	if k := indexByte(intPart, '.'); k >= 0 {
		isInt = false
		frac = intPart[k+1:]
		intPart = intPart[:k]
	}
	if isInt {
		if neg && intPart != "0" {
			dst = append(dst, '-')
		}
		return append(dst, intPart...)
	}
	// BigDecimal: unscaled digits and a scale.
	digits := make([]byte, 0, 32) // stays on the stack for short numbers
	digits = append(digits, intPart...)
	digits = append(digits, frac...)
	for len(digits) > 1 && digits[0] == '0' {
		digits = digits[1:]
	}
	scale := len(frac) - exp
	adjusted := -scale + len(digits) - 1
	if neg && !(len(digits) == 1 && digits[0] == '0') {
		dst = append(dst, '-')
	}
	switch {
	case scale == 0:
		return append(dst, digits...)
	case scale > 0 && adjusted >= -6:
		if len(digits) > scale {
			dst = append(dst, digits[:len(digits)-scale]...)
			dst = append(dst, '.')
			return append(dst, digits[len(digits)-scale:]...)
		}
		dst = append(dst, '0', '.')
		for k := len(digits); k < scale; k++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[0])
	if len(digits) > 1 {
		dst = append(dst, '.')
		dst = append(dst, digits[1:]...)
	}
	dst = append(dst, 'E')
	if adjusted >= 0 {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, int64(adjusted), 10)
}

func indexAny(s, chars string) int {
	for i := 0; i < len(s); i++ {
		for j := 0; j < len(chars); j++ {
			if s[i] == chars[j] {
				return i
			}
		}
	}
	return -1
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// AppendJavaDouble appends f as Java's Double.toString (bits 64) or
// Float.toString (bits 32) prints it: 1.0, 1.0E20, 1.0E-5; NaN and the
// infinities as Jackson quotes them.
func AppendJavaDouble(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(dst, `"-Infinity"`...)
	case f == 0:
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	if a := math.Abs(f); a >= 1e-3 && a < 1e7 {
		start := len(dst)
		dst = strconv.AppendFloat(dst, f, 'f', -1, bits)
		if indexByte(string(dst[start:]), '.') < 0 {
			dst = append(dst, '.', '0')
		}
		return dst
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, bits) // d.ddde±xx
	k := bytes.IndexByte(e, 'e')
	mant, exp := e[:k], e[k+1:]
	dst = append(dst, mant...)
	if bytes.IndexByte(mant, '.') < 0 {
		dst = append(dst, '.', '0')
	}
	dst = append(dst, 'E')
	if exp[0] == '-' {
		dst = append(dst, '-')
	}
	exp = exp[1:]
	for len(exp) > 1 && exp[0] == '0' {
		exp = exp[1:]
	}
	return append(dst, exp...)
}
