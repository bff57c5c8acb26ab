package windowop

import (
	"fmt"
	"math"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
)

// snapshotVersion is the layout of the state SnapshotState writes.
const snapshotVersion = 1

// SnapshotState writes the operator's state to e: the watermarks, the
// counters, the keys, every slot's accumulators, the windows or sessions
// of each key with their slots, the pending timers and the emitted shadows
// of an update stream. It is called between batches, when no result is
// pending; RestoreState on an operator built from the same Config reads it
// back, after which both behave identically.
//
// The keys and timers are written as what they are (key values, a list of
// timers), not as the index structures that find them, so the layout does
// not change with those structures; slots keep their numbers.
func (op *WindowOperator) SnapshotState(e *checkpoint.Encoder) error {
	if op.pending != 0 {
		return fmt.Errorf("window operator: snapshot with %d results pending", op.pending)
	}
	e.Uint(snapshotVersion)
	e.Int(op.watermark)
	e.Int(op.forwarded)
	st := op.stats
	// the lateness histogram follows the five counters: a checkpoint of
	// five is one written before it was kept, and restores with none
	checkpoint.Ints(e, st.Lateness.encode([]int64{st.RowsIn, st.LateRowsDropped, st.LateForWindow, st.NoWindowRows, st.ResultRows}))

	saveSlotState(e, op.keys, &op.slots, op.accs)

	switch m := op.mode.(type) {
	case *paneMode:
		m.panes.grow(int(op.keys.n))
		for k := range m.panes.keys() {
			l := m.panes.of(uint32(k))
			e.Uint(uint64(len(l)))
			for _, ps := range l {
				e.Int(ps.pane)
				e.Int(int64(ps.slot))
			}
		}
		saveTimers(e, op.timers.(*alignedTimers).each)
	case *sessionMode:
		e.Uint(uint64(m.sets.Keys()))
		for k := range uint32(m.sets.Keys()) {
			l := m.sets.lists.list(k)
			e.Uint(uint64(len(l)))
			for _, mp := range l {
				saveWindow(e, mp.Window)
				e.Int(int64(mp.State))
				if m.timers != nil {
					e.Bool(m.timers.info[mp.State].fire)
				}
			}
		}
		if m.generic != nil {
			saveTimers(e, m.generic.each)
		}
	}

	saveWindowMap(e, op.shadow, func(s int32) int64 { return int64(s) })
	saveWindowMap(e, op.armed, func(t int64) int64 { return t })
	saveTimers(e, op.procTimers.each)
	return nil
}

