package rankop

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/internal/arrowtest"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
	"github.com/wsql/wsql/rowtime"
)

var testSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "k", Type: arrow.BinaryTypes.String},
	{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

type row struct {
	ts   int64
	k    string
	v    int64
	null bool
}

func (r row) text() string {
	if r.null {
		return fmt.Sprintf("%d %s NULL", r.ts, r.k)
	}
	return fmt.Sprintf("%d %s %d", r.ts, r.k, r.v)
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
	}
	return b.NewRecordBatch()
}

// recorder writes down the output rows as text.
type recorder struct{ rows []string }

func (r *recorder) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	for i := 0; i < int(rec.NumRows()); i++ {
		var cells []string
		for c := 0; c < int(rec.NumCols()); c++ {
			col := rec.Column(c)
			switch {
			case col.IsNull(i):
				cells = append(cells, "NULL")
			case col.DataType().ID() == arrow.TIMESTAMP:
				cells = append(cells, fmt.Sprint(int64(col.(*array.Timestamp).Value(i))))
			default:
				cells = append(cells, col.ValueStr(i))
			}
		}
		r.rows = append(r.rows, strings.Join(cells, " "))
	}
	return nil
}
func (r *recorder) ProcessWatermark(int64) error { return nil }
func (r *recorder) ProcessEnd() error            { return nil }
func (r *recorder) Close()                       {}

const delay = 5

// run feeds rows in batches of size with per-row watermarks (max ts −
// delay over the rows before), a watermark after each batch, then the end.
// With size 3 every batch goes to a new operator restored from the
// previous one's snapshot.
func run(t *testing.T, cfg Config, rows []row, size int) ([]string, Stats) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := &recorder{}
	op, err := NewRank(cfg, mem, rec)
	require.NoError(t, err)
	defer func() { op.Close() }()
	wm := rowtime.MinWatermark
	for from := 0; from < len(rows); from += size {
		if size == 3 && from > 0 {
			var e checkpoint.Encoder
			require.NoError(t, op.SnapshotState(&e))
			op.Close()
			op, err = NewRank(cfg, mem, rec)
			require.NoError(t, err)
			d := checkpoint.NewDecoder(e.Data())
			require.NoError(t, op.RestoreState(d))
			require.NoError(t, d.Finish())
		}
		part := rows[from:min(from+size, len(rows))]
		wms := make([]int64, len(part))
		for i, r := range part {
			wms[i] = wm
			wm = max(wm, r.ts-delay)
		}
		in := batch(mem, part)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in, Watermarks: wms}))
		in.Release()
		require.NoError(t, op.ProcessWatermark(wm))
	}
	require.NoError(t, op.ProcessEnd())
	return rec.rows, op.Stats()
}

// reference computes the changes naively: per row, the partition's
// ranked list before and after, compared rank by rank.
func reference(cfg Config, rows []row) []string {
	type entry struct {
		r   row
		seq int
	}
	parts := map[string][]entry{}
	var out []string
	less := func(a, b entry) bool {
		// v DESC, NULL last; ties by arrival
		switch {
		case a.r.null != b.r.null:
			return !a.r.null
		case !a.r.null && a.r.v != b.r.v:
			return a.r.v > b.r.v
		}
		return a.seq < b.seq
	}
	for seq, r := range rows {
		old := parts[r.k]
		next := append(append([]entry(nil), old...), entry{r, seq})
		sort.SliceStable(next, func(i, j int) bool { return less(next[i], next[j]) })
		if len(next) > int(cfg.End) {
			next = next[:cfg.End]
		}
		parts[r.k] = next
		for rank := cfg.Start; rank <= cfg.End; rank++ {
			j := int(rank - 1)
			switch {
			case j >= len(next):
			case j >= len(old):
				out = append(out, fmt.Sprintf("+I %s %d", next[j].r.text(), rank))
			case old[j].seq != next[j].seq:
				out = append(out, fmt.Sprintf("-U %s %d", old[j].r.text(), rank), fmt.Sprintf("+U %s %d", next[j].r.text(), rank))
			}
		}
	}
	return out
}

