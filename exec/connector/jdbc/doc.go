// Package jdbc is Flink's 'jdbc' connector for PostgreSQL, on pgx: a
// query reads a PostgreSQL table as a bounded scan, an INSERT writes the
// rows of a query into one, and a lookup join (FOR SYSTEM_TIME AS OF a
// PROCTIME() column) queries one by key. It registers itself with
// exec/connector.
//
// A scan reads the whole table in one snapshot: one query, or, with
// Flink's scan.partition.* options, a query a range of one column's
// values, the ranges split as Flink's JdbcNumericBetweenParametersProvider
// splits them (and filtering, as Flink's do), each range a split of the
// source. At most 8 connections read the ranges at once, each on a
// goroutine; the first exports its snapshot and the others read in it.
// Every value comes in PostgreSQL's binary form and is decoded straight
// into its column's Arrow builder. A scan refuses checkpoints.
//
// The PostgreSQL table is checked when a query that reads or writes it is
// planned to run (connector.Env.Run, connector.RunChecker): it exists and
// has each column of a type that fits, or the error is at the 'table-name'
// option or the column's declaration.
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
// PostgreSQL's; table_check.go reads the PostgreSQL table's columns and
// checks them for a read or a write (sink_check.go: the sink's check when
// the INSERT is planned to run); scan_options.go reads the scan options
// and splits the ranges; source.go is the planned scan, scan_reader.go
// its read over the connections, scan_decode.go the binary values
// decoded into Arrow builders; encode.go
// writes Arrow columns in the binary COPY format; writer.go is what the
// two modes share (the buffer, its flushes, retries); append.go and
// upsert.go are the two modes; commit.go is an append table's transaction
// per checkpoint. The lookup: lookup_options.go reads the 'lookup.*'
// options (the cache's, Flink's names and legacy names); lookup.go plans
// the lookup (connector.Connector.NewLookup) and runs its one query a
// batch of keys, each key column sent as one binary array, with retries
// on a new connection; the rows PostgreSQL sends are read by the scan's decoders (scan_decode.go)
// into Arrow builders.
//
// A lookup join's table reads types the way the sink writes them, and
// also an integer or real column into a wider Flink type; the keys are
// sent as the type their Flink type maps to and compared by PostgreSQL
// with the column (an integer column with a bigint key, say).
package jdbc
