package function

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/nestedfn"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/sql"
)

// The value constructors ARRAY[...], MAP[...] and ROW(...): Flink types an
// ARRAY's elements (a MAP's keys, its values) by their least restrictive
// common type. wsql's expressions carry no NOT NULL, so an element,
// value or field is typed nullable, as a column ARRAY<INT> is, and the
// constructed values can be written to such a column without a CAST.

// elementField is a nullable list element (named as the catalog names
// them, so the types compare equal).
func elementField(dt arrow.DataType) arrow.Field {
	return arrow.Field{Name: "element", Type: dt, Nullable: true}
}

// listOf is ARRAY<dt> as wsql types it.
func listOf(dt arrow.DataType) *arrow.ListType { return arrow.ListOfField(elementField(dt)) }

// mapOf is MAP<key, value> as wsql types it.
func mapOf(key, value arrow.DataType) *arrow.MapType {
	m := arrow.MapOf(key, value)
	m.SetItemNullable(true)
	return m
}

// toElements brings values (in place) to their common type and returns
// it. Nested values must be of one type (a NULL becomes a NULL of it);
// scalars meet as CASE's results do.
func toElements(c Compiler, at sql.Pos, what string, args []expr.Expr, pos []sql.Pos) (arrow.DataType, error) {
	var nested arrow.DataType
	for i, a := range args {
		dt := a.DataType()
		switch {
		case !format.IsNestedType(dt):
		case nested == nil:
			nested = dt
		case !arrow.TypeEqual(nested, dt):
			return nil, sql.Errorf(sql.ErrInvalid, pos[i], "%s mixes values of type %s and %s", what, TypeName(nested), TypeName(dt))
		}
	}
	if nested == nil {
		return c.ToCommon(at, what, args, pos)
	}
	for i, a := range args {
		if dt := a.DataType(); !arrow.TypeEqual(dt, nested) {
			if !IsNull(dt) {
				return nil, sql.Errorf(sql.ErrInvalid, pos[i], "%s mixes values of type %s and %s", what, TypeName(nested), TypeName(dt))
			}
			var err error
			if args[i], err = c.To(a, nested, pos[i]); err != nil {
				return nil, err
			}
		}
	}
	return nested, nil
}

// compileArray is ARRAY[v1, v2, ...].
func compileArray(c Compiler, k *Call) (expr.Expr, error) {
	dt, err := toElements(c, k.F.At, "ARRAY[...]", k.Args, k.Pos)
	if err != nil {
		return nil, err
	}
	return &nestedfn.ArrayOf{Elems: k.Args, Type: listOf(dt)}, nil
}

// compileMap is MAP[k1, v1, k2, v2, ...]: the keys meet in one type, the
// values in another.
func compileMap(c Compiler, k *Call) (expr.Expr, error) {
	if len(k.Args)%2 != 0 {
		return nil, sql.Errorf(sql.ErrInvalid, k.F.At, "MAP[...] takes keys and values in pairs, got %d values", len(k.Args))
	}
	n := len(k.Args) / 2
	keys, values := make([]expr.Expr, n), make([]expr.Expr, n)
	kpos, vpos := make([]sql.Pos, n), make([]sql.Pos, n)
	for j := 0; j < n; j++ {
		keys[j], kpos[j] = k.Args[2*j], k.Pos[2*j]
		values[j], vpos[j] = k.Args[2*j+1], k.Pos[2*j+1]
	}
	kt, err := toElements(c, k.F.At, "the keys of MAP[...]", keys, kpos)
	if err != nil {
		return nil, err
	}
	if !nestedfn.CanCompare(kt) {
		return nil, sql.Errorf(sql.ErrUnsupported, kpos[0], "MAP[...] with keys of type %s is not supported yet", TypeName(kt))
	}
	vt, err := toElements(c, k.F.At, "the values of MAP[...]", values, vpos)
	if err != nil {
		return nil, err
	}
	return &nestedfn.MapOf{Keys: keys, Values: values, Type: mapOf(kt, vt)}, nil
}

// compileRow is ROW(v1, ...) and (v1, v2, ...): the fields are named
// EXPR$0, EXPR$1, ... as Flink (Calcite) names them.
func compileRow(_ Compiler, k *Call) (expr.Expr, error) {
	fields := make([]arrow.Field, len(k.Args))
	for i, a := range k.Args {
		if IsNull(a.DataType()) {
			return nil, sql.Errorf(sql.ErrInvalid, k.Pos[i], "a field of ROW(...) cannot be an untyped NULL; write CAST(NULL AS type)")
		}
		fields[i] = arrow.Field{Name: fmt.Sprintf("EXPR$%d", i), Type: a.DataType(), Nullable: true}
	}
	return &nestedfn.RowOf{Fields: k.Args, Type: arrow.StructOf(fields...)}, nil
}
