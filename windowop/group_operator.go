package windowop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/internal/recycle"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// GroupConfig describes an aggregation without a window: GROUP BY keys
// (or no keys: one global group) over an append-only stream, whose
// results are an update stream. It is immutable plan data;
// NewGroupOperator turns it into running state.
type GroupConfig struct {
	Input      *arrow.Schema
	KeyIndexes []int
	Aggs       []AggSpec
	// Retract reads an update stream: the input's first column is the
	// row kind; +I and +U rows are folded in, -U and -D rows taken out.
	Retract bool
	// StateTTL ('table.exec.state.ttl', ms): a key's state is dropped once
	// no row has come for it for that long, read on Clock; 0 keeps it.
	StateTTL int64
	Clock    rowtime.Clock
}

// newAccumulator is the accumulator of aggregate a.
func (c GroupConfig) newAccumulator(a AggSpec) (accumulator, error) {
	if c.Retract {
		return newRetractAccumulator(a, argType(a, c.Input))
	}
	return newAccumulator(a, argType(a, c.Input))
}

func (c GroupConfig) check() error {
	if c.Input == nil {
		return fmt.Errorf("group aggregate: no input schema")
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
	if c.Retract && (c.Input.NumFields() == 0 || !IsRowKindField(c.Input.Field(0))) {
		return fmt.Errorf("group aggregate: an update stream leads with its row kind")
	}
	return nil
}

// OutputSchema is the operator's output: the row kind column (op), the
// key columns, then one column per aggregate.
func (c GroupConfig) OutputSchema() (*arrow.Schema, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	fields := []arrow.Field{RowKindField()}
	for _, k := range c.KeyIndexes {
		fields = append(fields, c.Input.Field(k))
	}
	fields, err := appendAggFields(fields, c.Aggs, c.newAccumulator)
	if err != nil {
		return nil, err
	}
	return arrow.NewSchema(fields, nil), nil
}

// GroupStats counts what a GroupOperator did with its input.
type GroupStats struct {
	RowsIn       int64 // rows received
	ResultRows   int64 // change rows emitted: +I, -U and +U
	StateExpired int64 // keys whose state StateTTL dropped
}

// GroupOperator aggregates rows per key without a window, Flink's
// GroupAggFunction without mini-batches: every row updates its key's
// aggregates and emits the change at once.
//
//   - The first row of a key emits +I with the aggregates over that row.
//   - A later row emits -U with the values emitted last, then +U with the
//     new ones; when the values did not change, it emits nothing (Flink
//     does the same while no state TTL is set).
//
// So the result is a function of the rows and their order alone, never
// of how they were cut into batches. Watermarks are forwarded unchanged:
// results never wait for time, and they carry no time attribute.
//
// Algorithm. A batch is cut into segments in which no key repeats; the
// accumulators fold a whole segment per call, and each row of it then
// compares its key's new values with the values emitted last, which a
// second slot per key holds (its shadow). The changes of a segment are
// appended a column at a time, in row order.
type GroupOperator struct {
	cfg    GroupConfig
	out    pipeline.Operator
	schema *arrow.Schema

	keys *keyTable
	accs []accumulator
	// the accumulators' optional interfaces, asserted once: a global
	// aggregate's segments are single rows
	failers []failer
	copiers []func(dst, src int32) // copyResult of each accumulator
	aggIn   aggInputs
	slots   slotPool
	live    []int32 // by key id: the key's accumulators
	shadow  []int32 // by key id: the values emitted last
	rows    []int64 // by key id, Retract only: rows folded in less rows taken out
	ttl     stateTTL
	// rowPath, when every aggregate folds rows, replaces the segments
	rowPath *groupRows
	batches uint64 // batches processed, which name a batch's FILTER masks

	forwarded int64 // last watermark forwarded

	// per-batch scratch, reused
	keyIDs   []uint32
	rowSlots []int32
	taken    []int32  // Retract: the slot a row is taken out of, or -1
	seen     []uint32 // by key id: the segment that last folded the key
	segment  uint32
	resKinds []RowKind
	resKeys  []uint32
	resSlots []int32
	// resWms are the changes' watermarks, nil while all are the last
	// forwarded one; wm is the watermark of the row being emitted for
	resWms  []int64
	wmsBuf  []int64 // resWms's memory between batches (downstream borrows it)
	wm      int64
	keyCols []arrow.Array
	outCols []arrow.Array

	mem     *recycle.Allocator   // the output's buffers, reused batch after batch
	builder *array.RecordBuilder // the aggregates
	// by key column: nil where stringKeys.column builds it
	keyBuilders []array.Builder
	stats       GroupStats
	closed      bool
}

// NewGroupOperator builds the running operator for cfg, sending results
// to out.
func NewGroupOperator(cfg GroupConfig, mem memory.Allocator, out pipeline.Operator) (*GroupOperator, error) {
	schema, err := cfg.OutputSchema()
	if err != nil {
		return nil, err
	}
	keys, err := keyTableOf(cfg.Input, cfg.KeyIndexes)
	if err != nil {
		return nil, err
	}
	op := &GroupOperator{cfg: cfg, out: out, schema: schema, keys: keys,
		keyCols: make([]arrow.Array, len(cfg.KeyIndexes)), forwarded: rowtime.MinWatermark}
	for _, a := range cfg.Aggs {
		acc, err := cfg.newAccumulator(a)
		if err != nil {
			return nil, err
		}
		op.accs = append(op.accs, acc)
	}
	shareCountDistinct(cfg.Aggs, op.accs)
	for _, acc := range op.accs {
		if f, ok := acc.(failer); ok {
			op.failers = append(op.failers, f)
		}
		if c, ok := acc.(resultCopier); ok {
			op.copiers = append(op.copiers, c.copyResult)
		} else {
			op.copiers = append(op.copiers, acc.copyTo)
		}
	}
	op.slots.accs = op.accs
	op.rowPath = newGroupRows(cfg, op.accs, op.failers)
	op.mem = recycle.New(mem)
	op.builder = array.NewRecordBuilder(op.mem, arrow.NewSchema(schema.Fields()[1+len(cfg.KeyIndexes):], nil))
	for i, col := range keys.cols {
		var b array.Builder
		if sk, ok := col.(*stringKeys); !ok || sk.bytes {
			b = array.NewBuilder(op.mem, schema.Field(1+i).Type)
		}
		op.keyBuilders = append(op.keyBuilders, b)
	}
	return op, nil
}

// Schema returns the schema of the batches the operator emits.
func (op *GroupOperator) Schema() *arrow.Schema { return op.schema }

// Stats returns the operator's counters so far.
func (op *GroupOperator) Stats() GroupStats { return op.stats }

// Groups returns how many keys hold state.
func (op *GroupOperator) Groups() int { return len(op.live) }

// ProcessBatch folds every row into its key's aggregates and emits the
// changes, in row order, before it returns.
func (op *GroupOperator) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	op.stats.RowsIn += int64(n)
	op.wm = op.forwarded
	op.keyIDs = grow(op.keyIDs, n)
	op.rowSlots = grow(op.rowSlots, n)
	for i, k := range op.cfg.KeyIndexes {
		op.keyCols[i] = rec.Column(k)
	}
	op.keys.intern(op.keyCols, n, op.keyIDs)
	clear(op.keyCols)
	for len(op.live) < int(op.keys.n) {
		op.live = append(op.live, -1)
		op.shadow = append(op.shadow, -1)
		op.seen = append(op.seen, 0)
	}
	if op.rowPath != nil {
		return op.processRows(b, n)
	}
	keyIDs, slots := op.keyIDs[:n], op.rowSlots[:n]
	if op.cfg.StateTTL > 0 {
		op.ttl.visit(op.cfg, len(op.live), keyIDs, op.expire)
	}
	// at most -U and +U per row: grown once, not per segment
	for i := range op.builder.Fields() {
		op.builder.Field(i).Reserve(2 * n)
	}
	for _, b := range op.keyBuilders {
		if b != nil {
			b.Reserve(2 * n)
		}
	}
	var kinds *array.String
	if op.cfg.Retract {
		kinds = rec.Column(0).(*array.String)
		for len(op.rows) < len(op.live) {
			op.rows = append(op.rows, 0)
		}
		op.taken = grow(op.taken, n)
	}
	for from := 0; from < n; {
		// the longest run of rows from here in which no key repeats
		op.nextSegment()
		to := from
		for ; to < n && op.seen[keyIDs[to]] != op.segment; to++ {
			k := keyIDs[to]
			op.seen[k] = op.segment
			if kinds != nil && kinds.Value(to)[0] == '-' {
				// a retraction: of a key without state it changes
				// nothing, as in Flink
				op.taken[to], slots[to] = op.live[k], -1
				continue
			}
			if op.live[k] < 0 {
				op.live[k] = op.slots.alloc()
			}
			slots[to] = op.live[k]
			if kinds != nil {
				op.taken[to] = -1
			}
		}
		op.aggIn.update(op.accs, op.cfg.Aggs, rec, slots, from, to)
		if kinds != nil {
			op.aggIn.retract(op.accs, op.cfg.Aggs, rec, op.taken, from, to)
			for i := from; i < to; i++ {
				k := keyIDs[i]
				switch {
				case slots[i] >= 0:
					op.rows[k]++
				case op.taken[i] >= 0:
					op.rows[k]--
				}
			}
		}
		for _, f := range op.failers {
			if err := f.failed(); err != nil {
				return err
			}
		}
		op.emitChanges(keyIDs[from:to], from, b.Watermarks)
		from = to
	}
	return op.flush()
}

