package windowop

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/checkpoint"
)

// listAggAcc is LISTAGG(x, sep): the non-NULL values joined by sep in
// arrival order, NULL without values (Flink's ListAggFunction). A slot
// keeps its values back to back in one byte buffer, each with its arrival
// number, so merging panes or sessions interleaves them by arrival as
// Flink's per-window state would have seen them; appending reuses the
// buffer and does not allocate per row. A sliding count window folds a
// batch once per overlapping window, so a slot can get a row older than
// its last one: the list is then put in order before it is next read.
type listAggAcc struct {
	sep   []byte
	lists []strList
	arr   arrival
	tmp   strList // merge scratch, swapped with the merged slot
	bx    []byte  // sameResult scratch
	by    []byte
	perm  []int  // ordering scratch
	limit int    // maxListAggBytes, lowered in tests
	err   error  // the first result past the limit (failed)
	what  string // the aggregate its errors name: LISTAGG unless set

	// LISTAGG(DISTINCT x): per slot, each value kept and the arrival
	// number of its first row (agg_listagg_distinct.go); nil otherwise
	distinct bool
	seen     []map[string]int64
}

// maxListAggBytes bounds a LISTAGG result, and all LISTAGG results of one
// output batch: Arrow's STRING column addresses its bytes with 32-bit
// offsets, which would wrap past it and panic a later read.
const maxListAggBytes = math.MaxInt32

type strList struct {
	buf      []byte
	items    []listItem
	unsorted bool // an item arrived before the one ahead of it
}

type listItem struct {
	seq int64 // arrival number
	end int   // the value is buf[previous end:end]
}

func newListAggAcc(in arrow.DataType, sep string, distinct bool) (*listAggAcc, error) {
	if in.ID() != arrow.STRING {
		return nil, fmt.Errorf("listagg over %s is not supported", in)
	}
	return &listAggAcc{sep: []byte(sep), limit: maxListAggBytes, distinct: distinct}, nil
}

// joinedLen is the length of a list's result: its values and separators.
func (a *listAggAcc) joinedLen(l *strList) int {
	if len(l.items) == 0 {
		return 0
	}
	return len(l.buf) + (len(l.items)-1)*len(a.sep)
}

// overLimit records that a result passes the limit; the operator stops the
// run with the error before the batch goes out (failed).
func (a *listAggAcc) overLimit(size int) {
	if a.err == nil {
		what := a.what
		if what == "" {
			what = "LISTAGG"
		}
		a.err = fmt.Errorf("%w: a %s result needs %d bytes, more than the %d bytes (2 GiB) one string column holds. "+
			"Use a smaller window, group by more keys, or aggregate fewer values", ErrStateLimit, what, size, a.limit)
	}
}

// failed returns the error of a result past the limit, if one was met.
func (a *listAggAcc) failed() error { return a.err }

func (l *strList) value(k int) []byte {
	start := 0
	if k > 0 {
		start = l.items[k-1].end
	}
	return l.buf[start:l.items[k].end]
}

func (l *strList) add(seq int64, v []byte) {
	l.buf = append(l.buf, v...)
	l.items = append(l.items, listItem{seq: seq, end: len(l.buf)})
}

func (l *strList) clear() {
	if cap(l.buf) > maxKeptString*16 {
		*l = strList{}
		return
	}
	l.buf, l.items, l.unsorted = l.buf[:0], l.items[:0], false
}

// ordered puts slot s's items in arrival order, if they are not.
func (a *listAggAcc) ordered(s int32) *strList {
	l := &a.lists[s]
	if !l.unsorted {
		return l
	}
	a.perm = a.perm[:0]
	for k := range l.items {
		a.perm = append(a.perm, k)
	}
	sort.Slice(a.perm, func(x, y int) bool { return l.items[a.perm[x]].seq < l.items[a.perm[y]].seq })
	t := &a.tmp
	t.clear()
	for _, k := range a.perm {
		t.add(l.items[k].seq, l.value(k))
	}
	*l, *t = *t, *l
	if a.distinct {
		a.dedupe(s) // a value's older row came after a newer one
	}
	return l
}

func (a *listAggAcc) resize(n int) {
	a.lists = extendTo(a.lists, n)
	if a.distinct {
		a.seen = extendTo(a.seen, n)
	}
}

func (a *listAggAcc) reset(s int32) {
	a.lists[s].clear()
	if a.distinct {
		a.seen[s] = nil
	}
}

