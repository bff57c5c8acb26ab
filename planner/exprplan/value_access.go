package exprplan

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/nestedfn"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/sql"
)

// Value access: row.field, arr[i] and m[key] (Flink's "valueaccess"); the
// planner turns a two-part a.b into a field access when a is a column.

// fieldAccess compiles row.field.
func (c *Compiler) fieldAccess(e *sql.FieldAccess) (expr.Expr, error) {
	x, err := c.compile(e.X)
	if err != nil {
		return nil, err
	}
	st, ok := x.DataType().(*arrow.StructType)
	if !ok {
		return nil, sql.Errorf(sql.ErrInvalid, e.Field.At, "cannot read field %s of a value of type %s: only a ROW has fields", e.Field.Name, typeName(x.DataType()))
	}
	idx := -1
	for i, f := range st.Fields() {
		if f.Name == e.Field.Name {
			idx = i
			break
		}
		if idx < 0 && strings.EqualFold(f.Name, e.Field.Name) {
			idx = i
		}
	}
	if idx < 0 {
		var names []string
		for _, f := range st.Fields() {
			names = append(names, f.Name)
		}
		hint := sql.DidYouMean(e.Field.Name, names)
		if hint == "" {
			hint = "; its fields are " + strings.Join(names, ", ")
		}
		return nil, sql.Errorf(sql.ErrInvalid, e.Field.At, "field %s not found in %s%s", e.Field.Name, format.SQLTypeName(st), hint)
	}
	return c.fold(e.At, &nestedfn.Field{X: x, Index: idx, Name: st.Field(idx).Name}, x)
}

// itemAccess compiles arr[index] and map[key].
func (c *Compiler) itemAccess(e *sql.ItemAccess) (expr.Expr, error) {
	x, err := c.compile(e.X)
	if err != nil {
		return nil, err
	}
	k, err := c.compile(e.Index)
	if err != nil {
		return nil, err
	}
	switch dt := x.DataType().(type) {
	case *arrow.ListType:
		if !isInteger(k.DataType()) && !isNull(k.DataType()) {
			return nil, sql.Errorf(sql.ErrInvalid, e.Index.Pos(), "an ARRAY index must be an integer, not %s", typeName(k.DataType()))
		}
		return c.fold(e.At, &nestedfn.Element{X: x, Index: k}, x, k)
	case *arrow.MapType:
		if strings.HasPrefix(format.SQLTypeName(dt), "MULTISET") {
			break
		}
		if !nestedfn.CanKey(dt.KeyType()) {
			return nil, sql.Errorf(sql.ErrUnsupported, e.At, "looking up a key of type %s is not supported yet", typeName(dt.KeyType()))
		}
		if from := k.DataType(); !isNull(from) && !arrow.TypeEqual(from, dt.KeyType()) {
			if isString(from) != isString(dt.KeyType()) {
				return nil, sql.Errorf(sql.ErrInvalid, e.Index.Pos(), "a key of %s must be %s, not %s", format.SQLTypeName(dt), typeName(dt.KeyType()), typeName(from))
			}
			if k, err = c.to(k, dt.KeyType(), e.Index.Pos()); err != nil {
				return nil, err
			}
		}
		return c.fold(e.At, &nestedfn.MapValue{X: x, Key: k}, x, k)
	}
	return nil, sql.Errorf(sql.ErrInvalid, e.At, "[ ] reads an element of an ARRAY or a value of a MAP, not of %s", typeName(x.DataType()))
}
