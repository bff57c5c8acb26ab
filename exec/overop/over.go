package overop

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/rowstore"
	"github.com/wsql/wsql/internal/recycle"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/windowop"
)

// Stats counts what an Over operator did with its input.
type Stats struct {
	RowsIn          int64
	ResultRows      int64
	LateRowsDropped int64 // event time: rows at or behind the watermark on arrival
	StateExpired    int64 // partitions whose state StateTTL dropped
	// Lateness says how far behind the watermark the dropped rows were:
	// a delay that much larger would have kept them.
	Lateness windowop.Lateness
}

// Over is Flink's OVER aggregation (RowTime*/ProcTime* PrecedingFunction):
//
//   - Event time: a row at or behind the watermark on arrival is late,
//     dropped and counted. Others wait in a store until the watermark
//     passes them; then they are processed in timestamp order (rows of
//     one timestamp by arrival), and emitted once with their aggregates.
//   - Processing time: each batch's rows are processed on arrival.
//   - ROWS: each row ends its own frame. RANGE: the rows of a partition
//     with one timestamp are peers, in each other's frames.
//   - A bounded frame takes each row out of the partition's accumulators
//     when it leaves the frame; rows stay in the partition's ring until
//     then. A RANGE partition whose rows all left every future frame is
//     dropped; 'table.exec.state.ttl' drops partitions idle that long.
//
// Algorithm. A round of ready rows is gathered into one record, in output
// order: by time, then (RANGE) partition, then arrival. The round is cut
// into segments in which no partition repeats; the accumulators fold a
// whole segment, take out the rows leaving its frames and append its
// results with one call per aggregate. A round stays referenced while any
// of its rows is in a frame, so the rows leaving are read where they are.
type Over struct {
	cfg    Config
	out    pipeline.Operator
	schema *arrow.Schema
	mem    *recycle.Allocator // every buffer it makes, reused watermark after watermark
	aggs   *windowop.OverAggs

	parts      []partition // by partition id
	rounds     []round     // records whose rows may still be in a frame
	roundsMade int64
	freeRnd    []int32
	store      *rowstore.Store // event time: rows waiting for the watermark
	pending    []pendingRow
	seq        int64
	wm         int64    // the watermark processed and forwarded last
	cleanup    []stepAt // RANGE with a bound: partitions by their last time
	ttlLast    []int64  // by partition: processing time of its last row
	sweep      int64

	// scratch, reused
	pids     []uint32
	keep     []int32
	ids      []int32
	ready    []pendingRow
	readyIDs []int32
	rowSlots []int32
	seen     []uint32
	segment  uint32
	touched  []int32    // rounds with rows leaving a frame in this segment
	leaving  []frameRow // those rows
	builder  *array.RecordBuilder
	builders []array.Builder

	// a bounded ROWS frame (rows_frame.go)
	general   bool          // some aggregate has no sliding form
	frameCols []int         // what a round keeps of its rows (nil: all)
	frameSch  *arrow.Schema // of those columns
	leavingOf []windowop.OverRow
	recs      []arrow.RecordBatch // the rounds' records, by round id
	results   []arrow.Array       // the sliding aggregates' results
	freeLeave [][]int32           // released rounds' leave, for the next

	stats  Stats
	closed bool
}

// partition is one partition's state.
type partition struct {
	slot    int32      // its accumulators; -1 for none
	ring    []frameRow // rows in the frame, oldest first from head (bounded frames)
	times   []int64    // RANGE: their times, in the ring's places
	head    int
	size    int
	lastTs  int64
	pending int // rows waiting for the watermark
}

// frameRow is a row in a partition's frame: where it is. Its time is
// kept beside it only where a RANGE frame needs it: 8 bytes, not 16, a
// ring of a ROWS frame holds, which halved what rings allocate (a sixth
// of BenchmarkOverRows100's bytes).
type frameRow struct{ round, row int32 }

// round is a record of processed rows, kept while rows of it are in a
// frame; leave holds, per row, the slot it is taken out of (or -1).
type round struct {
	rec    arrow.RecordBatch
	refs   int
	leave  []int32
	lo, hi int32 // rows with a slot in leave: [lo, hi)
	marked int   // how many
	age    int64 // rounds made before it
}

type pendingRow struct {
	id   int32
	part uint32
	ts   int64
	seq  int64
}

type stepAt struct {
	part uint32
	ts   int64
}

