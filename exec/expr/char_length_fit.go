package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// FitLength is the last step of CAST(x AS CHAR(n)), VARCHAR(n), BINARY(n)
// and VARBINARY(n), Flink's rule since 1.15 (FLINK-24413, FLINK-25187, with
// table.exec.legacy-cast-behaviour off): a value longer than n characters
// (bytes for BINARY) is cut to n; a CHAR(n) shorter than n is padded with
// spaces, a BINARY(n) with zero bytes. CAST('abc' AS CHAR(5)) is 'abc  ',
// CAST('abcdef' AS VARCHAR(3)) 'abc'.
type FitLength struct {
	X      Expr // a STRING or BYTES
	Length int
	Pad    bool // CHAR(n), BINARY(n)
}

func (e *FitLength) DataType() arrow.DataType { return e.X.DataType() }
func (e *FitLength) children() []Expr         { return []Expr{e.X} }

func (e *FitLength) String() string {
	name := map[[2]bool]string{{false, false}: "VARCHAR", {true, false}: "CHAR", {false, true}: "VARBINARY", {true, true}: "BINARY"}[[2]bool{e.Pad, e.bytes()}]
	return fmt.Sprintf("CAST(%s AS %s(%d))", e.X, name, e.Length)
}

func (e *FitLength) bytes() bool { return e.X.DataType().ID() == arrow.BINARY }

func (e *FitLength) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	offs, data := textBuffers(x)
	n := x.Len()
	b := array.NewBinaryBuilder(mem, x.DataType().(arrow.BinaryDataType))
	defer b.Release()
	b.Reserve(n)
	var buf []byte
	bytes := e.bytes()
	for i := range n {
		if x.IsNull(i) {
			b.AppendNull()
			continue
		}
		v := data[offs[i]-offs[0] : offs[i+1]-offs[0]]
		if bytes {
			buf = fitBytes(buf[:0], v, e.Length, e.Pad)
		} else {
			buf = fitLength(buf[:0], v, e.Length, e.Pad)
		}
		if int64(b.DataLen())+int64(len(buf)) > MaxStringColumnBytes {
			return nil, stringLimitError(e.String(), n)
		}
		b.Append(buf)
	}
	// the builder makes a Binary array whatever its type; a STRING result
	// must be an *array.String for the kernels reading it
	built := b.NewArray()
	defer built.Release()
	return array.MakeFromData(built.Data()), nil
}

// fitLength appends v cut to n characters, or padded to n with spaces.
func fitLength(dst, v []byte, n int, pad bool) []byte {
	chars := 0
	for j := range string(v) {
		if chars == n {
			return append(dst, v[:j]...)
		}
		chars++
	}
	dst = append(dst, v...)
	if pad {
		for ; chars < n; chars++ {
			dst = append(dst, ' ')
		}
	}
	return dst
}

// fitBytes appends v cut to n bytes, or padded to n with zero bytes.
func fitBytes(dst, v []byte, n int, pad bool) []byte {
	dst = append(dst, v[:min(n, len(v))]...)
	for pad && len(dst) < n {
		dst = append(dst, 0)
	}
	return dst
}

// textBuffers is a STRING or BYTES column's offsets (n+1, relative to the
// first) and its bytes.
func textBuffers(x arrow.Array) ([]int32, []byte) {
	if s, ok := x.(*array.String); ok {
		return s.ValueOffsets(), s.ValueBytes()
	}
	b := x.(*array.Binary)
	return b.ValueOffsets(), b.ValueBytes()
}
