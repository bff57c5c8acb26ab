package windowop

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
)

func TestGroupOperatorConformance(t *testing.T) {
	cases := map[string]GroupConfig{
		"keyed":           {Input: confSchema, KeyIndexes: []int{1}, Aggs: confAggs},
		"global, no keys": {Input: confSchema, Aggs: confAggs},
	}
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			pipelinetest.TestOperator(t, pipelinetest.Harness{
				New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
					return NewGroupOperator(cfg, mem, next)
				},
				Input: confInput,
			})
		})
	}
}

// Flink's GroupAggFunction: +I for a key's first row, -U with the values
// emitted last and +U with the new ones for each later row, nothing when
// the values did not change (SUM of a 0, MAX below the maximum).
func TestGroupOperatorEmitsChangesPerRow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cfg := GroupConfig{Input: confSchema, KeyIndexes: []int{1}, Aggs: []AggSpec{
		{Kind: Sum, Input: 2, Name: "total"},
		{Kind: Max, Input: 2, Name: "top"},
	}}
	rec := &recorder{}
	op, err := NewGroupOperator(cfg, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	in := confBatch(mem, []confRow{{1, "a", 5}, {2, "b", 1}, {3, "a", 0}, {4, "a", 2}, {5, "b", -1}})
	require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in}))
	in.Release()
	require.NoError(t, op.ProcessWatermark(7))
	require.NoError(t, op.ProcessEnd())
	require.Equal(t, []string{
		"row +I a 5 5",
		"row +I b 1 1",
		// a's 0 changes nothing: no row
		"row -U a 5 5", "row +U a 7 5",
		"row -U b 1 1", "row +U b 0 1",
		"wm 7", "end",
	}, rec.events)
	require.Equal(t, GroupStats{RowsIn: 5, ResultRows: 6}, op.Stats())
}

// groupRef is the naive reference: per row, the key's values before and
// after it, from every earlier row of the key.
// full: COUNT(*), SUM, MAX and LISTAGG; otherwise SUM and MAX alone,
// which a row may leave unchanged.
func groupRef(rows []confRow, full bool) []string {
	type acc struct {
		n, sum, max int64
		vals        []string
	}
	state := map[string]*acc{}
	text := func(k string, a *acc) string {
		if !full {
			return fmt.Sprintf("%s %d %d", k, a.sum, a.max)
		}
		return fmt.Sprintf("%s %d %d %d %s", k, a.n, a.sum, a.max, strings.Join(a.vals, "|"))
	}
	var out []string
	for _, r := range rows {
		a, ok := state[r.k]
		var before string
		if ok {
			before = text(r.k, a)
		} else {
			a = &acc{max: r.v}
			state[r.k] = a
		}
		a.n++
		a.sum += r.v
		a.max = max(a.max, r.v)
		a.vals = append(a.vals, fmt.Sprint(r.v))
		after := text(r.k, a)
		switch {
		case !ok:
			out = append(out, "row +I "+after)
		case before != after:
			out = append(out, "row -U "+before, "row +U "+after)
		}
	}
	return out
}

// The changes are a function of the rows alone: the same at every batch
// size, and equal to the reference's; a run restored from a snapshot
// taken between any two batches continues with exactly the same rows.
func TestGroupOperatorMatchesReferenceAtEveryBatchSize(t *testing.T) {
	schema := arrow.NewSchema(append(confSchema.Fields(), arrow.Field{Name: "s", Type: arrow.BinaryTypes.String}), nil)
	full := GroupConfig{Input: schema, KeyIndexes: []int{1}, Aggs: []AggSpec{
		{Kind: CountStar, Name: "n"},
		{Kind: Sum, Input: 2, Name: "total"},
		{Kind: Max, Input: 2, Name: "top"},
		{Kind: ListAgg, Input: 3, Name: "vals", Separator: "|"},
	}}
	some := GroupConfig{Input: schema, KeyIndexes: []int{1}, Aggs: full.Aggs[1:3]}
	rng := rand.New(rand.NewPCG(7, 11))
	for round := range 20 {
		rows := make([]confRow, 1+rng.IntN(300))
		keys := 1 + rng.IntN(12)
		for i := range rows {
			rows[i] = confRow{ts: int64(i), k: fmt.Sprintf("k%d", rng.IntN(keys)), v: int64(rng.IntN(7)) - 2}
		}
		for _, isFull := range []bool{true, false} {
			cfg, want := some, groupRef(rows, isFull)
			if isFull {
				cfg = full
			}
			for _, size := range []int{1, 3, 17, 4096} {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				got := runGroup(t, cfg, mem, schema, rows, size, size == 3)
				require.Equal(t, want, got, "round %d, batch size %d, all aggregates %v", round, size, isFull)
				mem.AssertSize(t, 0)
			}
		}
	}
}

