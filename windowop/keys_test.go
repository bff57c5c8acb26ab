package windowop

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

// One string key column is interned by value: ids in order of first
// appearance, NULL apart from the empty string, values kept for printing.
func TestInternOneStringColumn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	kt, err := newKeyTable([]arrow.DataType{arrow.BinaryTypes.String})
	require.NoError(t, err)
	intern := func(vals ...any) []uint32 {
		arr := arrowtest.Array(t, mem, arrow.BinaryTypes.String, vals...)
		defer arr.Release()
		ids := make([]uint32, len(vals))
		kt.intern([]arrow.Array{arr}, len(vals), ids)
		return ids
	}
	require.Equal(t, []uint32{0, 1, 0, 2, 1}, intern("b", "", "b", nil, ""))
	require.Equal(t, []uint32{2, 3, 0}, intern(nil, "a", "b"), "ids last across batches")

	out := array.NewStringBuilder(mem)
	defer out.Release()
	kt.cols[0].appendTo([]uint32{3, 2, 1, 0}, out)
	arr := out.NewStringArray()
	defer arr.Release()
	require.Equal(t, `["a" (null) "" "b"]`, arr.String())
}

// Strings of up to 8 bytes are numbered by their bytes and length, longer
// ones by the map: every value of random strings of 0 to 12 bytes over a
// few letters and NUL (so "a" and "a\x00" both occur) gets the id of its
// first appearance, read at the start, middle and end of the batch's data
// and in sliced arrays.
func TestInternStringsShortAndLong(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	kt, err := newKeyTable([]arrow.DataType{arrow.BinaryTypes.String})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(3, 4))
	want := map[string]uint32{}
	for batch := range 200 {
		vals := make([]string, 1+r.IntN(30))
		b := array.NewStringBuilder(mem)
		for i := range vals {
			v := make([]byte, r.IntN(13))
			for j := range v {
				v[j] = "ab\x00"[r.IntN(3)]
			}
			vals[i] = string(v)
			b.Append(vals[i])
		}
		whole := b.NewStringArray()
		b.Release()
		from := 0
		if batch%2 == 1 {
			from = r.IntN(len(vals))
		}
		arr := array.NewSlice(whole, int64(from), int64(len(vals))).(*array.String)
		whole.Release()
		ids := make([]uint32, arr.Len())
		kt.intern([]arrow.Array{arr}, arr.Len(), ids)
		arr.Release()
		for i, v := range vals[from:] {
			id, ok := want[v]
			if !ok {
				id = uint32(len(want))
				want[v] = id
			}
			require.Equal(t, id, ids[i], "batch %d row %d %q", batch, from+i, v)
		}
	}
	require.Greater(t, len(want), 100)
}

// One integer key column: small values through the dense table, negative
// and large ones through the map, NULL apart; ids in order of first
// appearance, the same as the general path gives.
func TestInternOneIntegerColumn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Int32} {
		kt, err := newKeyTable([]arrow.DataType{dt})
		require.NoError(t, err)
		intern := func(vals ...any) []uint32 {
			arr := arrowtest.Array(t, mem, dt, vals...)
			defer arr.Release()
			ids := make([]uint32, len(vals))
			kt.intern([]arrow.Array{arr}, len(vals), ids)
			return ids
		}
		require.Equal(t, []uint32{0, 1, 0, 2, 3, 4, 1}, intern(7, -3, 7, nil, 1<<20, 0, -3))
		require.Equal(t, []uint32{2, 3, 5, 4}, intern(nil, 1<<20, 65535, 0), "ids last across batches")

		out := array.NewBuilder(mem, dt)
		kt.cols[0].appendTo([]uint32{5, 4, 3, 2, 1, 0}, out)
		arr := out.NewArray()
		require.Equal(t, "[65535 0 1048576 (null) -3 7]", arr.String())
		arr.Release()
		out.Release()
	}
}

// The dense table widens to take larger keys once enough keys are
// numbered; a key numbered in the index before it widened keeps its id.
// Ids are those of a map in order of first appearance, over a random mix
// of dense, sparse, large and negative keys.
func TestInternIntegersAsTheDenseTableWidens(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	kt, err := newKeyTable([]arrow.DataType{arrow.PrimitiveTypes.Int64})
	require.NoError(t, err)
	want := map[int64]uint32{}
	r := rand.New(rand.NewPCG(3, 4))
	for batch := range 50 {
		vals := make([]int64, 4096)
		for i := range vals {
			switch r.IntN(10) {
			case 0:
				vals[i] = r.Int64N(1 << 30) // beyond any table
			case 1:
				vals[i] = -r.Int64N(1000)
			default: // a growing range, first past the table, then in it
				vals[i] = r.Int64N(int64(1000 + batch*20000))
			}
		}
		b := array.NewInt64Builder(mem)
		b.AppendValues(vals, nil)
		arr := b.NewArray()
		b.Release()
		ids := make([]uint32, len(vals))
		kt.intern([]arrow.Array{arr}, len(vals), ids)
		arr.Release()
		for i, v := range vals {
			id, ok := want[v]
			if !ok {
				id = uint32(len(want))
				want[v] = id
			}
			require.Equal(t, id, ids[i], "batch %d row %d key %d", batch, i, v)
		}
	}
	require.Greater(t, len(kt.intDense), intDenseSize, "the table widened")
}
