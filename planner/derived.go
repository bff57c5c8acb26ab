package planner

import (
	"fmt"

	"github.com/wsql/wsql/windowop"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/format/timeprecision"
	"github.com/wsql/wsql/sql"
)

// derivedRelation plans a FROM subquery or a view as the input of an outer
// query: the inner plan, and a table describing its result rows. The
// inner query's *_ROWTIME (or window_time, or its rowtime passed through)
// stays a time attribute, so a window can be applied to the output of a
// window (cascading); its watermark is the one the inner query forwards.
func derivedRelation(name string, inner *sql.Select, colNames []string, cat *catalog.Catalog, opts Options, at sql.Pos) (*catalog.Table, *Plan, error) {
	opts.derived = true
	p, err := PlanSelect(inner, cat, opts)
	if err != nil {
		return nil, nil, err
	}
	if p.Sink != nil {
		return nil, nil, sql.Errorf(sql.ErrInvalid, at, "internal: a subquery cannot have a sink")
	}
	t, err := derivedTable(name, p, colNames, at)
	return t, p, err
}

// PlanView plans the query of CREATE VIEW as an outer query will read it
// (its PROCTIME() items are time attributes, not values to show).
func PlanView(q *sql.Select, cat *catalog.Catalog, opts Options) (*Plan, error) {
	opts.derived = true
	return PlanSelect(q, cat, opts)
}

// derivedTable is the table an outer query reads the rows of p as.
func derivedTable(name string, p *Plan, colNames []string, at sql.Pos) (*catalog.Table, error) {
	schema := p.Schema()
	var cols []catalog.Column
	first := 0
	timeAttr := p.TimeAttr
	if p.Updates() {
		// the row kind leads the rows; it is no column of the relation
		first = 1
		if timeAttr >= 0 {
			timeAttr--
		}
	}
	if len(colNames) > 0 && len(colNames) != schema.NumFields()-first {
		return nil, sql.Errorf(sql.ErrInvalid, at, "view %s names %d columns but its query has %d", name, len(colNames), schema.NumFields()-first)
	}
	for i, f := range schema.Fields()[first:] {
		n := f.Name
		if len(colNames) > 0 {
			n = colNames[i]
		}
		cols = append(cols, catalog.Column{Name: n, SQLType: timeprecision.Name(sqlTypeName(f.Type), f.Type, timeprecision.Of(f)), Type: f.Type, NotNull: !f.Nullable, At: at,
			Proctime: isProctimeField(f)})
	}
	if name == "" {
		name = fmt.Sprintf("EXPR$%d", 0)
	}
	return catalog.NewDerivedTable(name, cols, timeAttr, at), nil
}

// Updates reports whether the plan's result is an update stream: its rows
// lead with the row kind column (op).
func (p *Plan) Updates() bool {
	s := p.Schema()
	return s.NumFields() > 0 && windowop.IsRowKindField(s.Field(0))
}

// overUpdates refuses a query that is not a plain filter and projection
// over an update stream: aggregating or windowing the changes needs
// retraction, which is not built yet.
func (s *selectPlanner) overUpdates(at sql.Pos) error {
	node, _ := s.input.updateNode()
	return sql.Errorf(sql.ErrUnsupported, at, "a query over the update stream of %s is not supported yet; only filters and projections of it are", node)
}
