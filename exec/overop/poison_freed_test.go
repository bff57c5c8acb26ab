package overop

import "github.com/wsql/wsql/internal/recycle"

// Every test here runs with recycled buffers overwritten as they are
// freed (not while benchmarking): a round or a result read after it was
// released shows as a wrong result.
func init() { recycle.PoisonFreedUnlessBenchmarking() }
