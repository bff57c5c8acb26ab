// Package scalartext reads the text forms of scalar values that the CSV
// and JSON formats and CAST share: integers, decimals, floats (with an
// exact fast path), dates, times of day and timestamps (with a cache of
// the last minute for columns of event times). Each parser returns a
// message rather than an error, so a decoder can put it in a bad row's
// report without allocating on the good path.
package scalartext
