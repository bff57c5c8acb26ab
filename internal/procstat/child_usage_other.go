//go:build !unix

package procstat

import (
	"os"
	"time"
)

// ChildUsage reports the CPU time of an ended child process; the peak
// resident set size is not available here.
func ChildUsage(ps *os.ProcessState) (maxRSS int64, cpu time.Duration, ok bool) {
	return 0, ps.UserTime() + ps.SystemTime(), false
}
