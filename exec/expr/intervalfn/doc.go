// Package intervalfn holds the kernels of interval values computed per
// row: an interval times or divided by a number (and a session gap's
// interval times a number column, ScaleInt), the sum or difference
// of two intervals of one kind, and a TIMESTAMP, DATE or TIME moved by an
// interval. A day-time interval is Arrow duration[ms], a year-month
// interval Arrow month_interval (int32 months), as Flink keeps them as
// milliseconds and months.
package intervalfn
