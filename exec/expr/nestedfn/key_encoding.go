package nestedfn

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// The canonical encoding of a nested value: equal values (a MAP's or
// MULTISET's entries in any order) have equal bytes, and the bytes decode
// back into the value given its type. Every value is a marker byte (0 NULL,
// 1 a value) and then: an integer, date or time as 8 bytes big-endian with
// the sign bit flipped (so integers of any width compare alike and bytes
// order as numbers), a float its bits, a boolean one byte, a string or
// binary its length (uvarint) and bytes, a DECIMAL its 16 bytes, a ROW its
// fields in order, an ARRAY its length and elements, a MAP its length and
// its entries (key, value) ordered by key.

// keyWriter appends the encoding of row i of the array it was made for.
type keyWriter func(b []byte, i int) []byte

// entrySpan is one map entry's encoding in a scratch buffer: key bytes
// [start, mid), value bytes [mid, end).
type entrySpan struct{ start, mid, end int }

// newKeyWriter compiles the writer of arr once per batch; scalars and
// nesting are resolved here, not per row.
func newKeyWriter(arr arrow.Array) (keyWriter, error) {
	var value keyWriter
	switch a := arr.(type) {
	case *array.Struct:
		fields := make([]keyWriter, a.NumField())
		for k := range fields {
			w, err := newKeyWriter(a.Field(k))
			if err != nil {
				return nil, err
			}
			fields[k] = w
		}
		value = func(b []byte, i int) []byte {
			for _, f := range fields {
				b = f(b, i)
			}
			return b
		}
	case *array.Map:
		return mapKeyWriter(a)
	case *array.List:
		elems, err := newKeyWriter(a.ListValues())
		if err != nil {
			return nil, err
		}
		offs := a.Offsets()[a.Data().Offset():] // a sliced list's rows start there
		value = func(b []byte, i int) []byte {
			start, end := int(offs[i]), int(offs[i+1])
			b = binary.AppendUvarint(b, uint64(end-start))
			for j := start; j < end; j++ {
				b = elems(b, j)
			}
			return b
		}
	default:
		w, err := scalarKeyWriter(arr)
		if err != nil {
			return nil, err
		}
		value = w
	}
	return withMarker(arr, value), nil
}

// withMarker writes the NULL or value marker before value's bytes.
func withMarker(arr arrow.Array, value keyWriter) keyWriter {
	if arr.NullN() == 0 {
		return func(b []byte, i int) []byte { return value(append(b, 1), i) }
	}
	return func(b []byte, i int) []byte {
		if arr.IsNull(i) {
			return append(b, 0)
		}
		return value(append(b, 1), i)
	}
}

// mapKeyWriter writes a map's entries ordered by their keys' encoding (a
// string key by its bytes), whatever order the row holds them in. Each
// map of the type has its own scratch buffer, reused from row to row, so a
// map nested in another's values does not write over the outer's entries.
func mapKeyWriter(a *array.Map) (keyWriter, error) {
	keys, err := newKeyWriter(a.Keys())
	if err != nil {
		return nil, err
	}
	items, err := newKeyWriter(a.Items())
	if err != nil {
		return nil, err
	}
	offs := a.Offsets()[a.Data().Offset():]
	stringKeys := isStringLike(a.Keys().DataType())
	var buf []byte
	var spans []entrySpan
	value := func(b []byte, i int) []byte {
		start, end := int(offs[i]), int(offs[i+1])
		b = binary.AppendUvarint(b, uint64(end-start))
		if end-start <= 1 {
			for j := start; j < end; j++ {
				b = items(keys(b, j), j)
			}
			return b
		}
		buf, spans = buf[:0], spans[:0]
		for j := start; j < end; j++ {
			s := entrySpan{start: len(buf)}
			buf = keys(buf, j)
			s.mid = len(buf)
			buf = items(buf, j)
			s.end = len(buf)
			spans = append(spans, s)
		}
		slices.SortFunc(spans, func(x, y entrySpan) int {
			return compareKeyBytes(buf[x.start:x.mid], buf[y.start:y.mid], stringKeys)
		})
		for _, s := range spans {
			b = append(b, buf[s.start:s.end]...)
		}
		return b
	}
	return withMarker(a, value), nil
}