func randomRows(rng *rand.Rand, n, keys int) []row {
	rows := make([]row, n)
	ts := int64(100)
	for i := range rows {
		ts += int64(rng.IntN(4))
		rows[i] = row{ts: ts - int64(rng.IntN(8)), k: fmt.Sprintf("k%d", rng.IntN(keys)), v: int64(rng.IntN(9)), null: rng.IntN(10) == 0}
	}
	return rows
}

// Top-N's changes equal the naive reference's at every batch size.
func TestTopNMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 30 {
		rows := randomRows(rng, 1+rng.IntN(200), 1+rng.IntN(5))
		start := int64(1 + rng.IntN(2))
		cfg := Config{Input: testSchema, Partition: []int{1}, Order: []SortKey{{Index: 2, Desc: true}},
			Start: start, End: start + int64(rng.IntN(4)), RankName: "rn", Mode: TopN}
		if round%2 == 1 {
			// the partition key as a second sort key orders nothing but
			// makes the keys byte strings rather than fixedRows
			cfg.Order = append(cfg.Order, SortKey{Index: 1})
		}
		require.Equal(t, round%2 == 0, cfg.fixedTopN())
		want := reference(cfg, rows)
		for _, size := range []int{1, 3, 17, 4096} {
			got, _ := run(t, cfg, rows, size)
			require.Equal(t, want, got, "round %d, batch size %d", round, size)
		}
	}
}

// Without the rank column a Top-2 emits the row pushed out (-D) and the
// row that enters (+I), as Flink's processElementWithoutRowNumber.
func TestTopNWithoutRank(t *testing.T) {
	cfg := Config{Input: testSchema, Partition: []int{1}, Order: []SortKey{{Index: 2, Desc: true}}, Start: 1, End: 2, Mode: TopN}
	got, _ := run(t, cfg, []row{{1, "a", 5, false}, {2, "a", 7, false}, {3, "a", 6, false}, {4, "a", 1, false}}, 4096)
	require.Equal(t, []string{"+I 1 a 5", "+I 2 a 7", "-D 1 a 5", "+I 3 a 6"}, got)
}

// Deduplication: the first or last row per key by arrival or event time.
func TestDeduplication(t *testing.T) {
	rows := []row{{10, "a", 1, false}, {8, "a", 2, false}, {20, "b", 3, false}, {12, "a", 4, false}, {30, "a", 5, false}, {3, "b", 6, false}, {19, "b", 7, false}}
	cases := map[Mode][]string{
		FirstByArrival: {"10 a 1", "20 b 3"},
		LastByArrival: {"+I 10 a 1", "-U 10 a 1", "+U 8 a 2", "+I 20 b 3", "-U 8 a 2", "+U 12 a 4",
			"-U 12 a 4", "+U 30 a 5", "-U 20 b 3", "+U 3 b 6", "-U 3 b 6", "+U 19 b 7"},
		LastByTime: {"+I 10 a 1", "+I 20 b 3", "-U 10 a 1", "+U 12 a 4", "-U 12 a 4", "+U 30 a 5"},
		// a's 8 beats 10 before the watermark reaches it (15, after ts
		// 20); a's 12 (watermark 15), b's 3 and b's 19 (watermark 25)
		// are late
		FirstByTime: {"8 a 2", "20 b 3"},
	}
	for mode, want := range cases {
		for _, size := range []int{1, 2, 3, 4096} {
			got, stats := run(t, Config{Input: testSchema, Partition: []int{1}, Rowtime: 0, Mode: mode}, rows, size)
			require.Equal(t, want, got, "mode %d, batch size %d", mode, size)
			if mode == FirstByTime {
				require.Equal(t, int64(3), stats.LateRowsDropped)
			}
		}
	}
}

