package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
)

func TestProjectConformance(t *testing.T) {
	picks := ProjectSpec{Columns: []int{2, 1}, Schema: arrow.NewSchema([]arrow.Field{
		conformanceSchema.Field(2), conformanceSchema.Field(1),
	}, nil)}
	exprs := ProjectSpec{
		Exprs: []expr.Expr{conformanceColumn(1), &expr.Compare{Op: ">", L: conformanceColumn(2), R: &expr.Literal{Type: arrow.PrimitiveTypes.Int64, Int: 2}}},
		Schema: arrow.NewSchema([]arrow.Field{
			conformanceSchema.Field(1), {Name: "big", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		}, nil),
	}
	for name, spec := range map[string]ProjectSpec{"picked columns": picks, "computed columns": exprs} {
		t.Run(name, func(t *testing.T) {
			pipelinetest.TestOperator(t, pipelinetest.Harness{
				New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
					return NewProject(spec, conformanceSchema, mem, next)
				},
				Input: conformanceInput(true),
			})
		})
	}
}
