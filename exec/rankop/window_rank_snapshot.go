package rankop

import (
	"fmt"
	"sort"

	"github.com/wsql/wsql/checkpoint"
)

// windowSnapshotVersion is the layout of the state WindowRank writes.
const windowSnapshotVersion = 1

// SnapshotState writes the operator's state to e between batches: the
// counters (with the late rows' lateness) and watermarks, the open window partitions in the order they
// close, with their kept rows, and the kept rows themselves.
func (r *WindowRank) SnapshotState(e *checkpoint.Encoder) error {
	if len(r.enter) > 0 {
		return fmt.Errorf("window rank: snapshot in the middle of a batch")
	}
	e.Uint(windowSnapshotVersion)
	checkpoint.Ints(e, []int64{r.stats.RowsIn, r.stats.ResultRows, r.stats.LateRowsDropped, r.wm, r.forwarded})
	checkpoint.Ints(e, append([]int64{r.stats.Lateness.Max}, r.stats.Lateness.Buckets[:]...))
	fires := append([]int64(nil), r.fires...)
	sort.Slice(fires, func(i, j int) bool { return fires[i] < fires[j] })
	var open []int32
	for _, f := range fires {
		open = append(open, r.byFire[f]...)
	}
	e.Uint(uint64(len(open)))
	for _, pid := range open {
		p := r.parts[pid]
		e.String(p.key)
		e.Int(p.fire)
		e.Uint(uint64(len(p.rows)))
		for _, k := range p.rows {
			e.Bytes(k.key)
			e.Int(k.ts)
			e.Int(int64(k.id))
		}
	}
	return r.store.Save(e)
}

// RestoreState reads what SnapshotState wrote into a fresh operator of
// the same Config. State that does not fit is an error wrapping
// checkpoint.ErrCorrupt; the operator must then be discarded.
func (r *WindowRank) RestoreState(d *checkpoint.Decoder) error {
	if len(r.parts) > 0 || r.store.Len() > 0 {
		return fmt.Errorf("window rank: restore into an operator that has state")
	}
	if v := d.Uint(); d.Err() == nil && v != windowSnapshotVersion {
		d.Fail("window rank state version %d, expected %d", v, windowSnapshotVersion)
	}
	st := checkpoint.ReadInts[int64](d)
	if d.Err() == nil && len(st) != 5 {
		d.Fail("window rank counters: %d values", len(st))
	}
	late := checkpoint.ReadInts[int64](d)
	if d.Err() == nil && len(late) != 1+len(r.stats.Lateness.Buckets) {
		d.Fail("window rank lateness: %d values", len(late))
	}
	if d.Err() != nil {
		return d.Err()
	}
	r.stats = Stats{RowsIn: st[0], ResultRows: st[1], LateRowsDropped: st[2]}
	r.stats.Lateness.Max = late[0]
	copy(r.stats.Lateness.Buckets[:], late[1:])
	r.wm, r.forwarded = st[3], st[4]
	n := d.Len(3)
	var ids []int32
	for pid := 0; pid < n && d.Err() == nil; pid++ {
		p := windowPartition{key: d.String(), fire: d.Int()}
		rows := d.Len(3)
		for j := 0; j < rows && d.Err() == nil; j++ {
			k := kept{key: d.Bytes(), ts: d.Int(), id: int32(d.Int())}
			if r.cfg.Mode != TopN {
				k.key = nil
			}
			p.rows = append(p.rows, k)
			ids = append(ids, k.id)
		}
		if _, dup := r.index[p.key]; dup && d.Err() == nil {
			d.Fail("window partition stored twice")
		}
		r.index[p.key] = int32(pid)
		r.parts = append(r.parts, p)
		r.begin(int32(pid), p.fire)
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
