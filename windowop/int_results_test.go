package windowop

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/recycle"
)

// int64Results gathers the values at picks into a BIGINT column with no
// validity bitmap, over reused buffers that held other values before.
func TestInt64Results(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	reuse := recycle.New(mem)
	defer reuse.Close()
	vals := []int64{10, 11, 20, 21, -5, 7}
	for _, want := range []string{"[11 10 7 7 20]", "[12 9 7 7 20]", "[13 8 7 7 20]"} {
		// the second and third take the first's freed buffer
		arr := int64Results(reuse, arrow.PrimitiveTypes.Int64, []int32{1, 0, 5, 5, 2}, vals)
		require.Equal(t, want, arr.String())
		require.Zero(t, arr.NullN())
		require.Nil(t, arr.Data().Buffers()[0])
		arr.Release()
		vals[1]++
		vals[0]--
	}
}
