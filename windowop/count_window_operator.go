package windowop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// CountConfig describes a count-window aggregation, COUNT_WINDOW(size
// [, slide]) in GROUP BY: per key, windows of rows counted in arrival
// order. It is immutable plan data; NewCountWindowOperator turns it into
// running state.
type CountConfig struct {
	Input      *arrow.Schema
	KeyIndexes []int // no keys: one global count window
	// Size is the number of rows of a window (n). Slide is how many rows of
	// a key arrive between two results: 0 or Size for tumbling windows,
	// 1 ≤ Slide < Size for sliding ones. A slide larger than the size would
	// leave rows out of every window and is refused.
	Size, Slide int64
	Aggs        []AggSpec
}

// ColWindowCount is the output column holding the number of rows of the
// emitted window.
const ColWindowCount = "window_count"

// slide returns the effective slide: Size for tumbling windows.
func (c CountConfig) slide() int64 {
	if c.Slide == 0 {
		return c.Size
	}
	return c.Slide
}

// Sliding reports whether the windows overlap (Slide < Size).
func (c CountConfig) Sliding() bool { return c.slide() < c.Size }

// MaxCountWindowOverlap is the most windows a row of a sliding count window
// may belong to, ⌈Size/Slide⌉. Each open window of a key holds an
// accumulator slot and every row is folded into each of its windows, so
// COUNT_WINDOW(1000000, 1) would cost a million slots per key and a
// million updates per row; it is refused instead.
const MaxCountWindowOverlap = 1 << 16

func (c CountConfig) check() error {
	switch {
	case c.Input == nil:
		return fmt.Errorf("count window: no input schema")
	case c.Size <= 0:
		return fmt.Errorf("count window size must be positive, got %d", c.Size)
	case c.Slide < 0:
		return fmt.Errorf("count window slide must be positive, got %d", c.Slide)
	case c.Slide > c.Size:
		return fmt.Errorf("count window slide %d is larger than its size %d: rows between windows would belong to no window", c.Slide, c.Size)
	case (c.Size-1)/c.slide()+1 > MaxCountWindowOverlap:
		return fmt.Errorf("count window of %d rows sliding by %d puts every row in %d windows; at most %d are supported: use a larger slide",
			c.Size, c.slide(), (c.Size-1)/c.slide()+1, MaxCountWindowOverlap)
	}
	for _, k := range c.KeyIndexes {
		if k < 0 || k >= c.Input.NumFields() {
			return fmt.Errorf("key index %d out of range", k)
		}
	}
	for _, a := range c.Aggs {
		if err := checkInputs(a, c.Input); err != nil {
			return err
		}
	}
	return nil
}

func (c CountConfig) newAccumulator(a AggSpec) (accumulator, error) {
	if err := checkInputs(a, c.Input); err != nil {
		return nil, err
	}
	return newAccumulator(a, argType(a, c.Input))
}

// OutputSchema is the operator's output: the key columns, window_count
// (BIGINT, the rows of the emitted window), then one column per aggregate.
// Count windows have no time bounds, so there is no window_start,
// window_end or window_time.
func (c CountConfig) OutputSchema() (*arrow.Schema, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	var fields []arrow.Field
	for _, k := range c.KeyIndexes {
		fields = append(fields, c.Input.Field(k))
	}
	fields = append(fields, arrow.Field{Name: ColWindowCount, Type: arrow.PrimitiveTypes.Int64})
	fields, err := appendAggFields(fields, c.Aggs, c.newAccumulator)
	if err != nil {
		return nil, err
	}
	return arrow.NewSchema(fields, nil), nil
}

// CountStats counts what a CountWindowOperator did with its input.
type CountStats struct {
	RowsIn     int64 // rows received
	ResultRows int64 // result rows emitted, one per fired window
	// NoWindowRows counts the rows that are in no fired window yet: the
	// rows of each key after its last firing. After ProcessEnd these rows
	// never reach a result (Flink's GlobalWindows never fire on their own),
	// and the run summary reports them with the rows in no window.
	NoWindowRows int64
}

