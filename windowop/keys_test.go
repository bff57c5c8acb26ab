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
