package expr

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// decimalColumns is a record of two DECIMAL columns of n rows each,
// l[i] = i + 0.5 at lt's scale and r[i] = 3 at rt's scale.
func decimalColumns(t testing.TB, mem memory.Allocator, n int, lt, rt *arrow.Decimal128Type) arrow.RecordBatch {
	lb := array.NewDecimal128Builder(mem, lt)
	defer lb.Release()
	rb := array.NewDecimal128Builder(mem, rt)
	defer rb.Release()
	for i := range n {
		v, _ := decimal128.FromI64(int64(2*i + 1)).Mul(decimal128.GetScaleMultiplier(int(lt.Scale))).Div(decimal128.FromI64(2))
		lb.Append(v)
		rb.Append(decimal128.FromI64(3).Mul(decimal128.GetScaleMultiplier(int(rt.Scale))))
	}
	l, r := lb.NewArray(), rb.NewArray()
	defer l.Release()
	defer r.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "l", Type: lt}, {Name: "r", Type: rt}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{l, r}, int64(n))
}

// The kernels work past 128 bits (DECIMAL(38, 10) × DECIMAL(38, 10) is
// DECIMAL(38, 6), its exact product has 20 fraction digits) and in the
// 128-bit fast paths, and free every buffer.
func TestDecimalArithKernel(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	wide := &arrow.Decimal128Type{Precision: 38, Scale: 10}
	rec := decimalColumns(t, mem, 3, wide, wide)
	defer rec.Release()
	for _, c := range []struct {
		op   byte
		dt   *arrow.Decimal128Type
		want []string
	}{
		{'+', &arrow.Decimal128Type{Precision: 38, Scale: 9}, []string{"3.500000000", "4.500000000", "5.500000000"}},
		{'-', &arrow.Decimal128Type{Precision: 38, Scale: 9}, []string{"-2.500000000", "-1.500000000", "-0.500000000"}},
		{'*', &arrow.Decimal128Type{Precision: 38, Scale: 6}, []string{"1.500000", "4.500000", "7.500000"}},
		{'/', &arrow.Decimal128Type{Precision: 38, Scale: 6}, []string{"0.166667", "0.500000", "0.833333"}},
		{'%', &arrow.Decimal128Type{Precision: 38, Scale: 10}, []string{"0.5000000000", "1.5000000000", "2.5000000000"}},
	} {
		e := &DecimalArith{Op: c.op, L: col(rec, 0), R: col(rec, 1), Type: c.dt}
		require.Equal(t, c.want, texts(t, mem, e, rec), string(c.op))
	}
	narrow := &arrow.Decimal128Type{Precision: 10, Scale: 2}
	small := decimalColumns(t, mem, 3, narrow, narrow)
	defer small.Release()
	e := &DecimalArith{Op: '*', L: col(small, 0), R: col(small, 1), Type: &arrow.Decimal128Type{Precision: 21, Scale: 4}}
	require.Equal(t, []string{"1.5000", "4.5000", "7.5000"}, texts(t, mem, e, small))
}

// A batch allocates the same whatever its length: the wide path reuses
// its big.Ints from row to row.
func TestDecimalArithAllocatesPerBatch(t *testing.T) {
	if raceEnabled {
		t.Skip("under -race, math/big's pooled scratch allocates at random")
	}
	wide := &arrow.Decimal128Type{Precision: 38, Scale: 10}
	mem := memory.NewGoAllocator()
	allocs := func(n int) float64 {
		rec := decimalColumns(t, mem, n, wide, wide)
		defer rec.Release()
		e := &DecimalArith{Op: '/', L: col(rec, 0), R: col(rec, 1), Type: &arrow.Decimal128Type{Precision: 38, Scale: 6}}
		return testing.AllocsPerRun(5, func() {
			a, err := e.Eval(rec, mem)
			require.NoError(t, err)
			a.Release()
		})
	}
	few, many := allocs(16), allocs(4096)
	require.Less(t, many, few+40, "allocations grow with the rows: %v for 16 rows, %v for 4096", few, many)
}

func BenchmarkDecimalArith(b *testing.B) {
	mem := memory.NewGoAllocator()
	for _, c := range []struct {
		name string
		op   byte
		in   *arrow.Decimal128Type
		out  *arrow.Decimal128Type
	}{
		{"mul_fast", '*', &arrow.Decimal128Type{Precision: 10, Scale: 2}, &arrow.Decimal128Type{Precision: 21, Scale: 4}},
		{"mul_wide", '*', &arrow.Decimal128Type{Precision: 38, Scale: 10}, &arrow.Decimal128Type{Precision: 38, Scale: 6}},
		{"div", '/', &arrow.Decimal128Type{Precision: 10, Scale: 2}, &arrow.Decimal128Type{Precision: 23, Scale: 13}},
	} {
		b.Run(c.name, func(b *testing.B) {
			rec := decimalColumns(b, mem, 4096, c.in, c.in)
			defer rec.Release()
			e := &DecimalArith{Op: c.op, L: col(rec, 0), R: col(rec, 1), Type: c.out}
			b.ReportAllocs()
			for b.Loop() {
				a, _ := e.Eval(rec, mem)
				a.Release()
			}
			b.ReportMetric(float64(b.N)*4096/b.Elapsed().Seconds()/1e6, "Mrows/s")
		})
	}
}

// The 64-bit division agrees with the exact wide path, row for row.
func TestDecimalDivide64MatchesWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range [][4]int32{{10, 2, 10, 2}, {5, 0, 3, 3}, {19, 0, 10, 0}, {4, 3, 19, 0}, {18, 9, 2, 1}} {
		p1, s1, p2, s2 := c[0], c[1], c[2], c[3]
		s := max(6, s1+p2+1)
		p := min(38, p1-s1+s2+s)
		k := &decimalOp{op: '/', s1: s1, s2: s2, p: p, s: s}
		for range 20000 {
			l := decimal128.FromI64(rng.Int64N(int64(pow10u64[min(p1, 18)])) - int64(pow10u64[min(p1, 18)])/2)
			r := decimal128.FromI64(rng.Int64N(int64(pow10u64[min(p2, 18)])) - int64(pow10u64[min(p2, 18)])/2)
			if r.Sign() == 0 {
				continue
			}
			fast, fastOK, done := k.divide64(l, r)
			if !done {
				continue
			}
			a, b := k.w.set(&k.w.a, l), k.w.set(&k.w.b, r)
			k.divide(a, b)
			wide, wideOK := num(a, k.p)
			require.Equal(t, wideOK, fastOK, "%s / %s", l.ToString(s1), r.ToString(s2))
			require.Equal(t, wide, fast, "%s / %s", l.ToString(s1), r.ToString(s2))
		}
	}
}
