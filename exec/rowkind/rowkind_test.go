package rowkind

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/windowop"
)

func TestKindStringsParseAndScan(t *testing.T) {
	for _, k := range []Kind{Insert, UpdateBefore, UpdateAfter, Delete} {
		p, ok := Parse(k.String())
		require.True(t, ok)
		require.Equal(t, k, p)
		var scanned Kind
		require.NoError(t, scanned.Scan(k.String()))
		require.Equal(t, k, scanned)
		require.NoError(t, scanned.Scan([]byte(k.String())))
		require.Equal(t, k, scanned)
	}
	require.Equal(t, []string{"+I", "-U", "+U", "-D"},
		[]string{Insert.String(), UpdateBefore.String(), UpdateAfter.String(), Delete.String()})
	require.True(t, UpdateBefore.IsRetraction())
	require.True(t, Delete.IsRetraction())
	require.False(t, UpdateAfter.IsRetraction())
	var k Kind
	require.EqualError(t, k.Scan("x"), `"x" is not a row kind (+I, -U, +U or -D)`)
	require.EqualError(t, k.Scan(int64(1)), "a row kind is the text +I, -U, +U or -D, not int64")
}

func TestColumnOfUpdateStreamAndAppendOnlyBatches(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	ops := array.NewStringBuilder(mem)
	ops.AppendValues([]string{"+I", "-U", "+U", "-D"}, nil)
	opArr := ops.NewArray()
	ops.Release()
	defer opArr.Release()
	n := array.NewInt64Builder(mem)
	n.AppendValues([]int64{1, 1, 2, 2}, nil)
	nArr := n.NewArray()
	n.Release()
	defer nArr.Release()

	updates := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{windowop.RowKindField(), {Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil),
		[]arrow.Array{opArr, nArr}, 4)
	defer updates.Release()
	col := Of(updates)
	require.Equal(t, []Kind{Insert, UpdateBefore, UpdateAfter, Delete}, []Kind{col.At(0), col.At(1), col.At(2), col.At(3)})

	// a column named op without the marker is data, not kinds
	plain := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "op", Type: arrow.BinaryTypes.String}, {Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil),
		[]arrow.Array{opArr, nArr}, 4)
	defer plain.Release()
	require.False(t, IsUpdateStream(plain.Schema()))
	require.Equal(t, Delete, col.At(3))
	require.Equal(t, Insert, Of(plain).At(3))
}
