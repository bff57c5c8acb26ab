package windowop

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

var (
	tInt8  = arrow.PrimitiveTypes.Int8
	tInt32 = arrow.PrimitiveTypes.Int32
	tInt64 = arrow.PrimitiveTypes.Int64
	tFlt32 = arrow.PrimitiveTypes.Float32
	tFlt64 = arrow.PrimitiveTypes.Float64
	tBool  = arrow.FixedWidthTypes.Boolean
	tStr   = arrow.BinaryTypes.String
	tDate  = arrow.FixedWidthTypes.Date32
	tTS    = &arrow.TimestampType{Unit: arrow.Millisecond}
	tLTZ   = &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
	tDec   = &arrow.Decimal128Type{Precision: 10, Scale: 2}
)

// results renders each slot's result as text ("NULL" for NULL).
func results(t testing.TB, mem memory.Allocator, acc accumulator, slots ...int32) []string {
	t.Helper()
	b := array.NewBuilder(mem, acc.resultType())
	defer b.Release()
	acc.appendResults(slots, b)
	arr := b.NewArray()
	defer arr.Release()
	out := make([]string, arr.Len())
	for i := range out {
		switch a := arr.(type) {
		case *array.Decimal128: // with its scale, not ValueStr's trimmed float form
			out[i] = a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale)
		default:
			out[i] = arr.ValueStr(i)
		}
		if arr.IsNull(i) {
			out[i] = "NULL"
		}
	}
	return out
}

// feed builds an accumulator with n slots and folds vals, row i into
// slots[i], in one update call.
func feed(t testing.TB, mem memory.Allocator, spec AggSpec, dt arrow.DataType, n int, vals []any, slots []int32) accumulator {
	t.Helper()
	acc, err := newAccumulator(spec, dt)
	require.NoError(t, err)
	acc.resize(n)
	if len(vals) > 0 {
		col := arrowtest.Array(t, mem, dt, vals...)
		defer col.Release()
		acc.update(col, slots, 0, len(vals))
	}
	return acc
}

