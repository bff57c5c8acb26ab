package joinop

import (
	"fmt"
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
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/rowkind"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/windowop"
)

// row is a test row of either input: its key k and value v, each maybe
// NULL.
type row struct {
	k, v         int64
	kNull, vNull bool
}

func (r row) cells() []string {
	cell := func(x int64, null bool) string {
		if null {
			return "(null)"
		}
		return fmt.Sprint(x)
	}
	return []string{cell(r.k, r.kNull), cell(r.v, r.vNull)}
}

// event is a row arriving on an input with its kind.
type event struct {
	input int
	kind  rowkind.Kind
	row   row
}

// shape is what a test join's inputs look like.
type shape struct {
	update    [2]bool // the input is an update stream
	stringKey bool    // k is a STRING (the encoded key index) rather than a BIGINT
	intKey    bool    // k is an INT
	bothKeys  bool    // the key is (k, v)
	noKeys    bool    // no key: a cross join (with the residual)
	nullSafe  bool
	residual  int // 0 none, 1 l.v < r.v, 2 l.v <> r.v, 3 l.v < r.v not known to read v alone
	ttl       int64
}

func sideSchema(update, stringKey, intKey bool) *arrow.Schema {
	var fields []arrow.Field
	if update {
		fields = append(fields, windowop.RowKindField())
	}
	kt := arrow.DataType(arrow.PrimitiveTypes.Int64)
	if stringKey {
		kt = arrow.BinaryTypes.String
	} else if intKey {
		kt = arrow.PrimitiveTypes.Int32
	}
	fields = append(fields, arrow.Field{Name: "k", Type: kt, Nullable: true},
		arrow.Field{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	return arrow.NewSchema(fields, nil)
}

func (s shape) config(kind Kind) Config {
	cfg := Config{Kind: kind, Left: sideSchema(s.update[0], s.stringKey, s.intKey),
		Right: sideSchema(s.update[1], s.stringKey, s.intKey)}
	off := [2]int{}
	for i, u := range s.update {
		if u {
			off[i] = 1
		}
	}
	cfg.LeftKeys, cfg.RightKeys = []int{off[0]}, []int{off[1]}
	if s.bothKeys {
		cfg.LeftKeys, cfg.RightKeys = []int{off[0], off[0] + 1}, []int{off[1], off[1] + 1}
	}
	if s.noKeys {
		cfg.LeftKeys, cfg.RightKeys = nil, nil
	}
	if s.nullSafe && !s.noKeys {
		cfg.NullSafe = make([]bool, len(cfg.LeftKeys))
		cfg.NullSafe[0] = true
	}
	lv := &expr.ColumnExpr{Index: 1, Name: "v", Type: arrow.PrimitiveTypes.Int64}
	rv := &expr.ColumnExpr{Index: 3, Name: "v", Type: arrow.PrimitiveTypes.Int64}
	switch s.residual {
	case 1:
		cfg.Residual = &expr.Compare{Op: "<", L: lv, R: rv}
	case 2:
		cfg.Residual = &expr.Compare{Op: "<>", L: lv, R: rv}
	case 3:
		cfg.Residual = opaqueLess{}
	}
	cfg.StateTTL = s.ttl
	return cfg
}

// batchOf builds one input's batch of events.
func regularBatchOf(mem memory.Allocator, schema *arrow.Schema, evs []event) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	c := 0
	if IsUpdateStream(schema) {
		for _, e := range evs {
			b.Field(0).(*array.StringBuilder).Append(e.kind.String())
		}
		c = 1
	}
	for _, e := range evs {
		switch kb := b.Field(c).(type) {
		case *array.Int64Builder:
			if e.row.kNull {
				kb.AppendNull()
			} else {
				kb.Append(e.row.k)
			}
		case *array.Int32Builder:
			if e.row.kNull {
				kb.AppendNull()
			} else {
				kb.Append(int32(e.row.k))
			}
		case *array.StringBuilder:
			if e.row.kNull {
				kb.AppendNull()
			} else {
				kb.Append(fmt.Sprint(e.row.k))
			}
		}
		vb := b.Field(c + 1).(*array.Int64Builder)
		if e.row.vNull {
			vb.AppendNull()
		} else {
			vb.Append(e.row.v)
		}
	}
	return b.NewRecordBatch()
}

// restarted snapshots op, closes it and returns a new operator of cfg
// restored from the snapshot: a restart from a checkpoint mid-input.
func restarted(t testing.TB, op Operator, cfg Config, mem memory.Allocator, out pipeline.Operator) Operator {
	t.Helper()
	var e checkpoint.Encoder
	require.NoError(t, op.SnapshotState(&e))
	op.Close()
	op, err := New(cfg, mem, out)
	require.NoError(t, err)
	d := checkpoint.NewDecoder(e.Data())
	require.NoError(t, op.RestoreState(d))
	require.NoError(t, d.Finish())
	return op
}

type recorder struct {
	rows       []string
	watermarks []int64
	ended      bool
}

func (r *recorder) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	for i := 0; i < int(rec.NumRows()); i++ {
		cells := make([]string, rec.NumCols())
		for c := range cells {
			cells[c] = rec.Column(c).ValueStr(i)
		}
		r.rows = append(r.rows, strings.Join(cells, " "))
	}
	return nil
}
func (r *recorder) ProcessWatermark(wm int64) error {
	r.watermarks = append(r.watermarks, wm)
	return nil
}
func (r *recorder) ProcessEnd() error { r.ended = true; return nil }
func (r *recorder) Close()            {}

