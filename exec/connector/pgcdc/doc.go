// Package pgcdc is Flink CDC's 'postgres-cdc' connector: a PostgreSQL
// table read as an update stream from the server's logical replication,
// decoded by PostgreSQL's own pgoutput plugin, through
// github.com/jackc/pglogrepl (the replication protocol on pgx's pgconn,
// which the jdbc connector already uses). It registers itself with
// exec/connector.
//
// A read starts with a snapshot of the table (scan.startup.mode
// 'initial'): the replication slot is created exporting the snapshot it
// starts at, a second connection imports that snapshot (SET TRANSACTION
// SNAPSHOT) and hands out the table's rows as +I, and the stream then
// starts at the slot's consistent point, so no change is lost or read
// twice between the two. INSERT is +I, UPDATE -U of the row before and +U,
// DELETE -D of the row before; the table needs REPLICA IDENTITY FULL, so
// the stream carries the rows before. TRUNCATE is refused.
//
// The position of the changes handed out (the end of the last
// transaction read whole, and how many changes of the next one) is the
// source's state in a checkpoint: a restart starts replication there and
// skips what it covers. The server is told to keep the WAL from the last
// durable checkpoint on (exec.CheckpointListener); without checkpoints,
// from what was read. A checkpoint inside the snapshot keeps the rows
// handed out by key, and a restart from it turns a new snapshot into
// changes of them (snapshot.go).
//
// The files: options.go reads the WITH options; types.go maps
// PostgreSQL's types to Arrow's and reads values in their text form;
// table.go checks the table, its columns and the publication; reader.go is
// the read: slot, snapshot, stream and checkpoint; snapshot.go the rows a
// snapshot handed out, for a restart inside it.
package pgcdc
