package windowop

import (
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/wsql/wsql/rowtime"
)

// Config describes a window aggregation: which windows, over which rowtime
// column, grouped by which keys, computing which aggregates. It is immutable
// plan data; NewWindowOperator turns it into running state.
type Config struct {
	Input           *arrow.Schema
	RowtimeIndex    int // the rowtime index: input column holding event time
	KeyIndexes      []int
	Assigner        Assigner
	Trigger         Trigger // nil means EventTimeTrigger
	AllowedLateness int64   // ms
	Aggs            []AggSpec
}

// Names of the window columns in the operator's output, after the keys.
const (
	ColWindowStart = "window_start"
	ColWindowEnd   = "window_end"
	ColWindowTime  = "window_time" // the window's rowtime: end - 1 ms
)

// OutputSchema is the operator's output: the key columns, window_start,
// window_end, window_time (typed like the rowtime column), then one column
// per aggregate.
func (c Config) OutputSchema() (*arrow.Schema, error) {
	if c.RowtimeIndex < 0 || c.RowtimeIndex >= c.Input.NumFields() {
		return nil, fmt.Errorf("rowtime index %d out of range", c.RowtimeIndex)
	}
	rt := c.Input.Field(c.RowtimeIndex).Type
	if !rowtime.IsRowtimeType(rt) {
		return nil, fmt.Errorf("rowtime column %q must be a millisecond timestamp, got %s", c.Input.Field(c.RowtimeIndex).Name, rt)
	}
	var fields []arrow.Field
	for _, k := range c.KeyIndexes {
		fields = append(fields, c.Input.Field(k))
	}
	fields = append(fields,
		arrow.Field{Name: ColWindowStart, Type: rt},
		arrow.Field{Name: ColWindowEnd, Type: rt},
		arrow.Field{Name: ColWindowTime, Type: rt})
	for _, a := range c.Aggs {
		var in arrow.DataType
		if a.Kind != CountStar {
			in = c.Input.Field(a.Input).Type
		}
		acc, err := newAccumulator(a, in)
		if err != nil {
			return nil, err
		}
		fields = append(fields, arrow.Field{Name: a.Name, Type: acc.resultType(), Nullable: a.Kind == Sum})
	}
	return arrow.NewSchema(fields, nil), nil
}

// Stats counts what the operator did with its input.
type Stats struct {
	RowsIn      int64 // rows received
	LateDropped int64 // rows that reached no window because every window was late
	Results     int64 // result rows emitted
}

// ErrLateFiring is returned for configurations that need late firing, which
// this operator does not implement yet.
var ErrLateFiring = errors.New("allowed lateness needs late firing (table.exec.emit.late-fire.enabled), which wsql does not support yet")

// WindowOperator aggregates rows per key and window and emits one row per
// key and window when the window's trigger fires (Flink's table-runtime
// WindowOperator). See the package documentation for the batch algorithm.
type WindowOperator struct {
	cfg      Config
	assigner SingleWindowAssigner
	trigger  Trigger
	out      Operator
	schema   *arrow.Schema

	keys     *keyTable
	accs     []accumulator
	timers   *TimerService
	slotOf   map[slotKey]int32
	slotMeta []slotKey
	free     []int32
	// the last window and slot each key used: rows of a key mostly fall in
	// the same window as the key's previous row, so this skips the map.
	lastWin  []Window
	lastSlot []int32

	watermark int64 // the watermark rows are being processed under
	forwarded int64 // the last watermark sent downstream
	nextTimer int64 // earliest pending timer, math.MaxInt64 when none

	// per-batch scratch, reused
	windows []Window
	keyIDs  []uint32
	slots   []int32

	// results of the current firing round, emitted column-at-a-time
	fired   []int32
	toFree  []int32
	builder *array.RecordBuilder
	pending int

	timerCtx timerContext
	stats    Stats
	closed   bool
}

