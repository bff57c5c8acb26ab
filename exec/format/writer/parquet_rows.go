package writer

import (
	"encoding/binary"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/parquet-go/parquet-go"
)

// A leafValue reads the value of row i of a leaf column; bytes it makes
// (a DECIMAL's) come from b and stay valid until b is reset.
type leafValue func(a arrow.Array, i int, b *valueBytes) parquet.Value

func boolValue(a arrow.Array, i int, _ *valueBytes) parquet.Value {
	return parquet.BooleanValue(a.(*array.Boolean).Value(i))
}

func int8Value(a arrow.Array, i int, _ *valueBytes) parquet.Value {
	return parquet.Int32Value(int32(a.(*array.Int8).Value(i)))
}

func int16Value(a arrow.Array, i int, _ *valueBytes) parquet.Value {
	return parquet.Int32Value(int32(a.(*array.Int16).Value(i)))
}

// int32Value reads any array of 32-bit values: INT, DATE, TIME(3) and an
// INTERVAL YEAR TO MONTH's months.
func int32Value(a arrow.Array, i int, _ *valueBytes) parquet.Value {
	return parquet.Int32Value(fixed32(a, i))
}

// int64Value reads any array of 64-bit values: BIGINT, TIME(6, 9),
// timestamps and an INTERVAL DAY TO SECOND's milliseconds.
func int64Value(a arrow.Array, i int, _ *valueBytes) parquet.Value {
	return parquet.Int64Value(fixed64(a, i))
}

func time32SecondValue(a arrow.Array, i int, _ *valueBytes) parquet.Value {
	return parquet.Int32Value(fixed32(a, i) * 1000)
}

func timestampSecondValue(a arrow.Array, i int, _ *valueBytes) parquet.Value {
	return parquet.Int64Value(fixed64(a, i) * 1000)
}

func float32Value(a arrow.Array, i int, _ *valueBytes) parquet.Value {
	return parquet.FloatValue(a.(*array.Float32).Value(i))
}

func float64Value(a arrow.Array, i int, _ *valueBytes) parquet.Value {
	return parquet.DoubleValue(a.(*array.Float64).Value(i))
}

// stringValue points into the array's buffer, not copied: the writer
// copies the bytes into its page before WriteBatch returns.
func stringValue(a arrow.Array, i int, _ *valueBytes) parquet.Value {
	s := a.(*array.String).Value(i)
	return parquet.ByteArrayValue(unsafe.Slice(unsafe.StringData(s), len(s)))
}

func largeStringValue(a arrow.Array, i int, _ *valueBytes) parquet.Value {
	s := a.(*array.LargeString).Value(i)
	return parquet.ByteArrayValue(unsafe.Slice(unsafe.StringData(s), len(s)))
}

func binaryValue(a arrow.Array, i int, _ *valueBytes) parquet.Value {
	return parquet.ByteArrayValue(a.(*array.Binary).Value(i))
}

func largeBinaryValue(a arrow.Array, i int, _ *valueBytes) parquet.Value {
	return parquet.ByteArrayValue(a.(*array.LargeBinary).Value(i))
}

// decimalValue writes a DECIMAL's unscaled value big-endian in size bytes,
// as Parquet's FIXED_LEN_BYTE_ARRAY decimals hold it.
func decimalValue(size int) leafValue {
	return func(a arrow.Array, i int, b *valueBytes) parquet.Value {
		n := a.(*array.Decimal128).Value(i)
		var be [16]byte
		binary.BigEndian.PutUint64(be[:8], uint64(n.HighBits()))
		binary.BigEndian.PutUint64(be[8:], n.LowBits())
		return parquet.FixedLenByteArrayValue(b.take(be[16-size:]))
	}
}

// fixed32 and fixed64 read the i-th value of an array of 4- or 8-byte
// values whatever its type.
func fixed32(a arrow.Array, i int) int32 {
	d := a.Data()
	return int32(binary.LittleEndian.Uint32(d.Buffers()[1].Bytes()[(d.Offset()+i)*4:]))
}

func fixed64(a arrow.Array, i int) int64 {
	d := a.Data()
	return int64(binary.LittleEndian.Uint64(d.Buffers()[1].Bytes()[(d.Offset()+i)*8:]))
}

