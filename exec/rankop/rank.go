package rankop

import (
	"bytes"
	"container/heap"
	"slices"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/rowstore"
	"github.com/wsql/wsql/internal/recycle"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/windowop"
)

// Stats counts what a Rank operator did with its input.
type Stats struct {
	RowsIn, ResultRows int64
	// LateRowsDropped counts FirstByTime's rows that came after the
	// watermark had passed their time.
	LateRowsDropped int64
	// StateExpired counts partitions whose state StateTTL dropped.
	StateExpired int64
	// Lateness says how late a WindowRank's late rows were.
	Lateness windowop.Lateness
}

// Rank runs a Config's rank, row by row in arrival order, so its output
// depends on the rows and their order alone, never on batch size:
//
//   - TopN, as Flink's AppendOnlyTopNFunction: a row that sorts into the
//     first End rows of its partition (after the rows equal to it) takes
//     its place; each rank in Start..End whose row changed emits -U with
//     the row it had and +U with the row it has, and a rank filled for
//     the first time emits +I. Without the rank column and from rank 1,
//     only the row pushed out (-D) and the new row (+I) are emitted.
//     Rows past End are forgotten: an append-only input never brings
//     them back. By RANK or DENSE_RANK equal rows share a rank (see
//     topNTies).
//   - FirstByArrival emits a partition's first row (+I) and ignores the
//     rest; LastByArrival emits +I for the first row, then -U of the row
//     it had and +U of each new one.
//   - LastByTime is LastByArrival among rows whose time is not smaller
//     than the kept row's (Flink's rowtime deduplication).
//   - FirstByTime keeps the row of the smallest time (the first of equal
//     ones) and emits it once the watermark reaches that time, when no
//     row of a smaller time can come but late; late rows are dropped and
//     counted, rows after the emitted one are ignored. So the output is
//     final and append-only; Flink emits updates instead when an earlier
//     row arrives later.
type Rank struct {
	cfg    Config
	out    pipeline.Operator
	schema *arrow.Schema
	mem    memory.Allocator
	store  *rowstore.Store

	index     *partitionIndex
	sortKeys  keyEncoder
	parts     paged[partition] // by partition; for LastByTime and LastByArrival, last
	last      paged[lastRow]   // LastByTime, LastByArrival: by partition
	fixed     [][]fixedRow     // a Top-N of fixedRows (fixedKeys): by partition
	fixedKeys bool             // cfg.fixedTopN()
	seq       uint64           // arrival number of the next row
	due       dueHeap
	lastRow   []int64 // StateTTL: by partition, processing time of its last row
	lastSweep int64
	wm        int64 // the watermark the operator is at
	forwarded int64 // the last watermark sent on

	// per batch, reused
	skeys     [][]byte
	pids      []int32
	enter     []int32 // rows of the batch to keep or emit
	enterID   []int32 // their store ids
	emits     []emission
	ties      []tieChange        // topNTies' rows whose rank grows, reused
	kinds     []windowop.RowKind // send's op column, reused
	evicted   []int32            // ids (or -row-1) to remove after the emission
	batchRef  []int32            // by row: its store id once kept
	stay      []int32            // rows of the batch kept after it
	touched   []int32            // keep's partitions, reused
	touchedAt []uint32           // by partition: the stamp of the last keep touching it
	stamp     uint32             // keep's, one per call
	refs      []int32            // send's rows, reused
	outRefs   []int32            // keepLast's output rows, reused
	outKinds  []uint8            // and their kinds
	opOffsets *memory.Buffer     // keepLast's op column offsets, shared by its batches
	keySlab   []byte             // topN's kept sort keys, carved from shared slabs

	builder *array.RecordBuilder
	stats   Stats
	closed  bool
}

// partition is one partition's state. For TopN, rows holds the kept rows
// in rank order; for deduplication, rows[0] is the kept row (FirstByTime:
// the candidate not yet emitted), and done marks FirstByTime's partition
// whose row went out.
type partition struct {
	rows []kept
	done bool
	top  int64 // RANK and DENSE_RANK: the rank of the last row
}

// kept is a kept row: its sort key (TopN), time (by time) and store id, or -(row+1) while it is a row of the current batch.
type kept struct {
	key []byte
	ts  int64
	id  int32
}

// emission is an output row: its kind, the row (as kept.id) and rank.
type emission struct {
	kind windowop.RowKind
	ref  int32
	rank int64
}

