package windowop

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
)

// countSnapshotVersion is the layout of the state
// CountWindowOperator.SnapshotState writes.
const countSnapshotVersion = 1

// SnapshotState writes the operator's state to e: the last forwarded
// watermark, the counters, the keys, every slot's accumulators and, per
// key, its row count and the slots of its open windows, oldest first. It
// is called between batches; RestoreState on an operator built from the
// same CountConfig reads it back, after which both behave identically.
//
// Slots keep their numbers and the free list its order, so a restored
// operator allocates the same slots and snapshots the same bytes.
func (op *CountWindowOperator) SnapshotState(e *checkpoint.Encoder) error {
	if len(op.state) != int(op.keys.n) {
		return fmt.Errorf("count window operator: snapshot with %d key states for %d keys", len(op.state), op.keys.n)
	}
	e.Uint(countSnapshotVersion)
	e.Int(op.forwarded)
	checkpoint.Ints(e, []int64{op.stats.RowsIn, op.stats.ResultRows})

	saveSlotState(e, op.keys, &op.slots, op.accs)

	e.Uint(uint64(len(op.state)))
	for i := range op.state {
		st := &op.state[i]
		if st.start >= 0 {
			return fmt.Errorf("count window operator: snapshot in the middle of a batch")
		}
		e.Int(st.rows)
		checkpoint.Ints(e, st.open)
	}
	return nil
}

// RestoreState reads what SnapshotState wrote into a freshly built
// operator of the same CountConfig. State that does not fit the operator
// (a slot or key out of range, a slot used twice, open windows that do
// not match a key's row count, another aggregate layout) is an error
// wrapping checkpoint.ErrCorrupt, and the operator must then be discarded.
func (op *CountWindowOperator) RestoreState(d *checkpoint.Decoder) error {
	if op.keys.n != 0 || op.slots.n != 0 || len(op.state) != 0 {
		return fmt.Errorf("count window operator: restore into an operator that has state")
	}
	if v := d.Uint(); d.Err() == nil && v != countSnapshotVersion {
		d.Fail("count window state version %d, expected %d", v, countSnapshotVersion)
	}
	op.forwarded = d.Int()
	if st := checkpoint.ReadInts[int64](d); len(st) == 2 {
		op.stats = CountStats{RowsIn: st[0], ResultRows: st[1]}
	} else {
		d.Fail("count window counters: %d values", len(st))
	}
	if d.Err() != nil {
		return d.Err()
	}
	// The key values pass through temporary arrays that load releases
	// before it returns; the table keeps copies. Between batches every
	// slot is either free or an open window of exactly one key.
	owners, err := loadSlotState(d, memory.DefaultAllocator, op.keys, &op.slots, op.accs)
	if err != nil {
		return err
	}
	nkeys := op.keys.n

	if states := d.Len(2); states != int(nkeys) && d.Err() == nil {
		d.Fail("%d key states for %d keys", states, nkeys)
	}
	if d.Err() != nil {
		return d.Err()
	}
	op.state = make([]countKey, nkeys)
	for k := range op.state {
		rows := d.Int()
		open := checkpoint.ReadInts[int32](d)
		if d.Err() != nil {
			return d.Err()
		}
		if rows < 0 || rows > math.MaxInt64-op.size {
			d.Fail("key %d has %d rows", k, rows)
			return d.Err()
		}
		// The open windows of a key with r rows are ⌊r/slide⌋+1 ..
		// ⌊(r+size−1)/slide⌋.
		if want := (rows+op.size-1)/op.slide - rows/op.slide; int64(len(open)) != want {
			d.Fail("key %d with %d rows has %d open windows, expected %d", k, rows, len(open), want)
			return d.Err()
		}
		for _, s := range open {
			owners.own(s)
		}
		op.state[k] = countKey{rows: rows, open: open, start: -1}
	}
	if d.Err() != nil {
		return d.Err()
	}
	owners.done()
	if d.Err() != nil {
		return d.Err()
	}
	// Every result covers slide rows of its key.
	var fired int64
	for _, st := range op.state {
		fired += st.rows / op.slide
	}
	var rowsIn int64
	for _, st := range op.state {
		rowsIn += st.rows
	}
	if fired != op.stats.ResultRows || rowsIn != op.stats.RowsIn {
		d.Fail("counters %d rows, %d results do not match the keys' %d rows, %d results",
			op.stats.RowsIn, op.stats.ResultRows, rowsIn, fired)
	}
	return d.Err()
}
