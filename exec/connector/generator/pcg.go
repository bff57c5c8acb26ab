package generator

import "math/bits"

// PCG is math/rand/v2's PCG with the draws of its Rand (Uint64, Float64,
// Uint64N/Int64N/IntN as on 64-bit platforms): the same numbers from the
// same seed, as a value whose methods inline. Through rand.Rand every draw
// was an interface call that kept the state in memory; this hand copy made
// the Nexmark bid generator about N times faster.
type PCG struct{ hi, lo uint64 }

// NewPCG is rand.NewPCG(seed1, seed2).
func NewPCG(seed1, seed2 uint64) PCG { return PCG{hi: seed1, lo: seed2} }

// State is the generator's whole state, for a checkpoint: NewPCG(p.State())
// draws what p draws.
func (p PCG) State() (hi, lo uint64) { return p.hi, p.lo }

// The constants of rand.PCG: its 128-bit multiplier and increment, and
// the multiplier of its DXSM output.
const (
	pcgMulHi    = 2549297995355413924
	pcgMulLo    = 4865540595714422341
	pcgIncHi    = 6364136223846793005
	pcgIncLo    = 1442695040888963407
	pcgCheapMul = 0xda942042e4dd58b5
)

// Uint64 is (*rand.PCG).Uint64: a 128-bit LCG step and the DXSM output.
func (p *PCG) Uint64() uint64 {
	hi, lo := bits.Mul64(p.lo, pcgMulLo)
	hi += p.hi*pcgMulLo + p.lo*pcgMulHi
	lo, c := bits.Add64(lo, pcgIncLo, 0)
	hi, _ = bits.Add64(hi, pcgIncHi, c)
	p.lo, p.hi = lo, hi
	return dxsm(hi, lo)
}

// dxsm is the draw of state (hi, lo): PCG's DXSM output.
func dxsm(hi, lo uint64) uint64 {
	hi ^= hi >> 32
	hi *= pcgCheapMul
	hi ^= hi >> 48
	return hi * (lo | 1)
}

// Step is Uint64 by value: the state after p, and the draw. A loop that
// keeps its generator in a local and steps it so keeps the state in
// registers; through Uint64's pointer it goes to memory and back on every
// draw (BenchmarkDatagen's DOUBLE column: 10% slower).
func (p PCG) Step() (PCG, uint64) {
	hi, lo := bits.Mul64(p.lo, pcgMulLo)
	hi += p.hi*pcgMulLo + p.lo*pcgMulHi
	lo, c := bits.Add64(lo, pcgIncLo, 0)
	hi, _ = bits.Add64(hi, pcgIncHi, c)
	return PCG{hi: hi, lo: lo}, dxsm(hi, lo)
}

// Float64 is (*rand.Rand).Float64, in [0, 1).
func (p *PCG) Float64() float64 { return Float64Of(p.Uint64()) }

// Float64Of is the Float64 of the draw u: a generator may draw now and
// make the float later.
func Float64Of(u uint64) float64 { return float64(u<<11>>11) / (1 << 53) }

// Uint64N is (*rand.Rand).Uint64N on a 64-bit platform: uniform in [0, n)
// for n > 0, by Lemire's multiply with rejection (a power of two masks).
func (p *PCG) Uint64N(n uint64) uint64 {
	if n&(n-1) == 0 {
		return p.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(p.Uint64(), n)
	if lo < n {
		*p, hi = p.Reject(hi, lo, n)
	}
	return hi
}

// StepN is Uint64N by value: the state after p, and the draw.
func (p PCG) StepN(n uint64) (PCG, uint64) {
	v := p.Uint64N(n)
	return p, v
}

// Reject is Uint64N's rare slow path (lo < n): it draws again while the
// product falls in the biased range.
func (p PCG) Reject(hi, lo, n uint64) (PCG, uint64) {
	thresh := -n % n
	for lo < thresh {
		var v uint64
		p, v = p.Step()
		hi, lo = bits.Mul64(v, n)
	}
	return p, hi
}

// IntN is (*rand.Rand).IntN for n > 0.
func (p *PCG) IntN(n int) int { return int(p.Uint64N(uint64(n))) }

// Mask is Uint64N(m+1) for m+1 a power of two, small enough to inline.
func (p *PCG) Mask(m uint64) uint64 { return p.Uint64() & m }

// Seeds walks the generators seeded (seed, id) for id, id+1, ...: their
// first step, without NewPCG(seed, id).Step()'s 128-bit multiplication.
// That step's state is mul·(seed, id) + inc, so the next id's is it plus
// mul. A generator seeded per event (Nexmark's) starts each event so.
type Seeds struct{ hi, lo uint64 }

// SeedsFrom is the walk at id.
func SeedsFrom(seed, id uint64) Seeds {
	p, _ := NewPCG(seed, id).Step()
	return Seeds(p)
}

// Step is NewPCG(seed, id).Step() for the walk's id.
func (s Seeds) Step() (PCG, uint64) { return PCG(s), dxsm(s.hi, s.lo) }

// Next is the walk at the next id, id+1 not wrapping to 0.
func (s Seeds) Next() Seeds {
	lo, c := bits.Add64(s.lo, pcgMulLo, 0)
	hi, _ := bits.Add64(s.hi, pcgMulHi, c)
	return Seeds{hi: hi, lo: lo}
}
