package joinop

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/rankop"
	"github.com/wsql/wsql/exec/rowstore"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// temporalJoin is the event-time temporal join (FOR SYSTEM_TIME AS OF
// l.time) of Flink's TemporalRowTimeJoinOperator. The right input is a
// versioned table: each of its rows is a version of its key (RightKeys,
// the table's primary key) valid from its time on, a -U or -D one ending
// the key's previous version. Probe rows wait until the watermark passes
// their time, then each joins the version of its key valid at its time.
//
// Flink keeps one event-time timer per key, at the smallest time of the
// rows that came for the key since it last fired; when it fires, the key's
// probe rows up to the watermark are joined and its versions older than
// the one valid at the watermark are dropped. Here the probe rows wait in
// one queue by time, and a key fires when one of its probe rows goes or
// its right rows' timer (rightTimer) is reached: the same firings, so a
// late row sees the same versions as in Flink. A firing sends its rows in
// order of time, then of arrival, whatever their keys (Flink sends them key
// by key, each key's in arrival order): the same rows, in an order that
// depends on nothing but the input's.
//
// Late probe rows (a time the watermark had already passed when the row
// came) are not dropped: as in Flink their timer is already due, so they
// join at the next watermark, against the versions kept then. A key that
// fired at watermark w kept only its version valid at w and the later
// ones, so a late row older than that version finds no version (an INNER
// join drops it, a LEFT join pads it).
type temporalJoin struct {
	cfg    Config
	mem    memory.Allocator
	out    pipeline.Operator
	schema *arrow.Schema

	leftTime, rightTime int
	leftKeys, rightKeys temporalKeyColumns
	keys                temporalKeys
	rightUpdates        bool // the right input is an update stream

	left      *rowstore.Store   // waiting probe rows, all of Left's columns
	right     *rowstore.Store   // versions, Right's data columns
	rightData []int             // Right's data columns
	dataOnly  *arrow.Schema     // Right's data columns' schema
	nullRight arrow.RecordBatch // one row of NULLs: a LEFT join's padding

	probes probeQueue // waiting probe rows by (time, arrival)
	timers probeQueue // keys' right-row timers, stale once a key's timer changed
	seq    int64      // probe rows so far: their arrival order
	wm     int64      // the operator's time: the highest watermark a row came under or ProcessWatermark brought
	sent   int64      // the last watermark forwarded
	outWm  int64      // the watermark a firing's rows go out under: the operator's time before it rose
	fires  uint64     // firings so far: marks a key fired once per firing (never wraps)
	ended  bool
	closed bool
	stats  Stats

	residualInput *arrow.Schema // the output's data columns, which Residual reads

	// reused per batch and per firing
	kids         []int32
	rows         []int32
	ids          []int32
	fired        []probe
	firedK       []int32
	gone         []int32
	lrefs, rrefs []int32 // an output batch's left and right rows
	cand         []int32 // the places of lrefs that found a version
	candL, candR []int32
	sel          []int32
	wms          []int64 // an output batch's watermarks
}

// noTimer is a key without a right-row timer.
const noTimer = math.MaxInt64

func newTemporalJoin(cfg Config, mem memory.Allocator, out pipeline.Operator) (Operator, error) {
	tc := cfg.Temporal
	for _, c := range []struct {
		s    *arrow.Schema
		i    int
		side string
	}{{cfg.Left, tc.LeftTime, "left"}, {cfg.Right, tc.RightTime, "right"}} {
		if c.i < 0 || c.i >= c.s.NumFields() || !rowtime.IsRowtimeType(c.s.Field(c.i).Type) {
			return nil, fmt.Errorf("temporal join: the %s time column %d is not a TIMESTAMP(3) column of its input", c.side, c.i)
		}
	}
	for i, k := range cfg.LeftKeys {
		if err := rankop.CheckKeyType(cfg.Left.Field(k).Type); err != nil {
			return nil, fmt.Errorf("temporal join: key %d: %w", i, err)
		}
	}
	schema, err := cfg.OutputSchema()
	if err != nil {
		return nil, err
	}
	t := &temporalJoin{
		cfg: cfg, mem: mem, out: out, schema: schema,
		leftTime: tc.LeftTime, rightTime: tc.RightTime,
		leftKeys:     newTemporalKeyColumns(cfg.LeftKeys, cfg.NullSafe),
		rightKeys:    newTemporalKeyColumns(cfg.RightKeys, cfg.NullSafe),
		keys:         newTemporalKeys(),
		rightUpdates: IsUpdateStream(cfg.Right),
		rightData:    DataColumns(cfg.Right),
		wm:           math.MinInt64,
		sent:         math.MinInt64,
	}
	fields := make([]arrow.Field, len(t.rightData))
	for i, c := range t.rightData {
		fields[i] = cfg.Right.Field(c)
	}
	t.dataOnly = arrow.NewSchema(fields, nil)
	t.left = rowstore.New(cfg.Left, mem)
	t.right = rowstore.New(t.dataOnly, mem)
	t.nullRight = nullRowBatch(t.dataOnly, mem)
	t.residualInput = schema
	if IsUpdateStream(schema) {
		t.residualInput = arrow.NewSchema(schema.Fields()[1:], nil)
	}
	if r := cfg.Residual; r != nil && r.DataType().ID() != arrow.BOOL {
		return nil, fmt.Errorf("temporal join: the condition %s is %s, not BOOLEAN", r, r.DataType())
	}
	return t, nil
}

