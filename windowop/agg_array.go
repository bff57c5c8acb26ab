package windowop

import (
	"bytes"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// arrayAggAcc is ARRAY_AGG([DISTINCT] x [RESPECT NULLS | IGNORE NULLS]),
// Flink's ArrayAggFunction: the values in an ARRAY in arrival order (the
// order Flink's list state appends them in), NULL values kept unless
// IGNORE NULLS, NULL without values. With DISTINCT each value is kept
// once, at its first row, NULL being one value. A slot keeps its values as
// LISTAGG keeps its strings (merged by arrival number, put in order before
// they are read, saved and restored the same way), each value as a tag
// byte, 0 for NULL and 1 for a value, then its bytes (agg_elements.go).
type arrayAggAcc struct {
	listAggAcc
	elem        elemType
	ignoreNulls bool
	val         []byte // the row's value as held, scratch
}

func newArrayAggAcc(in arrow.DataType, ignoreNulls, distinct bool) (*arrayAggAcc, error) {
	elem, err := newElemType("ARRAY_AGG", in)
	if err != nil {
		return nil, err
	}
	return &arrayAggAcc{listAggAcc: listAggAcc{limit: maxListAggBytes, distinct: distinct, what: "ARRAY_AGG"},
		elem: elem, ignoreNulls: ignoreNulls}, nil
}

func (a *arrayAggAcc) update(col arrow.Array, slots []int32, from, to int) {
	base := a.arr.baseOf(col)
	view := a.elem.view(col)
	noNulls := col.NullN() == 0
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 {
			continue
		}
		v := a.val[:0]
		if !noNulls && col.IsNull(i) {
			if a.ignoreNulls {
				continue
			}
			v = append(v, 0)
		} else {
			v = view.appendTo(append(v, 1), i)
		}
		a.val = v
		a.keep(s, v, base+int64(i))
	}
}

// keep appends value v of arrival number seq to slot s, as LISTAGG's
// update does with a string.
func (a *arrayAggAcc) keep(s int32, v []byte, seq int64) {
	l := &a.lists[s]
	if a.distinct && !a.keepDistinctBytes(s, v, seq) {
		return
	}
	if size := len(l.buf) + len(v); size > a.limit {
		a.overLimit(size) // the list stops growing: the run stops after this batch
		return
	}
	if k := len(l.items); k > 0 && l.items[k-1].seq > seq {
		l.unsorted = true
	}
	l.add(seq, v)
}

// keepDistinctBytes is keepDistinct of a value held as bytes: looking it
// up does not copy it.
func (a *arrayAggAcc) keepDistinctBytes(s int32, v []byte, seq int64) bool {
	set := a.seen[s]
	if first, ok := set[string(v)]; ok {
		if first <= seq {
			return false
		}
		set[string(v)] = seq
		return true
	}
	if set == nil {
		set = make(map[string]int64)
		a.seen[s] = set
	}
	set[string(v)] = seq
	return true
}

func (a *arrayAggAcc) appendResults(slots []int32, b array.Builder) {
	lb := b.(*array.ListBuilder)
	vb := lb.ValueBuilder()
	put := elemAppender(vb)
	for _, s := range slots {
		l := a.ordered(s)
		if len(l.items) == 0 {
			lb.AppendNull()
			continue
		}
		if held := heldBytes(vb) + int64(len(l.buf)); held > int64(a.limit) {
			a.overLimit(int(min(held, math.MaxInt)))
			lb.AppendNull() // never sent: the operator stops with the error
			continue
		}
		lb.Append(true)
		for k := range l.items {
			if v := l.value(k); v[0] == 0 {
				vb.AppendNull()
			} else {
				put(v[1:])
			}
		}
	}
}

// sameResult compares the values one by one.
func (a *arrayAggAcc) sameResult(x, y int32) bool {
	lx, ly := a.ordered(x), a.ordered(y)
	if len(lx.items) != len(ly.items) || !bytes.Equal(lx.buf, ly.buf) {
		return false
	}
	for k := range lx.items {
		if lx.items[k].end != ly.items[k].end {
			return false
		}
	}
	return true
}

func (a *arrayAggAcc) resultType() arrow.DataType {
	return arrow.ListOfField(arrow.Field{Name: "element", Type: a.elem.dt, Nullable: true})
}

// heldBytes is what the values a builder of results holds count against
// the limit of one column (maxListAggBytes): the bytes of strings, the
// number of other values (a list's 32-bit offsets count them).
func heldBytes(vb array.Builder) int64 {
	switch b := vb.(type) {
	case *array.StringBuilder:
		return int64(b.DataLen())
	case *array.BinaryBuilder:
		return int64(b.DataLen())
	}
	return int64(vb.Len())
}