// compareKeyBytes orders two encoded map keys; a string's length prefix is
// skipped so keys order by their text.
func compareKeyBytes(x, y []byte, stringKeys bool) int {
	if stringKeys && len(x) > 1 && len(y) > 1 {
		_, nx := binary.Uvarint(x[1:])
		_, ny := binary.Uvarint(y[1:])
		if c := bytes.Compare(x[1+nx:], y[1+ny:]); c != 0 {
			return c
		}
	}
	return bytes.Compare(x, y)
}

func isStringLike(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		return true
	}
	return false
}

// signFlip makes an int64's big-endian bytes order as the number does.
const signFlip = 1 << 63

func appendInt(b []byte, v int64) []byte {
	return binary.BigEndian.AppendUint64(b, uint64(v)^signFlip)
}

func scalarKeyWriter(arr arrow.Array) (keyWriter, error) {
	switch a := arr.(type) {
	case *array.Int8:
		v := a.Int8Values()
		return func(b []byte, i int) []byte { return appendInt(b, int64(v[i])) }, nil
	case *array.Int16:
		v := a.Int16Values()
		return func(b []byte, i int) []byte { return appendInt(b, int64(v[i])) }, nil
	case *array.Int32:
		v := a.Int32Values()
		return func(b []byte, i int) []byte { return appendInt(b, int64(v[i])) }, nil
	case *array.Int64:
		v := a.Int64Values()
		return func(b []byte, i int) []byte { return appendInt(b, v[i]) }, nil
	case *array.Date32:
		v := a.Date32Values()
		return func(b []byte, i int) []byte { return appendInt(b, int64(v[i])) }, nil
	case *array.Date64:
		v := a.Date64Values()
		return func(b []byte, i int) []byte { return appendInt(b, int64(v[i])) }, nil
	case *array.Time32:
		v := a.Time32Values()
		return func(b []byte, i int) []byte { return appendInt(b, int64(v[i])) }, nil
	case *array.Time64:
		v := a.Time64Values()
		return func(b []byte, i int) []byte { return appendInt(b, int64(v[i])) }, nil
	case *array.Timestamp:
		v := a.TimestampValues()
		return func(b []byte, i int) []byte { return appendInt(b, int64(v[i])) }, nil
	case *array.Float32:
		v := a.Float32Values()
		return func(b []byte, i int) []byte {
			return binary.BigEndian.AppendUint64(b, math.Float64bits(float64(v[i])))
		}, nil
	case *array.Float64:
		v := a.Float64Values()
		return func(b []byte, i int) []byte { return binary.BigEndian.AppendUint64(b, math.Float64bits(v[i])) }, nil
	case *array.Boolean:
		return func(b []byte, i int) []byte {
			if a.Value(i) {
				return append(b, 1)
			}
			return append(b, 0)
		}, nil
	case *array.String:
		return func(b []byte, i int) []byte {
			v := a.Value(i)
			return append(binary.AppendUvarint(b, uint64(len(v))), v...)
		}, nil
	case *array.Binary:
		return func(b []byte, i int) []byte {
			v := a.Value(i)
			return append(binary.AppendUvarint(b, uint64(len(v))), v...)
		}, nil
	case *array.FixedSizeBinary:
		return func(b []byte, i int) []byte { return append(b, a.Value(i)...) }, nil
	case *array.Decimal128:
		return func(b []byte, i int) []byte {
			v := a.Value(i)
			b = binary.BigEndian.AppendUint64(b, uint64(v.HighBits())^signFlip)
			return binary.BigEndian.AppendUint64(b, v.LowBits())
		}, nil
	case *array.Null:
		return func(b []byte, _ int) []byte { return b }, nil
	}
	return nil, fmt.Errorf("values of type %s cannot be keyed", arr.DataType())
}

