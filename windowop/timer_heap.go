package windowop

import "unsafe"

// heapEntry is what a timer heap holds: a Timer (TimerService) or an entry
// that starts with one (sessionTimers).
type heapEntry interface{ Timer | sessionEntry }

// The heap reads the Timer an entry starts with in place: a type
// parameter's fields cannot be named, and calling a comparison method
// through one is an indirect call, measured about 10% slower than the
// heaps this replaced; read in place, the comparison inlines. This fails
// to compile if sessionEntry's Timer moves from offset 0.
var _ = [1]struct{}{}[unsafe.Offsetof(sessionEntry{}.Timer)]

func timerOf[E heapEntry](e *E) *Timer { return (*Timer)(unsafe.Pointer(e)) }

// heapPush appends e to the binary min-heap h, in (time, key, window)
// order, and returns the heap.
func heapPush[E heapEntry](h []E, e E) []E {
	h = append(h, e)
	heapUp(h, len(h)-1)
	return h
}

// heapPop removes the earliest entry of the non-empty heap h and returns
// the heap and that entry.
func heapPop[E heapEntry](h []E) ([]E, E) {
	e := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	heapDown(h, 0)
	return h, e
}

// heapUp moves h[i] towards the top to its place.
func heapUp[E heapEntry](h []E, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !timerOf(&h[i]).before(timerOf(&h[p])) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

// heapDown moves h[i] towards the bottom to its place (after it became
// later).
func heapDown[E heapEntry](h []E, i int) {
	n := len(h)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if r := c + 1; r < n && timerOf(&h[r]).before(timerOf(&h[c])) {
			c = r
		}
		if !timerOf(&h[c]).before(timerOf(&h[i])) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
