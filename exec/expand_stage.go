package exec

import (
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/windowop"
)

// expandedStage is the window stage after an Expand (exec/expand, which
// buildOn puts before it): it saw each row once per grouping set, and
// every copy of a row is late or in no window as the row is, so its
// per-row counters divided by the sets count the rows themselves.
type expandedStage struct {
	windowStage
	sets int64
}

// expandedStage builds the job's window stage as if it had no Expand,
// and counts its rows as the Expand's input rows.
func (j *Job) expandedStage(mem memory.Allocator, sink pipeline.Operator, restoring bool) (windowStage, error) {
	inner := *j
	inner.Expand = nil
	w, err := inner.windowStage(mem, sink, restoring)
	if err != nil {
		return nil, err
	}
	return expandedStage{windowStage: w, sets: int64(len(j.Expand.Sets))}, nil
}

func (s expandedStage) stats() windowop.Stats {
	st := s.windowStage.stats()
	st.RowsIn /= s.sets
	st.LateRowsDropped /= s.sets
	st.LateForWindow /= s.sets
	st.NoWindowRows /= s.sets
	for i := range st.Lateness.Buckets {
		st.Lateness.Buckets[i] /= s.sets
	}
	return st
}

// drain, saveState and restoreState are the inner stage's: the Expand
// keeps no state.
func (s expandedStage) drain() error {
	if d, ok := s.windowStage.(interface{ drain() error }); ok {
		return d.drain()
	}
	return nil
}

func (s expandedStage) saveState(e *checkpoint.Encoder) error {
	return s.windowStage.(stateStage).saveState(e)
}

func (s expandedStage) restoreState(d *checkpoint.Decoder) error {
	return s.windowStage.(stateStage).restoreState(d)
}
