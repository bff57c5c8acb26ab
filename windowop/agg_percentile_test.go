package windowop

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"
)

var pctSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "freq", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "d", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
}, nil)

// Windows of 10 ms:
// [0, 10): Flink's documented example, PERCENTILE(age, 0.25) over 10, 20,
// 30, 40 is 17.5 (sql_functions.yml); a NULL value is skipped.
// [10, 20): FLINK-36123's examples, PERCENTILE(col, 0.3) over 0, 10, 10,
// and over (0, freq 1), (10, freq 2): 6.0 in the issue, which is Spark's
// arithmetic; Flink's PercentileAggFunction interpolates at the 1-based
// position 1.6, (2 − 1.6)·0 + (1.6 − 1)·10 = 6.000000000000001. The
// frequency of the NULL, 0 and negative rows skips them.
// [20, 30): only NULL values: NULL.
var pctRows = [][]any{
	{int64(1), int64(40), int32(1), "0.40"},
	{int64(2), int64(10), int32(1), "0.10"},
	{int64(3), nil, int32(1), nil},
	{int64(4), int64(30), int32(1), "0.30"},
	{int64(5), int64(20), int32(1), "0.20"},
	{int64(11), int64(10), int32(2), "0.10"},
	{int64(12), int64(0), int32(1), "0.00"},
	{int64(13), int64(99), nil, "0.10"},
	{int64(14), int64(99), int32(0), nil},
	{int64(15), int64(99), int32(-3), nil},
	{int64(20), nil, int32(1), nil},
}

func TestPercentile(t *testing.T) {
	aggs := []AggSpec{
		{Kind: Percentile, Input: 1, Percentage: 0.25, Name: "p25"},
		{Kind: Percentile, Input: 1, MoreInputs: []int{2}, Percentage: 0.3, Name: "p30_freq"},
		{Kind: Percentile, Input: 1, Percentage: 1, Name: "p100"},
		{Kind: Percentile, Input: 1, Percentage: 0.5, Name: "p50_distinct", Distinct: true},
		{Kind: Percentile, Input: 3, Percentage: 0.5, Name: "p50_decimal"},
	}
	tum, err := NewTumble(10, 0)
	require.NoError(t, err)
	want := []string{
		// [0,10): frequency 1 each; p30 of 10,20,30,40 is at 1.9: 19
		"row 0 10 9 17.5 19 40 25 0.25",
		// [10,20): p25 of 0,10,10,99,99,99: position 2.25 → 10; with the
		// frequencies, (0, 1) and (10, 2): 6
		"row 10 20 19 10 6.000000000000001 99 10 0.1",
		"row 20 30 29 NULL NULL NULL NULL NULL",
	}
	for _, bs := range []int{1, 3, 11} {
		require.Equal(t, want, runAggRows(t, pctSchema, pctRows, tum, aggs, bs, false), "batch size %d", bs)
		require.Equal(t, want, runAggRows(t, pctSchema, pctRows, tum, aggs, bs, true), "batch size %d, restored", bs)
	}

	// HOP windows merge their panes' values
	hop, err := NewHop(10, 20, 0)
	require.NoError(t, err)
	want = []string{
		"row -10 10 9 17.5 19 40 25 0.25",
		// 10..40 and 0, 10, 10, 99 ×3: p25 at 2.75 of
		// 0 10 10 10 20 30 40 99 99 99 → 10
		"row 0 20 19 10 10 99 25 0.1",
		"row 10 30 29 10 6.000000000000001 99 10 0.1",
		"row 20 40 39 NULL NULL NULL NULL NULL",
	}
	for _, bs := range []int{1, 4, 11} {
		require.Equal(t, want, runAggRows(t, pctSchema, pctRows, hop, aggs, bs, false), "batch size %d", bs)
		require.Equal(t, want, runAggRows(t, pctSchema, pctRows, hop, aggs, bs, true), "batch size %d, restored", bs)
	}
}

// Flink's PercentileAggFunctionITCase, group "A": the values 1, 5, 4, 2,
// 9, 1, 4 with frequencies 1, 2, 1, 4, 3, 2, 1 give PERCENTILE(f0, 0.5) 4.0,
// PERCENTILE(f0, 0.3) 1.7999999999999998 and PERCENTILE(f0, 0.5, f1) 3.0;
// its DECIMAL case, 3.0, 9.0, 5.0, gives PERCENTILE(f0, 0.1)
// 3.4000000000000004.
func TestPercentileAsFlinkTests(t *testing.T) {
	rows := [][]any{
		{int64(1), int64(1), int32(1), "3.00"},
		{int64(1), int64(5), int32(2), "9.00"},
		{int64(1), int64(4), int32(1), "5.00"},
		{int64(1), int64(2), int32(4), nil},
		{int64(1), int64(9), int32(3), nil},
		{int64(1), int64(1), int32(2), nil},
		{int64(1), int64(4), int32(1), nil},
	}
	aggs := []AggSpec{
		{Kind: Percentile, Input: 1, Percentage: 0.5, Name: "p50"},
		{Kind: Percentile, Input: 1, Percentage: 0.3, Name: "p30"},
		{Kind: Percentile, Input: 1, MoreInputs: []int{2}, Percentage: 0.5, Name: "p50_freq"},
		{Kind: Percentile, Input: 3, Percentage: 0.1, Name: "p10_decimal"},
	}
	tum, err := NewTumble(10, 0)
	require.NoError(t, err)
	for _, bs := range []int{1, 7} {
		require.Equal(t, []string{"row 0 10 9 4 1.7999999999999998 3 3.4000000000000004"},
			runAggRows(t, pctSchema, rows, tum, aggs, bs, true))
	}
}

// Many repeated values are kept once each with a count.
func TestPercentileTidiesRepeats(t *testing.T) {
	a, err := newPercentileAcc(arrow.PrimitiveTypes.Float64, 0.5, nil, false)
	require.NoError(t, err)
	a.resize(1)
	for i := range 10_000 {
		a.add(0, float64(i%3), 1)
	}
	require.Less(t, len(a.vals[0]), 100)
	v, ok := a.result(0)
	require.True(t, ok)
	require.Equal(t, 1.0, v)
}

func TestPercentileRefusesBadPercentage(t *testing.T) {
	for _, p := range []float64{-0.1, 1.5} {
		_, err := newAccumulator(AggSpec{Kind: Percentile, Percentage: p}, arrow.PrimitiveTypes.Int64)
		require.ErrorContains(t, err, "between 0.0 and 1.0")
	}
}
