package joinop

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// The interval and window joins' tests drive an operator with a stream of
// rows and watermarks: rows of one key column k, a time t (the rowtime,
// or window_start then window_end), and a value v the Residual reads.

var tsType = &arrow.TimestampType{Unit: arrow.Millisecond}

func intervalSchema(side string) *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: side + "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: side + "t", Type: tsType},
		{Name: side + "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
}

func windowSchema(side string) *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: side + "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: side + "ws", Type: tsType},
		{Name: side + "we", Type: tsType},
		{Name: side + "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
}

// tjRow is a row of the stream; w is the watermark it arrives under.
type tjRow struct {
	side       int
	k          int64
	kNull      bool
	t, end     int64 // interval: t the time; window: t the start
	v          int64
	vNull      bool
	w          int64
	windowJoin bool
}

// tjEvent is a row, or (row nil) a ProcessWatermark of wm.
type tjEvent struct {
	row *tjRow
	wm  int64
}

func (r *tjRow) cells() []string {
	k, v := strconv.FormatInt(r.k, 10), strconv.FormatInt(r.v, 10)
	if r.kNull {
		k = "∅"
	}
	if r.vNull {
		v = "∅"
	}
	if r.windowJoin {
		return []string{k, strconv.FormatInt(r.t, 10), strconv.FormatInt(r.end, 10), v}
	}
	return []string{k, strconv.FormatInt(r.t, 10), v}
}

// joinedRow is the output row of l and r, either nil for a padded side
// (nil r and semi: only the left columns).
func joinedRow(l, r *tjRow, width int, leftOnly bool) string {
	var cells []string
	if l != nil {
		cells = append(cells, l.cells()...)
	} else {
		cells = append(cells, slices.Repeat([]string{"∅"}, width)...)
	}
	if !leftOnly {
		if r != nil {
			cells = append(cells, r.cells()...)
		} else {
			cells = append(cells, slices.Repeat([]string{"∅"}, width)...)
		}
	}
	return strings.Join(cells, "|")
}

// residualVLeW is l.v <= r.v over the joined row of two inputs of width
// columns each, v their last.
func residualVLeW(width int) expr.Expr {
	return &expr.Compare{Op: "<=",
		L: &expr.ColumnExpr{Index: width - 1, Name: "lv", Type: arrow.PrimitiveTypes.Int64},
		R: &expr.ColumnExpr{Index: 2*width - 1, Name: "rv", Type: arrow.PrimitiveTypes.Int64}}
}

// collector records what an operator emits: a row per line, "wm N" and
// "end".
type collector struct{ lines []string }

func (c *collector) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	for i := range int(rec.NumRows()) {
		cells := make([]string, rec.NumCols())
		for j, col := range rec.Columns() {
			switch {
			case col.IsNull(i):
				cells[j] = "∅"
			case col.DataType().ID() == arrow.TIMESTAMP:
				cells[j] = strconv.FormatInt(int64(col.(*array.Timestamp).Value(i)), 10)
			default:
				cells[j] = strconv.FormatInt(col.(*array.Int64).Value(i), 10)
			}
		}
		c.lines = append(c.lines, strings.Join(cells, "|"))
	}
	return nil
}
func (c *collector) ProcessWatermark(wm int64) error {
	c.lines = append(c.lines, fmt.Sprintf("wm %d", wm))
	return nil
}
func (c *collector) ProcessEnd() error { c.lines = append(c.lines, "end"); return nil }
func (c *collector) Close()            {}

// rowsOf drops the watermark and end lines.
func rowsOf(lines []string) []string {
	var rows []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "wm ") && l != "end" {
			rows = append(rows, l)
		}
	}
	return rows
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// batchOfRows builds one input batch of rows.
func batchOfRows(mem memory.Allocator, schema *arrow.Schema, rows []*tjRow) pipeline.Batch {
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	wms := make([]int64, len(rows))
	for i, r := range rows {
		if r.kNull {
			b.Field(0).AppendNull()
		} else {
			b.Field(0).(*array.Int64Builder).Append(r.k)
		}
		b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(r.t))
		v := 2
		if r.windowJoin {
			b.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(r.end))
			v = 3
		}
		if r.vNull {
			b.Field(v).AppendNull()
		} else {
			b.Field(v).(*array.Int64Builder).Append(r.v)
		}
		wms[i] = r.w
	}
	return pipeline.Batch{Record: b.NewRecordBatch(), Watermarks: wms}
}

