// Package exec runs wsql pipelines: sources that read input into Arrow
// record batches (through the decoders of exec/format), computed columns,
// filter and projection (over the kernels of exec/expr), the watermark
// assigner stage, sinks, and the driver that pushes batches through the
// chain.
//
// A pipeline is a chain of pipeline.Operator stages:
//
//	source ─▶ WatermarkAssigner ─▶ WindowOperator ─▶ Project ─▶ sink
//
// A filesystem source is a list of splits, one per file of a directory (a
// single file is a directory of one split), read interleaved round-robin, one
// batch per split per turn, so a run is reproducible. The driver (Job.Run)
// reads one batch at a time from the source, tells the watermark assigner
// which split it came from, pushes it into the first stage and releases it;
// when a split ends it tells the assigner, which may forward a watermark the
// split was holding back. At the end of a bounded input it calls
// ProcessEnd, which flows down the chain. Every stage keeps the operator
// contract written on pipeline.Operator: batches are borrowed, results a
// watermark completes go out before it, Close is idempotent.
//
// A Job is immutable plan data built by the planner; each Run creates fresh
// operators, so one Job can run many times.
package exec
