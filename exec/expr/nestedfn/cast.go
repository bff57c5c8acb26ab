package nestedfn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Cast is CAST of a ROW, ARRAY, MAP or MULTISET to another of its kind,
// as Flink's RowToRowCastRule, ArrayToArrayCastRule and
// MapToMapAndMultisetToMultisetCastRule: each field, element, key and
// value converted by a cast of its own. Elems are those casts, each an
// expression over a batch of one column (index 0) holding the elements:
// one per ROW field; the elements of an ARRAY; the keys, then the values,
// of a MAP or MULTISET. The rows keep their NULLs and lengths.
type Cast struct {
	X     expr.Expr
	To    arrow.DataType
	Elems []expr.Expr
}

func (c *Cast) DataType() arrow.DataType { return c.To }
func (c *Cast) String() string           { return fmt.Sprintf("CAST(%s AS %s)", c.X, c.To) }
func (c *Cast) Children() []expr.Expr    { return []expr.Expr{c.X} }

// CanFail: an element's cast can (a STRING element to INT).
func (c *Cast) CanFail() bool { return true }

func (c *Cast) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := c.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	n := x.Len()
	data := x.Data()
	var validity *memory.Buffer
	if x.NullN() > 0 {
		var bits []byte
		validity, bits = newBits(mem, n)
		bitutil.CopyBitmap(data.Buffers()[0].Bytes(), data.Offset(), n, bits, 0)
	}
	var bufs []*memory.Buffer
	var srcs []arrow.Array // the elements each of Elems converts
	switch a := x.(type) {
	case *array.Struct:
		for k := range c.Elems {
			srcs = append(srcs, a.Field(k)) // sliced to the rows already
		}
	case array.ListLike: // ARRAY, MAP, MULTISET
		off := data.Offset() // Offsets() is the whole buffer
		offs := a.(interface{ Offsets() []int32 }).Offsets()[off : off+n+1]
		var offb *memory.Buffer
		offb, rebased := expr.NewValues[int32](mem, n+1)
		for i, o := range offs {
			rebased[i] = o - offs[0]
		}
		bufs = append(bufs, offb)
		defer offb.Release()
		elems := array.NewSlice(a.ListValues(), int64(offs[0]), int64(offs[n]))
		defer elems.Release()
		if entries, ok := elems.(*array.Struct); ok && x.DataType().ID() == arrow.MAP {
			srcs = []arrow.Array{entries.Field(0), entries.Field(1)}
		} else {
			srcs = []arrow.Array{elems}
		}
	default:
		return nil, fmt.Errorf("CAST of %s", x.DataType())
	}
	outs, err := castElements(srcs, c.Elems, mem)
	if err != nil {
		if validity != nil {
			validity.Release()
		}
		return nil, err
	}
	defer releaseAll(outs)
	children := make([]arrow.ArrayData, len(outs))
	for k, o := range outs {
		children[k] = o.Data()
	}
	if m, ok := c.To.(*arrow.MapType); ok {
		entries := array.NewData(m.Elem(), outs[0].Len(), []*memory.Buffer{nil}, children, 0, 0)
		defer entries.Release()
		children = []arrow.ArrayData{entries}
	}
	out := array.NewData(c.To, n, append([]*memory.Buffer{validity}, bufs...), children, x.NullN(), 0)
	if validity != nil {
		validity.Release()
	}
	defer out.Release()
	return array.MakeFromData(out), nil
}

// castElements evaluates casts[k] over a batch of the one column srcs[k].
func castElements(srcs []arrow.Array, casts []expr.Expr, mem memory.Allocator) ([]arrow.Array, error) {
	outs := make([]arrow.Array, 0, len(casts))
	for k, e := range casts {
		src := srcs[k]
		schema := arrow.NewSchema([]arrow.Field{{Name: "element", Type: src.DataType(), Nullable: true}}, nil)
		batch := array.NewRecordBatch(schema, []arrow.Array{src}, int64(src.Len()))
		out, err := e.Eval(batch, mem)
		batch.Release()
		if err != nil {
			releaseAll(outs)
			return nil, err
		}
		outs = append(outs, out)
	}
	return outs, nil
}

func releaseAll(as []arrow.Array) {
	for _, a := range as {
		a.Release()
	}
}
