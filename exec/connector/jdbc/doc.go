// Package jdbc is Flink's 'jdbc' connector for PostgreSQL, on pgx: an
// INSERT writes the rows of a query into a PostgreSQL table, and a lookup
// join (FOR SYSTEM_TIME AS OF a PROCTIME() column) queries a PostgreSQL
// table by key. It registers itself with exec/connector.
//
// A table without a PRIMARY KEY is written in append mode: the rows are
// buffered in PostgreSQL's binary COPY format and copied in. A table with
// PRIMARY KEY ... NOT ENFORCED is written in upsert mode: each +I and +U
// replaces the key's row (INSERT ... ON CONFLICT ... DO UPDATE), each -D
// deletes it, -U is skipped; a flush applies each key's last change in
// one prepared statement over the changes sent as one array a column.
//
// With checkpoints, every checkpoint flushes the buffer. An upsert table
// then holds the changes the checkpoint covers; a restart writes the
// changes after it again, and since a key's change replaces what was
// there, the table ends as an uninterrupted run leaves it. An append
// table is written in a transaction per checkpoint, prepared (two-phase
// commit) before the checkpoint is saved and committed once it is
// durable: a restart commits the prepared transaction its checkpoint
// names and rolls back any later one, so no row is lost or written twice.
//
// The files, one concept each: options.go reads the WITH options and the
// address ('url' in JDBC form or pgx's); types.go maps Flink's types to
// PostgreSQL's and checks them against the table's columns; encode.go
// writes Arrow columns in the binary COPY format; writer.go is what the
// two modes share (the buffer, its flushes, retries); append.go and
// upsert.go are the two modes; commit.go is an append table's transaction
// per checkpoint. The lookup: lookup_options.go reads the 'lookup.*'
// options (the cache's, Flink's names and legacy names); lookup.go plans
// the lookup (connector.Connector.NewLookup) and runs its one query a
// batch of keys, each key column sent as one binary array, with retries
// on a new connection; lookup_decode.go reads the rows PostgreSQL sends
// into Arrow builders.
//
// A lookup join's table reads types the way the sink writes them, and
// also an integer or real column into a wider Flink type; the keys are
// sent as the type their Flink type maps to and compared by PostgreSQL
// with the column (an integer column with a bigint key, say).
package jdbc
