package joinop

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
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
)

// The lookup join's tests probe a table of rates kept in a text file, a
// row a line: "key,name,rate" (an empty key is NULL). The probe rows are
// the temporal join's left rows (time, key, value).

var lkTableSchema = arrow.NewSchema([]arrow.Field{
	{Name: "tk", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "name", Type: arrow.BinaryTypes.String},
	{Name: "rate", Type: arrow.PrimitiveTypes.Int64},
}, nil)

type lkRow struct {
	key  *int64
	name string
	rate int64
}

// lkWrite writes the table's file, stamped modified at mtime.
func lkWrite(t testing.TB, path string, rows []lkRow, mtime time.Time) {
	t.Helper()
	var b strings.Builder
	for _, r := range rows {
		if r.key != nil {
			b.WriteString(strconv.FormatInt(*r.key, 10))
		}
		fmt.Fprintf(&b, ",%s,%d\n", r.name, r.rate)
	}
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	require.NoError(t, os.Chtimes(path, mtime, mtime))
}

// lkLoader reads the table's file, or the files of its directory, as the
// filesystem connector would.
func lkLoader(path string) func(memory.Allocator) (arrow.RecordBatch, error) {
	return func(mem memory.Allocator) (arrow.RecordBatch, error) {
		files := []string{path}
		if entries, err := os.ReadDir(path); err == nil {
			files = files[:0]
			for _, e := range entries {
				files = append(files, filepath.Join(path, e.Name()))
			}
		}
		var text []byte
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				return nil, err
			}
			text = append(text, data...)
		}
		b := array.NewRecordBuilder(mem, lkTableSchema)
		defer b.Release()
		sc := bufio.NewScanner(bytes.NewReader(text))
		for sc.Scan() {
			cells := strings.Split(sc.Text(), ",")
			if len(cells) != 3 {
				return nil, fmt.Errorf("bad line %q", sc.Text())
			}
			if cells[0] == "" {
				b.Field(0).AppendNull()
			} else {
				k, err := strconv.ParseInt(cells[0], 10, 64)
				if err != nil {
					return nil, err
				}
				b.Field(0).(*array.Int64Builder).Append(k)
			}
			b.Field(1).(*array.StringBuilder).Append(cells[1])
			r, err := strconv.ParseInt(cells[2], 10, 64)
			if err != nil {
				return nil, err
			}
			b.Field(2).(*array.Int64Builder).Append(r)
		}
		return b.NewRecordBatch(), sc.Err()
	}
}

// lookupConfig is the lookup join of shape s (its right side unused) over the
// file at path.
func (s tjShape) lookupConfig(path string, clock rowtime.Clock) LookupFileConfig {
	tc := s.config()
	cfg := LookupFileConfig{
		Kind: tc.Kind, Left: tc.Left, Table: lkTableSchema,
		LeftKeys: tc.LeftKeys, TableKeys: []int{0}, NullSafe: tc.NullSafe,
		Residual: tc.Residual, // v <> rate: columns 2 and 5 again
		Load:     lkLoader(path), Path: path, CheckInterval: 10 * time.Second, Clock: clock,
	}
	return cfg
}

// lkSwitch is an event that rewrites the table's file with the next
// table and lets the check interval pass.
const lkSwitch = -2

// lkRun drives a fresh lookup join of shape s with events (probe rows,
// watermarks and lkSwitch), the probe rows cut into batches of at most
// size, over tables[0], then tables[1] after the first lkSwitch, and so
// on. Arrow memory is checked.
func lkRun(t testing.TB, s tjShape, tables [][]lkRow, events []tmpEvent, size int) []string {
	t.Helper()
	lines, _ := lkRunWith(t, s, tables, events, size, false)
	return lines
}

// lkRunWith is lkRun where, with rowWms, each probe row carries the
// watermark of the watermark events before it, which go to
// ProcessWatermark only after a batch, as the merge of a union sends
// them; it returns each output row's watermark too.
func lkRunWith(t testing.TB, s tjShape, tables [][]lkRow, events []tmpEvent, size int, rowWms bool) ([]string, []string) {
	return lkDrive(t, s, tables, events, size, rowWms, func(cfg LookupFileConfig, mem memory.Allocator, out pipeline.Operator) (LookupOperator, error) {
		return NewLookupFileJoin(cfg, mem, out)
	})
}

