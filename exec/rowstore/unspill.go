package rowstore

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// columnSource is where a gather reads a chunk's columns: a record in
// memory, or the rows of a spilled chunk it asked for, read back.
type columnSource interface {
	Column(i int) arrow.Array
}

// loadedRows is the rows of a spilled chunk that one gather reads (in row
// order), of the columns it reads; the other columns are nil.
type loadedRows struct{ cols []arrow.Array }

func (l *loadedRows) Column(i int) arrow.Array { return l.cols[i] }

func (l *loadedRows) release() {
	for _, c := range l.cols {
		if c != nil {
			c.Release()
		}
	}
}

// unspiller reads rows of spilled chunks back: per column, the rows'
// values only, their reads sorted by offset and neighbours read together.
type unspiller struct {
	mem   memory.Allocator
	spans []span
	pairs []byte
}

// load reads rows (sorted, distinct) of columns which of sc.
func (u *unspiller) load(sc *spilledChunk, which []int, rows []int32) (*loadedRows, error) {
	l := &loadedRows{cols: make([]arrow.Array, len(sc.cols))}
	for _, c := range which {
		d, err := u.column(sc.file, &sc.cols[c], rows)
		if err != nil {
			l.release()
			return nil, err
		}
		l.cols[c] = array.MakeFromData(d)
		d.Release()
	}
	return l, nil
}

func (u *unspiller) column(f *spillFile, col *spilledColumn, rows []int32) (arrow.ArrayData, error) {
	n := len(rows)
	var valid *memory.Buffer
	nulls := 0
	if col.valid != nil {
		valid = memory.NewResizableBuffer(u.mem)
		valid.Resize(int(bitutil.BytesForBits(int64(n))))
		bits := valid.Bytes()
		clear(bits)
		for i, r := range rows {
			if bitutil.BitIsSet(col.valid, int(r)) {
				bitutil.SetBit(bits, i)
			} else {
				nulls++
			}
		}
		if nulls == 0 {
			valid.Release()
			valid = nil
		}
	}
	release := func(bufs []*memory.Buffer) {
		for _, b := range bufs {
			if b != nil {
				b.Release()
			}
		}
	}
	switch col.dt.ID() {
	case arrow.NULL:
		release([]*memory.Buffer{valid})
		return array.NewData(col.dt, n, []*memory.Buffer{nil}, nil, n, 0), nil
	case arrow.BOOL:
		spans := u.spans[:0]
		for _, r := range rows {
			spans = append(spans, span{off: col.at + int64(col.bitOff+int(r))/8, n: 1})
		}
		u.spans = spans
		u.pairs = growBytes(u.pairs, n)
		if err := f.readSpans(spans, u.pairs); err != nil {
			release([]*memory.Buffer{valid})
			return nil, err
		}
		values := memory.NewResizableBuffer(u.mem)
		values.Resize(int(bitutil.BytesForBits(int64(n))))
		bits := values.Bytes()
		clear(bits)
		for i, r := range rows {
			if u.pairs[i]>>((col.bitOff+int(r))%8)&1 != 0 {
				bitutil.SetBit(bits, i)
			}
		}
		bufs := []*memory.Buffer{valid, values}
		defer release(bufs)
		return array.NewData(col.dt, n, bufs, nil, nulls, 0), nil
	case arrow.STRING, arrow.BINARY:
		// the rows' offset pairs, then the bytes they bound
		spans := u.spans[:0]
		for _, r := range rows {
			spans = append(spans, span{off: col.at + 4*int64(r), n: 8})
		}
		u.pairs = growBytes(u.pairs, 8*n)
		if err := f.readSpans(spans, u.pairs); err != nil {
			release([]*memory.Buffer{valid})
			return nil, err
		}
		offsets := memory.NewResizableBuffer(u.mem)
		offsets.Resize(4 * (n + 1))
		out := arrow.Int32Traits.CastFromBytes(offsets.Bytes())[:n+1]
		spans, size := spans[:0], int32(0)
		for i := range n {
			from := int32(binary.LittleEndian.Uint32(u.pairs[8*i:]))
			to := int32(binary.LittleEndian.Uint32(u.pairs[8*i+4:]))
			out[i] = size
			size += to - from
			if to > from {
				spans = append(spans, span{off: col.data + int64(from-col.base), n: int(to - from)})
			}
		}
		out[n] = size
		u.spans = spans
		data := memory.NewResizableBuffer(u.mem)
		data.Resize(int(size))
		bufs := []*memory.Buffer{valid, offsets, data}
		defer release(bufs)
		if err := f.readSpans(spans, data.Bytes()); err != nil {
			return nil, err
		}
		return array.NewData(col.dt, n, bufs, nil, nulls, 0), nil
	case arrow.STRUCT:
		children := make([]arrow.ArrayData, len(col.children))
		defer func() {
			for _, c := range children {
				if c != nil {
					c.Release()
				}
			}
		}()
		for i := range col.children {
			c, err := u.column(f, &col.children[i], rows)
			if err != nil {
				release([]*memory.Buffer{valid})
				return nil, err
			}
			children[i] = c
		}
		bufs := []*memory.Buffer{valid}
		defer release(bufs)
		return array.NewData(col.dt, n, bufs, children, nulls, 0), nil
	}
	width := col.dt.(arrow.FixedWidthDataType).BitWidth() / 8
	spans := u.spans[:0]
	for _, r := range rows {
		spans = append(spans, span{off: col.at + int64(width)*int64(r), n: width})
	}
	u.spans = spans
	values := memory.NewResizableBuffer(u.mem)
	values.Resize(width * n)
	bufs := []*memory.Buffer{valid, values}
	defer release(bufs)
	if err := f.readSpans(spans, values.Bytes()); err != nil {
		return nil, err
	}
	return array.NewData(col.dt, n, bufs, nil, nulls, 0), nil
}

func growBytes(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
