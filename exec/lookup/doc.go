// Package lookup is what a lookup join that queries its table by key
// needs besides the join itself (exec/joinop's LookupKeyJoin): the
// interface a connector implements to fetch a table's rows by key
// (Source, Lookuper: Flink's LookupTableSource and LookupFunction, asked
// a batch of keys at a time), the cache of rows by key the join keeps
// between batches (Cache: Flink's partial lookup cache) and its options
// (CacheOptions).
//
// The cache holds the rows fetched in a rowstore.Store, each key's rows
// linked by their ids, its keys numbered by value (one INT or BIGINT
// column in an intkeys.Index, one STRING column in a strkeys.Index, any
// other key as its bytes): a hit allocates nothing. It is bounded by rows
// (a missing key counts one), evicts the least recently used key, and
// lets keys expire after they were written or last read, judged against
// the time the join passes for each batch (the job's clock, never the
// wall clock here).
package lookup