func TestRankConformance(t *testing.T) {
	input := func(mem memory.Allocator) []pipelinetest.Step {
		return []pipelinetest.Step{
			pipelinetest.BatchStep(batch(mem, []row{{10, "a", 1, false}, {12, "b", 2, false}, {11, "a", 3, false}}), []int64{rowtime.MinWatermark, 5, 7}),
			pipelinetest.WatermarkStep(7),
			pipelinetest.BatchStep(batch(mem, []row{{20, "a", 9, false}, {18, "b", 1, true}}), []int64{7, 15}),
			pipelinetest.WatermarkStep(15),
		}
	}
	for name, cfg := range map[string]Config{
		"top-n":         {Input: testSchema, Partition: []int{1}, Order: []SortKey{{Index: 2}}, Start: 1, End: 2, RankName: "rn", Mode: TopN},
		"dense rank":    {Input: testSchema, Partition: []int{1}, Order: []SortKey{{Index: 2}}, Start: 1, End: 2, RankName: "r", Mode: TopN, Type: DenseRank},
		"first by time": {Input: testSchema, Partition: []int{1}, Rowtime: 0, Mode: FirstByTime},
		"last by time":  {Input: testSchema, Partition: []int{1}, Rowtime: 0, Mode: LastByTime},
	} {
		t.Run(name, func(t *testing.T) {
			pipelinetest.TestOperator(t, pipelinetest.Harness{
				New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
					return NewRank(cfg, mem, next)
				},
				Input: input,
			})
		})
	}
}

// With 'table.exec.state.ttl', a partition no row has come for within the
// TTL is forgotten (counted): its next row is a first row again.
func TestRankStateTTL(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	clock := rowtime.NewManualClock(time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC))
	rec := &recorder{}
	op, err := NewRank(Config{Input: testSchema, Partition: []int{1}, Mode: FirstByArrival, StateTTL: 1000, Clock: clock}, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	feed := func(rows ...row) {
		in := batch(mem, rows)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in}))
		in.Release()
	}
	feed(row{1, "a", 1, false}, row{2, "a", 2, false})
	clock.Advance(500 * time.Millisecond)
	feed(row{3, "a", 3, false})
	clock.Advance(1001 * time.Millisecond)
	feed(row{4, "a", 4, false})
	require.Equal(t, []string{"1 a 1", "4 a 4"}, rec.rows)
	require.Equal(t, int64(1), op.Stats().StateExpired)
}

// buffersAt records where each output batch keeps its columns' buffers.
type buffersAt struct{ at []map[*byte]bool }

func (v *buffersAt) ProcessBatch(b pipeline.Batch) error {
	v.at = append(v.at, arrowtest.BufferSites(b.Record))
	return nil
}
func (v *buffersAt) ProcessWatermark(int64) error { return nil }
func (v *buffersAt) ProcessEnd() error            { return nil }
func (v *buffersAt) Close()                       {}

// A Top-N's output batches are built in memory that comes back for the
// next batch once downstream releases one, as a deduplication's are
// (Nexmark q9's Top-N made 1.8 GB of garbage of them).
func TestTopNReusesItsOutputMemory(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	out := &buffersAt{}
	op, err := NewRank(Config{Input: testSchema, Partition: []int{1}, Order: []SortKey{{Index: 2, Desc: true}}, Start: 1, End: 2, Mode: TopN}, mem, out)
	require.NoError(t, err)
	defer op.Close()
	for _, rows := range [][]row{
		{{1, "a", 5, false}, {2, "b", 7, false}, {3, "c", 6, false}},
		{{4, "d", 5, false}, {5, "e", 7, false}, {6, "f", 6, false}},
	} {
		in := batch(mem, rows)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in}))
		in.Release()
	}
	require.Len(t, out.at, 2)
	arrowtest.RequireReused(t, out.at[0], out.at[1])
}