func (a *listAggAcc) update(col arrow.Array, slots []int32, from, to int) {
	c := col.(*array.String)
	base := a.arr.baseOf(col)
	noNulls := c.NullN() == 0
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || (!noNulls && c.IsNull(i)) {
			continue
		}
		l := &a.lists[s]
		v := c.Value(i)
		seq := base + int64(i)
		if a.distinct && !a.keepDistinct(s, v, seq) {
			continue
		}
		if size := a.joinedLen(l) + len(a.sep) + len(v); size > a.limit {
			a.overLimit(size) // the list stops growing: the run stops after this batch
			continue
		}
		if k := len(l.items); k > 0 && l.items[k-1].seq > seq {
			l.unsorted = true
		}
		l.buf = append(l.buf, v...)
		l.items = append(l.items, listItem{seq: seq, end: len(l.buf)})
	}
}

// merge interleaves src into dst by arrival number. Panes mostly hold
// consecutive stretches of arrival, so appending is the common case.
func (a *listAggAcc) merge(dst, src int32) {
	d, s := a.ordered(dst), a.ordered(src)
	if len(s.items) == 0 {
		return
	}
	if size := a.joinedLen(d) + len(a.sep) + a.joinedLen(s); len(d.items) > 0 && size > a.limit {
		a.overLimit(size)
		return
	}
	if a.distinct {
		defer a.dedupe(dst) // values both held
	}
	if len(d.items) == 0 || d.items[len(d.items)-1].seq < s.items[0].seq {
		for k := range s.items {
			d.add(s.items[k].seq, s.value(k))
		}
		return
	}
	t := &a.tmp
	t.clear()
	i, j := 0, 0
	for i < len(d.items) || j < len(s.items) {
		if j == len(s.items) || (i < len(d.items) && d.items[i].seq < s.items[j].seq) {
			t.add(d.items[i].seq, d.value(i))
			i++
		} else {
			t.add(s.items[j].seq, s.value(j))
			j++
		}
	}
	*d, *t = *t, *d
}

func (a *listAggAcc) copyTo(dst, src int32) {
	d, s := &a.lists[dst], &a.lists[src]
	d.buf = append(d.buf[:0], s.buf...)
	d.items = append(d.items[:0], s.items...)
	d.unsorted = s.unsorted
	if a.distinct {
		a.seen[dst] = maps.Clone(a.seen[src])
	}
}

// join appends slot s's result to out.
func (a *listAggAcc) join(out []byte, s int32) []byte {
	l := a.ordered(s)
	for k := range l.items {
		if k > 0 {
			out = append(out, a.sep...)
		}
		out = append(out, l.value(k)...)
	}
	return out
}

func (a *listAggAcc) appendResults(slots []int32, b array.Builder) {
	sb := b.(*array.StringBuilder)
	for _, s := range slots {
		if len(a.lists[s].items) == 0 {
			sb.AppendNull()
			continue
		}
		if size := int64(sb.DataLen()) + int64(a.joinedLen(&a.lists[s])); size > int64(a.limit) {
			a.overLimit(int(min(size, math.MaxInt)))
			sb.AppendNull() // never sent: the operator stops with the error
			continue
		}
		a.bx = a.join(a.bx[:0], s)
		sb.BinaryBuilder.Append(a.bx)
	}
}

// sameResult compares the joined strings: lists split differently can
// join to the same result, which is no update.
func (a *listAggAcc) sameResult(x, y int32) bool {
	nx, ny := len(a.lists[x].items) == 0, len(a.lists[y].items) == 0
	if nx || ny {
		return nx == ny
	}
	a.bx, a.by = a.join(a.bx[:0], x), a.join(a.by[:0], y)
	return bytes.Equal(a.bx, a.by)
}

func (*listAggAcc) resultType() arrow.DataType { return arrow.BinaryTypes.String }

// save writes each slot's values with their arrival numbers, in arrival
// order (with DISTINCT, a value once: load rebuilds the set from the
// list, which must be in order for that), and the arrival counter.
func (a *listAggAcc) save(e *checkpoint.Encoder, n int) {
	e.Uint(uint64(n))
	for s := range a.lists[:n] {
		l := a.ordered(int32(s))
		e.Uint(uint64(len(l.items)))
		for k := range l.items {
			e.Int(l.items[k].seq)
			e.Bytes(l.value(k))
		}
	}
	a.arr.save(e)
}

func (a *listAggAcc) load(d *checkpoint.Decoder, n int) {
	a.lists = make([]strList, d.Len(1))
	for s := range a.lists {
		l := &a.lists[s]
		for range d.Len(2) { // an arrival number and a length at least
			seq := d.Int()
			if k := len(l.items); k > 0 && l.items[k-1].seq > seq {
				l.unsorted = true // as update would have marked it
			}
			l.add(seq, d.Bytes())
		}
	}
	a.lists = fit(d, a.lists, n)
	a.arr.load(d)
	if a.distinct {
		a.seen = make([]map[string]int64, len(a.lists))
		for s := range a.lists {
			a.dedupe(int32(s))
		}
	}
}
