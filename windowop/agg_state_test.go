package windowop

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/internal/arrowtest"
)

// TestAccumulatorSaveLoad saves every aggregate over every input type it
// takes after random updates, merges, copies and resets, loads the state
// into a fresh accumulator and checks that both give the same results,
// then and after the same further operations (which shows hidden state,
// such as arrival counters, was saved). Truncated, mis-sized and
// scrambled state must be refused or at least never panic.
func TestAccumulatorSaveLoad(t *testing.T) {
	dec38 := &arrow.Decimal128Type{Precision: 38, Scale: 2}
	types := []struct {
		dt  arrow.DataType
		gen genFn
	}{
		{tInt8, genInt},
		{tInt32, genInt},
		{tInt64, genWide},
		{tFlt32, genOddFloat},
		{tFlt64, genOddFloat},
		{dec38, genWideDecimal},
		{tStr, genString},
		{tBool, genBool},
		{tDate, genDate},
		{tTS, genWide},
	}
	specs := []AggSpec{
		{Kind: Count}, {Kind: Sum}, {Kind: Avg}, {Kind: Min}, {Kind: Max},
		{Kind: FirstValue}, {Kind: LastValue},
		{Kind: StddevPop}, {Kind: StddevSamp}, {Kind: VarPop}, {Kind: VarSamp},
		{Kind: ListAgg, Separator: ", "}, {Kind: ListAgg, Separator: ",", Distinct: true},
		{Kind: Count, Distinct: true}, {Kind: Sum, Distinct: true}, {Kind: Avg, Distinct: true},
		{Kind: StddevPop, Distinct: true}, {Kind: StddevSamp, Distinct: true},
		{Kind: VarPop, Distinct: true}, {Kind: VarSamp, Distinct: true},
		{Kind: Min, Distinct: true},
		{Kind: ArrayAgg}, {Kind: ArrayAgg, IgnoreNulls: true}, {Kind: ArrayAgg, Distinct: true},
		{Kind: Collect}, {Kind: Collect, Distinct: true},
		{Kind: Percentile, PercentageArray: true, Percentages: []float64{0.1, 0.5, 1}},
	}
	t.Run("COUNT(*)", func(t *testing.T) {
		for seed := range 4 {
			saveLoadRound(t, AggSpec{Kind: CountStar}, nil, tInt32, genInt, uint64(seed))
		}
	})
	for _, spec := range specs {
		tested := 0
		for _, ty := range types {
			if _, err := newAccumulator(spec, ty.dt); err != nil {
				continue // the aggregate does not take this type
			}
			tested++
			t.Run(fmt.Sprintf("%s distinct=%v %s", spec.Kind, spec.Distinct, ty.dt), func(t *testing.T) {
				for seed := range 4 {
					saveLoadRound(t, spec, ty.dt, ty.dt, ty.gen, uint64(seed))
				}
			})
		}
		require.NotZero(t, tested, "%s distinct=%v takes no type", spec.Kind, spec.Distinct)
	}
}

// genWide mixes small values with ones that need long varints.
func genWide(r *rand.Rand) any {
	if r.IntN(3) == 0 {
		return int(r.Int64N(1<<62) - 1<<61)
	}
	return genInt(r)
}

// genOddFloat mixes fractions with the values floats compare oddly on.
func genOddFloat(r *rand.Rand) any {
	switch r.IntN(12) {
	case 0:
		return math.NaN()
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return math.Inf(1 - 2*r.IntN(2))
	}
	return genReal(r)
}

// genWideDecimal gives unscaled decimals up to 2^126 in magnitude, so sums
// overflow 128 bits and use every word of the int192 sum.
func genWideDecimal(r *rand.Rand) any {
	if r.IntN(3) == 0 {
		n := decimal128.New(r.Int64N(1<<62), r.Uint64())
		if r.IntN(2) == 0 {
			n = n.Negate()
		}
		return n
	}
	return decimal128.FromI64(int64(genDec(r).(int)))
}

// stateRig drives accumulators through the same random operations: every
// random choice is drawn once and applied to each accumulator given.
type stateRig struct {
	t   *testing.T
	mem memory.Allocator
	r   *rand.Rand
	col arrow.DataType // the update column's type
	gen genFn
	n   int // slots
}

