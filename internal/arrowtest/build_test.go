package arrowtest

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// Every kind of value reads as the package doc says, NULL included, and
// every buffer comes from the allocator given.
func TestValuesOfEveryType(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	noon := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		dt   arrow.DataType
		vals []any
		want string
	}{
		{arrow.PrimitiveTypes.Int8, []any{-128, int64(127), nil}, "[-128 127 (null)]"},
		{arrow.PrimitiveTypes.Int32, []any{uint8(7), -1}, "[7 -1]"},
		{arrow.PrimitiveTypes.Int64, []any{int64(1) << 62, nil}, "[4611686018427387904 (null)]"},
		{arrow.PrimitiveTypes.Uint64, []any{uint64(1) << 63}, "[9223372036854775808]"},
		{arrow.PrimitiveTypes.Float32, []any{1.5, 2}, "[1.5 2]"},
		{arrow.PrimitiveTypes.Float64, []any{float32(0.25), nil, -3}, "[0.25 (null) -3]"},
		{arrow.FixedWidthTypes.Boolean, []any{true, nil, false}, "[true (null) false]"},
		{arrow.BinaryTypes.String, []any{"a", nil, ""}, `["a" (null) ""]`},
		{arrow.BinaryTypes.Binary, []any{[]byte("x"), "y"}, `["x" "y"]`},
		{arrow.FixedWidthTypes.Date32, []any{-1, noon}, "[1969-12-31 2024-03-01]"},
		{&arrow.TimestampType{Unit: arrow.Millisecond}, []any{1000, noon, nil}, "[1000 1709294400000 (null)]"},
		{&arrow.TimestampType{Unit: arrow.Second}, []any{noon}, "[1709294400]"},
		{&arrow.Decimal128Type{Precision: 10, Scale: 2}, []any{1234, "-0.5", nil}, "[12.34 -0.5 (null)]"},
	} {
		a := Array(t, mem, c.dt, c.vals...)
		got := a.String()
		a.Release()
		require.Equal(t, c.want, got, "%s", c.dt)
	}
}

// A value of the wrong type or out of range is refused, not wrapped.
func TestBadValuesAreRefused(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, c := range []struct {
		dt arrow.DataType
		v  any
	}{
		{arrow.PrimitiveTypes.Int8, 128},
		{arrow.PrimitiveTypes.Uint32, -1},
		{arrow.PrimitiveTypes.Int64, "1"},
		{arrow.BinaryTypes.String, 1},
		{arrow.FixedWidthTypes.Boolean, 1},
		{&arrow.Decimal128Type{Precision: 3, Scale: 1}, "x"},
	} {
		b := array.NewBuilder(mem, c.dt)
		require.Error(t, appendValue(b, c.v), "%v as %s", c.v, c.dt)
		b.Release()
	}
}

// Record takes rows and Columns takes named columns, the others NULL.
func TestRecordAndColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	rec := Record(t, mem, schema, []any{"a", 1}, []any{nil, 2})
	require.Equal(t, int64(2), rec.NumRows())
	require.Equal(t, `["a" (null)]`, rec.Column(0).String())
	require.Equal(t, "[1 2]", rec.Column(1).String())
	rec.Release()
	rec = Columns(t, mem, schema, 3, map[string][]any{"v": {1, nil, 3}})
	require.Equal(t, "[(null) (null) (null)]", rec.Column(0).String())
	require.Equal(t, "[1 (null) 3]", rec.Column(1).String())
	rec.Release()
}

func TestBatchNamesItsColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := Batch(Array(t, mem, arrow.PrimitiveTypes.Int64, 1, nil), Array(t, mem, arrow.BinaryTypes.String, "a", "b"))
	defer rec.Release()
	require.Equal(t, int64(2), rec.NumRows())
	require.Equal(t, "c0", rec.Schema().Field(0).Name)
	require.Equal(t, "c1", rec.Schema().Field(1).Name)
	empty := Batch()
	defer empty.Release()
	require.Equal(t, int64(1), empty.NumRows())
}

// BufferSites finds each buffer with bytes of every column once: a
// string column's bitmap (the builder makes one), offsets and data, an
// integer column's bitmap and values.
func TestBufferSites(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := Batch(Array(t, mem, arrow.BinaryTypes.String, "a", "bc"), Array(t, mem, arrow.PrimitiveTypes.Int64, 1, nil))
	defer rec.Release()
	sites := BufferSites(rec)
	require.Len(t, sites, 5)
	require.True(t, sites[&rec.Column(1).Data().Buffers()[1].Bytes()[0]])
	RequireReused(t, sites, BufferSites(rec))
}
