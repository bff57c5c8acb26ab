// Package expand runs Flink's Expand step of GROUPING SETS, ROLLUP and
// CUBE: each input row is replicated once per grouping set, with copies of
// the grouping keys that are NULL where a set does not group by them, and
// constant columns naming the set (the grouping id $e and the values of
// GROUPING calls). The aggregation after it keys by the copies and those
// constants, so one operator computes every set.
package expand
