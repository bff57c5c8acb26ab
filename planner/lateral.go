package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/lateral"
	"github.com/wsql/wsql/planner/exprplan"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
)

// LateralPlan is Flink's correlate: the rows of the plan's Input, each
// joined with the rows UNNEST or a table function computes from it
// (exec/lateral). It is a per-row expansion and keeps no state, so the
// input's changelog mode and time attribute pass through it.
type LateralPlan struct {
	Spec lateral.Spec
	Kind sql.JoinKind
	// Invocation is the call as EXPLAIN shows it.
	Invocation string
}

// lateralJoin plans the join of j.Left with the correlated table
// reference j.Right: the left planned with the conjuncts that read only
// it, then expanded. The other conjuncts (an inner join's ON, WHERE's)
// are left for the query over the joined rows, as Flink filters after
// its correlate.
func (jp *joinPlanner) lateralJoin(j *sql.Join, conds []sql.Expr) (joinSide, []sql.Expr, error) {
	lat := j.Right.Lateral
	l, err := jp.columnsOf(j.Left)
	if err != nil {
		return joinSide{}, nil, err
	}
	var onLeft, rest []sql.Expr
	for _, c := range conds {
		if readsOnly(c, l) {
			onLeft = append(onLeft, c)
		} else {
			rest = append(rest, c)
		}
	}
	if j.Kind == sql.InnerJoin {
		rest = append(rest, conjuncts(j.On)...)
	}
	ls, restL, err := jp.plan(j.Left, onLeft)
	if err != nil {
		return joinSide{}, nil, err
	}
	rest = append(rest, restL...)
	in := ls.plan.Schema()
	kind := 0
	if ls.plan.Updates() {
		kind = 1 // the row kind leads the rows; it is no column of the table
	}
	scope := &lateralScope{joinScope: joinScope{cols: ls.cols, schema: arrow.NewSchema(in.Fields()[kind:], nil)}, offset: kind}
	c := exprplan.NewCompiler(scope, exprOptions(jp.opts))
	spec := lateral.Spec{Input: in, Left: j.Kind == sql.LeftJoin, Ordinality: lat.Ordinality}
	var gen []arrow.Field
	table := lat.Alias
	invocation := ""
	if f := lat.Function; f != nil {
		fn, args, err := c.TableCall(f)
		if err != nil {
			return joinSide{}, nil, err
		}
		spec.Args, spec.Function, spec.FunctionName = args, fn.Table.Eval, fn.Name
		gen = slices.Clone(fn.Table.Columns)
		if table == "" {
			table = fn.Name
		}
		invocation = sqlfmt.Expr(f)
	} else {
		arg, err := c.Compile(lat.Unnest)
		if err != nil {
			return joinSide{}, nil, err
		}
		if gen, err = lateral.UnnestFields(arg.DataType(), lat.Ordinality); err != nil {
			return joinSide{}, nil, sql.Errorf(sql.ErrInvalid, lat.Unnest.Pos(), "UNNEST expands an ARRAY, a MULTISET or a MAP, not %s", format.SQLTypeName(arg.DataType()))
		}
		spec.Args = []expr.Expr{arg}
		invocation = "UNNEST(" + sqlfmt.Expr(lat.Unnest) + ")"
		if lat.Ordinality {
			invocation += " WITH ORDINALITY"
		}
	}
	if err := nameColumns(lat, gen); err != nil {
		return joinSide{}, nil, err
	}
	spec.Schema = arrow.NewSchema(append(slices.Clone(in.Fields()), gen...), nil)
	if err := spec.Check(); err != nil {
		return joinSide{}, nil, sql.Errorf(sql.ErrInvalid, lat.At, "%v", err)
	}
	cols := slices.Clone(ls.cols)
	for _, f := range gen {
		cols = append(cols, joinColumn{table: table, name: f.Name})
	}
	p := &Plan{
		Location: jp.opts.Location, Clock: jp.opts.Clock, Plain: true, Input: ls.plan,
		Lateral: &LateralPlan{Spec: spec, Kind: j.Kind, Invocation: invocation},
		Stream:  spec.Schema, Rowtime: -1, GapIndex: -1, TimeAttr: ls.plan.TimeAttr,
	}
	// the rows as they are; by expressions, which EXPLAIN names
	p.Project.Schema = spec.Schema
	for i, f := range spec.Schema.Fields() {
		p.Project.Exprs = append(p.Project.Exprs, &expr.ColumnExpr{Index: i, Name: f.Name, Type: f.Type})
	}
	return joinSide{plan: p, cols: cols, timeAttr: ls.timeAttr}, rest, nil
}

// nameColumns names the generated columns by the alias's column list,
// which must name each; an alias alone names a single unnamed column.
func nameColumns(lat *sql.Lateral, gen []arrow.Field) error {
	if len(lat.Columns) == 0 {
		if lat.Alias != "" && len(gen) == 1 && gen[0].Name == "EXPR$0" {
			gen[0].Name = lat.Alias
		}
		return nil
	}
	if len(lat.Columns) != len(gen) {
		names := make([]string, len(gen))
		for i, f := range gen {
			names[i] = "'" + f.Name + "'"
		}
		return sql.Errorf(sql.ErrInvalid, lat.Columns[0].At, "List of column aliases must have same degree as table; table has %d columns (%s), whereas alias list has %d columns",
			len(gen), strings.Join(names, ", "), len(lat.Columns))
	}
	for i, c := range lat.Columns {
		gen[i].Name = c.Name
	}
	return nil
}

// lateralScope resolves the columns of the correlated call's arguments
// over the left's rows, which may lead with the row kind.
type lateralScope struct {
	joinScope
	offset int
}

func (s *lateralScope) Resolve(e sql.Expr) (int, arrow.Field, bool, error) {
	i, f, ok, err := s.joinScope.Resolve(e)
	return i + s.offset, f, ok, err
}

// readsOnly reports whether c reads columns of cols alone.
func readsOnly(c sql.Expr, cols joinColumns) bool {
	only := true
	walkExpr(c, func(x sql.Expr) bool {
		if ref, ok := x.(*sql.ColumnRef); ok {
			if _, err := cols.find(ref); err != nil && !isNiladic(ref) {
				only = false
			}
		}
		return only
	})
	return only
}

// lateralText is EXPLAIN's line for the correlate.
func (p *Plan) lateralText() string {
	l := p.Lateral
	kind := "INNER"
	if l.Kind == sql.LeftJoin {
		kind = "LEFT"
	}
	in := l.Spec.Input.NumFields()
	names := fieldNames(l.Spec.Schema)[in:]
	return fmt.Sprintf("Correlate(invocation=[%s], columns=[%s], joinType=[%s], state=[none: each row expands alone], changelog=[the input's])",
		l.Invocation, strings.Join(names, ", "), kind)
}