type slotKey struct {
	key uint32
	w   Window
}

// NewWindowOperator builds the running operator for cfg, sending results to
// out. This is Flink's open(): the processing mode is chosen here, once.
func NewWindowOperator(cfg Config, mem memory.Allocator, out Operator) (*WindowOperator, error) {
	schema, err := cfg.OutputSchema()
	if err != nil {
		return nil, err
	}
	single, ok := cfg.Assigner.(SingleWindowAssigner)
	if !ok {
		return nil, fmt.Errorf("window %s is not supported yet", cfg.Assigner)
	}
	if !cfg.Assigner.IsEventTime() {
		return nil, fmt.Errorf("processing-time windows are not supported yet")
	}
	if cfg.AllowedLateness != 0 {
		return nil, ErrLateFiring
	}
	trigger := cfg.Trigger
	if trigger == nil {
		trigger = EventTimeTrigger{}
	}
	keyTypes := make([]arrow.DataType, len(cfg.KeyIndexes))
	for i, k := range cfg.KeyIndexes {
		keyTypes[i] = cfg.Input.Field(k).Type
	}
	keys, err := newKeyTable(keyTypes)
	if err != nil {
		return nil, err
	}
	op := &WindowOperator{
		cfg:       cfg,
		assigner:  single,
		trigger:   trigger,
		out:       out,
		schema:    schema,
		keys:      keys,
		timers:    NewTimerService(),
		slotOf:    make(map[slotKey]int32),
		watermark: rowtime.MinWatermark,
		forwarded: rowtime.MinWatermark,
		nextTimer: math.MaxInt64,
		builder:   array.NewRecordBuilder(mem, schema),
	}
	op.timerCtx.op = op
	for _, a := range cfg.Aggs {
		var in arrow.DataType
		if a.Kind != CountStar {
			in = cfg.Input.Field(a.Input).Type
		}
		acc, err := newAccumulator(a, in)
		if err != nil {
			op.builder.Release()
			return nil, err
		}
		op.accs = append(op.accs, acc)
	}
	return op, nil
}

// Schema returns the schema of the batches the operator emits.
func (op *WindowOperator) Schema() *arrow.Schema { return op.schema }

// Stats returns the operator's counters so far.
func (op *WindowOperator) Stats() Stats { return op.stats }

// ProcessBatch is Flink's processElement for a whole batch.
func (op *WindowOperator) ProcessBatch(b Batch) error {
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	op.stats.RowsIn += int64(n)
	ts, err := rowtime.Millis(rec.Column(op.cfg.RowtimeIndex))
	if err != nil {
		return err
	}
	if b.Watermarks != nil && len(b.Watermarks) != n {
		return fmt.Errorf("batch has %d rows but %d row watermarks", n, len(b.Watermarks))
	}
	op.windows = grow(op.windows, n)
	op.keyIDs = grow(op.keyIDs, n)
	op.slots = grow(op.slots, n)
	windows, keyIDs, slots := op.windows[:n], op.keyIDs[:n], op.slots[:n]

	// Column-at-a-time passes: windows for every row, key ids for every row.
	op.assigner.AssignWindows(ts, windows)
	keyCols := make([]arrow.Array, len(op.cfg.KeyIndexes))
	for i, k := range op.cfg.KeyIndexes {
		keyCols[i] = rec.Column(k)
	}
	op.keys.intern(keyCols, n, keyIDs)
	for len(op.lastSlot) < int(op.keys.n) {
		op.lastSlot = append(op.lastSlot, -1)
		op.lastWin = append(op.lastWin, Window{})
	}

	// One ordered pass of integer work. Accumulators are updated a segment
	// at a time: a firing mid-batch first folds in the rows before it.
	segStart := 0
	for i := 0; i < n; i++ {
		if b.Watermarks != nil {
			if wm := b.Watermarks[i]; wm > op.watermark {
				if wm >= op.nextTimer {
					op.updateAccumulators(rec, slots, segStart, i)
					segStart = i
					op.advance(wm)
				} else {
					op.watermark = wm
				}
			}
		}
		w := windows[i]
		if isWindowLate(w, op.cfg.AllowedLateness, true, op.watermark) {
			slots[i] = -1
			op.stats.LateDropped++
			continue
		}
		k := keyIDs[i]
		if op.lastSlot[k] >= 0 && op.lastWin[k] == w {
			slots[i] = op.lastSlot[k]
			continue
		}
		s, err := op.slotFor(k, w)
		if err != nil {
			return err
		}
		slots[i] = s
	}
	op.updateAccumulators(rec, slots, segStart, n)
	return op.flush()
}

