package heappages

import (
	"os"
	"runtime"
	"strings"
)

// Bytes is how much of the heap's growth Advise covers: the windowed
// queries of the benchmark peak at 50 to 90 MiB of heap. 1 GiB made no
// difference to them, and raised Nexmark q9's peak RSS (a heap of
// 650 MiB) from 710 to 860 MiB where 128 MiB left it at 710, so the
// larger heaps grow in the runtime's own pages past this.
const Bytes = 128 << 20

// disabled says whether GODEBUG turns the heap's huge pages off
// (disablethp=1, the runtime's own setting), which Advise respects.
func disabled(godebug string) bool {
	for _, kv := range strings.Split(godebug, ",") {
		if strings.TrimSpace(kv) == "disablethp=1" {
			return true
		}
	}
	return false
}

// Advise advises the heap's next Bytes for huge pages; it reports whether
// it did. It does nothing where the kernel has no transparent huge pages
// or accounts strictly for what programs map (vm.overcommit_memory = 2),
// under GODEBUG=disablethp=1, and on systems other than Linux.
func Advise() bool {
	if disabled(os.Getenv("GODEBUG")) {
		return false
	}
	lo, hi := adviseAndFree(Bytes)
	return lo < hi
}

// adviseAndFree advises n bytes of the heap's growth (advise) and collects
// at once, so that the block is free before anything else allocates: the
// heap's next spans, the initialisers' among them, are carved from the
// advised pages. Early in a start the heap is small and the cycle short.
func adviseAndFree(n int) (lo, hi uintptr) {
	lo, hi = advise(n)
	if lo < hi {
		runtime.GC()
	}
	return lo, hi
}
