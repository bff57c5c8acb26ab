package exec

import (
	"time"

	"github.com/wsql/wsql/exec/rowstore"
	"github.com/wsql/wsql/rowtime"
)

// Progress is a snapshot of a running job, taken on the job's goroutine
// between two batches, so it reads every stage without locks: for the
// status line and the monitoring server (wsql run --serve). A number a
// query shape does not have is marked absent, never guessed.
type Progress struct {
	RowsRead        int64
	ResultRows      int64 // rows the job wrote to its sink or writer
	BadRowsSkipped  int64
	LateRowsDropped int64
	Watermark       int64 // rowtime.MinWatermark before the first
	OpenWindows     int   // (key, window) states held by the innermost window
	// HasOpenWindows says the innermost stage is a window operator that
	// counts its windows; OpenWindows is 0 otherwise.
	HasOpenWindows bool
	// StateBytes estimates the state held: the window operators' and the
	// rows kept by joins, Top-N and OVER (exec/rowstore). HasStateBytes
	// is false when no stage of the job measures its state.
	StateBytes    int64
	HasStateBytes bool
	// Splits are the watermarks of the source's splits, when the job has
	// event time computed from rows or supplied by the source.
	Splits []SplitProgress
	// Lags are how far the source's splits are behind the end of what
	// their source holds, when the source knows (SplitLagReporter).
	Lags []SplitLag
	// Checkpoint describes the last checkpoint the run took; nil before
	// the first and without checkpoints.
	Checkpoint *CheckpointProgress
	Elapsed    time.Duration
}

// SplitProgress is one split's own watermark, as the combined watermark
// sees it.
type SplitProgress struct {
	Split     int
	Watermark int64 // rowtime.MinWatermark before the split's first row
	Idle      bool  // left out of the combined watermark for now
}

// SplitLag is how far one split's read is behind the end of what its
// source holds now.
type SplitLag struct {
	Split int
	// Name is the split as its source names it (a Kafka partition:
	// "topic/partition").
	Name string
	// Records between the split's position and the source's end now (a
	// Kafka partition's high watermark minus the next offset handed out).
	Records int64
}

// SplitLagReporter is a BatchReader that knows how far behind each of its
// splits is: the Kafka source, from the high watermarks its polls return.
// SplitLags is called on the job's goroutine, between calls of Next; it
// leaves out the splits whose lag it does not know yet.
type SplitLagReporter interface {
	SplitLags() []SplitLag
}

// CheckpointProgress describes a checkpoint once it is durable.
type CheckpointProgress struct {
	ID       uint64
	Done     time.Time     // when it was durable
	Duration time.Duration // from the start of taking it until durable
	Bytes    int64         // the size of the checkpoint file
}

// progress is the chain's snapshot. sink counts the result rows; ckp,
// when the run takes checkpoints, and budget, the job's kept rows, may be
// nil.
func (p *chain) progress(start time.Time, sink *WriterSink, ckp *checkpointer, budget *rowstore.Budget) Progress {
	src := p.reader.Stats()
	pr := Progress{RowsRead: src.Rows, BadRowsSkipped: src.Skipped, Watermark: rowtime.MinWatermark, Elapsed: time.Since(start)}
	if sink != nil {
		pr.ResultRows = sink.Rows()
	}
	if a := p.assigner; a != nil {
		pr.Watermark = a.Watermark()
		for i := range a.wm.NumSplits() {
			pr.Splits = append(pr.Splits, SplitProgress{Split: i, Watermark: a.wm.Split(i), Idle: a.wm.Idle(i)})
		}
	}
	for _, w := range p.windows {
		pr.LateRowsDropped += w.stats().LateRowsDropped
		for s := w; s != nil; s = innerStage(s) {
			if m, ok := s.(interface{ StateBytes() int64 }); ok {
				pr.StateBytes += m.StateBytes()
				pr.HasStateBytes = true
			}
		}
	}
	if budget != nil {
		if kept := budget.InMemory(); kept > 0 {
			pr.StateBytes += kept
			pr.HasStateBytes = true
		}
	}
	for s := p.windows[len(p.windows)-1]; s != nil; s = innerStage(s) {
		if o, ok := s.(interface{ OpenWindows() int }); ok {
			if _, wrapper := s.(interface{ unwrap() windowStage }); !wrapper {
				pr.OpenWindows, pr.HasOpenWindows = o.OpenWindows(), true
				break
			}
		}
	}
	if l, ok := p.reader.(SplitLagReporter); ok {
		pr.Lags = l.SplitLags()
	}
	if ckp != nil && ckp.done.ID > 0 {
		done := ckp.done
		pr.Checkpoint = &done
	}
	return pr
}

// innerStage is the stage a wrapping window stage (ORDER BY and LIMIT,
// grouping sets, a rank) runs inside, or nil.
func innerStage(s windowStage) windowStage {
	if w, ok := s.(interface{ unwrap() windowStage }); ok {
		return w.unwrap()
	}
	return nil
}

func (s *orderedStage) unwrap() windowStage { return s.windowStage }
func (s expandedStage) unwrap() windowStage { return s.windowStage }
func (s rankStage) unwrap() windowStage     { return s.windowStage }
