//go:build !unix

package main

import (
	"os"
	"time"
)

// childUsage is unknown here: the table shows "?" for CPU and RSS.
func childUsage(*os.ProcessState) (maxRSS int64, cpu time.Duration, ok bool) {
	return 0, 0, false
}
