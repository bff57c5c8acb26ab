package startgc

import (
	"github.com/wsql/wsql/internal/heappages"
	"runtime/debug"
	"sync"
)

// startLimit bounds the memory while the collector is off: a start that
// allocates more than 64 MiB collects anyway. The limit counts the free
// pages the runtime keeps too, and the command keeps the block it frees
// for huge pages (heappages.Bytes, internal/startgc/atinit): under a
// limit of 64 MiB alone the start collected twice more and gave those
// pages back to the kernel, and a 10M-row TUMBLE with two Ps took 3%
// longer.
const startLimit = 64<<20 + heappages.Bytes

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
