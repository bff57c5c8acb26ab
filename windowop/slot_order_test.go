package windowop

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSlotOrderIsStable checks slotOrder against a stable sort, for
// batches of slots of one to four bytes, sorted ones and empty ones.
func TestSlotOrderIsStable(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	var o slotOrder
	for round := range 200 {
		n := r.IntN(3000)
		spread := []int32{1, 3, 300, 70_000, 20_000_000, 1 << 30}[round%6]
		slots := make([]int32, n)
		for i := range slots {
			slots[i] = r.Int32N(spread)
		}
		if round%7 == 0 {
			slices.Sort(slots)
		}
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, func(a, b int32) int { return int(slots[a]) - int(slots[b]) })
		require.Equal(t, want, o.of(slots), "round %d", round)
	}
}
