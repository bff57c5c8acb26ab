package planner

import (
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/sql"
)

// withScope plans the common table expressions of WITH as views of this
// statement only: each one reads the tables and the expressions before
// it, and hides a table or view of its name from the ones after it and
// from the query. Each is planned once here, so an error in one that the
// query never reads is still reported, as Flink's validator does.
func withScope(with []sql.CTE, cat *catalog.Catalog, opts Options) (*catalog.Catalog, error) {
	check := opts
	check.Run = false // only validated here; the query plans what it reads
	for _, c := range with {
		v := &catalog.View{Name: c.Name.Name, Query: c.Query, At: c.Name.At, Scope: cat}
		for _, col := range c.Columns {
			v.Columns = append(v.Columns, col.Name)
		}
		if rankItem(c.Query) < 0 { // a Top-N is planned with the query that bounds it
			if _, _, err := derivedRelation(v.Name, v.Query, v.Columns, cat, check, c.Name.At); err != nil {
				return nil, err
			}
		}
		cat = cat.WithView(v)
	}
	return cat, nil
}

// viewScope is the catalog the query of view v plans against.
func viewScope(v *catalog.View, cat *catalog.Catalog) *catalog.Catalog {
	if v.Scope != nil {
		return v.Scope
	}
	return cat.Root()
}
