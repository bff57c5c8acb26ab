package nestedfn

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Equal is L = R (L <> R with Not) over two ROW, ARRAY, MAP or MULTISET
// values of one shape: NULL when either value is NULL; otherwise the values
// are compared whole, element by element, as Flink compares its binary
// rows, arrays and maps: a NULL field or element equals a NULL one at the
// same place, and a MAP's entries may come in any order.
type Equal struct {
	L, R expr.Expr
	Not  bool
}

func (e *Equal) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }

// Eval encodes both sides of each row into two buffers reused from row to
// row and compares the bytes.
func (e *Equal) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	l, err := e.L.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	r, err := e.R.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	out := array.NewBooleanBuilder(mem)
	defer out.Release()
	out.Reserve(l.Len())
	if l.DataType().ID() == arrow.NULL || r.DataType().ID() == arrow.NULL {
		out.AppendNulls(l.Len())
		return out.NewArray(), nil
	}
	lw, err := newKeyWriter(l)
	if err != nil {
		return nil, err
	}
	rw, err := newKeyWriter(r)
	if err != nil {
		return nil, err
	}
	var lb, rb []byte
	for i := 0; i < l.Len(); i++ {
		if l.IsNull(i) || r.IsNull(i) {
			out.AppendNull()
			continue
		}
		lb, rb = lw(lb[:0], i), rw(rb[:0], i)
		out.UnsafeAppend(bytes.Equal(lb, rb) != e.Not)
	}
	return out.NewArray(), nil
}

func (e *Equal) String() string {
	op := "="
	if e.Not {
		op = "<>"
	}
	return fmt.Sprintf("(%s %s %s)", e.L, op, e.R)
}

// Children lets conditional forms see the sub-expressions.
func (e *Equal) Children() []expr.Expr { return []expr.Expr{e.L, e.R} }

// Comparable reports whether values of types l and r can be compared with
// Equal: the same nesting, with leaves that encode alike (any integer,
// date or time width with another of its kind; strings with strings).
// Field names of a ROW do not matter, as in Flink.
func Comparable(l, r arrow.DataType) bool {
	if l.ID() == arrow.NULL || r.ID() == arrow.NULL {
		return true
	}
	switch lt := l.(type) {
	case *arrow.StructType:
		rt, ok := r.(*arrow.StructType)
		if !ok || lt.NumFields() != rt.NumFields() {
			return false
		}
		for k := range lt.Fields() {
			if !Comparable(lt.Field(k).Type, rt.Field(k).Type) {
				return false
			}
		}
		return true
	case *arrow.MapType:
		rt, ok := r.(*arrow.MapType)
		return ok && Comparable(lt.KeyType(), rt.KeyType()) && Comparable(lt.ItemType(), rt.ItemType())
	case *arrow.ListType:
		rt, ok := r.(*arrow.ListType)
		return ok && Comparable(lt.Elem(), rt.Elem())
	}
	return leafKind(l) == leafKind(r) && leafKind(l) != "" && (leafKind(l) != "exact" || arrow.TypeEqual(l, r))
}

// leafKind groups scalar types whose encodings compare alike.
func leafKind(dt arrow.DataType) string {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return "integer"
	case arrow.STRING, arrow.LARGE_STRING:
		return "string"
	case arrow.BINARY, arrow.LARGE_BINARY:
		return "binary"
	case arrow.FLOAT32, arrow.FLOAT64:
		return "float"
	case arrow.BOOL, arrow.DATE32, arrow.DECIMAL128, arrow.TIMESTAMP, arrow.TIME32, arrow.TIME64, arrow.FIXED_SIZE_BINARY:
		return "exact"
	}
	return ""
}
