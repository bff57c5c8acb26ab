//go:build unix

package procstat

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// ChildUsage returns the peak resident set size in bytes and the CPU time
// (user plus system, every thread) of an ended child process; ok is false
// where the system does not report them.
func ChildUsage(ps *os.ProcessState) (maxRSS int64, cpu time.Duration, ok bool) {
	ru, isRusage := ps.SysUsage().(*syscall.Rusage)
	if !isRusage || ru == nil {
		return 0, 0, false
	}
	maxRSS = int64(ru.Maxrss) * 1024 // KiB on Linux and the BSDs
	if runtime.GOOS == "darwin" {
		maxRSS = int64(ru.Maxrss) // bytes on macOS
	}
	return maxRSS, ps.UserTime() + ps.SystemTime(), true
}
