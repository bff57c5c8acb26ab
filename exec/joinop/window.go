package joinop

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/rowstore"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// windowJoin is Flink's WindowJoinOperator: both inputs are window table
// function results (or aggregations over them), and each side keeps its
// rows per window and join key until the watermark reaches the window's
// end - 1; then the window fires: per key, its left and right rows join
// (the Residual TRUE), with Flink's padding for the outer kinds, SEMI's
// left rows with a match and ANTI's without, and the window's rows go.
//
// A row whose window has fired (window_end - 1 <= the watermark it came
// under) is late: dropped and counted in LateRows (Flink's
// numLateRecordsDropped). Rows join within one window: equal window_end
// and window_start.
//
// A firing emits windows by end, then start; a window's keys in the
// order their first row came; per key as Flink's join of the two lists:
// INNER, LEFT, FULL and SEMI/ANTI go through the left rows in arrival
// order, each with its matches among the right rows in arrival order
// (a LEFT or FULL left row without one padded right after), FULL then
// pads the right rows nothing matched; RIGHT goes through the right rows,
// each with its matching left rows, padded when there is none. A key with
// a NULL that matches nothing (not IS NOT DISTINCT FROM) is kept and
// padded like any key, and matches nothing. The watermark goes on after
// the rows it fired.
type windowJoin struct {
	cfg      Config
	mem      memory.Allocator
	out      pipeline.Operator
	keys     *keyIndex
	sides    [2]*windowSide
	windows  map[windowBounds]int32 // open windows' slots
	wins     []windowSlot
	freeWin  []int32
	groupsOf [][]keyGroup // by key id: its groups, one per open window it is in
	gs       []joinGroup
	freeGrp  []int32
	now      int64 // the last watermark
	stats    Stats
	closed   bool

	// a firing's, reused
	cand     *pairs
	output   *pairs
	units    []fireUnit
	pend     []pendGroup
	rIDs     []int32 // right rows of pending FULL groups
	rMatched []bool
	lRows    []int32
	rRows    []int32
	fired    []int32
	gone     [2][]int32
	// a batch's, reused
	lastWin windowBounds
	lastID  int32
}

type windowBounds struct{ end, start int64 }

// windowSlot is an open window: its keys' groups in order of first
// arrival.
type windowSlot struct {
	bounds windowBounds
	groups []int32
}

// keyGroup is a key's group in a window. A key is in few open windows
// (one for tumbling windows), so its groups are found by a scan: a map
// of (window, key) was a third of a window join's CPU.
type keyGroup struct{ win, group int32 }

// joinGroup is a window's rows of one key, each side a list linked
// through windowSide.next in arrival order.
type joinGroup struct {
	key         int32
	noMatch     bool // its key holds a NULL that matches nothing
	first, last [2]int32
	n           [2]int32
}

type windowSide struct {
	store      *rowstore.Store
	keys       keyColumns
	start, end int
	next       []int32 // by row id: the next row of its group, -1 last
	kept, ids  []int32 // per batch
}

func newWindowJoin(cfg Config, mem memory.Allocator, out pipeline.Operator) (Operator, error) {
	if err := appendOnly(cfg, "a window"); err != nil {
		return nil, err
	}
	win := cfg.Window
	for _, c := range []struct {
		s *arrow.Schema
		i int
	}{{cfg.Left, win.LeftStart}, {cfg.Left, win.LeftEnd}, {cfg.Right, win.RightStart}, {cfg.Right, win.RightEnd}} {
		if c.i < 0 || c.i >= c.s.NumFields() || !rowtime.IsRowtimeType(c.s.Field(c.i).Type) {
			return nil, fmt.Errorf("window join bound column %d is not a TIMESTAMP(3) of its input", c.i)
		}
	}
	w := &windowJoin{cfg: cfg, mem: mem, out: out, windows: map[windowBounds]int32{},
		now: rowtime.MinWatermark, lastID: -1}
	var err error
	if w.sides[0], err = newWindowSide(cfg.Left, win.LeftStart, win.LeftEnd, cfg.LeftKeys, cfg.NullSafe, mem); err != nil {
		return nil, err
	}
	if w.sides[1], err = newWindowSide(cfg.Right, win.RightStart, win.RightEnd, cfg.RightKeys, cfg.NullSafe, mem); err != nil {
		w.Close()
		return nil, err
	}
	if w.cand, err = newPairs(cfg, mem, w.sides[0].store, w.sides[1].store); err != nil {
		w.Close()
		return nil, err
	}
	w.keys = newKeyIndex(w.sides[0].keys.intKey)
	w.output = &pairs{mem: mem, left: w.sides[0].store, right: w.sides[1].store, joined: w.cand.joined, out: w.cand.out}
	return w, nil
}

