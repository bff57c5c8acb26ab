package windowop

import (
	"math/rand/v2"
	"testing"
)

// The heap pops entries in (time, key, window) order whatever order they
// were pushed in, including equal times and keys.
func TestTimerHeapPopsInOrder(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for round := range 50 {
		n := 1 + rnd.IntN(300)
		var h []sessionEntry
		for range n {
			tm := rnd.Int64N(40)
			h = heapPush(h, sessionEntry{Timer: Timer{Time: tm, Key: uint32(rnd.IntN(5)), Window: Window{Start: tm - rnd.Int64N(3), End: tm + 1}}})
		}
		var prev *Timer
		for i := range n {
			var e sessionEntry
			h, e = heapPop(h)
			if prev != nil {
				if e.Timer.before(prev) {
					t.Fatalf("round %d: pop %d, %+v before %+v", round, i, e.Timer, *prev)
				}
			}
			prev = &e.Timer
		}
		if len(h) != 0 {
			t.Fatalf("round %d: %d entries left", round, len(h))
		}
	}
}

// BenchmarkTimerHeap pushes 1000 session timer entries at random times and
// pops them all.
func BenchmarkTimerHeap(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 2))
	es := make([]sessionEntry, 1000)
	for i := range es {
		t := rnd.Int64N(1 << 20)
		es[i] = sessionEntry{Timer: Timer{Time: t, Key: uint32(rnd.IntN(1000)), Window: Window{Start: t - 1000, End: t + 1}}}
	}
	h := make([]sessionEntry, 0, len(es))
	for b.Loop() {
		for _, e := range es {
			h = heapPush(h, e)
		}
		for len(h) > 0 {
			h, _ = heapPop(h)
		}
	}
}
