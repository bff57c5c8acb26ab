// Package intkeys numbers int64 keys for the operators that keep state per
// key of one integer column (the window operator's GROUP BY keys, the
// interval and window joins' keys, the rank operators' partitions).
//
// Index is an open-addressing hash table whose keys and numbers sit in one
// flat slice of pointer-free entries: the garbage collector never scans
// it, and a lookup is one multiply and, mostly, one cache line, where Go's
// map[int64]uint32 was a sixth of a TUMBLE per bidder (Nexmark q12).
package intkeys
