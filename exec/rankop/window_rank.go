package rankop

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/rowstore"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// WindowColumns are the window columns of a window rank's input: the
// window_start and window_end of a window table function or a window
// aggregation, both among the Config's Partition columns.
type WindowColumns struct {
	Start, End int
	// Zone is the session time zone of windows over a TIMESTAMP_LTZ
	// rowtime, whose bounds are wall-clock times there; nil for bounds
	// that are instants (a TIMESTAMP rowtime).
	Zone *time.Location
}

// checkWindow checks a window rank's Config.
func (c Config) checkWindow() error {
	w := c.Window
	for _, col := range []int{w.Start, w.End} {
		if col < 0 || col >= c.Input.NumFields() || c.Input.Field(col).Type.ID() != arrow.TIMESTAMP {
			return fmt.Errorf("window rank: window column %d is not a timestamp of the input", col)
		}
		in := false
		for _, k := range c.Partition {
			in = in || k == col
		}
		if !in {
			return fmt.Errorf("window rank: the partition must contain window_start and window_end")
		}
	}
	switch c.Mode {
	case TopN, FirstByTime, LastByTime:
	default:
		return fmt.Errorf("window rank: mode %d is not a window rank", c.Mode)
	}
	if c.Type != RowNumber {
		return fmt.Errorf("window rank: %s is not supported, ROW_NUMBER only", c.Type)
	}
	if c.Mode != TopN && c.RankName != "" && (c.Start != 1 || c.End != 1) {
		return fmt.Errorf("window rank: a deduplication ranks 1 only")
	}
	return nil
}

// WindowRank is Flink's WindowRank and WindowDeduplicate: rows are kept
// per window and partition (the Config's Partition, which holds
// window_start and window_end) until the watermark passes the window's
// end; then the window's ranks Start..End (TopN) or its first or last row
// by event time (FirstByTime, LastByTime) are emitted once, as inserts,
// and the window's state is dropped. So the output is append-only.
//
// A TopN window keeps at most End rows, in rank order (ROW_NUMBER: equal
// rows by arrival). FirstByTime keeps the row of the smallest time, the
// first of equal ones; LastByTime the row of the largest time, the last
// of equal ones. A row of a window the watermark has passed is late: it
// is dropped and counted. Windows close in the order of their ends, the
// partitions of one end in the order they began, so the output depends
// on the rows and their order alone, never on batch size.
type WindowRank struct {
	cfg    Config
	out    pipeline.Operator
	schema *arrow.Schema
	mem    memory.Allocator
	store  *rowstore.Store
	local  *rowtime.LocalTime

	partKeys  keyEncoder
	sortKeys  keyEncoder
	index     map[string]int32
	parts     []windowPartition
	free      []int32 // pids of closed windows, for reuse
	fires     fireHeap
	byFire    map[int64][]int32 // a closing time's partitions, in the order they began
	wm        int64             // the watermark the operator is at
	forwarded int64             // the last watermark sent on

	// per batch, reused
	pkeys, skeys [][]byte
	pids         []int32
	enter        []int32 // rows of the batch kept since the last commit
	dropped      []bool  // by row: kept, then pushed out before a commit
	batchRef     []int32 // by row: its store id once committed
	ids          []int32
	ranks        []int64
	lastEnd      int64 // the window end whose closing time is lastFire
	lastFire     int64

	stats  Stats
	closed bool
}

// windowPartition is one partition of one window: its kept rows (in rank
// order; for a deduplication the one candidate) and when it closes.
type windowPartition struct {
	key    string
	rows   []kept
	fire   int64  // the watermark that closes it
	keyBuf []byte // the sort keys of its rows (TopN)
}

