package rankop

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// SortKey is one ORDER BY column of a rank: its index in the input and
// its direction. NULL sorts first ascending and last descending, as in
// Flink.
type SortKey struct {
	Index int
	Desc  bool
}

// keyEncoder writes columns of a row as one byte string whose byte order
// is the rows' order: a NULL mark, then the value (integers with the sign
// bit flipped, big-endian; floats as their ordered bits; strings with 0x00
// escaped and a 0x00 0x00 end), all bytes inverted for DESC.
type keyEncoder struct{ keys []SortKey }

// checkSortable says whether a column of type dt can be a key.
func checkSortable(dt arrow.DataType) error {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.DATE32, arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION, arrow.INTERVAL_MONTHS,
		arrow.FLOAT32, arrow.FLOAT64, arrow.BOOL, arrow.STRING, arrow.BINARY, arrow.DECIMAL128:
		return nil
	}
	return fmt.Errorf("a %s column cannot be a partition or sort key", dt)
}

// encode appends the key of each row of rec to keys[row] (reset first).
func (k keyEncoder) encode(rec arrow.RecordBatch, keys [][]byte) {
	n := int(rec.NumRows())
	for i := range keys[:n] {
		keys[i] = keys[i][:0]
	}
	for _, sk := range k.keys {
		col := rec.Column(sk.Index)
		if encodeFast(col, keys[:n], sk.Desc) {
			continue
		}
		for i := 0; i < n; i++ {
			start := len(keys[i])
			if col.IsNull(i) {
				keys[i] = append(keys[i], 0)
			} else {
				keys[i] = appendValue(append(keys[i], 1), col, i)
			}
			if sk.Desc {
				for j := start; j < len(keys[i]); j++ {
					keys[i][j] = ^keys[i][j]
				}
			}
		}
	}
}

const signBit = 1 << 63

// appendValue appends the ordered bytes of the non-null value i of col.
func appendValue(dst []byte, col arrow.Array, i int) []byte {
	switch a := col.(type) {
	case *array.Int8:
		return binary.BigEndian.AppendUint64(dst, uint64(int64(a.Value(i)))^signBit)
	case *array.Int16:
		return binary.BigEndian.AppendUint64(dst, uint64(int64(a.Value(i)))^signBit)
	case *array.Int32:
		return binary.BigEndian.AppendUint64(dst, uint64(int64(a.Value(i)))^signBit)
	case *array.Int64:
		return binary.BigEndian.AppendUint64(dst, uint64(a.Value(i))^signBit)
	case *array.Uint8:
		return binary.BigEndian.AppendUint64(dst, uint64(a.Value(i)))
	case *array.Uint16:
		return binary.BigEndian.AppendUint64(dst, uint64(a.Value(i)))
	case *array.Uint32:
		return binary.BigEndian.AppendUint64(dst, uint64(a.Value(i)))
	case *array.Uint64:
		return binary.BigEndian.AppendUint64(dst, a.Value(i))
	case *array.Date32:
		return binary.BigEndian.AppendUint64(dst, uint64(int64(a.Value(i)))^signBit)
	case *array.Time32:
		return binary.BigEndian.AppendUint64(dst, uint64(int64(a.Value(i)))^signBit)
	case *array.Time64:
		return binary.BigEndian.AppendUint64(dst, uint64(int64(a.Value(i)))^signBit)
	case *array.Timestamp:
		return binary.BigEndian.AppendUint64(dst, uint64(int64(a.Value(i)))^signBit)
	case *array.Duration:
		return binary.BigEndian.AppendUint64(dst, uint64(int64(a.Value(i)))^signBit)
	case *array.MonthInterval:
		return binary.BigEndian.AppendUint64(dst, uint64(int64(a.Value(i)))^signBit)
	case *array.Float32:
		return appendFloat(dst, float64(a.Value(i)))
	case *array.Float64:
		return appendFloat(dst, a.Value(i))
	case *array.Boolean:
		if a.Value(i) {
			return append(dst, 1)
		}
		return append(dst, 0)
	case *array.String:
		return appendBytes(dst, a.ValueStr(i))
	case *array.Binary:
		return appendBytes(dst, string(a.Value(i)))
	case *array.Decimal128:
		v := a.Value(i)
		dst = binary.BigEndian.AppendUint64(dst, uint64(v.HighBits())^signBit)
		return binary.BigEndian.AppendUint64(dst, v.LowBits())
	}
	panic(fmt.Sprintf("rankop: no key encoding for %s", col.DataType()))
}

// appendFloat orders floats as Java's Double.compare does: -0.0 before
// 0.0, NaN after +Inf.
func appendFloat(dst []byte, f float64) []byte {
	return binary.BigEndian.AppendUint64(dst, floatBits(f))
}

// floatBits is f's bits in the order of appendFloat.
func floatBits(f float64) uint64 {
	b := math.Float64bits(f)
	if f != f {
		b = 0x7ff8000000000000 // one NaN
	}
	if b&signBit != 0 {
		return ^b
	}
	return b | signBit
}

func appendBytes(dst []byte, s string) []byte {
	if strings.IndexByte(s, 0) < 0 {
		return append(append(dst, s...), 0, 0) // the commonest case: nothing to escape
	}
	for j := 0; j < len(s); j++ {
		if s[j] == 0 {
			dst = append(dst, 0, 0xff)
			continue
		}
		dst = append(dst, s[j])
	}
	return append(dst, 0, 0)
}

// encodeFast encodes the commonest key columns without NULLs (BIGINT,
// INT, TIMESTAMP, DOUBLE, FLOAT, STRING) with the type switch out of the row loop; it
// reports false for any other column.
func encodeFast(col arrow.Array, keys [][]byte, desc bool) bool {
	if col.NullN() > 0 {
		return false
	}
	mark, flip := byte(1), uint64(0)
	if desc {
		mark, flip = ^mark, ^flip
	}
	// the NOT NULL mark and the value's word, inverted at once for DESC:
	// a byte loop here was a fifth of the top-n query's CPU
	put := func(i int, v uint64) {
		k := append(keys[i], mark, 0, 0, 0, 0, 0, 0, 0, 0)
		binary.BigEndian.PutUint64(k[len(k)-8:], v^flip)
		keys[i] = k
	}
	switch a := col.(type) {
	case *array.Int64:
		for i, v := range a.Int64Values()[:len(keys)] {
			put(i, uint64(v)^signBit)
		}
	case *array.Int32:
		for i, v := range a.Int32Values()[:len(keys)] {
			put(i, uint64(int64(v))^signBit)
		}
	case *array.Timestamp:
		for i, v := range a.TimestampValues()[:len(keys)] {
			put(i, uint64(int64(v))^signBit)
		}
	case *array.Float64:
		for i, v := range a.Float64Values()[:len(keys)] {
			put(i, floatBits(v))
		}
	case *array.Float32:
		for i, v := range a.Float32Values()[:len(keys)] {
			put(i, floatBits(float64(v)))
		}
	case *array.String:
		if desc {
			return false
		}
		for i := range keys {
			keys[i] = appendBytes(append(keys[i], 1), a.Value(i))
		}
	default:
		return false
	}
	return true
}
