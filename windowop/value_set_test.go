package windowop

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestValueSetMatchesMap adds random values with random marks to a
// valueSet and to a map, through the set's growth, and checks every
// added-bits answer, the count, each's values and marks, and a clone.
// The values include 0 and all ones (no value is an empty sentinel) and
// values whose hashes are near 0 or near all ones: they share the first
// or the last home bucket at every size, so probes overflow into the next
// buckets and wrap around the table.
func TestValueSetMatchesMap(t *testing.T) {
	for seed := range uint64(10) {
		r := rand.New(rand.NewPCG(seed, 7))
		var s valueSet
		want := map[uint64]uint8{}
		inv := hashInverse()
		pick := func() uint64 {
			switch r.IntN(6) {
			case 0:
				return uint64(r.IntN(3)) // 0, 1, 2
			case 1:
				return math.MaxUint64 - uint64(r.IntN(2))
			case 2:
				return uint64(r.IntN(30)) * inv // hash 0, 1, ...: the first bucket
			case 3:
				return -uint64(1+r.IntN(30)) * inv // hash -1, -2, ...: the last
			default:
				return uint64(r.IntN(5000))
			}
		}
		for step := range 20000 {
			v, marks := pick(), uint8(1+r.IntN(255))
			wantAdded := marks &^ want[v]
			want[v] |= marks
			require.Equal(t, wantAdded, s.addMarks(v, marks), "seed %d step %d value %d", seed, step, v)
			require.Equal(t, len(want), int(s.n))
			if step%5000 == 0 {
				requireSetHolds(t, &s, want)
			}
		}
		requireSetHolds(t, &s, want)
		c := s.clone()
		requireSetHolds(t, &c, want)
		c.addMarks(12345678, 1) // the clone shares no bucket with s
		requireSetHolds(t, &s, want)
	}
}

// TestValueSetGrowsKeepingMarks fills a set one value at a time through
// many doublings; after each value, every value held keeps its marks and
// its home bucket is where a probe starts.
func TestValueSetGrowsKeepingMarks(t *testing.T) {
	var s valueSet
	require.Nil(t, s.home(1))
	want := map[uint64]uint8{}
	for v := range uint64(3000) {
		m := uint8(1) << (v % valueMarkBits)
		require.Equal(t, m, s.addMarks(v, m))
		require.Equal(t, uint8(0), s.addMarks(v, m), "a value marked twice")
		want[v] = m
		require.NotNil(t, s.home(v))
		if v%97 == 0 {
			requireSetHolds(t, &s, want)
		}
	}
	require.Greater(t, len(s.buckets), 3000/bucketValues)
	require.LessOrEqual(t, int(s.n)*8, len(s.buckets)*bucketValues*7)
	requireSetHolds(t, &s, want)
}

func requireSetHolds(t *testing.T, s *valueSet, want map[uint64]uint8) {
	t.Helper()
	got := map[uint64]uint8{}
	s.each(func(v uint64, marks uint8) {
		_, dup := got[v]
		require.False(t, dup, "value %d held twice", v)
		got[v] = marks
	})
	require.Equal(t, want, got)
	require.Equal(t, len(want), int(s.n))
	for v, m := range want {
		require.Equal(t, uint8(0), s.addMarks(v, m), "value %d lost marks", v)
	}
}

// hashInverse is valueHash's inverse modulo 2^64 (Newton's iteration):
// v*hashInverse() hashes to v.
func hashInverse() uint64 {
	x := uint64(valueHash)
	for range 6 {
		x *= 2 - valueHash*x
	}
	return x
}

func TestHashInverse(t *testing.T) {
	require.Equal(t, uint64(5), 5*hashInverse()*valueHash)
}
