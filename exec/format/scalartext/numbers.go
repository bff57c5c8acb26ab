package scalartext

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

func ParseInt(b []byte) (int64, string) {
	i, neg := 0, false
	if b[0] == '+' || b[0] == '-' {
		neg, i = b[0] == '-', 1
	}
	if i == len(b) {
		return 0, "invalid integer"
	}
	var u uint64
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			return 0, "invalid integer"
		}
		if u > (math.MaxUint64-9)/10 {
			return 0, "value out of range"
		}
		u = u*10 + uint64(c)
	}
	if neg {
		if u > 1<<63 {
			return 0, "value out of range"
		}
		return -int64(u), ""
	}
	if u > math.MaxInt64 {
		return 0, "value out of range"
	}
	return int64(u), ""
}

// ParseDecimal parses [+-]digits[.digits][e[+-]digits] exactly and rounds
// half up to scale, like Java's BigDecimal.setScale(scale, HALF_UP).
func ParseDecimal(b []byte, prec, scale int32, scratch *[]byte) (decimal128.Num, string) {
	const bad = "invalid decimal"
	i, neg := 0, false
	if b[0] == '+' || b[0] == '-' {
		neg, i = b[0] == '-', 1
	}
	digits := (*scratch)[:0]
	point, seenPoint, any := 0, false, false
mantissa:
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			any = true
			if len(digits) == 0 && c == '0' {
				if seenPoint {
					point--
				}
				continue // leading zeros carry no digits
			}
			digits = append(digits, c)
			if !seenPoint {
				point++
			}
		case c == '.' && !seenPoint:
			seenPoint = true
		default:
			break mantissa
		}
	}
	*scratch = digits
	if !any {
		return decimal128.Num{}, bad
	}
	if i < len(b) {
		if b[i] != 'e' && b[i] != 'E' || i+1 == len(b) {
			return decimal128.Num{}, bad
		}
		exp, msg := ParseInt(b[i+1:])
		if msg != "" || exp > 1000 || exp < -1000 {
			return decimal128.Num{}, bad
		}
		point += int(exp)
	}
	// keep = number of digits of the unscaled result before rounding.
	keep := point + int(scale)
	if keep > 38 {
		return decimal128.Num{}, fmt.Sprintf("value out of range for precision %d", prec)
	}
	var n decimal128.Num
	roundUp := false
	if keep >= 0 {
		if keep < len(digits) {
			roundUp = digits[keep] >= '5'
			digits = digits[:keep]
		}
		for len(digits) > 0 {
			k := min(len(digits), 18)
			var chunk uint64
			for _, c := range digits[:k] {
				chunk = chunk*10 + uint64(c-'0')
			}
			n = n.Mul(decimal128.GetScaleMultiplier(k)).Add(decimal128.FromU64(chunk))
			digits = digits[k:]
		}
		if pad := keep - len(*scratch); pad > 0 {
			n = n.Mul(decimal128.GetScaleMultiplier(pad))
		}
	}
	if roundUp {
		n = n.Add(decimal128.FromU64(1))
	}
	if !n.FitsInPrecision(prec) {
		return decimal128.Num{}, fmt.Sprintf("value out of range for precision %d", prec)
	}
	if neg {
		n = n.Negate()
	}
	return n, ""
}

// Digits parses exactly len(b) ASCII digits.
func Digits(b []byte) (int, bool) {
	v := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}
