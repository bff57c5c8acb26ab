package nestedcast

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/nestedfn"
	"github.com/wsql/wsql/exec/format"
)

// Leaf is the cast of a scalar column x to type to, planned by the
// caller's rules for scalar CAST.
type Leaf func(x expr.Expr, to arrow.DataType) (expr.Expr, error)

// Build is x converted to the nested type to, of x's kind; its error says
// why the types do not convert.
func Build(x expr.Expr, to arrow.DataType, leaf Leaf) (expr.Expr, error) {
	from := x.DataType()
	pairs, err := elementTypes(from, to)
	if err != nil {
		return nil, err
	}
	c := &nestedfn.Cast{X: x, To: to}
	for _, p := range pairs {
		col := &expr.ColumnExpr{Index: 0, Name: "element", Type: p[0]}
		var e expr.Expr = col
		switch {
		case arrow.TypeEqual(p[0], p[1]):
		case format.IsNestedType(p[0]) && format.IsNestedType(p[1]):
			e, err = Build(col, p[1], leaf)
		case format.IsNestedType(p[0]) != format.IsNestedType(p[1]) && p[0].ID() != arrow.NULL:
			err = fmt.Errorf("cannot convert %s to %s", format.SQLTypeName(p[0]), format.SQLTypeName(p[1]))
		default:
			e, err = leaf(col, p[1])
		}
		if err != nil {
			return nil, err
		}
		c.Elems = append(c.Elems, e)
	}
	return c, nil
}

// elementTypes pairs the element types of from with those of to: a ROW's
// fields in order, an ARRAY's element, a MAP's key and value.
func elementTypes(from, to arrow.DataType) ([][2]arrow.DataType, error) {
	switch f := from.(type) {
	case *arrow.StructType:
		t, ok := to.(*arrow.StructType)
		if !ok {
			break
		}
		if f.NumFields() != t.NumFields() {
			return nil, fmt.Errorf("a ROW of %d fields cannot become one of %d", f.NumFields(), t.NumFields())
		}
		pairs := make([][2]arrow.DataType, f.NumFields())
		for k := range pairs {
			pairs[k] = [2]arrow.DataType{f.Field(k).Type, t.Field(k).Type}
		}
		return pairs, nil
	case *arrow.MapType:
		if t, ok := to.(*arrow.MapType); ok && format.IsMultiset(f) == format.IsMultiset(t) {
			return [][2]arrow.DataType{{f.KeyType(), t.KeyType()}, {f.ItemType(), t.ItemType()}}, nil
		}
	case *arrow.ListType:
		if t, ok := to.(*arrow.ListType); ok {
			return [][2]arrow.DataType{{f.Elem(), t.Elem()}}, nil
		}
	}
	return nil, fmt.Errorf("%s and %s are not of one kind", format.SQLTypeName(from), format.SQLTypeName(to))
}
