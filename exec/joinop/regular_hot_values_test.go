package joinop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// A bound probe lists exactly the rows whose kept value compares TRUE
// with the probing value, in order, whatever blocks the rows came in and
// whichever blocks it passes over: every operator, the four integer
// types, NULLs (which match nothing) and blocks of NULLs only.
func TestBoundValuesMatchEveryRowThatCompares(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(7, 19))
	types := []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Int32,
		arrow.FixedWidthTypes.Timestamp_ms, arrow.FixedWidthTypes.Date32}
	for round := range 200 {
		dt := types[round%len(types)]
		spread := int64(1 + rng.IntN(50))
		nullRate := []float64{0, 0.1, 0.9}[rng.IntN(3)]
		var b boundValues
		var vals []int64
		var null []bool
		for range 1 + rng.IntN(6) {
			n := rng.IntN(3 * boundBlock)
			bld := array.NewBuilder(mem, dt)
			for range n {
				v := rng.Int64N(spread) - spread/2
				isNull := rng.Float64() < nullRate
				vals, null = append(vals, v), append(null, isNull)
				appendValue(bld, v, isNull)
			}
			a := bld.NewArray()
			bld.Release()
			b.reserve(len(vals))
			b.add(a)
			a.Release()
		}
		ents := make([]int32, len(vals))
		for k := range ents {
			ents[k] = int32(100 + k)
		}
		for op := opEq; op <= opGe; op++ {
			v := rng.Int64N(spread+4) - spread/2 - 2
			var want []int32
			for k, x := range vals {
				if !null[k] && op.holds(x, v) {
					want = append(want, ents[k])
				}
			}
			rows, got := b.matches(op, v, 5, ents, nil, nil)
			name := fmt.Sprintf("round %d %s op %d v %d", round, dt, op, v)
			require.Equal(t, want, got, name)
			require.Len(t, rows, len(want), name)
		}
	}
}

func appendValue(b array.Builder, v int64, null bool) {
	if null {
		b.AppendNull()
		return
	}
	switch b := b.(type) {
	case *array.Int64Builder:
		b.Append(v)
	case *array.Int32Builder:
		b.Append(int32(v))
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(v))
	case *array.Date32Builder:
		b.Append(arrow.Date32(v))
	}
}

// A comparison with its operands swapped is the mirrored operator's.
func TestCompareOpOfSwapped(t *testing.T) {
	for _, sql := range []string{"=", "<>", "!=", "<", "<=", ">", ">="} {
		op, ok := compareOpOf(sql, false)
		require.True(t, ok)
		swapped, _ := compareOpOf(sql, true)
		for a := int64(-2); a <= 2; a++ {
			for v := int64(-2); v <= 2; v++ {
				require.Equal(t, op.holds(a, v), swapped.holds(v, a), "%d %s %d", a, sql, v)
			}
		}
	}
}
