package windowop

import (
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

// permutations returns every order of vals.
func permutations(vals []float64) [][]float64 {
	if len(vals) <= 1 {
		return [][]float64{append([]float64(nil), vals...)}
	}
	var out [][]float64
	for i := range vals {
		rest := append(append([]float64(nil), vals[:i]...), vals[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]float64{vals[i]}, p...))
		}
	}
	return out
}

// MIN and MAX order floats as Double.compare, NaN above every number, so
// every arrival order of (1, NaN, 3), one batch or a row at a time, or
// slot by slot merged as panes and sessions are, gives MIN 1 and MAX NaN,
// and the same NaN whichever NaN (by its bits) arrived first.
func TestMinMaxNaNIndependentOfArrival(t *testing.T) {
	negNaN := math.Float64frombits(math.Float64bits(math.NaN()) | 1<<63) // 0/0 on x86
	payloadNaN := math.Float64frombits(0x7ff0_0000_0000_0001)
	for _, dt := range []arrow.DataType{tFlt64, arrow.PrimitiveTypes.Float32} {
		for _, vals := range [][]float64{{1, math.NaN(), 3}, {1, negNaN, 3, payloadNaN}, {negNaN, payloadNaN}} {
			wantMin := "1"
			if len(vals) == 2 {
				wantMin = "NaN" // only NaNs
			}
			for _, perm := range permutations(vals) {
				for _, mode := range []string{"batch", "rows", "merged"} {
					t.Run(fmt.Sprintf("%s %v %s", dt, perm, mode), func(t *testing.T) {
						mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
						defer mem.AssertSize(t, 0)
						for _, c := range []struct {
							kind AggKind
							want string
						}{{Min, wantMin}, {Max, "NaN"}} {
							got, bits := foldFloats(t, mem, c.kind, dt, perm, mode)
							require.Equal(t, c.want, fmt.Sprint(got), "%s", c.kind)
							if math.IsNaN(got) {
								want := uint64(0x7ff8_0000_0000_0000) // Java's Double.NaN
								if dt.ID() == arrow.FLOAT32 {
									want = 0x7fc0_0000 // Float.NaN
								}
								require.Equal(t, want, bits, "%s: the canonical NaN", c.kind)
							}
						}
					})
				}
			}
		}
	}
}

// foldFloats returns kind over vals, and its bits, folded in one batch, a
// row per batch, or each row into a slot of its own and the slots merged
// in turn.
func foldFloats(t *testing.T, mem memory.Allocator, kind AggKind, dt arrow.DataType, vals []float64, mode string) (float64, uint64) {
	acc, err := newAccumulator(AggSpec{Kind: kind}, dt)
	require.NoError(t, err)
	n := len(vals)
	acc.resize(n)
	anys := make([]any, n)
	for i, v := range vals {
		anys[i] = v
	}
	col := arrowtest.Array(t, mem, dt, anys...)
	defer col.Release()
	switch mode {
	case "batch":
		acc.update(col, repeat(0, n), 0, n)
	case "rows":
		for i := range n {
			acc.update(col, repeat(0, n), i, i+1)
		}
	case "merged":
		slots := make([]int32, n)
		for i := range slots {
			slots[i] = int32(i)
		}
		acc.update(col, slots, 0, n)
		for i := n - 1; i > 0; i-- {
			acc.merge(int32(i-1), int32(i))
		}
	}
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	acc.appendResults([]int32{0}, b)
	arr := b.NewArray()
	defer arr.Release()
	if a, ok := arr.(*array.Float32); ok {
		return float64(a.Value(0)), uint64(math.Float32bits(a.Value(0)))
	}
	v := arr.(*array.Float64).Value(0)
	return v, math.Float64bits(v)
}
