package planner

import (
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
)

// distinctAsGroupBy plans SELECT DISTINCT a, f(b) FROM t as Flink does:
// SELECT a, f(b) FROM t GROUP BY a, f(b), a GroupAggregate without
// aggregates, which emits +I for each new row of values and nothing for
// a repeat. SELECT DISTINCT * groups by every column of t.
func distinctAsGroupBy(stmt *sql.Select, t *catalog.Table, fns *function.Registry) (*sql.Select, error) {
	if len(stmt.GroupBy) > 0 || stmt.GroupingSets != nil || selectHasAggregate(fns, stmt) {
		// Flink applies DISTINCT to the aggregation's update stream.
		return nil, sql.Errorf(sql.ErrUnsupported, stmt.Distinct, "SELECT DISTINCT over GROUP BY or aggregates is not supported yet; the GROUP BY keys are distinct already")
	}
	if stmt.From.Window != nil {
		return nil, sql.Errorf(sql.ErrUnsupported, stmt.Distinct, "SELECT DISTINCT over a window table function is not supported yet")
	}
	out := *stmt
	out.Items, out.GroupBy = nil, nil
	keys := map[string]bool{}
	add := func(it sql.SelectItem) {
		out.Items = append(out.Items, it)
		// SELECT DISTINCT a, a groups by a once
		if text := sqlfmt.Expr(it.Expr); !keys[text] {
			keys[text] = true
			out.GroupBy = append(out.GroupBy, it.Expr)
		}
	}
	for _, it := range stmt.Items {
		if !it.Star {
			add(it)
			continue
		}
		for _, c := range t.Columns {
			add(sql.SelectItem{At: it.At, Expr: &sql.ColumnRef{At: it.At, Name: c.Name}})
		}
	}
	return &out, nil
}
