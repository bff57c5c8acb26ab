package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/planner/exprplan"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// planSetOp plans q1 UNION ALL q2 ... as Flink does: the queries' column
// counts must match, each column takes the common type of the queries'
// columns (a query whose column is narrower is cast), the names are the
// first query's, and a column stays a time attribute only when it is the
// time attribute of every query. The union's watermark is the minimum of
// the queries' (exec/union.go). UNION without ALL is UNION ALL followed by
// a GroupAggregate over every column, as SELECT DISTINCT (distinct.go).
func planSetOp(stmt *sql.Select, cat *catalog.Catalog, opts Options) (*Plan, error) {
	u := stmt.Set
	if _, ok := setOpKinds[u.Kind]; ok {
		return planIntersectExcept(stmt, cat, opts)
	}
	if u.Kind == sql.UnionDistinct {
		all := &sql.Select{At: stmt.At, Set: &sql.SetOp{At: u.At, Kind: sql.UnionAll, Queries: u.Queries, Ats: u.Ats}}
		return PlanSelect(&sql.Select{
			At:       stmt.At,
			Distinct: u.At,
			Items:    []sql.SelectItem{{At: u.At, Star: true}},
			From:     sql.TableRef{Subquery: all, At: stmt.At},
		}, cat, opts)
	}
	var queries []*sql.Select
	var ats []sql.Pos // where each query's operator (or the first query) is
	flattenUnionAll(stmt, stmt.At, &queries, &ats)
	branches := make([]*Plan, len(queries))
	for i, q := range queries {
		p, err := PlanSelect(q, cat, opts)
		if err != nil {
			return nil, err
		}
		if s := p.Schema(); s.NumFields() > 0 && windowop.IsRowKindField(s.Field(0)) {
			node, _ := p.updateNode()
			return nil, sql.Errorf(sql.ErrUnsupported, q.At, "UNION ALL of the update stream of %s is not supported yet; UNION ALL takes append-only queries (plain queries and window aggregations)", node)
		}
		branches[i] = p
	}
	return unionOf(branches, ats, "UNION ALL", opts)
}

// unionOf is the UNION ALL of the planned queries branches (ats: where
// each query's operator is), for the operation named op.
func unionOf(branches []*Plan, ats []sql.Pos, op string, opts Options) (*Plan, error) {
	first := branches[0].Schema()
	for i, b := range branches[1:] {
		if n := b.Schema().NumFields(); n != first.NumFields() {
			return nil, sql.Errorf(sql.ErrInvalid, ats[i+1], "Column count mismatch in %s: the first query has %d columns, query %d has %d", op, first.NumFields(), i+2, n)
		}
	}
	fields := make([]arrow.Field, first.NumFields())
	for k := range fields {
		f := first.Field(k)
		dt := f.Type
		for i, b := range branches[1:] {
			bf := b.Schema().Field(k)
			if isProctimeField(bf) != isProctimeField(f) {
				// a processing-time attribute has no value to union with
				return nil, sql.Errorf(sql.ErrUnsupported, ats[i+1], "column %d (%s) of %s is PROCTIME() in one query but not in another, which is not supported yet", k+1, f.Name, op)
			}
			t, ok := exprplan.CommonType(dt, bf.Type)
			if !ok {
				return nil, sql.Errorf(sql.ErrInvalid, ats[i+1], "Type mismatch in column %d (%s) of %s: %s and %s have no common type; add a CAST",
					k+1, f.Name, op, function.TypeName(dt), function.TypeName(bf.Type))
			}
			dt = t
			f.Nullable = f.Nullable || bf.Nullable
		}
		if !arrow.TypeEqual(dt, f.Type) {
			f = arrow.Field{Name: f.Name, Type: dt, Nullable: f.Nullable}
		}
		fields[k] = f
	}
	schema := arrow.NewSchema(fields, nil)
	timeAttr := branches[0].TimeAttr
	for i, b := range branches {
		// a cast value is no time attribute
		if b.TimeAttr != timeAttr || timeAttr >= 0 && !arrow.TypeEqual(b.Schema().Field(timeAttr).Type, fields[timeAttr].Type) {
			timeAttr = -1
		}
		cast, err := castBranch(b, schema, ats[i], opts)
		if err != nil {
			return nil, err
		}
		branches[i] = cast
	}
	cols := make([]int, len(fields))
	for k := range cols {
		cols[k] = k
	}
	return &Plan{
		Location: opts.Location,
		Clock:    opts.Clock,
		Plain:    true,
		Union:    branches,
		Stream:   schema,
		Rowtime:  -1,
		GapIndex: -1,
		TimeAttr: timeAttr,
		Project:  exec.ProjectSpec{Columns: cols, Schema: schema},
	}, nil
}

// projectionOver is a plain query computing exprs (schema) over each row
// of b, with no time attribute.
func projectionOver(b *Plan, exprs []expr.Expr, schema *arrow.Schema, opts Options) *Plan {
	return &Plan{
		Location: opts.Location,
		Clock:    opts.Clock,
		Plain:    true,
		Input:    b,
		Stream:   b.Schema(),
		Rowtime:  -1,
		GapIndex: -1,
		TimeAttr: -1,
		Project:  exec.ProjectSpec{Exprs: exprs, Schema: schema},
	}
}

