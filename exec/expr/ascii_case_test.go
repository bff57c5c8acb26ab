package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

// TestASCIICase: UPPER and LOWER of a column of ASCII strings without
// NULLs map its bytes at once, also when the column is a slice of another.
func TestASCIICase(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	whole := arrowtest.Array(t, mem, str, "skip", "Hello", "", "a1-Z@[`{", "Apple")
	defer whole.Release()
	part := array.NewSlice(whole, 1, 5)
	defer part.Release()
	rec := arrowtest.Batch(part)
	defer rec.Release()
	s := col(rec, 0)
	require.Equal(t, []string{"HELLO", "", "A1-Z@[`{", "APPLE"}, texts(t, mem, &StringFunc{Name: "UPPER", Args: []Expr{s}}, rec))
	require.Equal(t, []string{"hello", "", "a1-z@[`{", "apple"}, texts(t, mem, &StringFunc{Name: "LOWER", Args: []Expr{s}}, rec))
}
