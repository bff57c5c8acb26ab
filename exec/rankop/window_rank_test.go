package rankop

import (
	"fmt"
	"math/rand/v2"
	"sort"
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
)

// windowSchema is a window table function's rows: window_start,
// window_end, a key, a value and the event time.
var windowSchema = arrow.NewSchema([]arrow.Field{
	{Name: "window_start", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "window_end", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "k", Type: arrow.BinaryTypes.String},
	{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
}, nil)

const windowSize = 10

// windowRow is a row of windowSchema in the tumbling window of its time.
type windowRow struct {
	ts   int64
	k    string
	v    int64
	null bool
}

func (r windowRow) start() int64 { return r.ts - r.ts%windowSize }

func (r windowRow) text() string {
	v := fmt.Sprint(r.v)
	if r.null {
		v = "NULL"
	}
	return fmt.Sprintf("%d %d %s %s %d", r.start(), r.start()+windowSize, r.k, v, r.ts)
}

func windowBatch(mem memory.Allocator, rows []windowRow) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, windowSchema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(r.start()))
		b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(r.start() + windowSize))
		b.Field(2).(*array.StringBuilder).Append(r.k)
		if r.null {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.Int64Builder).Append(r.v)
		}
		b.Field(4).(*array.TimestampBuilder).Append(arrow.Timestamp(r.ts))
	}
	return b.NewRecordBatch()
}

// windowConfig ranks per window and k by v DESC (mode TopN) or by ts.
func windowConfig(mode Mode, start, end int64, rank string) Config {
	cfg := Config{Input: windowSchema, Partition: []int{0, 1, 2}, Start: start, End: end, RankName: rank, Mode: mode,
		Window: &WindowColumns{Start: 0, End: 1}}
	if mode == TopN {
		cfg.Order = []SortKey{{Index: 3, Desc: true}}
	} else {
		cfg.Rowtime = 4
	}
	return cfg
}

// runWindowRank feeds rows in batches of size, with per-row watermarks
// (max ts − delay over the rows before) when perRow, and a watermark
// after each batch; then the end. With restore, every batch goes to a
// new operator restored from the previous one's snapshot.
func runWindowRank(t *testing.T, cfg Config, rows []windowRow, size int, perRow, restore bool) ([]string, Stats) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := &recorder{}
	op, err := NewWindowRank(cfg, mem, rec)
	require.NoError(t, err)
	defer func() { op.Close() }()
	wm := rowtime.MinWatermark
	for from := 0; from < len(rows); from += size {
		if restore && from > 0 {
			var e checkpoint.Encoder
			require.NoError(t, op.SnapshotState(&e))
			op.Close()
			op, err = NewWindowRank(cfg, mem, rec)
			require.NoError(t, err)
			d := checkpoint.NewDecoder(e.Data())
			require.NoError(t, op.RestoreState(d))
			require.NoError(t, d.Finish())
		}
		part := rows[from:min(from+size, len(rows))]
		var wms []int64
		for _, r := range part {
			if perRow {
				wms = append(wms, wm)
				wm = max(wm, r.ts-delay)
			}
		}
		in := windowBatch(mem, part)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in, Watermarks: wms}))
		in.Release()
		if !perRow {
			for _, r := range part {
				wm = max(wm, r.ts-delay)
			}
		}
		require.NoError(t, op.ProcessWatermark(wm))
	}
	require.NoError(t, op.ProcessEnd())
	return rec.rows, op.Stats()
}

