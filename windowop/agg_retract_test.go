package windowop

import (
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
)

// runChanges feeds a changelog of one key whose columns are filled by
// fill, row by row, to a group operator of aggs, and returns its rows.
func runChanges(t *testing.T, fields []arrow.Field, aggs []AggSpec, kinds []RowKind, fill func(b *array.RecordBuilder, i int)) []string {
	t.Helper()
	schema := arrow.NewSchema(append([]arrow.Field{RowKindField()}, fields...), nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := &recorder{}
	op, err := NewGroupOperator(GroupConfig{Input: schema, Retract: true, Aggs: aggs}, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i, k := range kinds {
		b.Field(0).(*array.StringBuilder).Append(string(k))
		fill(b, i)
	}
	in := b.NewRecordBatch()
	defer in.Release()
	require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in}))
	return slices.DeleteFunc(rec.events, func(e string) bool { return !strings.HasPrefix(e, "row ") })
}

// MIN and MAX of BYTES and TIME, which the window aggregates do not take,
// retract over an update stream: taking out the extreme finds the next.
func TestRetractMinMaxOfBytesAndTime(t *testing.T) {
	kinds := []RowKind{Insert, Insert, Insert, UpdateBefore, UpdateAfter, Delete}
	bs := [][]byte{{2}, {1, 0}, {3}, {3}, {0}, {1, 0}}
	times := []arrow.Time64{5, 9, 7, 9, 1, 5}
	got := runChanges(t, []arrow.Field{
		{Name: "b", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "t", Type: arrow.FixedWidthTypes.Time64us, Nullable: true},
	}, []AggSpec{{Kind: Max, Input: 1}, {Kind: Min, Input: 1}, {Kind: Max, Input: 2}}, kinds, func(b *array.RecordBuilder, i int) {
		b.Field(1).(*array.BinaryBuilder).Append(bs[i])
		b.Field(2).(*array.Time64Builder).Append(times[i])
	})
	require.Equal(t, []string{
		// BYTES show in base64: 2 is Ag==, (1, 0) AQA=, 3 Aw==, 0 AA==
		"row +I Ag== Ag== 00:00:00.000005",
		"row -U Ag== Ag== 00:00:00.000005", "row +U Ag== AQA= 00:00:00.000009",
		"row -U Ag== AQA= 00:00:00.000009", "row +U Aw== AQA= 00:00:00.000009",
		// -U takes out 3 and 9: the next are 2 and 7
		"row -U Aw== AQA= 00:00:00.000009", "row +U Ag== AQA= 00:00:00.000007",
		"row -U Ag== AQA= 00:00:00.000007", "row +U Ag== AA== 00:00:00.000007",
		// -D takes out (1, 0) and 5, which change no result
	}, got)
}

// COUNT(DISTINCT a, b) counts the combinations without a NULL; PERCENTILE
// with a frequency takes the row's frequency out; JSON_OBJECTAGG takes
// out the member of the row's key.
func TestRetractMultiArgumentAggregates(t *testing.T) {
	kinds := []RowKind{Insert, Insert, Insert, Insert, UpdateBefore, UpdateAfter}
	as := []int64{1, 1, 2, 1, 1, 3}
	bs := []string{"x", "x", "x", "y", "x", "z"}
	freq := []int64{2, 1, 1, 3, 2, 1}
	members := []string{`{"a":1}`, `{"b":2}`, `{"c":3}`, `{"d":4}`, `{"a":1}`, `{"a":5}`}
	got := runChanges(t, []arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "m", Type: arrow.BinaryTypes.String, Nullable: true},
	}, []AggSpec{
		{Kind: Count, Input: 1, MoreInputs: []int{2}, Distinct: true},
		{Kind: Percentile, Input: 1, MoreInputs: []int{3}, Percentage: 0.5},
		{Kind: JSONObjectAgg, Input: 4},
	}, kinds, func(b *array.RecordBuilder, i int) {
		b.Field(1).(*array.Int64Builder).Append(as[i])
		b.Field(2).(*array.StringBuilder).Append(bs[i])
		b.Field(3).(*array.Int64Builder).Append(freq[i])
		b.Field(4).(*array.StringBuilder).Append(members[i])
	})
	require.Equal(t, []string{
		`row +I 1 1 {"a":1}`,
		`row -U 1 1 {"a":1}`, `row +U 1 1 {"a":1,"b":2}`,
		`row -U 1 1 {"a":1,"b":2}`, `row +U 2 1 {"a":1,"b":2,"c":3}`,
		`row -U 2 1 {"a":1,"b":2,"c":3}`, `row +U 3 1 {"a":1,"b":2,"c":3,"d":4}`,
		// (1, x) is still held by the second row; 1 keeps 4 of its 5
		// rows' frequency; "a" leaves
		`row -U 3 1 {"a":1,"b":2,"c":3,"d":4}`, `row +U 3 1 {"b":2,"c":3,"d":4}`,
		`row -U 3 1 {"b":2,"c":3,"d":4}`, `row +U 4 1 {"a":5,"b":2,"c":3,"d":4}`,
	}, got)
}
