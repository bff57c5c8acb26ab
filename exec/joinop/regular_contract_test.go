package joinop

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/rowkind"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
)

// alternating makes a join a single-input operator for pipelinetest: the
// batches go to the left and right inputs in turn.
type alternating struct {
	Operator
	calls int
}

func (a *alternating) ProcessBatch(b pipeline.Batch) error {
	a.calls++
	return a.ProcessInput((a.calls-1)%2, b)
}

// A FULL OUTER join of update streams (a residual condition, padded rows
// from the kept rows and the batch) keeps the operator contract:
// ownership of batches, watermarks in order, errors, Close, memory.
func TestRegularJoinKeepsOperatorContract(t *testing.T) {
	s := shape{update: [2]bool{true, true}, residual: 2}
	cfg := s.config(FullOuter)
	pipelinetest.TestOperator(t, pipelinetest.Harness{
		New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
			op, err := New(cfg, mem, next)
			if err != nil {
				return nil, err
			}
			return &alternating{Operator: op}, nil
		},
		Input: func(mem memory.Allocator) []pipelinetest.Step {
			l := func(kind rowkind.Kind, k, v int64) event { return event{kind: kind, row: row{k: k, v: v}} }
			return []pipelinetest.Step{
				pipelinetest.BatchStep(regularBatchOf(mem, cfg.Left, []event{l(ins, 1, 1), l(ins, 2, 2), l(ins, 1, 3)}), nil),
				pipelinetest.BatchStep(regularBatchOf(mem, cfg.Right, []event{l(ins, 1, 2), l(ins, 3, 3)}), nil),
				pipelinetest.WatermarkStep(10),
				pipelinetest.BatchStep(regularBatchOf(mem, cfg.Left, []event{l(del, 1, 1), l(ua, 3, 1)}), nil),
				pipelinetest.BatchStep(regularBatchOf(mem, cfg.Right, []event{l(ub, 1, 2), l(ua, 1, 4), l(del, 3, 3)}), nil),
				pipelinetest.WatermarkStep(20),
			}
		},
	})
}
