// Package debezium is the 'debezium-json' format: Debezium's JSON envelope
// ({"before": ..., "after": ..., "op": ...}) read into an update stream and
// an update stream written as it, as Flink's debezium-json format does.
//
// The envelope is decoded by the JSON decoder of exec/format (its
// positions, bad rows and parallel reads) with before and after as ROW
// columns; each envelope then becomes its changes: "c" and "r" an insert
// (+I) of after, "u" an update (-U of before, +U of after), "d" a delete
// (-D of before). A decoded batch's first column is the row kind, the
// field the caller's schema gives first.
package debezium
