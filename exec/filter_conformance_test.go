package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
)

func TestFilterConformance(t *testing.T) {
	// v > 2 keeps some rows of the first batch, all of the last and
	// (v > 100) none at all.
	for name, bound := range map[string]int64{"some rows": 2, "no rows": 100, "all rows": 0} {
		t.Run(name, func(t *testing.T) {
			cond := &expr.Compare{Op: ">", L: conformanceColumn(2), R: &expr.Literal{Type: arrow.PrimitiveTypes.Int64, Int: bound}}
			pipelinetest.TestOperator(t, pipelinetest.Harness{
				New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
					return NewFilter(cond, mem, next)
				},
				Input: conformanceInput(true),
			})
		})
	}
}
