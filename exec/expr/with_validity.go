package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// WithValidity returns a with the rows whose bit in valid (offset 0, one
// bit per row of a) is clear made NULL too, sharing a's values. It
// consumes a.
func WithValidity(a arrow.Array, valid []byte, mem memory.Allocator) arrow.Array {
	data := a.Data()
	off, n := data.Offset(), a.Len()
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(off + n))))
	bits := buf.Bytes()
	clear(bits)
	nulls := 0
	for i := 0; i < n; i++ {
		if bitutil.BitIsSet(valid, i) && a.IsValid(i) {
			bitutil.SetBit(bits, off+i)
		} else {
			nulls++
		}
	}
	bufs := append([]*memory.Buffer{buf}, data.Buffers()[1:]...)
	out := array.NewData(a.DataType(), n, bufs, data.Children(), nulls, off)
	buf.Release()
	res := array.MakeFromData(out)
	out.Release()
	a.Release()
	return res
}
