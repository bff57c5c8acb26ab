package windowop

import (
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/internal/recycle"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// Config describes a window aggregation: which windows, over which time,
// grouped by which keys, computing which aggregates, emitting how. It is
// immutable plan data; NewWindowOperator turns it into running state.
type Config struct {
	Input        *arrow.Schema
	RowtimeIndex int // the rowtime index: input column holding event time
	// ProcTime windows by processing time read from Clock instead of the
	// rowtime column; watermarks then only pass through.
	ProcTime bool
	Clock    rowtime.Clock
	// Local aligns windows in a time zone (a TIMESTAMP_LTZ rowtime in
	// 'table.local-time-zone'); nil windows epoch milliseconds as they are.
	Local      *rowtime.LocalTime
	KeyIndexes []int
	Assigner   Assigner
	// GapIndex is the column holding each row's session gap in ms for a
	// dynamic session window; -1 otherwise.
	GapIndex        int
	Trigger         Trigger // nil means EventTimeTrigger
	AllowedLateness int64   // ms
	Emit            EmitStrategy
	Aggs            []AggSpec
	// LateSink, if set, receives the rows that missed a window: the input
	// columns plus the missed window's bounds and the watermark at arrival.
	LateSink pipeline.Operator
	// MaxStateBytes stops the run with ErrStateLimit when the estimated
	// state (StateBytes) exceeds it after a batch; 0 is no limit.
	MaxStateBytes int64
}

// EmitStrategy is Flink's table.exec.emit options for group windows. A
// delay of 0 fires on every row; a positive delay fires periodically in
// processing time, delay after the first row since the last firing (Flink's
// AfterFirstElementPeriodic), read from Config.Clock.
type EmitStrategy struct {
	EarlyFire      bool  // table.exec.emit.early-fire.enabled
	EarlyFireDelay int64 // ms; 0 fires on every row
	LateFire       bool  // table.exec.emit.late-fire.enabled
	LateFireDelay  int64 // ms; 0 fires on every late row within lateness
}

// Updates reports whether results form an update stream (+I, -U, +U)
// rather than one final row per key and window.
func (c Config) Updates() bool {
	return c.Emit.EarlyFire || (c.Emit.LateFire && c.AllowedLateness > 0)
}

// Names of the operator's output columns besides keys and aggregates.
const (
	ColOp          = "op" // row kind of an update stream: +I, -U, +U
	ColWindowStart = "window_start"
	ColWindowEnd   = "window_end"
	ColWindowTime  = "window_time" // the window's rowtime: end - 1 ms
	ColWatermark   = "watermark"   // late rows: the watermark they arrived under
)

// RowKindField is the leading column of an update stream. Its metadata
// marks it, so sinks that print row kinds (Flink's print connector) find it.
func RowKindField() arrow.Field {
	return arrow.Field{Name: ColOp, Type: arrow.BinaryTypes.String,
		Metadata: arrow.NewMetadata([]string{RowKindMetadataKey}, []string{"true"})}
}

// RowKindMetadataKey marks the row kind column of an update stream.
const RowKindMetadataKey = "wsql.rowkind"

// IsRowKindField reports whether f is an update stream's row kind column.
func IsRowKindField(f arrow.Field) bool {
	v, ok := f.Metadata.GetValue(RowKindMetadataKey)
	return ok && v == "true"
}

// OutputSchema is the operator's output: an op column for update streams,
// the key columns, window_start, window_end, window_time, then one column
// per aggregate. Windows over a zoned rowtime have local (zone-less)
// start and end and a zoned window_time, as in Flink.
func (c Config) OutputSchema() (*arrow.Schema, error) {
	var fields []arrow.Field
	if c.Updates() {
		fields = append(fields, RowKindField())
	}
	for _, k := range c.KeyIndexes {
		fields = append(fields, c.Input.Field(k))
	}
	start, wtime, err := c.windowTypes()
	if err != nil {
		return nil, err
	}
	fields = append(fields,
		arrow.Field{Name: ColWindowStart, Type: start},
		arrow.Field{Name: ColWindowEnd, Type: start},
		arrow.Field{Name: ColWindowTime, Type: wtime})
	fields, err = appendAggFields(fields, c.Aggs, c.newAccumulator)
	if err != nil {
		return nil, err
	}
	return arrow.NewSchema(fields, nil), nil
}

func (c Config) windowTypes() (bounds, wtime arrow.DataType, err error) {
	if c.ProcTime {
		ltz := &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
		return &arrow.TimestampType{Unit: arrow.Millisecond}, ltz, nil
	}
	if c.RowtimeIndex < 0 || c.RowtimeIndex >= c.Input.NumFields() {
		return nil, nil, fmt.Errorf("rowtime index %d out of range", c.RowtimeIndex)
	}
	rt := c.Input.Field(c.RowtimeIndex).Type
	if !rowtime.IsRowtimeType(rt) {
		return nil, nil, fmt.Errorf("rowtime column %q must be a millisecond timestamp, got %s", c.Input.Field(c.RowtimeIndex).Name, rt)
	}
	if rt.(*arrow.TimestampType).TimeZone != "" {
		// Flink's rule over a TIMESTAMP_LTZ rowtime: the bounds are
		// TIMESTAMP(3), wall-clock times in the session zone, whatever
		// that zone is; only the window's rowtime stays an instant.
		return &arrow.TimestampType{Unit: arrow.Millisecond}, rt, nil
	}
	return rt, rt, nil
}

// LateSchema is the schema of the rows sent to LateSink.
func (c Config) LateSchema() *arrow.Schema {
	bounds, _, _ := c.windowTypes()
	fields := append([]arrow.Field(nil), c.Input.Fields()...)
	fields = append(fields,
		arrow.Field{Name: "missed_" + ColWindowStart, Type: bounds},
		arrow.Field{Name: "missed_" + ColWindowEnd, Type: bounds},
		arrow.Field{Name: ColWatermark, Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}})
	return arrow.NewSchema(fields, nil)
}

