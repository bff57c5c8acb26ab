package windowop

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
)

func TestWindowOperatorConformance(t *testing.T) {
	session, err := NewSession(1000)
	if err != nil {
		t.Fatal(err)
	}
	hop, err := NewHop(1000, 3000, 0)
	if err != nil {
		t.Fatal(err)
	}
	cumulate, err := NewCumulate(1000, 4000, 0)
	if err != nil {
		t.Fatal(err)
	}
	base := Config{Input: confSchema, RowtimeIndex: 0, KeyIndexes: []int{1}, GapIndex: -1, Aggs: confAggs}
	with := func(f func(*Config)) Config {
		c := base
		f(&c)
		return c
	}
	cases := map[string]Config{
		"pane mode, tumble":   with(func(c *Config) { c.Assigner = &Tumble{Size: 2000} }),
		"pane mode, hop":      with(func(c *Config) { c.Assigner = hop }),
		"pane mode, cumulate": with(func(c *Config) { c.Assigner = cumulate }),
		"pane mode, no keys":  with(func(c *Config) { c.Assigner = &Tumble{Size: 2000}; c.KeyIndexes = nil }),
		"pane mode, early fire on every row": with(func(c *Config) {
			c.Assigner = &Tumble{Size: 2000}
			c.Emit = EmitStrategy{EarlyFire: true}
		}),
		"session mode": with(func(c *Config) { c.Assigner = session }),
	}
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			schema, err := cfg.OutputSchema()
			if err != nil {
				t.Fatal(err)
			}
			windowTime := schema.FieldIndices(ColWindowTime)[0]
			pipelinetest.TestOperator(t, pipelinetest.Harness{
				New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
					return NewWindowOperator(cfg, mem, next)
				},
				Input:        confInput,
				FailingInput: confFailingInput,
				ResultTime: func(rec arrow.RecordBatch, row int) int64 {
					return int64(rec.Column(windowTime).(*array.Timestamp).Value(row))
				},
			})
		})
	}
}
