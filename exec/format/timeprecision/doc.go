// Package timeprecision carries the precision of a TIMESTAMP,
// TIMESTAMP_LTZ or TIME column whose precision lies between Arrow's units
// (TIMESTAMP(2) is kept in milliseconds, TIMESTAMP(5) in microseconds) on
// the column's Arrow field, and writes such values as Flink does: the
// fraction of the second with at least that many digits.
package timeprecision
