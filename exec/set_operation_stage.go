package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/setop"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/windowop"
)

// setOpStage is a window stage (the projection of both queries' tagged
// rows) followed by INTERSECT or EXCEPT (exec/setop).
type setOpStage struct {
	windowStage
	op *setop.Operator
}

// setOpStage builds the set operation and the stage before it.
func (j *Job) setOpStage(mem memory.Allocator, sink pipeline.Operator, restoring bool) (windowStage, error) {
	op, err := setop.New(*j.SetOp, mem, sink)
	if err != nil {
		return nil, err
	}
	inner, err := j.aggregateStage(mem, op, restoring)
	if err != nil {
		op.Close()
		return nil, err
	}
	return setOpStage{windowStage: inner, op: op}, nil
}

// stats counts the set operation's rows as the result rows.
func (s setOpStage) stats() windowop.Stats {
	st := s.windowStage.stats()
	st.ResultRows = s.op.Stats().ResultRows
	return st
}

func (s setOpStage) Close() {
	s.windowStage.Close()
	s.op.Close()
}

func (s setOpStage) saveState(e *checkpoint.Encoder) error {
	inner, ok := s.windowStage.(stateStage)
	if !ok {
		return fmt.Errorf("%w: this query's stages keep no checkpoint", ErrCheckpointUnsupported)
	}
	if err := inner.saveState(e); err != nil {
		return err
	}
	return s.op.SnapshotState(e)
}

func (s setOpStage) restoreState(d *checkpoint.Decoder) error {
	inner, ok := s.windowStage.(stateStage)
	if !ok {
		return fmt.Errorf("%w: this query's stages keep no checkpoint", ErrCheckpointUnsupported)
	}
	if err := inner.restoreState(d); err != nil {
		return err
	}
	return s.op.RestoreState(d)
}

var _ stateStage = setOpStage{}
