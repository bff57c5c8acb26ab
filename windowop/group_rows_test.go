package windowop

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
)

// The per-row path emits exactly what the segments do, at every batch
// size, through snapshots, with NULLs, FILTERs, INT and BIGINT arguments
// and every aggregate that folds rows; each row's watermark is kept.
func TestGroupRowsMatchSegments(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "w", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "f", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "g", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "t", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	var aggs []AggSpec
	for _, in := range []int{1, 2} {
		for _, filter := range []int{-1, 3, 4} {
			for _, kind := range []AggKind{CountStar, Count, Sum, Avg, Min, Max} {
				aggs = append(aggs, AggSpec{Kind: kind, Input: in, Filtered: filter >= 0, Filter: filter})
			}
			aggs = append(aggs, AggSpec{Kind: Count, Input: in, Distinct: true, Filtered: filter >= 0, Filter: filter})
		}
	}
	for _, filter := range []int{-1, 3} {
		for _, kind := range []AggKind{Min, Max} {
			aggs = append(aggs, AggSpec{Kind: kind, Input: 5, Filtered: filter >= 0, Filter: filter})
		}
	}
	// all at once, and each alone: another's change must not hide one
	cfgs := []GroupConfig{{Input: schema, KeyIndexes: []int{0}, Aggs: aggs}}
	for i := range aggs {
		cfgs = append(cfgs, GroupConfig{Input: schema, KeyIndexes: []int{0}, Aggs: aggs[i : i+1]})
	}
	rng := rand.New(rand.NewPCG(3, 5))
	for round := range 8 {
		n := 1 + rng.IntN(400)
		keys, spread := 1+rng.IntN(20), int64(1+rng.IntN(9))
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		b := array.NewRecordBuilder(mem, schema)
		for range n {
			if rng.IntN(15) == 0 {
				b.Field(0).AppendNull()
			} else {
				b.Field(0).(*array.Int64Builder).Append(int64(rng.IntN(keys)))
			}
			if rng.IntN(5) == 0 {
				b.Field(1).AppendNull()
				b.Field(2).AppendNull()
			} else {
				b.Field(1).(*array.Int64Builder).Append(rng.Int64N(spread) - spread/2)
				b.Field(2).(*array.Int32Builder).Append(int32(rng.Int64N(spread)))
			}
			if rng.IntN(4) == 0 {
				b.Field(3).AppendNull()
			} else {
				b.Field(3).(*array.BooleanBuilder).Append(rng.IntN(2) == 0)
			}
			b.Field(4).(*array.BooleanBuilder).Append(rng.IntN(3) > 0)
			switch rng.IntN(8) {
			case 0:
				b.Field(5).AppendNull()
			case 1:
				b.Field(5).(*array.StringBuilder).Append("")
			default:
				b.Field(5).(*array.StringBuilder).Append(strings.Repeat("ab", rng.IntN(3)) + fmt.Sprint(rng.Int64N(spread)))
			}
		}
		in := b.NewRecordBatch()
		b.Release()
		wms := make([]int64, n)
		for i := range wms {
			wms[i] = int64(i / 7)
		}
		for c, cfg := range cfgs {
			var want []string
			for _, rows := range []bool{false, true} {
				for _, size := range []int{1, 3, 17, 4096} {
					got := runGroupPath(t, cfg, mem, in, wms, size, rows, size == 3)
					if want == nil {
						want = got
						continue
					}
					require.Equal(t, want, got, "round %d, config %d, batch size %d, per row %v", round, c, size, rows)
				}
			}
		}
		in.Release()
		mem.AssertSize(t, 0)
	}
}

// runGroupPath feeds in in batches of size, through the per-row path or
// the segments; with restart, every batch goes to a new operator
// restored from the previous one's snapshot. Each result row is followed
// by its watermark.
func runGroupPath(t *testing.T, cfg GroupConfig, mem memory.Allocator, in arrow.RecordBatch, wms []int64, size int, rows, restart bool) []string {
	rec := &watermarkedRows{}
	open := func() *GroupOperator {
		op, err := NewGroupOperator(cfg, mem, rec)
		require.NoError(t, err)
		if rows {
			require.NotNil(t, op.rowPath, "every aggregate folds rows")
		} else {
			op.rowPath = nil
		}
		return op
	}
	op := open()
	n := int(in.NumRows())
	for from := 0; from < n; from += size {
		if restart && from > 0 {
			var e checkpoint.Encoder
			require.NoError(t, op.SnapshotState(&e))
			op.Close()
			op = open()
			d := checkpoint.NewDecoder(e.Data())
			require.NoError(t, op.RestoreState(d))
			require.NoError(t, d.Finish())
		}
		to := min(from+size, n)
		part := in.NewSlice(int64(from), int64(to))
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: part, Watermarks: wms[from:to]}))
		part.Release()
	}
	require.NoError(t, op.ProcessEnd())
	op.Close()
	return rec.events
}

// watermarkedRows records result rows with their watermarks.
type watermarkedRows struct{ recorder }

func (r *watermarkedRows) ProcessBatch(b pipeline.Batch) error {
	from := len(r.events)
	if err := r.recorder.ProcessBatch(b); err != nil {
		return err
	}
	for i := range r.events[from:] {
		wm := "-"
		if b.Watermarks != nil {
			wm = fmt.Sprint(b.Watermarks[i])
		}
		r.events[from+i] += " @" + wm
	}
	return nil
}