// NewRank builds the running operator for cfg, sending results to out.
func NewRank(cfg Config, mem memory.Allocator, out pipeline.Operator) (*Rank, error) {
	schema, err := cfg.OutputSchema()
	if err != nil {
		return nil, err
	}
	// the kept rows from mem itself: the recycling allocator rounds a
	// buffer up to a power of two and keeps freed ones, so a compacted
	// store of millions of rows took up to twice its size, and its old
	// buffers stayed
	store := rowstore.New(cfg.keptSchema(), mem)
	// the output's buffers, the kept rows it emits included, are reused
	// batch after batch: a deduplication emits two rows per row read
	// (the dedup-last query 1.5 to 2 times faster, and 42% less CPU once
	// the gathered rows came from it too), Nexmark q9's Top-N 1.8 GB
	mem = recycle.New(mem)
	store.GatherFrom(mem)
	r := &Rank{cfg: cfg, out: out, schema: schema, mem: mem, store: store,
		index: newPartitionIndex(cfg.Input, cfg.Partition), wm: rowtime.MinWatermark, forwarded: rowtime.MinWatermark}
	r.sortKeys.keys = cfg.Order
	r.fixedKeys = cfg.fixedTopN()
	r.builder = array.NewRecordBuilder(mem, schema)
	return r, nil
}

// Schema returns the schema of the batches the operator emits.
func (r *Rank) Schema() *arrow.Schema { return r.schema }

// Stats returns the operator's counters so far.
func (r *Rank) Stats() Stats { return r.stats }

// ProcessBatch ranks every row in order and emits the changes.
func (r *Rank) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	r.stats.RowsIn += int64(n)
	r.pids = r.index.lookup(rec, r.pids[:0])
	if r.cfg.keepsLast() {
		r.last.grow(r.index.Len())
	}
	for r.fixedKeys && len(r.fixed) < r.index.Len() {
		r.fixed = append(r.fixed, nil)
	}
	if !r.cfg.keepsLast() && !r.fixedKeys {
		r.parts.grow(r.index.Len())
	}
	if r.cfg.StateTTL > 0 {
		r.expireOld()
	}
	if r.cfg.Mode == TopN {
		r.skeys = growKeys(r.skeys, n)
		r.sortKeys.encode(rec, r.skeys)
	}
	var times *array.Timestamp
	if r.cfg.Mode == FirstByTime || r.cfg.Mode == LastByTime {
		times = rec.Column(r.cfg.Rowtime).(*array.Timestamp)
	}
	switch r.cfg.Mode {
	case LastByTime:
		return r.keepLast(rec, times.TimestampValues()[:n])
	case LastByArrival:
		return r.keepLast(rec, nil)
	}
	r.enter = r.enter[:0]
	if r.fixedKeys {
		for i, pid := range r.pids {
			r.topNFixed(pid, fixedKey(r.skeys[i], int32(-(i+1))), i)
		}
		r.seq += uint64(n)
		return r.flush(rec)
	}
	for i := 0; i < n; i++ {
		ref := int32(-(i + 1))
		p := r.parts.at(r.pids[i])
		switch r.cfg.Mode {
		case TopN:
			if r.cfg.Type != RowNumber {
				r.topNTies(p, kept{key: r.skeys[i], id: ref}, i)
				break
			}
			r.topN(p, kept{key: r.skeys[i], id: ref}, i)
		case FirstByArrival:
			if len(p.rows) == 0 && !p.done {
				p.done = true
				r.emit(windowop.Insert, ref, 1, i)
			}
		case FirstByTime:
			if b.Watermarks != nil {
				r.advance(b.Watermarks[i])
			}
			r.firstByTime(p, r.pids[i], int64(times.Value(i)), ref, i)
		}
		r.seq++
	}
	return r.flush(rec)
}

// expireOld drops the state of the batch's partitions whose last row is
// older than the TTL, sweeps every partition once per TTL, and marks the
// batch's partitions as seen now (processing time, read once a batch).
func (r *Rank) expireOld() {
	clock := r.cfg.Clock
	if clock == nil {
		clock = rowtime.SystemClock{}
	}
	now, ttl := clock.Now().UnixMilli(), r.cfg.StateTTL
	for len(r.lastRow) < r.index.Len() {
		r.lastRow = append(r.lastRow, now)
	}
	if now-r.lastSweep >= ttl {
		for pid, at := range r.lastRow {
			if now-at > ttl {
				r.expire(int32(pid))
			}
		}
		r.lastSweep = now
	}
	for _, pid := range r.pids {
		if now-r.lastRow[pid] > ttl {
			r.expire(pid)
		}
		r.lastRow[pid] = now
	}
}