// RestoreState reads what SnapshotState wrote into a freshly built
// operator of the same Config. State that does not fit the operator (a
// slot or key out of range, another aggregate layout) is an error wrapping
// checkpoint.ErrCorrupt, and the operator must then be discarded.
func (op *WindowOperator) RestoreState(d *checkpoint.Decoder) error {
	if op.keys.n != 0 || op.slots.n != 0 {
		return fmt.Errorf("window operator: restore into an operator that has state")
	}
	if v := d.Uint(); d.Err() == nil && v != snapshotVersion {
		d.Fail("window state version %d, expected %d", v, snapshotVersion)
	}
	op.watermark = d.Int()
	op.forwarded = d.Int()
	if st := checkpoint.ReadInts[int64](d); len(st) >= 5 && op.stats.Lateness.decode(st[5:]) {
		op.stats = Stats{RowsIn: st[0], LateRowsDropped: st[1], LateForWindow: st[2], NoWindowRows: st[3], ResultRows: st[4], Lateness: op.stats.Lateness}
	} else {
		d.Fail("window counters: %d values", len(st))
	}
	owners, err := loadSlotState(d, op.mem, op.keys, &op.slots, op.accs)
	if err != nil {
		return err
	}
	own := owners.own
	nkeys := op.keys.n

	switch m := op.mode.(type) {
	case *paneMode:
		m.panes.grow(int(nkeys))
		for k := range uint32(m.panes.keys()) {
			prev := int64(0)
			for i := range d.Len(2) {
				ps := paneSlot{pane: d.Int(), slot: d.Int32()}
				own(ps.slot)
				if i > 0 && ps.pane <= prev {
					d.Fail("panes of key %d out of order", k)
				}
				if d.Err() == nil && (WindowStart(ps.pane, m.offset, m.size) != ps.pane || len(m.windows(ps.pane).wins) == 0) {
					d.Fail("pane %d is not one of the window's", ps.pane)
				}
				if d.Err() != nil {
					return d.Err()
				}
				l := m.panes.lists.extend(k)
				l[len(l)-1] = ps
				prev = ps.pane
			}
			m.lastSlot = append(m.lastSlot, -1)
			m.lastPane = append(m.lastPane, 0)
		}
		restoreTimers(d, nkeys, op.timers.Register)
	case *sessionMode:
		if sets := d.Len(1); sets != int(nkeys) && d.Err() == nil {
			d.Fail("%d session sets for %d keys", sets, nkeys)
		}
		m.sets = MergingWindowSet{}
		m.sets.Grow(int(nkeys))
		for k := range nkeys {
			maps := make([]Mapping, d.Len(3))
			for i := range maps {
				maps[i] = Mapping{Window: readWindow(d), State: d.Int32()}
				own(maps[i].State)
				if w := maps[i].Window; w.End <= w.Start || (i > 0 && w.Start <= maps[i-1].Window.End) {
					d.Fail("sessions of key %d overlap or are empty", k)
				}
				fire := m.timers != nil && d.Bool()
				if d.Err() != nil {
					return d.Err()
				}
				if m.timers != nil {
					m.timers.restore(uint32(k), maps[i].State, maps[i].Window, fire)
				}
			}
			for _, mp := range maps {
				m.sets.Add(k, mp.Window, mp.State)
			}
		}
		if m.generic != nil {
			restoreTimers(d, nkeys, m.generic.Register)
		}
	}

	for range d.Len(3) {
		wk := windowKey{key: d.Uint32(), w: readWindow(d)}
		s := d.Int32()
		checkKey(d, wk.key, nkeys)
		own(s)
		op.shadow[wk] = s
	}
	owners.done()
	for range d.Len(3) {
		wk := windowKey{key: d.Uint32(), w: readWindow(d)}
		checkKey(d, wk.key, nkeys)
		op.armed[wk] = d.Int()
	}
	restoreTimers(d, nkeys, op.procTimers.Register)
	if d.Err() != nil {
		return d.Err()
	}
	op.meter.touchAll(op.slots.n) // every slot's contents came back
	op.nextTimer = math.MinInt64  // recomputed by the next advance
	if t, ok := op.timers.NextTime(); ok {
		op.nextTimer = t
	} else {
		op.nextTimer = math.MaxInt64
	}
	return nil
}

func saveWindow(e *checkpoint.Encoder, w Window) {
	e.Int(w.Start)
	e.Int(w.End)
}

func readWindow(d *checkpoint.Decoder) Window { return Window{Start: d.Int(), End: d.Int()} }

func saveTimers(e *checkpoint.Encoder, each func(func(Timer))) {
	var ts []Timer
	each(func(t Timer) { ts = append(ts, t) })
	e.Uint(uint64(len(ts)))
	for _, t := range ts {
		e.Int(t.Time)
		e.Uint(uint64(t.Key))
		saveWindow(e, t.Window)
	}
}

func restoreTimers(d *checkpoint.Decoder, nkeys uint32, register func(Timer)) {
	for range d.Len(4) {
		t := Timer{Time: d.Int(), Key: d.Uint32(), Window: readWindow(d)}
		checkKey(d, t.Key, nkeys)
		if d.Err() != nil {
			return
		}
		register(t)
	}
}

func checkSlot(d *checkpoint.Decoder, s int32, n int) {
	if s < 0 || int(s) >= n {
		d.Fail("slot %d out of range [0, %d)", s, n)
	}
}

func checkKey(d *checkpoint.Decoder, k, n uint32) {
	if k >= n {
		d.Fail("key %d out of range [0, %d)", k, n)
	}
}