// valueBytes holds the bytes of the values of a batch's rows that are not
// in the batch's buffers. It grows by new chunks, so that the bytes taken
// before stay where they are.
type valueBytes struct {
	chunk []byte
	used  int // the bytes of the chunks before this one, for reset
}

func (b *valueBytes) take(v []byte) []byte {
	if len(b.chunk)+len(v) > cap(b.chunk) {
		b.used += len(b.chunk)
		b.chunk = make([]byte, 0, max(4096, 2*cap(b.chunk), len(v)))
	}
	at := len(b.chunk)
	b.chunk = append(b.chunk, v...)
	return b.chunk[at:len(b.chunk):len(b.chunk)]
}

// reset makes the bytes free once the writer has copied them; the chunk
// in use is kept, grown to hold what the last batch took.
func (b *valueBytes) reset() {
	if b.used > 0 {
		b.chunk = make([]byte, 0, b.used+cap(b.chunk))
	}
	b.chunk, b.used = b.chunk[:0], 0
}

// rowShredder turns a batch's rows into Parquet's rows: each leaf's values
// with their repetition and definition levels (Dremel's shredding), in
// column order.
type rowShredder struct {
	cols   []*parquetColumn
	leaves [][]parquet.Value // the current row's values, per leaf column
	values []parquet.Value   // the batch's rows, one after the other
	ends   []int             // where each row ends in values
	rows   []parquet.Row
	bytes  valueBytes
}

func newRowShredder(cols []*parquetColumn) *rowShredder {
	n := 0
	for _, c := range cols {
		n += len(c.leaves)
	}
	return &rowShredder{cols: cols, leaves: make([][]parquet.Value, n)}
}

// shred returns rec's rows, valid until the next call.
func (s *rowShredder) shred(rec arrow.RecordBatch) []parquet.Row {
	s.values, s.ends, s.rows = s.values[:0], s.ends[:0], s.rows[:0]
	s.bytes.reset()
	for i := range int(rec.NumRows()) {
		for l := range s.leaves {
			s.leaves[l] = s.leaves[l][:0]
		}
		for c, col := range s.cols {
			s.write(col, rec.Column(c), i, 0, 0)
		}
		for _, l := range s.leaves {
			s.values = append(s.values, l...)
		}
		s.ends = append(s.ends, len(s.values))
	}
	// the rows are sliced out of values once it has stopped growing
	start := 0
	for _, end := range s.ends {
		s.rows = append(s.rows, s.values[start:end:end])
		start = end
	}
	return s.rows
}

// write shreds entry i of a, a value of col's field whose ancestors give
// it the repetition level rep and the definition level def.
func (s *rowShredder) write(col *parquetColumn, a arrow.Array, i, rep, def int) {
	if col.optional {
		if a.IsNull(i) {
			s.nulls(col, rep, def)
			return
		}
		def++
	}
	switch col.kind {
	case leafColumn:
		s.leaves[col.leaf] = append(s.leaves[col.leaf], col.value(a, i, &s.bytes).Level(rep, def, col.leaf))
	case structColumn:
		st := a.(*array.Struct)
		for k, c := range col.children {
			s.write(c, st.Field(k), i, rep, def)
		}
	case listColumn:
		l := a.(array.ListLike)
		start, end := l.ValueOffsets(i)
		if start == end {
			s.nulls(col, rep, def) // an empty list: its entries' level is not reached
			return
		}
		for j := start; j < end; j++ {
			s.write(col.children[0], l.ListValues(), int(j), rep, def+1)
			rep = col.repLevel
		}
	case mapColumn:
		m := a.(*array.Map)
		start, end := m.ValueOffsets(i)
		if start == end {
			s.nulls(col, rep, def)
			return
		}
		keys, items := m.Keys(), m.Items()
		for j := start; j < end; j++ {
			s.write(col.children[0], keys, int(j), rep, def+1)
			s.write(col.children[1], items, int(j), rep, def+1)
			rep = col.repLevel
		}
	}
}

// nulls writes a NULL, or an empty list or map, at definition level def
// into every leaf under col.
func (s *rowShredder) nulls(col *parquetColumn, rep, def int) {
	for _, l := range col.leaves {
		s.leaves[l] = append(s.leaves[l], parquet.NullValue().Level(rep, def, l))
	}
}