// expire forgets partition pid's rows: its next row starts it again.
func (r *Rank) expire(pid int32) {
	if r.cfg.keepsLast() {
		k := r.last.at(pid)
		if k.set {
			r.store.Remove(k.id)
			*k = lastRow{}
			r.stats.StateExpired++
		}
		return
	}
	if r.fixedKeys {
		if rows := r.fixed[pid]; len(rows) > 0 {
			for _, k := range rows {
				r.store.Remove(k.id)
			}
			r.fixed[pid] = rows[:0]
			r.stats.StateExpired++
		}
		return
	}
	p := r.parts.at(pid)
	if len(p.rows) == 0 && !p.done {
		return
	}
	for _, k := range p.rows {
		r.store.Remove(k.id)
	}
	p.rows, p.done, p.top = p.rows[:0], false, 0
	r.stats.StateExpired++
}

// topN ranks row i (k) in its partition (see Rank).
func (r *Rank) topN(p *partition, k kept, i int) {
	end := int(r.cfg.End)
	if len(p.rows) >= end && bytes.Compare(k.key, p.rows[end-1].key) >= 0 {
		return // the commonest case once a partition is full: one compare
	}
	pos := sort.Search(len(p.rows), func(j int) bool { return bytes.Compare(p.rows[j].key, k.key) > 0 })
	if pos >= end {
		return // ranks past End
	}
	// the row pushed out lends the new row its key's buffer
	old := len(p.rows)
	var pushed kept
	if old >= end {
		pushed = p.rows[end-1]
	}
	if spare := pushed.key[:0]; cap(spare) >= len(k.key) {
		k.key = append(spare, k.key...)
	} else {
		k.key = r.ownKey(k.key)
	}
	r.enter = append(r.enter, int32(i))
	if old < end {
		if cap(p.rows) == 0 && end <= exactRows {
			p.rows = make([]kept, 0, end)
		}
		p.rows = append(p.rows, kept{})
	}
	// when full, the last row falls off (it is pushed)
	copy(p.rows[pos+1:], p.rows[pos:])
	p.rows[pos] = k
	if r.cfg.RankName == "" && r.cfg.Start == 1 {
		// without ranks, only the row that leaves and the one that
		// enters change (Flink's processElementWithoutRowNumber)
		if old >= end {
			r.emits = append(r.emits, emission{kind: windowop.Delete, ref: pushed.id})
			r.evicted = append(r.evicted, pushed.id)
		}
		r.emits = append(r.emits, emission{kind: windowop.Insert, ref: k.id})
		return
	}
	// ranks pos+1 .. : each now holds the row that was one rank up
	for j := pos; j < len(p.rows); j++ {
		rank := int64(j + 1)
		if rank < r.cfg.Start {
			continue
		}
		if j < old {
			before := pushed.id // the row that was at rank End
			if j+1 < len(p.rows) {
				before = p.rows[j+1].id
			}
			r.emits = append(r.emits, emission{kind: windowop.UpdateBefore, ref: before, rank: rank})
			r.emits = append(r.emits, emission{kind: windowop.UpdateAfter, ref: p.rows[j].id, rank: rank})
		} else {
			r.emits = append(r.emits, emission{kind: windowop.Insert, ref: p.rows[j].id, rank: rank})
		}
	}
	if old >= end {
		r.evicted = append(r.evicted, pushed.id)
	}
}

// exactRows bounds the Top-N whose partitions' rows are allocated at
// once at their full End: Nexmark q19's top 10 grew them by appends to a
// capacity of 16, 48 bytes a row, for 600K auctions.
const exactRows = 64

// ownKey is a copy of a sort key carved from a slab shared with other
// keys, as long as the key: a key of one BIGINT is 9 bytes, which an
// allocation of its own rounds to 16, each with its own header for the
// collector.
func (r *Rank) ownKey(key []byte) []byte {
	if len(r.keySlab) < len(key) {
		r.keySlab = make([]byte, max(keySlabSize, len(key)))
	}
	k := r.keySlab[:len(key):len(key)]
	copy(k, key)
	r.keySlab = r.keySlab[len(key):]
	return k
}