// feed drives op with events, a side's consecutive rows in batches of at
// most size.
func feed(t testing.TB, op Operator, mem memory.Allocator, cfg Config, events []tjEvent, size int) {
	t.Helper()
	var run []*tjRow
	flush := func() {
		for len(run) > 0 {
			n := min(size, len(run))
			schema := cfg.Left
			if run[0].side == 1 {
				schema = cfg.Right
			}
			b := batchOfRows(mem, schema, run[:n])
			err := op.ProcessInput(run[0].side, b)
			b.Record.Release()
			if err != nil {
				t.Fatal(err)
			}
			run = run[n:]
		}
	}
	for _, e := range events {
		if e.row == nil {
			flush()
			if err := op.ProcessWatermark(e.wm); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if len(run) > 0 && run[0].side != e.row.side {
			flush()
		}
		run = append(run, e.row)
	}
	flush()
}

// runJoin runs the whole stream through a new operator in batches of
// size, checking Arrow memory, and returns its output lines and stats.
func runTimeJoin(t testing.TB, cfg Config, events []tjEvent, size int) ([]string, Stats) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var out collector
	op, err := New(cfg, mem, &out)
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	feed(t, op, mem, cfg, events, size)
	if err := op.ProcessEnd(); err != nil {
		t.Fatal(err)
	}
	return out.lines, op.Stats()
}

// runRestored runs events[:cut], snapshots, and runs the rest in a fresh
// operator restored from the snapshot.
func runRestored(t testing.TB, cfg Config, events []tjEvent, cut, size int) ([]string, Stats) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var out collector
	op, err := New(cfg, mem, &out)
	if err != nil {
		t.Fatal(err)
	}
	feed(t, op, mem, cfg, events[:cut], size)
	var e checkpoint.Encoder
	if err := op.SnapshotState(&e); err != nil {
		t.Fatal(err)
	}
	op.Close()
	op2, err := New(cfg, mem, &out)
	if err != nil {
		t.Fatal(err)
	}
	defer op2.Close()
	d := checkpoint.NewDecoder(e.Data())
	if err := op2.RestoreState(d); err != nil {
		t.Fatal(err)
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	feed(t, op2, mem, cfg, events[cut:], size)
	if err := op2.ProcessEnd(); err != nil {
		t.Fatal(err)
	}
	return out.lines, op2.Stats()
}

// arrivalTimes is the operator time each row of events arrives at: the
// highest watermark so far, of a row or a ProcessWatermark.
func arrivalTimes(events []tjEvent) map[*tjRow]int64 {
	at := map[*tjRow]int64{}
	now := rowtime.MinWatermark
	for _, e := range events {
		if e.row == nil {
			now = max(now, e.wm)
			continue
		}
		now = max(now, e.row.w)
		at[e.row] = now
	}
	return at
}

// genStream makes n events: rows of both sides under a watermark that
// rises (now and then by a ProcessWatermark), none for the first rows;
// times(rnd, wm) gives a row's time (a base of 0 before any watermark).
func genStream(rnd *rand.Rand, n int, nulls bool, times func(rnd *rand.Rand, wm int64, r *tjRow)) []tjEvent {
	var events []tjEvent
	wm := rowtime.MinWatermark
	lastW := rowtime.MinWatermark
	for i := 0; i < n; i++ {
		if i > n/20 && wm == rowtime.MinWatermark {
			wm = 0
		}
		switch x := rnd.IntN(10); {
		case x == 0 && wm != rowtime.MinWatermark:
			// the combined watermark: behind the rows' own, or ahead of
			// them, the rows after it coming under it
			if rnd.IntN(2) == 0 {
				wm += 1 + int64(rnd.IntN(4))
			}
			w := max(lastW, wm-int64(rnd.IntN(3)))
			lastW = w
			events = append(events, tjEvent{wm: w})
			continue
		case x <= 3 && wm != rowtime.MinWatermark:
			wm += int64(rnd.IntN(4))
		}
		r := &tjRow{side: rnd.IntN(2), k: int64(rnd.IntN(4)), v: int64(rnd.IntN(10)), w: wm}
		if nulls {
			r.kNull = rnd.IntN(12) == 0
			r.vNull = rnd.IntN(12) == 0
		}
		times(rnd, wm, r)
		events = append(events, tjEvent{row: r})
	}
	return events
}

