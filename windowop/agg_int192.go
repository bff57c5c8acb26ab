package windowop

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// int192 is a two's-complement 192-bit integer: the running sum of
// DECIMAL values. Each value is below 10^38 < 2^127, so 2^63 of them fit
// without overflow and the sum is exact whatever the order of additions
// and merges; whether it fits DECIMAL(38, s) is decided only on output.
type int192 struct {
	lo, mid uint64
	hi      int64
}

// addNum adds a decimal128 value, sign-extended.
func (x *int192) addNum(n decimal128.Num) {
	var c uint64
	x.lo, c = bits.Add64(x.lo, n.LowBits(), 0)
	h := n.HighBits()
	x.mid, c = bits.Add64(x.mid, uint64(h), c)
	ext := uint64(h >> 63) // 0 or all ones
	hi, _ := bits.Add64(uint64(x.hi), ext, c)
	x.hi = int64(hi)
}

func (x *int192) add(y int192) {
	var c uint64
	x.lo, c = bits.Add64(x.lo, y.lo, 0)
	x.mid, c = bits.Add64(x.mid, y.mid, c)
	hi, _ := bits.Add64(uint64(x.hi), uint64(y.hi), c)
	x.hi = int64(hi)
}

func (x int192) neg() int192 {
	lo, b := bits.Sub64(0, x.lo, 0)
	mid, b := bits.Sub64(0, x.mid, b)
	hi, _ := bits.Sub64(0, uint64(x.hi), b)
	return int192{lo: lo, mid: mid, hi: int64(hi)}
}

// num narrows to decimal128 if the value has at most prec digits.
func (x int192) num(prec int32) (decimal128.Num, bool) {
	// fits 128 bits when hi is the sign extension of mid
	if x.hi != int64(x.mid)>>63 {
		return decimal128.Num{}, false
	}
	n := decimal128.New(int64(x.mid), x.lo)
	return n, n.FitsInPrecision(prec)
}

// mulDivRound returns x·m/d rounded half away from zero (Java's HALF_UP),
// as AVG over DECIMAL rescales and divides; ok is false on overflow.
func (x int192) mulDivRound(m, d uint64) (int192, bool) {
	neg := x.hi < 0
	if neg {
		x = x.neg()
	}
	// magnitude · m, in four limbs
	h0, l0 := bits.Mul64(x.lo, m)
	h1, l1 := bits.Mul64(x.mid, m)
	h2, l2 := bits.Mul64(uint64(x.hi), m)
	w1, c := bits.Add64(l1, h0, 0)
	w2, c := bits.Add64(l2, h1, c)
	w3 := h2 + c
	if w3 != 0 || w2>>63 != 0 {
		return int192{}, false
	}
	// long division by d, most significant limb first
	q2, r := bits.Div64(0, w2, d)
	q1, r := bits.Div64(r, w1, d)
	q0, r := bits.Div64(r, l0, d)
	q := int192{lo: q0, mid: q1, hi: int64(q2)}
	if r >= d-r { // 2r ≥ d without overflow
		q.add(int192{lo: 1})
	}
	if neg {
		q = q.neg()
	}
	return q, true
}
