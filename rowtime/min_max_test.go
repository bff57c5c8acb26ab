package rowtime

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// MinMax finds the least and largest time wherever they stand, in the four
// interleaved runs or the tail, at every length from 1 to 40.
func TestMinMaxFindsTheExtremesAnywhere(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for n := 1; n <= 40; n++ {
		for range 50 {
			ts := make([]int64, n)
			for i := range ts {
				ts[i] = r.Int64N(2000) - 1000
			}
			lo, hi := MinMax(ts)
			require.Equal(t, slices.Min(ts), lo, "%v", ts)
			require.Equal(t, slices.Max(ts), hi, "%v", ts)
		}
	}
}