// ProcessWatermark fires every window the watermark completes, emits the
// results, then forwards the watermark.
func (op *WindowOperator) ProcessWatermark(wm int64) error {
	if wm <= op.forwarded {
		return nil
	}
	if wm > op.watermark {
		op.advance(wm)
	}
	if err := op.flush(); err != nil {
		return err
	}
	op.forwarded = wm
	return op.out.ProcessWatermark(wm)
}

// ProcessEnd treats the end of input as the watermark +∞: every window
// fires, then the end is forwarded.
func (op *WindowOperator) ProcessEnd() error {
	op.advance(rowtime.MaxWatermark)
	if err := op.flush(); err != nil {
		return err
	}
	return op.out.ProcessEnd()
}

// Close releases the output builder. It is idempotent.
func (op *WindowOperator) Close() {
	if op.closed {
		return
	}
	op.closed = true
	op.builder.Release()
}

// slotFor finds or creates the accumulator slot of key k's window w. A new
// window asks the trigger for its timer and registers its cleanup timer.
func (op *WindowOperator) slotFor(k uint32, w Window) (int32, error) {
	sk := slotKey{key: k, w: w}
	s, ok := op.slotOf[sk]
	if !ok {
		if len(op.free) > 0 {
			s = op.free[len(op.free)-1]
			op.free = op.free[:len(op.free)-1]
			op.slotMeta[s] = sk
		} else {
			s = int32(len(op.slotMeta))
			op.slotMeta = append(op.slotMeta, sk)
			for _, a := range op.accs {
				a.resize(len(op.slotMeta))
			}
		}
		op.slotOf[sk] = s
		op.timerCtx.key, op.timerCtx.w = k, w
		if r := op.trigger.OnElement(w, &op.timerCtx); r != Continue {
			// Only a window kept alive by allowed lateness can fire on
			// element, and NewWindowOperator refuses lateness for now.
			return -1, fmt.Errorf("trigger %s returned %s on element: %w", op.trigger, r, ErrLateFiring)
		}
		op.registerCleanupTimer(k, w)
	}
	op.lastWin[k], op.lastSlot[k] = w, s
	return s, nil
}

// registerCleanupTimer schedules the removal of w's state at cleanupTime(w),
// unless the window lives to the end of time.
func (op *WindowOperator) registerCleanupTimer(k uint32, w Window) {
	t := cleanupTime(w, op.cfg.AllowedLateness, true)
	if t == math.MaxInt64 {
		return
	}
	op.registerTimer(Timer{Time: t, Key: k, Window: w})
}

func (op *WindowOperator) registerTimer(t Timer) {
	op.timers.Register(t)
	if t.Time < op.nextTimer {
		op.nextTimer = t.Time
	}
}

// advance moves the watermark to wm and runs onEventTime for every timer it
// passes, in timer order. Results are emitted column-at-a-time afterwards,
// then cleaned-up windows free their slots.
func (op *WindowOperator) advance(wm int64) {
	op.watermark = wm
	for {
		t, ok := op.timers.PopDue(wm)
		if !ok {
			break
		}
		op.onEventTime(t)
	}
	if next, ok := op.timers.NextTime(); ok {
		op.nextTimer = next
	} else {
		op.nextTimer = math.MaxInt64
	}
	op.emitFired()
	for _, s := range op.toFree {
		op.freeSlot(s)
	}
	op.toFree = op.toFree[:0]
}

