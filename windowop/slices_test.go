package windowop

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestExtendToZeroesWhatItAdds(t *testing.T) {
	s := []int64{1, 2, 3, 4}
	s = s[:2] // 3 and 4 stay in the capacity
	s = extendTo(s, 3)
	require.Equal(t, []int64{1, 2, 0}, s)
	s = extendTo(s, 100)
	require.Len(t, s, 100)
	require.GreaterOrEqual(t, cap(s), 100)
	require.Equal(t, []int64{1, 2, 0}, s[:3])
	require.Equal(t, make([]int64, 97), s[3:])
	require.Len(t, extendTo(s, 10), 100, "never shortens")
	var p []int32
	for i := range 1000 {
		p = push(p, int32(i))
	}
	require.Len(t, p, 1000)
	require.Equal(t, int32(999), p[999])
}

// A table of a million slots grown a slot at a time, as the accumulators
// grow: by append, and by extendTo.
func BenchmarkExtendTo(b *testing.B) {
	const n = 1 << 20
	b.Run("append", func(b *testing.B) {
		for b.Loop() {
			var s []int64
			for len(s) < n {
				s = append(s, 0)
			}
		}
	})
	b.Run("extendTo", func(b *testing.B) {
		for b.Loop() {
			var s []int64
			for i := 1; i <= n; i++ {
				s = extendTo(s, i)
			}
		}
	})
}