// Walk calls f with p and every plan p reads rows from: the subquery or
// view it reads, the queries of its union, and theirs.
func (p *Plan) Walk(f func(*Plan)) {
	f(p)
	if p.Input != nil {
		p.Input.Walk(f)
	}
	for _, q := range p.Union {
		q.Walk(f)
	}
}

// flattenUnionAll lists the queries of nested UNION ALLs in order, with
// the position of the operator before each (the query's own for the
// first).
func flattenUnionAll(q *sql.Select, at sql.Pos, out *[]*sql.Select, ats *[]sql.Pos) {
	if q.Set == nil || q.Set.Kind != sql.UnionAll {
		*out, *ats = append(*out, q), append(*ats, at)
		return
	}
	for i, sub := range q.Set.Queries {
		a := at
		if i > 0 {
			a = q.Set.Ats[i-1]
		}
		flattenUnionAll(sub, a, out, ats)
	}
}

// castBranch is b, or a plain query over b that casts its columns to the
// union's types and names them as the union does.
func castBranch(b *Plan, schema *arrow.Schema, at sql.Pos, opts Options) (*Plan, error) {
	in := b.Schema()
	same := true
	for k, f := range schema.Fields() {
		same = same && arrow.TypeEqual(f.Type, in.Field(k).Type)
	}
	if same {
		return b, nil
	}
	c := exprplan.NewCompiler(valuesScope{fns: opts.functions()}, exprOptions(opts))
	exprs := make([]expr.Expr, schema.NumFields())
	for k, f := range schema.Fields() {
		col := &expr.ColumnExpr{Index: k, Name: in.Field(k).Name, Type: in.Field(k).Type}
		x, err := c.To(col, f.Type, at)
		if err != nil {
			return nil, err
		}
		exprs[k] = x
	}
	return projectionOver(b, exprs, schema, opts), nil
}

// unionJob lowers a union: each query's job feeds the union, which the
// union's projection reads.
func (p *Plan) unionJob() (*exec.Job, error) {
	job := &exec.Job{RowtimeIndex: -1, Project: p.Project, Clock: p.Clock}
	for _, b := range p.Union {
		j, err := b.Job()
		if err != nil {
			return nil, err
		}
		// one window writes the late rows file: the one after the union
		j.Walk(func(j *exec.Job) { j.LateDataPath = "" })
		job.Union = append(job.Union, j)
	}
	if p.forwardsWatermarks() {
		shareWindows(job.Union) // subplan_reuse.go
	}
	return job, nil
}

// forwardsWatermarks reports whether p's rows come with watermarks: every
// table it reads generates them (exec's Job.forwardsWatermarks at run
// time).
func (p *Plan) forwardsWatermarks() bool {
	ok := true
	p.Walk(func(q *Plan) {
		if q.Input == nil && q.Union == nil && (q.Watermark == nil || q.Proctime) {
			ok = false
		}
	})
	return ok
}

// hasWindow reports whether p or a plan it reads aggregates.
func (p *Plan) hasWindow() bool {
	found := false
	p.Walk(func(q *Plan) { found = found || !q.Plain })
	return found
}

// explainUnion prints the union's line and, below it, each query's
// operators, as Flink's plans print the inputs of a node with several.
func (p *Plan) explainUnion(lines []string, depth int) string {
	names := fieldNames(p.Project.Schema) // before INTERSECT or EXCEPT
	rowtime := ""
	if p.TimeAttr >= 0 {
		rowtime = ", rowtime=[" + names[p.TimeAttr] + "]"
	}
	order := "watermark=[min of the inputs'], order=[by each row's watermark, then input]"
	if !p.forwardsWatermarks() {
		order = "watermark=[none: an input has none], order=[as read, the inputs one after the other]"
	}
	return p.explainInputs(lines, depth, fmt.Sprintf("Union(all=[true], union=[%s]%s, %s)", strings.Join(names, ", "), rowtime, order))
}

// explainInputs prints node, the union or join, at depth, and below it
// the operators of each plan of p.Union.
func (p *Plan) explainInputs(lines []string, depth int, node string) string {
	var children []string
	for _, b := range p.Union {
		children = append(children, b.Explain())
	}
	return explainChildren(lines, depth, node, p.markReused(children))
}

// explainChildren prints node at depth and, below it, each child's
// operator tree.
func explainChildren(lines []string, depth int, node string, children []string) string {
	head := strings.Repeat("   ", max(depth-1, 0))
	if depth > 0 {
		head += "+- "
	}
	lines = append(lines, head+node)
	child := strings.Repeat("   ", depth)
	for i, c := range children {
		first, rest := ":- ", ":  "
		if i == len(children)-1 {
			first, rest = "+- ", "   "
		}
		for k, line := range strings.Split(strings.TrimRight(c, "\n"), "\n") {
			if k == 0 {
				lines = append(lines, child+first+line)
			} else {
				lines = append(lines, child+rest+line)
			}
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
