package joinop

import (
	"cmp"
	"slices"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/rowstore"
	"github.com/wsql/wsql/rowtime"
)

// SnapshotState writes the operator's time and each side's kept rows:
// the rows under their ids, then per row in arrival order its time, its
// place in that order, key and whether it joined. Rows of a page in the
// store that already expired are among them: their time tells so.
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
		e.Uint(uint64(s.rows.inRows))
		seq := int64(0)
		s.rows.inStoreRows(func(t int64, id, key int32, v int64) {
			e.Int(t)
			e.Int(seq)
			seq++
			e.Int(int64(id))
			e.Bool(key == nullKey)
			switch key {
			case nullKey:
			case pendingKey: // as keyIndex.save writes a value
				e.Bool(false)
				e.Int(v)
			default:
				j.keys.save(e, key)
			}
			e.Bool(s.outer && s.joined[id])
		})
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
		joined := make([]bool, 0, n)
		for range n {
			r := expiryEntry{time: d.Int(), seq: d.Int(), id: int32(d.Int())}
			key := nullKey
			if !d.Bool() {
				key = j.keys.load(d)
				j.chains.ensure(key)
			}
			joined = append(joined, d.Bool())
			if d.Err() != nil {
				return d.Err()
			}
			if !s.store.Holds(r.id) || r.id == nullRow {
				d.Fail("interval join: row id %d is not kept", r.id)
				return d.Err()
			}
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
		slices.SortFunc(order, func(a, b int) int { return cmp.Compare(rows[a].seq, rows[b].seq) })
		for _, i := range order {
			r, key := rows[i], keys[i]
			if key != nullKey {
				if c := j.chains.at(key); c[0].n == 0 && c[1].n == 0 {
					j.keys.ref(key)
				}
			}
			exp := rowtime.AddSaturating(r.time, s.rel+1)
			s.rows.add(&j.chains, side, key, r.time, exp, r.id)
			if s.outer {
				s.grow(r.id)
				s.joined[r.id] = joined[i]
				if exp > j.now {
					s.expiry.push(r)
				}
			}
		}
	}
	j.setNext()
	j.cand.left, j.cand.right = j.sides[0].store, j.sides[1].store
	j.output.left, j.output.right = j.sides[0].store, j.sides[1].store
	return d.Err()
}
