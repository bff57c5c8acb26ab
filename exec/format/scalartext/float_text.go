package scalartext

import (
	"bytes"
	"math"
	"strconv"
)

// AppendFloatValue formats a FLOAT (bitSize 32) or DOUBLE (64) as Flink
// does everywhere a value becomes text (CAST to STRING, print, CSV, JSON):
// Java's Float.toString / Double.toString. The digits are the shortest that
// read back as the same value; from 10^-3 up to but not including 10^7 they
// are written plainly with at least one fraction digit (1.0, 0.001,
// 1234567.0), otherwise as d.dddE±n (1.0E7, 1.0E-4, 4.9E-324). NaN,
// Infinity and -Infinity by name; negative zero is -0.0.
func AppendFloatValue(dst []byte, v float64, bitSize int) []byte {
	switch {
	case math.IsNaN(v):
		return append(dst, "NaN"...)
	case math.IsInf(v, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(v, -1):
		return append(dst, "-Infinity"...)
	case v == 0:
		if math.Signbit(v) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	if v < 0 {
		dst = append(dst, '-')
		v = -v
	}
	var scratch [32]byte
	digits, exp := shortestDigits(scratch[:0], v, bitSize)
	if exp >= -3 && exp < 7 {
		return appendPlainDigits(dst, digits, exp)
	}
	dst = append(dst, digits[0], '.')
	if len(digits) > 1 {
		dst = append(dst, digits[1:]...)
	} else {
		dst = append(dst, '0')
	}
	dst = append(dst, 'E')
	return strconv.AppendInt(dst, int64(exp), 10)
}

// shortestDigits returns the decimal digits (no trailing zeros) and the
// decimal exponent of the first digit of Java's choice for v > 0: the
// shortest digits that round-trip. When one digit suffices Java still
// considers two and keeps the closer (Double.MIN_VALUE is 4.9E-324, not
// 5.0E-324), which only differs for values with under two digits of
// precision (the smallest subnormals). The digits are written into buf.
func shortestDigits(buf []byte, v float64, bitSize int) (digits []byte, exp int) {
	s := strconv.AppendFloat(buf, v, 'e', -1, bitSize)
	digits, exp = SplitExponentForm(s)
	if len(digits) == 1 {
		two := strconv.AppendFloat(s[len(s):], v, 'e', 1, bitSize) // d.de±xx
		if two[2] != '0' && roundTrips(two, v, bitSize) {
			return SplitExponentForm(two)
		}
	}
	return digits, exp
}

// SplitExponentForm takes strconv's d[.ddd]e±xx (without a sign) apart,
// compacting the digits in place and dropping trailing zeros. Java's
// float text and ROUND of a DOUBLE read the shortest digits through it.
func SplitExponentForm(s []byte) (digits []byte, exp int) {
	e := bytes.IndexByte(s, 'e')
	exp, sign := 0, 1
	for _, c := range s[e+1:] {
		switch {
		case c == '-':
			sign = -1
		case c >= '0' && c <= '9':
			exp = exp*10 + int(c-'0')
		}
	}
	digits = s[:1]
	if e > 1 {
		digits = append(digits, s[2:e]...) // shifts left over the '.'
	}
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	return digits, exp * sign
}

// roundTrips tells whether text reads back as v. Only subnormals near the
// smallest value get here, so the parse (which allocates) is off the
// common path.
func roundTrips(text []byte, v float64, bitSize int) bool {
	back, err := strconv.ParseFloat(string(text), bitSize)
	return err == nil && back == v
}

// appendPlainDigits writes digits × 10^(exp-len+1) without an exponent,
// with at least one digit on each side of the point.
func appendPlainDigits(dst, digits []byte, exp int) []byte {
	if exp < 0 {
		dst = append(dst, '0', '.')
		for range -exp - 1 {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	whole := exp + 1
	if whole >= len(digits) {
		dst = append(dst, digits...)
		for range whole - len(digits) {
			dst = append(dst, '0')
		}
		return append(dst, '.', '0')
	}
	dst = append(dst, digits[:whole]...)
	dst = append(dst, '.')
	return append(dst, digits[whole:]...)
}