// NewWindowRank builds the running window rank of cfg (cfg.Window set),
// sending results to out.
func NewWindowRank(cfg Config, mem memory.Allocator, out pipeline.Operator) (*WindowRank, error) {
	if cfg.Window == nil {
		return nil, fmt.Errorf("window rank: no window columns")
	}
	schema, err := cfg.OutputSchema()
	if err != nil {
		return nil, err
	}
	r := &WindowRank{cfg: cfg, out: out, schema: schema, mem: mem, store: rowstore.New(cfg.keptSchema(), mem),
		local: rowtime.NewLocalTime(cfg.Window.Zone), index: map[string]int32{}, byFire: map[int64][]int32{},
		wm: rowtime.MinWatermark, forwarded: rowtime.MinWatermark, lastEnd: math.MinInt64}
	for _, k := range cfg.Partition {
		r.partKeys.keys = append(r.partKeys.keys, SortKey{Index: k})
	}
	if cfg.Mode == TopN {
		r.sortKeys.keys = cfg.Order
	}
	return r, nil
}

// Schema returns the schema of the batches the operator emits.
func (r *WindowRank) Schema() *arrow.Schema { return r.schema }

// Stats returns the operator's counters so far.
func (r *WindowRank) Stats() Stats { return r.stats }

// closing is the watermark that closes the window ending at end: its last
// millisecond, as an instant (Flink's toEpochMillsForTimer).
func (r *WindowRank) closing(end int64) int64 {
	if end != r.lastEnd {
		r.lastEnd, r.lastFire = end, r.local.ToEpochForTimer(end-1)
	}
	return r.lastFire
}

// ProcessBatch keeps the batch's rows in their windows. A batch whose
// rows carry their watermarks closes the windows a row's watermark passes
// before that row is kept.
func (r *WindowRank) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	r.stats.RowsIn += int64(n)
	r.pkeys = growKeys(r.pkeys, n)
	r.partKeys.encode(rec, r.pkeys)
	if r.cfg.Mode == TopN {
		r.skeys = growKeys(r.skeys, n)
		r.sortKeys.encode(rec, r.skeys)
	}
	ends := rec.Column(r.cfg.Window.End).(*array.Timestamp)
	var times *array.Timestamp
	if r.cfg.Mode != TopN {
		times = rec.Column(r.cfg.Rowtime).(*array.Timestamp)
	}
	r.pids = r.pids[:0]
	r.batchRef = growInt32(r.batchRef, n)
	r.dropped = growBool(r.dropped, n)
	for i := 0; i < n; i++ {
		if b.Watermarks != nil && b.Watermarks[i] > r.wm {
			if len(r.fires) > 0 && r.fires[0] <= b.Watermarks[i] {
				if err := r.commit(rec); err != nil {
					return err
				}
			}
			if err := r.advance(b.Watermarks[i]); err != nil {
				return err
			}
		}
		fire := int64(math.MaxInt64)
		if ends.IsValid(i) {
			fire = r.closing(int64(ends.Value(i)))
		}
		if fire <= r.wm {
			r.stats.LateRowsDropped++
			r.stats.Lateness.Add(r.wm - fire + 1) // as the window aggregation counts it
			r.pids = append(r.pids, -1)
			continue
		}
		pid := r.partition(r.pkeys[i], fire)
		r.pids = append(r.pids, pid)
		p := &r.parts[pid]
		ref := int32(-(i + 1))
		switch r.cfg.Mode {
		case TopN:
			r.offerTopN(p, kept{key: r.skeys[i], id: ref}, i)
		case FirstByTime:
			if ts := int64(times.Value(i)); len(p.rows) == 0 || ts < p.rows[0].ts {
				r.replace(p, kept{ts: ts, id: ref}, i)
			}
		case LastByTime:
			if ts := int64(times.Value(i)); len(p.rows) == 0 || ts >= p.rows[0].ts {
				r.replace(p, kept{ts: ts, id: ref}, i)
			}
		}
	}
	if err := r.commit(rec); err != nil {
		return err
	}
	return r.store.Compact()
}

