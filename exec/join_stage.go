package exec

import (
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/joinop"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/windowop"
)

// joinStage is a join (exec/joinop) where a union's merge would feed its
// projection: the merge hands it each input's rows, in the merge's one
// order, and it sends the joined rows on to the job's stages. It is one of
// the chain's stateful stages, so its state is in every checkpoint.
type joinStage struct {
	joinop.Operator
}

// joinStage builds the job's join, sending its rows to next.
func (j *Job) joinStage(mem memory.Allocator, next pipeline.Operator) (*joinStage, error) {
	cfg := *j.Join
	cfg.StateTTL, cfg.Clock = j.StateTTL, j.Clock
	op, err := joinop.New(cfg, mem, next)
	if err != nil {
		return nil, err
	}
	return &joinStage{op}, nil
}

// stats counts the join's input rows, its results, and the rows it
// dropped as late or expired.
func (s *joinStage) stats() windowop.Stats {
	st := s.Stats()
	return windowop.Stats{RowsIn: st.RowsIn, ResultRows: st.ResultRows, LateRowsDropped: st.LateRows, StateExpired: st.ExpiredRows}
}

func (s *joinStage) saveState(e *checkpoint.Encoder) error    { return s.SnapshotState(e) }
func (s *joinStage) restoreState(d *checkpoint.Decoder) error { return s.RestoreState(d) }

var _ stateStage = (*joinStage)(nil)
