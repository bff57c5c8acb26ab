package generator

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/recycle"
)

// A column's rows are its bytes between the ends its rows closed, one by
// one or empty all at once, also in buffers reused as they were freed.
func TestStringColumnRows(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer checked.AssertSize(t, 0)
	mem := recycle.New(checked)
	defer mem.Close()
	for range 3 { // the later batches reuse the earlier's freed buffers
		var c StringColumn
		c.Start(mem, 6)
		c.Data = append(c.Data, "ab"...)
		c.End()
		c.EndEmpty(2)
		c.Data = append(c.Data, "c"...)
		c.End()
		c.EndEmpty(2)
		a := c.Array(mem).(*array.String)
		require.Equal(t, 6, a.Len())
		var got []string
		for i := range a.Len() {
			got = append(got, a.Value(i))
		}
		require.Equal(t, []string{"ab", "", "", "c", "", ""}, got)
		a.Release()
	}
}
