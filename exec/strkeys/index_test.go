package strkeys

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// Values short and long, found in whole columns and in slices of them (a
// slice's data starts at its first value, its offsets do not), and not
// found once deleted.
func TestFindInSlices(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var values []string
	for i := range 300 {
		values = append(values, fmt.Sprintf("u%d", i%120), fmt.Sprintf("a longer key %d", i%7), "")
	}
	b := array.NewStringBuilder(mem)
	b.AppendValues(values, nil)
	col := b.NewStringArray()
	b.Release()
	defer col.Release()

	x := New()
	ids := map[string]int32{}
	for _, v := range values {
		if _, ok := ids[v]; !ok {
			ids[v] = int32(len(ids))
			x.Add(v, ids[v])
		}
	}
	for _, cut := range [][2]int{{0, len(values)}, {1, len(values)}, {3, 40}, {len(values) - 2, len(values)}} {
		part := array.NewSlice(col, int64(cut[0]), int64(cut[1])).(*array.String)
		c := Of(part)
		for i := range part.Len() {
			id, ok := x.Find(c, i)
			require.True(t, ok, part.Value(i))
			require.Equal(t, ids[part.Value(i)], id, "%q in slice %v", part.Value(i), cut)
		}
		part.Release()
	}
	x.Delete("u7")
	require.Equal(t, "u7", col.Value(21))
	_, ok := x.Find(Of(col), 21)
	require.False(t, ok)
	_, ok = x.Get("u7")
	require.False(t, ok)
}