// onEventTime asks the trigger about a due timer, emits the window if it
// fires, and cleans the window up when the timer is its cleanup timer.
func (op *WindowOperator) onEventTime(t Timer) {
	s, ok := op.slotOf[slotKey{key: t.Key, w: t.Window}]
	if !ok {
		return // the window's state is already gone
	}
	op.timerCtx.key, op.timerCtx.w = t.Key, t.Window
	r := op.trigger.OnEventTime(t.Time, t.Window, &op.timerCtx)
	if r.IsFire() {
		op.emitWindowResult(s)
	}
	if r.IsPurge() || t.Time == cleanupTime(t.Window, op.cfg.AllowedLateness, true) {
		op.toFree = append(op.toFree, s)
	}
}

// emitWindowResult queues one output row for the key and window of slot s.
func (op *WindowOperator) emitWindowResult(s int32) {
	op.fired = append(op.fired, s)
}

// emitFired appends the queued results to the output builder, a column at
// a time: keys, window bounds, then each aggregate.
func (op *WindowOperator) emitFired() {
	if len(op.fired) == 0 {
		return
	}
	nk := len(op.cfg.KeyIndexes)
	ids := make([]uint32, len(op.fired))
	for i, s := range op.fired {
		ids[i] = op.slotMeta[s].key
	}
	for c, col := range op.keys.cols {
		col.appendTo(ids, op.builder.Field(c))
	}
	start := op.builder.Field(nk).(*array.TimestampBuilder)
	end := op.builder.Field(nk + 1).(*array.TimestampBuilder)
	wtime := op.builder.Field(nk + 2).(*array.TimestampBuilder)
	for _, s := range op.fired {
		w := op.slotMeta[s].w
		start.Append(arrow.Timestamp(w.Start))
		end.Append(arrow.Timestamp(w.End))
		wtime.Append(arrow.Timestamp(w.MaxTimestamp()))
	}
	for i, a := range op.accs {
		a.appendResults(op.fired, op.builder.Field(nk+3+i))
	}
	op.pending += len(op.fired)
	op.stats.Results += int64(len(op.fired))
	op.fired = op.fired[:0]
}

func (op *WindowOperator) freeSlot(s int32) {
	sk := op.slotMeta[s]
	delete(op.slotOf, sk)
	if op.lastSlot[sk.key] == s {
		op.lastSlot[sk.key] = -1
	}
	for _, a := range op.accs {
		a.reset(s)
	}
	op.free = append(op.free, s)
}

func (op *WindowOperator) updateAccumulators(rec arrow.RecordBatch, slots []int32, from, to int) {
	if from >= to {
		return
	}
	for i, a := range op.accs {
		var col arrow.Array
		if op.cfg.Aggs[i].Kind != CountStar {
			col = rec.Column(op.cfg.Aggs[i].Input)
		}
		a.update(col, slots, from, to)
	}
}

// flush sends the results built so far downstream as one batch.
func (op *WindowOperator) flush() error {
	if op.pending == 0 {
		return nil
	}
	rec := op.builder.NewRecordBatch()
	op.pending = 0
	defer rec.Release()
	return op.out.ProcessBatch(Batch{Record: rec})
}

// timerContext is the TriggerContext of the window being processed.
type timerContext struct {
	op  *WindowOperator
	key uint32
	w   Window
}

func (c *timerContext) CurrentWatermark() int64 { return c.op.watermark }

func (c *timerContext) RegisterEventTimeTimer(t int64) {
	c.op.registerTimer(Timer{Time: t, Key: c.key, Window: c.w})
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

var _ Operator = (*WindowOperator)(nil)
