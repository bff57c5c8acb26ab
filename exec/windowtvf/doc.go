// Package windowtvf runs a window table-valued function without an
// aggregation over it (Flink's WindowTableFunction): each row of the input
// comes out once per TUMBLE, HOP or CUMULATE window it belongs to, with
// window_start, window_end and window_time (window_end - 1 ms, the rows'
// new time attribute) appended, as soon as it arrives. Nothing is kept
// between batches, so late rows come out as well, as in Flink.
package windowtvf
