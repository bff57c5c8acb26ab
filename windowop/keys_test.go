package windowop

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// One string key column is interned by value: ids in order of first
// appearance, NULL apart from the empty string, values kept for printing.
func TestInternOneStringColumn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	kt, err := newKeyTable([]arrow.DataType{arrow.BinaryTypes.String})
	require.NoError(t, err)
	intern := func(vals ...*string) []uint32 {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		for _, v := range vals {
			if v == nil {
				b.AppendNull()
			} else {
				b.Append(*v)
			}
		}
		arr := b.NewArray()
		defer arr.Release()
		ids := make([]uint32, len(vals))
		kt.intern([]arrow.Array{arr}, len(vals), ids)
		return ids
	}
	s := func(v string) *string { return &v }
	require.Equal(t, []uint32{0, 1, 0, 2, 1}, intern(s("b"), s(""), s("b"), nil, s("")))
	require.Equal(t, []uint32{2, 3, 0}, intern(nil, s("a"), s("b")), "ids last across batches")

	out := array.NewStringBuilder(mem)
	defer out.Release()
	kt.cols[0].appendTo([]uint32{3, 2, 1, 0}, out)
	arr := out.NewStringArray()
	defer arr.Release()
	require.Equal(t, `["a" (null) "" "b"]`, arr.String())
}
