package jdbc

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// encoder appends the binary form PostgreSQL receives (COPY's binary
// format, the type's send/recv form) of value i of an Arrow array; the
// value is not null. It works on the array's buffers: no allocation.
type encoder struct {
	put func(b []byte, a arrow.Array, i int) []byte
}

// pgEpoch is 2000-01-01 00:00:00 UTC, PostgreSQL's epoch, in Unix seconds
// and days.
const (
	pgEpochSeconds = 946684800
	pgEpochDays    = 10957
)

var be = binary.BigEndian

func scalarEncoder(t arrow.DataType, oid uint32) encoder {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return encoder{func(b []byte, a arrow.Array, i int) []byte {
			if a.(*array.Boolean).Value(i) {
				return append(b, 1)
			}
			return append(b, 0)
		}}
	case *arrow.Int8Type:
		return intEncoder(oid, func(a arrow.Array, i int) int64 { return int64(a.(*array.Int8).Value(i)) })
	case *arrow.Int16Type:
		return intEncoder(oid, func(a arrow.Array, i int) int64 { return int64(a.(*array.Int16).Value(i)) })
	case *arrow.Int32Type:
		return intEncoder(oid, func(a arrow.Array, i int) int64 { return int64(a.(*array.Int32).Value(i)) })
	case *arrow.Int64Type:
		return encoder{func(b []byte, a arrow.Array, i int) []byte {
			return be.AppendUint64(b, uint64(a.(*array.Int64).Value(i)))
		}}
	case *arrow.Float32Type:
		if oid == oidFloat8 {
			return encoder{func(b []byte, a arrow.Array, i int) []byte {
				return be.AppendUint64(b, math.Float64bits(float64(a.(*array.Float32).Value(i))))
			}}
		}
		return encoder{func(b []byte, a arrow.Array, i int) []byte {
			return be.AppendUint32(b, math.Float32bits(a.(*array.Float32).Value(i)))
		}}
	case *arrow.Float64Type:
		return encoder{func(b []byte, a arrow.Array, i int) []byte {
			return be.AppendUint64(b, math.Float64bits(a.(*array.Float64).Value(i)))
		}}
	case *arrow.Decimal128Type:
		scale := int(t.Scale)
		return encoder{func(b []byte, a arrow.Array, i int) []byte {
			v := a.(*array.Decimal128).Value(i)
			return appendNumeric(b, uint64(v.HighBits()), v.LowBits(), scale)
		}}
	case *arrow.StringType:
		if oid == oidJSONB {
			return encoder{func(b []byte, a arrow.Array, i int) []byte {
				return append(append(b, 1), a.(*array.String).Value(i)...) // jsonb's version 1: its text
			}}
		}
		return encoder{func(b []byte, a arrow.Array, i int) []byte {
			return append(b, a.(*array.String).Value(i)...)
		}}
	case *arrow.BinaryType:
		return encoder{func(b []byte, a arrow.Array, i int) []byte {
			return append(b, a.(*array.Binary).Value(i)...)
		}}
	case *arrow.Date32Type:
		return encoder{func(b []byte, a arrow.Array, i int) []byte {
			return be.AppendUint32(b, uint32(int32(a.(*array.Date32).Value(i))-pgEpochDays))
		}}
	case *arrow.Time32Type:
		per := int64(1e6) // microseconds a unit
		if t.Unit == arrow.Millisecond {
			per = 1e3
		}
		return encoder{func(b []byte, a arrow.Array, i int) []byte {
			return be.AppendUint64(b, uint64(int64(a.(*array.Time32).Value(i))*per))
		}}
	case *arrow.TimestampType:
		toMicros := timestampMicros(t.Unit)
		return encoder{func(b []byte, a arrow.Array, i int) []byte {
			return be.AppendUint64(b, uint64(toMicros(int64(a.(*array.Timestamp).Value(i)))-pgEpochSeconds*1e6))
		}}
	}
	panic("jdbc: no encoder for " + t.String()) // match checked the type
}

// intEncoder writes an integer as smallint, integer or bigint.
func intEncoder(oid uint32, v func(a arrow.Array, i int) int64) encoder {
	switch oid {
	case oidInt2:
		return encoder{func(b []byte, a arrow.Array, i int) []byte { return be.AppendUint16(b, uint16(v(a, i))) }}
	case oidInt4:
		return encoder{func(b []byte, a arrow.Array, i int) []byte { return be.AppendUint32(b, uint32(v(a, i))) }}
	}
	return encoder{func(b []byte, a arrow.Array, i int) []byte { return be.AppendUint64(b, uint64(v(a, i))) }}
}

