package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/setop"
	"github.com/wsql/wsql/sql"
)

// setOpKinds are the set operations exec/setop runs.
var setOpKinds = map[sql.SetOpKind]setop.Kind{
	sql.Intersect: setop.Intersect, sql.IntersectAll: setop.IntersectAll,
	sql.Except: setop.Except, sql.ExceptAll: setop.ExceptAll,
}

// sideColumn names the column that tells the right query's rows from
// the left's.
const sideColumn = "$right"

// planIntersectExcept plans q1 INTERSECT [ALL] q2 and q1 EXCEPT [ALL] q2
// as Flink does: the rows of both queries, tagged by side, counted per
// distinct row and side (exec/setop). The columns are those of their
// UNION ALL (common types, the first query's names); the result is an
// update stream without a time attribute, whose rows come (+I) and go
// (-D) as the counts change.
func planIntersectExcept(stmt *sql.Select, cat *catalog.Catalog, opts Options) (*Plan, error) {
	u := stmt.Set
	ats := []sql.Pos{stmt.At, u.Ats[0]}
	var branches []*Plan
	for i, q := range u.Queries {
		p, err := PlanSelect(q, cat, opts)
		if err != nil {
			return nil, err
		}
		if p.Updates() {
			node, _ := p.updateNode()
			return nil, sql.Errorf(sql.ErrUnsupported, ats[i], "%s of the update stream of %s is not supported yet; %s takes append-only queries (plain queries and window aggregations)", u.Kind, node, u.Kind)
		}
		branches = append(branches, p)
	}
	p, err := unionOf(branches, ats, u.Kind.String(), opts)
	if err != nil {
		return nil, err
	}
	rows := p.Stream
	fields := append(append([]arrow.Field(nil), rows.Fields()...), arrow.Field{Name: sideColumn, Type: arrow.FixedWidthTypes.Boolean})
	tagged := arrow.NewSchema(fields, nil)
	for i, b := range p.Union {
		p.Union[i] = withSide(b, tagged, i == 1, opts)
	}
	cols := make([]int, len(fields))
	for k := range cols {
		cols[k] = k
	}
	p.Stream, p.TimeAttr = tagged, -1
	p.Project = exec.ProjectSpec{Columns: cols, Schema: tagged}
	p.SetOp = &setop.Config{Input: tagged, Kind: setOpKinds[u.Kind]}
	if _, err := p.SetOp.OutputSchema(); err != nil {
		return nil, sql.Errorf(sql.ErrUnsupported, u.At, "%v", err)
	}
	return p, nil
}

// withSide is b with the side column appended: false on the left query's
// rows, true on the right's.
func withSide(b *Plan, tagged *arrow.Schema, right bool, opts Options) *Plan {
	in := b.Schema()
	exprs := make([]expr.Expr, 0, tagged.NumFields())
	for k := range in.NumFields() {
		exprs = append(exprs, &expr.ColumnExpr{Index: k, Name: in.Field(k).Name, Type: in.Field(k).Type})
	}
	side := int64(0)
	if right {
		side = 1
	}
	exprs = append(exprs, &expr.Literal{Type: arrow.FixedWidthTypes.Boolean, Int: side})
	return projectionOver(b, exprs, tagged, opts)
}

// setOpText is EXPLAIN's line for INTERSECT or EXCEPT.
func (p *Plan) setOpText() string {
	names := fieldNames(p.SetOp.Input)
	return fmt.Sprintf("SetOp(%s, keys=[%s], side=[%s], counts=[per row and side], changelog=[I, D])", p.SetOp.Kind, strings.Join(names[:len(names)-1], ", "), sideColumn)
}
