// Package overop runs Flink's OVER aggregation over an append-only stream:
// aggregates over a frame of each row's partition (ROWS or RANGE BETWEEN
// n PRECEDING or UNBOUNDED PRECEDING AND CURRENT ROW), ordered by event
// time (rows released by the watermark, in timestamp order) or processing
// time (rows processed as they arrive). Each row is emitted once, with its
// aggregates appended: the output is append-only. The accumulators and
// partitions are windowop's (windowop.OverAggs); rows waiting for the
// watermark live in an exec/rowstore Store.
package overop
