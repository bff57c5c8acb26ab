package nestedfn

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

// tagsBatch is n rows of ARRAY<STRING> [a, b, a, NULL].
func tagsBatch(mem memory.Allocator, n int) arrow.RecordBatch {
	b := array.NewListBuilder(mem, arrow.BinaryTypes.String)
	defer b.Release()
	vb := b.ValueBuilder().(*array.StringBuilder)
	for range n {
		b.Append(true)
		vb.AppendValues([]string{"a", "b", "a", ""}, []bool{true, true, true, false})
	}
	arr := b.NewArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "tags", Type: arr.DataType(), Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, int64(n))
}

// TestKernelsAllocatePerBatch: the building kernels allocate per batch,
// not per row: a batch of 100 times the rows costs only a few more
// allocations (buffers growing), not 100 times as many.
func TestKernelsAllocatePerBatch(t *testing.T) {
	mem := memory.NewGoAllocator()
	small, large := tagsBatch(mem, 50), tagsBatch(mem, 5000)
	defer small.Release()
	defer large.Release()
	col := &expr.ColumnExpr{Index: 0, Name: "tags", Type: small.Schema().Field(0).Type}
	kernels := map[string]expr.Expr{
		"ARRAY_DISTINCT":  &Distinct{X: col},
		"ARRAY_UNION":     &SetOf{Op: Union, L: col, R: col},
		"ARRAY_EXCEPT":    &SetOf{Op: Except, L: col, R: col},
		"ARRAY_REMOVE":    &Remove{X: col, Needle: str("a")},
		"ARRAY_APPEND":    &Append{X: col, Elem: str("z")},
		"ARRAY_CONCAT":    &Concat{Lists: []expr.Expr{col, col}},
		"ARRAY_SLICE":     &Slice{X: col, Start: i64(2)},
		"ARRAY_SORT":      &Sort{X: col},
		"ARRAY_MAX":       &Extreme{X: col, Max: true},
		"ARRAY_JOIN":      &Join{X: col, Delimiter: str(",")},
		"SPLIT":           &Split{X: &Join{X: col, Delimiter: str(",")}, Delimiter: str(",")},
		"ARRAY[...]":      &ArrayOf{Elems: []expr.Expr{str("x"), str("y")}, Type: stringList},
		"MAP[...]":        &MapOf{Keys: []expr.Expr{str("k"), str("j")}, Values: []expr.Expr{str("v"), str("w")}, Type: strMap},
		"MAP_FROM_ARRAYS": &FromArrays{Keys: &Remove{X: col, Needle: expr.NullLiteral(arrow.BinaryTypes.String)}, Values: &Slice{X: col, Start: i64(1), End: i64(3)}, Type: strMap},
	}
	for name, e := range kernels {
		allocs := func(rec arrow.RecordBatch) float64 {
			return testing.AllocsPerRun(5, func() {
				out, err := e.Eval(rec, mem)
				require.NoError(t, err)
				out.Release()
			})
		}
		few, many := allocs(small), allocs(large)
		t.Logf("%s: %v allocations for 50 rows, %v for 5000", name, few, many)
		require.Less(t, many, few+40, name)
	}
}
