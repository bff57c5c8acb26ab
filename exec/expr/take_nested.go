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
		if validity != nil && nulls == len(idx) {
			if zeros, ok := zeroFields(t.DataType().(*arrow.StructType), len(idx), mem); ok {
				children = zeros
				break
			}
		}
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

// zeroFields are the fields of n all-NULL ROWs, zeros and empty strings
// over one zeroed buffer (false for other field types): a filter keeping
// one Nexmark event kind took the other kinds' 18 fields row by row.
func zeroFields(st *arrow.StructType, n int, mem memory.Allocator) ([]arrow.ArrayData, bool) {
	width := 4 // bytes per row: a string's offsets
	for _, f := range st.Fields() {
		if fw, ok := f.Type.(arrow.FixedWidthDataType); ok {
			width = max(width, (fw.BitWidth()+7)/8)
		} else if id := f.Type.ID(); id != arrow.STRING && id != arrow.BINARY {
			return nil, false
		}
	}
	zeros, z := NewValues[byte](mem, width*(n+1))
	clear(z)
	empty := memory.NewResizableBuffer(mem)
	out := make([]arrow.ArrayData, st.NumFields())
	for i, f := range st.Fields() { // each holds its buffers
		out[i] = array.NewData(f.Type, n, []*memory.Buffer{nil, zeros, empty}[:len(f.Type.Layout().Buffers)], nil, 0, 0)
	}
	zeros.Release()
	empty.Release()
	return out, true
}
