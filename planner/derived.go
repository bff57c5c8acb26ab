package planner

import (
	"fmt"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/format/timeprecision"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// derivedRelation plans a FROM subquery or a view as the input of an outer
// query: the inner plan, and a table describing its result rows. The
// inner query's *_ROWTIME (or window_time, or its rowtime passed through)
// stays a time attribute, so a window can be applied to the output of a
// window (cascading); its watermark is the one the inner query forwards.
func derivedRelation(name string, inner *sql.Select, colNames []string, cat *catalog.Catalog, opts Options, at sql.Pos) (*catalog.Table, *Plan, error) {
	p, err := PlanSelect(inner, cat, opts)
	if err != nil {
		return nil, nil, err
	}
	if p.Sink != nil {
		return nil, nil, sql.Errorf(sql.ErrInvalid, at, "internal: a subquery cannot have a sink")
	}
	schema := p.Schema()
	var cols []catalog.Column
	first := 0
	if schema.NumFields() > 0 && windowop.IsRowKindField(schema.Field(0)) {
		node, _ := p.updateNode()
		return nil, nil, sql.Errorf(sql.ErrUnsupported, at, "a query over the update stream of %s is not supported yet", node)
	}
	if len(colNames) > 0 && len(colNames) != schema.NumFields() {
		return nil, nil, sql.Errorf(sql.ErrInvalid, at, "view %s names %d columns but its query has %d", name, len(colNames), schema.NumFields())
	}
	for i, f := range schema.Fields()[first:] {
		n := f.Name
		if len(colNames) > 0 {
			n = colNames[i]
		}
		cols = append(cols, catalog.Column{Name: n, SQLType: timeprecision.Name(sqlTypeName(f.Type), f.Type, timeprecision.Of(f)), Type: f.Type, NotNull: !f.Nullable, At: at})
	}
	if name == "" {
		name = fmt.Sprintf("EXPR$%d", 0)
	}
	return catalog.NewDerivedTable(name, cols, p.TimeAttr, at), p, nil
}
