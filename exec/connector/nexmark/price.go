package nexmark

import (
	"math"

	"github.com/wsql/wsql/exec/connector/generator"
)

// nexmarkPrice draws Nexmark's log-uniform price in cents, 100 to
// 100,000,000: math.Round(math.Pow(10, u*6) * 100) for u = r.Float64(),
// the same value. math.Pow was a fifth of the bid generator's time, so
// the power comes from two small tables and a short polynomial, within
// 6e-15 of it (TestNexmarkPriceIsMathPows checks 1e-14). That rounds as
// math.Pow's value does except within a hair of a half cent, where the
// price is computed with math.Pow after all (a few draws in a million).
func nexmarkPrice(r *generator.PCG) int64 { return nexmarkPriceOf(r.Uint64()) }

// nexmarkPriceOf is the price of the draw u.
func nexmarkPriceOf(u uint64) int64 {
	if p, ok := roundPrice(nexmarkPow10(generator.Float64Of(u)*6) * 100); ok {
		return p
	}
	return nexmarkPriceSlow(u)
}

// roundPrice is q rounded to the nearest cent, unless q is too close to a
// half cent to call (ok false). q+0.5 is off by at most half an ulp, far
// less than the distance |d| to the integer fl+1, so it truncates to fl+1
// exactly when d > 0: the rounding without a branch on d, which goes
// either way at random (a mispredicted branch per price; without it
// BenchmarkNexmarkPrice went from 27 to 16 ns).
func roundPrice(q float64) (p int64, ok bool) {
	fl := int64(q) // floor: q is positive (and math.Floor is a call)
	d := q - float64(fl) - 0.5
	return int64(q + 0.5), math.Abs(d) > q*nexmarkPriceMargin
}

// nexmarkPriceSlow is the price of the draw u from math.Pow.
func nexmarkPriceSlow(u uint64) int64 {
	return int64(math.Round(math.Pow(10, generator.Float64Of(u)*6) * 100))
}

// nexmarkPriceMargin is how close to a half cent, relative to the price,
// the fast power's price is taken as too close to call: a hundred times
// the fast power's error, plus math.Pow's own.
const nexmarkPriceMargin = 1e-12

// nexmarkPow10 is 10^y for y in [0, 6] to within 6e-15 (relative):
// 10^y = 10^(a/16) * 10^(b/4096) * e^t for j = a*256 + b = floor(y*4096)
// and t = (y - j/4096) * ln 10 < 6e-4, where e^t to degree 3 leaves out
// t^4/24 < 5e-15.
func nexmarkPow10(y float64) float64 {
	j := int(y * 4096)
	// j/4096 is exact and within a factor 2 of y (j >= 1), so the
	// difference is exact too.
	t := (y - float64(j)/4096) * math.Ln10
	e := 1 + t*(1+t*(1.0/2+t*(1.0/6)))
	// Arrays indexed by masked indices need no bounds check.
	return nexmarkPow10Hi[(j>>8)&127] * nexmarkPow10Lo[j&255] * e
}

var (
	// nexmarkPow10Hi[a] is 10^(a/16), a in [0, 96] (the rest unused).
	nexmarkPow10Hi = powersOf10[[128]float64](16, 6*16+1)
	// nexmarkPow10Lo[b] is 10^(b/4096), b in [0, 255].
	nexmarkPow10Lo = powersOf10[[256]float64](4096, 256)
)

func powersOf10[T [128]float64 | [256]float64](steps, n int) *T {
	var t T
	for i := range n {
		t[i] = math.Pow(10, float64(i)/float64(steps))
	}
	return &t
}

// bidPrices makes the prices of the bids at rows, whose price[k] holds
// the price's draw. A price's arithmetic is one chain of about 30
// dependent operations: the bid generator draws a batch's prices in its
// loop and makes them here, nexmarkPriceOf inlined by hand, where
// consecutive prices overlap (a call per price serialised them; made in
// the bid loop, the chain stalled it: q7 about 4% faster in all).
func bidPrices(price []int64, rows []int32) {
	for _, k := range rows {
		u := uint64(price[k])
		p, ok := roundPrice(nexmarkPow10(generator.Float64Of(u)*6) * 100)
		if !ok {
			p = nexmarkPriceSlow(u)
		}
		price[k] = p
	}
}