// expire drops key k's state: its next row starts it again with +I.
func (op *GroupOperator) expire(k uint32) {
	if op.live[k] < 0 {
		return
	}
	op.slots.release(op.live[k])
	op.slots.release(op.shadow[k])
	op.live[k], op.shadow[k] = -1, -1
	if op.rows != nil {
		op.rows[k] = 0
	}
	op.stats.StateExpired++
}

// nextSegment starts a segment: a key is in it once seen equals segment.
func (op *GroupOperator) nextSegment() {
	op.segment++
	if op.segment == 0 { // wrapped: no key may look seen
		clear(op.seen)
		op.segment = 1
	}
}

// emitChanges records the change each key of a segment made (keys are
// distinct, in row order; the first is row first of the batch) and brings
// the shadows up to date. wms are the batch's rows' watermarks (nil: all
// arrived under the last one), which each change keeps: a join after the
// aggregation orders its inputs' rows by them.
func (op *GroupOperator) emitChanges(keys []uint32, first int, wms []int64) {
	start := len(op.resKinds)
	for idx, k := range keys {
		live, sh := op.live[k], op.shadow[k]
		if wms != nil {
			op.wm = wms[first+idx]
		}
		switch {
		case live < 0:
			// a retraction of a key without state
		case sh < 0:
			op.record(Insert, k, live)
		case op.cfg.Retract && op.rows[k] <= 0:
			// its last row retracted: the key's row is gone (Flink's
			// recordCounter), and so is its state
			op.record(Delete, k, sh)
		case op.cfg.StateTTL == 0 && op.sameSlot(sh, live):
			// unchanged (with a state TTL Flink emits it again: the
			// downstream may have dropped the row)
			continue
		default:
			op.record(UpdateBefore, k, sh)
			op.record(UpdateAfter, k, live)
		}
	}
	// the values go out before the shadows change under them
	for i, a := range op.accs {
		a.appendResults(op.resSlots[start:], op.builder.Field(i))
	}
	for i := start; i < len(op.resKinds); i++ {
		k := op.resKeys[i]
		if op.resKinds[i] == Delete {
			op.slots.release(op.live[k])
			op.slots.release(op.shadow[k])
			op.live[k], op.shadow[k], op.rows[k] = -1, -1, 0
			continue
		}
		if op.resKinds[i] == UpdateBefore {
			continue
		}
		if op.shadow[k] < 0 {
			op.shadow[k] = op.slots.alloc()
		}
		for _, copyResult := range op.copiers {
			copyResult(op.shadow[k], op.live[k])
		}
	}
}