func repeat(s int32, n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestAggregateResultsAndTypes(t *testing.T) {
	dec38 := func(s int32) arrow.DataType { return &arrow.Decimal128Type{Precision: 38, Scale: s} }
	cases := []struct {
		name string
		spec AggSpec
		in   arrow.DataType
		vals []any
		out  arrow.DataType
		want string
	}{
		{"count", AggSpec{Kind: Count}, tInt32, []any{1, nil, 3}, tInt64, "2"},
		{"sum int", AggSpec{Kind: Sum}, tInt32, []any{1, nil, 3}, tInt32, "4"},
		{"sum all null", AggSpec{Kind: Sum}, tInt32, []any{nil, nil}, tInt32, "NULL"},
		{"sum decimal", AggSpec{Kind: Sum}, tDec, []any{150, -25, nil}, dec38(2), "1.25"},
		{"sum decimal scale kept", AggSpec{Kind: Sum}, tDec, []any{100, 200}, dec38(2), "3.00"},
		{"avg int truncates", AggSpec{Kind: Avg}, tInt32, []any{3, 4, 4, 4}, tInt32, "3"},
		{"avg int toward zero", AggSpec{Kind: Avg}, tInt64, []any{-3, -4, -4, -4}, tInt64, "-3"},
		{"avg tinyint sums wide", AggSpec{Kind: Avg}, tInt8, []any{100, 100, 100}, tInt8, "100"},
		{"avg double", AggSpec{Kind: Avg}, tFlt64, []any{1.0, 2.0, nil}, tFlt64, "1.5"},
		{"avg float", AggSpec{Kind: Avg}, tFlt32, []any{1.0, 2.0}, tFlt32, "1.5"},
		{"avg decimal scale 6", AggSpec{Kind: Avg}, tDec, []any{100, 200, 200}, dec38(6), "1.666667"},
		{"avg decimal half up", AggSpec{Kind: Avg}, &arrow.Decimal128Type{Precision: 20, Scale: 8}, []any{1, 0}, dec38(8), "0.00000001"},
		{"avg decimal negative", AggSpec{Kind: Avg}, tDec, []any{-100, -200, -200}, dec38(6), "-1.666667"},
		{"avg null", AggSpec{Kind: Avg}, tInt32, []any{nil}, tInt32, "NULL"},
		{"min int", AggSpec{Kind: Min}, tInt32, []any{5, nil, -2, 7}, tInt32, "-2"},
		{"max int", AggSpec{Kind: Max}, tInt32, []any{5, nil, -2, 7}, tInt32, "7"},
		{"min all null", AggSpec{Kind: Min}, tInt32, []any{nil, nil}, tInt32, "NULL"},
		{"max string by bytes", AggSpec{Kind: Max}, tStr, []any{"b", "a", "é", "z"}, tStr, "é"},
		{"min string", AggSpec{Kind: Min}, tStr, []any{"b", "ab", nil, "abc"}, tStr, "ab"},
		{"min bool", AggSpec{Kind: Min}, tBool, []any{true, false, true}, tBool, "false"},
		{"max bool", AggSpec{Kind: Max}, tBool, []any{false, nil, true}, tBool, "true"},
		{"max date", AggSpec{Kind: Max}, tDate, []any{1, 19000, 3}, tDate, "2022-01-08"},
		{"min timestamp", AggSpec{Kind: Min}, tTS, []any{5000, 1000, 3000}, tTS, "1970-01-01T00:00:01"},
		{"max timestamp_ltz", AggSpec{Kind: Max}, tLTZ, []any{5000, 1000}, tLTZ, "1970-01-01T00:00:05Z"},
		{"max decimal", AggSpec{Kind: Max}, tDec, []any{150, -25, 99}, tDec, "1.50"},
		{"min double nan is largest", AggSpec{Kind: Min}, tFlt64, []any{nan(), 2.0}, tFlt64, "2"},
		{"max double nan", AggSpec{Kind: Max}, tFlt64, []any{2.0, nan()}, tFlt64, "NaN"},
		{"first skips null", AggSpec{Kind: FirstValue}, tStr, []any{nil, "x", "y"}, tStr, "x"},
		{"last skips null", AggSpec{Kind: LastValue}, tInt64, []any{1, 2, nil}, tInt64, "2"},
		{"stddev_pop", AggSpec{Kind: StddevPop}, tInt32, []any{2, 4, 4, 4, 5, 5, 7, 9}, tFlt64, "2"},
		{"var_pop", AggSpec{Kind: VarPop}, tFlt64, []any{2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}, tFlt64, "4"},
		{"var_samp", AggSpec{Kind: VarSamp}, tInt32, []any{1, 2, 3, 4}, tFlt64, "1.6666666666666667"},
		{"stddev_samp one value", AggSpec{Kind: StddevSamp}, tInt32, []any{1, nil}, tFlt64, "NULL"},
		{"var_pop one value", AggSpec{Kind: VarPop}, tInt32, []any{7}, tFlt64, "0"},
		{"var_pop decimal", AggSpec{Kind: VarPop}, tDec, []any{100, 300}, tFlt64, "1"},
		{"listagg default", AggSpec{Kind: ListAgg, Separator: ","}, tStr, []any{"a", nil, "b", "c"}, tStr, "a,b,c"},
		{"listagg sep", AggSpec{Kind: ListAgg, Separator: " | "}, tStr, []any{"a", "b"}, tStr, "a | b"},
		{"listagg null", AggSpec{Kind: ListAgg, Separator: ","}, tStr, []any{nil}, tStr, "NULL"},
		{"listagg empty strings", AggSpec{Kind: ListAgg, Separator: ""}, tStr, []any{"", ""}, tStr, ""},
		{"count distinct", AggSpec{Kind: Count, Distinct: true}, tStr, []any{"a", "b", "a", nil}, tInt64, "2"},
		{"sum distinct", AggSpec{Kind: Sum, Distinct: true}, tInt32, []any{1, 2, 2, 1, nil}, tInt32, "3"},
		{"avg distinct", AggSpec{Kind: Avg, Distinct: true}, tInt32, []any{1, 2, 2, 2}, tInt32, "1"},
		{"avg distinct decimal", AggSpec{Kind: Avg, Distinct: true}, tDec, []any{100, 100, 200}, dec38(6), "1.500000"},
		{"count distinct nan", AggSpec{Kind: Count, Distinct: true}, tFlt64, []any{nan(), nan(), 0.0, negZero()}, tInt64, "3"},
		{"max distinct", AggSpec{Kind: Max, Distinct: true}, tInt32, []any{1, 3, 3}, tInt32, "3"},
		{"var_pop distinct", AggSpec{Kind: VarPop, Distinct: true}, tInt32, []any{1, 3, 3, 3}, tFlt64, "1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			acc := feed(t, mem, c.spec, c.in, 1, c.vals, repeat(0, len(c.vals)))
			require.True(t, arrow.TypeEqual(c.out, acc.resultType()), "result type %s, want %s", acc.resultType(), c.out)
			require.Equal(t, []string{c.want}, results(t, mem, acc, 0))
		})
	}
}