// CountWindowOperator aggregates rows per key over windows measured in rows
// rather than time: COUNT_WINDOW(n) and COUNT_WINDOW(n, slide), wsql's
// SQL form of Flink's KeyedStream.countWindow.
//
// Semantics, following Flink's DataStream API:
//
//   - Tumbling, COUNT_WINDOW(n): every n rows of a key, in arrival order,
//     form a window; its result is emitted as the n-th row arrives and its
//     state is purged. Flink: GlobalWindows with
//     PurgingTrigger.of(CountTrigger.of(n)).
//   - Sliding, COUNT_WINDOW(n, slide): every slide rows of a key, the
//     aggregate over the key's last n rows is emitted. Until a key has n
//     rows the window holds the rows so far, so the first results cover
//     slide, 2·slide, ... rows (window_count says how many). Flink:
//     GlobalWindows with CountEvictor.of(n) (evicting before the window
//     function) and CountTrigger.of(slide). Flink's table runtime
//     (CountSlidingWindowAssigner, the Table API's Slide.over(n.rows)) emits
//     only full windows instead; wsql follows the DataStream API here.
//   - Time plays no part. Watermarks are forwarded unchanged and results
//     never wait for one: each batch's results go downstream before
//     ProcessBatch returns.
//   - End of input fires nothing: a window that has not reached its count
//     (a partial tumbling window, the rows after a key's last sliding
//     result) is dropped, as Flink's GlobalWindows never fire on their own.
//     Unlike Flink, wsql counts those rows (CountStats.NoWindowRows) so the run
//     summary can say what never reached a result.
//
// Results are emitted in the order of the rows that completed their
// windows, so output depends only on the input rows and their order, never
// on batch size.
//
// Algorithm. Window k (k = 1, 2, ...) of a key fires at its (k·slide)-th
// row and covers its rows (k·slide − n, k·slide], so a row is in
// ⌈n/slide⌉ or fewer consecutive windows. Each open window owns an
// accumulator slot; a key keeps the slots of its open windows, oldest
// first, so state is keys × ⌈n/slide⌉ slots (allocated as a key's first
// row arrives, since that row is in all of them) and never grows with
// rows; ⌈n/slide⌉ is limited to MaxCountWindowOverlap.
// For a batch, one pass counts the rows of each key and notes the rows
// that fire a window; the slots of every window the batch touches are
// then laid out per key, and the accumulators are updated in at most
// ⌈n/slide⌉ column passes (pass j folds every row into its j-th window).
// The fired windows' results are then built column-at-a-time and their
// slots freed. Apart from freeing a fired window's slot, every call into
// an accumulator works on a whole batch.
type CountWindowOperator struct {
	cfg    CountConfig
	size   int64
	slide  int64
	layers int // the most windows a row belongs to: ⌊(size−1)/slide⌋ + 1
	out    pipeline.Operator
	schema *arrow.Schema

	keys  *keyTable
	accs  []accumulator
	aggIn aggInputs
	slots slotPool
	state []countKey // by key id

	forwarded int64 // last watermark forwarded

	// per-batch scratch, reused
	keyIDs  []uint32
	rowNo   []int64 // the row's number within its key, from 1
	base    []int32 // index in wins of the row's first window
	span    []int32 // number of windows the row is in
	rowSlt  []int32
	wins    []int32  // slots of the windows the batch touches, per key by window number
	touched []uint32 // keys of the batch, in order of first row
	fired   []firedCount
	fKeys   []uint32
	fSlots  []int32
	keyCols []arrow.Array

	builder *array.RecordBuilder
	stats   CountStats
	closed  bool
}

// countKey is the state of one key.
type countKey struct {
	rows int64   // rows seen
	open []int32 // slots of the open windows, oldest first

	// during a batch
	before int64 // rows seen before the batch
	start  int32 // index in wins of the window ⌊before/slide⌋+1; -1 outside a batch
}

