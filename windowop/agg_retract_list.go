package windowop

import (
	"bytes"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// The aggregates that keep their values in arrival order retract as
// Flink's list-state versions do (ListAggWithRetractAggFunction,
// ArrayAggFunction, JsonArrayAggFunction, FirstValueWithRetract and
// LastValueWithRetractAggFunction): a row taken out removes the earliest
// value equal to its own, and a value the slot does not hold changes
// nothing. Removing is a walk of the slot's list, as Flink's ListView.remove
// is.

// removeFirst takes the earliest item equal to v out of l; false when
// none is.
func (l *strList) removeFirst(v []byte) bool {
	for k := range l.items {
		if bytes.Equal(l.value(k), v) {
			l.removeAt(k)
			return true
		}
	}
	return false
}

// removeAt takes item k out of l.
func (l *strList) removeAt(k int) {
	start := 0
	if k > 0 {
		start = l.items[k-1].end
	}
	end := l.items[k].end
	l.buf = append(l.buf[:start], l.buf[end:]...)
	l.items = append(l.items[:k], l.items[k+1:]...)
	for j := k; j < len(l.items); j++ {
		l.items[j].end -= end - start
	}
}

// retractListAgg is LISTAGG(x [, sep]) with retraction.
type retractListAgg struct{ *listAggAcc }

func newRetractListAgg(in arrow.DataType, sep string) (*retractListAgg, error) {
	acc, err := newListAggAcc(in, sep, false)
	if err != nil {
		return nil, err
	}
	return &retractListAgg{acc}, nil
}

func (a *retractListAgg) retract(col arrow.Array, slots []int32, from, to int) {
	c := col.(*array.String)
	for i := from; i < to; i++ {
		if s := slots[i]; s >= 0 && c.IsValid(i) {
			a.ordered(s).removeFirst(bytesOf(c.Value(i)))
		}
	}
}

// retractArrayAgg is ARRAY_AGG(x) with retraction: a NULL row takes out a
// NULL element, unless IGNORE NULLS kept none.
type retractArrayAgg struct{ *arrayAggAcc }

func newRetractArrayAgg(in arrow.DataType, ignoreNulls bool) (*retractArrayAgg, error) {
	acc, err := newArrayAggAcc(in, ignoreNulls, false)
	if err != nil {
		return nil, err
	}
	return &retractArrayAgg{acc}, nil
}

func (a *arrayAggAcc) retract(col arrow.Array, slots []int32, from, to int) {
	view := a.elem.view(col)
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 {
			continue
		}
		v := a.val[:0]
		if col.IsNull(i) {
			if a.ignoreNulls {
				continue
			}
			v = append(v, 0)
		} else {
			v = view.appendTo(append(v, 1), i)
		}
		a.val = v
		a.ordered(s).removeFirst(v)
	}
}

// retractJSONAgg is JSON_ARRAYAGG and JSON_OBJECTAGG with retraction:
// JSON_ARRAYAGG takes out the earliest equal item, JSON_OBJECTAGG the
// member of the row's key, whatever its value (Flink's map.remove(key)).
type retractJSONAgg struct {
	*jsonAggAcc
	key []byte // scratch
}

func newRetractJSONAgg(in arrow.DataType, object bool) (*retractJSONAgg, error) {
	acc, err := newJSONAggAcc(in, object)
	if err != nil {
		return nil, err
	}
	return &retractJSONAgg{jsonAggAcc: acc}, nil
}

func (a *retractJSONAgg) retract(col arrow.Array, slots []int32, from, to int) {
	c := col.(*array.String)
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || c.IsNull(i) {
			continue
		}
		v := bytesOf(c.Value(i))
		l := a.ordered(s)
		if !a.object || len(v) <= 2 {
			l.removeFirst(v)
			continue
		}
		a.key = appendJSONKey(a.key[:0], v[1:len(v)-1])
		for k := range l.items {
			m := l.value(k)
			if len(m) <= 2 {
				continue
			}
			if a.keys = appendJSONKey(a.keys[:0], m[1:len(m)-1]); bytes.Equal(a.keys, a.key) {
				l.removeAt(k)
				break
			}
		}
	}
}

// retractPick is FIRST_VALUE and LAST_VALUE with retraction: every
// non-NULL value in arrival order, the result the earliest or the latest
// still held.
type retractPick struct {
	*arrayAggAcc
	last bool
}

func newRetractPick(in arrow.DataType, last bool) (*retractPick, error) {
	if _, err := valueKindOf(in); err != nil {
		return nil, err
	}
	acc, err := newArrayAggAcc(in, true, false)
	if err != nil {
		return nil, err
	}
	acc.what = "FIRST_VALUE" // the state it holds past the limit is named in errors
	if last {
		acc.what = "LAST_VALUE"
	}
	return &retractPick{arrayAggAcc: acc, last: last}, nil
}

// picked is slot s's value as held (after its tag byte); ok false when it
// holds none.
func (a *retractPick) picked(s int32) (v []byte, ok bool) {
	l := a.ordered(s)
	if len(l.items) == 0 {
		return nil, false
	}
	k := 0
	if a.last {
		k = len(l.items) - 1
	}
	return l.value(k)[1:], true
}

func (a *retractPick) appendResults(slots []int32, b array.Builder) {
	put := elemAppender(b)
	for _, s := range slots {
		if v, ok := a.picked(s); ok {
			put(v)
		} else {
			b.AppendNull()
		}
	}
}

func (a *retractPick) sameResult(x, y int32) bool {
	vx, okx := a.picked(x)
	vy, oky := a.picked(y)
	return okx == oky && bytes.Equal(vx, vy)
}

// copyResult keeps only the value picked: a shadow slot shows no more.
func (a *retractPick) copyResult(dst, src int32) {
	d := &a.lists[dst]
	d.clear()
	if v, ok := a.picked(src); ok {
		d.buf = append(append(d.buf, 1), v...)
		d.items = append(d.items, listItem{end: len(d.buf)})
	}
}

func (a *retractPick) resultType() arrow.DataType { return a.elem.dt }