func nan() float64     { z := 0.0; return z / z }
func negZero() float64 { z := 0.0; return -z }

func TestSumDecimalOverflowIsNull(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dt := &arrow.Decimal128Type{Precision: 38, Scale: 0}
	big := decimal128.GetMaxValue(38) // 10^38 − 1
	b := array.NewDecimal128Builder(mem, dt)
	b.AppendValues([]decimal128.Num{big, big, big.Negate()}, nil)
	col := b.NewArray()
	b.Release()
	defer col.Release()
	acc, err := newAccumulator(AggSpec{Kind: Sum}, dt)
	require.NoError(t, err)
	acc.resize(3)
	// slot 0: big + big overflows; slot 1: big + big − big does not, as
	// the sum is exact until output
	acc.update(col, []int32{0, 0, -1}, 0, 3)
	acc.update(col, []int32{1, 1, 1}, 0, 3)
	require.Equal(t, []string{"NULL", big.ToString(0)}, results(t, mem, acc, 0, 1))
	require.False(t, acc.sameResult(0, 1))
	acc.merge(0, 1) // 3·big: still NULL
	require.Equal(t, []string{"NULL"}, results(t, mem, acc, 0))
}

// Every accumulator: merge of two slots, copy, sameResult, reset.
func TestAggregateMergeCopySame(t *testing.T) {
	cases := []struct {
		spec       AggSpec
		in         arrow.DataType
		a, b       []any // rows into slot 0, then slot 1 (slot 1 arrives later)
		merged     string
		aOnly      string
		bMergedToA string // merge(1, 0): slot 0 into slot 1
	}{
		{AggSpec{Kind: Count}, tInt32, []any{1, nil}, []any{2, 3}, "3", "1", "3"},
		{AggSpec{Kind: Sum}, tInt64, []any{1, nil}, []any{2, 3}, "6", "1", "6"},
		{AggSpec{Kind: Sum}, tDec, []any{1}, []any{2}, "0.03", "0.01", "0.03"},
		{AggSpec{Kind: Avg}, tInt32, []any{1, nil}, []any{2, 4}, "2", "1", "2"},
		{AggSpec{Kind: Avg}, tDec, []any{1}, []any{2}, "0.015000", "0.010000", "0.015000"},
		{AggSpec{Kind: Min}, tStr, []any{"m", "k"}, []any{"z", "b"}, "b", "k", "b"},
		{AggSpec{Kind: Max}, tFlt64, []any{1.0}, []any{nil}, "1", "1", "1"},
		{AggSpec{Kind: FirstValue}, tStr, []any{"a1", "a2"}, []any{"b1"}, "a1", "a1", "a1"},
		{AggSpec{Kind: LastValue}, tInt32, []any{1, 2}, []any{3, nil}, "3", "2", "3"},
		{AggSpec{Kind: VarPop}, tInt32, []any{1, 3}, []any{5, 7}, "5", "1", "5"},
		{AggSpec{Kind: ListAgg, Separator: ";"}, tStr, []any{"a", "b"}, []any{"c"}, "a;b;c", "a;b", "a;b;c"},
		{AggSpec{Kind: Count, Distinct: true}, tStr, []any{"x", "y"}, []any{"y", "z"}, "3", "2", "3"},
		{AggSpec{Kind: Sum, Distinct: true}, tFlt64, []any{1.0, 2.0}, []any{2.0, 4.0}, "7", "3", "7"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s %s", c.spec.Kind, c.in), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			vals := append(append([]any(nil), c.a...), c.b...)
			slots := append(repeat(0, len(c.a)), repeat(1, len(c.b))...)
			acc := feed(t, mem, c.spec, c.in, 4, vals, slots)

			acc.copyTo(2, 0) // a copy is independent of its source
			require.True(t, acc.sameResult(0, 2))
			acc.merge(0, 1)
			require.Equal(t, []string{c.merged, c.aOnly}, results(t, mem, acc, 0, 2))
			require.Equal(t, c.merged == c.aOnly, acc.sameResult(0, 2))

			acc.merge(1, 2) // the earlier rows merged into the later slot
			require.Equal(t, []string{c.bMergedToA}, results(t, mem, acc, 1))
			require.True(t, acc.sameResult(0, 1))

			acc.reset(2)
			acc.merge(3, 2) // merging an empty slot changes nothing
			require.True(t, acc.sameResult(2, 3))
			require.Equal(t, results(t, mem, acc, 3), results(t, mem, acc, 2))
		})
	}
}

