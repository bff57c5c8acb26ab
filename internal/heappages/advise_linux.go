package heappages

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// advise allocates n bytes, advises the huge pages wholly inside them and
// drops them; it returns the advised addresses [lo, hi), none (lo == hi)
// when it could not. A fresh block is not cleared by the runtime (the
// kernel's pages are zero), so no page of it is touched before the advice.
func advise(n int) (lo, hi uintptr) {
	huge := hugePageSize()
	if huge == 0 || strictOvercommit() {
		return 0, 0
	}
	block := make([]byte, n)
	p := unsafe.Pointer(unsafe.SliceData(block))
	base := uintptr(p)
	start := (base + huge - 1) &^ (huge - 1)
	end := (base + uintptr(n)) &^ (huge - 1)
	if end <= start {
		return 0, 0
	}
	pages := unsafe.Slice((*byte)(unsafe.Add(p, start-base)), end-start)
	if syscall.Madvise(pages, syscall.MADV_HUGEPAGE) != nil {
		return 0, 0
	}
	return start, end
}

// strictOvercommit reports whether the kernel accounts for every byte a
// program maps writable (vm.overcommit_memory = 2): the block would then
// take 128 MiB of the system's commit limit, and the runtime ends the
// program when a mapping is refused, so Advise leaves the heap alone.
func strictOvercommit() bool {
	mode, err := os.ReadFile("/proc/sys/vm/overcommit_memory")
	return err == nil && isStrict(mode)
}

// isStrict reads the text of vm.overcommit_memory.
func isStrict(mode []byte) bool { return strings.TrimSpace(string(mode)) == "2" }

// hugePageSize is the size of a transparent huge page, 0 when the kernel
// has none or they are off.
func hugePageSize() uintptr {
	const thp = "/sys/kernel/mm/transparent_hugepage/"
	mode, err := os.ReadFile(thp + "enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		return 0
	}
	size, err := os.ReadFile(thp + "hpage_pmd_size")
	if err != nil {
		return 2 << 20
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(size)), 10, 64)
	if err != nil || n == 0 || n&(n-1) != 0 {
		return 0
	}
	return uintptr(n)
}
