package joinop

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/wsql/wsql/checkpoint"
)

// temporalSnapshotVersion is the layout of the state the temporal join
// writes.
const temporalSnapshotVersion = 1

// SnapshotState writes the join's state between calls: the counters and
// the watermark, the keys under their numbers with their versions and
// timers, the waiting probe rows, then the rows of both stores.
func (t *temporalJoin) SnapshotState(e *checkpoint.Encoder) error {
	e.Uint(temporalSnapshotVersion)
	checkpoint.Ints(e, []int64{t.stats.RowsIn, t.stats.ResultRows, t.wm, t.seq, t.sent})
	checkpoint.Ints(e, t.keys.free)
	e.Uint(uint64(len(t.keys.names)))
	for id, name := range t.keys.names {
		ks := &t.keys.state[id]
		e.String(name)
		e.Int(ks.rightTimer)
		e.Uint(uint64(len(ks.versions)))
		for _, v := range ks.versions {
			e.Int(v.time)
			e.Int(int64(v.id))
			e.Bool(v.retract)
		}
	}
	probes := t.probes.all()
	e.Uint(uint64(len(probes)))
	for _, p := range probes {
		e.Int(p.time)
		e.Int(p.seq)
		e.Int(int64(p.id))
		e.Int(int64(p.key))
	}
	if err := t.left.Save(e); err != nil {
		return err
	}
	return t.right.Save(e)
}

// RestoreState reads what SnapshotState wrote into a fresh join of the
// same Config; state that does not fit is an error wrapping
// checkpoint.ErrCorrupt, and the join must then be discarded.
func (t *temporalJoin) RestoreState(d *checkpoint.Decoder) error {
	if len(t.keys.names) > 0 || t.probes.Len() > 0 || t.left.Len() > 0 || t.right.Len() > 0 {
		return fmt.Errorf("temporal join: restore into a join that has state")
	}
	if v := d.Uint(); d.Err() == nil && v != temporalSnapshotVersion {
		d.Fail("temporal join state version %d, expected %d", v, temporalSnapshotVersion)
	}
	st := checkpoint.ReadInts[int64](d)
	// a state of four counters is from before the watermark forwarded was
	// kept apart from the operator's time
	if d.Err() == nil && len(st) != 4 && len(st) != 5 {
		d.Fail("temporal join counters: %d values", len(st))
	}
	free := checkpoint.ReadInts[int32](d)
	n := d.Len(3)
	if d.Err() != nil {
		return d.Err()
	}
	t.stats.RowsIn, t.stats.ResultRows, t.wm, t.seq = st[0], st[1], st[2], st[3]
	t.sent = t.wm
	if len(st) == 5 {
		t.sent = st[4]
	}
	isFree := make([]bool, n)
	for _, id := range free {
		if id < 0 || int(id) >= n || isFree[id] {
			d.Fail("free key %d", id)
			return d.Err()
		}
		isFree[id] = true
	}
	x := &t.keys
	x.names = make([]string, n)
	x.state = make([]temporalKey, n)
	x.free = free
	for id := range n {
		name := d.String()
		ks := &x.state[id]
		ks.rightTimer = d.Int()
		ks.versions = make([]version, d.Len(3))
		for i := range ks.versions {
			v := version{time: d.Int(), id: d.Int32(), retract: d.Bool()}
			if i > 0 && v.time <= ks.versions[i-1].time {
				d.Fail("key %d: versions out of order", id)
			}
			ks.versions[i] = v
		}
		if d.Err() != nil {
			return d.Err()
		}
		if isFree[id] {
			if len(ks.versions) > 0 || ks.rightTimer != noTimer {
				d.Fail("free key %d has state", id)
			}
			continue
		}
		if _, dup := x.byKey[name]; dup {
			d.Fail("key %q twice", name)
			return d.Err()
		}
		x.names[id], x.byKey[name] = name, int32(id)
		if ks.rightTimer != noTimer {
			t.timers.push(probe{time: ks.rightTimer, key: int32(id)})
		}
	}
	probes := make([]probe, d.Len(4))
	for i := range probes {
		p := probe{time: d.Int(), seq: d.Int(), id: d.Int32(), key: d.Int32()}
		if p.key < -1 || int(p.key) >= n || p.key >= 0 && isFree[p.key] {
			d.Fail("probe row of key %d", p.key)
		}
		if d.Err() != nil {
			return d.Err()
		}
		if p.key >= 0 {
			x.state[p.key].probes++
		}
		probes[i] = p
	}
	slices.SortFunc(probes, func(a, b probe) int { return cmp.Or(cmp.Compare(a.time, b.time), cmp.Compare(a.seq, b.seq)) })
	for _, p := range probes {
		t.probes.push(p)
	}
	if err := t.left.Load(d); err != nil {
		return err
	}
	if err := t.right.Load(d); err != nil {
		return err
	}
	versions := 0
	for id := range x.state {
		versions += len(x.state[id].versions)
	}
	if t.left.Len() != len(probes) || t.right.Len() != versions {
		d.Fail("%d probe rows and %d versions, %d and %d rows kept", len(probes), versions, t.left.Len(), t.right.Len())
		return d.Err()
	}
	for _, p := range probes {
		if !t.left.Holds(p.id) {
			d.Fail("probe row %d is not kept", p.id)
			return d.Err()
		}
	}
	for id := range x.state {
		for _, v := range x.state[id].versions {
			if !t.right.Holds(v.id) {
				d.Fail("version row %d is not kept", v.id)
				return d.Err()
			}
		}
	}
	return d.Err()
}
