package rankop

import (
	"container/heap"
	"fmt"

	"github.com/wsql/wsql/checkpoint"
)

// snapshotVersion is the layout of the state SnapshotState writes.
const snapshotVersion = 1

// SnapshotState writes the operator's state to e between batches: the
// counters, the watermarks, the partitions (their keys in the order they
// came, so they keep their numbers) with their kept rows, and the kept
// rows themselves. RestoreState on an operator of the same Config reads
// it back, after which both behave identically.
func (r *Rank) SnapshotState(e *checkpoint.Encoder) error {
	if len(r.enter) > 0 || len(r.emits) > 0 || len(r.evicted) > 0 {
		return fmt.Errorf("rank: snapshot in the middle of a batch")
	}
	e.Uint(snapshotVersion)
	checkpoint.Ints(e, []int64{r.stats.RowsIn, r.stats.ResultRows, r.stats.LateRowsDropped, r.wm, r.forwarded, int64(r.seq), r.stats.StateExpired})
	keys := r.index.keys()
	if r.cfg.keepsLast() {
		r.snapshotLast(e, keys)
		return r.store.Save(e)
	}
	if r.fixedKeys {
		r.snapshotFixed(e, keys)
		return r.store.Save(e)
	}
	e.Uint(uint64(r.parts.len()))
	for pid := range int32(r.parts.len()) {
		p := r.parts.at(pid)
		e.String(keys[pid])
		e.Bool(p.done)
		e.Uint(uint64(len(p.rows)))
		for _, k := range p.rows {
			e.Bytes(k.key)
			e.Int(k.ts)
			e.Uint(0) // the arrival, no longer kept
			e.Int(int64(k.id))
		}
	}
	return r.store.Save(e)
}

// RestoreState reads what SnapshotState wrote into a fresh operator of
// the same Config. State that does not fit is an error wrapping
// checkpoint.ErrCorrupt; the operator must then be discarded.
func (r *Rank) RestoreState(d *checkpoint.Decoder) error {
	if r.parts.len() > 0 || r.last.len() > 0 || len(r.fixed) > 0 || r.store.Len() > 0 {
		return fmt.Errorf("rank: restore into an operator that has state")
	}
	if v := d.Uint(); d.Err() == nil && v != snapshotVersion {
		d.Fail("rank state version %d, expected %d", v, snapshotVersion)
	}
	st := checkpoint.ReadInts[int64](d)
	if d.Err() == nil && len(st) != 7 {
		d.Fail("rank counters: %d values", len(st))
	}
	if d.Err() != nil {
		return d.Err()
	}
	r.stats = Stats{RowsIn: st[0], ResultRows: st[1], LateRowsDropped: st[2], StateExpired: st[6]}
	r.wm, r.forwarded, r.seq = st[3], st[4], uint64(st[5])
	n := d.Len(3)
	var ids []int32
	for pid := 0; pid < n && d.Err() == nil; pid++ {
		key := d.String()
		p := partition{done: d.Bool()}
		rows := d.Len(4)
		for j := 0; j < rows && d.Err() == nil; j++ {
			k := kept{key: d.Bytes(), ts: d.Int()}
			d.Uint() // the arrival, no longer kept
			k.id = int32(d.Int())
			if r.cfg.Mode != TopN {
				k.key = nil
			}
			p.rows = append(p.rows, k)
			ids = append(ids, k.id)
		}
		if r.cfg.Mode == TopN && r.cfg.Type != RowNumber {
			r.recountTop(&p)
		}
		if err := r.index.restore(key); err != nil {
			d.Fail("rank partition %d: %v", pid, err)
			return d.Err()
		}
		if r.fixedKeys {
			var rows []fixedRow
			for _, k := range p.rows {
				if len(k.key) != 1 && len(k.key) != 9 {
					d.Fail("rank partition %d: a sort key of %d bytes", pid, len(k.key))
					return d.Err()
				}
				rows = append(rows, fixedKey(k.key, k.id))
			}
			r.fixed = append(r.fixed, rows)
			continue
		}
		if r.cfg.keepsLast() {
			r.last.grow(pid + 1)
			if len(p.rows) > 0 {
				*r.last.at(int32(pid)) = lastRow{ts: p.rows[0].ts, id: p.rows[0].id, set: true}
			}
			continue
		}
		r.parts.grow(pid + 1)
		*r.parts.at(int32(pid)) = p
		if r.cfg.Mode == FirstByTime && !p.done && len(p.rows) > 0 {
			heap.Push(&r.due, due{ts: p.rows[0].ts, pid: int32(pid)})
		}
	}
	if d.Err() != nil {
		return d.Err()
	}
	if err := r.store.Load(d); err != nil {
		return err
	}
	if len(ids) != r.store.Len() {
		d.Fail("%d kept rows for %d stored", len(ids), r.store.Len())
		return d.Err()
	}
	for _, id := range ids {
		if !r.store.Holds(id) {
			d.Fail("kept row %d is not stored", id)
			return d.Err()
		}
	}
	return d.Err()
}

// snapshotLast writes a deduplication's partitions as SnapshotState
// writes partitions, each with its one kept row or none.
func (r *Rank) snapshotLast(e *checkpoint.Encoder, keys []string) {
	e.Uint(uint64(r.last.len()))
	for pid := range int32(r.last.len()) {
		k := r.last.at(pid)
		e.String(keys[pid])
		e.Bool(false)
		if !k.set {
			e.Uint(0)
			continue
		}
		e.Uint(1)
		e.Bytes(nil)
		e.Int(k.ts)
		e.Uint(0)
		e.Int(int64(k.id))
	}
}

// snapshotFixed writes a Top-N's fixedRows as SnapshotState writes
// partitions, their keys encoded.
func (r *Rank) snapshotFixed(e *checkpoint.Encoder, keys []string) {
	mark := r.cfg.nullMark()
	e.Uint(uint64(len(r.fixed)))
	for pid, rows := range r.fixed {
		e.String(keys[pid])
		e.Bool(false)
		e.Uint(uint64(len(rows)))
		for _, k := range rows {
			e.Bytes(k.encoded(mark))
			e.Int(0)
			e.Uint(0)
			e.Int(int64(k.id))
		}
	}
}
