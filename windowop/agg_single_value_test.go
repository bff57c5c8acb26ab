package windowop

import (
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
)

// SINGLE_VALUE over an update stream: a key's one row is its value (NULL
// too), a retracted row leaves room for another, and a second row stops
// the run with Flink's message, also after a restore from a snapshot, at
// every batch size and with no Arrow memory left behind.
func TestSingleValueKeepsOneRowAndFailsAtTheSecond(t *testing.T) {
	cfg := GroupConfig{Input: changeSchema, KeyIndexes: []int{1}, Retract: true, Aggs: []AggSpec{
		{Kind: SingleValue, Input: 2, Name: "v"},
	}}
	changes := []struct {
		kind RowKind
		k    string
		v    int64
		null bool
	}{
		{Insert, "a", 5, false},
		{Insert, "b", 0, true},
		{Delete, "a", 5, false},
		{Insert, "a", 7, false},
		{UpdateBefore, "a", 7, false},
		{UpdateAfter, "a", 8, false},
		{Insert, "c", 1, false},
		{Insert, "a", 9, false}, // a second row of a
	}
	want := []string{"row +I a 5", "row +I b NULL", "row -D a 5", "row +I a 7", "row -D a 7", "row +I a 8", "row +I c 1"}
	for _, size := range []int{1, 3, 4096} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rec := &recorder{}
		op, err := NewGroupOperator(cfg, mem, rec)
		require.NoError(t, err)
		var runErr error
		for from := 0; from < len(changes) && runErr == nil; from += size {
			if from > 0 {
				var e checkpoint.Encoder
				require.NoError(t, op.SnapshotState(&e))
				op.Close()
				op, err = NewGroupOperator(cfg, mem, rec)
				require.NoError(t, err)
				require.NoError(t, op.RestoreState(checkpoint.NewDecoder(e.Data())))
			}
			b := array.NewRecordBuilder(mem, changeSchema)
			for _, c := range changes[from:min(from+size, len(changes))] {
				b.Field(0).(*array.StringBuilder).Append(string(c.kind))
				b.Field(1).(*array.StringBuilder).Append(c.k)
				if c.null {
					b.Field(2).AppendNull()
				} else {
					b.Field(2).(*array.Int64Builder).Append(c.v)
				}
			}
			in := b.NewRecordBatch()
			b.Release()
			runErr = op.ProcessBatch(pipeline.Batch{Record: in})
			in.Release()
		}
		op.Close()
		require.EqualError(t, runErr, "SingleValueAggFunction received more than one element.", "batch size %d", size)
		got := slices.DeleteFunc(rec.events, func(e string) bool { return !strings.HasPrefix(e, "row ") })
		if size == 1 {
			require.Equal(t, want, got)
		} else {
			// the batch with the second row fails before its changes go out
			require.Equal(t, want[:len(got)], append([]string{}, got...), "batch size %d", size)
		}
		mem.AssertSize(t, 0)
	}
}
