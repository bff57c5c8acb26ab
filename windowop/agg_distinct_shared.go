package windowop

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/checkpoint"
)

// sharedCountDistinct is COUNT(DISTINCT x) over a fixed-width x, for every
// such aggregate of an operator over the same column, whatever its FILTER:
// they share one set of values per slot, each value marked with the
// aggregates that counted it (Flink's distinct MapView shared by the
// aggregates of one field, with a bit per filter). Nexmark q16's eight
// DISTINCT counts over two columns held each value twice per column (the
// unfiltered count's set and one filtered count's), each in a Go map and
// an arrival-order slice; one flat table per column holds it once (q16 at
// 10M events: the DISTINCT counts went from 38 to 10 CPU-s, the query
// from 76 to 40 CPU-s and its peak RSS from 1.7 GiB to 0.8 GiB).
//
// Only COUNT shares: its result does not depend on the order values
// entered its set, which a shared set does not keep per aggregate.
type sharedCountDistinct struct {
	counts countAcc
	set    *distinctSets
	bit    uint8 // this aggregate's mark
	owner  bool  // the first member: it resets, copies and sizes the sets
}

// distinctSets are the per-slot value sets the members of one group share.
type distinctSets struct {
	slots []valueSet
	marks []uint8  // foldSharedRows' scratch, by row
	vals  []uint64 // likewise

	// touched sums what foldSharedRows loaded ahead, kept so the loads
	// are not dropped (per operator: a global would race between the
	// partitions' goroutines)
	touched uint8
}

func (d *distinctSets) resize(n int) {
	d.slots = extendTo(d.slots, n)
}

// shareCountDistinct replaces, in accs, the COUNT(DISTINCT x) aggregates
// over a fixed-width column by members of one shared set per column
// (up to valueMarkBits per set). Called once, on the accumulators just built.
func shareCountDistinct(specs []AggSpec, accs []accumulator) {
	groups := map[int]*sharedCountDistinct{} // by input column: the group's first member
	sizes := map[int]int{}
	for i, spec := range specs {
		d, ok := accs[i].(*distinctAcc[uint64])
		if !ok || spec.Kind != Count || !spec.Distinct || len(spec.MoreInputs) > 0 {
			continue
		}
		if _, ok := d.inner.(*countAcc); !ok {
			continue
		}
		first := groups[spec.Input]
		if first == nil || sizes[spec.Input] == valueMarkBits {
			first = &sharedCountDistinct{set: &distinctSets{}, bit: 1, owner: true}
			groups[spec.Input], sizes[spec.Input] = first, 1
			accs[i] = first
			continue
		}
		accs[i] = &sharedCountDistinct{set: first.set, bit: 1 << sizes[spec.Input]}
		sizes[spec.Input]++
	}
}

func (a *sharedCountDistinct) resize(n int) {
	a.counts.resize(n)
	a.set.resize(n)
}

func (a *sharedCountDistinct) reset(s int32) {
	a.counts.reset(s)
	if a.owner {
		a.set.slots[s] = valueSet{}
	}
}

func (a *sharedCountDistinct) update(col arrow.Array, slots []int32, from, to int) {
	counts, sets := a.counts.counts, a.set.slots
	nulls := col.NullN() > 0
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || nulls && col.IsNull(i) {
			continue
		}
		if sets[s].add(fixedKeyAt(col, i), a.bit) {
			counts[s]++
		}
	}
}

// fixedKeyAt is fixedKey with the common BIGINT column read directly.
func fixedKeyAt(col arrow.Array, i int) uint64 {
	if c, ok := col.(*array.Int64); ok {
		return uint64(c.Value(i))
	}
	return fixedKey(col, i)
}

// merge folds the values src counted into dst's: set union.
func (a *sharedCountDistinct) merge(dst, src int32) {
	into := &a.set.slots[dst]
	a.set.slots[src].each(func(v uint64, marks uint8) {
		if marks&a.bit != 0 && into.add(v, a.bit) {
			a.counts.counts[dst]++
		}
	})
}

func (a *sharedCountDistinct) copyTo(dst, src int32) {
	a.counts.copyTo(dst, src)
	if a.owner {
		a.set.slots[dst] = a.set.slots[src].clone()
	}
}

// copyResult copies the count only: the set decides nothing a shadow
// slot shows.
func (a *sharedCountDistinct) copyResult(dst, src int32) { a.counts.copyTo(dst, src) }

func (a *sharedCountDistinct) appendResults(slots []int32, b array.Builder) {
	a.counts.appendResults(slots, b)
}

func (a *sharedCountDistinct) sameResult(x, y int32) bool { return a.counts.sameResult(x, y) }
func (a *sharedCountDistinct) resultType() arrow.DataType { return a.counts.resultType() }

// save writes what distinctAcc's save does: the count, then each slot's
// values this member counted, here sorted.
func (a *sharedCountDistinct) save(e *checkpoint.Encoder, n int) {
	a.counts.save(e, n)
	e.Uint(uint64(n))
	var vals []uint64
	for s := range n {
		vals = vals[:0]
		a.set.slots[s].each(func(v uint64, marks uint8) {
			if marks&a.bit != 0 {
				vals = append(vals, v)
			}
		})
		slices.Sort(vals)
		e.Uint(uint64(len(vals)))
		for _, v := range vals {
			e.Uint(v)
		}
	}
}

func (a *sharedCountDistinct) load(d *checkpoint.Decoder, n int) {
	a.counts.load(d, n)
	slots := d.Len(1)
	if d.Err() == nil && slots != n {
		d.Fail("%d slots of accumulator state, want %d", slots, n)
		return
	}
	a.set.resize(n)
	for s := range slots {
		for range d.Len(1) {
			if v := d.Uint(); !a.set.slots[s].add(v, a.bit) {
				d.Fail("value %v twice in a DISTINCT set", v)
			}
		}
	}
}

// addHeldBytes counts the shared sets once, in their owner.
func (a *sharedCountDistinct) addHeldBytes(slots []int32, sizes []int64) {
	if !a.owner {
		return
	}
	for i, s := range slots {
		sizes[i] += a.set.slots[s].heldBytes()
	}
}