func (c Config) newAccumulator(a AggSpec) (accumulator, error) {
	if err := checkInputs(a, c.Input); err != nil {
		return nil, err
	}
	return newAccumulator(a, argType(a, c.Input))
}

// Stats counts what the operator did with its input. Nothing is dropped
// without being counted here. The counters the run summary reports have
// its names (wsql.Summary); RowsIn is the operator's own.
type Stats struct {
	RowsIn          int64 // rows received
	LateRowsDropped int64 // rows that reached no window because every window of theirs was late
	LateForWindow   int64 // (row, window) pairs where a row still counted elsewhere missed a late window
	NoWindowRows    int64 // rows in no window at all (the gaps of a HOP whose slide exceeds its size)
	ResultRows      int64 // result rows emitted (each +I, -U and +U counts)
	// UnfilledCountRows counts rows of COUNT windows that never filled; only
	// the CountWindowOperator's stage reports them here (CountStats).
	UnfilledCountRows int64
	Lateness          Lateness // how late the LateRowsDropped rows were
	// StateExpired counts keys whose state a state TTL dropped (the
	// GroupOperator's; windows clean their own state).
	StateExpired int64
	// LookupHits and LookupMisses count a lookup join's probe rows whose
	// key its cache held and those whose key it fetched.
	LookupHits, LookupMisses int64
}

// ErrEventTimeRange is returned for a row whose event time is too far from
// the epoch for its windows' bounds to be computed.
var ErrEventTimeRange = errors.New("event time out of range")

// ErrUnsupportedEmit is returned for emit options wsql cannot run yet.
var ErrUnsupportedEmit = errors.New("unsupported emit strategy")