func TestAvgSameResultComparesAverages(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	acc := feed(t, mem, AggSpec{Kind: Avg}, tInt32, 2, []any{4, 0, 6, 0, 0}, []int32{0, 0, 1, 1, 1})
	require.Equal(t, []string{"2", "2"}, results(t, mem, acc, 0, 1))
	require.True(t, acc.sameResult(0, 1), "4/2 and 6/3 are the same result: no update")
}

func TestListAggSameResultComparesJoinedText(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	acc := feed(t, mem, AggSpec{Kind: ListAgg, Separator: ","}, tStr, 2, []any{"a,b", "c", "a", "b,c"}, []int32{0, 0, 1, 1})
	require.True(t, acc.sameResult(0, 1))
}

func TestUnsupportedArguments(t *testing.T) {
	for _, c := range []struct {
		spec AggSpec
		in   arrow.DataType
	}{
		{AggSpec{Kind: Sum}, tStr},
		{AggSpec{Kind: Avg}, tBool},
		{AggSpec{Kind: VarPop}, tStr},
		{AggSpec{Kind: ListAgg}, tInt32},
		{AggSpec{Kind: Min}, arrow.BinaryTypes.Binary},
		{AggSpec{Kind: FirstValue, Distinct: true}, tInt32},
		{AggSpec{Kind: Count}, nil},
	} {
		_, err := newAccumulator(c.spec, c.in)
		require.Error(t, err, "%v over %v", c.spec.Kind, c.in)
	}
}

// FIRST_VALUE and LAST_VALUE number rows across batches and segments:
// rows of a later batch arrive later whatever slot they reach.
func TestFirstLastArrivalAcrossBatches(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	first, err := newAccumulator(AggSpec{Kind: FirstValue}, tInt32)
	require.NoError(t, err)
	last, err := newAccumulator(AggSpec{Kind: LastValue}, tInt32)
	require.NoError(t, err)
	for _, a := range []accumulator{first, last} {
		a.resize(2)
	}
	b1 := arrowtest.Array(t, mem, tInt32, 10, 11, 12, 13)
	defer b1.Release()
	b2 := arrowtest.Array(t, mem, tInt32, 20, 21)
	defer b2.Release()
	for _, a := range []accumulator{first, last} {
		// batch 1 in two segments: rows 0, 3 to slot 1; 1, 2 to slot 0
		a.update(b1, []int32{1, 0, 0, 1}, 0, 2)
		a.update(b1, []int32{1, 0, 0, 1}, 2, 4)
		// batch 2: row 0 to slot 0, row 1 to slot 1
		a.update(b2, []int32{0, 1}, 0, 2)
	}
	// slot 0 saw 11, 12, 20; slot 1 saw 10, 13, 21
	first.merge(0, 1)
	last.merge(1, 0)
	require.Equal(t, []string{"10"}, results(t, mem, first, 0))
	require.Equal(t, []string{"21"}, results(t, mem, last, 1))
}

// A sliding count window folds a batch once per overlapping window: later
// rows can reach a slot in an earlier pass. FIRST_VALUE, LAST_VALUE and
// LISTAGG still follow the row order.
func TestArrivalAggregatesAcrossPasses(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	col := arrowtest.Array(t, mem, tStr, "r0", "r1", "r2", "r3")
	defer col.Release()
	for _, c := range []struct {
		spec AggSpec
		want string
	}{
		{AggSpec{Kind: FirstValue}, "r0"},
		{AggSpec{Kind: LastValue}, "r3"},
		{AggSpec{Kind: ListAgg, Separator: ","}, "r0,r1,r2,r3"},
	} {
		acc, err := newAccumulator(c.spec, tStr)
		require.NoError(t, err)
		acc.resize(2)
		acc.update(col, []int32{-1, -1, 0, 0}, 0, 4) // pass 0: rows 2, 3
		acc.update(col, []int32{0, 0, -1, -1}, 0, 4) // pass 1: rows 0, 1
		require.Equal(t, []string{c.want}, results(t, mem, acc, 0), "%s", c.spec.Kind)
		acc.copyTo(1, 0)
		require.True(t, acc.sameResult(0, 1))
		require.Equal(t, []string{c.want}, results(t, mem, acc, 1), "%s copy", c.spec.Kind)
	}
}
