package leakcheck

import (
	"runtime"
	"testing"
	"time"
)

// Goroutines waits until no more goroutines run than before (taken with
// runtime.NumGoroutine before the run), failing after a few seconds with
// the stacks of those left. Goroutines end asynchronously after the call
// that stopped them returns, hence the wait.
func Goroutines(t testing.TB, before int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines left running, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}