// WindowOperator aggregates rows per key and window and emits one row per
// key and window when the window's trigger fires (Flink's table-runtime
// WindowOperator). It runs in one of two modes chosen at construction:
// panes (TUMBLE, HOP, CUMULATE; panes.go) or merging windows (SESSION;
// sessions.go). See the package documentation for the batch algorithm.
type WindowOperator struct {
	cfg     Config
	trigger Trigger
	// eventTimeTrigger: trigger is EventTimeTrigger, whose behaviour the
	// operator may inline and rely on
	eventTimeTrigger bool
	out              pipeline.Operator
	// mem makes the results' buffers and takes them back once released
	// downstream, for the next result batch: fresh buffers for the 200,000
	// results of Nexmark q12 were a tenth of its page faults.
	mem     *recycle.Allocator
	schema  *arrow.Schema
	updates bool
	mode    windowMode

	keys   *keyTable
	accs   []accumulator
	aggIn  aggInputs
	slots  slotPool
	timers timerQueue          // chosen by the mode
	shadow map[windowKey]int32 // last emitted result of each window (update streams)

	// periodic early/late firing: processing-time timers, and the timer
	// each window has armed (a window arms one after a row, until it fires)
	procTimers *TimerService
	armed      map[windowKey]int64
	now        int64 // processing time of the current batch

	watermark int64 // the watermark rows are being processed under
	forwarded int64 // the last watermark sent downstream
	nextTimer int64 // no later than the earliest pending timer, math.MaxInt64 when none

	// per-batch scratch, reused
	times  []int64
	keyIDs []uint32
	rowSlt []int32
	late   lateRows

	builder   *array.RecordBuilder
	pending   int
	lastBatch int // rows of the last result batch
	oneSlot   [1]int32
	// the pending result rows' op, key and window, built at flush
	resKinds []RowKind
	resKeys  []uint32
	resWins  []Window
	resTimes []arrow.Timestamp // scratch: window bounds as column values

	timerCtx timerContext
	// emitErr is the error of a batch sent mid-firing (resultBatchRows),
	// returned by the call that fired
	emitErr error
	stats   Stats
	closed  bool
	meter   stateMeter
}

// windowMode is the part of the operator that differs between panes and
// merging windows. Its methods work on whole batches or single windows,
// never on one row through an interface call.
type windowMode interface {
	// processRows handles rows [0, n) of a batch whose times, key ids and
	// per-row watermarks (nil: constant) are given, writing each row's
	// accumulator slot (or -1) into slots and flushing accumulators itself.
	processRows(rec arrow.RecordBatch, times []int64, keyIDs []uint32, wms []int64, slots []int32) error
	// onTimer handles a due timer of one key's window.
	onTimer(t Timer)
}

type windowKey struct {
	key uint32
	w   Window
}

// NewWindowOperator builds the running operator for cfg, sending results to
// out. This is Flink's open(): the processing mode is chosen here, once.
func NewWindowOperator(cfg Config, mem memory.Allocator, out pipeline.Operator) (*WindowOperator, error) {
	schema, err := cfg.OutputSchema()
	if err != nil {
		return nil, err
	}
	if err := checkEmit(cfg); err != nil {
		return nil, err
	}
	if cfg.ProcTime && cfg.Clock == nil {
		return nil, fmt.Errorf("processing-time windows need a clock")
	}
	trigger := cfg.Trigger
	if trigger == nil {
		trigger = EventTimeTrigger{}
	}
	keys, err := keyTableOf(cfg.Input, cfg.KeyIndexes)
	if err != nil {
		return nil, err
	}
	op := &WindowOperator{
		cfg:        cfg,
		trigger:    trigger,
		out:        out,
		mem:        recycle.New(mem),
		schema:     schema,
		updates:    cfg.Updates(),
		keys:       keys,
		shadow:     make(map[windowKey]int32),
		procTimers: NewTimerService(),
		armed:      make(map[windowKey]int64),
		watermark:  rowtime.MinWatermark,
		forwarded:  rowtime.MinWatermark,
		nextTimer:  math.MaxInt64,
	}
	op.timerCtx.op = op
	_, op.eventTimeTrigger = trigger.(EventTimeTrigger)
	for _, a := range cfg.Aggs {
		acc, err := cfg.newAccumulator(a)
		if err != nil {
			return nil, err
		}
		op.accs = append(op.accs, acc)
	}
	shareCountDistinct(cfg.Aggs, op.accs)
	op.slots.accs = op.accs
	switch a := cfg.Assigner.(type) {
	case SliceAssigner:
		op.mode = newPaneMode(op, a)
	case MergingAssigner:
		if op.updates {
			return nil, fmt.Errorf("%w: early and late firing on SESSION windows are not supported (Flink rejects them too)", ErrUnsupportedEmit)
		}
		op.mode = newSessionMode(op, a)
	default:
		return nil, fmt.Errorf("window %s is not supported", cfg.Assigner)
	}
	op.builder = array.NewRecordBuilder(op.mem, schema)
	op.late.init(cfg, op.mem)
	op.meter.init(op)
	return op, nil
}

