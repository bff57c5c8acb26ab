package windowop

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
)

var contentSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "k", Type: arrow.BinaryTypes.String},
	{Name: "v", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s", Type: arrow.BinaryTypes.String},
}, nil)

func heapBytes() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// StateBytes follows what the state really holds on the Go heap, within
// 35% either way, where the contents dominate: LISTAGG's
// values, DISTINCT sets of integers and of strings, MAX of long strings,
// and the windows of a HOP or CUMULATE whose every row is in 86400 of them.
func TestStateBytesFollowsTheHeap(t *testing.T) {
	hop, err := NewHop(1000, 86_400_000, 0)
	require.NoError(t, err)
	cum, err := NewCumulate(1000, 86_400_000, 0)
	require.NoError(t, err)
	tumble, err := NewTumble(3_600_000, 0)
	require.NoError(t, err)
	long := strings.Repeat("x", 400)
	cases := []struct {
		name     string
		assigner Assigner
		agg      AggSpec
		rows     int
		keys     int
		s        func(i int) string
	}{
		{"listagg", tumble, AggSpec{Kind: ListAgg, Input: 3, Separator: ","}, 30_000, 3, func(i int) string { return long }},
		{"count distinct ints", tumble, AggSpec{Kind: Count, Input: 2, Distinct: true}, 300_000, 3, func(int) string { return "" }},
		{"count distinct strings", tumble, AggSpec{Kind: Count, Input: 3, Distinct: true}, 200_000, 3, func(i int) string { return fmt.Sprintf("value-%012d", i) }},
		{"max of strings", tumble, AggSpec{Kind: Max, Input: 3}, 20_000, 20_000, func(i int) string { return fmt.Sprintf("%0400d", i) }},
		{"hop", hop, AggSpec{Kind: CountStar}, 30, 3, func(int) string { return "" }},
		{"cumulate", cum, AggSpec{Kind: CountStar}, 30, 3, func(int) string { return "" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.agg.Name = "a"
			cfg := Config{Input: contentSchema, RowtimeIndex: 0, KeyIndexes: []int{1}, Assigner: c.assigner, Aggs: []AggSpec{c.agg}}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			before := heapBytes()
			op, err := NewWindowOperator(cfg, mem, discard{})
			require.NoError(t, err)
			b := array.NewRecordBuilder(mem, contentSchema)
			for start := 0; start < c.rows; start += 4096 {
				for i := start; i < min(c.rows, start+4096); i++ {
					b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(i % 1000))
					b.Field(1).(*array.StringBuilder).Append(fmt.Sprint(i % c.keys))
					b.Field(2).(*array.Int64Builder).Append(int64(i))
					b.Field(3).(*array.StringBuilder).Append(c.s(i))
				}
				rec := b.NewRecordBatch()
				require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: rec}))
				rec.Release()
			}
			b.Release()
			held := heapBytes() - before
			est := op.StateBytes()
			t.Logf("estimated %s, heap grew by %s", FormatBytes(est), FormatBytes(held))
			require.Greater(t, held, int64(2<<20), "the case holds megabytes")
			require.InDelta(t, 1, float64(est)/float64(held), 0.35, "estimated %d bytes, the heap grew by %d", est, held)
			require.NoError(t, op.ProcessEnd())
			op.Close()
			runtime.KeepAlive(op)
			mem.AssertSize(t, 0)
		})
	}
}
