package windowop

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
)

// saveSlotState writes what both window operators keep the same way: the
// group keys, the slot pool (its size and free list, in order, so that a
// restored operator hands out the same slots) and every slot's
// accumulators.
func saveSlotState(e *checkpoint.Encoder, keys *keyTable, slots *slotPool, accs []accumulator) {
	keys.save(e)
	n := int(slots.n)
	e.Uint(uint64(n))
	checkpoint.Ints(e, slots.free)
	for _, a := range accs {
		a.save(e, n)
	}
}

// slotOwners checks, while a restore reads which window holds which slot,
// that between batches every slot is free or held by exactly one window.
type slotOwners struct {
	d     *checkpoint.Decoder
	owned []bool
}

// own marks slot s as held (or free), failing on a slot out of range or
// held twice.
func (o *slotOwners) own(s int32) {
	checkSlot(o.d, s, len(o.owned))
	if o.d.Err() != nil {
		return
	}
	if o.owned[s] {
		o.d.Fail("slot %d used twice", s)
	}
	o.owned[s] = true
}

// done fails on a slot that is neither free nor held.
func (o *slotOwners) done() {
	for s, ok := range o.owned {
		if !ok && o.d.Err() == nil {
			o.d.Fail("slot %d is neither free nor used", s)
		}
	}
}

// loadSlotState reads what saveSlotState wrote into an empty operator's
// keys, pool and accumulators. The free slots are owned already; the
// caller owns the others as it reads the windows holding them.
func loadSlotState(d *checkpoint.Decoder, mem memory.Allocator, keys *keyTable, slots *slotPool, accs []accumulator) (*slotOwners, error) {
	if err := keys.load(d, mem); err != nil {
		return nil, err
	}
	n := d.Len(0)
	if n > math.MaxInt32 {
		d.Fail("%d slots", n)
	}
	slots.n = int32(n)
	slots.free = checkpoint.ReadInts[int32](d)
	if d.Err() != nil {
		return nil, d.Err()
	}
	o := &slotOwners{d: d, owned: make([]bool, n)}
	for _, s := range slots.free {
		o.own(s)
	}
	for _, a := range accs {
		a.load(d, n)
	}
	return o, d.Err()
}
