package overop

import (
	"fmt"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/rowstore"
	"github.com/wsql/wsql/windowop"
)

// snapshotVersion is the layout of the state SnapshotState writes.
const snapshotVersion = 1

// SnapshotState writes the operator's state to e between batches: the
// counters and watermark, the partitions and accumulators, each
// partition's frame (its rows copied into one store), the rows waiting
// for the watermark and the cleanup queue. RestoreState on an operator of
// the same Config reads it back, after which both behave identically.
func (op *Over) SnapshotState(e *checkpoint.Encoder) error {
	e.Uint(snapshotVersion)
	checkpoint.Ints(e, op.stats.Lateness.AppendState([]int64{op.stats.RowsIn, op.stats.ResultRows, op.stats.LateRowsDropped, op.stats.StateExpired, op.seq, op.wm, op.sweep}))
	op.aggs.Save(e)
	// the frames' rows, gathered by round into one store
	frames := rowstore.New(op.cfg.Input, op.mem)
	defer frames.Release()
	byRound := map[int32][]int32{}
	var order []int32
	for _, st := range op.parts {
		for k := 0; k < st.size; k++ {
			fr := st.ring[(st.head+k)%len(st.ring)]
			if _, ok := byRound[fr.round]; !ok {
				order = append(order, fr.round)
			}
			byRound[fr.round] = append(byRound[fr.round], fr.row)
		}
	}
	idOf := map[[2]int32]int32{}
	for _, rid := range order {
		rows := byRound[rid]
		rec := op.inputOf(rid)
		ids, err := frames.Add(rec, rows, nil)
		rec.Release()
		if err != nil {
			return err
		}
		for k, r := range rows {
			idOf[[2]int32{rid, r}] = ids[k]
		}
	}
	e.Uint(uint64(len(op.parts)))
	for _, st := range op.parts {
		e.Int(int64(st.slot))
		e.Int(st.lastTs)
		e.Uint(uint64(st.size))
		for k := 0; k < st.size; k++ {
			fr := st.ring[(st.head+k)%len(st.ring)]
			e.Int(int64(idOf[[2]int32{fr.round, fr.row}]))
			e.Int(op.frameTime(&st, (st.head+k)%len(st.ring)))
		}
	}
	if err := frames.Save(e); err != nil {
		return err
	}
	checkpoint.Ints(e, op.ttlLast)
	e.Uint(uint64(len(op.cleanup)))
	for _, c := range op.cleanup {
		e.Uint(uint64(c.part))
		e.Int(c.ts)
	}
	e.Uint(uint64(len(op.pending)))
	for _, r := range op.pending {
		e.Int(int64(r.id))
		e.Uint(uint64(r.part))
		e.Int(r.ts)
		e.Int(r.seq)
	}
	return op.store.Save(e)
}

// RestoreState reads what SnapshotState wrote into a fresh operator of
// the same Config. State that does not fit is an error wrapping
// checkpoint.ErrCorrupt; the operator must then be discarded.
func (op *Over) RestoreState(d *checkpoint.Decoder) error {
	if len(op.parts) > 0 || op.store.Len() > 0 || len(op.rounds) > 0 {
		return fmt.Errorf("over aggregate: restore into an operator that has state")
	}
	if v := d.Uint(); d.Err() == nil && v != snapshotVersion {
		d.Fail("over aggregate state version %d, expected %d", v, snapshotVersion)
	}
	st := checkpoint.ReadInts[int64](d)
	var late windowop.Lateness
	if d.Err() == nil && (len(st) < 7 || !late.LoadState(st[7:])) {
		d.Fail("over aggregate counters: %d values", len(st))
	}
	if d.Err() != nil {
		return d.Err()
	}
	op.stats = Stats{RowsIn: st[0], ResultRows: st[1], LateRowsDropped: st[2], StateExpired: st[3], Lateness: late}
	op.seq, op.wm, op.sweep = st[4], st[5], st[6]
	var n int
	var parts []partition
	var ids []int32
	err := op.aggs.Load(d, func(own func(int32)) {
		n = d.Len(3)
		for p := 0; p < n && d.Err() == nil; p++ {
			s := partition{slot: int32(d.Int()), lastTs: d.Int()}
			if s.slot >= 0 {
				own(s.slot)
			}
			rows := d.Len(2)
			for k := 0; k < rows && d.Err() == nil; k++ {
				id := int32(d.Int())
				s.ring = append(s.ring, frameRow{row: int32(len(ids))})
				if ts := d.Int(); !op.cfg.Rows {
					s.times = append(s.times, ts)
				}
				ids = append(ids, id)
			}
			s.size = len(s.ring)
			if s.size > 0 && s.slot < 0 {
				d.Fail("partition %d has a frame without accumulators", p)
			}
			parts = append(parts, s)
		}
	})
	if err != nil {
		return err
	}
	if n != op.aggs.NumPartitions() {
		d.Fail("%d partition states for %d partitions", n, op.aggs.NumPartitions())
		return d.Err()
	}
	frames := rowstore.New(op.cfg.Input, op.mem)
	defer frames.Release()
	if err := frames.Load(d); err != nil {
		return err
	}
	for _, id := range ids {
		if !frames.Holds(id) {
			d.Fail("frame row %d is not stored", id)
			return d.Err()
		}
	}
	if len(ids) > 0 {
		rec, err := frames.Gather(ids)
		if err != nil {
			return err
		}
		rid := op.addRound(op.frameOf(rec))
		rec.Release()
		op.rounds[rid].refs = len(ids)
	}
	op.parts = parts
	op.ttlLast = checkpoint.ReadInts[int64](d)
	m := d.Len(2)
	for k := 0; k < m && d.Err() == nil; k++ {
		op.cleanup = append(op.cleanup, stepAt{part: uint32(d.Uint()), ts: d.Int()})
	}
	m = d.Len(4)
	for k := 0; k < m && d.Err() == nil; k++ {
		r := pendingRow{id: int32(d.Int()), part: uint32(d.Uint()), ts: d.Int(), seq: d.Int()}
		if int(r.part) >= len(op.parts) {
			d.Fail("waiting row of partition %d of %d", r.part, len(op.parts))
			return d.Err()
		}
		op.parts[r.part].pending++
		op.pending = append(op.pending, r)
	}
	for _, c := range op.cleanup {
		if int(c.part) >= len(op.parts) {
			d.Fail("cleanup of partition %d of %d", c.part, len(op.parts))
		}
	}
	if d.Err() != nil {
		return d.Err()
	}
	if err := op.store.Load(d); err != nil {
		return err
	}
	for _, r := range op.pending {
		if !op.store.Holds(r.id) {
			d.Fail("waiting row %d is not stored", r.id)
		}
	}
	return d.Err()
}

// frameTime is the time of the row at place k of a partition's ring: a
// RANGE frame keeps it; a ROWS frame needs none (0, which restoring
// ignores).
func (op *Over) frameTime(st *partition, k int) int64 {
	if st.times != nil {
		return st.times[k]
	}
	return 0
}
