package windowop

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

// refAgg computes an aggregate by brute force over the non-NULL values in
// arrival order; it returns a value for arrowtest.Array of the result type, or
// nil for NULL.
type refAgg func(vals []any) any

func refCount(vals []any) any { return len(vals) }

func refSumInt(vals []any) any {
	if len(vals) == 0 {
		return nil
	}
	var s int32 // SUM(INT) is INT and wraps like Java's int
	for _, v := range vals {
		s += int32(v.(int))
	}
	return int(s)
}

func refSumFloat(vals []any) any {
	if len(vals) == 0 {
		return nil
	}
	s := 0.0
	for _, v := range vals {
		s += v.(float64)
	}
	return s
}

func refAvgInt(vals []any) any {
	if len(vals) == 0 {
		return nil
	}
	s := 0
	for _, v := range vals {
		s += v.(int)
	}
	return s / len(vals) // Go truncates toward zero, as Java
}

// refAvgDecimal is AVG over DECIMAL(p, 2) as unscaled DECIMAL(38, 6),
// half up.
func refAvgDecimal(vals []any) any {
	if len(vals) == 0 {
		return nil
	}
	s := 0
	for _, v := range vals {
		s += v.(int)
	}
	num, n := s*10_000, len(vals)
	q, r := num/n, num%n
	if 2*abs(r) >= n {
		if num < 0 {
			q--
		} else {
			q++
		}
	}
	return q
}

func abs(x int) int { return max(x, -x) }

func refAvgFloat(vals []any) any {
	if len(vals) == 0 {
		return nil
	}
	return refSumFloat(vals).(float64) / float64(len(vals))
}

// refPick keeps the value better(candidate, kept) prefers.
func refPick(better func(a, b any) bool) refAgg {
	return func(vals []any) any {
		var out any
		for _, v := range vals {
			if out == nil || better(v, out) {
				out = v
			}
		}
		return out
	}
}

func less(a, b any) bool {
	switch x := a.(type) {
	case int:
		return x < b.(int)
	case float64:
		return x < b.(float64)
	case string:
		return x < b.(string)
	case bool:
		return !x && b.(bool)
	}
	panic(a)
}

var (
	refMin   = refPick(less)
	refMax   = refPick(func(a, b any) bool { return less(b, a) })
	refFirst = refPick(func(a, b any) bool { return false })
	refLast  = refPick(func(a, b any) bool { return true })
)

func refListAgg(sep string) refAgg {
	return func(vals []any) any {
		if len(vals) == 0 {
			return nil
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = v.(string)
		}
		return strings.Join(parts, sep)
	}
}

// refVariance is the two-pass textbook formula.
func refVariance(kind AggKind) refAgg {
	return func(vals []any) any {
		n := float64(len(vals))
		samp := kind == VarSamp || kind == StddevSamp
		if n == 0 || (samp && n < 2) {
			return nil
		}
		mean := 0.0
		for _, v := range vals {
			mean += toF(v)
		}
		mean /= n
		m2 := 0.0
		for _, v := range vals {
			d := toF(v) - mean
			m2 += d * d
		}
		if samp {
			n--
		}
		r := m2 / n
		if kind == StddevPop || kind == StddevSamp {
			r = math.Sqrt(r)
		}
		return r
	}
}

func toF(v any) float64 {
	if i, ok := v.(int); ok {
		return float64(i)
	}
	return v.(float64)
}

