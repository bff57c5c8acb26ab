package joinop

import (
	"cmp"
	"slices"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/rowstore"
)

// SnapshotState writes the watermark, each side's kept rows under their
// ids, then the open windows: per window its bounds and its keys' groups
// in order, each group's key and rows in arrival order.
func (w *windowJoin) SnapshotState(e *checkpoint.Encoder) error {
	e.Int(w.now)
	e.Int(w.stats.RowsIn)
	e.Int(w.stats.ResultRows)
	e.Int(w.stats.LateRows)
	for _, s := range w.sides {
		if err := s.store.Save(e); err != nil {
			return err
		}
	}
	open := make([]int32, 0, len(w.windows))
	for _, id := range w.windows {
		open = append(open, id)
	}
	slices.SortFunc(open, func(a, b int32) int {
		x, y := w.wins[a].bounds, w.wins[b].bounds
		return cmp.Or(cmp.Compare(x.end, y.end), cmp.Compare(x.start, y.start))
	})
	e.Uint(uint64(len(open)))
	var ids []int32
	for _, win := range open {
		slot := w.wins[win]
		e.Int(slot.bounds.start)
		e.Int(slot.bounds.end)
		e.Uint(uint64(len(slot.groups)))
		for _, g := range slot.groups {
			grp := w.gs[g]
			w.keys.save(e, grp.key)
			e.Bool(grp.noMatch)
			for side := range w.sides {
				ids = w.list(side, grp, ids[:0])
				checkpoint.Ints(e, ids)
			}
		}
	}
	return nil
}

// RestoreState reads what SnapshotState wrote into a fresh operator.
func (w *windowJoin) RestoreState(d *checkpoint.Decoder) error {
	w.now = d.Int()
	w.stats.RowsIn = d.Int()
	w.stats.ResultRows = d.Int()
	w.stats.LateRows = d.Int()
	for _, s := range w.sides {
		s.store.Release()
		s.store = rowstore.New(s.store.Schema(), w.mem)
		if err := s.store.Load(d); err != nil {
			return err
		}
	}
	w.cand.left, w.cand.right = w.sides[0].store, w.sides[1].store
	w.output.left, w.output.right = w.sides[0].store, w.sides[1].store
	filed := [2]int{}
	nw := d.Len(3)
	for range nw {
		b := windowBounds{start: d.Int()}
		b.end = d.Int()
		if _, dup := w.windows[b]; dup {
			d.Fail("window join: window [%d, %d) twice", b.start, b.end)
		}
		win := w.window(b)
		ng := d.Len(3)
		for range ng {
			key := w.keys.load(d)
			before := len(w.wins[win].groups)
			g := w.group(win, key, d.Bool())
			if d.Err() != nil {
				return d.Err()
			}
			if len(w.wins[win].groups) == before {
				d.Fail("window join: a key twice in a window")
				return d.Err()
			}
			for side, s := range w.sides {
				for _, id := range checkpoint.ReadInts[int32](d) {
					if d.Err() != nil {
						return d.Err()
					}
					if id == nullRow || !s.store.Holds(id) {
						d.Fail("window join: row id %d is not kept", id)
						return d.Err()
					}
					for int(id) >= len(s.next) {
						s.next = append(s.next, -1)
					}
					grp := &w.gs[g]
					s.next[id] = -1
					if grp.n[side] == 0 {
						grp.first[side] = id
					} else {
						s.next[grp.last[side]] = id
					}
					grp.last[side] = id
					grp.n[side]++
					filed[side]++
				}
			}
		}
	}
	w.lastID = -1
	for side, s := range w.sides {
		if d.Err() == nil && filed[side] != s.store.Len()-1 {
			d.Fail("window join: %d rows filed of %d kept", filed[side], s.store.Len()-1)
		}
	}
	return d.Err()
}