// windowReference ranks naively: every row on time is kept in its window
// partition; when the watermark passes a window's end, its rows are
// sorted and its ranks emitted. perRow as runWindowRank's.
func windowReference(cfg Config, rows []windowRow, size int, perRow bool) (out []string, late int64) {
	type entry struct {
		r   windowRow
		seq int
	}
	type part struct {
		rows  []entry
		begun int
	}
	parts := map[string]*part{}
	begun := 0
	wm := rowtime.MinWatermark
	less := func(a, b entry) bool {
		switch cfg.Mode {
		case FirstByTime:
			return a.r.ts < b.r.ts || a.r.ts == b.r.ts && a.seq < b.seq
		case LastByTime:
			return a.r.ts > b.r.ts || a.r.ts == b.r.ts && a.seq > b.seq
		}
		switch { // v DESC, NULL last; ties by arrival
		case a.r.null != b.r.null:
			return !a.r.null
		case !a.r.null && a.r.v != b.r.v:
			return a.r.v > b.r.v
		}
		return a.seq < b.seq
	}
	advance := func(to int64) {
		if to <= wm {
			return
		}
		wm = to
		var closing []string
		for key, p := range parts {
			if end := p.rows[0].r.start() + windowSize; end-1 <= wm {
				closing = append(closing, key)
			}
		}
		sort.Slice(closing, func(i, j int) bool {
			a, b := parts[closing[i]], parts[closing[j]]
			ea, eb := a.rows[0].r.start(), b.rows[0].r.start()
			return ea < eb || ea == eb && a.begun < b.begun
		})
		for _, key := range closing {
			rs := parts[key].rows
			sort.SliceStable(rs, func(i, j int) bool { return less(rs[i], rs[j]) })
			last := int(cfg.End)
			for j := int(cfg.Start) - 1; j < min(last, len(rs)); j++ {
				line := rs[j].r.text()
				if cfg.RankName != "" {
					line += fmt.Sprintf(" %d", j+1)
				}
				out = append(out, line)
			}
			delete(parts, key)
		}
	}
	for seq, r := range rows {
		if perRow {
			advance(wm) // the row's own watermark is the one before it
		}
		if r.start()+windowSize-1 <= wm {
			late++
		} else {
			key := fmt.Sprintf("%d/%s", r.start(), r.k)
			if parts[key] == nil {
				parts[key] = &part{begun: begun}
				begun++
			}
			parts[key].rows = append(parts[key].rows, entry{r, seq})
		}
		next := max(wm, r.ts-delay)
		if perRow {
			advance(next)
		} else if (seq+1)%size == 0 || seq == len(rows)-1 {
			// a watermark after each batch: the max over it
			m := wm
			for _, b := range rows[seq-seq%size : seq+1] {
				m = max(m, b.ts-delay)
			}
			advance(m)
		}
	}
	advance(rowtime.MaxWatermark)
	return out, late
}

func randomWindowRows(rng *rand.Rand, n, keys int) []windowRow {
	rows := make([]windowRow, n)
	ts := int64(100)
	for i := range rows {
		ts += int64(rng.IntN(3))
		rows[i] = windowRow{ts: ts - int64(rng.IntN(9)), k: fmt.Sprintf("k%d", rng.IntN(keys)), v: int64(rng.IntN(6)), null: rng.IntN(10) == 0}
	}
	return rows
}

// A window Top-N and a window deduplication emit what the naive reference
// does, at every batch size, with watermarks per row or per batch, and
// after a snapshot and restore between every two batches.
func TestWindowRankMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 60 {
		rows := randomWindowRows(rng, 1+rng.IntN(150), 1+rng.IntN(4))
		mode := []Mode{TopN, FirstByTime, LastByTime}[round%3]
		start, end := int64(1), int64(1)
		rank := ""
		if mode == TopN {
			start = int64(1 + rng.IntN(2))
			end = start + int64(rng.IntN(3))
		}
		if rng.IntN(2) == 0 {
			rank = "rn"
		}
		cfg := windowConfig(mode, start, end, rank)
		for _, size := range []int{1, 3, 17, 4096} {
			for _, perRow := range []bool{false, true} {
				// per-batch watermarks depend on the batch size; per-row
				// ones do not
				want, late := windowReference(cfg, rows, size, perRow)
				got, stats := runWindowRank(t, cfg, rows, size, perRow, size == 3)
				require.Equal(t, want, got, "round %d, mode %d, batch size %d, per row %v", round, mode, size, perRow)
				require.Equal(t, late, stats.LateRowsDropped, "round %d late rows", round)
				require.Equal(t, late, stats.Lateness.Count(), "round %d: each late row's lateness, restored too", round)
				require.Equal(t, int64(len(rows)), stats.RowsIn)
				require.Equal(t, int64(len(want)), stats.ResultRows)
			}
		}
	}
}