// firedCount is a window fired by a row of the current batch.
type firedCount struct {
	key uint32
	k   int64 // window number
}

// NewCountWindowOperator builds the running operator for cfg, sending
// results to out.
func NewCountWindowOperator(cfg CountConfig, mem memory.Allocator, out pipeline.Operator) (*CountWindowOperator, error) {
	schema, err := cfg.OutputSchema()
	if err != nil {
		return nil, err
	}
	keys, err := keyTableOf(cfg.Input, cfg.KeyIndexes)
	if err != nil {
		return nil, err
	}
	op := &CountWindowOperator{
		cfg:       cfg,
		size:      cfg.Size,
		slide:     cfg.slide(),
		out:       out,
		schema:    schema,
		keys:      keys,
		keyCols:   make([]arrow.Array, len(cfg.KeyIndexes)),
		forwarded: rowtime.MinWatermark,
	}
	op.layers = int((op.size-1)/op.slide) + 1
	for _, a := range cfg.Aggs {
		acc, err := cfg.newAccumulator(a)
		if err != nil {
			return nil, err
		}
		op.accs = append(op.accs, acc)
	}
	shareCountDistinct(cfg.Aggs, op.accs)
	op.slots.accs = op.accs
	op.builder = array.NewRecordBuilder(mem, schema)
	return op, nil
}

// Schema returns the schema of the batches the operator emits.
func (op *CountWindowOperator) Schema() *arrow.Schema { return op.schema }

// Stats returns the operator's counters so far.
func (op *CountWindowOperator) Stats() CountStats {
	s := op.stats
	// Every result covers exactly slide rows of its key that no earlier
	// result of the key covered; the rest wait for a firing.
	s.NoWindowRows = s.RowsIn - s.ResultRows*op.slide
	return s
}

// OpenWindows returns how many (key, window) states are held: at most
// keys × ⌈size/slide⌉.
func (op *CountWindowOperator) OpenWindows() int { return op.slots.live() }

// ProcessBatch assigns the rows to their count windows, updates the
// accumulators and emits every window the batch completes. Per-row
// watermarks are ignored: count windows do not depend on time.
func (op *CountWindowOperator) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	op.stats.RowsIn += int64(n)
	op.keyIDs = grow(op.keyIDs, n)
	op.base = grow(op.base, n)
	op.span = grow(op.span, n)
	op.rowSlt = grow(op.rowSlt, n)
	keyIDs, base, span, slots := op.keyIDs, op.base, op.span, op.rowSlt

	for i, k := range op.cfg.KeyIndexes {
		op.keyCols[i] = rec.Column(k)
	}
	op.keys.intern(op.keyCols, n, keyIDs)
	clear(op.keyCols)
	for len(op.state) < int(op.keys.n) {
		op.state = append(op.state, countKey{start: -1})
	}

	size, slide := op.size, op.slide
	// Pass 1, in arrival order: each row's number within its key, the
	// windows it is in, and the windows it fires. base and span hold the
	// row's first window number and count for now.
	op.touched, op.fired = op.touched[:0], op.fired[:0]
	op.rowNo = grow(op.rowNo, n)
	rowNo := op.rowNo
	for i, k := range keyIDs {
		st := &op.state[k]
		if st.start < 0 {
			st.start = 0
			st.before = st.rows
			op.touched = append(op.touched, k)
		}
		st.rows++
		r := st.rows
		rowNo[i] = r
		if r%slide == 0 {
			op.fired = append(op.fired, firedCount{key: k, k: r / slide})
		}
	}

	// Lay out the slots of every window the batch touches: per key, the
	// windows ⌊before/slide⌋+1 .. ⌊(rows+size−1)/slide⌋, the open ones
	// first (they continue from earlier batches), then new ones.
	op.wins = op.wins[:0]
	for _, k := range op.touched {
		st := &op.state[k]
		first := st.before/slide + 1
		last := (st.rows + size - 1) / slide
		st.start = int32(len(op.wins))
		op.wins = append(op.wins, st.open...)
		for need := int(last - first + 1); len(op.wins)-int(st.start) < need; {
			op.wins = append(op.wins, op.slots.alloc())
		}
	}

	// Each row's windows are kmin..kmax, consecutive in wins.
	maxSpan := int32(0)
	for i, k := range keyIDs {
		st := &op.state[k]
		r := rowNo[i]
		kmin := (r + slide - 1) / slide
		kmax := (r + size - 1) / slide
		base[i] = st.start + int32(kmin-(st.before/slide+1))
		span[i] = int32(kmax - kmin + 1)
		maxSpan = max(maxSpan, span[i])
	}

	// Column passes: pass j folds every row into its j-th window.
	wins := op.wins
	for j := int32(0); j < maxSpan; j++ {
		for i := range slots {
			if j < span[i] {
				slots[i] = wins[base[i]+j]
			} else {
				slots[i] = -1
			}
		}
		op.updateAccumulators(rec, slots)
	}

	if err := op.emitFired(); err != nil {
		return err
	}

	// Keep the still-open windows of each key; the fired ones were freed.
	for _, k := range op.touched {
		st := &op.state[k]
		firstOpen := int(st.rows/slide - st.before/slide) // windows fired in this batch
		last := (st.rows + size - 1) / slide
		count := int(last - st.before/slide) // windows laid out
		from, to := int(st.start)+firstOpen, int(st.start)+count
		st.open = append(st.open[:0], op.wins[from:to]...)
		st.start = -1
	}
	return nil
}

