package checkpoint

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ErrCorrupt marks a checkpoint whose bytes do not decode: a bad checksum,
// a truncated file or state that does not fit the query reading it.
var ErrCorrupt = errors.New("corrupt checkpoint")

// Encoder appends values to a state blob. Integers are varints, floats
// their IEEE bits, slices and strings are length-prefixed.
type Encoder struct{ buf []byte }

// Data returns the bytes written so far.
func (e *Encoder) Data() []byte { return e.buf }

func (e *Encoder) Uint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *Encoder) Int(v int64)   { e.buf = binary.AppendVarint(e.buf, v) }
func (e *Encoder) Float(v float64) {
	e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(v))
}
func (e *Encoder) Bytes(b []byte)  { e.Uint(uint64(len(b))); e.buf = append(e.buf, b...) }
func (e *Encoder) String(s string) { e.Uint(uint64(len(s))); e.buf = append(e.buf, s...) }
func (e *Encoder) Bool(v bool) {
	if v {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

// Ints writes a slice of any signed integer type.
func Ints[T ~int8 | ~int16 | ~int32 | ~int64 | ~int](e *Encoder, v []T) {
	e.Uint(uint64(len(v)))
	for _, x := range v {
		e.Int(int64(x))
	}
}

// Uints writes a slice of any unsigned integer type.
func Uints[T ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint](e *Encoder, v []T) {
	e.Uint(uint64(len(v)))
	for _, x := range v {
		e.Uint(uint64(x))
	}
}

// Floats writes a []float64.
func (e *Encoder) Floats(v []float64) {
	e.Uint(uint64(len(v)))
	for _, x := range v {
		e.Float(x)
	}
}

// Bools writes a []bool, one byte each.
func (e *Encoder) Bools(v []bool) {
	e.Uint(uint64(len(v)))
	for _, x := range v {
		e.Bool(x)
	}
}

// Decoder reads what an Encoder wrote. The first error sticks: later reads
// return zero values and Err reports it, so a caller reads a whole
// structure and checks once. Lengths are checked against the bytes left,
// so corrupt input never makes it allocate more than the input's size.
type Decoder struct {
	buf []byte
	off int
	err error
}

// NewDecoder reads b.
func NewDecoder(b []byte) *Decoder { return &Decoder{buf: b} }

// Err returns the first error, wrapping ErrCorrupt.
func (d *Decoder) Err() error { return d.err }

// Fail records a structural error found by the caller (a value out of
// range), unless an earlier one is already recorded.
func (d *Decoder) Fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
}

// Finish reports the first error, or an error if bytes are left over.
func (d *Decoder) Finish() error {
	if d.err == nil && d.off != len(d.buf) {
		d.Fail("%d bytes left over", len(d.buf)-d.off)
	}
	return d.err
}

func (d *Decoder) Uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.buf[d.off:])
	if n <= 0 {
		d.Fail("bad varint at byte %d", d.off)
		return 0
	}
	d.off += n
	return v
}

func (d *Decoder) Int() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.buf[d.off:])
	if n <= 0 {
		d.Fail("bad varint at byte %d", d.off)
		return 0
	}
	d.off += n
	return v
}

func (d *Decoder) Float() float64 {
	b := d.take(8)
	if b == nil {
		return 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b))
}

func (d *Decoder) Bool() bool {
	b := d.take(1)
	if b == nil {
		return false
	}
	if b[0] > 1 {
		d.Fail("bad bool at byte %d", d.off-1)
	}
	return b[0] == 1
}

// Bytes returns a copy of a length-prefixed byte string.
func (d *Decoder) Bytes() []byte {
	b := d.take(d.Len(1))
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

func (d *Decoder) String() string { return string(d.take(d.Len(1))) }

// Len reads a length of elements that take at least minBytes each and
// checks that many could still follow.
func (d *Decoder) Len(minBytes int) int {
	n := d.Uint()
	if d.err != nil {
		return 0
	}
	if n > uint64(len(d.buf)-d.off)/uint64(max(1, minBytes)) {
		d.Fail("length %d at byte %d runs past the end", n, d.off)
		return 0
	}
	return int(n)
}

// Int32 reads a varint that must fit an int32 (a slot, a count).
func (d *Decoder) Int32() int32 {
	v := d.Int()
	if v < math.MinInt32 || v > math.MaxInt32 {
		d.Fail("%d does not fit 32 bits", v)
		return 0
	}
	return int32(v)
}

// Uint32 reads a varint that must fit a uint32 (a key id).
func (d *Decoder) Uint32() uint32 {
	v := d.Uint()
	if v > math.MaxUint32 {
		d.Fail("%d does not fit 32 bits", v)
		return 0
	}
	return uint32(v)
}

func (d *Decoder) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n > len(d.buf)-d.off {
		d.Fail("%d bytes needed at byte %d, %d left", n, d.off, len(d.buf)-d.off)
		return nil
	}
	b := d.buf[d.off : d.off+n : d.off+n]
	d.off += n
	return b
}

// ReadInts reads what Ints wrote, checking each value fits T.
func ReadInts[T ~int8 | ~int16 | ~int32 | ~int64 | ~int](d *Decoder) []T {
	n := d.Len(1)
	v := make([]T, n)
	for i := range v {
		x := d.Int()
		if int64(T(x)) != x {
			d.Fail("%d does not fit its type", x)
		}
		v[i] = T(x)
	}
	return v
}

// ReadUints reads what Uints wrote, checking each value fits T.
func ReadUints[T ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint](d *Decoder) []T {
	n := d.Len(1)
	v := make([]T, n)
	for i := range v {
		x := d.Uint()
		if uint64(T(x)) != x {
			d.Fail("%d does not fit its type", x)
		}
		v[i] = T(x)
	}
	return v
}

// Floats reads what Encoder.Floats wrote.
func (d *Decoder) Floats() []float64 {
	v := make([]float64, d.Len(8))
	for i := range v {
		v[i] = d.Float()
	}
	return v
}

// Bools reads what Encoder.Bools wrote.
func (d *Decoder) Bools() []bool {
	v := make([]bool, d.Len(1))
	for i := range v {
		v[i] = d.Bool()
	}
	return v
}
