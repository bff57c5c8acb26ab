package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// takeNested returns the rows idx of a ROW (struct), ARRAY (list) or MAP
// (map) array, whose validity the caller has taken already: a struct's
// fields are taken at the same rows, a list's or map's elements of those
// rows in order, with new offsets. ok is false for other arrays.
func takeNested(a arrow.Array, idx []int32, mem memory.Allocator, validity *memory.Buffer, nulls int) (out arrow.Array, ok bool, err error) {
	defer func() {
		if err != nil && validity != nil {
			validity.Release()
		}
	}()
	var (
		children []arrow.ArrayData
		bufs     = []*memory.Buffer{validity}
	)
	defer func() {
		for _, c := range children {
			c.Release()
		}
	}()
	switch t := a.(type) {
	case *array.Struct:
		for k := range t.NumField() {
			c, err := takeArray(t.Field(k), idx, mem)
			if err != nil {
				return nil, true, err
			}
			children = append(children, c.Data())
			c.Data().Retain()
			c.Release()
		}
	case array.ListLike:
		var values arrow.Array
		switch l := t.(type) {
		case *array.Map:
			values = l.ListValues()
		case *array.List:
			values = l.ListValues()
		default:
			return nil, false, nil
		}
		// the offsets buffer is not sliced with the array: rows start at its offset
		offs := arrow.Int32Traits.CastFromBytes(a.Data().Buffers()[1].Bytes())[a.Data().Offset():]
		ob, newOffs := NewValues[int32](mem, len(idx)+1)
		total := 0
		for j, i := range idx {
			newOffs[j] = int32(total)
			total += int(offs[i+1] - offs[i])
		}
		newOffs[len(idx)] = int32(total)
		elems := make([]int32, 0, total) // one per batch, not per row
		for _, i := range idx {
			for e := offs[i]; e < offs[i+1]; e++ {
				elems = append(elems, e)
			}
		}
		c, err := takeArray(values, elems, mem)
		if err != nil {
			ob.Release()
			return nil, true, err
		}
		children = append(children, c.Data())
		c.Data().Retain()
		c.Release()
		bufs = append(bufs, ob)
		defer ob.Release()
	default:
		return nil, false, nil
	}
	data := array.NewData(a.DataType(), len(idx), bufs, children, nulls, 0)
	defer data.Release()
	if validity != nil {
		validity.Release()
	}
	return array.MakeFromData(data), true, nil
}
