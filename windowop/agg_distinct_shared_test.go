package windowop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
)

// TestSharedCountDistinctMatchesSeparateSets drives COUNT(DISTINCT x)
// aggregates with different FILTERs, sharing one set per column, and the
// same aggregates each with a set of its own, through random updates,
// merges, copies, resets and a save and load, and checks every result
// after every step.
func TestSharedCountDistinctMatchesSeparateSets(t *testing.T) {
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Float64} {
		for seed := range uint64(20) {
			t.Run(fmt.Sprintf("%s/%d", dt, seed), func(t *testing.T) {
				sharedCountDistinctRound(t, dt, seed)
			})
		}
	}
}

func sharedCountDistinctRound(t *testing.T, dt arrow.DataType, seed uint64) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(seed, 19))
	// columns: 0 and 1 values, 2.. filters
	members := 2 + r.IntN(4)
	var specs []AggSpec
	for m := range members {
		spec := AggSpec{Kind: Count, Distinct: true, Input: m % 2}
		if m >= 2 {
			spec.Filtered, spec.Filter = true, 2+m
		}
		specs = append(specs, spec)
	}
	build := func() []accumulator {
		var accs []accumulator
		for _, s := range specs {
			a, err := newAccumulator(s, dt)
			require.NoError(t, err)
			accs = append(accs, a)
		}
		return accs
	}
	separate, shared := build(), build()
	shareCountDistinct(specs, shared)
	for _, a := range shared {
		require.IsType(t, &sharedCountDistinct{}, a)
	}
	n := 1 + r.IntN(6)
	for _, a := range append(append([]accumulator{}, separate...), shared...) {
		a.resize(n)
	}
	var in aggInputs
	check := func(step string) {
		slots := make([]int32, n)
		for s := range slots {
			slots[s] = int32(s)
		}
		for i := range specs {
			want, got := resultsOf(mem, separate[i], slots), resultsOf(mem, shared[i], slots)
			require.Equal(t, want, got, "seed %d, %s, aggregate %d", seed, step, i)
		}
	}
	for step := range 60 {
		switch k := r.IntN(10); {
		case k < 6:
			rows := 1 + r.IntN(50)
			rec := randomDistinctBatch(mem, r, dt, rows, 2+members, n)
			slots := make([]int32, rows)
			for i := range slots {
				slots[i] = int32(r.IntN(n+1)) - 1
			}
			from := r.IntN(rows)
			in.update(separate, specs, rec, slots, from, rows)
			in.update(shared, specs, rec, slots, from, rows)
			rec.Release()
		case k < 8:
			dst, src := int32(r.IntN(n)), int32(r.IntN(n))
			if dst != src {
				for i := range specs {
					separate[i].merge(dst, src)
					shared[i].merge(dst, src)
				}
			}
		case k < 9:
			dst, src := int32(r.IntN(n)), int32(r.IntN(n))
			if dst != src {
				for i := range specs {
					separate[i].copyTo(dst, src)
					shared[i].copyTo(dst, src)
				}
			}
		default:
			s := int32(r.IntN(n))
			for i := range specs {
				separate[i].reset(s)
				shared[i].reset(s)
			}
		}
		check(fmt.Sprintf("step %d", step))
		if step == 30 {
			var e checkpoint.Encoder
			for _, a := range shared {
				a.save(&e, n)
			}
			blob := e.Data()
			loaded := build()
			shareCountDistinct(specs, loaded)
			d := checkpoint.NewDecoder(blob)
			for _, a := range loaded {
				a.load(d, n)
			}
			require.NoError(t, d.Finish())
			var e2 checkpoint.Encoder
			for _, a := range loaded {
				a.save(&e2, n)
			}
			require.Equal(t, blob, e2.Data(), "seed %d: saving the loaded state", seed)
			shared = loaded
			check("after load")
		}
	}
}

// randomDistinctBatch has cols columns: two of values of type dt (few
// distinct, some NULL) and the rest BOOLEAN filters.
func randomDistinctBatch(mem memory.Allocator, r *rand.Rand, dt arrow.DataType, rows, cols, spread int) arrow.RecordBatch {
	var fields []arrow.Field
	var arrs []arrow.Array
	for c := range cols {
		var b array.Builder
		if c < 2 {
			b = array.NewBuilder(mem, dt)
		} else {
			b = array.NewBooleanBuilder(mem)
		}
		for range rows {
			if r.IntN(8) == 0 {
				b.AppendNull()
				continue
			}
			v := r.IntN(5 * spread)
			switch bb := b.(type) {
			case *array.Int64Builder:
				bb.Append(int64(v) - 7)
			case *array.Int32Builder:
				bb.Append(int32(v))
			case *array.Float64Builder:
				bb.Append(float64(v) / 2)
			case *array.BooleanBuilder:
				bb.Append(v%2 == 0)
			}
		}
		arrs = append(arrs, b.NewArray())
		b.Release()
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("c%d", c), Type: arrs[c].DataType(), Nullable: true})
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(rows))
	for _, a := range arrs {
		a.Release()
	}
	return rec
}

func resultsOf(mem memory.Allocator, a accumulator, slots []int32) []int64 {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	a.appendResults(slots, b)
	arr := b.NewInt64Array()
	defer arr.Release()
	return append([]int64(nil), arr.Int64Values()...)
}
