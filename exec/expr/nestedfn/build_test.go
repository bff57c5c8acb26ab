package nestedfn

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

var (
	stringList = arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.BinaryTypes.String, Nullable: true})
	strMap     = func() *arrow.MapType {
		m := arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String)
		m.SetItemNullable(true)
		return m
	}()
)

func str(s string) *expr.Literal { return &expr.Literal{Type: arrow.BinaryTypes.String, Str: s} }

func i64(v int64) *expr.Literal { return &expr.Literal{Type: arrow.PrimitiveTypes.Int64, Int: v} }

func boolean(b bool) *expr.Literal {
	l := &expr.Literal{Type: arrow.FixedWidthTypes.Boolean}
	if b {
		l.Int = 1
	}
	return l
}

// TestBuildingKernelsOverASlicedList: the kernels that build arrays and
// maps give Flink's values over a list sliced from one row in (rows [a,
// b], NULL, [], [c]) and free all they allocate.
func TestBuildingKernelsOverASlicedList(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := listBatch(t, mem)
	defer rec.Release()
	col := &expr.ColumnExpr{Index: 0, Name: "tags", Type: rec.Schema().Field(0).Type}
	null := expr.NullLiteral(arrow.BinaryTypes.String)
	cases := []struct {
		e    expr.Expr
		want string
	}{
		{&ArrayOf{Elems: []expr.Expr{str("x"), null}, Type: stringList}, `[["x" (null)] ["x" (null)] ["x" (null)] ["x" (null)]]`},
		{&Append{X: col, Elem: str("z")}, `[["a" "b" "z"] (null) ["z"] ["c" "z"]]`},
		{&Append{X: col, Elem: null, Front: true}, `[[(null) "a" "b"] (null) [(null)] [(null) "c"]]`},
		{&Concat{Lists: []expr.Expr{col, col}}, `[["a" "b" "a" "b"] (null) [] ["c" "c"]]`},
		{&Slice{X: col, Start: i64(-1)}, `[["b"] (null) [] ["c"]]`},
		{&Slice{X: col, Start: i64(2), End: i64(5)}, `[["b"] (null) [] []]`},
		{&Remove{X: col, Needle: str("a")}, `[["b"] (null) [] ["c"]]`},
		{&Distinct{X: &Concat{Lists: []expr.Expr{col, col}}}, `[["a" "b"] (null) [] ["c"]]`},
		{&SetOf{Op: Union, L: col, R: col}, `[["a" "b"] (null) [] ["c"]]`},
		{&SetOf{Op: Intersect, L: col, R: &ArrayOf{Elems: []expr.Expr{str("b")}, Type: stringList}}, `[["b"] (null) [] []]`},
		{&SetOf{Op: Except, L: col, R: &ArrayOf{Elems: []expr.Expr{str("b")}, Type: stringList}}, `[["a"] (null) [] ["c"]]`},
		{&Sort{X: col, Ascending: boolean(false)}, `[["b" "a"] (null) [] ["c"]]`},
		{&Extreme{X: col, Max: true}, `["b" (null) (null) "c"]`},
		{&Extreme{X: col}, `["a" (null) (null) "c"]`},
		{&Join{X: col, Delimiter: str("+")}, `["a+b" (null) "" "c"]`},
		{&Split{X: &Join{X: col, Delimiter: str("+")}, Delimiter: str("+")}, `[["a" "b"] (null) [] ["c"]]`},
		{&MapOf{Keys: []expr.Expr{str("k"), str("k")}, Values: []expr.Expr{str("v"), &Join{X: col, Delimiter: str("")}}, Type: strMap},
			`[{["k"] ["ab"]} {["k"] [(null)]} {["k"] [""]} {["k"] ["c"]}]`},
		{&FromArrays{Keys: col, Values: &Reverse{X: col}, Type: strMap}, `[{["a" "b"] ["b" "a"]} (null) {[] []} {["c"] ["c"]}]`},
		{&MapEntries{X: &FromArrays{Keys: col, Values: col, Type: strMap}}, `[{["a" "b"] ["a" "b"]} (null) {[] []} {["c"] ["c"]}]`}, // Arrow prints a list of structs column-wise,
		{&MapUnion{Maps: []expr.Expr{&FromArrays{Keys: col, Values: col, Type: strMap},
			&MapOf{Keys: []expr.Expr{str("a")}, Values: []expr.Expr{str("z")}, Type: strMap}}}, `[{["a" "b"] ["z" "b"]} (null) {["a"] ["z"]} {["c" "a"] ["c" "z"]}]`},
	}
	for _, c := range cases {
		require.Equal(t, c.want, evalString(t, c.e, rec, mem), c.e.String())
	}
	lists := arrow.ListOfField(arrow.Field{Name: "element", Type: stringList, Nullable: true})
	pairs := &ArrayOf{Elems: []expr.Expr{col, col, &ArrayOf{Elems: []expr.Expr{str("c")}, Type: stringList}}, Type: lists}
	require.Equal(t, `[[["a" "b"] ["c"]] [(null) ["c"]] [[] ["c"]] [["c"]]]`, evalString(t, &Distinct{X: pairs}, rec, mem),
		"nested elements compare by their encoding")
	require.Equal(t, `[[["a" "b"] ["a" "b"]] [(null) (null)] [[] []] []]`, evalString(t, &Remove{X: pairs, Needle: &ArrayOf{Elems: []expr.Expr{str("c")}, Type: stringList}}, rec, mem))
	row := &RowOf{Fields: []expr.Expr{col, i64(1)}, Type: arrow.StructOf(
		arrow.Field{Name: "EXPR$0", Type: stringList, Nullable: true}, arrow.Field{Name: "EXPR$1", Type: arrow.PrimitiveTypes.Int64, Nullable: true})}
	require.Equal(t, `{[["a" "b"] (null) [] ["c"]] [1 1 1 1]}`, evalString(t, row, rec, mem))
	_, err := (&MapOf{Keys: []expr.Expr{null}, Values: []expr.Expr{str("v")}, Type: strMap}).Eval(rec, mem)
	require.ErrorContains(t, err, "a MAP key cannot be NULL")
	_, err = (&FromArrays{Keys: col, Values: &Append{X: col, Elem: str("v")}, Type: strMap}).Eval(rec, mem)
	require.ErrorContains(t, err, "the keys array has 2 elements and the values array 3")
}
