package setop

import (
	"fmt"

	"github.com/wsql/wsql/checkpoint"
)

// snapshotVersion is the layout of the state SnapshotState writes.
const snapshotVersion = 1

// SnapshotState writes the counters, the last watermark sent on and, for each distinct row in the
// order it first came, its key and its left and right counts.
func (o *Operator) SnapshotState(e *checkpoint.Encoder) error {
	e.Uint(snapshotVersion)
	checkpoint.Ints(e, []int64{o.stats.RowsIn, o.stats.ResultRows, o.forwarded})
	e.Uint(uint64(len(o.order)))
	for id, key := range o.order {
		e.String(key)
		e.Int(o.counts[id][0])
		e.Int(o.counts[id][1])
	}
	return nil
}

// RestoreState reads what SnapshotState wrote into a fresh operator of
// the same Config. State that does not fit is an error wrapping
// checkpoint.ErrCorrupt.
func (o *Operator) RestoreState(d *checkpoint.Decoder) error {
	if len(o.order) > 0 {
		return fmt.Errorf("set operation: restore into an operator that has state")
	}
	if v := d.Uint(); d.Err() == nil && v != snapshotVersion {
		d.Fail("set operation state version %d, expected %d", v, snapshotVersion)
	}
	st := checkpoint.ReadInts[int64](d)
	if d.Err() == nil && len(st) != 3 {
		d.Fail("set operation counters: %d values", len(st))
	}
	if d.Err() != nil {
		return d.Err()
	}
	o.stats, o.forwarded = Stats{RowsIn: st[0], ResultRows: st[1]}, st[2]
	n := d.Len(3)
	for id := 0; id < n && d.Err() == nil; id++ {
		key := d.String()
		l, r := d.Int(), d.Int()
		if _, dup := o.index[key]; dup || l < 0 || r < 0 {
			d.Fail("set operation row %d: a repeated key or a negative count", id)
			break
		}
		o.index[key] = int32(id)
		o.order = append(o.order, key)
		o.counts = append(o.counts, [2]int64{l, r})
	}
	return d.Err()
}