// lkDrive is lkRunWith of the lookup join newOp builds.
func lkDrive(t testing.TB, s tjShape, tables [][]lkRow, events []tmpEvent, size int, rowWms bool,
	newOp func(cfg LookupFileConfig, mem memory.Allocator, out pipeline.Operator) (LookupOperator, error)) ([]string, []string) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	path := filepath.Join(t.TempDir(), "rates.csv")
	mtime := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	lkWrite(t, path, tables[0], mtime)
	clock := rowtime.NewManualClock(mtime)
	cfg := s.lookupConfig(path, clock)
	log := &tjLog{sent: "min"}
	op, err := newOp(cfg, mem, log)
	require.NoError(t, err)
	defer op.Close()
	next := 1
	cur := int64(math.MinInt64)
	for i := 0; i < len(events); {
		switch e := events[i]; e.input {
		case tjWatermark:
			if rowWms {
				cur = max(cur, e.time)
			} else {
				require.NoError(t, op.ProcessWatermark(e.time))
			}
			i++
			continue
		case lkSwitch:
			mtime = mtime.Add(time.Second)
			lkWrite(t, path, tables[next], mtime)
			next++
			clock.Advance(cfg.CheckInterval)
			i++
			continue
		}
		var rows []tmpEvent
		var wms []int64
		j := i
		for ; j < len(events) && len(rows) < size; j++ {
			if rowWms && events[j].input == tjWatermark {
				cur = max(cur, events[j].time)
				continue
			}
			if events[j].input != 0 {
				break
			}
			rows, wms = append(rows, events[j]), append(wms, cur)
		}
		if !rowWms {
			wms = nil
		}
		rec := tjBatch(mem, cfg.Left, rows)
		err := op.ProcessBatch(pipeline.Batch{Record: rec, Watermarks: wms})
		rec.Release()
		require.NoError(t, err)
		if rowWms {
			require.NoError(t, op.ProcessWatermark(cur))
		}
		i = j
	}
	require.NoError(t, op.ProcessEnd())
	return log.lines, log.rowWms
}

// lkReference joins each probe row with every row of the table of its
// time of its key, in the table's order.
func lkReference(s tjShape, tables [][]lkRow, events []tmpEvent) []string {
	var lines []string
	table := tables[0]
	next := 1
	wm := int64(-1 << 63)
	for _, e := range events {
		switch e.input {
		case tjWatermark:
			if e.time > wm {
				wm = e.time
				lines = append(lines, fmt.Sprintf("wm %d", wm))
			}
			continue
		case lkSwitch:
			table = tables[next]
			next++
			continue
		}
		name, ok := s.keyName(e.key)
		found := false
		for _, r := range table {
			rn, rok := s.keyName(r.key)
			if ok && rok && rn == name && (!s.residual || e.val != r.rate) {
				lines = append(lines, lkLine(s, e, &r))
				found = true
			}
		}
		if !found && s.outer {
			lines = append(lines, lkLine(s, e, nil))
		}
	}
	return append(lines, "end")
}

func lkLine(s tjShape, l tmpEvent, r *lkRow) string {
	var cells []string
	if s.leftUpdates {
		cells = append(cells, l.kind)
	}
	key := func(k *int64) string {
		if k == nil {
			return "NULL"
		}
		return fmt.Sprint(*k)
	}
	cells = append(cells, fmt.Sprint(l.time), key(l.key), fmt.Sprint(l.val))
	if r == nil {
		cells = append(cells, "NULL", "NULL", "NULL")
	} else {
		cells = append(cells, key(r.key), r.name, fmt.Sprint(r.rate))
	}
	return strings.Join(cells, " ")
}

func lkR(key int64, name string, rate int64) lkRow {
	return lkRow{key: tjKey(key), name: name, rate: rate}
}