func checkEmit(cfg Config) error {
	e := cfg.Emit
	if e.EarlyFireDelay < 0 || e.LateFireDelay < 0 {
		return fmt.Errorf("%w: emit delays must not be negative", ErrUnsupportedEmit)
	}
	if (e.EarlyFire && e.EarlyFireDelay > 0) || (e.LateFire && e.LateFireDelay > 0) {
		if cfg.Clock == nil {
			return fmt.Errorf("%w: periodic firing needs a processing-time clock", ErrUnsupportedEmit)
		}
	}
	if cfg.AllowedLateness < 0 {
		return fmt.Errorf("allowed lateness must not be negative")
	}
	if cfg.ProcTime && (e.EarlyFire || e.LateFire) {
		return fmt.Errorf("%w: early and late firing apply to event-time windows", ErrUnsupportedEmit)
	}
	return nil
}

// Schema returns the schema of the batches the operator emits.
func (op *WindowOperator) Schema() *arrow.Schema { return op.schema }

// Stats returns the operator's counters so far.
func (op *WindowOperator) Stats() Stats { return op.stats }

// OpenWindows returns how many (key, window) states are held.
func (op *WindowOperator) OpenWindows() int { return op.slots.live() }

// ProcessBatch is Flink's processElement for a whole batch.
func (op *WindowOperator) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	op.stats.RowsIn += int64(n)
	if b.Watermarks != nil && len(b.Watermarks) != n {
		return fmt.Errorf("batch has %d rows but %d row watermarks", n, len(b.Watermarks))
	}
	op.times = grow(op.times, n)
	op.keyIDs = grow(op.keyIDs, n)
	op.rowSlt = grow(op.rowSlt, n)
	times, keyIDs, slots := op.times[:n], op.keyIDs[:n], op.rowSlt[:n]

	// Column-at-a-time passes: the time of every row, the key of every row.
	wms := b.Watermarks
	var err error
	if op.periodic() {
		op.now = op.cfg.Clock.Now().UnixMilli()
		op.firePeriodic(op.now)
	}
	if op.cfg.ProcTime {
		// windowop never reads the wall clock itself: the clock is injected
		// (the system clock in the CLI, a manual one in tests).
		now := op.cfg.Clock.Now().UnixMilli()
		op.advance(now) // processing-time timers due before these rows
		if op.cfg.Local != nil {
			now = op.cfg.Local.ToLocal(now)
		}
		for i := range times {
			times[i] = now
		}
		wms = nil
	} else {
		var ts []int64
		if ts, err = rowtime.Millis(rec.Column(op.cfg.RowtimeIndex)); err != nil {
			return err
		}
		for i, t := range ts {
			if t > maxRowTime || t < -maxRowTime {
				// Sources make rows outside the accepted event times bad
				// rows; a row reaching the operator directly is refused
				// rather than given windows that wrap around.
				return fmt.Errorf("%w: row %d has event time %d ms, outside the %d ms either side of the epoch windows are computed in", ErrEventTimeRange, i, t, maxRowTime)
			}
		}
		if op.cfg.Local != nil {
			op.cfg.Local.ToLocalColumn(ts, times)
		} else {
			times = ts // read only: the modes never write a row's time
		}
	}
	keyCols := make([]arrow.Array, len(op.cfg.KeyIndexes))
	for i, k := range op.cfg.KeyIndexes {
		keyCols[i] = rec.Column(k)
	}
	op.keys.intern(keyCols, n, keyIDs)

	op.late.begin()
	err = op.mode.processRows(rec, times, keyIDs, wms, slots)
	// Results of the rows before a failing row still go out, so what
	// reaches the sink does not depend on batch boundaries.
	if ferr := op.flush(); err == nil {
		err = ferr
	}
	if lerr := op.late.flush(rec); err == nil {
		err = lerr
	}
	if err == nil {
		err = op.checkState()
	}
	return err
}