// runJoin feeds the events in batches of up to size rows of one input;
// at the first batch from event snapAt on (when > 0) the join is snapshot
// and a fresh one restored from it goes on. It returns the output rows in order.
func runJoin(t testing.TB, cfg Config, evs []event, size, snapAt int) []string {
	rows, _ := runJoinStats(t, cfg, evs, size, snapAt, nil)
	return rows
}

// runJoinStats is runJoin where clock, when set, stands 7 ms later for
// each event before a batch; it returns the stats too.
func runJoinStats(t testing.TB, cfg Config, evs []event, size, snapAt int, clock *rowtime.ManualClock) ([]string, Stats) {
	start := time.UnixMilli(1_000_000)
	if clock != nil {
		*clock = *rowtime.NewManualClock(start)
		cfg.Clock = clock
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := &recorder{}
	op, err := New(cfg, mem, rec)
	require.NoError(t, err)
	defer func() { op.Close() }()
	schemas := [2]*arrow.Schema{cfg.Left, cfg.Right}
	snapped := false
	for from := 0; from < len(evs); {
		if snapAt > 0 && from >= snapAt && !snapped {
			snapped = true
			op = restarted(t, op, cfg, mem, rec)
		}
		to := from + 1
		for to < len(evs) && to-from < size && evs[to].input == evs[from].input {
			to++
		}
		if clock != nil {
			clock.Advance(start.Add(time.Duration(7*from) * time.Millisecond).Sub(clock.Now()))
		}
		in := regularBatchOf(mem, schemas[evs[from].input], evs[from:to])
		require.NoError(t, op.ProcessInput(evs[from].input, pipeline.Batch{Record: in}))
		in.Release()
		from = to
	}
	require.NoError(t, op.ProcessEnd())
	return rec.rows, op.Stats()
}

// materialise applies an output stream (+I, +U in; -U, -D out) and
// returns the rows left, sorted; a retraction of a row not there fails.
func materialise(t testing.TB, updates bool, out []string) []string {
	count := map[string]int{}
	for _, o := range out {
		kind, text := "+I", o
		if updates {
			kind, text, _ = strings.Cut(o, " ")
		}
		k, ok := rowkind.Parse(kind)
		require.True(t, ok, o)
		if k.IsRetraction() {
			require.Positive(t, count[text], "retracts %q, not there", text)
			count[text]--
		} else {
			count[text]++
		}
	}
	var rows []string
	for text, n := range count {
		for range n {
			rows = append(rows, text)
		}
	}
	slices.Sort(rows)
	return rows
}

// naive is the batch join of the materialised inputs.
func naive(s shape, kind Kind, evs []event) []string {
	var tables [2][]row
	for _, e := range evs {
		if e.kind.IsRetraction() {
			i := slices.Index(tables[e.input], e.row)
			tables[e.input] = slices.Delete(tables[e.input], i, i+1)
		} else {
			tables[e.input] = append(tables[e.input], e.row)
		}
	}
	match := func(l, r row) bool {
		if s.noKeys {
			l.kNull, r.kNull, l.k, r.k = false, false, 0, 0
		}
		if l.kNull || r.kNull {
			if !(s.nullSafe && l.kNull && r.kNull) {
				return false
			}
		} else if l.k != r.k {
			return false
		}
		if s.bothKeys && !s.noKeys && (l.vNull || r.vNull || l.v != r.v) {
			return false
		}
		switch s.residual {
		case 1, 3:
			return !l.vNull && !r.vNull && l.v < r.v
		case 2:
			return !l.vNull && !r.vNull && l.v != r.v
		}
		return true
	}
	nulls := []string{"(null)", "(null)"}
	var out []string
	var rightMatched = make([]bool, len(tables[1]))
	for _, l := range tables[0] {
		n := 0
		for ri, r := range tables[1] {
			if match(l, r) {
				n++
				rightMatched[ri] = true
				if kind != Semi && kind != Anti {
					out = append(out, strings.Join(append(l.cells(), r.cells()...), " "))
				}
			}
		}
		switch {
		case kind == Semi && n > 0, kind == Anti && n == 0:
			out = append(out, strings.Join(l.cells(), " "))
		case n == 0 && kind.leftOuter():
			out = append(out, strings.Join(append(l.cells(), nulls...), " "))
		}
	}
	if kind.rightOuter() {
		for ri, r := range tables[1] {
			if !rightMatched[ri] {
				out = append(out, strings.Join(append(slices.Clone(nulls), r.cells()...), " "))
			}
		}
	}
	slices.Sort(out)
	return out
}

// randomEvents makes n events: rows of few keys and values (NULLs among
// them); an update stream's rows also go (-D) or change (-U then +U),
// only ever retracting a row it has.
func randomEvents(rng *rand.Rand, s shape, n int) []event {
	newRow := func() row {
		r := row{k: int64(rng.IntN(4)), v: int64(rng.IntN(5))}
		r.kNull = rng.IntN(8) == 0
		r.vNull = rng.IntN(10) == 0
		return r
	}
	var present [2][]row
	var evs []event
	for len(evs) < n {
		in := rng.IntN(2)
		if !s.update[in] || len(present[in]) == 0 || rng.IntN(5) < 3 {
			r := newRow()
			present[in] = append(present[in], r)
			kind := rowkind.Insert
			if s.update[in] && rng.IntN(4) == 0 {
				kind = rowkind.UpdateAfter
			}
			evs = append(evs, event{input: in, kind: kind, row: r})
			continue
		}
		i := rng.IntN(len(present[in]))
		old := present[in][i]
		present[in] = slices.Delete(present[in], i, i+1)
		if rng.IntN(2) == 0 {
			evs = append(evs, event{input: in, kind: rowkind.Delete, row: old})
			continue
		}
		r := newRow()
		present[in] = append(present[in], r)
		evs = append(evs, event{input: in, kind: rowkind.UpdateBefore, row: old}, event{input: in, kind: rowkind.UpdateAfter, row: r})
	}
	return evs
}

func randomShape(rng *rand.Rand) shape {
	return shape{
		update:    [2]bool{rng.IntN(2) == 0, rng.IntN(2) == 0},
		stringKey: rng.IntN(3) == 0,
		intKey:    rng.IntN(2) == 0,
		bothKeys:  rng.IntN(5) == 0,
		noKeys:    rng.IntN(8) == 0,
		nullSafe:  rng.IntN(4) == 0,
		residual:  rng.IntN(4),
	}
}

var allKinds = []Kind{Inner, LeftOuter, RightOuter, FullOuter, Semi, Anti}

// Every kind of join over random inputs (update streams among them, a
// random residual condition, NULL keys), its output materialised, is the
// naive join of the materialised inputs; the output stream is the same
// for batches of 1, 3 and 4096 rows, and with a snapshot and restore in
// the middle.
func TestRegularJoinMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 1))
	for round := range 300 {
		s := randomShape(rng)
		kind := allKinds[round%len(allKinds)]
		cfg := s.config(kind)
		evs := randomEvents(rng, s, 1+rng.IntN(150))
		name := fmt.Sprintf("round %d %s %+v", round, kind, s)
		out := runJoin(t, cfg, evs, 4096, 0)
		require.Equal(t, naive(s, kind, evs), materialise(t, cfg.Updates(), out), name)
		require.Equal(t, out, runJoin(t, cfg, evs, 1, 0), name)
		require.Equal(t, out, runJoin(t, cfg, evs, 3, 0), name)
		require.Equal(t, out, runJoin(t, cfg, evs, 4096, len(evs)/2), name)
		// a prefix is the naive join of the prefix
		cut := len(evs) / 3
		for cut > 0 && evs[cut].kind == rowkind.UpdateAfter && evs[cut-1].kind == rowkind.UpdateBefore {
			cut--
		}
		require.Equal(t, naive(s, kind, evs[:cut]), materialise(t, cfg.Updates(), runJoin(t, cfg, evs[:cut], 3, 0)), name)
	}
}

