package windowop

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/checkpoint"
)

// collectAcc is COLLECT([DISTINCT] x), Flink's CollectAggFunction: the
// MULTISET of the non-NULL values, each distinct value with the number of
// rows that had it (1 with DISTINCT); an empty multiset without values,
// never NULL. Flink keeps a map of counts, whose order its HashMap gives;
// wsql lists the values by their first row's arrival, so a result is the
// same at every batch size and parallelism. Each slot keeps a map from
// a value (as bytes, agg_elements.go) to its entry; merging panes or
// sessions adds the counts and keeps the earlier first row.
type collectAcc struct {
	elem     elemType
	distinct bool
	sets     []collectSet
	arr      arrival
	key      []byte // the row's value as held, scratch
	limit    int    // maxListAggBytes: the values of one batch of results
	err      error
}

type collectSet struct {
	index    map[string]int32 // value → its entry
	entries  []collectEntry
	unsorted bool  // an entry's first row came before the one ahead of it
	bytes    int64 // the values' bytes, for the state size without a walk
}

type collectEntry struct {
	value string
	seq   int64 // arrival number of its first row
	n     int64 // its rows
}

func newCollectAcc(in arrow.DataType, distinct bool) (*collectAcc, error) {
	elem, err := newElemType("COLLECT", in)
	if err != nil {
		return nil, err
	}
	return &collectAcc{elem: elem, distinct: distinct, limit: maxListAggBytes}, nil
}

func (a *collectAcc) resize(n int) {
	a.sets = extendTo(a.sets, n)
}

func (a *collectAcc) reset(s int32) {
	set := &a.sets[s]
	set.index, set.unsorted, set.bytes = nil, false, 0
	if cap(set.entries) > maxKeptString {
		set.entries = nil
	} else {
		clear(set.entries) // drop the values for the GC
		set.entries = set.entries[:0]
	}
}

func (a *collectAcc) update(col arrow.Array, slots []int32, from, to int) {
	base := a.arr.baseOf(col)
	view := a.elem.view(col)
	noNulls := col.NullN() == 0
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || (!noNulls && col.IsNull(i)) {
			continue
		}
		a.key = view.appendTo(a.key[:0], i)
		a.add(s, a.key, "", base+int64(i), 1)
	}
}

// add counts n rows of value v (as bytes in key, or as value when key is
// nil) into slot s, the first of them of arrival number seq.
func (a *collectAcc) add(s int32, key []byte, value string, seq, n int64) {
	set := &a.sets[s]
	if key == nil {
		key = bytesOf(value)
	}
	if j, ok := set.index[string(key)]; ok {
		e := &set.entries[j]
		e.n += n
		if seq < e.seq {
			e.seq, set.unsorted = seq, true
		}
		return
	}
	if value == "" {
		value = string(key)
	}
	if set.index == nil {
		set.index = make(map[string]int32)
	}
	if k := len(set.entries); k > 0 && set.entries[k-1].seq > seq {
		set.unsorted = true
	}
	set.index[value] = int32(len(set.entries))
	set.entries = append(set.entries, collectEntry{value: value, seq: seq, n: n})
	set.bytes += int64(len(value))
}

// ordered puts slot s's entries in order of their first rows.
func (a *collectAcc) ordered(s int32) *collectSet {
	set := &a.sets[s]
	if !set.unsorted {
		return set
	}
	slices.SortFunc(set.entries, func(x, y collectEntry) int { return cmpInt64(x.seq, y.seq) })
	for j, e := range set.entries {
		set.index[e.value] = int32(j)
	}
	set.unsorted = false
	return set
}

func cmpInt64(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func (a *collectAcc) merge(dst, src int32) {
	for _, e := range a.sets[src].entries {
		a.add(dst, nil, e.value, e.seq, e.n)
	}
}

func (a *collectAcc) copyTo(dst, src int32) {
	d, s := &a.sets[dst], &a.sets[src]
	d.entries = append(d.entries[:0], s.entries...)
	d.index = maps.Clone(s.index)
	d.unsorted, d.bytes = s.unsorted, s.bytes
}

// count is an entry's count in the result: Flink's INT, 1 with DISTINCT.
func (a *collectAcc) count(e *collectEntry) int32 {
	if a.distinct {
		return 1
	}
	return int32(e.n) // wraps past 2^31 as Java's Integer would
}

func (a *collectAcc) appendResults(slots []int32, b array.Builder) {
	mb := b.(*array.MapBuilder)
	kb, ib := mb.KeyBuilder(), mb.ItemBuilder().(*array.Int32Builder)
	put := elemAppender(kb)
	for _, s := range slots {
		set := a.ordered(s)
		held := heldBytes(kb) // the values of this batch's results, in one column
		for _, e := range set.entries {
			held += int64(len(e.value))
		}
		if held > int64(a.limit) {
			if a.err == nil {
				a.err = fmt.Errorf("%w: COLLECT results need %d bytes, more than the %d bytes (2 GiB) one column holds. "+
					"Use a smaller window, group by more keys, or aggregate fewer values", ErrStateLimit, min(held, math.MaxInt), a.limit)
			}
			mb.Append(true) // never sent: the operator stops with the error
			continue
		}
		mb.Append(true)
		for j := range set.entries {
			e := &set.entries[j]
			put(bytesOf(e.value))
			ib.Append(a.count(e))
		}
	}
}

// failed returns the error of results past the limit, if one was met.
func (a *collectAcc) failed() error { return a.err }

func (a *collectAcc) sameResult(x, y int32) bool {
	sx, sy := a.ordered(x), a.ordered(y)
	if len(sx.entries) != len(sy.entries) {
		return false
	}
	for j := range sx.entries {
		ex, ey := &sx.entries[j], &sy.entries[j]
		if ex.value != ey.value || a.count(ex) != a.count(ey) {
			return false
		}
	}
	return true
}

// resultType is MULTISET<T>: a map of counts, marked as wsql marks it.
func (a *collectAcc) resultType() arrow.DataType {
	m := arrow.MapOfWithMetadata(a.elem.dt, arrow.Metadata{}, arrow.PrimitiveTypes.Int32,
		arrow.NewMetadata([]string{multisetMetadataKey}, []string{"count"}))
	m.SetItemNullable(false)
	return m
}

// multisetMetadataKey marks the map a MULTISET is stored as (the key
// catalog.MultisetMetadataKey names; windowop does not import catalog).
const multisetMetadataKey = "wsql.multiset"

// save writes each slot's entries in order of their first rows, and the
// arrival counter.
func (a *collectAcc) save(e *checkpoint.Encoder, n int) {
	e.Uint(uint64(n))
	for s := range n {
		set := a.ordered(int32(s))
		e.Uint(uint64(len(set.entries)))
		for _, x := range set.entries {
			e.String(x.value)
			e.Int(x.seq)
			e.Int(x.n)
		}
	}
	a.arr.save(e)
}

func (a *collectAcc) load(d *checkpoint.Decoder, n int) {
	a.sets = make([]collectSet, d.Len(1))
	for s := range a.sets {
		for range d.Len(3) { // a length, an arrival number and a count at least
			v, seq, cnt := d.String(), d.Int(), d.Int()
			if cnt <= 0 {
				d.Fail("COLLECT count %d is not positive", cnt)
				return
			}
			if _, ok := a.sets[s].index[v]; ok {
				d.Fail("COLLECT value held twice")
				return
			}
			a.add(int32(s), nil, v, seq, cnt)
		}
	}
	a.sets = fit(d, a.sets, n)
	a.arr.load(d)
}
