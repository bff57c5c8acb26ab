package format

import (
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/recycle"
)

// With several Ps a chunk decoder's output buffers come cleared, so that
// it does not write into lines another core read last one miss at a
// time; with one P they come as they were freed.
func TestOutputMemClearsWithSeveralPs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		reuse := recycle.New(mem)
		b := reuse.Allocate(256)
		for i := range b {
			b[i] = 7
		}
		reuse.Free(b)
		out := outputMem(reuse).Allocate(256)
		zeroed := true
		for _, c := range out {
			zeroed = zeroed && c == 0
		}
		require.Equal(t, procs > 1, zeroed, "GOMAXPROCS=%d", procs)
		reuse.Free(out)
		reuse.Close()
		mem.AssertSize(t, 0)
	}
}
