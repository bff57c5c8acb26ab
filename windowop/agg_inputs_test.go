package windowop

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
	"github.com/wsql/wsql/pipeline"
)

// filterSchema: ts, usr, amount, big (amount > 1, NULL where amount is).
var filterSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "usr", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "amount", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "big", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
}, nil)

// filterRows: window [0, 10) has five rows, [10, 20) one whose filter is
// FALSE, so its filtered aggregates are COUNT 0 and SUM NULL.
var filterRows = [][]any{
	{int64(1), "a", 1.0, false},
	{int64(2), "b", 2.0, true},
	{int64(3), "a", 3.0, true},
	{int64(4), "a", nil, nil},
	{int64(5), "b", 2.0, true},
	{int64(12), "a", 0.5, false},
}

// runFilterRows runs rows through a TUMBLE(10) operator in batches of
// batchSize, snapshotting and restoring it after every batch when restore
// is set.
func runFilterRows(t *testing.T, aggs []AggSpec, batchSize int, restore bool) []string {
	t.Helper()
	tum, err := NewTumble(10, 0)
	require.NoError(t, err)
	return runAggRows(t, filterSchema, filterRows, tum, aggs, batchSize, restore)
}

// runAggRows runs rows of schema (event time in column 0, in order)
// through an operator of windows a.
func runAggRows(t *testing.T, schema *arrow.Schema, rows [][]any, a Assigner, aggs []AggSpec, batchSize int, restore bool) []string {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cfg := Config{Input: schema, RowtimeIndex: 0, Assigner: a, GapIndex: -1, Aggs: aggs}
	rec := &recorder{}
	op, err := NewWindowOperator(cfg, mem, rec)
	require.NoError(t, err)
	defer func() { op.Close() }()
	for from := 0; from < len(rows); from += batchSize {
		b := arrowtest.Record(t, mem, schema, rows[from:min(from+batchSize, len(rows))]...)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b}))
		b.Release()
		if restore {
			op = snapshotAndRestore(t, op, cfg, mem, rec)
		}
	}
	require.NoError(t, op.ProcessEnd())
	return rec.rows()
}

// FILTER (WHERE big) folds only the rows whose condition is TRUE; FALSE
// and NULL rows still open their window, so a window without a TRUE row
// gives COUNT 0 and SUM NULL, as Flink's FILTER clause.
func TestAggregateFilter(t *testing.T) {
	aggs := []AggSpec{
		{Kind: CountStar, Name: "n"},
		{Kind: CountStar, Name: "n_big", Filtered: true, Filter: 3},
		{Kind: Sum, Input: 2, Name: "sum_big", Filtered: true, Filter: 3},
		{Kind: Count, Input: 1, Name: "users_big", Distinct: true, Filtered: true, Filter: 3},
		{Kind: Max, Input: 2, Name: "max_big", Filtered: true, Filter: 3},
	}
	want := []string{
		"row 0 10 9 5 3 7 2 3",
		"row 10 20 19 1 0 NULL 0 NULL",
	}
	for _, bs := range []int{1, 2, 6} {
		require.Equal(t, want, runFilterRows(t, aggs, bs, false), "batch size %d", bs)
		require.Equal(t, want, runFilterRows(t, aggs, bs, true), "batch size %d, restored", bs)
	}
}

// COUNT(DISTINCT usr, big) counts the distinct pairs without a NULL:
// (a,false) (b,true) (a,true) in [0, 10); (a,NULL) is not counted.
func TestCountDistinctSeveralColumns(t *testing.T) {
	aggs := []AggSpec{
		{Kind: Count, Input: 1, MoreInputs: []int{3}, Distinct: true, Name: "pairs"},
		{Kind: Count, Input: 1, MoreInputs: []int{2}, Distinct: true, Name: "pairs_big", Filtered: true, Filter: 3},
	}
	want := []string{
		"row 0 10 9 3 2",
		"row 10 20 19 1 0",
	}
	for _, bs := range []int{1, 4, 6} {
		require.Equal(t, want, runFilterRows(t, aggs, bs, false), "batch size %d", bs)
		require.Equal(t, want, runFilterRows(t, aggs, bs, true), "batch size %d, restored", bs)
	}
}

// A filter column that is not BOOLEAN, or out of range, is refused.
func TestAggregateFilterChecked(t *testing.T) {
	tum, err := NewTumble(10, 0)
	require.NoError(t, err)
	for _, a := range []AggSpec{{Kind: CountStar, Filtered: true, Filter: 2}, {Kind: CountStar, Filtered: true, Filter: 9}} {
		_, err := Config{Input: filterSchema, Assigner: tum, GapIndex: -1, Aggs: []AggSpec{a}}.OutputSchema()
		require.Error(t, err)
	}
}

// A count window filters as a time window does.
func TestCountWindowAggregateFilter(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cfg := CountConfig{Input: filterSchema, Size: 3, Aggs: []AggSpec{
		{Kind: CountStar, Name: "n_big", Filtered: true, Filter: 3},
		{Kind: Sum, Input: 2, Name: "sum_big", Filtered: true, Filter: 3},
	}}
	rec := &recorder{}
	op, err := NewCountWindowOperator(cfg, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	b := arrowtest.Record(t, mem, filterSchema, filterRows...)
	require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b}))
	b.Release()
	require.NoError(t, op.ProcessEnd())
	require.Equal(t, []string{"row 3 2 5", "row 3 1 2"}, rec.rows())
}
