package planner

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/nestedfn"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/sql"
)

// Value access: row.field, arr[i] and m[key] (Flink's "valueaccess").
//
// The parser reads a two-part name a.b as table a, column b. As in Flink,
// a column named a is tried first: then a.b is field b of column a. The
// query's expressions are rewritten so before planning, so every later
// step sees a FieldAccess.

// resolveFieldRefs turns every a.b of the query whose a is a column of the
// FROM table into a FieldAccess.
func (s *selectPlanner) resolveFieldRefs() {
	fix := func(e sql.Expr) sql.Expr {
		return mapExpr(e, func(x sql.Expr) sql.Expr {
			c, ok := x.(*sql.ColumnRef)
			if !ok || c.Table == "" || s.table.Column(c.Table) < 0 {
				return x
			}
			at := c.NameAt
			if !at.IsValid() {
				at = c.At
			}
			return &sql.FieldAccess{At: c.At, X: &sql.ColumnRef{At: c.At, Name: c.Table}, Field: sql.Ident{Name: c.Name, At: at}}
		})
	}
	st := s.stmt
	for i := range st.Items {
		st.Items[i].Expr = fix(st.Items[i].Expr)
	}
	st.Where = fix(st.Where)
	for i := range st.GroupBy {
		st.GroupBy[i] = fix(st.GroupBy[i])
	}
	st.Having = fix(st.Having)
}

// mapExpr replaces, bottom up, every sub-expression x of e by fn(x); the
// nodes are changed in place.
func mapExpr(e sql.Expr, fn func(sql.Expr) sql.Expr) sql.Expr {
	if e == nil {
		return nil
	}
	m := func(x *sql.Expr) { *x = mapExpr(*x, fn) }
	all := func(xs []sql.Expr) {
		for i := range xs {
			m(&xs[i])
		}
	}
	switch x := e.(type) {
	case *sql.Unary:
		m(&x.X)
	case *sql.Binary:
		m(&x.L)
		m(&x.R)
	case *sql.IsNull:
		m(&x.X)
	case *sql.Cast:
		m(&x.X)
	case *sql.FuncCall:
		all(x.Args)
		m(&x.Filter)
	case *sql.WindowCall:
		all(x.Args)
	case *sql.WindowAux:
		all(x.Args)
	case *sql.In:
		m(&x.X)
		all(x.List)
	case *sql.Between:
		m(&x.X)
		m(&x.Lo)
		m(&x.Hi)
	case *sql.Like:
		m(&x.X)
		m(&x.Pattern)
		m(&x.Escape)
	case *sql.Case:
		m(&x.Operand)
		for i := range x.Whens {
			m(&x.Whens[i].Cond)
			m(&x.Whens[i].Result)
		}
		m(&x.Else)
	case *sql.Extract:
		m(&x.X)
	case *sql.Trim:
		m(&x.Chars)
		m(&x.X)
	case *sql.FieldAccess:
		m(&x.X)
	case *sql.ItemAccess:
		m(&x.X)
		m(&x.Index)
	}
	return fn(e)
}

// fieldAccess compiles row.field.
func (c *exprCompiler) fieldAccess(e *sql.FieldAccess) (expr.Expr, error) {
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
		names := make([]string, st.NumFields())
		for i, f := range st.Fields() {
			names[i] = f.Name
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
func (c *exprCompiler) itemAccess(e *sql.ItemAccess) (expr.Expr, error) {
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

// fieldAlias is the name Flink gives an unnamed select item that is a
// field of a name, user.address.city: its last part ("city"); "" for any
// other expression.
func fieldAlias(e sql.Expr) string {
	f, ok := e.(*sql.FieldAccess)
	if !ok {
		return ""
	}
	for x := f.X; ; {
		switch y := x.(type) {
		case *sql.ColumnRef:
			return f.Field.Name
		case *sql.FieldAccess:
			x = y.X
		default:
			return ""
		}
	}
}