// New builds the running operator for cfg, sending results to out.
func New(cfg Config, mem memory.Allocator, out pipeline.Operator) (*Over, error) {
	schema, err := cfg.OutputSchema()
	if err != nil {
		return nil, err
	}
	aggs, err := windowop.NewOverAggs(cfg.Input, cfg.PartitionBy, cfg.Aggs, !cfg.Unbounded)
	if err != nil {
		return nil, err
	}
	// a watermark's round (its gathered rows, the results) is freed once
	// emitted and out of every frame: recycled, the next round takes its
	// buffers instead of fresh ones the GC must clear and reclaim
	rec := recycle.New(mem)
	op := &Over{cfg: cfg, out: out, schema: schema, mem: rec, aggs: aggs, wm: rowtime.MinWatermark,
		store: rowstore.New(cfg.Input, rec)}
	op.builder = array.NewRecordBuilder(rec, arrow.NewSchema(aggs.ResultFields(), nil))
	op.builders = op.builder.Fields()
	op.results = make([]arrow.Array, len(op.builders))
	op.general = true
	if cfg.Rows && !cfg.Unbounded {
		op.general = aggs.SlideRows()
	}
	if op.frameCols = aggs.FrameColumns(); op.frameCols != nil {
		var fields []arrow.Field
		for _, c := range op.frameCols {
			fields = append(fields, cfg.Input.Field(c))
		}
		op.frameSch = arrow.NewSchema(fields, nil)
	}
	return op, nil
}

// Schema is the schema of the batches the operator emits.
func (op *Over) Schema() *arrow.Schema { return op.schema }

// Stats returns the operator's counters so far.
func (op *Over) Stats() Stats { return op.stats }

// Partitions is how many partitions hold accumulators.
func (op *Over) Partitions() int { return op.aggs.LiveSlots() }

// ProcessBatch keeps the batch's rows until the watermark passes them
// (event time) or processes them at once (processing time).
func (op *Over) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	op.stats.RowsIn += int64(n)
	op.pids = grow(op.pids, n)
	// interned once: a loop condition would intern the batch again for
	// every new partition (1000 times the first batch of
	// BenchmarkOverRows100, nearly half its time)
	for parts := op.aggs.Partitions(rec, n, op.pids); len(op.parts) < parts; {
		op.parts = append(op.parts, partition{slot: -1})
	}
	if op.cfg.StateTTL > 0 {
		op.expireIdle(op.pids[:n])
	}
	op.keep = op.keep[:0]
	if op.cfg.ProcTime {
		for i := 0; i < n; i++ {
			op.keep = append(op.keep, int32(i))
		}
	} else {
		times := rec.Column(op.cfg.Time).(*array.Timestamp)
		for i := 0; i < n; i++ {
			wm := op.wm
			if b.Watermarks != nil {
				wm = max(wm, b.Watermarks[i])
			}
			if ts := int64(times.Value(i)); times.IsNull(i) || ts <= wm {
				op.stats.LateRowsDropped++ // Flink drops rows at or behind the watermark
				if times.IsValid(i) {
					op.stats.Lateness.Add(wm - ts + 1)
				}
				continue
			}
			op.keep = append(op.keep, int32(i))
		}
	}
	var err error
	if op.ids, err = op.store.Add(rec, op.keep, op.ids[:0]); err != nil {
		return err
	}
	var now int64
	if op.cfg.ProcTime {
		now = op.now()
	}
	var times *array.Timestamp
	if !op.cfg.ProcTime {
		times = rec.Column(op.cfg.Time).(*array.Timestamp)
	}
	for j, i := range op.keep {
		ts := now
		if times != nil {
			ts = int64(times.Value(int(i)))
		}
		p := op.pids[i]
		op.parts[p].pending++
		op.pending = append(op.pending, pendingRow{id: op.ids[j], part: p, ts: ts, seq: op.seq})
		op.seq++
	}
	if op.cfg.ProcTime {
		return op.fire(rowtime.MaxWatermark)
	}
	return nil
}

func (op *Over) now() int64 {
	clock := op.cfg.Clock
	if clock == nil {
		clock = rowtime.SystemClock{}
	}
	return clock.Now().UnixMilli()
}

// ProcessWatermark processes and emits the rows the watermark passed,
// then forwards it.
func (op *Over) ProcessWatermark(wm int64) error {
	if wm <= op.wm {
		return nil
	}
	if err := op.fire(wm); err != nil {
		return err
	}
	op.wm = wm
	op.dropPassed(wm)
	return op.out.ProcessWatermark(wm)
}

// ProcessEnd processes every waiting row (the end of input is the end of
// time) and forwards the end.
func (op *Over) ProcessEnd() error {
	if err := op.fire(rowtime.MaxWatermark); err != nil {
		return err
	}
	return op.out.ProcessEnd()
}

