// Package rankop runs Flink's rank operators over an append-only stream:
// Top-N (ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) with a rank
// range) and deduplication (the first or last row per key, by arrival or
// by event time). Kept rows live in an exec/rowstore Store; partitions
// and sort keys are compared as order-preserving byte strings (sort_key.go).
package rankop
