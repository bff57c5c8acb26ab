package datagen

import "github.com/wsql/wsql/internal/recycle"

// Every test here runs with recycled buffers overwritten as they are
// freed (not while benchmarking): an operator that keeps memory of a released batch shows it as a
// wrong result, not only once the memory happens to be reused.
func init() { recycle.PoisonFreedUnlessBenchmarking() }