func TestLookupFileJoinReadsTheFileAgainWhenItChanges(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	path := filepath.Join(t.TempDir(), "rates.csv")
	start := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	lkWrite(t, path, []lkRow{lkR(1, "eur", 10)}, start)
	clock := rowtime.NewManualClock(start)
	cfg := tjShape{}.lookupConfig(path, clock)
	log := &tjLog{}
	op, err := NewLookupFileJoin(cfg, mem, log)
	require.NoError(t, err)
	defer op.Close()
	probe := func(time int64) {
		rec := tjBatch(mem, cfg.Left, []tmpEvent{tjL(time, 1, 0)})
		defer rec.Release()
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: rec}))
	}
	probe(1)
	lkWrite(t, path, []lkRow{lkR(1, "eur", 11), lkR(1, "euro", 12)}, start.Add(time.Second))
	clock.Advance(5 * time.Second)
	probe(2) // the file is not looked at before 10 s have passed
	clock.Advance(5 * time.Second)
	probe(3)
	clock.Advance(time.Minute)
	probe(4) // looked at, unchanged: not read again
	require.Equal(t, []string{
		"1 1 0 1 eur 10",
		"2 1 0 1 eur 10",
		"3 1 0 1 eur 11",
		"3 1 0 1 euro 12",
		"4 1 0 1 eur 11",
		"4 1 0 1 euro 12",
	}, log.lines)
	require.Equal(t, int64(2), op.Loads())
	require.Equal(t, Stats{RowsIn: 4, ResultRows: 6}, op.Stats())

	// a file replaced by another of the same time and size is read again
	other := filepath.Join(filepath.Dir(path), "other.csv")
	lkWrite(t, other, []lkRow{lkR(1, "eur", 13), lkR(1, "euro", 14)}, start.Add(time.Second))
	require.NoError(t, os.Rename(other, path))
	clock.Advance(time.Minute)
	probe(5)
	require.Equal(t, "5 1 0 1 eur 13", log.lines[6])
	require.Equal(t, int64(3), op.Loads())

	// a file gone is an error
	require.NoError(t, os.Remove(path))
	clock.Advance(time.Minute)
	rec := tjBatch(mem, cfg.Left, []tmpEvent{tjL(6, 1, 0)})
	defer rec.Release()
	require.ErrorContains(t, op.ProcessBatch(pipeline.Batch{Record: rec}), "no such file")
}

// A table kept in the files of a directory is read again when one of its
// files changed, or when a file came or went.
func TestLookupFileJoinWatchesADirectory(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	start := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	lkWrite(t, filepath.Join(dir, "a.csv"), []lkRow{lkR(1, "a", 10)}, start)
	lkWrite(t, filepath.Join(dir, "b.csv"), []lkRow{lkR(1, "b", 20)}, start)
	clock := rowtime.NewManualClock(start)
	cfg := tjShape{}.lookupConfig(dir, clock)
	log := &tjLog{}
	op, err := NewLookupFileJoin(cfg, mem, log)
	require.NoError(t, err)
	defer op.Close()
	probe := func() {
		clock.Advance(cfg.CheckInterval)
		rec := tjBatch(mem, cfg.Left, []tmpEvent{tjL(1, 1, 0)})
		defer rec.Release()
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: rec}))
	}
	probe()
	lkWrite(t, filepath.Join(dir, "b.csv"), []lkRow{lkR(1, "b", 21)}, start.Add(time.Second))
	probe()
	lkWrite(t, filepath.Join(dir, "c.csv"), []lkRow{lkR(1, "c", 30)}, start)
	probe()
	require.NoError(t, os.Remove(filepath.Join(dir, "a.csv")))
	probe()
	probe()
	require.Equal(t, []string{
		"1 1 0 1 a 10", "1 1 0 1 b 20",
		"1 1 0 1 a 10", "1 1 0 1 b 21",
		"1 1 0 1 a 10", "1 1 0 1 b 21", "1 1 0 1 c 30",
		"1 1 0 1 b 21", "1 1 0 1 c 30",
		"1 1 0 1 b 21", "1 1 0 1 c 30",
	}, log.lines)
	require.Equal(t, int64(4), op.Loads())
}

func TestLookupFileJoinMatchesEveryRowOfTheKey(t *testing.T) {
	table := []lkRow{lkR(1, "a", 10), lkR(2, "b", 20), lkR(1, "c", 11), {name: "null", rate: 30}}
	events := []tmpEvent{
		tjL(1, 1, 10), // the residual v <> rate drops (1, a)
		tjL(2, 1, 5),
		tjL(3, 2, 20), // no pair holds
		tjL(4, 3, 1),  // no row of the key
		{time: 5, val: 1},
		tjWM(5),
	}
	require.Equal(t, []string{
		"1 1 10 1 c 11",
		"2 1 5 1 a 10",
		"2 1 5 1 c 11",
		"3 2 20 NULL NULL NULL",
		"4 3 1 NULL NULL NULL",
		"5 NULL 1 NULL NULL NULL",
		"wm 5", "end",
	}, lkRun(t, tjShape{outer: true, residual: true}, [][]lkRow{table}, events, 4096))
	require.Equal(t, []string{
		"1 1 10 1 c 11",
		"2 1 5 1 a 10",
		"2 1 5 1 c 11",
		"5 NULL 1 NULL null 30",
		"wm 5", "end",
	}, lkRun(t, tjShape{residual: true, nullSafe: true}, [][]lkRow{table}, events, 4096))
}

