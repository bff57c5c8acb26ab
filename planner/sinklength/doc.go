// Package sinklength applies Flink's 'table.exec.sink.type-length-enforcer'
// = 'TRIM_PAD' to an INSERT: the values written to a sink column declared
// CHAR(n), VARCHAR(n), BINARY(n) or VARBINARY(n) are cut to n, and those of
// CHAR(n) and BINARY(n) padded to n, by the plan's last projection. With
// IGNORE (Flink's default) they are written as the query made them.
package sinklength
