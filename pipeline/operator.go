package pipeline

import "github.com/apache/arrow-go/v18/arrow"

// Batch is the unit of data flowing between operators: an Arrow record batch
// and, for streams with event time, the watermark each row arrived under.
type Batch struct {
	Record arrow.RecordBatch

	// Watermarks[i] is the watermark in effect when row i arrived: computed
	// from every row before it, including rows a filter later removed. It is
	// nil when every row of the batch arrived under the watermark last
	// forwarded by the upstream operator (an operator's own output rows).
	Watermarks []int64
}

// Operator is one stage of a wsql pipeline. Sources push into the first
// operator; each operator pushes into the next; the sink is the last.
//
// The contract every implementation keeps:
//
//   - Ownership. ProcessBatch borrows the batch: the caller holds the
//     reference and releases it after the call returns. An operator that
//     keeps the record, one of its arrays or the Watermarks slice beyond the
//     call must Retain (or copy) it. Batches an operator creates are its own:
//     it passes them downstream and releases them once the call returns.
//   - Order. Calls arrive one at a time, never concurrently. Watermarks only
//     advance; a watermark not greater than the previous one is ignored.
//     Every result a watermark completes goes downstream before that
//     watermark is forwarded, so a downstream operator sees the rows of a
//     window before the watermark that closed it (this is what makes
//     cascaded windows work).
//   - End of input. ProcessEnd says no more input will come. For event time
//     it acts as the watermark +∞: every open window fires, its results go
//     downstream, then ProcessEnd is forwarded. Nothing is processed after.
//   - Errors. The first error stops the pipeline; the driver returns it and
//     makes no further Process call.
//   - Close releases every resource the operator holds, whether or not the
//     input ended or an error occurred. It is idempotent and closes nothing
//     downstream (the driver closes each stage).
type Operator interface {
	ProcessBatch(b Batch) error
	ProcessWatermark(wm int64) error
	ProcessEnd() error
	Close()
}

// TwoInput is an operator that reads two inputs, a join: input 0 is the
// left, input 1 the right. Their rows arrive through ProcessInput, one
// input's batch at a time, in the one order the merge of the inputs gives
// (by the watermark each row arrived under, then by input, then in the
// input's order), so its output never depends on batch sizes or on which
// input was read first. ProcessWatermark brings the inputs' combined
// watermark (their minimum) and ProcessEnd the end of both. ProcessBatch
// is not called. The rest of Operator's contract holds unchanged.
type TwoInput interface {
	Operator
	ProcessInput(input int, b Batch) error
}