// ProcessWatermark fires every window the watermark completes, emits the
// results, then forwards the watermark.
func (op *WindowOperator) ProcessWatermark(wm int64) error {
	if wm <= op.forwarded {
		return nil
	}
	if op.periodic() {
		op.now = op.cfg.Clock.Now().UnixMilli()
		op.firePeriodic(op.now)
	}
	if wm > op.watermark && !op.cfg.ProcTime {
		op.advance(wm)
	}
	if err := op.flush(); err != nil {
		return err
	}
	op.forwarded = wm
	return op.out.ProcessWatermark(wm)
}

// ProcessEnd treats the end of input as the watermark +∞ (and, for
// processing-time windows, as the end of time): every window fires, then
// the end is forwarded.
func (op *WindowOperator) ProcessEnd() error {
	// Pending periodic firings go out before the end instead of being lost.
	op.firePeriodic(math.MaxInt64)
	op.advance(rowtime.MaxWatermark)
	if err := op.flush(); err != nil {
		return err
	}
	if op.cfg.LateSink != nil {
		if err := op.cfg.LateSink.ProcessEnd(); err != nil {
			return err
		}
	}
	return op.out.ProcessEnd()
}

// Close releases the output builders. It is idempotent.
func (op *WindowOperator) Close() {
	if op.closed {
		return
	}
	op.closed = true
	op.builder.Release()
	op.late.release()
	op.mem.Close()
}

// advance moves time to t and runs onTimer for every timer it passes, in
// timer order (Flink's onEventTime / onProcessingTime).
func (op *WindowOperator) advance(t int64) {
	if !op.cfg.ProcTime {
		op.watermark = t
	}
	for {
		tm, ok := op.timers.PopDue(t)
		if !ok {
			break
		}
		op.mode.onTimer(tm)
	}
	if next, ok := op.timers.NextTime(); ok {
		op.nextTimer = next
	} else {
		op.nextTimer = math.MaxInt64
	}
}

// periodic reports whether a positive emit delay is in use.
func (op *WindowOperator) periodic() bool {
	e := op.cfg.Emit
	return (e.EarlyFire && e.EarlyFireDelay > 0) || (e.LateFire && e.LateFireDelay > 0)
}

// armPeriodic makes key k's window w fire delay ms of processing time from
// now, unless it already waits to fire.
func (op *WindowOperator) armPeriodic(k uint32, w Window, delay int64) {
	wk := windowKey{key: k, w: w}
	if _, ok := op.armed[wk]; ok {
		return
	}
	t := op.now + delay
	op.armed[wk] = t
	op.procTimers.Register(Timer{Time: t, Key: k, Window: w})
}

// firePeriodic fires every armed window whose processing-time timer is due.
func (op *WindowOperator) firePeriodic(now int64) {
	for {
		t, ok := op.procTimers.PopDue(now)
		if !ok {
			return
		}
		wk := windowKey{key: t.Key, w: t.Window}
		if op.armed[wk] != t.Time {
			continue
		}
		delete(op.armed, wk)
		if pm, ok := op.mode.(*paneMode); ok {
			pm.fireWindow(t.Key, t.Window)
		}
	}
}

// disarm forgets a cleaned-up window's pending periodic firing.
func (op *WindowOperator) disarm(k uint32, w Window) {
	wk := windowKey{key: k, w: w}
	if t, ok := op.armed[wk]; ok {
		op.procTimers.Delete(Timer{Time: t, Key: k, Window: w})
		delete(op.armed, wk)
	}
}

// registerTimer asks for a callback at epoch time t for key k's window w.
func (op *WindowOperator) registerTimer(k uint32, w Window, t int64) {
	op.timers.Register(Timer{Time: t, Key: k, Window: w})
	if t < op.nextTimer {
		op.nextTimer = t
	}
}