// fire processes and emits the waiting rows at or before wm.
func (op *Over) fire(wm int64) error {
	op.ready = op.ready[:0]
	rest := op.pending[:0]
	for _, r := range op.pending {
		if r.ts <= wm {
			op.ready = append(op.ready, r)
		} else {
			rest = append(rest, r)
		}
	}
	op.pending = rest
	if len(op.ready) == 0 {
		return nil
	}
	rows := op.cfg.Rows || op.cfg.ProcTime && op.cfg.Unbounded
	order := func(a, b pendingRow) int {
		switch {
		case a.ts != b.ts:
			return cmpInt(a.ts, b.ts)
		case !rows && a.part != b.part:
			// RANGE: a partition's peers together, partitions in the
			// order they first came
			return cmpInt(int64(a.part), int64(b.part))
		}
		return cmpInt(a.seq, b.seq)
	}
	// rows mostly come in time order: checked in one pass, where the
	// sort took 5% of BenchmarkOverRows100 on sorted rows
	if !inOrder(op.ready, rows) {
		slices.SortFunc(op.ready, order)
	}
	op.readyIDs = op.readyIDs[:0]
	for _, r := range op.ready {
		op.readyIDs = append(op.readyIDs, r.id)
		op.parts[r.part].pending--
	}
	rec, err := op.store.Gather(op.readyIDs)
	if err != nil {
		return err
	}
	op.store.RemoveAll(op.readyIDs)
	if err := op.store.Compact(); err != nil {
		rec.Release()
		return err
	}
	return op.process(rec, rows)
}

// process folds the round rec (the ready rows, in op.ready's order) and
// emits it with its aggregates. It owns rec.
func (op *Over) process(rec arrow.RecordBatch, rows bool) error {
	if op.cfg.Rows && !op.cfg.Unbounded {
		return op.processRows(rec)
	}
	n := len(op.ready)
	rid := op.addRound(rec)
	op.rounds[rid].refs++ // held while processing: dropped partitions may release their rows of it
	op.rowSlots = grow(op.rowSlots, n)
	for len(op.seen) < len(op.parts) {
		op.seen = append(op.seen, 0)
	}
	bounded := !op.cfg.Unbounded
	for i := range op.builders {
		op.builders[i].Reserve(n)
	}
	for from := 0; from < n; {
		op.nextSegment()
		i := from
		for i < n {
			p := op.ready[i].part
			if op.seen[p] == op.segment {
				break
			}
			op.seen[p] = op.segment
			ts := op.ready[i].ts
			j := i + 1
			if !rows {
				for j < n && op.ready[j].part == p && op.ready[j].ts == ts {
					j++
				}
			}
			st := &op.parts[p]
			if !op.cfg.Rows && bounded && st.size > 0 && st.times[(st.head+st.size-1)%len(st.ring)] < ts-op.cfg.Preceding {
				// every row leaves the frame: start afresh, as dropPassed
				// does when a watermark shows it first, so floating-point
				// sums never depend on when watermarks came
				ring, times := st.ring, st.times
				op.dropPartition(p)
				// its ring is kept for the rows to come: a RANGE
				// frame restarts often, and allocating its ring
				// anew was a seventh of the RANGE benchmark
				st.ring, st.times = ring, times
			}
			if st.slot < 0 {
				st.slot = op.aggs.Alloc()
			}
			for r := i; r < j; r++ {
				op.rowSlots[r] = st.slot
			}
			if bounded {
				for r := i; r < j; r++ {
					op.push(st, frameRow{round: rid, row: int32(r)}, ts)
				}
				op.leaveFrame(st, ts)
				if !op.cfg.Rows && !op.cfg.ProcTime {
					op.cleanup = append(op.cleanup, stepAt{part: p, ts: ts})
				}
			}
			st.lastTs = ts
			i = j
		}
		if err := op.aggs.Update(rec, op.rowSlots, from, i); err != nil {
			return err
		}
		op.retractLeaving(true)
		op.aggs.AppendResults(op.rowSlots[from:i], op.builders)
		from = i
	}
	return op.emit(rec, rid, n)
}

// push appends a row to a partition's frame.
func (op *Over) push(st *partition, fr frameRow, ts int64) {
	if st.size == len(st.ring) {
		op.growRing(st)
	}
	// a compare, not a modulo: a division per row was 3% of
	// BenchmarkOverRows100
	at := st.head + st.size
	if at >= len(st.ring) {
		at -= len(st.ring)
	}
	st.ring[at] = fr
	if st.times != nil {
		st.times[at] = ts
	}
	st.size++
	op.rounds[fr.round].refs++
}

