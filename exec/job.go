package exec

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/wsql/wsql/rowtime"
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
	DelayMillis  int64         // watermark delay, per split
	Window       windowop.Config
	Project      ProjectSpec
	// Clock judges split idleness (Source.IdleTimeout); nil is the system
	// clock. Tests inject a rowtime.ManualClock.
	Clock rowtime.Clock
	// LateDataPath, if set, is a CSV file that receives every row that
	// missed a window, with the window and the watermark at its arrival.
	LateDataPath string
}

// Schema returns the schema of the job's result rows.
func (j *Job) Schema() *arrow.Schema { return j.Project.Schema }

// Stats is the run summary of a job.
type Stats struct {
	RowsRead    int64
	BadSkipped  int64
	LateDropped int64 // rows that reached no window because each was late
	LateMissed  int64 // (row, window) pairs a row missed while counting elsewhere
	NoWindow    int64 // rows in no window (HOP gaps)
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
	cfg := j.Window
	if j.LateDataPath != "" {
		late, err := openLateFile(j.LateDataPath, cfg.LateSchema())
		if err != nil {
			return stats, err
		}
		defer late.close()
		cfg.LateSink = late.sink
	}
	window, err := windowop.NewWindowOperator(cfg, mem, project)
	if err != nil {
		return stats, err
	}
	defer window.Close()
	reader, err := j.Source.Open(mem)
	if err != nil {
		return stats, err
	}
	defer reader.Close()
	// Processing-time windows (RowtimeIndex < 0) need no watermarks.
	var assigner *WatermarkAssigner
	var first windowop.Operator = window
	if j.RowtimeIndex >= 0 {
		wm := rowtime.NewCombinedWatermark(reader.NumSplits(), j.DelayMillis, j.Source.IdleTimeout, j.Clock)
		assigner = NewWatermarkAssigner(j.RowtimeIndex, wm, window)
		first = assigner
	}
	var computed *ComputedColumns
	if j.Computed != nil {
		computed = NewComputedColumns(*j.Computed, mem, first)
		first = computed
	}

	err = drive(ctx, reader, first, assigner)
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
		LateMissed:  ws.LateMissed,
		NoWindow:    ws.NoWindow,
		ResultRows:  sink.Rows(),
		Watermark:   rowtime.MinWatermark,
		Elapsed:     time.Since(start),
	}
	if assigner != nil {
		stats.Watermark = assigner.Watermark()
	}
	return stats, err
}

// drive pushes every batch of r into first, telling the assigner which
// split it came from and when a split ends, then ends the input. assigner
// is nil when the pipeline has no event time.
func drive(ctx context.Context, r BatchReader, first windowop.Operator, assigner *WatermarkAssigner) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			return first.ProcessEnd()
		}
		if err != nil {
			return err
		}
		if b.End {
			if assigner != nil {
				if err := assigner.EndSplit(b.Split); err != nil {
					return err
				}
			}
			continue
		}
		if assigner != nil {
			assigner.SelectSplit(b.Split)
		}
		err = first.ProcessBatch(windowop.Batch{Record: b.Record})
		b.Record.Release()
		if err != nil {
			return err
		}
	}
}
