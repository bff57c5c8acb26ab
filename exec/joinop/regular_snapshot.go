package joinop

import (
	"github.com/wsql/wsql/checkpoint"
)

// regularSnapshotVersion is the layout of a regular join's checkpoint:
// 2 adds the rows logged and whether a side's residual rows are kept
// (version 1 has no rows logged and keeps every side's).
const regularSnapshotVersion = 2

// SnapshotState writes both inputs' kept rows (row stores, each with
// whether its residual rows are kept and then those), then each key
// with a row, its key and each side's entries in their order (row id,
// copies, matches, last write; an update stream's entry its encoded row),
// then each side's logged rows in their order (row id, key), then the
// watermark forwarded and the last TTL sweep.
func (j *regularJoin) SnapshotState(e *checkpoint.Encoder) error {
	e.Uint(regularSnapshotVersion)
	for _, s := range j.sides {
		if err := s.store.Save(e); err != nil {
			return err
		}
		e.Bool(s.residual != nil)
		if s.residual != nil {
			if err := s.residual.store.Save(e); err != nil {
				return err
			}
		}
	}
	var groups []int32
	for g := int32(1); g < j.keys.groups; g++ {
		if j.keys.inUse[g] && (j.sides[0].head[g] >= 0 || j.sides[1].head[g] >= 0) {
			groups = append(groups, g)
		}
	}
	j.saveEntries(e, 0)
	e.Uint(uint64(len(groups)))
	for _, g := range groups {
		switch {
		case g == j.keys.nullGroup:
			e.Uint(0)
		case j.keys.strTyped:
			e.Uint(1)
			e.String(j.keys.strKeys[g])
		case j.keys.typed:
			e.Uint(1)
			e.Int(j.keys.intKeys[g])
		default:
			e.Uint(1)
			e.String(j.keys.strKeys[g])
		}
		j.saveEntries(e, g)
	}
	for _, s := range j.sides {
		e.Uint(uint64(s.log.live))
		s.log.each(func(_ int, key int64, id int32) {
			e.Uint(uint64(id))
			e.Int(key)
		})
	}
	e.Int(j.forwarded)
	e.Int(j.lastSweep)
	e.Int(j.stats.ExpiredRows)
	return nil
}

func (j *regularJoin) saveEntries(e *checkpoint.Encoder, g int32) {
	for _, s := range j.sides {
		head := int32(-1) // a join that has seen no row has no groups yet
		if int(g) < len(s.head) {
			head = s.head[g]
		}
		n := 0
		for x := head; x >= 0; x = s.at(x).next {
			n++
		}
		e.Uint(uint64(n))
		for x := head; x >= 0; x = s.at(x).next {
			e.Uint(uint64(s.at(x).id))
			e.Uint(uint64(s.count(x)))
			e.Int(s.assocOf(x))
			e.Int(s.writtenAt(x))
			if s.update {
				e.String(s.identKey[x])
			}
		}
	}
}

// RestoreState reads what SnapshotState wrote into a fresh join.
func (j *regularJoin) RestoreState(d *checkpoint.Decoder) error {
	version := d.Uint()
	if d.Err() == nil && version != 1 && version != regularSnapshotVersion {
		d.Fail("regular join checkpoint version %d", version)
	}
	for _, s := range j.sides {
		if d.Err() != nil {
			return d.Err()
		}
		if err := s.store.Load(d); err != nil {
			return err
		}
		kept := version == 1 || d.Bool()
		if kept && s.deferred != nil {
			s.deferred, s.residual, s.residualCols = nil, s.deferred, nil
		}
		if kept != (s.residual != nil) {
			d.Fail("join residual rows kept %t, the join's %t", kept, s.residual != nil)
			return d.Err()
		}
		if s.residual != nil {
			if err := s.residual.store.Load(d); err != nil {
				return err
			}
		}
	}
	j.loadEntries(d, 0)
	n := d.Len(2)
	for range n {
		if d.Err() != nil {
			break
		}
		var g int32
		switch tag := d.Uint(); {
		case tag == 0 && j.keys.typed && j.keys.isNullSafe(0) && j.keys.nullGroup == 0:
			g = j.keys.add()
			j.keys.nullGroup = g
		case tag == 1 && j.keys.strTyped:
			k := d.String()
			if _, dup := j.keys.strIndex.Get(k); dup {
				d.Fail("join key %q twice", k)
				return d.Err()
			}
			g = j.keys.addString(k)
		case tag == 1 && j.keys.typed:
			v := d.Int()
			if _, dup := j.keys.ints[v]; dup {
				d.Fail("join key %d twice", v)
				return d.Err()
			}
			g = j.keys.addInt(v)
		case tag == 1:
			k := d.String()
			if _, dup := j.keys.strs[k]; dup {
				d.Fail("join key %q twice", k)
				return d.Err()
			}
			g = j.keys.add()
			j.keys.strs[k] = g
			j.keys.strKeys[g] = k
		default:
			d.Fail("join key tag %d", tag)
			return d.Err()
		}
		j.sides[0].growGroups(j.keys.groups)
		j.sides[1].growGroups(j.keys.groups)
		j.loadEntries(d, g)
	}
	j.keys.fresh = j.keys.fresh[:0]
	if version >= 2 {
		j.loadLog(d)
	}
	j.forwarded = d.Int()
	j.lastSweep = d.Int()
	j.stats.ExpiredRows = d.Int()
	return d.Err()
}

func (j *regularJoin) loadEntries(d *checkpoint.Decoder, g int32) {
	j.sides[0].growGroups(j.keys.groups)
	j.sides[1].growGroups(j.keys.groups)
	for _, s := range j.sides {
		n := d.Len(4)
		for range n {
			id, count, assoc, written := d.Uint(), d.Uint(), d.Int(), d.Int()
			var key string
			if s.update {
				key = d.String()
			}
			if d.Err() != nil {
				return
			}
			if id >= 1<<31 || !s.store.Holds(int32(id)) || s.residual != nil && !s.residual.store.Holds(int32(id)) ||
				count == 0 || count >= 1<<31 || !s.update && count != 1 {
				d.Fail("join row %d (%d copies)", id, count)
				return
			}
			if s.update {
				if _, dup := s.idents[key]; dup {
					d.Fail("join row %d kept twice", id)
					return
				}
			}
			e := s.newEntry(g, -1, assoc, written)
			s.at(e).id = int32(id)
			if s.update {
				*s.copies.at(e) = int32(count)
			}
			if s.update {
				s.setIdent(e, []byte(key))
			}
		}
		s.pending, s.pendEnt = s.pending[:0], s.pendEnt[:0]
	}
}

func (j *regularJoin) loadLog(d *checkpoint.Decoder) {
	for _, s := range j.sides {
		n := d.Len(2)
		if n > 0 && !s.log.on {
			d.Fail("join rows logged by a side that does not log")
			return
		}
		for range n {
			id, key := d.Uint(), d.Int()
			if d.Err() != nil {
				return
			}
			if id >= 1<<31 || !s.store.Holds(int32(id)) || s.residual != nil && !s.residual.store.Holds(int32(id)) {
				d.Fail("join row %d logged", id)
				return
			}
			s.log.append(key, int32(id))
		}
	}
}
