package generator

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPCGIsMathRands checks the hand copy of math/rand/v2's PCG and draws.
func TestPCGIsMathRands(t *testing.T) {
	if math.MaxInt == math.MaxInt32 {
		t.Skip("rand.Rand draws small bounds differently on 32-bit platforms")
	}
	p := NewPCG(7, 9)
	r := rand.New(rand.NewPCG(7, 9))
	for i := range 100_000 {
		switch i % 5 {
		case 0:
			require.Equal(t, r.Uint64(), p.Uint64())
		case 1:
			require.Equal(t, r.Float64(), p.Float64())
		case 2:
			require.Equal(t, r.IntN(26), p.IntN(26))
		case 3:
			n := uint64(i)*0x9e3779b97f4a7c15 | 1
			require.Equal(t, r.Uint64N(n), p.Uint64N(n))
		default:
			require.Equal(t, r.Int64N(1<<20), int64(p.Uint64N(1<<20)))
		}
	}
	// Uint64N's rejection: with n = 2^63 + 1 half the draws are rejected.
	for range 1000 {
		require.Equal(t, r.Uint64N(1<<63+1), p.Uint64N(1<<63+1))
	}
	var v uint64
	q := p
	q, v = q.Step()
	require.Equal(t, p.Uint64(), v)
	require.Equal(t, p, q)
	// StepN is Uint64N by value, rejections and powers of two included.
	r.Uint64() // r, as q, past the draw above
	for _, n := range []uint64{1, 2, 3, 26, 111, 1 << 20, 1<<63 + 1} {
		for range 1000 {
			q, v = q.StepN(n)
			require.Equal(t, r.Uint64N(n), v)
		}
	}
	require.Equal(t, r.Uint64(), q.Uint64())
}

// A walk of seeds draws what generators seeded anew for each id draw,
// across the carry from the low word into the high one.
func TestSeedsWalkIsNewPCGPerID(t *testing.T) {
	for _, start := range []uint64{0, 1, 1 << 40, math.MaxInt64 - 500} {
		for _, seed := range []uint64{0, 42, math.MaxUint64} {
			s := SeedsFrom(seed, start)
			for id := start; id != start+1000; id++ {
				wantP, want := NewPCG(seed, id).Step()
				gotP, got := s.Step()
				require.Equal(t, want, got, "seed %d id %d", seed, id)
				require.Equal(t, wantP, gotP, "seed %d id %d", seed, id)
				s = s.Next()
			}
		}
	}
}