// partition returns the pid of the window partition of key, begun now if
// new.
func (r *WindowRank) partition(key []byte, fire int64) int32 {
	if pid, ok := r.index[string(key)]; ok {
		return pid
	}
	var pid int32
	if n := len(r.free); n > 0 {
		pid, r.free = r.free[n-1], r.free[:n-1]
	} else {
		pid = int32(len(r.parts))
		r.parts = append(r.parts, windowPartition{})
	}
	p := &r.parts[pid]
	p.key, p.rows, p.fire = string(key), p.rows[:0], fire
	r.index[p.key] = pid
	r.begin(pid, fire)
	return pid
}

// offerTopN ranks row i (k) among the window partition's kept rows: it
// goes after the rows equal to it, and the row pushed past End leaves.
func (r *WindowRank) offerTopN(p *windowPartition, k kept, i int) {
	end := int(r.cfg.End)
	if len(p.rows) >= end && bytes.Compare(k.key, p.rows[end-1].key) >= 0 {
		return
	}
	pos := sort.Search(len(p.rows), func(j int) bool { return bytes.Compare(p.rows[j].key, k.key) > 0 })
	var buf []byte
	if len(p.rows) == end {
		// the last row leaves; its key buffer takes the new key
		buf = p.rows[end-1].key[:0]
		r.leave(p.rows[end-1].id)
		p.rows = p.rows[:end-1]
	}
	if cap(buf) >= len(k.key) {
		k.key = append(buf, k.key...)
	} else {
		// keys live in the partition's buffer, all dropped when it closes
		p.keyBuf = append(p.keyBuf, k.key...)
		n := len(p.keyBuf)
		k.key = p.keyBuf[n-len(k.key) : n : n]
	}
	p.rows = append(p.rows, kept{})
	copy(p.rows[pos+1:], p.rows[pos:])
	p.rows[pos] = k
	r.enter = append(r.enter, int32(i))
}

// replace makes row i (k) the deduplication's candidate.
func (r *WindowRank) replace(p *windowPartition, k kept, i int) {
	if len(p.rows) > 0 {
		r.leave(p.rows[0].id)
		p.rows[0] = k
	} else {
		p.rows = append(p.rows, k)
	}
	r.enter = append(r.enter, int32(i))
}

// leave forgets a kept row: a stored one now, a row of the batch at the
// next commit.
func (r *WindowRank) leave(ref int32) {
	if ref >= 0 {
		r.store.Remove(ref)
		return
	}
	r.dropped[-ref-1] = true
}

// commit stores the batch's rows kept since the last commit and gives the
// window partitions their store ids.
func (r *WindowRank) commit(rec arrow.RecordBatch) error {
	rows := r.enter[:0]
	for _, row := range r.enter {
		if !r.dropped[row] {
			rows = append(rows, row)
		}
	}
	r.enter = r.enter[:0]
	if len(rows) == 0 {
		return nil
	}
	cols := keptColumns(r.cfg, r.store, rec)
	ids, err := r.store.Add(cols, rows, r.ids[:0])
	if cols != rec {
		cols.Release()
	}
	if err != nil {
		return err
	}
	r.ids = ids
	for k, row := range rows {
		r.batchRef[row] = ids[k]
	}
	for _, row := range rows {
		p := &r.parts[r.pids[row]]
		for j := range p.rows {
			if id := p.rows[j].id; id < 0 {
				p.rows[j].id = r.batchRef[-id-1]
			}
		}
	}
	return nil
}

// advance moves to watermark wm and closes the windows it passes: each
// window partition's ranks go out, in the order the windows close.
func (r *WindowRank) advance(wm int64) error {
	if wm <= r.wm {
		return nil
	}
	r.wm = wm
	if len(r.fires) == 0 || r.fires[0] > wm {
		return nil
	}
	r.ids, r.ranks = r.ids[:0], r.ranks[:0]
	var closed [][]int32
	for len(r.fires) > 0 && r.fires[0] <= wm {
		fire := r.fires.pop()
		pids := r.byFire[fire]
		delete(r.byFire, fire)
		for _, pid := range pids {
			for j, k := range r.parts[pid].rows {
				if rank := int64(j + 1); rank >= r.cfg.Start || r.cfg.Mode != TopN {
					r.ids = append(r.ids, k.id)
					r.ranks = append(r.ranks, rank)
				}
			}
		}
		closed = append(closed, pids)
	}
	err := r.send()
	for _, pids := range closed {
		for _, pid := range pids {
			p := &r.parts[pid]
			for _, k := range p.rows {
				r.store.Remove(k.id)
			}
			delete(r.index, p.key)
			p.key, p.rows, p.keyBuf = "", p.rows[:0], p.keyBuf[:0]
			r.free = append(r.free, pid)
		}
	}
	if err != nil {
		return err
	}
	return r.store.Compact()
}