// growRing makes room in a full ring: twice as much, but no more than a
// ROWS frame holds (its rows and the one that pushes the oldest out).
func (op *Over) growRing(st *partition) {
	n := max(8, 2*len(st.ring))
	if op.cfg.Rows && !op.cfg.Unbounded && op.cfg.Preceding+2 < int64(n) {
		n = max(st.size+1, int(op.cfg.Preceding)+2)
	}
	grown := make([]frameRow, n)
	k := copy(grown, st.ring[st.head:])
	copy(grown[k:], st.ring[:st.head])
	if !op.cfg.Rows {
		times := make([]int64, n)
		k := copy(times, st.times[st.head:])
		copy(times[k:], st.times[:st.head])
		st.times = times
	}
	st.ring, st.head = grown, 0
}

// pop takes a partition's oldest row out of its frame.
func (st *partition) pop() frameRow {
	fr := st.ring[st.head]
	if st.head++; st.head == len(st.ring) {
		st.head = 0
	}
	st.size--
	return fr
}

// leaveFrame marks the rows leaving a partition's frame, whose current
// row is at ts, to be taken out of its slot.
func (op *Over) leaveFrame(st *partition, ts int64) {
	for st.size > 0 {
		fr := st.ring[st.head]
		if op.cfg.Rows && int64(st.size) <= op.cfg.Preceding+1 || !op.cfg.Rows && st.times[st.head] >= ts-op.cfg.Preceding {
			return
		}
		st.pop()
		op.mark(fr, st.slot)
	}
}

// mark marks row fr to be taken out of slot.
func (op *Over) mark(fr frameRow, slot int32) {
	r := &op.rounds[fr.round]
	if r.marked == 0 {
		op.touched = append(op.touched, fr.round)
		r.lo, r.hi = fr.row, fr.row+1
	} else {
		r.lo, r.hi = min(r.lo, fr.row), max(r.hi, fr.row+1)
	}
	r.marked++
	r.leave[fr.row] = slot
	op.leaving = append(op.leaving, fr)
}

// retractLeaving takes the marked rows out: one call per round when they
// lie close together there, else one per row, so that rows leaving far
// apart (partitions of different pace) cost no scan of the rows between.
// unref drops the frame's references to them (a ROWS frame drops them
// once the whole round is done).
//
// A slot's rows go out oldest first whatever the rounds they lie in, by
// round age, then row: a restored operator holds its frames' rows in one
// round, in that order, and floating-point sums must not depend on it.
func (op *Over) retractLeaving(unref bool) {
	if len(op.touched) > 1 {
		slices.SortFunc(op.touched, func(a, b int32) int { return cmpInt(op.rounds[a].age, op.rounds[b].age) })
	}
	for _, rid := range op.touched {
		r := &op.rounds[rid]
		if int(r.hi-r.lo) <= 8*r.marked {
			op.aggs.Retract(r.rec, r.leave, int(r.lo), int(r.hi))
			continue
		}
		for _, fr := range op.leaving {
			if fr.round == rid {
				op.aggs.Retract(r.rec, r.leave, int(fr.row), int(fr.row)+1)
			}
		}
	}
	for _, fr := range op.leaving {
		r := &op.rounds[fr.round]
		r.leave[fr.row] = -1
		if unref {
			r.refs--
		}
	}
	for _, rid := range op.touched {
		r := &op.rounds[rid]
		r.marked = 0
		if unref {
			op.releaseIfDone(rid)
		}
	}
	op.touched, op.leaving = op.touched[:0], op.leaving[:0]
}

func (op *Over) addRound(rec arrow.RecordBatch) int32 {
	r := round{rec: rec, age: op.roundsMade}
	op.roundsMade++
	if op.general {
		r.leave = op.leaveSlice(int(rec.NumRows()))
	}
	if k := len(op.freeRnd); k > 0 {
		id := op.freeRnd[k-1]
		op.freeRnd = op.freeRnd[:k-1]
		op.rounds[id] = r
		return id
	}
	op.rounds = append(op.rounds, r)
	return int32(len(op.rounds) - 1)
}

func (op *Over) releaseIfDone(rid int32) {
	r := &op.rounds[rid]
	if r.refs > 0 || r.rec == nil {
		return
	}
	r.rec.Release()
	if r.leave != nil {
		op.freeLeave = append(op.freeLeave, r.leave)
	}
	*r = round{}
	op.freeRnd = append(op.freeRnd, rid)
}

