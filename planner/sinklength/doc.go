// Package sinklength applies Flink's 'table.exec.sink.type-length-enforcer'
// = 'TRIM_PAD' to an INSERT: the values written to a sink column declared
// CHAR(n), VARCHAR(n), BINARY(n) or VARBINARY(n) are cut to n, and those of
// CHAR(n) and BINARY(n) padded to n, by the plan's last projection. With
// IGNORE (Flink's default) they are written as the query made them.
//
// Whatever the setting, a value written to a TIMESTAMP(p), TIMESTAMP_LTZ(p)
// or TIME(p) column whose p lies between Arrow's units is cut to p digits,
// as Flink's implicit cast to the sink's type does.
package sinklength
