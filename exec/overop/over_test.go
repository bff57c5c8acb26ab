package overop

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/windowop"
)

var testSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "k", Type: arrow.BinaryTypes.String},
	{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
}, nil)

// testAggs are the aggregates every test computes: SUM, COUNT(*),
// COUNT, MIN, MAX and AVG of v.
var testAggs = []windowop.AggSpec{
	{Kind: windowop.Sum, Input: 2, Name: "s"},
	{Kind: windowop.CountStar, Name: "n"},
	{Kind: windowop.Count, Input: 2, Name: "c"},
	{Kind: windowop.Min, Input: 2, Name: "lo"},
	{Kind: windowop.Max, Input: 2, Name: "hi"},
	{Kind: windowop.Avg, Input: 2, Name: "av"},
}

type row struct {
	ts   int64
	k    string
	v    int64
	null bool
	id   int64
}

func batch(mem memory.Allocator, rows []row) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, testSchema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(r.ts))
		b.Field(1).(*array.StringBuilder).Append(r.k)
		if r.null {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.Int64Builder).Append(r.v)
		}
		b.Field(3).(*array.Int64Builder).Append(r.id)
	}
	return b.NewRecordBatch()
}

// recorder keeps each output row's aggregates as text, by the row's id,
// and the order of the rows' times.
type recorder struct {
	byID  map[int64]string
	times []int64
	ends  int
}

func newRecorder() *recorder { return &recorder{byID: map[int64]string{}} }

func (r *recorder) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	ts := rec.Column(0).(*array.Timestamp)
	ids := rec.Column(3).(*array.Int64)
	for i := 0; i < int(rec.NumRows()); i++ {
		var cells []string
		for c := 4; c < int(rec.NumCols()); c++ {
			if rec.Column(c).IsNull(i) {
				cells = append(cells, "NULL")
			} else {
				cells = append(cells, rec.Column(c).ValueStr(i))
			}
		}
		if _, dup := r.byID[ids.Value(i)]; dup {
			return fmt.Errorf("row %d emitted twice", ids.Value(i))
		}
		r.byID[ids.Value(i)] = strings.Join(cells, " ")
		r.times = append(r.times, int64(ts.Value(i)))
	}
	return nil
}
func (r *recorder) ProcessWatermark(int64) error { return nil }
func (r *recorder) ProcessEnd() error            { r.ends++; return nil }
func (r *recorder) Close()                       {}

// reference computes each kept row's aggregates from scratch: its frame
// is the rows of its partition before it in (time, arrival) order, the
// last preceding+1 of them (ROWS) or those within preceding ms (RANGE,
// peers included).
func reference(cfg Config, kept []row) map[int64]string {
	byPart := map[string][]row{}
	for _, r := range kept {
		k := r.k
		if len(cfg.PartitionBy) == 0 {
			k = ""
		}
		byPart[k] = append(byPart[k], r)
	}
	out := map[int64]string{}
	for _, rows := range byPart {
		slices.SortStableFunc(rows, func(a, b row) int { return int(a.ts - b.ts) })
		for i, cur := range rows {
			var frame []row
			for j, r := range rows {
				switch {
				case cfg.Rows && (j > i || !cfg.Unbounded && int64(i-j) > cfg.Preceding):
				case !cfg.Rows && (r.ts > cur.ts || !cfg.Unbounded && r.ts < cur.ts-cfg.Preceding):
				default:
					frame = append(frame, r)
				}
			}
			out[cur.id] = aggregates(frame)
		}
	}
	return out
}

func aggregates(frame []row) string {
	var sum, n, lo, hi int64
	lo, hi = math.MaxInt64, math.MinInt64
	for _, r := range frame {
		if r.null {
			continue
		}
		sum += r.v
		n++
		lo, hi = min(lo, r.v), max(hi, r.v)
	}
	if n == 0 {
		return fmt.Sprintf("NULL %d 0 NULL NULL NULL", len(frame))
	}
	return fmt.Sprintf("%d %d %d %d %d %d", sum, len(frame), n, lo, hi, sum/n)
}

