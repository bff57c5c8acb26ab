package windowop

import "slices"

// grow is s with length n, for scratch: reallocated only when too short,
// its contents undefined.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// extendTo is s lengthened to n, the new elements zero. Its capacity at
// least doubles when it grows: append grows a long slice by a quarter, so
// a table grown a slot at a time was copied over and over into ever larger
// fresh memory, whose first touch costs a page fault each 4 KiB
// (BenchmarkExtendTo, a million slots: 61 ms by append, 4.8 ms).
func extendTo[T any](s []T, n int) []T {
	if n <= len(s) {
		return s
	}
	if n > cap(s) {
		t := make([]T, len(s), max(n, 2*cap(s)))
		copy(t, s)
		s = t
	}
	old := len(s)
	s = s[:n]
	clear(s[old:])
	return s
}

// push is append(s, v), its capacity doubled when full (see extendTo).
func push[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		s = slices.Grow(s, max(len(s), 8))
	}
	return append(s, v)
}
