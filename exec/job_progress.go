package exec

import (
	"time"

	"github.com/wsql/wsql/exec/progress"
	"github.com/wsql/wsql/exec/rowstore"
	"github.com/wsql/wsql/rowtime"
)

// Progress is a snapshot of a running job (exec/progress).
type Progress = progress.Snapshot

// progress is the chain's snapshot. sink counts the result rows; ckp,
// when the run takes checkpoints, and budget, the job's kept rows, may be
// nil.
func (p *chain) progress(start time.Time, sink *WriterSink, ckp *checkpointer, budget *rowstore.Budget) Progress {
	// bad rows as the summary counts them; rows read as the source does
	pr := Progress{RowsRead: p.reader.Stats().Rows, BadRowsSkipped: p.sourceStats().Skipped, Watermark: rowtime.MinWatermark, Elapsed: time.Since(start)}
	if sink != nil {
		pr.ResultRows = sink.Rows()
	}
	if a := p.assigner; a != nil {
		pr.Watermark = a.Watermark()
		for i := range a.wm.NumSplits() {
			pr.Splits = append(pr.Splits, progress.Split{Split: i, Watermark: a.wm.Split(i), Idle: a.wm.Idle(i)})
		}
	}
	if u := unionOf(p.reader); u != nil && p.assigner == nil && u.merge != nil && u.merge.timed {
		pr.Watermark = u.merge.forwarded // a UNION ALL's: the minimum over its inputs
	}
	for _, w := range p.windows {
		pr.LateRowsDropped += w.stats().LateRowsDropped
		for s := w; s != nil; s = innerStage(s) {
			if m, ok := s.(interface{ StateBytes() int64 }); ok {
				pr.StateBytes, pr.HasStateBytes = pr.StateBytes+m.StateBytes(), true
			}
		}
	}
	if budget != nil && budget.InMemory() > 0 {
		pr.StateBytes, pr.HasStateBytes = pr.StateBytes+budget.InMemory(), true
	}
	// the innermost window operator's (inside the stages wrapping it), past
	// stages without one (a union's inputs)
	for i := len(p.windows) - 1; i >= 0 && !pr.HasOpenWindows; i-- {
		for s := p.windows[i]; s != nil && !pr.HasOpenWindows; s = innerStage(s) {
			if o, ok := s.(interface{ OpenWindows() int }); ok {
				pr.OpenWindows, pr.HasOpenWindows = o.OpenWindows(), true
			}
		}
	}
	if l, ok := p.reader.(progress.LagReporter); ok {
		pr.Lags = l.SplitLags()
	}
	if ckp != nil && ckp.done.ID > 0 {
		done := ckp.done
		pr.Checkpoint = &done
	}
	return pr
}

// reportEnd gives progress, if set, a last snapshot holding only the
// error the run ended with (Progress.Err), whatever the point it failed.
func reportEnd(progress func(Progress), err *error) {
	if *err != nil && progress != nil {
		progress(Progress{Watermark: rowtime.MinWatermark, Err: *err})
	}
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
