// Package arrowtest builds Arrow arrays and record batches from Go values
// for the module's tests, so each test states its data as values instead
// of driving builders by hand.
//
// A value is given in the Go type that reads naturally for its Arrow type,
// and nil is NULL:
//
//   - integers (INT8 to INT64, UINT8 to UINT64): any Go integer that fits
//   - FLOAT and DOUBLE: float32, float64 or any Go integer
//   - BOOLEAN: bool
//   - STRING: string; BINARY: []byte or string
//   - DATE: days since the epoch as a Go integer, or a time.Time (its UTC date)
//   - TIMESTAMP: a Go integer in the type's unit, or a time.Time
//   - DECIMAL(p, s): a decimal128.Num, the unscaled value as a Go integer
//     (1234 is 12.34 at scale 2), or text ("12.34") read at the type's scale
//
// Memory comes from the allocator the test passes in, so a
// memory.CheckedAllocator sees every buffer.
package arrowtest