// saveWindowMap writes a map by (key, window), in key and window order
// so that the same state gives the same bytes: each entry's key, window
// and value.
func saveWindowMap[V any](e *checkpoint.Encoder, m map[windowKey]V, value func(V) int64) {
	wks := make([]windowKey, 0, len(m))
	for wk := range m {
		wks = append(wks, wk)
	}
	sort.Slice(wks, func(i, j int) bool {
		a, b := wks[i], wks[j]
		if a.key != b.key {
			return a.key < b.key
		}
		return windowLess(a.w, b.w)
	})
	e.Uint(uint64(len(wks)))
	for _, wk := range wks {
		e.Uint(uint64(wk.key))
		saveWindow(e, wk.w)
		e.Int(value(m[wk]))
	}
}

// save writes the key values in id order.
func (t *keyTable) save(e *checkpoint.Encoder) {
	e.Uint(uint64(t.n))
	for _, c := range t.cols {
		switch c := c.(type) {
		case *stringKeys:
			e.Uint(uint64(len(c.vals)))
			for _, v := range c.vals {
				e.String(v)
			}
			e.Bools(c.valid)
		case *boolKeys:
			e.Bools(c.vals)
			e.Bools(c.valid)
		case *intKeys:
			checkpoint.Ints(e, c.vals)
			e.Bools(c.valid)
		case *decimalKeys:
			saveDecimals(e, c.vals)
			e.Bools(c.valid)
		}
	}
}

// load reads the key values save wrote into an empty table and interns
// them in id order, which gives every key its old id and rebuilds the
// lookup structures as the keys' first rows built them.
func (t *keyTable) load(d *checkpoint.Decoder, mem memory.Allocator) error {
	if len(t.cols) == 0 {
		n := d.Uint()
		if n > 1 {
			d.Fail("%d keys without key columns", n)
		}
		t.n = uint32(n)
		return d.Err()
	}
	n := uint32(d.Len(1)) // every key takes at least a byte of each column
	if d.Err() != nil {
		return d.Err()
	}
	arrays := make([]arrow.Array, 0, len(t.cols))
	defer func() {
		for _, a := range arrays {
			a.Release()
		}
	}()
	ids := make([]uint32, n)
	for i := range ids {
		ids[i] = uint32(i)
	}
	for _, c := range t.cols {
		var tmp keyColumn
		var count, valid int
		switch c := c.(type) {
		case *stringKeys:
			sk := &stringKeys{vals: make([]string, d.Len(1)), bytes: c.bytes} // a BYTES column restores as BYTES
			for i := range sk.vals {
				sk.vals[i] = d.String()
			}
			sk.valid = d.Bools()
			tmp, count, valid = sk, len(sk.vals), len(sk.valid)
		case *boolKeys:
			bk := &boolKeys{vals: d.Bools(), valid: d.Bools()}
			tmp, count, valid = bk, len(bk.vals), len(bk.valid)
		case *intKeys:
			ik := &intKeys{dt: c.dt, get: c.get, vals: checkpoint.ReadInts[int64](d), valid: d.Bools()}
			tmp, count, valid = ik, len(ik.vals), len(ik.valid)
		case *decimalKeys:
			dk := &decimalKeys{dt: c.dataType(), vals: make([]decimal128.Num, d.Len(2))}
			for i := range dk.vals {
				dk.vals[i] = loadDecimal(d)
			}
			dk.valid = d.Bools()
			tmp, count, valid = dk, len(dk.vals), len(dk.valid)
		}
		if d.Err() != nil {
			return d.Err()
		}
		if count != int(n) || valid != int(n) {
			d.Fail("key column with %d values for %d keys", count, n)
			return d.Err()
		}
		b := array.NewBuilder(mem, c.dataType())
		tmp.appendTo(ids, b)
		arrays = append(arrays, b.NewArray())
		b.Release()
	}
	t.intern(arrays, int(n), make([]uint32, n))
	if t.n != n {
		d.Fail("%d keys are %d distinct keys", n, t.n)
	}
	return d.Err()
}
