package joinop

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/internal/recycle"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/windowop"
)

// The temporal join's tests drive it with events: a row of the left
// (orders: time, key, value) or the right input (a versioned table of
// rates: time, key, rate), each with a row kind when its input is an
// update stream, or a watermark.

type tmpEvent struct {
	input int    // 0 left, 1 right, tjWatermark
	kind  string // the row kind of an update stream's row
	time  int64
	key   *int64 // nil: NULL
	val   int64
}

const tjWatermark = -1

func tjKey(k int64) *int64 { return &k }

func tjL(time, key, val int64) tmpEvent {
	return tmpEvent{input: 0, kind: "+I", time: time, key: tjKey(key), val: val}
}
func tjR(kind string, time, key, val int64) tmpEvent {
	return tmpEvent{input: 1, kind: kind, time: time, key: tjKey(key), val: val}
}
func tjWM(wm int64) tmpEvent { return tmpEvent{input: tjWatermark, time: wm} }

// tjShape is the inputs' shapes and the join's kind and condition.
type tjShape struct {
	outer, leftUpdates, rightUpdates bool
	residual                         bool // ON ... AND l.v <> r.rate
	nullSafe                         bool
}

func tjSchema(updates bool, time, key, val string) *arrow.Schema {
	var fields []arrow.Field
	if updates {
		fields = append(fields, windowop.RowKindField())
	}
	fields = append(fields,
		arrow.Field{Name: time, Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
		arrow.Field{Name: key, Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: val, Type: arrow.PrimitiveTypes.Int64},
	)
	return arrow.NewSchema(fields, nil)
}

func (s tjShape) config() Config {
	left := tjSchema(s.leftUpdates, "lt", "lk", "v")
	right := tjSchema(s.rightUpdates, "rt", "rk", "rate")
	lo, ro := 0, 0
	if s.leftUpdates {
		lo = 1
	}
	if s.rightUpdates {
		ro = 1
	}
	cfg := Config{
		Kind: Inner, Left: left, Right: right,
		LeftKeys: []int{lo + 1}, RightKeys: []int{ro + 1},
		Temporal: &Temporal{LeftTime: lo, RightTime: ro},
	}
	if s.outer {
		cfg.Kind = LeftOuter
	}
	if s.nullSafe {
		cfg.NullSafe = []bool{true}
	}
	if s.residual {
		// over the joined data columns lt, lk, v, rt, rk, rate
		cfg.Residual = &expr.Compare{Op: "<>",
			L: &expr.ColumnExpr{Index: 2, Name: "v", Type: arrow.PrimitiveTypes.Int64},
			R: &expr.ColumnExpr{Index: 5, Name: "rate", Type: arrow.PrimitiveTypes.Int64}}
	}
	return cfg
}

// tjBatch builds the rows of one input.
func tjBatch(mem memory.Allocator, schema *arrow.Schema, rows []tmpEvent) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	c := 0
	if IsUpdateStream(schema) {
		for _, r := range rows {
			b.Field(0).(*array.StringBuilder).Append(r.kind)
		}
		c = 1
	}
	for _, r := range rows {
		b.Field(c).(*array.TimestampBuilder).Append(arrow.Timestamp(r.time))
		if r.key == nil {
			b.Field(c + 1).AppendNull()
		} else {
			b.Field(c + 1).(*array.Int64Builder).Append(*r.key)
		}
		b.Field(c + 2).(*array.Int64Builder).Append(r.val)
	}
	return b.NewRecordBatch()
}

// tjLog writes down what reaches it: each row as text, each watermark
// and the end, in order; in rowWms, each row's watermark (its batch's
// Watermarks, or the watermark last forwarded).
type tjLog struct {
	lines  []string
	rowWms []string
	sent   string
}

func (l *tjLog) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	for i := 0; i < int(rec.NumRows()); i++ {
		w := l.sent
		if b.Watermarks != nil {
			w = tjWmText(b.Watermarks[i])
		}
		l.rowWms = append(l.rowWms, w)
		cells := make([]string, rec.NumCols())
		for c := range cells {
			cells[c] = tjCell(rec.Column(c), i)
		}
		l.lines = append(l.lines, strings.Join(cells, " "))
	}
	return nil
}

func (l *tjLog) ProcessWatermark(wm int64) error {
	l.lines = append(l.lines, fmt.Sprintf("wm %d", wm))
	l.sent = tjWmText(wm)
	return nil
}

// tjWmText is a watermark as the log writes it.
func tjWmText(wm int64) string {
	if wm == math.MinInt64 {
		return "min"
	}
	return strconv.FormatInt(wm, 10)
}

func (l *tjLog) ProcessEnd() error {
	l.lines = append(l.lines, "end")
	return nil
}

func (l *tjLog) Close() {}

func tjCell(a arrow.Array, i int) string {
	switch {
	case a.IsNull(i):
		return "NULL"
	case a.DataType().ID() == arrow.TIMESTAMP:
		return strconv.FormatInt(int64(a.(*array.Timestamp).Value(i)), 10)
	}
	return a.ValueStr(i)
}

// tjRun drives a fresh join of cfg with events, the rows of one input in
// a row cut into batches of at most size, and returns what it sent. With
// snapshotAt >= 0 it snapshots the join before event snapshotAt and goes
// on in a restored one. Arrow memory is checked; the operator's buffers
// come from a recycling allocator that poisons what it is given back.
func tjRun(t testing.TB, cfg Config, events []tmpEvent, size, snapshotAt int) []string {
	t.Helper()
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	mem := recycle.New(checked)
	log := &tjLog{sent: "min"}
	op, err := New(cfg, mem, log)
	if err != nil {
		t.Fatal(err)
	}
	closeOp := func() { op.Close() }
	defer func() { closeOp() }()
	for i := 0; i < len(events); {
		if i == snapshotAt {
			op = tjRestored(t, cfg, mem, log, op)
		}
		e := events[i]
		if e.input == tjWatermark {
			if err := op.ProcessWatermark(e.time); err != nil {
				t.Fatal(err)
			}
			i++
			continue
		}
		j := i
		for j < len(events) && j-i < size && events[j].input == e.input && (j == i || j != snapshotAt) {
			j++
		}
		schema := cfg.Left
		if e.input == 1 {
			schema = cfg.Right
		}
		rec := tjBatch(checked, schema, events[i:j])
		err := op.ProcessInput(e.input, pipeline.Batch{Record: rec})
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
		i = j
	}
	if snapshotAt == len(events) {
		op = tjRestored(t, cfg, mem, log, op)
	}
	if err := op.ProcessEnd(); err != nil {
		t.Fatal(err)
	}
	op.Close()
	closeOp = func() {}
	mem.Close()
	checked.AssertSize(t, 0)
	return log.lines
}

// tjRestored snapshots op, closes it and returns a join restored from the
// snapshot.
func tjRestored(t testing.TB, cfg Config, mem memory.Allocator, out pipeline.Operator, op Operator) Operator {
	t.Helper()
	var e checkpoint.Encoder
	if err := op.SnapshotState(&e); err != nil {
		t.Fatal(err)
	}
	op.Close()
	restored, err := New(cfg, mem, out)
	if err != nil {
		t.Fatal(err)
	}
	d := checkpoint.NewDecoder(e.Data())
	if err := restored.RestoreState(d); err != nil {
		t.Fatal(err)
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	return restored
}