// distinct keeps the first occurrence of each value.
func distinct(agg refAgg) refAgg {
	return func(vals []any) any {
		seen := map[any]bool{}
		var out []any
		for _, v := range vals {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
		return agg(out)
	}
}

type genFn func(r *rand.Rand) any

func genInt(r *rand.Rand) any   { return r.IntN(41) - 20 }
func genDec(r *rand.Rand) any   { return r.IntN(1001) - 500 }
func genFloat(r *rand.Rand) any { return float64(r.IntN(41) - 20) } // integral: sums are exact in any order
func genReal(r *rand.Rand) any  { return r.NormFloat64()*10 + 1e6 } // large mean: cancellation would show
func genBool(r *rand.Rand) any  { return r.IntN(2) == 0 }
func genDate(r *rand.Rand) any  { return r.IntN(20000) }
func genString(r *rand.Rand) any {
	return strings.Repeat(string(rune('a'+r.IntN(4))), r.IntN(3)) + string(rune('x'+r.IntN(3)))
}

// TestAggregatesRandomPanes checks every aggregate against brute force:
// random rows (with NULLs) go to random panes in batches of random sizes
// and segments, then the panes merge in a random grouping, through copies
// now and then. The result must be the brute force over all rows in
// arrival order, whatever the grouping.
func TestAggregatesRandomPanes(t *testing.T) {
	dec := &arrow.Decimal128Type{Precision: 12, Scale: 2}
	cases := []struct {
		spec   AggSpec
		in     arrow.DataType
		gen    genFn
		ref    refAgg
		approx bool
	}{
		{AggSpec{Kind: Count}, tInt32, genInt, refCount, false},
		{AggSpec{Kind: Sum}, tInt32, genInt, refSumInt, false},
		{AggSpec{Kind: Sum}, dec, genDec, refSumInt, false},
		{AggSpec{Kind: Sum}, tFlt64, genFloat, refSumFloat, false},
		{AggSpec{Kind: Avg}, tInt32, genInt, refAvgInt, false},
		{AggSpec{Kind: Avg}, dec, genDec, refAvgDecimal, false},
		{AggSpec{Kind: Avg}, tFlt64, genFloat, refAvgFloat, false},
		{AggSpec{Kind: Min}, tInt32, genInt, refMin, false},
		{AggSpec{Kind: Max}, tInt32, genInt, refMax, false},
		{AggSpec{Kind: Min}, tStr, genString, refMin, false},
		{AggSpec{Kind: Max}, tStr, genString, refMax, false},
		{AggSpec{Kind: Min}, tFlt64, genReal, refMin, false},
		{AggSpec{Kind: Max}, tBool, genBool, refMax, false},
		{AggSpec{Kind: Min}, tDate, genDate, refMin, false},
		{AggSpec{Kind: Max}, tTS, genDate, refMax, false},
		{AggSpec{Kind: Max}, dec, genDec, refMax, false},
		{AggSpec{Kind: FirstValue}, tStr, genString, refFirst, false},
		{AggSpec{Kind: LastValue}, tStr, genString, refLast, false},
		{AggSpec{Kind: FirstValue}, tInt32, genInt, refFirst, false},
		{AggSpec{Kind: LastValue}, tFlt64, genReal, refLast, false},
		{AggSpec{Kind: ListAgg, Separator: ","}, tStr, genString, refListAgg(","), false},
		{AggSpec{Kind: VarPop}, tFlt64, genReal, refVariance(VarPop), true},
		{AggSpec{Kind: VarSamp}, tInt32, genInt, refVariance(VarSamp), true},
		{AggSpec{Kind: StddevPop}, tInt32, genInt, refVariance(StddevPop), true},
		{AggSpec{Kind: StddevSamp}, tFlt64, genReal, refVariance(StddevSamp), true},
		{AggSpec{Kind: Count, Distinct: true}, tStr, genString, distinct(refCount), false},
		{AggSpec{Kind: Count, Distinct: true}, tInt32, genInt, distinct(refCount), false},
		{AggSpec{Kind: Sum, Distinct: true}, tInt32, genInt, distinct(refSumInt), false},
		{AggSpec{Kind: Sum, Distinct: true}, tFlt64, genFloat, distinct(refSumFloat), false},
		{AggSpec{Kind: Avg, Distinct: true}, dec, genDec, distinct(refAvgDecimal), false},
		{AggSpec{Kind: Avg, Distinct: true}, tInt32, genInt, distinct(refAvgInt), false},
		{AggSpec{Kind: Min, Distinct: true}, tStr, genString, refMin, false},
		{AggSpec{Kind: VarPop, Distinct: true}, tInt32, genInt, distinct(refVariance(VarPop)), true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s distinct=%v %s", c.spec.Kind, c.spec.Distinct, c.in), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			r := rand.New(rand.NewPCG(7, uint64(len(c.spec.Kind.String()))))
			for round := range 60 {
				randomPanesRound(t, mem, r, c.spec, c.in, c.gen, c.ref, c.approx, round)
			}
		})
	}
}

func randomPanesRound(t *testing.T, mem memory.Allocator, r *rand.Rand, spec AggSpec, in arrow.DataType, gen genFn, ref refAgg, approx bool, round int) {
	n := r.IntN(120)
	panes := 1 + r.IntN(6)
	vals := make([]any, n)
	slots := make([]int32, n)
	var nonNull []any
	for i := range vals {
		slots[i] = int32(r.IntN(panes))
		if r.IntN(5) == 0 {
			continue // NULL
		}
		vals[i] = gen(r)
		nonNull = append(nonNull, vals[i])
	}
	acc, err := newAccumulator(spec, in)
	require.NoError(t, err)
	acc.resize(panes + 2)
	// a stale slot reused: reset must clear it
	junk := arrowtest.Array(t, mem, in, gen(r))
	acc.update(junk, []int32{int32(panes)}, 0, 1)
	junk.Release()
	acc.reset(int32(panes))

	// batches of random sizes, each fed in random segments
	for start := 0; start < n; {
		end := min(n, start+1+r.IntN(40))
		col := arrowtest.Array(t, mem, in, vals[start:end]...)
		for from := 0; from < end-start; {
			to := min(end-start, from+1+r.IntN(15))
			acc.update(col, slots[start:end], from, to)
			from = to
		}
		col.Release()
		start = end
	}
	// merge the panes in a random grouping, sometimes through a copy
	pool := make([]int32, panes)
	for i := range pool {
		pool[i] = int32(i)
	}
	spare := int32(panes)
	for len(pool) > 1 {
		i, j := r.IntN(len(pool)), r.IntN(len(pool)-1)
		if j >= i {
			j++
		}
		dst, src := pool[i], pool[j]
		if r.IntN(3) == 0 {
			acc.copyTo(spare, dst)
			require.True(t, acc.sameResult(spare, dst))
			acc.reset(dst)
			dst, spare = spare, dst
			pool[i] = dst
		}
		acc.merge(dst, src)
		acc.reset(src)
		pool = append(pool[:j], pool[j+1:]...)
	}
	got := results(t, mem, acc, pool[0])[0]
	want := "NULL"
	if v := ref(nonNull); v != nil {
		e := arrowtest.Array(t, mem, acc.resultType(), v)
		want = renderOne(e)
		e.Release()
	}
	if approx && want != "NULL" && got != "NULL" {
		g, err1 := strconv.ParseFloat(got, 64)
		w, err2 := strconv.ParseFloat(want, 64)
		require.NoError(t, err1)
		require.NoError(t, err2)
		require.InDelta(t, w, g, 1e-9*max(1, math.Abs(w)), "round %d: %v", round, nonNull)
		return
	}
	require.Equal(t, want, got, "round %d: values %v", round, nonNull)
}

func renderOne(a arrow.Array) string {
	if d, ok := a.(*array.Decimal128); ok {
		return d.Value(0).ToString(d.DataType().(*arrow.Decimal128Type).Scale)
	}
	return a.ValueStr(0)
}
