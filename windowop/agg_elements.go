package windowop

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// ARRAY_AGG and COLLECT keep values of any scalar type as bytes, so one
// accumulator serves every type and a slot's values share one buffer: a
// fixed-width value as the little-endian bytes of its Arrow buffer, a
// BOOLEAN as one byte, a STRING or BYTES value as its bytes. Equal values
// have equal bytes, which DISTINCT and COLLECT's counts rely on (a DOUBLE
// compares by its bits, as Java's Double keys do, but for NaN, see
// elemView.appendTo).

// elemType is how values of one type are held as bytes.
type elemType struct {
	dt    arrow.DataType
	kind  elemKind
	width int // elemFixed: bytes per value
}

type elemKind uint8

const (
	elemFixed elemKind = iota
	elemBool
	elemString
	elemBinary
)

// newElemType fails for types the aggregates do not hold: nested values.
func newElemType(name string, dt arrow.DataType) (elemType, error) {
	switch dt.ID() {
	case arrow.BOOL:
		return elemType{dt: dt, kind: elemBool}, nil
	case arrow.STRING:
		return elemType{dt: dt, kind: elemString}, nil
	case arrow.BINARY:
		return elemType{dt: dt, kind: elemBinary}, nil
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64,
		arrow.DATE32, arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP, arrow.DECIMAL128:
		return elemType{dt: dt, kind: elemFixed, width: dt.(arrow.FixedWidthDataType).BitWidth() / 8}, nil
	}
	return elemType{}, fmt.Errorf("%s over %s values is not supported yet", name, dt)
}

// elemView reads the values of one batch's column as bytes.
type elemView struct {
	kind  elemKind
	width int
	fixed []byte // elemFixed: the values buffer from the array's offset
	bools *array.Boolean
	strs  *array.String
	bins  *array.Binary
	nan   bool // FLOAT/DOUBLE: NaNs are written as one NaN
}

func (t elemType) view(col arrow.Array) elemView {
	v := elemView{kind: t.kind, width: t.width}
	switch c := col.(type) {
	case *array.Boolean:
		v.bools = c
	case *array.String:
		v.strs = c
	case *array.Binary:
		v.bins = c
	default:
		d := col.Data()
		if buf := d.Buffers()[1]; buf != nil {
			v.fixed = buf.Bytes()[d.Offset()*t.width:]
		}
		v.nan = t.dt.ID() == arrow.FLOAT32 || t.dt.ID() == arrow.FLOAT64
	}
	return v
}

var (
	nan32 = binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(math.NaN())))
	nan64 = binary.LittleEndian.AppendUint64(nil, math.Float64bits(math.NaN()))
)

// appendTo appends the bytes of row i's value, which must not be NULL.
func (v *elemView) appendTo(dst []byte, i int) []byte {
	switch v.kind {
	case elemFixed:
		b := v.fixed[i*v.width : (i+1)*v.width]
		if v.nan && isNaNBytes(b) {
			b = nan64
			if v.width == 4 {
				b = nan32
			}
		}
		return append(dst, b...)
	case elemBool:
		if v.bools.Value(i) {
			return append(dst, 1)
		}
		return append(dst, 0)
	case elemString:
		return append(dst, v.strs.Value(i)...)
	}
	return append(dst, v.bins.Value(i)...)
}

// isNaNBytes reports whether b, a FLOAT or DOUBLE, is a NaN: Java's Double
// keys make all NaNs one value.
func isNaNBytes(b []byte) bool {
	if len(b) == 4 {
		f := math.Float32frombits(binary.LittleEndian.Uint32(b))
		return f != f
	}
	f := math.Float64frombits(binary.LittleEndian.Uint64(b))
	return f != f
}

// elemAppender returns the function that appends a value held as bytes to
// b, a builder of the type's column; chosen once per batch of results.
func elemAppender(b array.Builder) func(raw []byte) {
	le := binary.LittleEndian
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		return func(r []byte) { bb.Append(r[0] != 0) }
	case *array.StringBuilder:
		return func(r []byte) { bb.BinaryBuilder.Append(r) }
	case *array.BinaryBuilder:
		return func(r []byte) { bb.Append(r) }
	case *array.Int8Builder:
		return func(r []byte) { bb.Append(int8(r[0])) }
	case *array.Int16Builder:
		return func(r []byte) { bb.Append(int16(le.Uint16(r))) }
	case *array.Int32Builder:
		return func(r []byte) { bb.Append(int32(le.Uint32(r))) }
	case *array.Int64Builder:
		return func(r []byte) { bb.Append(int64(le.Uint64(r))) }
	case *array.Float32Builder:
		return func(r []byte) { bb.Append(math.Float32frombits(le.Uint32(r))) }
	case *array.Float64Builder:
		return func(r []byte) { bb.Append(math.Float64frombits(le.Uint64(r))) }
	case *array.Date32Builder:
		return func(r []byte) { bb.Append(arrow.Date32(le.Uint32(r))) }
	case *array.Time32Builder:
		return func(r []byte) { bb.Append(arrow.Time32(le.Uint32(r))) }
	case *array.Time64Builder:
		return func(r []byte) { bb.Append(arrow.Time64(le.Uint64(r))) }
	case *array.TimestampBuilder:
		return func(r []byte) { bb.Append(arrow.Timestamp(le.Uint64(r))) }
	case *array.Decimal128Builder:
		return func(r []byte) { bb.Append(decimal128.New(int64(le.Uint64(r[8:])), le.Uint64(r))) }
	}
	panic(fmt.Sprintf("windowop: no element appender for %s", b.Type()))
}

// bytesOf is s's bytes without a copy, for reading only.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