// nullRowBatch is one row of NULLs of schema.
func nullRowBatch(schema *arrow.Schema, mem memory.Allocator) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for _, f := range b.Fields() {
		f.AppendNull()
	}
	return b.NewRecordBatch()
}

func (t *temporalJoin) Schema() *arrow.Schema { return t.schema }
func (t *temporalJoin) Stats() Stats          { return t.stats }

// ProcessBatch is not called on a two-input operator.
func (t *temporalJoin) ProcessBatch(pipeline.Batch) error {
	return fmt.Errorf("temporal join: rows come through ProcessInput")
}

// ProcessInput keeps a probe row (input 0) until the watermark passes its
// time, or a version (input 1) until a later version's time has passed.
// A row that came under a watermark above the operator's time first fires
// what that watermark fires, as ProcessWatermark would: the merge of the
// inputs brings the combined watermark only after a whole batch, so the
// firings depend on the rows and their watermarks, never on batch sizes.
func (t *temporalJoin) ProcessInput(input int, b pipeline.Batch) error {
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	if input != 0 && input != 1 {
		return fmt.Errorf("temporal join: no input %d", input)
	}
	t.stats.RowsIn += int64(n)
	from := 0
	for i, w := range b.Watermarks {
		if w <= t.wm {
			continue
		}
		if err := t.addRows(input, rec, from, i); err != nil {
			return err
		}
		if err := t.rise(w); err != nil {
			return err
		}
		from = i
	}
	return t.addRows(input, rec, from, n)
}

// addRows keeps rows from..to-1 of rec, a batch of input.
func (t *temporalJoin) addRows(input int, rec arrow.RecordBatch, from, to int) error {
	if from == to {
		return nil
	}
	if from > 0 || to < int(rec.NumRows()) {
		rec = rec.NewSlice(int64(from), int64(to))
		defer rec.Release()
	}
	if input == 0 {
		return t.addProbes(rec)
	}
	return t.addVersions(rec)
}

// rise raises the operator's time to wm and fires what it passed; the
// rows fired go out under the time before, ahead of wm, as they would
// before ProcessWatermark forwards it.
func (t *temporalJoin) rise(wm int64) error {
	t.outWm, t.wm = t.wm, wm
	return t.fire(wm)
}

// addProbes queues the rows of a left batch by time.
func (t *temporalJoin) addProbes(rec arrow.RecordBatch) error {
	times, err := rowtime.Millis(rec.Column(t.leftTime))
	if err != nil {
		return fmt.Errorf("temporal join: left time: %w", err)
	}
	t.kids = t.leftKeys.ids(rec, &t.keys, t.kids)
	rows := t.rows[:0]
	for i, k := range t.kids {
		// a NULL key joins nothing: an INNER join forgets its row now
		if k >= 0 || t.cfg.Kind == LeftOuter {
			rows = append(rows, int32(i))
		}
	}
	t.rows = rows
	ids, err := t.left.Add(rec, rows, t.ids[:0])
	t.ids = ids
	if err != nil {
		return err
	}
	for j, r := range rows {
		k := t.kids[r]
		if k >= 0 {
			t.keys.state[k].probes++
		}
		t.seq++
		t.probes.push(probe{time: times[r], seq: t.seq, id: ids[j], key: k})
	}
	return nil
}