// updateAccumulators folds every row of rec into its slot.
func (op *CountWindowOperator) updateAccumulators(rec arrow.RecordBatch, slots []int32) {
	op.aggIn.update(op.accs, op.cfg.Aggs, rec, slots, 0, len(slots))
}

// emitFired sends the results of the windows the batch fired, in the order
// of the rows that fired them, and frees their slots.
func (op *CountWindowOperator) emitFired() error {
	if err := accumulatorsFailed(op.accs); err != nil {
		return err // before the firing too: the values past the limit were not kept
	}
	if len(op.fired) == 0 {
		return nil
	}
	op.fKeys, op.fSlots = op.fKeys[:0], op.fSlots[:0]
	for _, f := range op.fired {
		st := &op.state[f.key]
		op.fKeys = append(op.fKeys, f.key)
		op.fSlots = append(op.fSlots, op.wins[int64(st.start)+f.k-(st.before/op.slide+1)])
	}
	c := 0
	for _, col := range op.keys.cols {
		col.appendTo(op.fKeys, op.builder.Field(c))
		c++
	}
	wc := op.builder.Field(c).(*array.Int64Builder)
	wc.Reserve(len(op.fired))
	for _, f := range op.fired {
		wc.UnsafeAppend(min(f.k*op.slide, op.size))
	}
	c++
	for _, a := range op.accs {
		a.appendResults(op.fSlots, op.builder.Field(c))
		c++
	}
	for _, s := range op.fSlots {
		op.slots.release(s)
	}
	op.stats.ResultRows += int64(len(op.fired))
	rec := op.builder.NewRecordBatch()
	defer rec.Release()
	return op.out.ProcessBatch(pipeline.Batch{Record: rec})
}

// ProcessWatermark forwards the watermark: count windows do not wait for
// time, so there is nothing to fire.
func (op *CountWindowOperator) ProcessWatermark(wm int64) error {
	if wm <= op.forwarded {
		return nil
	}
	op.forwarded = wm
	return op.out.ProcessWatermark(wm)
}

// ProcessEnd forwards the end of input. Windows that have not reached their
// count do not fire; their rows stay counted in CountStats.NoWindowRows.
func (op *CountWindowOperator) ProcessEnd() error {
	return op.out.ProcessEnd()
}

// Close releases the output builder. It is idempotent.
func (op *CountWindowOperator) Close() {
	if op.closed {
		return
	}
	op.closed = true
	op.builder.Release()
}

var _ pipeline.Operator = (*CountWindowOperator)(nil)
