package jsontext

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// Hex4 reads the four hex digits of a \u escape.
func Hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// Integral rewrites a number with a fraction or an exponent as plain
// integer digits, if its value is an integer.
func Integral(dst, num []byte) ([]byte, string) {
	if num[0] == '-' {
		dst = append(dst, '-')
		num = num[1:]
	}
	mant, exp := num, int64(0)
	if k := bytes.IndexAny(num, "eE"); k >= 0 {
		mant = num[:k]
		i, neg := k+1, false
		if num[i] == '+' || num[i] == '-' {
			neg = num[i] == '-'
			i++
		}
		for ; i < len(num); i++ { // checked digits; saturates at 2^20
			exp = min(exp*10+int64(num[i]-'0'), 1<<20)
		}
		if neg {
			exp = -exp
		}
	}
	intPart, frac := mant, []byte(nil)
	if k := bytes.IndexByte(mant, '.'); k >= 0 {
		intPart, frac = mant[:k], mant[k+1:]
	}
	digit := func(j int64) byte { // j-th digit of intPart+frac; 0 beyond
		switch {
		case j < int64(len(intPart)):
			return intPart[j]
		case j < int64(len(intPart)+len(frac)):
			return frac[j-int64(len(intPart))]
		}
		return '0'
	}
	total := int64(len(intPart) + len(frac))
	point := int64(len(intPart)) + exp
	nonzero := false
	for j := range total {
		if digit(j) != '0' {
			nonzero = true
			if j >= point {
				return nil, "not an integer"
			}
		}
	}
	if !nonzero {
		return append(dst[:0], '0'), ""
	}
	if point > 40 {
		return nil, "value out of range"
	}
	for j := range point {
		dst = append(dst, digit(j))
	}
	return dst, ""
}

// Unescape appends the text of a checked JSON string body. A lone
// UTF-16 surrogate becomes U+FFFD, as in encoding/json.
func Unescape(dst, s []byte) []byte {
	for len(s) > 0 {
		k := bytes.IndexByte(s, '\\')
		if k < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:k]...)
		s = s[k:]
		c := s[1]
		s = s[2:]
		switch c {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, _ := Hex4(s)
			s = s[4:]
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if len(s) >= 6 && s[0] == '\\' && s[1] == 'u' {
					r2, _ = Hex4(s[2:])
				}
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					r = dec
					s = s[6:]
				} else {
					r = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\', '/'
			dst = append(dst, c)
		}
	}
	return dst
}

// Compact appends checked JSON text without the blanks between tokens.
func Compact(dst, s []byte) []byte {
	inStr := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inStr {
			dst = append(dst, c)
			switch c {
			case '\\':
				i++
				dst = append(dst, s[i])
			case '"':
				inStr = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '"':
			inStr = true
		}
		dst = append(dst, c)
	}
	return dst
}
