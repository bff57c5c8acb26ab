package windowop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
)

// groupSnapshotVersion is the layout of the state
// GroupOperator.SnapshotState writes.
const groupSnapshotVersion = 2 // 2: retracting MIN/MAX and DISTINCT keep counts of any type

// SnapshotState writes the operator's state to e: the last forwarded
// watermark, the counters, the keys, every slot's accumulators and, per
// key, the slots of its aggregates and of the values it emitted last. It
// is called between batches; RestoreState on an operator built from the
// same GroupConfig reads it back, after which both behave identically.
func (op *GroupOperator) SnapshotState(e *checkpoint.Encoder) error {
	if len(op.live) != int(op.keys.n) {
		return fmt.Errorf("group operator: snapshot with %d key states for %d keys", len(op.live), op.keys.n)
	}
	op.syncShadows()
	e.Uint(groupSnapshotVersion)
	e.Int(op.forwarded)
	checkpoint.Ints(e, []int64{op.stats.RowsIn, op.stats.ResultRows, op.stats.StateExpired})
	saveSlotState(e, op.keys, &op.slots, op.accs)
	checkpoint.Ints(e, op.live)
	checkpoint.Ints(e, op.shadow)
	checkpoint.Ints(e, op.rows)
	return nil
}

// RestoreState reads what SnapshotState wrote into a freshly built
// operator of the same GroupConfig. State that does not fit (a slot out of
// range or used twice, a key without its slots, another aggregate layout)
// is an error wrapping checkpoint.ErrCorrupt, and the operator must then
// be discarded.
func (op *GroupOperator) RestoreState(d *checkpoint.Decoder) error {
	if op.keys.n != 0 || op.slots.n != 0 || len(op.live) != 0 {
		return fmt.Errorf("group operator: restore into an operator that has state")
	}
	if v := d.Uint(); d.Err() == nil && v != groupSnapshotVersion {
		d.Fail("group aggregate state version %d, expected %d", v, groupSnapshotVersion)
	}
	op.forwarded = d.Int()
	if st := checkpoint.ReadInts[int64](d); len(st) == 3 {
		op.stats = GroupStats{RowsIn: st[0], ResultRows: st[1], StateExpired: st[2]}
	} else {
		d.Fail("group aggregate counters: %d values", len(st))
	}
	if d.Err() != nil {
		return d.Err()
	}
	owners, err := loadSlotState(d, memory.DefaultAllocator, op.keys, &op.slots, op.accs)
	if err != nil {
		return err
	}
	live, shadow, rows := checkpoint.ReadInts[int32](d), checkpoint.ReadInts[int32](d), checkpoint.ReadInts[int64](d)
	if d.Err() != nil {
		return d.Err()
	}
	if len(live) != int(op.keys.n) || len(shadow) != int(op.keys.n) {
		d.Fail("%d and %d key states for %d keys", len(live), len(shadow), op.keys.n)
		return d.Err()
	}
	if op.cfg.Retract != (len(rows) > 0) && op.keys.n > 0 {
		d.Fail("row counts of %d keys for a group aggregate that retracts: %v", len(rows), op.cfg.Retract)
		return d.Err()
	}
	// Between batches a key has folded a row and emitted its values, or
	// (its rows all taken out) holds nothing.
	for k := range live {
		if (live[k] < 0) != (shadow[k] < 0) {
			d.Fail("key %d holds half its state", k)
			return d.Err()
		}
		if live[k] >= 0 {
			owners.own(live[k])
			owners.own(shadow[k])
		}
	}
	owners.done()
	if d.Err() != nil {
		return d.Err()
	}
	op.live, op.shadow, op.rows = live, shadow, rows
	op.seen = make([]uint32, len(live))
	return nil
}
