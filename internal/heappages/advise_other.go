//go:build !linux

package heappages

func advise(int) (lo, hi uintptr) { return 0, 0 }
