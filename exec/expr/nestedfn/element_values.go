package nestedfn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// ElementValues decodes an ARRAY<BYTES> or MULTISET<BYTES> whose elements
// are Key's encodings (ARRAY_AGG and COLLECT over nested values hold them
// so) back into the ARRAY<T> or MULTISET<T> of Type; a MULTISET's counts
// are kept.
type ElementValues struct {
	X    expr.Expr
	Type arrow.DataType
}

// DecodedElementsType is enc (ARRAY<BYTES> or MULTISET<BYTES>) with elements
// of type elem: the type ElementValues decodes enc into.
func DecodedElementsType(enc, elem arrow.DataType) arrow.DataType {
	switch t := enc.(type) {
	case *arrow.ListType:
		f := t.ElemField()
		f.Type = elem
		return arrow.ListOfField(f)
	case *arrow.MapType:
		m := arrow.MapOfWithMetadata(elem, t.KeyField().Metadata, t.ItemType(), t.ItemField().Metadata)
		m.SetItemNullable(t.ItemField().Nullable)
		return m
	}
	return enc
}

func (v *ElementValues) DataType() arrow.DataType { return v.Type }

// Eval decodes a batch into one builder; the values' builders grow by
// amortized appends, nothing is allocated per row.
func (v *ElementValues) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := v.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	b := array.NewBuilder(mem, v.Type)
	defer b.Release()
	b.Reserve(a.Len())
	switch in := a.(type) {
	case *array.Map:
		err = decodeMultiset(in, b)
	case *array.List:
		err = decodeList(in, b)
	default:
		err = fmt.Errorf("internal: encoded elements are %s, not ARRAY<BYTES> or MULTISET<BYTES>", a.DataType())
	}
	if err != nil {
		return nil, err
	}
	return b.NewArray(), nil
}

func decodeList(in *array.List, b array.Builder) error {
	lb, ok := b.(*array.ListBuilder)
	elems, isBinary := in.ListValues().(*array.Binary)
	if !ok || !isBinary {
		return fmt.Errorf("internal: cannot decode %s into %s", in.DataType(), b.Type())
	}
	vb := lb.ValueBuilder()
	for i := 0; i < in.Len(); i++ {
		if in.IsNull(i) {
			lb.AppendNull()
			continue
		}
		lb.Append(true)
		start, end := in.ValueOffsets(i)
		for j := int(start); j < int(end); j++ {
			if elems.IsNull(j) {
				vb.AppendNull()
				continue
			}
			if _, err := decodeKey(elems.Value(j), vb); err != nil {
				return err
			}
		}
	}
	return nil
}

func decodeMultiset(in *array.Map, b array.Builder) error {
	mb, ok := b.(*array.MapBuilder)
	keys, isBinary := in.Keys().(*array.Binary)
	counts, isInt := in.Items().(*array.Int32)
	if !ok || !isBinary || !isInt {
		return fmt.Errorf("internal: cannot decode %s into %s", in.DataType(), b.Type())
	}
	cb, ok := mb.ItemBuilder().(*array.Int32Builder)
	if !ok {
		return fmt.Errorf("internal: cannot decode %s into %s", in.DataType(), b.Type())
	}
	kb := mb.KeyBuilder()
	for i := 0; i < in.Len(); i++ {
		if in.IsNull(i) {
			mb.AppendNull()
			continue
		}
		mb.Append(true)
		start, end := in.ValueOffsets(i)
		for j := int(start); j < int(end); j++ {
			if _, err := decodeKey(keys.Value(j), kb); err != nil {
				return err
			}
			cb.Append(counts.Value(j))
		}
	}
	return nil
}

func (v *ElementValues) String() string { return fmt.Sprintf("VALUES(%s)", v.X) }

// Children lets conditional forms see the sub-expression.
func (v *ElementValues) Children() []expr.Expr { return []expr.Expr{v.X} }
