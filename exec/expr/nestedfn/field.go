package nestedfn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Field is row.field: field Index of a ROW value, NULL where the row is.
type Field struct {
	X     expr.Expr
	Index int
	Name  string
}

func (f *Field) DataType() arrow.DataType {
	return f.X.DataType().(*arrow.StructType).Field(f.Index).Type
}

// Eval shares the struct's child; only a row NULL where the child is not
// needs a new validity bitmap.
func (f *Field) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := f.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	s, ok := a.(*array.Struct)
	if !ok {
		return array.MakeArrayOfNull(mem, f.DataType(), a.Len()), nil // an untyped NULL
	}
	child := s.Field(f.Index)
	child.Retain()
	if s.NullN() == 0 {
		return child, nil
	}
	if child.NullN() == 0 {
		return structValidity(child, s, mem), nil
	}
	buf, valid := newBits(mem, s.Len())
	defer buf.Release()
	for i := 0; i < s.Len(); i++ {
		if s.IsValid(i) {
			valid[i>>3] |= 1 << (i & 7)
		}
	}
	return expr.WithValidity(child, valid, mem), nil
}

func (f *Field) String() string { return fmt.Sprintf("%s.%s", f.X, f.Name) }

// Children lets conditional forms see the sub-expression.
func (f *Field) Children() []expr.Expr { return []expr.Expr{f.X} }

// structValidity is child, a field without NULLs of struct s, NULL where
// s is: s's validity copied as a bitmap rather than bit by bit (the
// per-row loop was a tenth of the Nexmark event table's computed dateTime,
// a CASE over three ROWs' fields).
func structValidity(child arrow.Array, s *array.Struct, mem memory.Allocator) arrow.Array {
	data := child.Data()
	off, n := data.Offset(), child.Len()
	buf, bits := newBits(mem, off+n)
	bitutil.CopyBitmap(s.NullBitmapBytes(), s.Data().Offset(), n, bits, off)
	bufs := append([]*memory.Buffer{buf}, data.Buffers()[1:]...)
	out := array.NewData(child.DataType(), n, bufs, data.Children(), s.NullN(), off)
	buf.Release()
	res := array.MakeFromData(out)
	out.Release()
	child.Release()
	return res
}