// TestOverDifferential runs random inputs, cut into random batches with
// random watermarks and a checkpoint restored at a random point, through
// the operator and through the reference, for ROWS and RANGE frames,
// bounded and not, with partitions and without. Arrow memory is checked.
func TestOverDifferential(t *testing.T) {
	frames := []Config{
		{Rows: true, Preceding: 2},
		{Rows: true, Preceding: 0},
		{Rows: true, Unbounded: true},
		{Preceding: 3},
		{Preceding: 0},
		{Unbounded: true},
	}
	for seed := uint64(1); seed <= 15; seed++ {
		for _, frame := range frames {
			for _, partitioned := range []bool{true, false} {
				cfg := frame
				cfg.Input, cfg.Aggs, cfg.Time = testSchema, testAggs, 0
				if partitioned {
					cfg.PartitionBy = []int{1}
				}
				name := fmt.Sprintf("seed%d/%s/partitioned=%v", seed, cfg.FrameText(), partitioned)
				t.Run(name, func(t *testing.T) { runDifferential(t, cfg, seed) })
			}
		}
	}
}

func runDifferential(t *testing.T, cfg Config, seed uint64) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(seed, 7))
	rec := newRecorder()
	op, err := New(cfg, mem, rec)
	require.NoError(t, err)
	defer func() { op.Close() }()
	n := 50 + rng.IntN(300)
	var kept []row
	var wm int64 = rowtime.MinWatermark
	var maxTs int64
	restoreAt := rng.IntN(n)
	for i := 0; i < n; {
		size := 1 + rng.IntN(8)
		var rows []row
		var perRow []int64
		for j := 0; j < size && i < n; j, i = j+1, i+1 {
			r := row{ts: maxTs - 5 + int64(rng.IntN(12)), k: string(rune('a' + rng.IntN(4))), v: int64(rng.IntN(20) - 5), null: rng.IntN(6) == 0, id: int64(i)}
			maxTs = max(maxTs, r.ts)
			rows = append(rows, r)
			perRow = append(perRow, wm)
			if r.ts > wm {
				kept = append(kept, r)
			}
		}
		b := batch(mem, rows)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b, Watermarks: perRow}))
		b.Release()
		if rng.IntN(3) == 0 {
			wm = max(wm, maxTs-int64(rng.IntN(4)))
			require.NoError(t, op.ProcessWatermark(wm))
		}
		if i >= restoreAt && restoreAt >= 0 {
			restoreAt = -1
			var e checkpoint.Encoder
			require.NoError(t, op.SnapshotState(&e))
			op.Close()
			op, err = New(cfg, mem, rec)
			require.NoError(t, err)
			d := checkpoint.NewDecoder(e.Data())
			require.NoError(t, op.RestoreState(d))
			require.NoError(t, d.Finish())
		}
	}
	require.NoError(t, op.ProcessEnd())
	require.Equal(t, 1, rec.ends)
	require.Equal(t, reference(cfg, kept), rec.byID)
	require.True(t, slices.IsSorted(rec.times), "rows leave in time order")
	require.Equal(t, int64(n-len(kept)), op.Stats().LateRowsDropped)
}

// TestOverProcTime processes each batch's rows at once, in arrival
// order; a RANGE frame's rows are those of the last interval of
// processing time, read on the clock once a batch.
func TestOverProcTime(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	clock := rowtime.NewManualClock(time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC))
	rec := newRecorder()
	op, err := New(Config{Input: testSchema, Aggs: testAggs, PartitionBy: []int{1}, ProcTime: true, Preceding: 1000, Clock: clock}, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	feed := func(rows ...row) {
		b := batch(mem, rows)
		defer b.Release()
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b}))
	}
	feed(row{k: "a", v: 1, id: 1}, row{k: "a", v: 2, id: 2})
	clock.Advance(500 * time.Millisecond)
	feed(row{k: "a", v: 3, id: 3})
	clock.Advance(700 * time.Millisecond)
	feed(row{k: "a", v: 4, id: 4})
	require.Equal(t, map[int64]string{
		1: "3 2 2 1 2 1", // peers of one instant
		2: "3 2 2 1 2 1",
		3: "6 3 3 1 3 2",
		4: "7 2 2 3 4 3", // the first two are over a second old
	}, rec.byID)
}

