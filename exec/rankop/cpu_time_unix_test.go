//go:build unix

package rankop

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, user and system: the
// benchmarks' rows per CPU-second do not depend on how busy the machine
// is, as rows per second of wall time do.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
