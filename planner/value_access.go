package planner

import (
	"github.com/wsql/wsql/sql"
)

// Value access: row.field, arr[i] and m[key] (Flink's "valueaccess"). A
// two-part a.b is field b of column a when there is one, before planning.

// resolveFieldRefs turns every a.b of the query whose a is a column of the
// FROM table into a FieldAccess.
func (s *selectPlanner) resolveFieldRefs() {
	isColumn := func(name string) bool { return s.table.Column(name) >= 0 }
	st := s.stmt
	for i := range st.Items {
		st.Items[i].Expr = sql.ResolveFieldRefs(st.Items[i].Expr, isColumn)
	}
	st.Where = sql.ResolveFieldRefs(st.Where, isColumn)
	for i := range st.GroupBy {
		st.GroupBy[i] = sql.ResolveFieldRefs(st.GroupBy[i], isColumn)
	}
	st.Having = sql.ResolveFieldRefs(st.Having, isColumn)
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
