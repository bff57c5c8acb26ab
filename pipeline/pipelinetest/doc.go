// Package pipelinetest checks that an operator keeps the contract of
// pipeline.Operator, in the spirit of testing/fstest.TestFS: TestOperator
// drives the operator under test over sample input several times (inputs
// kept or released after each call, stale watermarks added, a downstream
// that fails at each call in turn, Close at every point of the stream) and
// reports each rule it breaks: ownership of batches, order of watermarks
// and results, end of input, errors, Close, and Arrow memory released.
//
// Every operator's package runs it next to its own tests; the harness says
// how to build the operator and what input to feed it.
package pipelinetest
