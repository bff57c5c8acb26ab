package windowop

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
)

// The STRING key column is built in one pass (stringKeys.column): NULL
// and empty keys come out as they went in, batch after batch.
func TestGroupOperatorStringKeysNullAndEmpty(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	rec := &recorder{}
	op, err := NewGroupOperator(GroupConfig{Input: schema, KeyIndexes: []int{0},
		Aggs: []AggSpec{{Kind: Sum, Input: 1, Name: "s"}}}, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	for _, keys := range [][]*string{{ptr("a"), nil, ptr("")}, {nil, ptr("a"), ptr("")}, {ptr("bb"), ptr("")}} {
		b := array.NewRecordBuilder(mem, schema)
		for i, k := range keys {
			if k == nil {
				b.Field(0).AppendNull()
			} else {
				b.Field(0).(*array.StringBuilder).Append(*k)
			}
			b.Field(1).(*array.Int64Builder).Append(int64(i + 1))
		}
		in := b.NewRecordBatch()
		b.Release()
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in}))
		in.Release()
	}
	require.Equal(t, []string{
		"row +I a 1", "row +I NULL 2", "row +I  3",
		"row -U NULL 2", "row +U NULL 3",
		"row -U a 1", "row +U a 3",
		"row -U  3", "row +U  6",
		"row +I bb 1",
		"row -U  6", "row +U  8",
	}, rec.rows())
}

func ptr(s string) *string { return &s }