// With a state TTL (the clock moving as rows come), a join restored from
// a snapshot in the middle goes on as the uninterrupted one: the same
// output, the same rows expired.
func TestRegularJoinSnapshotWithTTL(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 2))
	expired := int64(0)
	for round := range 120 {
		s := randomShape(rng)
		s.ttl = int64(20 + rng.IntN(200))
		kind := allKinds[round%len(allKinds)]
		cfg := s.config(kind)
		evs := randomEvents(rng, s, 1+rng.IntN(150))
		size := 1 + rng.IntN(4)
		var clock rowtime.ManualClock
		out, stats := runJoinStats(t, cfg, evs, size, 0, &clock)
		restored, restoredStats := runJoinStats(t, cfg, evs, size, len(evs)/2, &clock)
		name := fmt.Sprintf("round %d %s %+v", round, kind, s)
		require.Equal(t, out, restored, name)
		require.Equal(t, stats.ExpiredRows, restoredStats.ExpiredRows, name)
		expired += stats.ExpiredRows
	}
	require.Positive(t, expired)
}

// FuzzRegularJoin checks a join of any kind over the row stream the bytes
// make against the naive join, and its output against the one of batches
// of one row.
func FuzzRegularJoin(f *testing.F) {
	f.Add([]byte{0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{0x3f, 5, 0x81, 0x12, 0x03, 0xc4, 0x45, 0x86, 0xe7, 0x08, 0x59, 0x9a})
	f.Add([]byte{0xff, 2, 0xff, 0xfe, 0x7f, 0x80, 0x01, 0x41, 0xc1, 0x21, 0xa1, 0x61})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		s := shape{update: [2]bool{data[0]&1 != 0, data[0]&2 != 0}, stringKey: data[0]&4 != 0,
			bothKeys: data[0]&8 != 0, nullSafe: data[0]&16 != 0, residual: int(data[0]>>5) % 4}
		s.intKey = data[1]&0x80 != 0
		kind := allKinds[int(data[1]&0x7f)%len(allKinds)]
		var present [2][]row
		var evs []event
		for _, b := range data[2:] {
			in := int(b >> 7)
			r := row{k: int64(b>>4) & 3, v: int64(b>>1) & 3, kNull: b&0x70 == 0x70, vNull: b&0x0e == 0x0e}
			if s.update[in] && b&1 == 1 && len(present[in]) > 0 {
				i := int(b>>1) % len(present[in])
				evs = append(evs, event{input: in, kind: rowkind.Delete, row: present[in][i]})
				present[in] = slices.Delete(present[in], i, i+1)
				continue
			}
			present[in] = append(present[in], r)
			evs = append(evs, event{input: in, kind: rowkind.Insert, row: r})
		}
		if len(evs) == 0 {
			return
		}
		cfg := s.config(kind)
		out := runJoin(t, cfg, evs, 4096, 0)
		require.Equal(t, naive(s, kind, evs), materialise(t, cfg.Updates(), out))
		require.Equal(t, out, runJoin(t, cfg, evs, 1, 0))
	})
}