// leaveSlice is a round's leave for n rows, all -1: a released round's
// when one is large enough.
func (op *Over) leaveSlice(n int) []int32 {
	if k := len(op.freeLeave); k > 0 && cap(op.freeLeave[k-1]) >= n {
		leave := op.freeLeave[k-1]
		op.freeLeave = op.freeLeave[:k-1]
		leave = leave[:n]
		for i := range leave {
			leave[i] = -1
		}
		return leave
	}
	leave := make([]int32, n)
	for i := range leave {
		leave[i] = -1
	}
	return leave
}

// emit sends the round's rows, rec, with their aggregates downstream and
// drops the hold on round rid that processing took.
func (op *Over) emit(rec arrow.RecordBatch, rid int32, n int) error {
	cols := append(make([]arrow.Array, 0, op.schema.NumFields()), rec.Columns()...)
	for i, b := range op.builders {
		if op.aggs.Slides(i) {
			cols = append(cols, op.results[i])
			op.results[i] = nil
		} else {
			cols = append(cols, b.NewArray())
		}
	}
	out := array.NewRecordBatch(op.schema, cols, int64(n))
	for _, c := range cols[rec.NumCols():] {
		c.Release()
	}
	defer out.Release()
	op.stats.ResultRows += int64(n)
	op.rounds[rid].refs--
	op.releaseIfDone(rid)
	return op.out.ProcessBatch(pipeline.Batch{Record: out})
}

// dropPassed drops the state of RANGE partitions whose rows all left
// every frame to come: a later row is after wm, so a row at or before
// wm - Preceding is in none of its frames.
func (op *Over) dropPassed(wm int64) {
	if op.cfg.Rows || op.cfg.Unbounded || op.cfg.ProcTime {
		return
	}
	k := 0
	for ; k < len(op.cleanup) && op.cleanup[k].ts <= wm-op.cfg.Preceding; k++ {
		c := op.cleanup[k]
		if st := &op.parts[c.part]; st.lastTs == c.ts && st.slot >= 0 {
			op.dropPartition(c.part)
		}
	}
	op.cleanup = op.cleanup[:copy(op.cleanup, op.cleanup[k:])]
}

// dropPartition forgets a partition's accumulators and frame.
func (op *Over) dropPartition(p uint32) {
	st := &op.parts[p]
	for k := 0; k < st.size; k++ {
		fr := st.ring[(st.head+k)%len(st.ring)]
		op.rounds[fr.round].refs--
		op.releaseIfDone(fr.round)
	}
	if st.slot >= 0 {
		op.aggs.Release(st.slot)
	}
	*st = partition{slot: -1, pending: st.pending}
}

// expireIdle drops the state of partitions without a row for longer than
// the TTL (processing time, read once a batch): those of the batch's rows
// and, once per TTL, all. A partition with rows waiting stays.
func (op *Over) expireIdle(pids []uint32) {
	now, ttl := op.now(), op.cfg.StateTTL
	for len(op.ttlLast) < len(op.parts) {
		op.ttlLast = append(op.ttlLast, now)
	}
	expire := func(p uint32) {
		if st := &op.parts[p]; st.slot >= 0 && st.pending == 0 {
			op.dropPartition(p)
			op.stats.StateExpired++
		}
	}
	if now-op.sweep >= ttl {
		for p, at := range op.ttlLast {
			if now-at > ttl {
				expire(uint32(p))
			}
		}
		op.sweep = now
	}
	for _, p := range pids {
		if now-op.ttlLast[p] > ttl {
			expire(p)
		}
		op.ttlLast[p] = now
	}
}

func (op *Over) nextSegment() {
	op.segment++
	if op.segment == 0 {
		clear(op.seen)
		op.segment = 1
	}
}

// Close releases the kept rows and the builder. It is idempotent.
func (op *Over) Close() {
	if op.closed {
		return
	}
	op.closed = true
	op.builder.Release()
	op.store.Release()
	for i := range op.rounds {
		if op.rounds[i].rec != nil {
			op.rounds[i].rec.Release()
			op.rounds[i].rec = nil
		}
	}
	op.mem.Close()
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// inOrder reports whether rows are sorted as fire sorts them, with the
// fields compared inline (slices.IsSortedFunc's call per pair cost 3%).
func inOrder(ready []pendingRow, rows bool) bool {
	for i := 1; i < len(ready); i++ {
		a, b := &ready[i-1], &ready[i]
		switch {
		case a.ts != b.ts:
			if a.ts > b.ts {
				return false
			}
		case !rows && a.part != b.part:
			if a.part > b.part {
				return false
			}
		case a.seq > b.seq:
			return false
		}
	}
	return true
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

var _ pipeline.Operator = (*Over)(nil)
