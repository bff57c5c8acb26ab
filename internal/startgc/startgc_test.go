package startgc

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
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
