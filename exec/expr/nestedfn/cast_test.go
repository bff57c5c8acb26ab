package nestedfn

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

// A nested CAST converts only the elements of the rows it is given: the
// "skipped" element before a sliced batch, which would not read as an
// INT, is not converted; NULL rows and empty arrays stay.
func TestCastConvertsTheElementsOfASlicedBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewListBuilder(mem, arrow.BinaryTypes.String)
	defer b.Release()
	vb := b.ValueBuilder().(*array.StringBuilder)
	b.Append(true)
	vb.Append("skipped")
	b.Append(true)
	vb.AppendValues([]string{"1", "2"}, nil)
	b.AppendNull()
	b.Append(true)
	b.Append(true)
	vb.AppendValues([]string{"3", ""}, []bool{true, false})
	full := b.NewArray()
	defer full.Release()
	arr := array.NewSlice(full, 1, 5)
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arr.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, 4)
	defer rec.Release()

	to := arrow.ListOf(arrow.PrimitiveTypes.Int32)
	elem := &expr.Cast{X: &expr.ColumnExpr{Index: 0, Name: "element", Type: arrow.BinaryTypes.String}, To: arrow.PrimitiveTypes.Int32}
	c := &Cast{X: &expr.ColumnExpr{Index: 0, Name: "a", Type: arr.DataType()}, To: to, Elems: []expr.Expr{elem}}
	out, err := c.Eval(rec, mem)
	require.NoError(t, err)
	defer out.Release()
	require.True(t, arrow.TypeEqual(to, out.DataType()))
	require.NoError(t, out.(*array.List).ValidateFull())
	require.Equal(t, "[[1 2] (null) [] [3 (null)]]", out.String())
}
