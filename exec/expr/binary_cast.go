package expr

import (
	"bytes"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// CAST between STRING and BYTES, as Flink: a string's bytes are its UTF-8
// encoding, and bytes read as a string are decoded as UTF-8, a malformed
// sequence becoming U+FFFD (Java's new String(bytes, UTF_8)). A STRING and a
// BYTES column share Arrow's layout (offsets and data), so valid text is
// passed on without copying.

// castBinaryText converts x (STRING or BYTES) to e.To (BYTES or STRING).
func castBinaryText(x arrow.Array, to arrow.DataType, mem memory.Allocator) arrow.Array {
	if to.ID() == arrow.STRING {
		if b, ok := x.(*array.Binary); ok && !validUTF8(b) {
			return decodeUTF8(b, mem)
		}
	}
	data := array.NewData(to, x.Len(), x.Data().Buffers(), nil, x.NullN(), x.Data().Offset())
	defer data.Release()
	return array.MakeFromData(data)
}

func validUTF8(b *array.Binary) bool {
	for i := range b.Len() {
		if b.IsValid(i) && !utf8.Valid(b.Value(i)) {
			return false
		}
	}
	return true
}

// decodeUTF8 is the STRING of b with each malformed sequence replaced.
func decodeUTF8(b *array.Binary, mem memory.Allocator) arrow.Array {
	out := array.NewStringBuilder(mem)
	defer out.Release()
	out.Reserve(b.Len())
	var buf []byte
	for i := range b.Len() {
		if b.IsNull(i) {
			out.AppendNull()
			continue
		}
		buf = buf[:0]
		for v := b.Value(i); len(v) > 0; {
			r, size := utf8.DecodeRune(v)
			buf = utf8.AppendRune(buf, r) // RuneError for a malformed byte
			v = v[size:]
		}
		out.BinaryBuilder.Append(buf)
	}
	return out.NewArray()
}

// isText reports STRING and BYTES, the types castBinaryText converts.
func isText(dt arrow.DataType) bool { return dt.ID() == arrow.STRING || dt.ID() == arrow.BINARY }

// compareBinary compares BYTES as Flink does: byte by byte, unsigned, a
// prefix before the longer value.
func compareBinary(op int, l, r *array.Binary, out []byte) {
	for i := 0; i < l.Len(); i++ {
		c := bytes.Compare(l.Value(i), r.Value(i))
		if op == cmpEq && c == 0 || op == cmpLt && c < 0 || op == cmpLe && c <= 0 {
			out[i>>3] |= 1 << (i & 7)
		}
	}
}
