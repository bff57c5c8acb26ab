package lookup

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Source is a table a lookup join queries by key, as its connector
// planned it: opened once for each run.
type Source interface {
	// Open connects a run's Lookuper; its batches are allocated from mem.
	Open(mem memory.Allocator) (Lookuper, error)
}

// Lookuper fetches the rows of a table by key. It is used by one
// goroutine at a time.
type Lookuper interface {
	// Lookup returns the table's rows whose key columns equal those of a
	// row of keys. keys has one column per key column, of that column's
	// type, one row per key: no NULL, no key twice. The rows come as one
	// batch of the table's schema, in any order; a key may have many rows
	// or none. The caller owns the batch. One call is one query.
	Lookup(keys arrow.RecordBatch) (arrow.RecordBatch, error)
	// Close lets the connection go.
	Close() error
}

// Plan is what a connector plans for a table a lookup join queries by
// key: how to query it and the cache the join keeps of its rows.
type Plan struct {
	Source Source
	Cache  CacheOptions
}
