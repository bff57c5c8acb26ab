package rankop

import "github.com/wsql/wsql/internal/recycle"

// Every test here runs with recycled buffers overwritten as they are
// freed (not while benchmarking): a rank that keeps memory of a released
// batch shows it as a wrong result.
func init() { recycle.PoisonFreedUnlessBenchmarking() }
