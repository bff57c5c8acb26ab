package nestedfn

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

// nestedType is ROW<id INT, tags ARRAY<STRING>, attrs MAP<STRING, BIGINT>>.
var nestedType = arrow.StructOf(
	arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	arrow.Field{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	arrow.Field{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), Nullable: true},
)

// nestedRows are the test's values as arrow's JSON, one row a line; the
// first row is sliced away so offsets are exercised.
const nestedRows = `{"id": 9, "tags": ["skipped"], "attrs": [{"key": "z", "value": 9}]}
{"id": 1, "tags": ["a", null], "attrs": [{"key": "x", "value": 1}, {"key": "y", "value": 2}]}
{"id": 1, "tags": ["a", null], "attrs": [{"key": "y", "value": 2}, {"key": "x", "value": 1}]}
null
{"id": null, "tags": [], "attrs": null}
{"id": 1, "tags": ["a"], "attrs": [{"key": "x", "value": 1}, {"key": "y", "value": 2}]}`

func nestedBatch(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	full, _, err := array.FromJSON(mem, nestedType, strings.NewReader("["+strings.ReplaceAll(nestedRows, "\n", ",")+"]"))
	require.NoError(t, err)
	defer full.Release()
	arr := array.NewSlice(full, 1, int64(full.Len()))
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: nestedType, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
}

// A key is equal for equal values (a MAP's entries in any order), NULL
// for a NULL value, and decodes back to the value (entries in key order).
func TestKeyEncodesEqualValuesAlikeAndDecodes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := nestedBatch(t, mem)
	defer rec.Release()
	col := &expr.ColumnExpr{Index: 0, Name: "v", Type: nestedType}

	keys, err := (&Key{X: col}).Eval(rec, mem)
	require.NoError(t, err)
	defer keys.Release()
	k := keys.(*array.Binary)
	require.Equal(t, k.Value(0), k.Value(1), "map entries in another order")
	require.True(t, k.IsNull(2))
	require.NotEqual(t, k.Value(0), k.Value(4), "another array")
	require.NotEqual(t, k.Value(0), k.Value(3))

	keyRec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.BinaryTypes.Binary, Nullable: true}}, nil), []arrow.Array{keys}, int64(keys.Len()))
	defer keyRec.Release()
	vals, err := (&KeyValue{X: &expr.ColumnExpr{Index: 0, Name: "k", Type: arrow.BinaryTypes.Binary}, Type: nestedType}).Eval(keyRec, mem)
	require.NoError(t, err)
	defer vals.Release()
	want := []string{
		`{"attrs":[{"key":"x","value":1},{"key":"y","value":2}],"id":1,"tags":["a",null]}`,
		`{"attrs":[{"key":"x","value":1},{"key":"y","value":2}],"id":1,"tags":["a",null]}`,
		`null`,
		`{"attrs":null,"id":null,"tags":[]}`,
		`{"attrs":[{"key":"x","value":1},{"key":"y","value":2}],"id":1,"tags":["a"]}`,
	}
	for i, w := range want {
		require.JSONEq(t, w, jsonOf(t, vals, i), "row %d", i)
	}
}

func jsonOf(t *testing.T, a arrow.Array, i int) string {
	s := array.NewSlice(a, int64(i), int64(i+1))
	defer s.Release()
	b, err := s.MarshalJSON()
	require.NoError(t, err)
	return strings.TrimSuffix(strings.TrimPrefix(string(b), "["), "]")
}

// Equal is NULL when either value is, compares a NULL element equal to a
// NULL one and a MAP's entries in any order (Flink's binary rows compare
// so).
func TestEqualOfNestedValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := nestedBatch(t, mem)
	defer rec.Release()
	// row i against row i+1: equal but for map order, NULL twice, unequal
	l, r := array.NewSlice(rec.Column(0), 0, 4), array.NewSlice(rec.Column(0), 1, 5)
	defer l.Release()
	defer r.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "l", Type: nestedType, Nullable: true}, {Name: "r", Type: nestedType, Nullable: true}}, nil)
	pairs := array.NewRecordBatch(schema, []arrow.Array{l, r}, 4)
	defer pairs.Release()
	lc := &expr.ColumnExpr{Index: 0, Name: "l", Type: nestedType}
	rc := &expr.ColumnExpr{Index: 1, Name: "r", Type: nestedType}
	for _, tc := range []struct {
		not  bool
		want string
	}{{false, "[true (null) (null) false]"}, {true, "[false (null) (null) true]"}} {
		out, err := (&Equal{L: lc, R: rc, Not: tc.not}).Eval(pairs, mem)
		require.NoError(t, err)
		require.Equal(t, tc.want, out.String())
		out.Release()
	}
	require.True(t, Comparable(nestedType, nestedType))
	require.True(t, Comparable(arrow.ListOf(arrow.PrimitiveTypes.Int32), arrow.ListOf(arrow.PrimitiveTypes.Int64)))
	require.False(t, Comparable(arrow.ListOf(arrow.PrimitiveTypes.Int32), arrow.ListOf(arrow.BinaryTypes.String)))
	require.False(t, Comparable(nestedType, arrow.ListOf(arrow.PrimitiveTypes.Int32)))
}

// BenchmarkKey encodes 4096 nested values a batch (a grouping key's pass).
func BenchmarkKey(b *testing.B) {
	mem := memory.NewGoAllocator()
	rows := strings.Repeat(strings.Split(nestedRows, "\n")[1]+",", 4095) + strings.Split(nestedRows, "\n")[2]
	arr, _, err := array.FromJSON(mem, nestedType, strings.NewReader("["+rows+"]"))
	require.NoError(b, err)
	defer arr.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "v", Type: nestedType, Nullable: true}}, nil), []arrow.Array{arr}, int64(arr.Len()))
	defer rec.Release()
	k := &Key{X: &expr.ColumnExpr{Index: 0, Name: "v", Type: nestedType}}
	b.ReportAllocs()
	for b.Loop() {
		out, err := k.Eval(rec, mem)
		require.NoError(b, err)
		out.Release()
	}
	b.ReportMetric(float64(b.N)*float64(arr.Len())/b.Elapsed().Seconds(), "rows/s")
}
