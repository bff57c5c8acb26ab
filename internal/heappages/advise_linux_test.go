package heappages

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// vmFlags returns the VmFlags of the mapping of /proc/self/smaps that
// holds addr.
func vmFlags(t *testing.T, addr uintptr) []string {
	f, err := os.Open("/proc/self/smaps")
	require.NoError(t, err)
	defer f.Close()
	in := false
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		if lo, hi, ok := mappingRange(line); ok {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.Fields(strings.TrimPrefix(line, "VmFlags:"))
		}
	}
	require.NoError(t, s.Err())
	t.Fatalf("no mapping holds %#x", addr)
	return nil
}

// mappingRange reads the address range of a mapping's first line of smaps.
func mappingRange(line string) (lo, hi uintptr, ok bool) {
	r, _, _ := strings.Cut(line, " ")
	a, b, found := strings.Cut(r, "-")
	if !found {
		return 0, 0, false
	}
	l, err1 := strconv.ParseUint(a, 16, 64)
	h, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(l), uintptr(h), true
}

// TestAdvisedPagesAreWhereTheHeapGrowsNext checks the two things Advise
// relies on: the advice holds on the block's pages (the "hg" flag of
// their mapping), and, the block freed by the collection it runs, the
// heap's next allocations are carved from those pages.
func TestAdvisedPagesAreWhereTheHeapGrowsNext(t *testing.T) {
	if hugePageSize() == 0 {
		t.Skip("the kernel has no transparent huge pages")
	}
	lo, hi := adviseAndFree(32 << 20)
	require.Less(t, lo, hi, "nothing advised")
	require.Contains(t, vmFlags(t, lo), "hg")
	require.Contains(t, vmFlags(t, hi-1), "hg")

	var kept [][]byte
	reused := false
	for range 64 {
		b := make([]byte, 1<<20)
		kept = append(kept, b)
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(b))); lo <= p && p < hi {
			reused = true
			break
		}
	}
	require.True(t, reused, "no allocation of the next 64 MiB came from the advised pages")
	runtime.KeepAlive(kept)
}

func TestGODEBUGDisablethpTurnsItOff(t *testing.T) {
	require.True(t, disabled("disablethp=1"))
	require.True(t, disabled("gctrace=1, disablethp=1"))
	require.False(t, disabled("disablethp=0"))
	require.False(t, disabled(""))
	t.Setenv("GODEBUG", "disablethp=1")
	require.False(t, Advise())
}

func TestStrictOvercommitLeavesTheHeapAlone(t *testing.T) {
	require.True(t, isStrict([]byte("2\n")))
	require.False(t, isStrict([]byte("0\n")))
	require.False(t, isStrict([]byte("1")))
}
