// Package govalue reads Arrow values as Go values, in the types of
// database/sql/driver.Value (int64, float64, bool, string, time.Time),
// chosen once per column. The database/sql driver and the root package's
// Rows.Scan both read results through it, so they agree on every type.
package govalue
