package avro

import (
	"encoding/binary"
	"fmt"
	"math"
)

// reader reads one message's Avro binary encoding. The first thing that
// cannot be read sets msg and at (the byte where the value began); every
// read after it returns zero values, so a step need not check each read.
type reader struct {
	b   []byte
	i   int
	msg string
	at  int
	// dry is set while a message is checked before it is decoded: the
	// steps read and check its values but append nothing.
	dry bool
	// col is the column being read, for errors
	col string
}

func (r *reader) fail(at int, format string, args ...any) {
	if r.msg == "" {
		r.msg, r.at = fmt.Sprintf(format, args...), at
		r.i = len(r.b)
	}
}

func (r *reader) failed() bool { return r.msg != "" }

// long reads a zig-zag varint.
func (r *reader) long() int64 {
	var u uint64
	at := r.i
	for shift := uint(0); ; shift += 7 {
		if r.i >= len(r.b) {
			r.fail(at, "the message ends inside a number")
			return 0
		}
		c := r.b[r.i]
		r.i++
		if shift == 63 && c > 1 {
			r.fail(at, "a number longer than 64 bits")
			return 0
		}
		u |= uint64(c&0x7f) << shift
		if c < 0x80 {
			break
		}
	}
	return int64(u>>1) ^ -int64(u&1)
}

// int reads an int: a long that fits 32 bits.
func (r *reader) int() int32 {
	at := r.i
	v := r.long()
	if v < math.MinInt32 || v > math.MaxInt32 {
		r.fail(at, "int %d is out of range", v)
		return 0
	}
	return int32(v)
}

func (r *reader) boolean() bool {
	if r.i >= len(r.b) {
		r.fail(r.i, "the message ends inside a boolean")
		return false
	}
	c := r.b[r.i]
	if c > 1 {
		r.fail(r.i, "a boolean is byte %d, not 0 or 1", c)
		return false
	}
	r.i++
	return c == 1
}

func (r *reader) float() float32 {
	if len(r.b)-r.i < 4 {
		r.fail(r.i, "the message ends inside a float")
		return 0
	}
	v := math.Float32frombits(binary.LittleEndian.Uint32(r.b[r.i:]))
	r.i += 4
	return v
}

func (r *reader) double() float64 {
	if len(r.b)-r.i < 8 {
		r.fail(r.i, "the message ends inside a double")
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b[r.i:]))
	r.i += 8
	return v
}

// bytes reads a length and that many bytes, not copied.
func (r *reader) bytes() []byte {
	at := r.i
	n := r.long()
	if r.failed() {
		return nil
	}
	if n < 0 || n > int64(len(r.b)-r.i) {
		r.fail(at, "a length of %d bytes where %d are left", n, len(r.b)-r.i)
		return nil
	}
	v := r.b[r.i : r.i+int(n)]
	r.i += int(n)
	return v
}

// sized reads a fixed of size bytes, or with size -1 bytes with their
// length first.
func (r *reader) sized(size int) []byte {
	if size >= 0 {
		return r.fixed(size)
	}
	return r.bytes()
}

func (r *reader) fixed(n int) []byte {
	if len(r.b)-r.i < n {
		r.fail(r.i, "the message ends inside a fixed of %d bytes", n)
		return nil
	}
	v := r.b[r.i : r.i+n]
	r.i += n
	return v
}

// blockCount reads the count of an array's or map's next block (a
// negative count is followed by the block's size in bytes, not needed
// here); 0 ends the items.
func (r *reader) blockCount() int64 {
	at := r.i
	n := r.long()
	if n < 0 {
		if n == math.MinInt64 {
			r.fail(at, "a block count out of range")
			return 0
		}
		n = -n
		r.long()
	}
	if n > int64(len(r.b)-r.i)+1 {
		// every item takes a byte but a null's: a count far beyond the
		// bytes left is damage, not data
		if n > 1<<20 || n > 64*int64(len(r.b)-r.i+1) {
			r.fail(at, "a block of %d items where %d bytes are left", n, len(r.b)-r.i)
			return 0
		}
	}
	return n
}
