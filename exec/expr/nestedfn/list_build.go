package nestedfn

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// listBuilder collects, for one batch, which source elements each result
// row of a list-producing kernel holds: one index slice and one offsets
// buffer per batch, never a slice per row. The elements are taken from
// the source at the end in one take.
type listBuilder struct {
	idx  []int32
	offb *memory.Buffer
	offs []int32
}

func newListBuilder(mem memory.Allocator, n, capacity int) *listBuilder {
	b := &listBuilder{idx: make([]int32, 0, capacity)}
	b.offb, b.offs = expr.NewValues[int32](mem, n+1)
	return b
}

// startRow marks where row i's elements begin.
func (b *listBuilder) startRow(i int) { b.offs[i] = int32(len(b.idx)) }

func (b *listBuilder) add(e int) { b.idx = append(b.idx, int32(e)) }

// finish takes the collected elements of src and returns the list array
// of type dt with the given validity (consumed; nil: no NULL rows).
func (b *listBuilder) finish(dt arrow.DataType, src arrow.Array, validity *memory.Buffer, nulls int, mem memory.Allocator) (arrow.Array, error) {
	n := len(b.offs) - 1
	b.offs[n] = int32(len(b.idx))
	elems, err := expr.Take(src, b.idx, mem)
	if err != nil {
		b.offb.Release()
		if validity != nil {
			validity.Release()
		}
		return nil, err
	}
	return newList(dt, n, validity, nulls, b.offb, elems), nil
}

// newList wraps offsets and elements as a list (or map) array of type
// dt; it consumes validity (may be nil), offsets and elems.
func newList(dt arrow.DataType, n int, validity *memory.Buffer, nulls int, offsets *memory.Buffer, elems arrow.Array) arrow.Array {
	d := array.NewData(dt, n, []*memory.Buffer{validity, offsets}, []arrow.ArrayData{elems.Data()}, nulls, 0)
	if validity != nil {
		validity.Release()
	}
	offsets.Release()
	elems.Release()
	defer d.Release()
	return array.MakeFromData(d)
}

// concatenated is the elements of the lists (their whole values arrays)
// one after the other, and where each list's values start in it.
func concatenated(lists []*array.List, mem memory.Allocator) (arrow.Array, []int, error) {
	base := make([]int, len(lists))
	if len(lists) == 1 {
		v := lists[0].ListValues()
		v.Retain()
		return v, base, nil
	}
	vals := make([]arrow.Array, len(lists))
	total := 0
	for k, l := range lists {
		vals[k] = l.ListValues()
		base[k] = total
		total += vals[k].Len()
	}
	out, err := array.Concatenate(vals, mem)
	return out, base, err
}

// evalAll evaluates each expression over rec; release frees what it got.
func evalAll(xs []expr.Expr, rec arrow.RecordBatch, mem memory.Allocator) (out []arrow.Array, release func(), err error) {
	out = make([]arrow.Array, len(xs))
	release = func() {
		for _, a := range out {
			if a != nil {
				a.Release()
			}
		}
	}
	for k, x := range xs {
		if out[k], err = x.Eval(rec, mem); err != nil {
			release()
			return nil, func() {}, err
		}
	}
	return out, release, nil
}

// listsOf is the arrays as lists; ok is false when one is not (an untyped
// NULL).
func listsOf(arrs []arrow.Array) ([]*array.List, bool) {
	ls := make([]*array.List, len(arrs))
	for k, a := range arrs {
		l, ok := a.(*array.List)
		if !ok {
			return nil, false
		}
		ls[k] = l
	}
	return ls, true
}