// opaqueLess is l.v < r.v as an expression without operands: the join
// cannot tell which columns it reads, and gathers them all.
type opaqueLess struct{}

func (opaqueLess) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (opaqueLess) String() string           { return "l.v < r.v" }
func (opaqueLess) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	l, r := rec.Column(1).(*array.Int64), rec.Column(3).(*array.Int64)
	b := array.NewBooleanBuilder(mem)
	defer b.Release()
	for i := 0; i < l.Len(); i++ {
		if l.IsNull(i) || r.IsNull(i) {
			b.AppendNull()
		} else {
			b.Append(l.Value(i) < r.Value(i))
		}
	}
	return b.NewArray(), nil
}

// A cross join of 400 rows with 400 makes more candidate pairs than are
// found at once and more output rows than a batch holds: its output is
// that of batches of one row.
func TestCrossJoinOfManyPairs(t *testing.T) {
	s := shape{noKeys: true, residual: 2}
	var evs []event
	for in := range 2 {
		for i := range 400 {
			evs = append(evs, event{input: in, row: row{k: int64(i), v: int64(i % 7)}})
		}
	}
	for _, kind := range []Kind{Inner, FullOuter} {
		cfg := s.config(kind)
		out := runJoin(t, cfg, evs, 4096, 0)
		require.Equal(t, naive(s, kind, evs), materialise(t, cfg.Updates(), out))
		require.Equal(t, out, runJoin(t, cfg, evs, 1, 0))
	}
}
