package joinop

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
)

// sideRouter makes a join a one-input operator for pipelinetest: a batch
// of the left schema goes to the left input, any other to the right.
type sideRouter struct {
	Operator
	left string
}

func (r sideRouter) ProcessBatch(b pipeline.Batch) error {
	if b.Record.Schema().Field(0).Name == r.left {
		return r.ProcessInput(0, b)
	}
	return r.ProcessInput(1, b)
}

// TestTimeJoinsKeepTheOperatorContract runs pipelinetest over both joins
// of every kind: ownership, order, end, errors, Close and memory.
func TestTimeJoinsKeepTheOperatorContract(t *testing.T) {
	input := func(cfg Config, events []tjEvent) func(memory.Allocator) []pipelinetest.Step {
		return func(mem memory.Allocator) []pipelinetest.Step {
			var steps []pipelinetest.Step
			for _, e := range events {
				if e.row == nil {
					steps = append(steps, pipelinetest.WatermarkStep(e.wm))
					continue
				}
				schema := cfg.Left
				if e.row.side == 1 {
					schema = cfg.Right
				}
				b := batchOfRows(mem, schema, []*tjRow{e.row})
				steps = append(steps, pipelinetest.BatchStep(b.Record, b.Watermarks))
			}
			return steps
		}
	}
	rnd := rand.New(rand.NewPCG(5, 6))
	for kind := range 6 {
		cfgs := []Config{windowConfig(Kind(kind), true)}
		if kind < 4 {
			cfgs = append(cfgs, intervalConfig(Kind(kind), -2, 3, true))
		}
		for _, cfg := range cfgs {
			var events []tjEvent
			name := "window/" + Kind(kind).String()
			if cfg.Interval != nil {
				events = intervalStream(rnd, 30, true)
				name = "interval/" + Kind(kind).String()
			} else {
				events = windowStream(rnd, 30, true)
			}
			// the harness adds its own stale watermarks; it wants the
			// sample's to advance
			var steps []tjEvent
			last := int64(-1 << 62)
			for _, e := range events {
				if e.row == nil {
					if e.wm <= last {
						continue
					}
					last = e.wm
				}
				steps = append(steps, e)
			}
			t.Run(name, func(t *testing.T) {
				pipelinetest.TestOperator(t, pipelinetest.Harness{
					New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
						op, err := New(cfg, mem, next)
						if err != nil {
							return nil, err
						}
						return sideRouter{Operator: op, left: cfg.Left.Field(0).Name}, nil
					},
					Input: input(cfg, steps),
				})
			})
		}
	}
}
