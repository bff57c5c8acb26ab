package nestedcast

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format"
)

// Common is the type two nested types of one kind both convert to: the
// common type of each pair of elements (by scalar for scalars), a's names,
// an element nullable when either is. ok is false when there is none.
func Common(a, b arrow.DataType, scalar func(a, b arrow.DataType) (arrow.DataType, bool)) (arrow.DataType, bool) {
	pairs, err := elementTypes(a, b)
	if err != nil {
		return nil, false
	}
	common := make([]arrow.DataType, len(pairs))
	for k, p := range pairs {
		var ok bool
		if format.IsNestedType(p[0]) {
			common[k], ok = Common(p[0], p[1], scalar)
		} else {
			common[k], ok = scalar(p[0], p[1])
		}
		if !ok {
			return nil, false
		}
	}
	switch at := a.(type) {
	case *arrow.StructType:
		fields := at.Fields()
		for k := range fields {
			fields[k].Type = common[k]
			fields[k].Nullable = fields[k].Nullable || b.(*arrow.StructType).Field(k).Nullable
		}
		return arrow.StructOf(fields...), true
	case *arrow.MapType:
		m := arrow.MapOfWithMetadata(common[0], at.KeyField().Metadata, common[1], at.ItemField().Metadata)
		m.SetItemNullable(at.ItemField().Nullable || b.(*arrow.MapType).ItemField().Nullable)
		return m, true
	}
	f := a.(*arrow.ListType).ElemField()
	f.Type, f.Nullable = common[0], f.Nullable || b.(*arrow.ListType).ElemField().Nullable
	return arrow.ListOfField(f), true
}