// step applies one random operation. Even slots are panes, which get rows,
// odd slots windows, which panes merge into (so state grows linearly).
func (g *stateRig) step(accs ...accumulator) {
	r := g.r
	slot := func(parity int) int32 { // a random slot of that parity
		return int32(2*r.IntN((g.n-parity+1)/2) + parity)
	}
	switch op := r.IntN(12); {
	case op < 5: // a batch, in segments, sometimes folded again as a count window does
		size := r.IntN(14)
		vals, slots := make([]any, size), make([]int32, size)
		for i := range vals {
			slots[i] = int32(r.IntN(g.n+1)) - 1
			if r.IntN(5) > 0 {
				vals[i] = g.gen(r)
			}
		}
		passes := [][]int32{slots}
		if r.IntN(4) == 0 {
			again := make([]int32, size)
			for i := range again {
				again[i] = int32(r.IntN(g.n+1)) - 1
			}
			passes = append(passes, again)
		}
		cuts := []int{0}
		for cuts[len(cuts)-1] < size {
			cuts = append(cuts, min(size, cuts[len(cuts)-1]+1+r.IntN(6)))
		}
		col := arrowtest.Array(g.t, g.mem, g.col, vals...)
		defer col.Release()
		for _, a := range accs {
			for _, sl := range passes {
				for k := 1; k < len(cuts); k++ {
					a.update(col, sl, cuts[k-1], cuts[k])
				}
			}
		}
	case op < 8 && g.n > 1:
		dst, src := slot(1), slot(0)
		for _, a := range accs {
			a.merge(dst, src)
		}
	case op < 9:
		p := r.IntN(min(2, g.n))
		dst, src := slot(p), slot(p)
		for _, a := range accs {
			a.copyTo(dst, src)
		}
	case op < 11:
		s := int32(r.IntN(g.n))
		for _, a := range accs {
			a.reset(s)
		}
	default:
		g.n += r.IntN(3)
		for _, a := range accs {
			a.resize(g.n)
		}
	}
}

func saveState(a accumulator, n int) []byte {
	var e checkpoint.Encoder
	a.save(&e, n)
	return e.Data()
}

// requireSame checks that a and b give the same result for every slot and
// the same sameResult for every pair.
func (g *stateRig) requireSame(a, b accumulator, msg string) {
	all := make([]int32, g.n)
	for i := range all {
		all[i] = int32(i)
	}
	require.Equal(g.t, results(g.t, g.mem, a, all...), results(g.t, g.mem, b, all...), msg)
	for _, x := range all {
		for _, y := range all {
			require.Equal(g.t, a.sameResult(x, y), b.sameResult(x, y), "%s: sameResult(%d, %d)", msg, x, y)
		}
	}
}

func saveLoadRound(t *testing.T, spec AggSpec, in, colType arrow.DataType, gen genFn, seed uint64) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(seed, uint64(spec.Kind)))
	g := &stateRig{t: t, mem: mem, r: r, col: colType, gen: gen, n: 1 + r.IntN(8)}

	a, err := newAccumulator(spec, in)
	require.NoError(t, err)
	a.resize(g.n)
	for range 25 {
		g.step(a)
	}
	n := g.n
	blob := saveState(a, n)

	b, err := newAccumulator(spec, in)
	require.NoError(t, err)
	d := checkpoint.NewDecoder(blob)
	b.load(d, n)
	require.NoError(t, d.Finish())
	require.Equal(t, blob, saveState(b, n), "seed %d: saving the loaded state", seed)
	g.requireSame(a, b, fmt.Sprintf("seed %d: after load", seed))

	for i := range 25 {
		g.step(a, b)
		if i%5 == 4 {
			g.requireSame(a, b, fmt.Sprintf("seed %d: step %d after load", seed, i))
		}
	}
	g.requireSame(a, b, fmt.Sprintf("seed %d: at the end", seed))
	require.Equal(t, saveState(a, g.n), saveState(b, g.n), "seed %d: state at the end", seed)

	// every truncation is refused
	for k := range len(blob) {
		c, _ := newAccumulator(spec, in)
		d := checkpoint.NewDecoder(blob[:k])
		c.load(d, n)
		require.Error(t, d.Finish(), "seed %d: %d of %d bytes", seed, k, len(blob))
	}
	// so is state for another number of slots
	for _, m := range []int{n - 1, n + 1} {
		c, _ := newAccumulator(spec, in)
		d := checkpoint.NewDecoder(blob)
		c.load(d, m)
		require.Error(t, d.Finish(), "seed %d: %d slots loaded as %d", seed, n, m)
	}
	// scrambled bytes may decode, but never panic
	for range 200 {
		bad := bytes.Clone(blob)
		for range 1 + r.IntN(3) {
			if len(bad) > 0 {
				bad[r.IntN(len(bad))] = byte(r.Uint32())
			}
		}
		c, _ := newAccumulator(spec, in)
		d := checkpoint.NewDecoder(bad)
		require.NotPanics(t, func() { c.load(d, n); _ = d.Finish() })
	}
}
