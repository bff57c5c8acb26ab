package startgc

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/heappages"
)

// Off turns the collector off with a bounded heap; Restore gives back the
// settings it found, once; without Off it changes nothing.
func TestOffUntilRestore(t *testing.T) {
	before := debug.SetGCPercent(75)
	beforeLimit := debug.SetMemoryLimit(1 << 40)
	defer func() {
		debug.SetGCPercent(before)
		debug.SetMemoryLimit(beforeLimit)
	}()
	Restore() // not off: nothing to give back
	require.Equal(t, 75, debug.SetGCPercent(75))

	Off()
	require.Equal(t, -1, debug.SetGCPercent(-1))
	require.EqualValues(t, startLimit, debug.SetMemoryLimit(-1))
	Restore()
	require.Equal(t, 75, debug.SetGCPercent(75))
	require.EqualValues(t, 1<<40, debug.SetMemoryLimit(-1))

	debug.SetGCPercent(30)
	Restore() // once only
	require.Equal(t, 30, debug.SetGCPercent(30))
}

// The block the command advises for huge pages stays free under the
// limit: after Advise's own collection, the start's allocations start no
// other one, and the runtime keeps the advised pages for the heap.
func TestAdvisedBlockFitsTheStartLimit(t *testing.T) {
	before := debug.SetGCPercent(100)
	beforeLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(before)
		debug.SetMemoryLimit(beforeLimit)
	}()
	Off()
	defer Restore()
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	cycles := stats.NumGC
	if !heappages.Advise() {
		t.Skip("no transparent huge pages to advise")
	}
	var kept [][]byte
	for range 256 { // 16 MiB, as a start's initialisers and planning might
		kept = append(kept, make([]byte, 64<<10))
	}
	runtime.ReadMemStats(&stats)
	require.EqualValues(t, cycles+1, stats.NumGC, "collections after Advise's own")
	runtime.KeepAlive(kept)
}
