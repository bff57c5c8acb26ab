package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// TO_TIMESTAMP_LTZ(ms, 3) over a BIGINT shares its buffers: the values,
// nulls and slice offset come through unchanged.
func TestToTimestampLTZMillisSharesBuffers(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewInt64Builder(mem)
	b.AppendValues([]int64{-1, 1000, 0, 1709283600123}, []bool{true, true, false, true})
	full := b.NewInt64Array()
	b.Release()
	defer full.Release()
	sliced := array.NewSlice(full, 1, 4)
	defer sliced.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "ms", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{sliced}, 3)
	defer rec.Release()

	f := &ToTimestampLTZ{Arg: &ColumnExpr{Index: 0, Name: "ms", Type: arrow.PrimitiveTypes.Int64}, Precision: 3}
	got, err := f.Eval(rec, mem)
	require.NoError(t, err)
	defer got.Release()
	ts := got.(*array.Timestamp)
	require.Equal(t, timestampLTZMillis, ts.DataType())
	require.Equal(t, 3, ts.Len())
	require.Equal(t, 1, ts.NullN())
	require.Equal(t, arrow.Timestamp(1000), ts.Value(0))
	require.True(t, ts.IsNull(1))
	require.Equal(t, arrow.Timestamp(1709283600123), ts.Value(2))
}
