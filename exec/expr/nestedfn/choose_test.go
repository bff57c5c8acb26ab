package nestedfn

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

// TestChooseOverASlicedList: CASE and COALESCE over ARRAY values take each
// row's whole value from its branch, NULL where no branch is taken, and
// free what they allocate.
func TestChooseOverASlicedList(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := listBatch(t, mem) // [a, b], NULL, [], [c]
	defer rec.Release()
	dt := rec.Schema().Field(0).Type.(*arrow.ListType)
	col := &expr.ColumnExpr{Index: 0, Name: "tags", Type: dt}
	xy := &ArrayOf{Elems: []expr.Expr{str("x"), str("y")}, Type: dt}
	coalesce := &expr.Coalesce{Args: []expr.Expr{col, xy}, Type: dt}
	require.Equal(t, `[["a" "b"] ["x" "y"] [] ["c"]]`, evalString(t, coalesce, rec, mem))
	notNull := &expr.IsNull{X: col, Not: true}
	withElse := &expr.Case{Whens: []expr.Expr{notNull}, Thens: []expr.Expr{&Reverse{X: col}}, Else: xy, Type: dt}
	require.Equal(t, `[["b" "a"] ["x" "y"] [] ["c"]]`, evalString(t, withElse, rec, mem))
	noElse := &expr.Case{Whens: []expr.Expr{&Equal{L: col, R: xy, Not: true}}, Thens: []expr.Expr{xy}, Type: dt}
	require.Equal(t, `[["x" "y"] (null) ["x" "y"] ["x" "y"]]`, evalString(t, noElse, rec, mem))
}

// TestChooseOverSlicedRows: Choose picks ROW values from sliced struct
// arrays, a NULL row where choice is -1.
func TestChooseOverSlicedRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dt := arrow.StructOf(arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true})
	rows := func(ids []int64, ss []string) arrow.Array {
		b := array.NewStructBuilder(mem, dt)
		defer b.Release()
		for i := range ids {
			b.Append(true)
			b.FieldBuilder(0).(*array.Int64Builder).Append(ids[i])
			b.FieldBuilder(1).(*array.StringBuilder).Append(ss[i])
		}
		full := b.NewArray()
		defer full.Release()
		return array.NewSlice(full, 1, int64(len(ids)))
	}
	a := rows([]int64{0, 1, 2, 3}, []string{"skipped", "a1", "a2", "a3"})
	defer a.Release()
	b := rows([]int64{0, 10, 20, 30}, []string{"skipped", "b1", "b2", "b3"})
	defer b.Release()
	out, err := Choose(dt, 3, []int32{1, -1, 0}, []arrow.Array{a, b}, mem)
	require.NoError(t, err)
	defer out.Release()
	require.Equal(t, `{[10 (null) 3] ["b1" (null) "a3"]}`, out.String())
	require.True(t, out.IsNull(1))
}
