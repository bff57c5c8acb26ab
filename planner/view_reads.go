package planner

import (
	"reflect"
	"strings"

	"github.com/wsql/wsql/sql"
)

// A query over a view reads some of its columns: the view's select items
// the outer query never names need not be read from the source, so a
// generator may skip making them (the Nexmark bid view's url and extra
// when a query reads its auction and price). Such an item is still
// computed, over the zeros and empty strings the source then makes, so
// only an item that cannot fail on them is left out: a column or a ROW
// field passed through.

// unreadViewItems marks the items of a view's query (named by cols when
// the view names its columns) that reads, the names the query reading the
// view may read it by (readsThrough), does not hold; nil when it may read
// them all (reads nil, a * in the view, an item without a name of its own,
// two items of the same name).
func unreadViewItems(named map[string]bool, view *sql.Select, cols []string) []bool {
	if named == nil || hasStar(view) || (len(cols) > 0 && len(cols) != len(view.Items)) {
		return nil
	}
	unread := make([]bool, len(view.Items))
	seen := map[string]bool{}
	for i, it := range view.Items {
		name := it.Alias
		switch {
		case len(cols) > 0:
			name = cols[i]
		case name != "":
		case isColumnRef(it.Expr):
			name = it.Expr.(*sql.ColumnRef).Name
		default:
			name = fieldAlias(it.Expr)
		}
		name = strings.ToLower(name)
		if name == "" || seen[name] {
			return nil
		}
		seen[name] = true
		unread[i] = !named[name] && passThrough(it.Expr)
	}
	return unread
}

// readsThrough is every name stmt may read the columns of its FROM by:
// the names in stmt, and with a * also those its own readers, outer, read
// it by (a * passes every column on to them); nil, all, when stmt has a *
// and its readers may read every column (outer nil: the sink reads them
// all).
//
// So in q12's SELECT bidder, COUNT(*) ... FROM (SELECT *, PROCTIME() AS
// p_time FROM bid) B, the bid view's price, channel, url and extra are
// not read: neither query names them.
func readsThrough(stmt *sql.Select, outer map[string]bool) map[string]bool {
	named := namesIn(stmt)
	if !hasStar(stmt) {
		return named
	}
	if outer == nil {
		return nil
	}
	for n := range outer {
		named[n] = true
	}
	return named
}

// passThrough tells whether e is a column or a field of one, which a
// projection passes on and cannot fail on.
func passThrough(e sql.Expr) bool {
	for {
		switch x := e.(type) {
		case *sql.ColumnRef:
			return true
		case *sql.FieldAccess:
			e = x.X
		default:
			return false
		}
	}
}

// namesIn is every string of a statement's syntax tree, lowercased: a
// superset of the names of the columns it reads, whatever clause reads
// them, so a column missing from it is surely not read.
func namesIn(stmt *sql.Select) map[string]bool {
	out := map[string]bool{}
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			out[strings.ToLower(v.String())] = true
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			walk(v.Elem())
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Map:
			iter := v.MapRange()
			for iter.Next() {
				walk(iter.Key())
				walk(iter.Value())
			}
		}
	}
	walk(reflect.ValueOf(stmt))
	return out
}
