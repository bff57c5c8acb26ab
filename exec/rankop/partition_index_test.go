package rankop

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// A typed index numbers partitions as the encoded one does, writes their
// keys as keyEncoder encodes them and reads them back to the same numbers.
func TestPartitionIndexKeysAreEncodedKeys(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "b", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	bld := array.NewRecordBuilder(mem, schema)
	defer bld.Release()
	bld.Field(0).(*array.Int32Builder).AppendValues([]int32{-7, 3, 0, 3, -7, 0}, []bool{true, true, false, true, true, false})
	bld.Field(1).(*array.Int64Builder).AppendValues([]int64{1 << 40, -1, 0, -1, 5, 0}, []bool{true, true, false, true, true, true})
	bld.Field(2).(*array.StringBuilder).AppendValues([]string{"a\x00b", "", "x", "a\x00b", "a partition key longer than a word", "é"}, []bool{true, true, false, true, true, true})
	rec := bld.NewRecordBatch()
	defer rec.Release()
	for c := range 3 {
		typed := newPartitionIndex(schema, []int{c})
		require.Nil(t, typed.encoded, "column %d", c)
		pids := typed.lookup(rec, nil)
		general := &partitionIndex{nullPid: -1, enc: keyEncoder{keys: []SortKey{{Index: c}}}, encoded: map[string]int32{}}
		require.Equal(t, general.lookup(rec, nil), pids, "column %d", c)
		require.Equal(t, general.keys(), typed.keys(), "column %d", c)

		restored := newPartitionIndex(schema, []int{c})
		for _, k := range typed.keys() {
			require.NoError(t, restored.restore(k))
		}
		require.Equal(t, pids, restored.lookup(rec, nil), "column %d", c)
		require.Equal(t, typed.Len(), restored.Len())
	}
	require.Error(t, newPartitionIndex(schema, []int{0}).restore("\x01\x00\x00\x00\x01\x00\x00\x00\x00"))
	require.Error(t, newPartitionIndex(schema, []int{2}).restore("\x01ab"))
}

// An index of two integer columns numbers partitions as the encoded one
// does, NULLs included, writes the same keys and restores from them.
func TestPartitionIndexOfIntegerPairs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "b", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	bld := array.NewRecordBuilder(mem, schema)
	defer bld.Release()
	bld.Field(0).(*array.Int32Builder).AppendValues([]int32{-7, 3, 0, 3, -7, 0, 3, 0}, []bool{true, true, false, true, true, false, true, true})
	bld.Field(1).(*array.Int64Builder).AppendValues([]int64{1 << 40, -1, 0, -1, 5, 0, 0, 0}, []bool{true, true, false, true, true, true, false, true})
	rec := bld.NewRecordBatch()
	defer rec.Release()
	typed := newPartitionIndex(schema, []int{0, 1})
	require.NotNil(t, typed.pairs)
	pids := typed.lookup(rec, nil)
	require.Equal(t, pids, typed.lookup(rec, nil), "a second pass finds the same partitions")
	general := &partitionIndex{nullPid: -1, enc: keyEncoder{keys: []SortKey{{Index: 0}, {Index: 1}}}, encoded: map[string]int32{}}
	require.Equal(t, general.lookup(rec, nil), pids)
	require.Equal(t, general.keys(), typed.keys())

	restored := newPartitionIndex(schema, []int{0, 1})
	for _, k := range typed.keys() {
		require.NoError(t, restored.restore(k))
	}
	require.Equal(t, pids, restored.lookup(rec, nil))
	require.Equal(t, typed.Len(), restored.Len())
}

// A pairIndex numbers pairs in the order they first come through many
// growths of its table, as a map does.
func TestPairIndexGrows(t *testing.T) {
	var x pairIndex
	want := map[[2]int64]int32{}
	for i := range 200_000 {
		k := [2]int64{int64(i*7919) % 50_021, int64(i % 13)}
		pid, ok := x.getOrAdd(k[0], k[1], int32(x.len()))
		w, had := want[k]
		if !had {
			w = int32(len(want))
			want[k] = w
		}
		require.Equal(t, had, ok)
		require.Equal(t, w, pid)
	}
	require.Equal(t, len(want), x.len())
}

// Integer keys past smallKeys, dense ones in the slice and sparse or
// negative ones in the map, number partitions as the encoded index does
// and read back from their keys.
func TestPartitionIndexOfDenseAndSparseInts(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "b", Type: arrow.PrimitiveTypes.Int64}}, nil)
	bld := array.NewRecordBuilder(mem, schema)
	defer bld.Release()
	b := bld.Field(0).(*array.Int64Builder)
	for i := range 50_000 {
		switch i % 7 {
		case 0:
			b.Append(int64(i) << 30) // sparse
		case 1:
			b.Append(-int64(i))
		case 2:
			b.Append(int64(i % 900)) // found again
		default:
			b.Append(100_000 + int64(i)) // dense, past smallKeys
		}
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	typed := newPartitionIndex(schema, []int{0})
	pids := typed.lookup(rec, nil)
	require.Equal(t, pids, typed.lookup(rec, nil))
	general := &partitionIndex{nullPid: -1, enc: keyEncoder{keys: []SortKey{{Index: 0}}}, encoded: map[string]int32{}}
	require.Equal(t, general.lookup(rec, nil), pids)
	require.Equal(t, general.keys(), typed.keys())
	require.Greater(t, len(typed.small), 100_000, "dense keys in the slice")
	restored := newPartitionIndex(schema, []int{0})
	for _, k := range typed.keys() {
		require.NoError(t, restored.restore(k))
	}
	require.Equal(t, pids, restored.lookup(rec, nil))
}
