package function

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/nestedfn"
	"github.com/wsql/wsql/sql"
)

// The compile code of the collection functions that build arrays and
// maps from others (ARRAY_APPEND ... MAP_UNION, SPLIT).

// listArg is argument i as an ARRAY's type, or the error at it.
func listArg(k *Call, i int) (*arrow.ListType, error) {
	lt, ok := k.Args[i].DataType().(*arrow.ListType)
	if err := collectionArg(k, i, "an ARRAY", ok); err != nil {
		return nil, err
	}
	return lt, nil
}

// comparableElements checks that the elements of an ARRAY argument can be
// compared (the set functions, ARRAY_REMOVE); ordered asks for an order
// (ARRAY_SORT, ARRAY_MAX).
func comparableElements(k *Call, i int, ordered bool) (*arrow.ListType, error) {
	lt, err := listArg(k, i)
	if err != nil {
		return nil, err
	}
	if ok := nestedfn.CanCompare(lt.Elem()); !ok || ordered && !nestedfn.CanOrder(lt.Elem()) {
		return nil, sql.Errorf(sql.ErrUnsupported, k.Pos[i], "%s over an ARRAY<%s> is not supported yet", k.Name, TypeName(lt.Elem()))
	}
	return lt, nil
}

// sameTypes checks that the arguments (ARRAYs or MAPs, of kinds) are of
// one type, as ARRAY_CONCAT's and MAP_UNION's must be; a NULL becomes a
// NULL of it.
func sameTypes(c Compiler, k *Call, kinds string, id arrow.Type) (arrow.DataType, error) {
	var dt arrow.DataType
	for i, a := range k.Args {
		t := a.DataType()
		switch {
		case IsNull(t):
		case t.ID() != id || id == arrow.MAP && isMultiset(t):
			return nil, collectionArg(k, i, kinds, false)
		case dt == nil:
			dt = t
		case !arrow.TypeEqual(dt, t):
			return nil, sql.Errorf(sql.ErrInvalid, k.Pos[i], "%s expects %s of one type, got %s and %s", k.Name, kinds, TypeName(dt), TypeName(t))
		}
	}
	if dt == nil {
		return nil, sql.Errorf(sql.ErrInvalid, k.F.At, "%s needs an argument that is not NULL to have a type", k.Name)
	}
	for i, a := range k.Args {
		if IsNull(a.DataType()) {
			var err error
			if k.Args[i], err = c.To(a, dt, k.Pos[i]); err != nil {
				return nil, err
			}
		}
	}
	return dt, nil
}

// elementArg converts argument i to the element type of an ARRAY, as
// Flink casts the element of ARRAY_APPEND, ARRAY_REMOVE, ... implicitly.
func elementArg(c Compiler, k *Call, i int, elem arrow.DataType) error {
	from := k.Args[i].DataType()
	if IsNull(from) || arrow.TypeEqual(from, elem) {
		var err error
		k.Args[i], err = c.To(k.Args[i], elem, k.Pos[i])
		return err
	}
	if (from.ID() == arrow.STRING) != (elem.ID() == arrow.STRING) || (from.ID() == arrow.BOOL) != (elem.ID() == arrow.BOOL) ||
		isNestedType(from) || isNestedType(elem) {
		return sql.Errorf(sql.ErrInvalid, k.Pos[i], "%s expects an element of type %s, got %s", k.Name, TypeName(elem), TypeName(from))
	}
	var err error
	k.Args[i], err = c.To(k.Args[i], elem, k.Pos[i])
	return err
}

func isNestedType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.LIST, arrow.MAP, arrow.STRUCT:
		return true
	}
	return false
}

// foldList folds a call that gives a scalar; one that gives an ARRAY or
// a MAP runs per batch, as nested values have no literal.
func foldList(c Compiler, k *Call, e expr.Expr) (expr.Expr, error) {
	if isNestedType(e.DataType()) {
		return e, nil
	}
	return c.Fold(k.F.At, e, k.Args...)
}

func compileAppend(front bool) func(c Compiler, k *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) {
		lt, err := listArg(k, 0)
		if err != nil {
			return nil, err
		}
		if err := elementArg(c, k, 1, lt.Elem()); err != nil {
			return nil, err
		}
		return foldList(c, k, &nestedfn.Append{X: k.Args[0], Elem: k.Args[1], Front: front})
	}
}

func compileConcat(c Compiler, k *Call) (expr.Expr, error) {
	if _, err := sameTypes(c, k, "ARRAYs", arrow.LIST); err != nil {
		return nil, err
	}
	return foldList(c, k, &nestedfn.Concat{Lists: k.Args})
}