// keySlabSize is the bytes ownKey allocates at once.
const keySlabSize = 1 << 16

// emit records an output row of the current batch's row i.
func (r *Rank) emit(kind windowop.RowKind, ref int32, rank int64, i int) {
	r.enter = append(r.enter, int32(i))
	r.emits = append(r.emits, emission{kind: kind, ref: ref, rank: rank})
	r.evicted = append(r.evicted, ref)
}

// growKeys returns keys with room for n rows, keeping their buffers.
func growKeys(keys [][]byte, n int) [][]byte {
	for len(keys) < n {
		keys = append(keys, nil)
	}
	return keys
}

// firstByTime offers row i of time ts to partition pid (see Rank).
func (r *Rank) firstByTime(p *partition, pid int32, ts int64, ref int32, i int) {
	switch {
	case ts < r.wm:
		r.stats.LateRowsDropped++
	case p.done:
		// the partition's first row went out; this one is later
	case len(p.rows) == 0 || ts < p.rows[0].ts:
		r.enter = append(r.enter, int32(i))
		if len(p.rows) > 0 {
			r.evicted = append(r.evicted, p.rows[0].id)
			p.rows[0] = kept{ts: ts, id: ref}
		} else {
			p.rows = append(p.rows, kept{ts: ts, id: ref})
		}
		heap.Push(&r.due, due{ts: ts, pid: pid})
	}
}

// advance moves to watermark wm, emitting the candidates it reaches in
// (time, partition) order.
func (r *Rank) advance(wm int64) {
	if wm <= r.wm {
		return
	}
	r.wm = wm
	for len(r.due) > 0 && r.due[0].ts <= wm {
		d := heap.Pop(&r.due).(due)
		p := r.parts.at(d.pid)
		if p.done || len(p.rows) == 0 || p.rows[0].ts != d.ts {
			continue // replaced by an earlier row since
		}
		r.emits = append(r.emits, emission{kind: windowop.Insert, ref: p.rows[0].id, rank: 1})
		r.evicted = append(r.evicted, p.rows[0].id)
		p.rows, p.done = p.rows[:0], true
	}
}

// flush builds the emitted rows and sends them, forgets the rows that
// left, then keeps the batch's rows that are still kept. rec is the
// current batch (nil between batches). An emitted row of the batch is
// read from the batch itself: a deduplication emits every row as +U
// while it keeps one row per partition, so only that one is copied.
func (r *Rank) flush(rec arrow.RecordBatch) error {
	var cols arrow.RecordBatch
	if rec != nil {
		cols = r.keptColumns(rec)
		if cols != rec {
			defer cols.Release()
		}
	}
	var err error
	if len(r.emits) > 0 {
		err = r.send(cols)
	}
	for _, id := range r.evicted {
		if id >= 0 { // a row of the batch was never stored
			r.store.Remove(id)
		}
	}
	r.evicted = r.evicted[:0]
	if err != nil {
		return err
	}
	if rec != nil && len(r.enter) > 0 {
		if err := r.keep(cols); err != nil {
			return err
		}
	}
	r.enter = r.enter[:0]
	return r.store.Compact()
}

// keep stores the rows of the batch (cols) that their partitions still
// keep after it and gives the partitions their store ids.
func (r *Rank) keep(cols arrow.RecordBatch) error {
	// enter is in row order (rows are ranked in order), so the rows
	// that stay come out in row order too, without a sort
	entered := slices.Compact(r.enter)
	r.batchRef = growInt32(r.batchRef, int(cols.NumRows()))
	// the partitions the rows entered, each once: a deduplication's
	// batch of 4096 rows touches at most its 1000 partitions
	r.stamp++
	for len(r.touchedAt) < r.index.Len() {
		r.touchedAt = append(r.touchedAt, 0)
	}
	touched := r.touched[:0]
	for _, row := range entered {
		r.batchRef[row] = 0
		if pid := r.pids[row]; r.touchedAt[pid] != r.stamp {
			r.touchedAt[pid] = r.stamp
			touched = append(touched, pid)
		}
	}
	r.touched = touched
	for _, pid := range touched {
		if r.fixedKeys {
			for _, k := range r.fixed[pid] {
				if k.id < 0 {
					r.batchRef[-k.id-1] = 1 // stays
				}
			}
			continue
		}
		for _, k := range r.parts.at(pid).rows {
			if k.id < 0 {
				r.batchRef[-k.id-1] = 1 // stays
			}
		}
	}
	stay := r.stay[:0]
	for _, row := range entered {
		if r.batchRef[row] == 1 {
			stay = append(stay, row)
		}
	}
	r.stay = stay
	if len(stay) == 0 {
		return nil
	}
	ids, err := r.store.Add(cols, stay, r.enterID[:0])
	if err != nil {
		return err
	}
	r.enterID = ids
	for k, row := range stay {
		r.batchRef[row] = ids[k]
	}
	for _, pid := range touched {
		if r.fixedKeys {
			rows := r.fixed[pid]
			for j, k := range rows {
				if k.id < 0 {
					rows[j].id = r.batchRef[-k.id-1]
				}
			}
			continue
		}
		p := r.parts.at(pid)
		for j, k := range p.rows {
			if k.id < 0 {
				p.rows[j].id = r.batchRef[-k.id-1]
			}
		}
	}
	return nil
}

