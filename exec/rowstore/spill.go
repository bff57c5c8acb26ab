package rowstore

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// spilledChunk is a chunk whose columns are in the spill file: what is
// needed to find a row's values there.
type spilledChunk struct {
	file  *spillFile
	n     int
	bytes int64 // its length in the file
	cols  []spilledColumn
}

// spilledColumn is one column of a spilled chunk. Its validity bitmap
// stays in memory (an eighth of a byte a row: a NULL is known without a
// read); its values are in the file from at: fixed widths' values, a
// BOOLEAN's bits from bit bitOff, or a string's n+1 offsets (less base),
// its bytes from data.
type spilledColumn struct {
	dt       arrow.DataType
	nulls    int
	valid    []byte // from bit 0; nil without NULLs
	at, data int64
	base     int32
	bitOff   int
	children []spilledColumn // a ROW's fields
}

// spillable reports whether columns of type dt can be spilled: the types
// whose values a row's position finds.
func spillable(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.NULL, arrow.BOOL, arrow.STRING, arrow.BINARY:
		return true
	case arrow.STRUCT:
		for _, f := range dt.(*arrow.StructType).Fields() {
			if !spillable(f.Type) {
				return false
			}
		}
		return true
	case arrow.DICTIONARY, arrow.EXTENSION:
		return false
	}
	fw, ok := dt.(arrow.FixedWidthDataType)
	return ok && fw.BitWidth()%8 == 0
}

func schemaSpillable(s *arrow.Schema) bool {
	for _, f := range s.Fields() {
		if !spillable(f.Type) {
			return false
		}
	}
	return true
}

// spillWriter lays a chunk's buffers out in the file's write buffer.
type spillWriter struct {
	buf  []byte
	base int64 // where buf will start in the file
}

func (w *spillWriter) put(b []byte) int64 {
	at := w.base + int64(len(w.buf))
	w.buf = append(w.buf, b...)
	return at
}

// spillChunk writes rec's columns to the file and returns where they are.
func spillChunk(f *spillFile, rec arrow.RecordBatch, w *spillWriter) (*spilledChunk, error) {
	// laid out at the end of the file's buffer, where they will be
	start := len(f.buf)
	w.buf, w.base = f.buf, f.size-int64(start)
	sc := &spilledChunk{file: f, n: int(rec.NumRows()), cols: make([]spilledColumn, rec.NumCols())}
	for c, col := range rec.Columns() {
		sc.cols[c] = w.column(col)
	}
	f.buf, w.buf = w.buf, nil
	sc.bytes = int64(len(f.buf) - start)
	if err := f.appended(len(f.buf) - start); err != nil {
		return nil, err
	}
	return sc, nil
}

func (w *spillWriter) column(a arrow.Array) spilledColumn {
	d := a.Data()
	n, off := a.Len(), d.Offset()
	sc := spilledColumn{dt: a.DataType(), nulls: a.NullN()}
	if sc.nulls > 0 && a.DataType().ID() != arrow.NULL {
		sc.valid = make([]byte, bitutil.BytesForBits(int64(n)))
		bitutil.CopyBitmap(d.Buffers()[0].Bytes(), off, n, sc.valid, 0)
	}
	switch a.DataType().ID() {
	case arrow.NULL:
	case arrow.BOOL:
		sc.bitOff = off % 8
		sc.at = w.put(d.Buffers()[1].Bytes()[off/8 : (off+n+7)/8])
	case arrow.STRING, arrow.BINARY:
		offsets := arrow.Int32Traits.CastFromBytes(d.Buffers()[1].Bytes())[off : off+n+1]
		sc.base = offsets[0]
		sc.at = w.put(arrow.Int32Traits.CastToBytes(offsets))
		var bytes []byte
		if b := d.Buffers()[2]; b != nil {
			bytes = b.Bytes()[offsets[0]:offsets[n]]
		}
		sc.data = w.put(bytes)
	case arrow.STRUCT:
		s := a.(*array.Struct)
		sc.children = make([]spilledColumn, s.NumField())
		for i := range sc.children {
			sc.children[i] = w.column(s.Field(i))
		}
	default:
		width := a.DataType().(arrow.FixedWidthDataType).BitWidth() / 8
		var values []byte
		if b := d.Buffers()[1]; b != nil {
			values = b.Bytes()[off*width : (off+n)*width]
		}
		sc.at = w.put(values)
	}
	return sc
}

// chunkBytes is the memory a chunk's rows take (what spilling it writes,
// and its validity bitmaps).
func chunkBytes(rec arrow.RecordBatch) int64 {
	var n int64
	for _, c := range rec.Columns() {
		n += arrayBytes(c)
	}
	return n
}

func arrayBytes(a arrow.Array) int64 {
	d := a.Data()
	n := int64(a.Len())
	size := int64(0)
	if a.NullN() > 0 {
		size += bitutil.BytesForBits(n)
	}
	switch a.DataType().ID() {
	case arrow.NULL:
	case arrow.BOOL:
		size += bitutil.BytesForBits(n)
	case arrow.STRING, arrow.BINARY:
		offsets := arrow.Int32Traits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset():]
		size += 4*(n+1) + int64(offsets[n]-offsets[0])
	case arrow.STRUCT:
		s := a.(*array.Struct)
		for i := range s.NumField() {
			size += arrayBytes(s.Field(i))
		}
	default:
		if fw, ok := a.DataType().(arrow.FixedWidthDataType); ok {
			size += n * int64(fw.BitWidth()/8)
		} else {
			for _, b := range d.Buffers() { // a type not spilled: its buffers
				if b != nil {
					size += int64(b.Len())
				}
			}
		}
	}
	return size
}
