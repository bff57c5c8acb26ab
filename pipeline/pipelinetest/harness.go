package pipelinetest

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
)

// Harness describes an operator under test.
type Harness struct {
	// New builds the operator under test, sending its results to next and
	// allocating with mem. A sink (see Sink) writes each batch to next.
	New func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error)

	// Input builds the sample input with mem: batches and watermarks in
	// the order they are processed, ProcessEnd not included. Its
	// watermarks advance; the test adds stale ones itself. The caller
	// owns the batches.
	Input func(mem memory.Allocator) []Step

	// FailingInput, when set, builds an input on which the operator itself
	// fails (a bad row, say): the test checks the error is returned and
	// Close still releases everything.
	FailingInput func(mem memory.Allocator) []Step

	// Sink marks the last stage of a pipeline: it forwards no watermarks
	// and no end of input, so the checks look only at the batches it
	// writes.
	Sink bool

	// ResultTime, when set, gives the event time from which an output row
	// is complete (a window's window_time): the operator must send the row
	// before it forwards a watermark at or past that time. The sample
	// input must then have no late rows.
	ResultTime func(rec arrow.RecordBatch, row int) int64
}

// Step is one call of the sample input: ProcessBatch(Batch) when
// Batch.Record is set, else ProcessWatermark(Watermark).
type Step struct {
	Batch     pipeline.Batch
	Watermark int64
}

// BatchStep is a ProcessBatch call.
func BatchStep(rec arrow.RecordBatch, watermarks []int64) Step {
	return Step{Batch: pipeline.Batch{Record: rec, Watermarks: watermarks}}
}

// WatermarkStep is a ProcessWatermark call.
func WatermarkStep(wm int64) Step { return Step{Watermark: wm} }

func (s Step) isBatch() bool { return s.Batch.Record != nil }