func compileSlice(c Compiler, k *Call) (expr.Expr, error) {
	if _, err := listArg(k, 0); err != nil {
		return nil, err
	}
	s := &nestedfn.Slice{X: k.Args[0], Start: k.Args[1]}
	if len(k.Args) > 2 {
		s.End = k.Args[2]
	}
	return foldList(c, k, s)
}

func compileRemove(c Compiler, k *Call) (expr.Expr, error) {
	lt, err := comparableElements(k, 0, false)
	if err != nil {
		return nil, err
	}
	if err := elementArg(c, k, 1, lt.Elem()); err != nil {
		return nil, err
	}
	return foldList(c, k, &nestedfn.Remove{X: k.Args[0], Needle: k.Args[1]})
}

func compileDistinct(c Compiler, k *Call) (expr.Expr, error) {
	if _, err := comparableElements(k, 0, false); err != nil {
		return nil, err
	}
	return foldList(c, k, &nestedfn.Distinct{X: k.Args[0]})
}

func compileSetOf(op nestedfn.SetOp) func(c Compiler, k *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) {
		dt, err := sameTypes(c, k, "ARRAYs", arrow.LIST)
		if err != nil {
			return nil, err
		}
		if !nestedfn.CanCompare(dt.(*arrow.ListType).Elem()) {
			return nil, sql.Errorf(sql.ErrUnsupported, k.Pos[0], "%s over an ARRAY<%s> is not supported yet", k.Name, TypeName(dt.(*arrow.ListType).Elem()))
		}
		return foldList(c, k, &nestedfn.SetOf{Op: op, L: k.Args[0], R: k.Args[1]})
	}
}

func compileSort(c Compiler, k *Call) (expr.Expr, error) {
	if _, err := comparableElements(k, 0, true); err != nil {
		return nil, err
	}
	s := &nestedfn.Sort{X: k.Args[0]}
	if len(k.Args) > 1 {
		s.Ascending = k.Args[1]
	}
	if len(k.Args) > 2 {
		s.NullsFirst = k.Args[2]
	}
	return foldList(c, k, s)
}

func compileExtreme(isMax bool) func(c Compiler, k *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) {
		if _, err := comparableElements(k, 0, true); err != nil {
			return nil, err
		}
		return foldList(c, k, &nestedfn.Extreme{X: k.Args[0], Max: isMax})
	}
}

func compileJoin(c Compiler, k *Call) (expr.Expr, error) {
	lt, err := listArg(k, 0)
	if err != nil {
		return nil, err
	}
	if !IsString(lt.Elem()) {
		return nil, sql.Errorf(sql.ErrInvalid, k.Pos[0], "%s expects an ARRAY<STRING>, got %s", k.Name, TypeName(lt))
	}
	j := &nestedfn.Join{X: k.Args[0], Delimiter: k.Args[1]}
	if len(k.Args) > 2 {
		j.NullReplacement = k.Args[2]
	}
	return foldList(c, k, j)
}

func compileSplit(c Compiler, k *Call) (expr.Expr, error) {
	return foldList(c, k, &nestedfn.Split{X: k.Args[0], Delimiter: k.Args[1]})
}

func compileFromArrays(c Compiler, k *Call) (expr.Expr, error) {
	kt, err := listArg(k, 0)
	if err != nil {
		return nil, err
	}
	vt, err := listArg(k, 1)
	if err != nil {
		return nil, err
	}
	if !nestedfn.CanCompare(kt.Elem()) {
		return nil, sql.Errorf(sql.ErrUnsupported, k.Pos[0], "%s with keys of type %s is not supported yet", k.Name, TypeName(kt.Elem()))
	}
	return foldList(c, k, &nestedfn.FromArrays{Keys: k.Args[0], Values: k.Args[1], Type: mapOf(kt.Elem(), vt.Elem())})
}

func compileMapUnion(c Compiler, k *Call) (expr.Expr, error) {
	dt, err := sameTypes(c, k, "MAPs", arrow.MAP)
	if err != nil {
		return nil, err
	}
	if !nestedfn.CanCompare(dt.(*arrow.MapType).KeyType()) {
		return nil, sql.Errorf(sql.ErrUnsupported, k.Pos[0], "%s with keys of type %s is not supported yet", k.Name, TypeName(dt.(*arrow.MapType).KeyType()))
	}
	return foldList(c, k, &nestedfn.MapUnion{Maps: k.Args})
}

func compileMapEntries(c Compiler, k *Call) (expr.Expr, error) {
	dt := k.Args[0].DataType()
	if err := collectionArg(k, 0, "a MAP", dt.ID() == arrow.MAP && !isMultiset(dt)); err != nil {
		return nil, err
	}
	return foldList(c, k, &nestedfn.MapEntries{X: k.Args[0]})
}