// addVersions keeps the rows of a right batch as versions of their keys,
// a row of the time of a kept version replacing it (Flink keeps a key's
// versions by time).
func (t *temporalJoin) addVersions(rec arrow.RecordBatch) error {
	times, err := rowtime.Millis(rec.Column(t.rightTime))
	if err != nil {
		return fmt.Errorf("temporal join: right time: %w", err)
	}
	t.kids = t.rightKeys.ids(rec, &t.keys, t.kids)
	var kinds *array.String
	if t.rightUpdates {
		kinds, _ = rec.Column(0).(*array.String)
	}
	rows := t.rows[:0]
	for i, k := range t.kids {
		// a NULL key is no version of anything; a -U is skipped, as
		// Flink's planner drops the UPDATE_BEFORE of a versioned table
		// (DropUpdateBefore): its time is the old version's, and the +U
		// after it is the new version
		if k >= 0 && (kinds == nil || kinds.IsNull(i) || kinds.Value(i) != "-U") {
			rows = append(rows, int32(i))
		}
	}
	t.rows = rows
	cols := make([]arrow.Array, len(t.rightData))
	for i, c := range t.rightData {
		cols[i] = rec.Column(c)
	}
	data := array.NewRecordBatch(t.dataOnly, cols, rec.NumRows())
	ids, err := t.right.Add(data, rows, t.ids[:0])
	data.Release()
	t.ids = ids
	if err != nil {
		return err
	}
	for j, r := range rows {
		k := t.kids[r]
		ks := &t.keys.state[k]
		v := version{time: times[r], id: ids[j], retract: kinds != nil && isRetraction(kinds, int(r))}
		if old := ks.put(v); old >= 0 {
			t.right.Remove(old)
		}
		if v.time < ks.rightTimer {
			ks.rightTimer = v.time
			t.timers.push(probe{time: v.time, key: k})
		}
	}
	return nil
}

// isRetraction tells a -U or -D row of an update stream's kind column.
func isRetraction(kinds *array.String, i int) bool {
	if kinds.IsNull(i) {
		return false
	}
	v := kinds.Value(i)
	return len(v) == 2 && v[0] == '-'
}

// ProcessWatermark joins the probe rows the watermark passed, sends them,
// then forwards the watermark: the output's time is the left's.
func (t *temporalJoin) ProcessWatermark(wm int64) error {
	if t.ended {
		return nil
	}
	if wm > t.wm {
		if err := t.rise(wm); err != nil {
			return err
		}
	}
	if wm <= t.sent {
		return nil
	}
	t.sent = wm
	return t.out.ProcessWatermark(wm)
}

// ProcessEnd fires every waiting probe row, as the watermark +∞ would.
func (t *temporalJoin) ProcessEnd() error {
	if t.ended {
		return nil
	}
	t.ended = true
	if err := t.rise(math.MaxInt64); err != nil {
		return err
	}
	return t.out.ProcessEnd()
}

// fire joins and sends the probe rows of time <= wm (and the late ones)
// in order of time, then of arrival, and cleans the versions of every key
// that fired.
func (t *temporalJoin) fire(wm int64) error {
	t.fires++
	fired, firedK := t.fired[:0], t.firedK[:0]
	for {
		p, ok := t.probes.popUpTo(wm)
		if !ok {
			break
		}
		fired = append(fired, p)
		if p.key >= 0 {
			ks := &t.keys.state[p.key]
			ks.probes--
			if ks.fired != t.fires {
				ks.fired = t.fires
				firedK = append(firedK, p.key)
			}
		}
	}
	for {
		tm, ok := t.timers.popUpTo(wm)
		if !ok {
			break
		}
		// a timer that was lowered or fired since is stale
		if ks := &t.keys.state[tm.key]; ks.rightTimer == tm.time && ks.fired != t.fires {
			ks.fired = t.fires
			firedK = append(firedK, tm.key)
		}
	}
	t.fired, t.firedK = fired, firedK
	if err := t.emit(fired); err != nil {
		return err
	}
	gone := t.gone[:0]
	for _, p := range fired {
		gone = append(gone, p.id)
	}
	t.left.RemoveAll(gone)
	gone = gone[:0]
	for _, k := range firedK {
		gone = t.keys.state[k].cleanUp(wm, gone)
		t.keys.forgetIfIdle(k)
	}
	t.gone = gone
	// ids of one chunk in a row: the versions a firing drops are mostly
	// of one batch
	t.right.RemoveAll(gone)
	if err := t.left.Compact(); err != nil {
		return err
	}
	return t.right.Compact()
}

func (t *temporalJoin) Close() {
	if t.closed {
		return
	}
	t.closed = true
	t.left.Release()
	t.right.Release()
	t.nullRight.Release()
}

var _ Operator = (*temporalJoin)(nil)