// decodeKey appends the value encoded at the front of b to bld and returns
// the rest of b.
func decodeKey(b []byte, bld array.Builder) ([]byte, error) {
	if len(b) == 0 {
		return nil, errShortKey
	}
	if b[0] == 0 {
		bld.AppendNull()
		return b[1:], nil
	}
	b = b[1:]
	need := func(n int) error {
		if len(b) < n {
			return errShortKey
		}
		return nil
	}
	readInt := func() (int64, error) {
		if err := need(8); err != nil {
			return 0, err
		}
		v := int64(binary.BigEndian.Uint64(b) ^ signFlip)
		b = b[8:]
		return v, nil
	}
	readLen := func() (int, error) {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)) {
			return 0, errShortKey
		}
		b = b[k:]
		return int(n), nil
	}
	switch x := bld.(type) {
	case *array.StructBuilder:
		x.Append(true)
		for k := 0; k < x.NumField(); k++ {
			var err error
			if b, err = decodeKey(b, x.FieldBuilder(k)); err != nil {
				return nil, err
			}
		}
		return b, nil
	case *array.MapBuilder:
		n, err := readLen()
		if err != nil {
			return nil, err
		}
		x.Append(true)
		for range n {
			if b, err = decodeKey(b, x.KeyBuilder()); err != nil {
				return nil, err
			}
			if b, err = decodeKey(b, x.ItemBuilder()); err != nil {
				return nil, err
			}
		}
		return b, nil
	case *array.ListBuilder:
		n, err := readLen()
		if err != nil {
			return nil, err
		}
		x.Append(true)
		for range n {
			if b, err = decodeKey(b, x.ValueBuilder()); err != nil {
				return nil, err
			}
		}
		return b, nil
	case *array.StringBuilder:
		n, err := readLen()
		if err != nil {
			return nil, err
		}
		if err := need(n); err != nil {
			return nil, err
		}
		x.BinaryBuilder.Append(b[:n])
		return b[n:], nil
	case *array.BinaryBuilder:
		n, err := readLen()
		if err != nil {
			return nil, err
		}
		if err := need(n); err != nil {
			return nil, err
		}
		x.Append(b[:n])
		return b[n:], nil
	case *array.FixedSizeBinaryBuilder:
		n := x.Type().(*arrow.FixedSizeBinaryType).ByteWidth
		if err := need(n); err != nil {
			return nil, err
		}
		x.Append(b[:n])
		return b[n:], nil
	case *array.BooleanBuilder:
		if err := need(1); err != nil {
			return nil, err
		}
		x.Append(b[0] == 1)
		return b[1:], nil
	case *array.Float32Builder:
		if err := need(8); err != nil {
			return nil, err
		}
		x.Append(float32(math.Float64frombits(binary.BigEndian.Uint64(b))))
		return b[8:], nil
	case *array.Float64Builder:
		if err := need(8); err != nil {
			return nil, err
		}
		x.Append(math.Float64frombits(binary.BigEndian.Uint64(b)))
		return b[8:], nil
	case *array.Decimal128Builder:
		if err := need(16); err != nil {
			return nil, err
		}
		hi := int64(binary.BigEndian.Uint64(b) ^ signFlip)
		x.Append(decimal128.New(hi, binary.BigEndian.Uint64(b[8:])))
		return b[16:], nil
	case *array.NullBuilder:
		x.AppendNull()
		return b, nil
	}
	v, err := readInt()
	if err != nil {
		return nil, err
	}
	switch x := bld.(type) {
	case *array.Int8Builder:
		x.Append(int8(v))
	case *array.Int16Builder:
		x.Append(int16(v))
	case *array.Int32Builder:
		x.Append(int32(v))
	case *array.Int64Builder:
		x.Append(v)
	case *array.Date32Builder:
		x.Append(arrow.Date32(v))
	case *array.Date64Builder:
		x.Append(arrow.Date64(v))
	case *array.Time32Builder:
		x.Append(arrow.Time32(v))
	case *array.Time64Builder:
		x.Append(arrow.Time64(v))
	case *array.TimestampBuilder:
		x.Append(arrow.Timestamp(v))
	default:
		return nil, fmt.Errorf("values of type %s cannot be decoded from a key", bld.Type())
	}
	return b, nil
}

var errShortKey = fmt.Errorf("a nested key's encoding ends early")
