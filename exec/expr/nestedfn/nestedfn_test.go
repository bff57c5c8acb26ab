package nestedfn

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

// listBatch is one column ARRAY<STRING> with rows [a, b], NULL, [], [c],
// sliced from one row earlier so offsets are exercised.
func listBatch(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	b := array.NewListBuilder(mem, arrow.BinaryTypes.String)
	defer b.Release()
	vb := b.ValueBuilder().(*array.StringBuilder)
	b.Append(true)
	vb.Append("skipped")
	b.Append(true)
	vb.AppendValues([]string{"a", "b"}, nil)
	b.AppendNull()
	b.Append(true)
	b.Append(true)
	vb.Append("c")
	full := b.NewArray()
	defer full.Release()
	arr := array.NewSlice(full, 1, 5)
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "tags", Type: arr.DataType(), Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, 4)
}

func evalString(t *testing.T, e expr.Expr, rec arrow.RecordBatch, mem memory.Allocator) string {
	t.Helper()
	out, err := e.Eval(rec, mem)
	require.NoError(t, err)
	defer out.Release()
	return out.String()
}

// TestKernelsOverASlicedList: element access, CARDINALITY, ELEMENT and
// ARRAY_CONTAINS give Flink's values and NULLs, and free what they
// allocate.
func TestKernelsOverASlicedList(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := listBatch(t, mem)
	defer rec.Release()
	col := &expr.ColumnExpr{Index: 0, Name: "tags", Type: rec.Schema().Field(0).Type}
	one := &expr.Literal{Type: arrow.PrimitiveTypes.Int32, Int: 1}
	two := &expr.Literal{Type: arrow.PrimitiveTypes.Int32, Int: 2}
	zero := &expr.Literal{Type: arrow.PrimitiveTypes.Int32, Int: 0}
	require.Equal(t, `["a" (null) (null) "c"]`, evalString(t, &Element{X: col, Index: one}, rec, mem))
	require.Equal(t, `["b" (null) (null) (null)]`, evalString(t, &Element{X: col, Index: two}, rec, mem))
	require.Equal(t, `[(null) (null) (null) (null)]`, evalString(t, &Element{X: col, Index: zero}, rec, mem), "arr[0] is out of range")
	require.Equal(t, `[2 (null) 0 1]`, evalString(t, &Cardinality{X: col}, rec, mem))
	c := &expr.Literal{Type: arrow.BinaryTypes.String, Str: "c"}
	require.Equal(t, `[false (null) false true]`, evalString(t, &Contains{X: col, Needle: c}, rec, mem))
	require.Equal(t, `[0 (null) 0 1]`, evalString(t, &Position{X: col, Needle: c}, rec, mem))
	require.Equal(t, `[["b" "a"] (null) [] ["c"]]`, evalString(t, &Reverse{X: col}, rec, mem))
	_, err := (&Sole{X: col}).Eval(rec, mem)
	require.ErrorContains(t, err, "the array has 2 elements") // Flink: "Throws an exception if array has more than one element"
}

// TestFieldOfNullRows: a field of a NULL row is NULL even where the child
// holds a value.
func TestFieldOfNullRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ib := array.NewInt64Builder(mem)
	defer ib.Release()
	ib.AppendValues([]int64{1, 2, 0}, []bool{true, true, false})
	ids := ib.NewArray()
	defer ids.Release()
	valid := memory.NewBufferBytes([]byte{0b101}) // row 1 is NULL, its child is 2
	arr, err := array.NewStructArrayWithNulls([]arrow.Array{ids}, []string{"id"}, valid, 1, 0)
	require.NoError(t, err)
	defer arr.Release()
	st := arr.DataType()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "u", Type: st, Nullable: true}}, nil), []arrow.Array{arr}, 3)
	defer rec.Release()
	f := &Field{X: &expr.ColumnExpr{Index: 0, Name: "u", Type: st}, Index: 0, Name: "id"}
	require.Equal(t, `[1 (null) (null)]`, evalString(t, f, rec, mem))
}
