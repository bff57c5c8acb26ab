//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process is the user and system time the process has used so far (the
// garbage collector's threads included); 0 when it cannot be read.
func Process() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