func TestLookupFileJoinKeepsKindsAndWatermarks(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	path := filepath.Join(t.TempDir(), "rates.csv")
	lkWrite(t, path, []lkRow{lkR(1, "a", 10), lkR(1, "b", 11)}, time.Now())
	cfg := tjShape{leftUpdates: true, outer: true}.lookupConfig(path, nil)
	var got []pipeline.Batch
	sink := &tjBatches{got: &got}
	op, err := NewLookupFileJoin(cfg, mem, sink)
	require.NoError(t, err)
	defer op.Close()
	l1, l2 := tjL(1, 1, 0), tjL(2, 2, 0)
	l1.kind, l2.kind = "-U", "+U"
	rec := tjBatch(mem, cfg.Left, []tmpEvent{l1, l2})
	defer rec.Release()
	require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: rec, Watermarks: []int64{7, 8}}))
	require.Len(t, got, 1)
	require.Equal(t, []int64{7, 7, 8}, got[0].Watermarks)
	log := &tjLog{}
	require.NoError(t, log.ProcessBatch(got[0]))
	require.Equal(t, []string{"-U 1 1 0 1 a 10", "-U 1 1 0 1 b 11", "+U 2 2 0 NULL NULL NULL"}, log.lines)
	got[0].Record.Release()
}

// Each output row of the lookup join goes out under the watermark its
// probe row came under, at batches of 1, 3 and 4096 rows alike, the
// residual condition dropping pairs and padding rows among them.
func TestLookupFileJoinRowWatermarks(t *testing.T) {
	table := []lkRow{lkR(1, "a", 10), lkR(2, "b", 20), lkR(1, "c", 11)}
	events := []tmpEvent{
		tjWM(3),
		tjL(1, 1, 10), // the residual v <> rate drops (1, a)
		tjL(2, 1, 5),
		tjWM(4),
		tjL(3, 2, 20), // no pair holds
		tjWM(6),
		tjL(4, 3, 1), // no row of the key
	}
	s := tjShape{outer: true, residual: true}
	want := []string{"1 1 10 1 c 11", "2 1 5 1 a 10", "2 1 5 1 c 11", "3 2 20 NULL NULL NULL", "4 3 1 NULL NULL NULL"}
	for _, size := range []int{1, 3, 4096} {
		lines, wms := lkRunWith(t, s, [][]lkRow{table}, events, size, true)
		require.Equal(t, want, tjRowsOnly(lines), "batches of %d", size)
		require.Equal(t, []string{"3", "3", "3", "4", "6"}, wms, "batches of %d", size)
	}
}

// tjBatches keeps what reaches it.
type tjBatches struct{ got *[]pipeline.Batch }

func (s *tjBatches) ProcessBatch(b pipeline.Batch) error {
	b.Record.Retain()
	b.Watermarks = append([]int64(nil), b.Watermarks...)
	*s.got = append(*s.got, b)
	return nil
}
func (s *tjBatches) ProcessWatermark(int64) error { return nil }
func (s *tjBatches) ProcessEnd() error            { return nil }
func (s *tjBatches) Close()                       {}

func TestLookupFileJoinRestoredReadsTheTable(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	path := filepath.Join(t.TempDir(), "rates.csv")
	lkWrite(t, path, []lkRow{lkR(1, "a", 10)}, time.Now())
	cfg := tjShape{}.lookupConfig(path, nil)
	op, err := NewLookupFileJoin(cfg, mem, &tjLog{})
	require.NoError(t, err)
	rec := tjBatch(mem, cfg.Left, []tmpEvent{tjL(1, 1, 0)})
	defer rec.Release()
	require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: rec}))
	var e checkpoint.Encoder
	require.NoError(t, op.SnapshotState(&e))
	op.Close()
	lkWrite(t, path, []lkRow{lkR(1, "b", 11)}, time.Now())
	log := &tjLog{}
	restored, err := NewLookupFileJoin(cfg, mem, log)
	require.NoError(t, err)
	defer restored.Close()
	d := checkpoint.NewDecoder(e.Data())
	require.NoError(t, restored.RestoreState(d))
	require.NoError(t, d.Finish())
	require.NoError(t, restored.ProcessBatch(pipeline.Batch{Record: rec}))
	require.Equal(t, []string{"1 1 0 1 b 11"}, log.lines)
	require.Equal(t, Stats{RowsIn: 2, ResultRows: 2}, restored.Stats())
}

func TestLookupFileJoinConfigErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rates.csv")
	cfg := tjShape{}.lookupConfig(path, nil)
	_, err := NewLookupFileJoin(cfg, memory.NewGoAllocator(), &tjLog{})
	require.ErrorContains(t, err, "no such file")
	lkWrite(t, path, nil, time.Now())
	cfg.Kind = RightOuter
	_, err = NewLookupFileJoin(cfg, memory.NewGoAllocator(), &tjLog{})
	require.ErrorContains(t, err, "INNER or LEFT")
	cfg = tjShape{}.lookupConfig(path, nil)
	cfg.Table = arrow.NewSchema(lkTableSchema.Fields()[:2], nil)
	_, err = NewLookupFileJoin(cfg, memory.NewGoAllocator(), &tjLog{})
	require.ErrorContains(t, err, "read as")
}

// TestLookupFileJoinMatchesReference runs random probe rows against random
// tables that change mid-stream, in batches of 1, 3 and 4096 rows, against
// a nested loop over the table in effect.
func TestLookupFileJoinMatchesReference(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 19))
	seeds := 4
	if testing.Short() {
		seeds = 1
	}
	for _, s := range tjShapes() {
		if s.rightUpdates {
			continue
		}
		for seed := range seeds {
			tables, events := lkRandomCase(rnd, s)
			want := lkReference(s, tables, events)
			for _, size := range []int{1, 3, 4096} {
				require.Equal(t, want, lkRun(t, s, tables, events, size), "%+v seed %d, batches of %d", s, seed, size)
			}
		}
	}
}

// FuzzLookupFileJoin checks random probe streams and table versions of
// every shape against the reference, at two batch sizes.
func FuzzLookupFileJoin(f *testing.F) {
	for seed := range uint64(4) {
		f.Add(seed, uint8(seed))
	}
	var shapes []tjShape
	for _, s := range tjShapes() {
		if !s.rightUpdates {
			shapes = append(shapes, s)
		}
	}
	f.Fuzz(func(t *testing.T, seed uint64, shape uint8) {
		s := shapes[int(shape)%len(shapes)]
		tables, events := lkRandomCase(rand.New(rand.NewPCG(seed, 19)), s)
		want := lkReference(s, tables, events)
		for _, size := range []int{1, 4096} {
			require.Equal(t, want, lkRun(t, s, tables, events, size), "%+v, batches of %d", s, size)
		}
	})
}

// lkRandomCase is a random table, probe rows and watermarks, and switches
// to new random versions of the table.
func lkRandomCase(rnd *rand.Rand, s tjShape) ([][]lkRow, []tmpEvent) {
	randomTable := func() []lkRow {
		var rows []lkRow
		for range rnd.IntN(12) {
			r := lkRow{name: fmt.Sprint("n", rnd.IntN(100)), rate: rnd.Int64N(3)}
			if rnd.IntN(8) > 0 {
				r.key = tjKey(rnd.Int64N(5))
			}
			rows = append(rows, r)
		}
		return rows
	}
	tables := [][]lkRow{randomTable()}
	var events []tmpEvent
	for range 200 {
		switch rnd.IntN(20) {
		case 0:
			events = append(events, tjWM(rnd.Int64N(100)))
		case 1:
			events = append(events, tmpEvent{input: lkSwitch})
			tables = append(tables, randomTable())
		default:
			e := tmpEvent{kind: "+I", time: rnd.Int64N(100), val: rnd.Int64N(3)}
			if rnd.IntN(8) > 0 {
				e.key = tjKey(rnd.Int64N(6))
			}
			if s.leftUpdates {
				e.kind = []string{"+I", "-U", "+U", "-D"}[rnd.IntN(4)]
			}
			events = append(events, e)
		}
	}
	return tables, events
}

func TestLookupFileJoinKeepsTheOperatorContract(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rates.csv")
	lkWrite(t, path, []lkRow{lkR(1, "a", 10), lkR(1, "b", 11), lkR(2, "c", 12)}, time.Now())
	cfg := tjShape{outer: true, residual: true}.lookupConfig(path, nil)
	pipelinetest.TestOperator(t, pipelinetest.Harness{
		New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
			return NewLookupFileJoin(cfg, mem, next)
		},
		Input: func(mem memory.Allocator) []pipelinetest.Step {
			return []pipelinetest.Step{
				pipelinetest.BatchStep(tjBatch(mem, cfg.Left, []tmpEvent{tjL(1, 1, 10), tjL(2, 2, 12), tjL(3, 3, 0)}), []int64{0, 1, 1}),
				pipelinetest.WatermarkStep(1),
				pipelinetest.BatchStep(tjBatch(mem, cfg.Left, []tmpEvent{tjL(4, 1, 0)}), nil),
				pipelinetest.WatermarkStep(4),
			}
		},
	})
}