// keptColumns is rec's columns the rank keeps, without a copy.
func (r *Rank) keptColumns(rec arrow.RecordBatch) arrow.RecordBatch {
	if r.cfg.Output == nil {
		return rec
	}
	cols := make([]arrow.Array, len(r.cfg.Output))
	for i, c := range r.cfg.Output {
		cols[i] = rec.Column(c)
	}
	return array.NewRecordBatch(r.store.Schema(), cols, rec.NumRows())
}

// send builds the output batch of the recorded emissions; batch is the
// current batch's kept columns (nil between batches).
func (r *Rank) send(batch arrow.RecordBatch) error {
	r.refs = r.refs[:0]
	for _, e := range r.emits {
		r.refs = append(r.refs, e.ref)
	}
	rows, err := r.store.GatherWith(batch, r.refs)
	if err != nil {
		return err
	}
	defer rows.Release()
	n := len(r.emits)
	cols := make([]arrow.Array, 0, r.schema.NumFields())
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	if r.cfg.Updates() {
		r.kinds = r.kinds[:0]
		for _, e := range r.emits {
			r.kinds = append(r.kinds, e.kind)
		}
		cols = append(cols, windowop.RowKindColumn(r.mem, r.kinds))
	}
	for _, c := range rows.Columns() {
		c.Retain()
		cols = append(cols, c)
	}
	if r.cfg.RankName != "" {
		b := array.NewInt64Builder(r.mem)
		b.Reserve(n)
		for _, e := range r.emits {
			b.UnsafeAppend(e.rank)
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	r.emits = r.emits[:0]
	r.stats.ResultRows += int64(n)
	out := array.NewRecordBatch(r.schema, cols, int64(n))
	defer out.Release()
	return r.out.ProcessBatch(pipeline.Batch{Record: out})
}

// ProcessWatermark emits FirstByTime's rows the watermark reaches, then
// forwards it.
func (r *Rank) ProcessWatermark(wm int64) error {
	if r.cfg.Mode == FirstByTime {
		r.advance(wm)
		if err := r.flush(nil); err != nil {
			return err
		}
	}
	r.wm = max(r.wm, wm)
	if wm <= r.forwarded {
		return nil
	}
	r.forwarded = wm
	return r.out.ProcessWatermark(wm)
}

// ProcessEnd emits FirstByTime's remaining rows, as the watermark +∞.
func (r *Rank) ProcessEnd() error {
	if r.cfg.Mode == FirstByTime {
		r.advance(rowtime.MaxWatermark)
		if err := r.flush(nil); err != nil {
			return err
		}
	}
	return r.out.ProcessEnd()
}

// Close releases the kept rows and the builder. It is idempotent.
func (r *Rank) Close() {
	if r.closed {
		return
	}
	r.closed = true
	r.store.Release()
	r.builder.Release()
	if r.opOffsets != nil {
		r.opOffsets.Release()
	}
	if a, ok := r.mem.(*recycle.Allocator); ok {
		a.Close()
	}
}

var _ pipeline.Operator = (*Rank)(nil)

// due is FirstByTime's candidate of a partition, due at its time.
type due struct {
	ts  int64
	pid int32
}

type dueHeap []due

func (h dueHeap) Len() int { return len(h) }
func (h dueHeap) Less(i, j int) bool {
	return h[i].ts < h[j].ts || h[i].ts == h[j].ts && h[i].pid < h[j].pid
}
func (h dueHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *dueHeap) Push(x any)   { *h = append(*h, x.(due)) }
func (h *dueHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
