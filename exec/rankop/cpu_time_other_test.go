//go:build !unix

package rankop

import "time"

// cpuTime is unknown here: the benchmarks report no rows per CPU-second.
func cpuTime() time.Duration { return 0 }
