package rankop

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// The fast encoding of a column without NULLs writes the bytes the
// row-by-row encoding writes, for DOUBLE and FLOAT in both directions
// (-0.0 before 0.0, NaN after +Inf, as Java's Double.compare).
func TestEncodeFastMatchesRowByRow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	vals := []float64{1.5, math.Copysign(0, -1), 0, math.NaN(), math.Inf(1), math.Inf(-1), -2.25, 1e300}
	f64 := array.NewFloat64Builder(mem)
	f64.AppendValues(vals, nil)
	f32 := array.NewFloat32Builder(mem)
	for _, v := range vals {
		f32.Append(float32(v))
	}
	cols := []arrow.Array{f64.NewArray(), f32.NewArray()}
	f64.Release()
	f32.Release()
	for _, col := range cols {
		for _, desc := range []bool{false, true} {
			fast := make([][]byte, len(vals))
			require.True(t, encodeFast(col, fast, desc))
			for i := range vals {
				want := appendValue([]byte{1}, col, i)
				if desc {
					for j := range want {
						want[j] = ^want[j]
					}
				}
				require.Equal(t, want, fast[i], "%s row %d desc %v", col.DataType(), i, desc)
			}
		}
		col.Release()
	}
}