// With 'table.exec.state.ttl', a partition no row has come for within the
// TTL is forgotten (counted): its next row starts a new frame.
func TestOverStateTTL(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	clock := rowtime.NewManualClock(time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC))
	rec := newRecorder()
	op, err := New(Config{Input: testSchema, Aggs: testAggs, PartitionBy: []int{1}, Rows: true, Preceding: 5, Time: 0, StateTTL: 1000, Clock: clock}, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	feed := func(rows ...row) {
		b := batch(mem, rows)
		defer b.Release()
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b}))
		require.NoError(t, op.ProcessWatermark(rows[len(rows)-1].ts))
	}
	feed(row{ts: 1, k: "a", v: 1, id: 1}, row{ts: 2, k: "b", v: 10, id: 2})
	clock.Advance(600 * time.Millisecond)
	feed(row{ts: 3, k: "a", v: 2, id: 3})
	clock.Advance(600 * time.Millisecond)
	feed(row{ts: 4, k: "a", v: 3, id: 4}, row{ts: 5, k: "b", v: 20, id: 5})
	require.Equal(t, "6 3 3 1 3 2", rec.byID[4])     // a came within the TTL each time
	require.Equal(t, "20 1 1 20 20 20", rec.byID[5]) // b's state expired
	require.Equal(t, int64(1), op.Stats().StateExpired)
}

// A RANGE partition whose rows all left every frame to come is dropped
// once the watermark shows it: its state does not grow with partitions
// that went quiet.
func TestOverRangeDropsPassedPartitions(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := newRecorder()
	op, err := New(Config{Input: testSchema, Aggs: testAggs, PartitionBy: []int{1}, Preceding: 10, Time: 0}, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	var rows []row
	for i := range 100 {
		rows = append(rows, row{ts: int64(i), k: fmt.Sprint(i), v: 1, id: int64(i)})
	}
	b := batch(mem, rows)
	require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b}))
	b.Release()
	require.NoError(t, op.ProcessWatermark(99))
	require.Equal(t, 10, op.Partitions()) // 90..99 may still be in a frame of a row after 99
	require.NoError(t, op.ProcessWatermark(200))
	require.Equal(t, 0, op.Partitions())
	require.Len(t, rec.byID, 100)
}

func TestOverConformance(t *testing.T) {
	input := func(mem memory.Allocator) []pipelinetest.Step {
		return []pipelinetest.Step{
			pipelinetest.BatchStep(batch(mem, []row{{ts: 5, k: "a", v: 1, id: 1}, {ts: 3, k: "b", v: 2, id: 2}, {ts: 5, k: "a", v: 3, id: 3}}), nil),
			pipelinetest.WatermarkStep(4),
			pipelinetest.BatchStep(batch(mem, []row{{ts: 2, k: "a", v: 9, id: 4}, {ts: 8, k: "b", null: true, id: 5}}), []int64{4, 4}),
			pipelinetest.WatermarkStep(6),
			pipelinetest.BatchStep(batch(mem, []row{{ts: 9, k: "a", v: 4, id: 6}}), nil),
			pipelinetest.WatermarkStep(20),
		}
	}
	for _, cfg := range []Config{{Rows: true, Preceding: 1}, {Preceding: 2}, {Unbounded: true}} {
		cfg.Input, cfg.Aggs, cfg.PartitionBy = testSchema, testAggs, []int{1}
		t.Run(cfg.FrameText(), func(t *testing.T) {
			pipelinetest.TestOperator(t, pipelinetest.Harness{
				New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
					return New(cfg, mem, next)
				},
				Input:      input,
				ResultTime: func(rec arrow.RecordBatch, row int) int64 { return int64(rec.Column(0).(*array.Timestamp).Value(row)) },
			})
		})
	}
}

// A checkpoint that does not fit the operator is refused, never a panic.
func TestOverRestoreCorrupt(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cfg := Config{Input: testSchema, Aggs: testAggs, PartitionBy: []int{1}, Rows: true, Preceding: 2}
	op, err := New(cfg, mem, newRecorder())
	require.NoError(t, err)
	b := batch(mem, []row{{ts: 5, k: "a", v: 1, id: 1}, {ts: 7, k: "b", v: 2, id: 2}})
	require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b}))
	b.Release()
	require.NoError(t, op.ProcessWatermark(5))
	var e checkpoint.Encoder
	require.NoError(t, op.SnapshotState(&e))
	op.Close()
	data := e.Data()
	for cut := 0; cut < len(data); cut += 7 {
		fresh, err := New(cfg, mem, newRecorder())
		require.NoError(t, err)
		d := checkpoint.NewDecoder(data[:cut])
		err = fresh.RestoreState(d)
		if err == nil {
			err = d.Finish()
		}
		require.Error(t, err, "cut at %d", cut)
		fresh.Close()
	}
}
