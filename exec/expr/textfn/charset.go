package textfn

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Charset is one of the character sets Flink's ENCODE and DECODE take, as
// Java's encoder and decoder of that name: a character the set cannot hold
// is encoded as '?', bytes that do not decode become U+FFFD.
type Charset int

const (
	charsetASCII Charset = iota + 1
	charsetLatin1
	charsetUTF8
	charsetUTF16BE
	charsetUTF16LE
	charsetUTF16 // big-endian with a byte-order mark; decoding honours one
)

// Charsets are the names ENCODE and DECODE take (any case), as Flink
// documents them.
var Charsets = []string{"US-ASCII", "ISO-8859-1", "UTF-8", "UTF-16BE", "UTF-16LE", "UTF-16"}

// LookupCharset finds a character set by name, in any case.
func LookupCharset(name string) (Charset, error) {
	for i, n := range Charsets {
		if strings.EqualFold(n, name) {
			return Charset(i + 1), nil
		}
	}
	return 0, fmt.Errorf("the character set %q is not supported; use one of %s", name, strings.Join(Charsets, ", "))
}

// encode appends s encoded in cs.
func (cs Charset) encode(dst []byte, s string) []byte {
	switch cs {
	case charsetUTF8:
		return append(dst, strings.ToValidUTF8(s, "\uFFFD")...)
	case charsetASCII, charsetLatin1:
		top := rune(0x7f)
		if cs == charsetLatin1 {
			top = 0xff
		}
		for _, r := range s {
			if r > top {
				r = '?'
			}
			dst = append(dst, byte(r))
		}
		return dst
	}
	little := cs == charsetUTF16LE
	if cs == charsetUTF16 {
		dst = append(dst, 0xfe, 0xff) // Java writes a big-endian byte-order mark
	}
	put := func(u uint16) {
		if little {
			dst = append(dst, byte(u), byte(u>>8))
		} else {
			dst = append(dst, byte(u>>8), byte(u))
		}
	}
	for _, r := range s {
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			put(uint16(hi))
			put(uint16(lo))
			continue
		}
		put(uint16(r))
	}
	return dst
}

// decode appends the text of b in cs, as UTF-8.
func (cs Charset) decode(dst, b []byte) []byte {
	switch cs {
	case charsetUTF8:
		for len(b) > 0 {
			r, size := utf8.DecodeRune(b) // RuneError for a malformed byte
			dst = utf8.AppendRune(dst, r)
			b = b[size:]
		}
		return dst
	case charsetASCII:
		for _, c := range b {
			if c > 0x7f {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, c)
			}
		}
		return dst
	case charsetLatin1:
		for _, c := range b {
			dst = utf8.AppendRune(dst, rune(c))
		}
		return dst
	}
	little := cs == charsetUTF16LE
	if cs == charsetUTF16 && len(b) >= 2 {
		switch {
		case b[0] == 0xfe && b[1] == 0xff:
			b = b[2:]
		case b[0] == 0xff && b[1] == 0xfe:
			b, little = b[2:], true
		}
	}
	unit := func(i int) rune {
		if little {
			return rune(b[i]) | rune(b[i+1])<<8
		}
		return rune(b[i])<<8 | rune(b[i+1])
	}
	for i := 0; i < len(b); i += 2 {
		if i+1 >= len(b) { // a lone last byte
			dst = utf8.AppendRune(dst, utf8.RuneError)
			break
		}
		r := unit(i)
		if utf16.IsSurrogate(r) {
			if r < 0xdc00 && i+3 < len(b) {
				if pair := utf16.DecodeRune(r, unit(i+2)); pair != utf8.RuneError {
					dst = utf8.AppendRune(dst, pair)
					i += 2
					continue
				}
			}
			r = utf8.RuneError
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// appendUnhex is Flink's UNHEX: pairs of hex digits from the end; of an
// odd-length text the first digit is checked but dropped, so the result
// starts with a zero byte. ok is false for a character that is not a hex
// digit.
func appendUnhex(dst []byte, s string) ([]byte, bool) {
	start := len(dst)
	dst = append(dst, make([]byte, (len(s)+1)/2)...)
	out := dst[start:]
	j := len(out) - 1
	i := len(s) - 2
	for ; i >= 0; i -= 2 {
		hi, ok1 := unhex(s[i])
		lo, ok2 := unhex(s[i+1])
		if !ok1 || !ok2 {
			return dst[:start], false
		}
		out[j] = hi<<4 | lo
		j--
	}
	if i == -1 {
		if _, ok := unhex(s[0]); !ok {
			return dst[:start], false
		}
	}
	return dst, true
}

// Bytes is ENCODE(s, charset), DECODE(b, charset) or UNHEX(s), by Name.
// Charset, when set, is the constant character set checked at compile; a
// NULL argument gives NULL.
type Bytes struct {
	Name    string
	Args    []expr.Expr
	Charset Charset
}

func (e *Bytes) DataType() arrow.DataType { return e.binaryType() }

func (e *Bytes) binaryType() arrow.BinaryDataType {
	if e.Name == "DECODE" {
		return arrow.BinaryTypes.String
	}
	return arrow.BinaryTypes.Binary
}
func (e *Bytes) Children() []expr.Expr { return e.Args }
func (e *Bytes) String() string        { return argsString(e.Name, e.Args) }

// CanFail: a character set named by a column may not be one of Flink's.
func (e *Bytes) CanFail() bool { return e.Name != "UNHEX" && e.Charset == 0 }

func (e *Bytes) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	b, err := evalBatch(rec, mem, e.Args)
	if err != nil {
		return nil, err
	}
	defer b.release()
	n := b.n
	out := array.NewBinaryBuilder(mem, e.binaryType())
	defer out.Release()
	out.Reserve(n)
	var buf []byte
	cs, csName := e.Charset, ""
	for i := range n {
		if !b.ok(i) {
			out.AppendNull()
			continue
		}
		if e.Name != "UNHEX" && e.Charset == 0 {
			if name := b.strs[1].At(i); cs == 0 || name != csName {
				if cs, err = LookupCharset(name); err != nil {
					return nil, fmt.Errorf("%s: %w", e.Name, err)
				}
				csName = name
			}
		}
		ok := true
		switch e.Name {
		case "ENCODE":
			buf = cs.encode(buf[:0], b.strs[0].At(i))
		case "DECODE":
			buf = cs.decode(buf[:0], b.cols[0].(*array.Binary).Value(i))
		default:
			buf, ok = appendUnhex(buf[:0], b.strs[0].At(i))
		}
		if !ok {
			out.AppendNull()
			continue
		}
		if int64(out.DataLen())+int64(len(buf)) > expr.MaxStringColumnBytes {
			return nil, fmt.Errorf("%w: the values of %s over a batch of %d rows pass 2 GiB, the most one column holds; make the values shorter or the batches smaller",
				expr.ErrStringLimit, e.Name, n)
		}
		out.Append(buf)
	}
	arr := out.NewArray()
	defer arr.Release()
	return array.MakeFromData(arr.Data()), nil // a STRING is an *array.String
}
