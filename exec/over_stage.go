package exec

import (
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/overop"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/windowop"
)

// overStage is an OVER aggregation (exec/overop) where the window
// operator would be. It runs on one goroutine: its rows come out in time
// order.
type overStage struct{ *overop.Over }

func (j *Job) overStage(mem memory.Allocator, next pipeline.Operator) (windowStage, error) {
	cfg := *j.Over
	cfg.StateTTL, cfg.Clock = j.StateTTL, j.Clock
	op, err := overop.New(cfg, mem, next)
	if err != nil {
		return nil, err
	}
	return overStage{op}, nil
}

func (s overStage) stats() windowop.Stats {
	st := s.Stats()
	return windowop.Stats{RowsIn: st.RowsIn, ResultRows: st.ResultRows, LateRowsDropped: st.LateRowsDropped, StateExpired: st.StateExpired, Lateness: st.Lateness}
}

func (s overStage) saveState(e *checkpoint.Encoder) error { return s.SnapshotState(e) }

func (s overStage) restoreState(d *checkpoint.Decoder) error { return s.RestoreState(d) }

var _ stateStage = overStage{}
