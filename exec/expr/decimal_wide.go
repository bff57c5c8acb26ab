package expr

import (
	"math/big"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// decimalWide is exact arithmetic on DECIMAL values past 128 bits (a
// product of two 38-digit numbers, a dividend scaled up for the quotient's
// digits), in big.Ints reused from row to row so a batch allocates only
// while they grow. Results go to a scratch and are copied back: big.Int
// allocates when a product or quotient aliases an operand.
type decimalWide struct {
	a, b, q, r, t big.Int
}

// pow10Big holds 10^0 … 10^159: enough for a 38-digit dividend scaled by
// up to 120 digits. Read only.
var pow10Big = func() []*big.Int {
	p := make([]*big.Int, 160)
	ten := big.NewInt(10)
	p[0] = big.NewInt(1)
	for i := 1; i < len(p); i++ {
		p[i] = new(big.Int).Mul(p[i-1], ten)
	}
	return p
}()

// set stores n in z.
func (w *decimalWide) set(z *big.Int, n decimal128.Num) *big.Int {
	neg := n.Sign() < 0
	if neg {
		n = n.Negate()
	}
	z.SetUint64(uint64(n.HighBits()))
	z.Lsh(z, 64)
	w.t.SetUint64(n.LowBits())
	z.Or(z, &w.t)
	if neg {
		z.Neg(z)
	}
	return z
}

// scaleUp multiplies z by 10^k.
func (w *decimalWide) scaleUp(z *big.Int, k int32) {
	if k > 0 {
		w.mul(z, z, pow10Big[k])
	}
}

// mul sets z to x·y.
func (w *decimalWide) mul(z, x, y *big.Int) {
	w.q.Mul(x, y)
	z.Set(&w.q)
}

// quo sets z to x/y truncated toward zero, and w.r to the remainder.
func (w *decimalWide) quo(z, x, y *big.Int) {
	w.q.QuoRem(x, y, &w.r)
	z.Set(&w.q)
}

// roundDown divides z by 10^k, rounding half away from zero (Java's
// RoundingMode.HALF_UP).
func (w *decimalWide) roundDown(z *big.Int, k int32) {
	if k <= 0 {
		return
	}
	if int(k) >= len(pow10Big) {
		z.SetInt64(0)
		return
	}
	neg := z.Sign() < 0
	w.quo(z, z, pow10Big[k])
	w.r.Abs(&w.r)
	w.r.Lsh(&w.r, 1)
	if w.r.Cmp(pow10Big[k]) >= 0 {
		if neg {
			w.t.SetInt64(-1)
		} else {
			w.t.SetInt64(1)
		}
		z.Add(z, &w.t)
	}
}

// digits is the number of decimal digits of |z| (0 for 0).
func digits(z *big.Int) int32 {
	if z.Sign() == 0 {
		return 0
	}
	d := int32(float64(z.BitLen()-1) * 0.30102999566398) // ≤ the digits − 1
	for int(d) < len(pow10Big) && z.CmpAbs(pow10Big[d]) >= 0 {
		d++
	}
	return d
}

// num narrows z to a DECIMAL of precision prec; ok is false when z has
// more digits.
func num(z *big.Int, prec int32) (decimal128.Num, bool) {
	if z.CmpAbs(pow10Big[prec]) >= 0 {
		return decimal128.Num{}, false
	}
	return decimal128.FromBigInt(z), true
}

// exactPow10 holds the powers of ten a float64 represents exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// decimalToFloat is the double nearest v·10^-scale, as Java's
// BigDecimal.doubleValue, so 0.3 is 0.3 (Arrow's ToFloat64 multiplies by
// an inexact power and gives 0.30000000000000004). An unscaled value of
// at most 2^53 with a scale of at most 22 divides exactly-rounded in one
// step; the rest goes through the decimal text.
func decimalToFloat(v decimal128.Num, scale int32) float64 {
	const exact = 1 << 53
	lo, hi := int64(v.LowBits()), v.HighBits()
	if scale >= 0 && int(scale) < len(exactPow10) &&
		((hi == 0 && lo >= 0 && lo <= exact) || (hi == -1 && lo < 0 && lo >= -exact)) {
		return float64(lo) / exactPow10[scale]
	}
	f, _ := strconv.ParseFloat(v.ToString(scale), 64)
	return f
}
