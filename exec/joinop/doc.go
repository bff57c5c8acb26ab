// Package joinop runs Flink's streaming joins over two inputs
// (pipeline.TwoInput): the regular join of StreamingJoinOperator (INNER,
// LEFT, RIGHT and FULL OUTER, with retractions), its SEMI and ANTI forms,
// the interval join and the window join. Each keeps its state per join key
// and writes it to a checkpoint; the regular join's state is bounded by
// 'table.exec.state.ttl', the interval and window joins' by the watermark.
package joinop
