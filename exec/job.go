package exec

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/wsql/wsql/windowop"
)

// Job is a planned streaming query: a source, the computed columns it
// needs, its rowtime and watermark, a window aggregation and the projection
// to the SELECT list. It is immutable; Run builds the running operators.
//
//	source ─▶ [computed columns] ─▶ watermark assigner ─▶ window ─▶ project ─▶ writer
type Job struct {
	Source       *FileSource
	Computed     *ComputedSpec // nil when no computed column is read
	RowtimeIndex int           // column with event time, after computed columns
	DelayMillis  int64         // watermark delay
	Window       windowop.Config
	Project      ProjectSpec
}

// Schema returns the schema of the job's result rows.
func (j *Job) Schema() *arrow.Schema { return j.Project.Schema }

// Stats is the run summary of a job.
type Stats struct {
	RowsRead    int64
	BadSkipped  int64
	LateDropped int64
	ResultRows  int64
	Watermark   int64 // the last watermark generated from the input
	Elapsed     time.Duration
}

// Run executes the job, writing result batches to w as windows fire. It
// returns when the input ends, an error occurs or ctx is cancelled; the
// stats are filled in all three cases.
func (j *Job) Run(ctx context.Context, mem memory.Allocator, w ResultWriter) (Stats, error) {
	start := time.Now()
	var stats Stats
	sink := NewWriterSink(w)
	windowSchema, err := j.Window.OutputSchema()
	if err != nil {
		return stats, err
	}
	project, err := NewProject(j.Project, windowSchema, sink)
	if err != nil {
		return stats, err
	}
	window, err := windowop.NewWindowOperator(j.Window, mem, project)
	if err != nil {
		return stats, err
	}
	defer window.Close()
	assigner := NewWatermarkAssigner(j.RowtimeIndex, j.DelayMillis, window)
	var first windowop.Operator = assigner
	var computed *ComputedColumns
	if j.Computed != nil {
		computed = NewComputedColumns(*j.Computed, mem, assigner)
		first = computed
	}
	reader, err := j.Source.Open(mem)
	if err != nil {
		return stats, err
	}
	defer reader.Close()

	err = drive(ctx, reader, first)
	src := reader.Stats()
	ws := window.Stats()
	if computed != nil {
		// Rows the computed columns passed on: a batch cut short by a bad
		// row counts only the rows before it, whatever the batch size.
		src.Skipped += computed.Skipped()
		src.Rows = computed.Passed()
	}
	stats = Stats{
		RowsRead:    src.Rows,
		BadSkipped:  src.Skipped,
		LateDropped: ws.LateDropped,
		ResultRows:  sink.Rows(),
		Watermark:   assigner.Watermark(),
		Elapsed:     time.Since(start),
	}
	return stats, err
}

// drive pushes every batch of r into first, then ends the input.
func drive(ctx context.Context, r BatchReader, first windowop.Operator) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return first.ProcessEnd()
		}
		if err != nil {
			return err
		}
		err = first.ProcessBatch(windowop.Batch{Record: rec})
		rec.Release()
		if err != nil {
			return err
		}
	}
}
