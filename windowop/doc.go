// Package windowop is wsql's window aggregation: windows and their assigners,
// triggers, the timer service, accumulators and the WindowOperator that
// composes them, following Flink's table-runtime WindowOperator
// (processElement, onEventTime, emitWindowResult, registerCleanupTimer,
// cleanupTime). It implements the pipeline.Operator contract (package
// pipeline) every stage of a wsql pipeline keeps.
//
// The operator works column-at-a-time on Arrow record batches. For a batch it
// first assigns windows for every row (one loop over the rowtime column) and
// interns the group keys of every row (one pass per key column), then walks
// the rows once in arrival order doing only integer work: advance the
// watermark the row arrived under (firing due timers), drop the row if its
// window is late, and map it to the accumulator slot of its (key, window).
// Accumulators are flat arrays indexed by slot and are updated a column at a
// time between firings, so there is no per-row allocation or interface call.
//
// Determinism: timers fire in (time, key, window) order, where a key's order
// is the order of its first row; rows are processed in input order under the
// watermark each row carries. Results therefore depend only on the input
// rows and their order, never on batch size or timing.
//
// The package never sees SQL text and never reads the wall clock.
package windowop