// Flink's documented window Top-3 over per-window totals: each window's
// ranks come out once it closes, append-only, with the rank column.
func TestWindowTopNClosesWindows(t *testing.T) {
	rows := []windowRow{{1, "a", 5, false}, {2, "b", 7, false}, {3, "c", 6, false}, {4, "d", 1, false}, {12, "a", 2, false}, {25, "a", 3, false}}
	got, stats := runWindowRank(t, Config{Input: windowSchema, Partition: []int{0, 1}, Order: []SortKey{{Index: 3, Desc: true}},
		Start: 1, End: 3, RankName: "rownum", Mode: TopN, Window: &WindowColumns{Start: 0, End: 1}}, rows, 2, false, false)
	require.Equal(t, []string{"0 10 b 7 2 1", "0 10 c 6 3 2", "0 10 a 5 1 3", "10 20 a 2 12 1", "20 30 a 3 25 1"}, got)
	require.Zero(t, stats.LateRowsDropped)
}

// A window over a TIMESTAMP_LTZ rowtime has wall-clock bounds in the
// session zone: it closes when the watermark passes its end there.
func TestWindowRankZonedBounds(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	shanghai, err := time.LoadLocation("Asia/Shanghai") // UTC+8, no DST
	require.NoError(t, err)
	cfg := windowConfig(FirstByTime, 1, 1, "")
	cfg.Window.Zone = shanghai
	rec := &recorder{}
	op, err := NewWindowRank(cfg, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	hours8 := int64(8 * time.Hour / time.Millisecond)
	in := windowBatch(mem, []windowRow{{3, "a", 1, false}}) // window [0, 10) local
	require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in}))
	in.Release()
	// its last millisecond, local 9, is the instant 9 − 8h
	require.NoError(t, op.ProcessWatermark(8-hours8))
	require.Empty(t, rec.rows)
	require.NoError(t, op.ProcessWatermark(9-hours8))
	require.Equal(t, []string{"0 10 a 1 3"}, rec.rows)
}

func TestWindowRankConformance(t *testing.T) {
	input := func(mem memory.Allocator) []pipelinetest.Step {
		return []pipelinetest.Step{
			pipelinetest.BatchStep(windowBatch(mem, []windowRow{{10, "a", 1, false}, {12, "b", 2, false}, {11, "a", 3, false}}), []int64{rowtime.MinWatermark, 5, 7}),
			pipelinetest.WatermarkStep(7),
			pipelinetest.BatchStep(windowBatch(mem, []windowRow{{20, "a", 9, false}, {18, "b", 1, true}}), []int64{7, 15}),
			pipelinetest.WatermarkStep(25),
		}
	}
	for name, cfg := range map[string]Config{
		"top-n": windowConfig(TopN, 1, 2, "rn"),
		"first": windowConfig(FirstByTime, 1, 1, ""),
		"last":  windowConfig(LastByTime, 1, 1, "rn"),
	} {
		t.Run(name, func(t *testing.T) {
			pipelinetest.TestOperator(t, pipelinetest.Harness{
				New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
					return NewWindowRank(cfg, mem, next)
				},
				Input: input,
			})
		})
	}
}

// A window rank refuses a partition without its window columns.
func TestWindowRankConfigChecks(t *testing.T) {
	cfg := windowConfig(TopN, 1, 3, "")
	cfg.Partition = []int{0, 2}
	_, err := cfg.OutputSchema()
	require.ErrorContains(t, err, "window_start and window_end")
	cfg = windowConfig(TopN, 1, 3, "")
	s, err := cfg.OutputSchema()
	require.NoError(t, err)
	require.Equal(t, 5, s.NumFields(), "append-only: no op column")
	require.False(t, cfg.Updates())
}
