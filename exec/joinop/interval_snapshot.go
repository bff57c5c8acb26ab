package joinop

import (
	"math"
	"slices"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/rowstore"
	"github.com/wsql/wsql/rowtime"
)

// SnapshotState writes the operator's time and each side's kept rows:
// the rows under their ids, then per row its time, arrival, key and
// whether it joined.
func (j *intervalJoin) SnapshotState(e *checkpoint.Encoder) error {
	e.Int(j.now)
	e.Int(j.forwarded)
	e.Int(j.stats.RowsIn)
	e.Int(j.stats.ResultRows)
	for _, s := range j.sides {
		e.Int(s.seq)
		if err := s.store.Save(e); err != nil {
			return err
		}
		rows := s.expiry.all()
		e.Uint(uint64(len(rows)))
		for _, r := range rows {
			e.Int(r.time)
			e.Int(r.seq)
			e.Int(int64(r.id))
			key := s.keyOf[r.id]
			e.Bool(key == nullKey)
			if key != nullKey {
				j.keys.save(e, key)
			}
			e.Bool(s.joined[r.id])
		}
	}
	return nil
}

// RestoreState reads what SnapshotState wrote into a fresh operator.
func (j *intervalJoin) RestoreState(d *checkpoint.Decoder) error {
	j.now = d.Int()
	j.forwarded = d.Int()
	j.stats.RowsIn = d.Int()
	j.stats.ResultRows = d.Int()
	for side, s := range j.sides {
		s.seq = d.Int()
		s.store.Release()
		s.store = rowstore.New(s.store.Schema(), j.mem)
		if err := s.store.Load(d); err != nil {
			return err
		}
		n := d.Len(4)
		rows := make([]expiryEntry, 0, n)
		keys := make([]int32, 0, n)
		for range n {
			r := expiryEntry{time: d.Int(), seq: d.Int(), id: int32(d.Int())}
			key := nullKey
			if !d.Bool() {
				key = j.keys.load(d)
				j.byKey.ensure(key)
			}
			joined := d.Bool()
			if d.Err() != nil {
				return d.Err()
			}
			if !s.store.Holds(r.id) || r.id == nullRow {
				d.Fail("interval join: row id %d is not kept", r.id)
				return d.Err()
			}
			s.grow(r.id)
			s.keyOf[r.id], s.joined[r.id] = key, joined
			rows = append(rows, r)
			keys = append(keys, key)
		}
		if len(rows) != s.store.Len()-1 {
			d.Fail("interval join: %d rows filed of %d kept", len(rows), s.store.Len()-1)
			return d.Err()
		}
		order := make([]int, len(rows))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int {
			if rows[a].less(rows[b]) {
				return -1
			}
			return 1
		})
		for _, i := range order {
			r := rows[i]
			j.keys.ref(keys[i])
			j.byKey.at(keys[i])[side].insert(r.time, r.id)
			s.expiry.push(r)
		}
	}
	j.next = math.MaxInt64
	for _, s := range j.sides {
		if s.expiry.len() > 0 {
			j.next = min(j.next, rowtime.AddSaturating(s.expiry.first().time, s.rel+1))
		}
	}
	j.cand.left, j.cand.right = j.sides[0].store, j.sides[1].store
	j.output.left, j.output.right = j.sides[0].store, j.sides[1].store
	return d.Err()
}
