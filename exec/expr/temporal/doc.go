// Package temporal holds the kernels of Flink's time functions that
// exec/expr does not: TIMESTAMPADD, TIMESTAMPDIFF, FLOOR/CEIL(t TO unit)
// and CONVERT_TZ. TIMESTAMP is the wall clock it stores, TIMESTAMP_LTZ an
// instant (rounded in the session zone), DATE days; calendar arithmetic is
// integer work on days and milliseconds, as Calcite's DateTimeUtils does,
// with no time.Time per row.
package temporal