func (op *GroupOperator) record(kind RowKind, k uint32, s int32) {
	if op.resWms != nil || op.wm != op.forwarded {
		if op.resWms == nil {
			// reused, not allocated anew for every batch: 600 MB over the
			// benchmark's GROUP BY of 10M rows
			op.resWms = op.wmsBuf[:0]
		}
		for len(op.resWms) < len(op.resKinds) {
			op.resWms = append(op.resWms, op.forwarded)
		}
		op.resWms = append(op.resWms, op.wm)
	}
	op.resKinds = append(op.resKinds, kind)
	op.resKeys = append(op.resKeys, k)
	op.resSlots = append(op.resSlots, s)
}

func (op *GroupOperator) sameSlot(x, y int32) bool {
	for _, a := range op.accs {
		if !a.sameResult(x, y) {
			return false
		}
	}
	return true
}

// flush appends the op and key columns of the recorded changes (their
// aggregates are appended already) and sends them downstream.
func (op *GroupOperator) flush() error {
	n := len(op.resKinds)
	if n == 0 {
		return nil
	}
	op.stats.ResultRows += int64(n)
	cols := append(op.outCols[:0], RowKindColumn(op.mem, op.resKinds))
	for i, col := range op.keys.cols {
		if sk, ok := col.(*stringKeys); ok && op.keyBuilders[i] == nil {
			if arr, ok := sk.column(op.resKeys, op.mem); ok {
				cols = append(cols, arr)
				continue
			}
		}
		if op.keyBuilders[i] == nil {
			op.keyBuilders[i] = array.NewBuilder(op.mem, op.schema.Field(1+i).Type)
		}
		col.appendTo(op.resKeys, op.keyBuilders[i])
		cols = append(cols, op.keyBuilders[i].NewArray())
	}
	for i := range op.builder.Fields() {
		if op.rowPath != nil && op.rowPath.built[i] != nil {
			cols = append(cols, op.rowPath.built[i])
			op.rowPath.built[i] = nil
			continue
		}
		cols = append(cols, op.builder.Field(i).NewArray())
	}
	wms := op.resWms
	if wms != nil {
		op.wmsBuf = wms
	}
	op.resKinds, op.resKeys, op.resSlots, op.resWms = op.resKinds[:0], op.resKeys[:0], op.resSlots[:0], nil
	rec := array.NewRecordBatch(op.schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	clear(cols)
	op.outCols = cols
	defer rec.Release()
	return op.out.ProcessBatch(pipeline.Batch{Record: rec, Watermarks: wms})
}

// ProcessWatermark forwards the watermark: results never wait for time.
func (op *GroupOperator) ProcessWatermark(wm int64) error {
	if wm <= op.forwarded {
		return nil
	}
	op.forwarded = wm
	return op.out.ProcessWatermark(wm)
}

// ProcessEnd forwards the end of input: every change is out already.
func (op *GroupOperator) ProcessEnd() error { return op.out.ProcessEnd() }

// Close releases the output builder. It is idempotent.
func (op *GroupOperator) Close() {
	if op.closed {
		return
	}
	op.closed = true
	op.builder.Release()
	for _, b := range op.keyBuilders {
		if b != nil {
			b.Release()
		}
	}
	op.mem.Close()
}

var _ pipeline.Operator = (*GroupOperator)(nil)
