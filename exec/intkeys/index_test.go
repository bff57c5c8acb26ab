package intkeys

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// Random puts, deletes and lookups agree with a Go map, over keys that
// collide in the table (few distinct values, multiples of large powers of
// two, the extremes), so probes wrap around and deletions shift runs back.
func TestIndexMatchesMap(t *testing.T) {
	families := map[string]func(r *rand.Rand) int64{
		"small":     func(r *rand.Rand) int64 { return r.Int64N(300) },
		"negative":  func(r *rand.Rand) int64 { return -r.Int64N(300) },
		"high bits": func(r *rand.Rand) int64 { return r.Int64N(200) << 40 },
		"low zeros": func(r *rand.Rand) int64 { return r.Int64N(500) << 16 },
		"extremes": func(r *rand.Rand) int64 {
			return []int64{0, -1, 1, math.MinInt64, math.MaxInt64, math.MinInt64 + 1}[r.IntN(6)]
		},
		"wide": func(r *rand.Rand) int64 { return int64(r.Uint64()) >> r.IntN(64) },
	}
	for name, key := range families {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			var x Index
			want := map[int64]uint32{}
			for step := range 40000 {
				k := key(r)
				switch op := r.IntN(10); {
				case op < 3:
					id := uint32(r.IntN(1 << 20))
					x.Put(k, id)
					want[k] = id
				case op < 6:
					id := uint32(step)
					got, found := x.GetOrPut(k, id)
					w, ok := want[k]
					require.Equal(t, ok, found, "GetOrPut(%d) found", k)
					if !ok {
						w = id
						want[k] = id
					}
					require.Equal(t, w, got, "GetOrPut(%d)", k)
				case op < 8:
					_, ok := want[k]
					require.Equal(t, ok, x.Delete(k), "Delete(%d)", k)
					delete(want, k)
				default:
					got, ok := x.Get(k)
					w, wok := want[k]
					require.Equal(t, wok, ok, "Get(%d) found", k)
					require.Equal(t, w, got, "Get(%d)", k)
				}
				require.Equal(t, len(want), x.Len())
			}
			seen := map[int64]uint32{}
			x.All(func(k int64, id uint32) { seen[k] = id })
			require.Equal(t, want, seen)
			for k, id := range want {
				got, ok := x.Get(k)
				require.True(t, ok)
				require.Equal(t, id, got)
			}
		})
	}
}

// The zero Index, one made with room, and one reset all behave as empty.
func TestEmptyIndexes(t *testing.T) {
	var zero Index
	_, ok := zero.Get(7)
	require.False(t, ok)
	require.False(t, zero.Delete(7))
	require.Zero(t, zero.Len())

	x := New(1000)
	require.Equal(t, 2048, x.Bytes()/16, "1000 keys fit 3/4 of 2048 slots")
	for k := range int64(1000) {
		x.Put(k*7919, uint32(k))
	}
	require.Equal(t, 2048, x.Bytes()/16, "no growth before the room given is used")
	x.Reset()
	require.Zero(t, x.Len())
	_, ok = x.Get(7919)
	require.False(t, ok)
	id, found := x.GetOrPut(5, 3)
	require.False(t, found)
	require.Equal(t, uint32(3), id)
}

// benchKeys are n distinct keys in a random order, spread like Nexmark's
// bidders (ids above the window operator's dense table).
func benchKeys(n int) []int64 {
	keys := make([]int64, n)
	for i := range keys {
		keys[i] = 1000 + int64(i)*3
	}
	rand.New(rand.NewPCG(3, 4)).Shuffle(n, func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	return keys
}

// lookups are 1M lookups of keys drawn from keys.
func lookups(keys []int64) []int64 {
	r := rand.New(rand.NewPCG(5, 6))
	out := make([]int64, 1<<20)
	for i := range out {
		out[i] = keys[r.IntN(len(keys))]
	}
	return out
}

// Lookups of present keys among 200,000, the index against Go's map.
func BenchmarkGet(b *testing.B) {
	keys := benchKeys(200_000)
	probe := lookups(keys)
	b.Run("Index", func(b *testing.B) {
		var x Index
		for i, k := range keys {
			x.Put(k, uint32(i))
		}
		b.ResetTimer()
		var sum uint32
		for i := 0; i < b.N; i++ {
			id, _ := x.Get(probe[i&(len(probe)-1)])
			sum += id
		}
		_ = sum
	})
	b.Run("map", func(b *testing.B) {
		m := map[int64]uint32{}
		for i, k := range keys {
			m[k] = uint32(i)
		}
		b.ResetTimer()
		var sum uint32
		for i := 0; i < b.N; i++ {
			sum += m[probe[i&(len(probe)-1)]]
		}
		_ = sum
	})
}

// Numbering 200,000 new keys from empty, growing as it goes.
func BenchmarkGetOrPut(b *testing.B) {
	keys := benchKeys(200_000)
	b.Run("Index", func(b *testing.B) {
		for range b.N {
			var x Index
			for i, k := range keys {
				x.GetOrPut(k, uint32(i))
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		for range b.N {
			m := map[int64]uint32{}
			for i, k := range keys {
				if _, ok := m[k]; !ok {
					m[k] = uint32(i)
				}
			}
		}
	})
}
