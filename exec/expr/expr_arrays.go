package expr

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Expression kernels read and write Arrow buffers as typed Go slices: one
// loop per batch over []T, no builder or interface call per row. These are
// the few helpers every kernel shares.

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64
}

type float interface{ ~float32 | ~float64 }

type number interface{ integer | float }

// valuesOf returns the fixed-width values of a as []T (a's offset applied).
// T must have the width of a's elements.
func valuesOf[T any](a arrow.Array) []T {
	d := a.Data()
	bufs := d.Buffers()
	if len(bufs) < 2 || bufs[1] == nil || d.Len() == 0 {
		return nil
	}
	b := bufs[1].Bytes()
	var z T
	all := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/int(unsafe.Sizeof(z)))
	return all[d.Offset() : d.Offset()+d.Len()]
}

// NewValues allocates an output buffer of n values of T from mem.
func NewValues[T any](mem memory.Allocator, n int) (*memory.Buffer, []T) {
	var z T
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * int(unsafe.Sizeof(z)))
	if n == 0 {
		return buf, nil
	}
	return buf, unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(buf.Bytes()))), n)
}

// NewBits allocates a zeroed bitmap of n bits.
func NewBits(mem memory.Allocator, n int) (*memory.Buffer, []byte) {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(n))))
	b := buf.Bytes()
	clear(b)
	return buf, b
}

// NewArray wraps freshly made buffers into an array and gives up the
// caller's references to them. validity may be nil (no nulls).
func NewArray(dt arrow.DataType, n int, validity *memory.Buffer, nulls int, buffers ...*memory.Buffer) arrow.Array {
	bufs := make([]*memory.Buffer, 0, 1+len(buffers))
	bufs = append(bufs, validity)
	bufs = append(bufs, buffers...)
	data := array.NewData(dt, n, bufs, nil, nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	defer data.Release()
	return array.MakeFromData(data)
}

// andValidity returns the bitmap of rows valid in every input (nil when
// none has a null) and the resulting null count.
func andValidity(mem memory.Allocator, n int, arrs ...arrow.Array) (*memory.Buffer, int) {
	var buf *memory.Buffer
	var out []byte
	for _, a := range arrs {
		if a == nil || a.NullN() == 0 {
			continue
		}
		if buf == nil {
			buf, out = NewBits(mem, n)
			copyValidity(out, a)
			continue
		}
		andValidityInto(out, a)
	}
	if buf == nil {
		return nil, 0
	}
	return buf, n - bitutil.CountSetBits(out, 0, n)
}

// copyValidity writes a's validity bits (all set without nulls) to out.
func copyValidity(out []byte, a arrow.Array) {
	n := a.Len()
	if a.NullN() == 0 {
		bitutil.SetBitsTo(out, 0, int64(n), true)
		return
	}
	if a.DataType().ID() == arrow.NULL {
		bitutil.SetBitsTo(out, 0, int64(n), false)
		return
	}
	bitutil.CopyBitmap(a.NullBitmapBytes(), a.Data().Offset(), n, out, 0)
}

// andValidityInto clears the bits of out where a is NULL.
func andValidityInto(out []byte, a arrow.Array) {
	if a.NullN() == 0 {
		return
	}
	n := a.Len()
	if a.DataType().ID() == arrow.NULL {
		clear(out)
		return
	}
	src, off := a.NullBitmapBytes(), a.Data().Offset()
	if off%8 == 0 {
		src = src[off/8:]
		for i := range bitutil.BytesForBits(int64(n)) {
			out[i] &= src[i]
		}
		return
	}
	for i := range n {
		if bitutil.BitIsNotSet(src, off+i) {
			bitutil.ClearBit(out, i)
		}
	}
}

// alignedBits returns a bitmap whose bit i is bit off+i of bits, copying
// only when off is not a multiple of 8.
func alignedBits(bits []byte, off, n int) []byte {
	if off%8 == 0 {
		return bits[off/8:]
	}
	out := make([]byte, bitutil.BytesForBits(int64(n)))
	bitutil.CopyBitmap(bits, off, n, out, 0)
	return out
}

// boolParts returns the value bits and validity bits of a BOOLEAN array,
// both starting at bit 0; a validity of all ones stands for "no nulls". The
// value bits of NULL rows are cleared, so kernels can combine them freely.
func boolParts(a *array.Boolean) (vals, valid []byte) {
	n := a.Len()
	nb := int(bitutil.BytesForBits(int64(n)))
	vals = make([]byte, nb)
	bitutil.CopyBitmap(a.Data().Buffers()[1].Bytes(), a.Data().Offset(), n, vals, 0)
	valid = make([]byte, nb)
	copyValidity(valid, a)
	for i := range vals {
		vals[i] &= valid[i]
	}
	return vals, valid
}

// newBool makes a BOOLEAN array from value bits and validity bits (nil for
// no nulls); it copies both.
func newBool(mem memory.Allocator, n int, vals, valid []byte) arrow.Array {
	vb, v := NewBits(mem, n)
	copy(v, vals)
	var nb *memory.Buffer
	nulls := 0
	if valid != nil {
		nulls = n - bitutil.CountSetBits(valid, 0, n)
		if nulls > 0 {
			var m []byte
			nb, m = NewBits(mem, n)
			copy(m, valid)
		}
	}
	return NewArray(arrow.FixedWidthTypes.Boolean, n, nb, nulls, vb)
}

// b2u is 1 for true; the compiler turns it into a flag move, not a branch.
func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// validAt reports whether row i of a is not NULL, without an interface call
// when bitmap is fetched once per batch by nullBitmap.
func validAt(bitmap []byte, off, i int) bool {
	return bitmap == nil || bitutil.BitIsSet(bitmap, off+i)
}

// nullBitmap returns a's validity bitmap and offset, nil when a has no nulls.
func nullBitmap(a arrow.Array) ([]byte, int) {
	if a.NullN() == 0 {
		return nil, 0
	}
	return a.NullBitmapBytes(), a.Data().Offset()
}
