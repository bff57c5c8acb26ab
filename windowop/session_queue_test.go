package windowop

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The queue pops what a sorted list pops, in (time, key, window) order,
// whatever the order of the pushes: mostly ahead of the earliest entry,
// as sessions open and are re-armed, but also behind it and past the
// wheel's horizon, into the heap.
func TestSessionQueueMatchesSortedList(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var q sessionQueue
	var want []sessionEntry
	// drop removes the entry popped from want: equal timers pop in
	// either order
	drop := func(got sessionEntry) {
		i := slices.IndexFunc(want, func(e sessionEntry) bool { return e.slot == got.slot })
		require.GreaterOrEqual(t, i, 0)
		want = slices.Delete(want, i, i+1)
	}
	now := int64(1_000_000)
	for step := range 100_000 {
		if r.IntN(2) > 0 || len(want) < 100 {
			tm := now + r.Int64N(400) // within the wheel, often the same time
			switch r.IntN(20) {
			case 0:
				tm = now - r.Int64N(3000) // behind its start
			case 1:
				tm = now + wheelSize + r.Int64N(100_000) // past its horizon
			}
			e := sessionEntry{Timer: Timer{Time: tm, Key: uint32(r.IntN(50)), Window: Window{Start: tm - r.Int64N(4), End: tm + 1}}, slot: int32(step)}
			q.push(e)
			want = append(want, e)
			continue
		}
		slices.SortStableFunc(want, func(a, b sessionEntry) int {
			switch {
			case a.Timer.before(&b.Timer):
				return -1
			case b.Timer.before(&a.Timer):
				return 1
			}
			return 0
		})
		require.Equal(t, len(want), q.len())
		top := q.top()
		require.Equal(t, want[0].Timer, top.Timer, "step %d", step)
		got := q.pop()
		require.Equal(t, want[0].Timer, got.Timer, "step %d", step)
		drop(got)
		now = max(now, got.Time)
	}
	for len(want) > 0 {
		drop(q.pop())
	}
	require.Zero(t, q.len())
	// at both ends of time: an entry 2^64 - 1 ms after the wheel's start
	// is past its horizon, not 1 ms in
	q.push(sessionEntry{Timer: Timer{Time: math.MaxInt64 - 1}})
	q.push(sessionEntry{Timer: Timer{Time: math.MinInt64}})
	require.Equal(t, int64(math.MinInt64), q.pop().Time)
	require.Equal(t, int64(math.MaxInt64-1), q.pop().Time)
}