// epoch converts a window-local time to the epoch instant watermarks and
// timers are in (identity unless windows are aligned in a time zone).
func (op *WindowOperator) epoch(local int64) int64 {
	if op.cfg.Local == nil {
		return local
	}
	return op.cfg.Local.ToEpochForTimer(local)
}

// cleanupTime is Flink's cleanupTime(w) as an epoch instant: maxTimestamp
// plus allowed lateness in event time (saturating: math.MaxInt64 means no
// cleanup timer), maxTimestamp in processing time.
func (op *WindowOperator) cleanupTime(w Window) int64 {
	t := cleanupTime(w, op.cfg.AllowedLateness, !op.cfg.ProcTime)
	if t == math.MaxInt64 {
		return t
	}
	return op.epoch(t)
}

// isLate reports whether rows for w must be dropped: the watermark has
// reached its cleanup time. Processing-time windows are never late.
func (op *WindowOperator) isLate(w Window) bool {
	return !op.cfg.ProcTime && op.cleanupTime(w) <= op.watermark
}

// registerCleanupTimer schedules the removal of w's state at cleanupTime(w),
// unless the window lives to the end of time.
func (op *WindowOperator) registerCleanupTimer(k uint32, w Window) {
	if t := op.cleanupTime(w); t != math.MaxInt64 {
		op.registerTimer(k, w, t)
	}
}

// onElementTrigger lets the trigger see a window that a row just opened.
func (op *WindowOperator) onElementTrigger(k uint32, w Window) TriggerResult {
	if op.eventTimeTrigger {
		// EventTimeTrigger.OnElement without the interface calls
		t := op.epoch(w.MaxTimestamp())
		if t <= op.watermark {
			return Fire
		}
		op.registerTimer(k, w, t)
		return Continue
	}
	op.timerCtx.key, op.timerCtx.w = k, w
	return op.trigger.OnElement(w, &op.timerCtx)
}

// onTimerTrigger asks the trigger about a due timer.
func (op *WindowOperator) onTimerTrigger(t Timer) TriggerResult {
	op.timerCtx.key, op.timerCtx.w = t.Key, t.Window
	if op.cfg.ProcTime {
		// Processing-time windows fire at their end, as Flink's
		// ProcessingTimeTrigger does.
		if t.Time == op.epoch(t.Window.MaxTimestamp()) {
			return Fire
		}
		return Continue
	}
	return op.trigger.OnEventTime(t.Time, t.Window, &op.timerCtx)
}

// updateAccumulators folds rows [from, to) into their slots.
func (op *WindowOperator) updateAccumulators(rec arrow.RecordBatch, slots []int32, from, to int) {
	if from >= to {
		return
	}
	op.meter.touchRows(slots[from:to])
	op.aggIn.update(op.accs, op.cfg.Aggs, rec, slots, from, to)
}

// flush sends the results built so far downstream as one batch.
func (op *WindowOperator) flush() error {
	if op.emitErr != nil {
		return op.emitErr
	}
	if err := accumulatorsFailed(op.accs); err != nil {
		return err
	}
	if op.pending == 0 {
		return nil
	}
	op.buildResults()
	rec := op.builder.NewRecordBatch()
	op.pending, op.lastBatch = 0, op.pending
	defer rec.Release()
	return op.out.ProcessBatch(pipeline.Batch{Record: rec})
}

// timerContext is the TriggerContext of the window being processed.
type timerContext struct {
	op  *WindowOperator
	key uint32
	w   Window
}

func (c *timerContext) CurrentWatermark() int64   { return c.op.watermark }
func (c *timerContext) ToEpoch(local int64) int64 { return c.op.epoch(local) }

// RegisterEventTimeTimer takes a window-local time, as triggers see windows.
func (c *timerContext) RegisterEventTimeTimer(t int64) {
	c.op.registerTimer(c.key, c.w, c.op.epoch(t))
}

var _ pipeline.Operator = (*WindowOperator)(nil)