func newWindowSide(schema *arrow.Schema, start, end int, keys []int, nullSafe []bool, mem memory.Allocator) (*windowSide, error) {
	kc, err := newKeyColumns(schema, keys, nullSafe)
	if err != nil {
		return nil, err
	}
	st, err := newSideStore(schema, mem)
	if err != nil {
		return nil, err
	}
	return &windowSide{store: st, keys: kc, start: start, end: end, next: []int32{-1}}, nil
}

func (w *windowJoin) Schema() *arrow.Schema { return w.cand.out }
func (w *windowJoin) Stats() Stats          { return w.stats }

func (w *windowJoin) ProcessBatch(b pipeline.Batch) error {
	return fmt.Errorf("window join: rows come through ProcessInput")
}

// ProcessInput keeps a batch's rows in their windows' groups, dropping
// the late ones.
func (w *windowJoin) ProcessInput(input int, b pipeline.Batch) error {
	if input != 0 && input != 1 {
		return fmt.Errorf("join: no input %d", input)
	}
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	w.stats.RowsIn += int64(n)
	s := w.sides[input]
	starts, err := rowtime.Millis(rec.Column(s.start))
	if err != nil {
		return err
	}
	ends, err := rowtime.Millis(rec.Column(s.end))
	if err != nil {
		return err
	}
	s.kept = s.kept[:0]
	wm := w.now
	for i := range n {
		if b.Watermarks != nil {
			wm = max(wm, b.Watermarks[i])
		}
		if wm != rowtime.MinWatermark && ends[i]-1 <= wm {
			w.stats.LateRows++
			continue
		}
		s.kept = append(s.kept, int32(i))
	}
	if len(s.kept) == 0 {
		return nil
	}
	s.keys.encode(rec)
	if s.ids, err = s.store.Add(rec, s.kept, s.ids[:0]); err != nil {
		return err
	}
	w.lastID = -1 // window slots may have been reused since the last batch
	if top := int(slices.Max(s.ids)); top >= len(s.next) {
		s.next = slices.Grow(s.next, top+1-len(s.next))[:top+1]
	}
	for k, i := range s.kept {
		id := s.ids[k]
		s.next[id] = -1
		win := w.window(windowBounds{end: ends[i], start: starts[i]})
		key := w.keys.add(&s.keys, int(i))
		g := w.group(win, key, s.keys.null[i])
		grp := &w.gs[g]
		if grp.n[input] == 0 {
			grp.first[input] = id
		} else {
			s.next[grp.last[input]] = id
		}
		grp.last[input] = id
		grp.n[input]++
	}
	return nil
}

// window is the slot of the open window b, opened when new.
func (w *windowJoin) window(b windowBounds) int32 {
	if w.lastID >= 0 && w.lastWin == b {
		return w.lastID
	}
	id, ok := w.windows[b]
	if !ok {
		if n := len(w.freeWin); n > 0 {
			id = w.freeWin[n-1]
			w.freeWin = w.freeWin[:n-1]
			w.wins[id] = windowSlot{bounds: b, groups: w.wins[id].groups[:0]}
		} else {
			id = int32(len(w.wins))
			w.wins = append(w.wins, windowSlot{bounds: b})
		}
		w.windows[b] = id
	}
	w.lastWin, w.lastID = b, id
	return id
}

