package datagen

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/generator/generatortest"
)

// BenchmarkDatagen is the reader of `wsql bench`'s datagen table alone: a
// BIGINT sequence, a random INT key in [1, 1000] and a random DOUBLE in
// [0, 1000], 1M rows per iteration.
func BenchmarkDatagen(b *testing.B) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "ms", Type: arrow.PrimitiveTypes.Int64},
		{Name: "k", Type: arrow.PrimitiveTypes.Int32},
		{Name: "v", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	g := &Source{NumberOfRows: 1_000_000, Seed: 1, Fields: []Field{
		{Name: "ms", Sequence: true, Start: 1_709_280_000_000, End: 1_709_280_000_000 + 999_999},
		{Name: "k", Min: 1, Max: 1000},
		{Name: "v", MinF: 0, MaxF: 1000},
	}}
	generatortest.Bench(b, func() (exec.BatchReader, error) {
		return g.Open(memory.NewGoAllocator(), schema, exec.DefaultBatchSize)
	})
}

// BenchmarkDatagenAllTypes is every column type of the tests' schema.
func BenchmarkDatagenAllTypes(b *testing.B) {
	g := newDatagen(7, 200_000)
	generatortest.Bench(b, func() (exec.BatchReader, error) {
		return g.Open(memory.NewGoAllocator(), datagenSchema, exec.DefaultBatchSize)
	})
}
