// Package recycle is an Arrow allocator that hands an operator's freed
// buffers back to its next batch instead of to the garbage collector, for
// operators that emit about as many rows as they read (a GROUP BY without
// a window emits two per input row, OVER one).
//
// A buffer it recycles may be overwritten by the next batch as soon as a
// batch is released, so whatever reads the output must own (copy) what it
// keeps beyond a batch, as Arrow's Release contract says anyway. Tests make
// a break of that contract visible with PoisonFreed.
package recycle
