package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// IsNull is X IS NULL, or X IS NOT NULL with Not; never NULL itself.
type IsNull struct {
	X   Expr
	Not bool
}

func (e *IsNull) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (e *IsNull) children() []Expr         { return []Expr{e.X} }

func (e *IsNull) String() string {
	if e.Not {
		return fmt.Sprintf("%s IS NOT NULL", e.X)
	}
	return fmt.Sprintf("%s IS NULL", e.X)
}

func (e *IsNull) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	n := x.Len()
	vb, out := NewBits(mem, n)
	copyValidity(out, x)
	if !e.Not {
		for i := range out {
			out[i] = ^out[i]
		}
	}
	return NewArray(arrow.FixedWidthTypes.Boolean, n, nil, 0, vb), nil
}
