//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package main

import (
	"os"
	"time"
)

// childUsage reports the CPU time of an ended child process; the peak
// resident set size is not available here.
func childUsage(ps *os.ProcessState) (maxRSS int64, cpu time.Duration, ok bool) {
	return 0, ps.UserTime() + ps.SystemTime(), false
}