// group is the group of key in window win, made when new.
func (w *windowJoin) group(win, key int32, noMatch bool) int32 {
	for int(key) >= len(w.groupsOf) {
		w.groupsOf = append(w.groupsOf, nil)
	}
	for _, kg := range w.groupsOf[key] {
		if kg.win == win {
			return kg.group
		}
	}
	g := joinGroup{key: key, noMatch: noMatch}
	var id int32
	if n := len(w.freeGrp); n > 0 {
		id = w.freeGrp[n-1]
		w.freeGrp = w.freeGrp[:n-1]
		w.gs[id] = g
	} else {
		id = int32(len(w.gs))
		w.gs = append(w.gs, g)
	}
	w.groupsOf[key] = append(w.groupsOf[key], keyGroup{win: win, group: id})
	w.wins[win].groups = append(w.wins[win].groups, id)
	w.keys.ref(key)
	return id
}

// dropGroup forgets group g of window win.
func (w *windowJoin) dropGroup(win, g int32) {
	key := w.gs[g].key
	kgs := w.groupsOf[key]
	for i, kg := range kgs {
		if kg.win == win {
			kgs = append(kgs[:i], kgs[i+1:]...)
			break
		}
	}
	w.groupsOf[key] = kgs
	w.keys.unref(key)
	w.freeGrp = append(w.freeGrp, g)
}

// ProcessWatermark fires the windows whose end - 1 the watermark reached,
// then forwards it.
func (w *windowJoin) ProcessWatermark(wm int64) error {
	if wm <= w.now {
		return nil
	}
	w.now = wm
	if err := w.fire(wm); err != nil {
		return err
	}
	return w.out.ProcessWatermark(wm)
}

// ProcessEnd fires every open window, then ends.
func (w *windowJoin) ProcessEnd() error {
	if err := w.fire(rowtime.MaxWatermark); err != nil {
		return err
	}
	return w.out.ProcessEnd()
}

// fire joins and drops the windows with end - 1 <= wm, in order.
func (w *windowJoin) fire(wm int64) error {
	w.fired = w.fired[:0]
	for b, id := range w.windows {
		if b.end-1 <= wm {
			w.fired = append(w.fired, id)
		}
	}
	if len(w.fired) == 0 {
		return nil
	}
	slices.SortFunc(w.fired, func(a, b int32) int {
		x, y := w.wins[a].bounds, w.wins[b].bounds
		return cmp.Or(cmp.Compare(x.end, y.end), cmp.Compare(x.start, y.start))
	})
	w.resetFiring()
	for _, win := range w.fired {
		for _, g := range w.wins[win].groups {
			if err := w.joinGroup(g); err != nil {
				return err
			}
		}
	}
	if err := w.flush(); err != nil {
		return err
	}
	// the fired windows' rows go once their output is out, a window at a
	// time: the list of one window's ids is reused for the next (the lists
	// of all of Nexmark q5's windows at once were 3M ids, grown from
	// nothing at the end of the input)
	for _, win := range w.fired {
		slot := &w.wins[win]
		for _, g := range slot.groups {
			grp := w.gs[g]
			for side, s := range w.sides {
				for id, k := grp.first[side], grp.n[side]; k > 0; id, k = s.next[id], k-1 {
					w.gone[side] = append(w.gone[side], id)
				}
			}
			w.dropGroup(win, g)
		}
		delete(w.windows, slot.bounds)
		slot.groups = slot.groups[:0]
		w.freeWin = append(w.freeWin, win)
		for side, s := range w.sides {
			s.store.RemoveAll(w.gone[side])
			w.gone[side] = w.gone[side][:0]
		}
	}
	w.lastID = -1
	for _, s := range w.sides {
		if err := s.store.Compact(); err != nil {
			return err
		}
	}
	return nil
}

func (w *windowJoin) Close() {
	if w.closed {
		return
	}
	w.closed = true
	for _, s := range w.sides {
		if s != nil {
			s.store.Release()
		}
	}
}
