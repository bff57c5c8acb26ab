package planner

import (
	"reflect"
	"strings"

	"github.com/wsql/wsql/sql"
)

// A join keeps its inputs' rows whole, every column of them, so a column
// no one reads above the join still costs its state and the gather of
// every joined row (Nexmark q4 kept each bid's and auction's long extra
// strings). Each table reference of a join is therefore planned with only
// the columns the statement may read: those whose name any column
// reference or identifier anywhere in it spells (qualified or not, in any
// clause, subquery or window), all of a table a star reads. The choice is
// by name alone, so it keeps too much rather than too little, and the
// join's result is the same.

// usedNames are the names a statement may read columns by.
type usedNames struct {
	all    bool            // a bare * reads every column
	names  map[string]bool // lower-cased
	tables map[string]bool // lower-cased: t.* reads every column of t
}

// usedColumns collects the names stmt may read columns by.
func usedColumns(stmt *sql.Select) *usedNames {
	u := &usedNames{names: map[string]bool{}, tables: map[string]bool{}}
	u.collect(reflect.ValueOf(stmt))
	return u
}

var (
	columnRefType  = reflect.TypeOf(sql.ColumnRef{})
	identType      = reflect.TypeOf(sql.Ident{})
	selectItemType = reflect.TypeOf(sql.SelectItem{})
)

// collect walks the syntax tree under v: every field, so a clause added
// to the tree later is read without a change here.
func (u *usedNames) collect(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			u.collect(v.Elem())
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			u.collect(v.Index(i))
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			u.collect(it.Key())
			u.collect(it.Value())
		}
	case reflect.Struct:
		switch v.Type() {
		case columnRefType:
			u.names[strings.ToLower(v.FieldByName("Name").String())] = true
			// t.x may be the field x of a ROW column t
			u.names[strings.ToLower(v.FieldByName("Table").String())] = true
			return
		case identType:
			u.names[strings.ToLower(v.FieldByName("Name").String())] = true
			return
		case selectItemType:
			if v.FieldByName("Star").Bool() {
				if t := v.FieldByName("Table").String(); t != "" {
					u.tables[strings.ToLower(t)] = true
				} else {
					u.all = true
				}
			}
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				u.collect(v.Field(i))
			}
		}
	}
}

// keepsAll reports whether every column of table may be read.
func (u *usedNames) keepsAll(table string) bool {
	return u == nil || u.all || u.tables[strings.ToLower(table)]
}

// pruned is p, the plan of q (SELECT * FROM a table reference named
// table), planned again with only the columns the statement may read,
// when that drops some. A versioned table keeps its columns (its primary
// key and time make its versions), as do an update stream (its changes
// are of whole rows) and a window table function's rows (a window join
// finds window_start and window_end by their place).
func (jp *joinPlanner) pruned(q *sql.Select, table string, p *Plan, versioned bool) (*Plan, error) {
	if versioned || jp.used.keepsAll(table) || p.Updates() || q.From.Window != nil {
		return p, nil
	}
	if _, _, _, ok := windowBounds(p); ok {
		return p, nil
	}
	var items []sql.SelectItem
	fields := p.Schema().Fields()
	seen := map[string]bool{}
	for _, f := range fields {
		if seen[strings.ToLower(f.Name)] {
			return p, nil // a name twice: a column is not found by it
		}
		seen[strings.ToLower(f.Name)] = true
	}
	for _, f := range fields {
		if jp.used.names[strings.ToLower(f.Name)] {
			items = append(items, sql.SelectItem{At: q.At, Expr: &sql.ColumnRef{At: q.At, Name: f.Name, NameAt: q.At}})
		}
	}
	if len(items) == len(fields) {
		return p, nil
	}
	if len(items) == 0 {
		// a join reading no column of a side (a CROSS JOIN counting rows)
		// still needs one to make its rows
		items = append(items, sql.SelectItem{At: q.At, Expr: &sql.ColumnRef{At: q.At, Name: fields[0].Name, NameAt: q.At}})
	}
	pq := *q
	pq.Items = items
	opts := jp.opts
	opts.derived = true
	return PlanSelect(&pq, jp.cat, opts)
}
