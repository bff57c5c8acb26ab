// Package stmtset plans Flink's statement sets (EXECUTE STATEMENT SET,
// the SQL client's BEGIN STATEMENT SET ... END): the INSERTs, each planned
// as alone, run as one job in which the INSERTs that read the same scan
// of a table share one read of it. It says which scans are shared, prints
// EXPLAIN of the set and lowers it to an exec.SetJob.
package stmtset
