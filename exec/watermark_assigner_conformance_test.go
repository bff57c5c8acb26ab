package exec

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
	"github.com/wsql/wsql/rowtime"
)

func TestWatermarkAssignerConformance(t *testing.T) {
	newAssigner := func(next pipeline.Operator) *WatermarkAssigner {
		clock := rowtime.NewManualClock(time.UnixMilli(0))
		return NewWatermarkAssigner(0, rowtime.NewCombinedWatermark(1, 1000, 0, clock), next)
	}
	t.Run("rowtime column", func(t *testing.T) {
		pipelinetest.TestOperator(t, pipelinetest.Harness{
			New: func(_ memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
				return newAssigner(next), nil
			},
			Input: conformanceInput(false),
		})
	})
	// rows beyond 'scan.watermark.max-future' are dropped: the assigner
	// forwards a batch of its own
	t.Run("max future", func(t *testing.T) {
		pipelinetest.TestOperator(t, pipelinetest.Harness{
			New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
				a := newAssigner(next)
				a.future = &futureFilter{spec: MaxFuture{Bound: time.Second, Table: "t", Column: "ts"}, bound: 1000, mem: mem}
				return a, nil
			},
			Input: conformanceInput(false),
		})
	})
}
