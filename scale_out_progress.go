package wsql

import (
	"slices"
	"sync"
	"time"

	"github.com/wsql/wsql/exec/scaleout"
	"github.com/wsql/wsql/rowtime"
)

// scaledProgress makes the snapshots of a scaled-out query's runs, one
// per partition, into the query's: counts summed over every run this
// instance made (those of runs that ended kept, so a counter never goes
// down when the group moves a partition away), the watermark the least
// of the running ones', their splits and consumer lags side by side.
type scaledProgress struct {
	mu      sync.Mutex
	report  func(Progress)
	start   time.Time
	running map[scaleout.GroupPartition]Progress
	ended   Progress // the counts of the runs that ended
}

func newScaledProgress(report func(Progress)) *scaledProgress {
	return &scaledProgress{report: report, start: time.Now(), running: map[scaleout.GroupPartition]Progress{}}
}

// of is the progress function of the run of partition gp.
func (s *scaledProgress) of(gp scaleout.GroupPartition) func(Progress) {
	return func(p Progress) {
		if p.Err != nil {
			return // a run's end; the query's error, if any, is reported at its end
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.running[gp] = p
		s.report(s.merged())
	}
}

// ended keeps the counts of partition gp's run, which ended.
func (s *scaledProgress) endRun(gp scaleout.GroupPartition) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.running[gp]; ok {
		addCounts(&s.ended, &p)
		delete(s.running, gp)
	}
}

// finish reports the query's end: err, nil when it was stopped.
func (s *scaledProgress) finish(err error) {
	if err == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.report(Progress{Watermark: rowtime.MinWatermark, Err: err})
}

func addCounts(to, p *Progress) {
	to.RowsRead += p.RowsRead
	to.ResultRows += p.ResultRows
	to.BadRowsSkipped += p.BadRowsSkipped
	to.LateRowsDropped += p.LateRowsDropped
}

func (s *scaledProgress) merged() Progress {
	out := s.ended
	out.Splits, out.Lags, out.Checkpoint = nil, nil, nil
	out.Watermark, out.Elapsed = rowtime.MinWatermark, time.Since(s.start)
	parts := make([]scaleout.GroupPartition, 0, len(s.running))
	for gp := range s.running {
		parts = append(parts, gp)
	}
	slices.SortFunc(parts, func(a, b scaleout.GroupPartition) int {
		if a.Topic != b.Topic {
			return map[bool]int{true: -1, false: 1}[a.Topic < b.Topic]
		}
		return int(a.Partition - b.Partition)
	})
	for i, gp := range parts {
		p := s.running[gp]
		addCounts(&out, &p)
		if i == 0 || p.Watermark < out.Watermark {
			out.Watermark = p.Watermark
		}
		out.OpenWindows += p.OpenWindows
		out.HasOpenWindows = out.HasOpenWindows || p.HasOpenWindows
		out.StateBytes += p.StateBytes
		out.HasStateBytes = out.HasStateBytes || p.HasStateBytes
		for _, sp := range p.Splits {
			sp.Split = len(out.Splits)
			out.Splits = append(out.Splits, sp)
		}
		out.Lags = append(out.Lags, p.Lags...)
		if c := p.Checkpoint; c != nil && (out.Checkpoint == nil || c.Done.After(out.Checkpoint.Done)) {
			out.Checkpoint = c
		}
	}
	return out
}