// runGroup feeds rows in batches of size; with restart, every batch goes
// to a new operator restored from the previous one's snapshot.
func runGroup(t *testing.T, cfg GroupConfig, mem memory.Allocator, schema *arrow.Schema, rows []confRow, size int, restart bool) []string {
	rec := &recorder{}
	op, err := NewGroupOperator(cfg, mem, rec)
	require.NoError(t, err)
	for from := 0; from < len(rows); from += size {
		if restart && from > 0 {
			var e checkpoint.Encoder
			require.NoError(t, op.SnapshotState(&e))
			op.Close()
			op, err = NewGroupOperator(cfg, mem, rec)
			require.NoError(t, err)
			d := checkpoint.NewDecoder(e.Data())
			require.NoError(t, op.RestoreState(d))
			require.NoError(t, d.Finish())
		}
		b := array.NewRecordBuilder(mem, schema)
		for _, r := range rows[from:min(from+size, len(rows))] {
			b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(r.ts))
			b.Field(1).(*array.StringBuilder).Append(r.k)
			b.Field(2).(*array.Int64Builder).Append(r.v)
			b.Field(3).(*array.StringBuilder).Append(fmt.Sprint(r.v))
		}
		in := b.NewRecordBatch()
		b.Release()
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in}))
		in.Release()
	}
	require.NoError(t, op.ProcessEnd())
	op.Close()
	return slices.DeleteFunc(rec.events, func(e string) bool { return !strings.HasPrefix(e, "row ") })
}

// A snapshot that does not fit is refused: a slot held by two keys.
func TestGroupOperatorRefusesDamagedState(t *testing.T) {
	cfg := GroupConfig{Input: confSchema, KeyIndexes: []int{1}, Aggs: []AggSpec{{Kind: CountStar, Name: "n"}}}
	op, err := NewGroupOperator(cfg, memory.DefaultAllocator, &recorder{})
	require.NoError(t, err)
	in := confBatch(memory.DefaultAllocator, []confRow{{1, "a", 1}, {2, "b", 1}})
	require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in}))
	in.Release()
	op.shadow[1] = op.live[0]
	var e checkpoint.Encoder
	require.NoError(t, op.SnapshotState(&e))
	op.Close()
	fresh, err := NewGroupOperator(cfg, memory.DefaultAllocator, &recorder{})
	require.NoError(t, err)
	defer fresh.Close()
	err = fresh.RestoreState(checkpoint.NewDecoder(e.Data()))
	require.ErrorIs(t, err, checkpoint.ErrCorrupt)
	require.ErrorContains(t, err, "used twice")
}

// wmsRecorder records the per-row watermarks of each batch it is given,
// and where their memory is.
type wmsRecorder struct {
	recorder
	wms   [][]int64
	where []*int64
}

func (r *wmsRecorder) ProcessBatch(b pipeline.Batch) error {
	r.wms = append(r.wms, slices.Clone(b.Watermarks))
	if len(b.Watermarks) > 0 {
		r.where = append(r.where, &b.Watermarks[0])
	}
	return r.recorder.ProcessBatch(b)
}

// The changes' watermarks go downstream with each batch when they differ
// from the one forwarded, in memory the operator reuses from batch to
// batch (downstream borrows it): a new slice per batch was 600 MB of
// garbage over a GROUP BY of 10M rows.
func TestGroupOperatorReusesTheChangesWatermarks(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cfg := GroupConfig{Input: confSchema, KeyIndexes: []int{1}, Aggs: []AggSpec{{Kind: Sum, Input: 2, Name: "total"}}}
	rec := &wmsRecorder{}
	op, err := NewGroupOperator(cfg, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	for _, b := range []struct {
		rows []confRow
		wms  []int64
	}{
		{[]confRow{{1, "a", 5}, {2, "b", 1}, {3, "c", 1}}, []int64{10, 11, 12}},
		{[]confRow{{4, "a", 1}, {5, "d", 2}}, []int64{13, 14}},
	} {
		in := confBatch(mem, b.rows)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in, Watermarks: b.wms}))
		in.Release()
	}
	require.Equal(t, [][]int64{{10, 11, 12}, {13, 13, 14}}, rec.wms, "a's -U and +U both under 13")
	require.Len(t, rec.where, 2)
	require.Same(t, rec.where[0], rec.where[1], "the second batch's watermarks reuse the first's memory")
}