func baseOf(wm int64) int64 {
	if wm == rowtime.MinWatermark {
		return 0
	}
	return wm
}

// checkBatchSizes checks that batches of 1, 3 and 4096 rows give the same
// output, and a snapshot taken midway the same as the run without one.
func checkBatchSizes(t testing.TB, cfg Config, events []tjEvent, cut int) []string {
	t.Helper()
	want, wantStats := runTimeJoin(t, cfg, events, 4096)
	for _, size := range []int{1, 3} {
		got, stats := runTimeJoin(t, cfg, events, size)
		if !slices.Equal(got, want) || stats != wantStats {
			t.Fatalf("batches of %d: %v %+v\nbatches of 4096: %v %+v", size, got, stats, want, wantStats)
		}
	}
	for _, size := range []int{1, 4096} {
		got, stats := runRestored(t, cfg, events, cut, size)
		if !slices.Equal(got, want) || stats != wantStats {
			t.Fatalf("restored at %d, batches of %d: %v %+v\nuninterrupted: %v %+v", cut, size, got, stats, want, wantStats)
		}
	}
	return want
}

// TestTimeJoinsIgnoreWatermarkSteps: the rows a join emits, and their
// order, do not depend on which watermarks ProcessWatermark brought
// between rows that came under them anyway (a union forwards the
// combined watermark as often as its inputs' batches come).
func TestTimeJoinsIgnoreWatermarkSteps(t *testing.T) {
	for seed := range uint64(200) {
		rnd := rand.New(rand.NewPCG(seed, 13))
		var cfg Config
		var events []tjEvent
		if seed%2 == 0 {
			cfg = randomIntervalConfig(rnd)
			events = intervalStream(rnd, 20+rnd.IntN(150), true)
		} else {
			cfg = windowConfig(Kind(rnd.IntN(6)), rnd.IntN(2) == 0)
			events = windowStream(rnd, 20+rnd.IntN(150), true)
		}
		var rowsOnly []tjEvent
		for _, e := range events {
			if e.row != nil {
				rowsOnly = append(rowsOnly, e)
			}
		}
		with, _ := runTimeJoin(t, cfg, events, 4096)
		without, _ := runTimeJoin(t, cfg, rowsOnly, 4096)
		if a, b := rowsOf(with), rowsOf(without); !slices.Equal(a, b) {
			t.Fatalf("seed %d: with watermarks\n%v\nwithout\n%v", seed, a, b)
		}
	}
}

// randomKeys keys cfg's join by k as one integer column (looked up by
// value) or as k twice (by encoded bytes), NULL-safe or not.
func randomKeys(rnd *rand.Rand, cfg Config) Config {
	safe := rnd.IntN(3) == 0
	if rnd.IntN(2) == 0 {
		cfg.LeftKeys, cfg.RightKeys = []int{0, 0}, []int{0, 0}
		cfg.NullSafe = []bool{safe, safe}
	} else if safe {
		cfg.NullSafe = []bool{true}
	}
	return cfg
}

// keysMatch is the reference's key equality of two rows.
func keysMatch(cfg Config, l, r *tjRow) bool {
	if l.kNull || r.kNull {
		return l.kNull && r.kNull && cfg.NullSafe != nil && cfg.NullSafe[0]
	}
	return l.k == r.k
}
