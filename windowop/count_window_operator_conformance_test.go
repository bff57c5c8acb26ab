package windowop

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
)

func TestCountWindowOperatorConformance(t *testing.T) {
	cases := map[string]CountConfig{
		"tumbling":        {Input: confSchema, KeyIndexes: []int{1}, Size: 2, Aggs: confAggs},
		"sliding":         {Input: confSchema, KeyIndexes: []int{1}, Size: 3, Slide: 1, Aggs: confAggs},
		"global, no keys": {Input: confSchema, Size: 3, Aggs: confAggs},
	}
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			pipelinetest.TestOperator(t, pipelinetest.Harness{
				New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
					return NewCountWindowOperator(cfg, mem, next)
				},
				Input: confInput,
			})
		})
	}
}