// send emits the rows r.ids with their ranks r.ranks.
func (r *WindowRank) send() error {
	n := len(r.ids)
	if n == 0 {
		return nil
	}
	rows, err := r.store.Gather(r.ids)
	if err != nil {
		return err
	}
	defer rows.Release()
	cols := make([]arrow.Array, 0, r.schema.NumFields())
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for _, c := range rows.Columns() {
		c.Retain()
		cols = append(cols, c)
	}
	if r.cfg.RankName != "" {
		b := array.NewInt64Builder(r.mem)
		b.AppendValues(r.ranks, nil)
		cols = append(cols, b.NewArray())
		b.Release()
	}
	r.stats.ResultRows += int64(n)
	out := array.NewRecordBatch(r.schema, cols, int64(n))
	defer out.Release()
	return r.out.ProcessBatch(pipeline.Batch{Record: out})
}

// ProcessWatermark closes the windows the watermark passes, then forwards
// it.
func (r *WindowRank) ProcessWatermark(wm int64) error {
	if err := r.advance(wm); err != nil {
		return err
	}
	if wm <= r.forwarded {
		return nil
	}
	r.forwarded = wm
	return r.out.ProcessWatermark(wm)
}

// ProcessEnd closes every window, as the watermark +∞.
func (r *WindowRank) ProcessEnd() error {
	if err := r.advance(rowtime.MaxWatermark); err != nil {
		return err
	}
	return r.out.ProcessEnd()
}

// Close releases the kept rows. It is idempotent.
func (r *WindowRank) Close() {
	if r.closed {
		return
	}
	r.closed = true
	r.store.Release()
}

var _ Operator = (*WindowRank)(nil)

// keptColumns is rec's columns a rank keeps, without a copy.
func keptColumns(cfg Config, store *rowstore.Store, rec arrow.RecordBatch) arrow.RecordBatch {
	if cfg.Output == nil {
		return rec
	}
	cols := make([]arrow.Array, len(cfg.Output))
	for i, c := range cfg.Output {
		cols[i] = rec.Column(c)
	}
	return array.NewRecordBatch(store.Schema(), cols, rec.NumRows())
}

func growInt32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// growBool returns n false values, reusing s.
func growBool(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// begin makes pid one of the partitions that close at fire.
func (r *WindowRank) begin(pid int32, fire int64) {
	pids, open := r.byFire[fire]
	if !open {
		r.fires.push(fire)
	}
	r.byFire[fire] = append(pids, pid)
}

// fireHeap is a min-heap of the closing times of the open windows.
type fireHeap []int64

func (h *fireHeap) push(v int64) {
	*h = append(*h, v)
	a := *h
	for i := len(a) - 1; i > 0; {
		parent := (i - 1) / 2
		if a[parent] <= a[i] {
			break
		}
		a[parent], a[i] = a[i], a[parent]
		i = parent
	}
}

func (h *fireHeap) pop() int64 {
	a := *h
	top := a[0]
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	for i := 0; ; {
		least, l, r := i, 2*i+1, 2*i+2
		if l < n && a[l] < a[least] {
			least = l
		}
		if r < n && a[r] < a[least] {
			least = r
		}
		if least == i {
			break
		}
		a[i], a[least] = a[least], a[i]
		i = least
	}
	*h = a
	return top
}
