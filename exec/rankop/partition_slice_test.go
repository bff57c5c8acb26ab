package rankop

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// A batch that is a slice of a larger one (as a union's or a join's merge
// passes them on) finds a short STRING key's partition by the key's own
// bytes: a string column's ValueBytes start at the slice's first value,
// its offsets do not.
func TestPartitionIndexOfSlicedStrings(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.BinaryTypes.String}}, nil)
	b := array.NewStringBuilder(mem)
	var keys []string
	for i := range 400 {
		keys = append(keys, fmt.Sprintf("u%d", (i*37)%150))
		b.Append(keys[i])
	}
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(len(keys)))
	defer rec.Release()

	whole := newPartitionIndex(schema, []int{0}).lookup(rec, nil)
	sliced := newPartitionIndex(schema, []int{0})
	var pids []int32
	// the first rows alone, then the rest as one slice whose values start
	// a few bytes into the column's data
	for _, cut := range [][2]int{{0, 1}, {1, 3}, {3, len(keys)}} {
		part := rec.NewSlice(int64(cut[0]), int64(cut[1]))
		pids = sliced.lookup(part, pids)
		part.Release()
	}
	require.Equal(t, whole, pids)
	for i := range keys {
		for j := range i {
			require.Equal(t, keys[i] == keys[j], pids[i] == pids[j], "%s and %s", keys[i], keys[j])
		}
	}
}