// timestampMicros converts a timestamp of unit to microseconds since the
// Unix epoch, rounding nanoseconds down (PostgreSQL keeps microseconds).
func timestampMicros(unit arrow.TimeUnit) func(int64) int64 {
	switch unit {
	case arrow.Second:
		return func(v int64) int64 { return v * 1e6 }
	case arrow.Millisecond:
		return func(v int64) int64 { return v * 1e3 }
	case arrow.Microsecond:
		return func(v int64) int64 { return v }
	}
	return func(v int64) int64 {
		if v < 0 && v%1000 != 0 {
			return v/1000 - 1
		}
		return v / 1000
	}
}

// arrayEncoder writes an ARRAY as a one-dimensional PostgreSQL array of
// elements of type elemOID.
func arrayEncoder(elem encoder, elemOID uint32) encoder {
	return encoder{func(b []byte, a arrow.Array, i int) []byte {
		l := a.(*array.List)
		start, end := l.ValueOffsets(i)
		values := l.ListValues()
		hasNull := uint32(0)
		for j := start; j < end; j++ {
			if values.IsNull(int(j)) {
				hasNull = 1
				break
			}
		}
		if start == end {
			b = be.AppendUint32(b, 0) // no dimensions
			b = be.AppendUint32(b, hasNull)
			return be.AppendUint32(b, elemOID)
		}
		b = be.AppendUint32(b, 1)
		b = be.AppendUint32(b, hasNull)
		b = be.AppendUint32(b, elemOID)
		b = be.AppendUint32(b, uint32(end-start))
		b = be.AppendUint32(b, 1) // the lower bound
		for j := start; j < end; j++ {
			b = appendField(b, elem, values, int(j))
		}
		return b
	}}
}

// appendField writes a field: its length and value, or -1 for NULL.
func appendField(b []byte, e encoder, a arrow.Array, i int) []byte {
	if a.IsNull(i) {
		return be.AppendUint32(b, math.MaxUint32)
	}
	at := len(b)
	b = append(b, 0, 0, 0, 0)
	b = e.put(b, a, i)
	be.PutUint32(b[at:], uint32(len(b)-at-4))
	return b
}

// appendNumeric writes a DECIMAL's unscaled 128-bit value (hi, lo) of
// scale as PostgreSQL's numeric: its base-10000 digits, the weight of the
// first, the sign and the display scale.
func appendNumeric(b []byte, hi uint64, lo uint64, scale int) []byte {
	neg := int64(hi) < 0
	if neg { // two's complement negation
		lo = ^lo + 1
		hi = ^hi
		if lo == 0 {
			hi++
		}
	}
	// the decimal digits, least significant first, padded so that the
	// scale is a whole number of base-10000 digits
	var dec [48]byte
	n := 0
	for pad := (4 - scale%4) % 4; pad > 0; pad-- {
		dec[n] = 0
		n++
	}
	for hi != 0 || lo != 0 {
		var r uint64
		hi, r = bits.Div64(0, hi, 10)
		lo, r = bits.Div64(r, lo, 10)
		dec[n] = byte(r)
		n++
	}
	fracGroups := (scale + 3) / 4
	for n < fracGroups*4 || n%4 != 0 {
		dec[n] = 0
		n++
	}
	groups := n / 4
	var digits [12]uint16 // most significant first
	for g := range groups {
		d := dec[g*4:]
		digits[groups-1-g] = uint16(d[0]) + 10*uint16(d[1]) + 100*uint16(d[2]) + 1000*uint16(d[3])
	}
	weight := groups - fracGroups - 1
	first, last := 0, groups
	for first < last && digits[first] == 0 {
		first++
		weight--
	}
	for last > first && digits[last-1] == 0 {
		last--
	}
	sign := uint16(0)
	if neg {
		sign = 0x4000
	}
	if first == last { // zero
		weight, sign = 0, 0
	}
	b = be.AppendUint16(b, uint16(last-first))
	b = be.AppendUint16(b, uint16(int16(weight)))
	b = be.AppendUint16(b, sign)
	b = be.AppendUint16(b, uint16(scale))
	for _, d := range digits[first:last] {
		b = be.AppendUint16(b, d)
	}
	return b
}

// copyHeader starts a binary COPY stream: the signature, no flags, no
// header extension.
var copyHeader = []byte("PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00")

// copyTrailer ends it.
var copyTrailer = []byte{0xff, 0xff}
