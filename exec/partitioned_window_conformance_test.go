package exec

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
	"github.com/wsql/wsql/windowop"
)

func TestPartitionedWindowConformance(t *testing.T) {
	cfg := windowop.Config{
		Input: conformanceSchema, RowtimeIndex: 0, KeyIndexes: []int{1}, GapIndex: -1,
		Assigner: &windowop.Tumble{Size: 2000},
		Aggs: []windowop.AggSpec{
			{Kind: windowop.CountStar, Name: "n"},
			{Kind: windowop.Sum, Input: 2, Name: "total"},
		},
	}
	schema, err := cfg.OutputSchema()
	if err != nil {
		t.Fatal(err)
	}
	windowTime := schema.FieldIndices(windowop.ColWindowTime)[0]
	for _, n := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d partitions", n), func(t *testing.T) { testPartitionedWindowConformance(t, cfg, n, windowTime) })
	}
}

func testPartitionedWindowConformance(t *testing.T, cfg windowop.Config, n, windowTime int) {
	pipelinetest.TestOperator(t, pipelinetest.Harness{
		New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
			return newPartitionedWindow(cfg, n, mem, next)
		},
		Input: conformanceInput(true),
		ResultTime: func(rec arrow.RecordBatch, row int) int64 {
			return int64(rec.Column(windowTime).(*array.Timestamp).Value(row))
		},
	})
}
