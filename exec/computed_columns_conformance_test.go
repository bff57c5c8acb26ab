package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
)

func TestComputedColumnsConformance(t *testing.T) {
	toTS, err := expr.NewToTimestamp(conformanceColumn(3), expr.DefaultTimestampFormat)
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema(append(conformanceSchema.Fields(), arrow.Field{Name: "rt", Type: toTS.DataType(), Nullable: true}), nil)
	spec := func(rowtime, skip bool) ComputedSpec {
		s := ComputedSpec{Exprs: []expr.Expr{toTS}, Schema: schema, RowtimeIndex: -1, SkipBadRows: skip, Table: "t"}
		if rowtime {
			s.RowtimeIndex = 4
		}
		return s
	}
	harness := func(s ComputedSpec, rowWatermarks bool) pipelinetest.Harness {
		return pipelinetest.Harness{
			New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
				return NewComputedColumns(s, mem, next), nil
			},
			Input: conformanceInput(rowWatermarks),
		}
	}
	// after the assigner (aggregate arguments): per-row watermarks pass on
	t.Run("after the watermark assigner", func(t *testing.T) {
		pipelinetest.TestOperator(t, harness(spec(false, false), true))
	})
	// a table's computed rowtime, rows whose rowtime is NULL skipped
	t.Run("rowtime, bad rows skipped", func(t *testing.T) {
		pipelinetest.TestOperator(t, harness(spec(true, true), false))
	})
	// a NULL rowtime is an error: the rows before it pass on first
	t.Run("rowtime, bad row an error", func(t *testing.T) {
		h := harness(spec(true, false), false)
		h.Input = func(mem memory.Allocator) []pipelinetest.Step {
			return []pipelinetest.Step{
				pipelinetest.BatchStep(conformanceBatch(mem, conformanceSteps[2].rows), nil),
				pipelinetest.WatermarkStep(5100),
			}
		}
		h.FailingInput = conformanceInput(false)
		pipelinetest.TestOperator(t, h)
	})
}
