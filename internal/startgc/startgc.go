package startgc

import (
	"runtime/debug"
	"sync"
)

// startLimit bounds the heap while the collector is off: a start that
// allocates more than that collects anyway.
const startLimit = 64 << 20

var (
	mu      sync.Mutex
	off     bool
	percent int   // GOGC's setting before Off
	limit   int64 // GOMEMLIMIT's
)

// Off turns the collector off until Restore, but for a heap of startLimit.
func Off() {
	mu.Lock()
	defer mu.Unlock()
	if off {
		return
	}
	off = true
	percent = debug.SetGCPercent(-1)
	limit = debug.SetMemoryLimit(min(startLimit, debug.SetMemoryLimit(-1)))
}

// Restore gives the collector back the settings Off found (GOGC and
// GOMEMLIMIT, or their defaults); without Off, or once done, it does
// nothing.
func Restore() {
	mu.Lock()
	defer mu.Unlock()
	if !off {
		return
	}
	off = false
	debug.SetGCPercent(percent)
	debug.SetMemoryLimit(limit)
}
