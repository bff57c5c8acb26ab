package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// FitLength is the last step of CAST(x AS CHAR(n)) and CAST(x AS
// VARCHAR(n)), Flink's rule since 1.15 (FLINK-24413, with
// table.exec.legacy-cast-behaviour off): text longer than n characters is
// cut to n; a CHAR(n) shorter than n is padded with spaces to n.
// CAST('abc' AS CHAR(5)) is 'abc  ', CAST('abcdef' AS VARCHAR(3)) 'abc'.
type FitLength struct {
	X      Expr // a STRING
	Length int
	Pad    bool // CHAR(n)
}

func (e *FitLength) DataType() arrow.DataType { return arrow.BinaryTypes.String }
func (e *FitLength) children() []Expr         { return []Expr{e.X} }

func (e *FitLength) String() string {
	if e.Pad {
		return fmt.Sprintf("CAST(%s AS CHAR(%d))", e.X, e.Length)
	}
	return fmt.Sprintf("CAST(%s AS VARCHAR(%d))", e.X, e.Length)
}

func (e *FitLength) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	s := x.(*array.String)
	n := s.Len()
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(n)
	var buf []byte
	for i := range n {
		if s.IsNull(i) {
			b.AppendNull()
			continue
		}
		v := s.Value(i)
		buf = fitLength(buf[:0], v, e.Length, e.Pad)
		if !fitsString(b, len(buf)) {
			return nil, stringLimitError(e.String(), n)
		}
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray(), nil
}

// fitLength appends v cut to n characters, or padded to n with spaces.
func fitLength(dst []byte, v string, n int, pad bool) []byte {
	chars := 0
	for j := range v {
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
