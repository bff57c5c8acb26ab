package planner

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/planner/exprplan"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
	"github.com/wsql/wsql/windowop"
)

// argClassOf is what the aggregate of spec accepts.
func argClassOf(spec windowop.AggSpec) function.ArgClass {
	if c, ok := function.UserArgClass(spec.User); ok {
		return c
	}
	return aggArgClasses[spec.Kind]
}

// aggArgClasses is each aggregate kind's argument class, from the registry.
var aggArgClasses = func() map[windowop.AggKind]function.ArgClass {
	m := map[windowop.AggKind]function.ArgClass{}
	for _, f := range builtins.Functions() {
		if f.Aggregate != nil {
			m[f.Aggregate.Kind] = f.Aggregate.Arg
		}
	}
	return m
}()

// aggregate lowers an aggregate call of the select list; it returns the
// table column of the argument (-1 for COUNT(*)). Result types are
// windowop's (Flink's): COUNT → BIGINT, SUM and AVG keep the argument's
// type (DECIMAL(p, s) → DECIMAL(38, s) and DECIMAL(38, max(6, s))), MIN,
// MAX, FIRST_VALUE and LAST_VALUE keep it, the variance family and
// PERCENTILE are DOUBLE (ARRAY<DOUBLE> over an ARRAY of percentages),
// LISTAGG is STRING, ARRAY_AGG ARRAY<T> and COLLECT MULTISET<T>.
func (s *selectPlanner) aggregate(f *sql.FuncCall) (Aggregate, int, error) {
	agg := Aggregate{Text: aggText(f)}
	fn := s.fns.Lookup(strings.ToUpper(f.Name))
	if fn == nil || fn.Aggregate == nil {
		switch {
		case fn != nil && fn.Unsupported != "":
			return agg, -1, sql.Errorf(sql.ErrUnsupported, f.At, "function %s is not supported yet: %s", f.Name, fn.Unsupported)
		case s.fns.IsKind(strings.ToUpper(f.Name), function.AggregateFunction):
			return agg, -1, sql.Errorf(sql.ErrUnsupported, f.At, "aggregate %s is not supported yet", f.Name)
		case s.fns.IsKind(strings.ToUpper(f.Name), function.ScalarFunction):
			return agg, -1, sql.Errorf(sql.ErrUnsupported, f.At, "function %s in the select list is not supported yet", f.Name)
		}
		return agg, -1, sql.Errorf(sql.ErrInvalid, f.At, "unknown function %s%s", f.Name, sql.DidYouMean(f.Name, s.fns.CallableNames()))
	}
	kind := fn.Aggregate.Kind
	if f.Star {
		if kind != windowop.Count {
			return agg, -1, sql.Errorf(sql.ErrInvalid, f.At, "%s(*) is not allowed; only COUNT takes *", f.Name)
		}
		if f.Distinct {
			return agg, -1, sql.Errorf(sql.ErrInvalid, f.At, "COUNT(DISTINCT *) is not allowed; name a column")
		}
		agg.Spec = windowop.AggSpec{Kind: windowop.CountStar}
		return agg, -1, nil
	}
	distinct := f.Distinct
	if distinct {
		switch kind {
		case windowop.FirstValue:
			distinct = false // the first value is always new: FIRST_VALUE(DISTINCT x) is FIRST_VALUE(x)
		case windowop.LastValue, windowop.User:
			return agg, -1, sql.Errorf(sql.ErrUnsupported, f.At, "%s(DISTINCT ...) is not supported yet", f.Name)
		}
	}
	agg.Spec = windowop.AggSpec{Kind: kind, Distinct: distinct, User: fn.Aggregate.User, IgnoreNulls: f.IgnoreNulls}
	if kind == windowop.JSONArrayAgg || kind == windowop.JSONObjectAgg {
		return s.jsonAggregate(f, agg)
	}
	switch {
	case kind == windowop.Count && len(f.Args) > 1:
		// COUNT(DISTINCT a, b): the further arguments are read in finish
		// (aggExtraInputs); TiDB reads several only with DISTINCT
	case kind == windowop.ListAgg:
		sep, err := listAggSeparator(f)
		if err != nil {
			return agg, -1, err
		}
		agg.Spec.Separator = sep
	case kind == windowop.Percentile:
		if err := percentileArgs(f, &agg.Spec); err != nil {
			return agg, -1, err
		}
	case len(f.Args) != 1:
		return agg, -1, sql.Errorf(sql.ErrInvalid, f.At, "%s takes exactly one argument", f.Name)
	}
	idx, err := s.aggArg(f)
	if err != nil {
		return agg, -1, err
	}
	if idx == argExpression {
		return agg, idx, nil // typed once the expression is compiled (finish)
	}
	col := s.table.Columns[idx]
	if c := argClassOf(agg.Spec); !c.OK(col.Type) {
		return agg, -1, sql.Errorf(sql.ErrInvalid, f.Args[0].Pos(), "%s expects %s argument, got %s", f.Name, c.What, col.SQLType)
	}
	return agg, idx, nil
}

// listAggSeparator checks LISTAGG's arguments and returns its separator:
// Flink's default ",", or the second argument, which wsql takes only as a
// string literal.
func listAggSeparator(f *sql.FuncCall) (string, error) {
	switch len(f.Args) {
	case 1:
		return ",", nil
	case 2:
		lit, ok := f.Args[1].(*sql.Literal)
		if !ok || lit.Kind != sql.LitString {
			return "", sql.Errorf(sql.ErrUnsupported, f.Args[1].Pos(), "the separator of LISTAGG must be a string literal")
		}
		return lit.Text, nil
	}
	return "", sql.Errorf(sql.ErrInvalid, f.At, "LISTAGG takes one or two arguments: LISTAGG(expr [, separator])")
}

// jsonAggregate plans JSON_ARRAYAGG and JSON_OBJECTAGG: their argument
// is the row's item written by JSON_ARRAY or JSON_OBJECT with the call's
// ON NULL (aggItem), an expression computed before the window.
func (s *selectPlanner) jsonAggregate(f *sql.FuncCall, agg Aggregate) (Aggregate, int, error) {
	agg.Text = sqlfmt.Expr(f)
	if f.Distinct {
		return agg, -1, sql.Errorf(sql.ErrUnsupported, f.At, "%s(DISTINCT ...) is not supported", f.Name)
	}
	if want := map[string]int{"JSON_ARRAYAGG": 1, "JSON_OBJECTAGG": 2}[f.Name]; len(f.Args) != want {
		return agg, -1, sql.Errorf(sql.ErrInvalid, f.At, "%s takes %s", f.Name, map[int]string{1: "one value", 2: "KEY k VALUE v"}[want])
	}
	return agg, argExpression, nil
}

// aggItem is what an aggregate call reads per row: its argument, or for
// JSON_ARRAYAGG and JSON_OBJECTAGG the item as JSON text.
func aggItem(f *sql.FuncCall) sql.Expr {
	switch f.Name {
	case "JSON_ARRAYAGG":
		return &sql.FuncCall{At: f.At, Name: "JSON_ARRAY", Args: f.Args, JSON: f.JSON}
	case "JSON_OBJECTAGG":
		return &sql.FuncCall{At: f.At, Name: "JSON_OBJECT", Args: f.Args, JSON: f.JSON}
	}
	return f.Args[0]
}

// percentileArgs checks PERCENTILE's arguments and sets spec's
// percentage: a numeric literal from 0.0 to 1.0, or an ARRAY[...] of them,
// read from the syntax tree (Flink takes only constants).
func percentileArgs(f *sql.FuncCall, spec *windowop.AggSpec) error {
	if len(f.Args) < 2 || len(f.Args) > 3 {
		return sql.Errorf(sql.ErrInvalid, f.At, "PERCENTILE takes two or three arguments: PERCENTILE(expr, percentage [, frequency])")
	}
	if arr, ok := f.Args[1].(*sql.FuncCall); ok && arr.Name == "ARRAY" {
		spec.PercentageArray, spec.Percentages = true, []float64{}
		for _, a := range arr.Args {
			p, err := percentage(a)
			if err != nil {
				return err
			}
			spec.Percentages = append(spec.Percentages, p)
		}
		return nil
	}
	p, err := percentage(f.Args[1])
	spec.Percentage = p
	return err
}

// percentage reads one percentage of PERCENTILE.
func percentage(e sql.Expr) (float64, error) {
	lit, ok := e.(*sql.Literal)
	var p float64
	var err error
	if ok && (lit.Kind == sql.LitInt || lit.Kind == sql.LitDecimal || lit.Kind == sql.LitFloat) {
		p, err = strconv.ParseFloat(lit.Text, 64)
	}
	if !ok || err != nil || lit.Kind == sql.LitNull || lit.Kind == sql.LitString || lit.Kind == sql.LitBool || !(p >= 0 && p <= 1) {
		return 0, sql.Errorf(sql.ErrInvalid, e.Pos(), "the percentage of PERCENTILE must be a numeric literal between 0.0 and 1.0, or an ARRAY of them, as in PERCENTILE(x, 0.5) or PERCENTILE(x, ARRAY[0.5, 0.9])")
	}
	return p, nil
}

// argExpression marks an aggregate whose argument is an expression rather
// than a column: the planner computes it as a column before the window.
const argExpression = -2

// aggArg resolves an aggregate's first argument: a column's index, or
// argExpression.
func (s *selectPlanner) aggArg(f *sql.FuncCall) (int, error) {
	if len(f.Args) == 0 {
		return -1, sql.Errorf(sql.ErrInvalid, f.At, "%s needs an argument", f.Name)
	}
	c, ok := f.Args[0].(*sql.ColumnRef)
	if !ok {
		// computed per row before the window (see finish)
		return argExpression, nil
	}
	idx, err := s.resolve(c)
	if err == nil && s.table.Columns[idx].Proctime {
		return -1, sql.Errorf(sql.ErrUnsupported, c.At, "aggregating the processing-time column %s is not supported yet", c.Name)
	}
	return idx, err
}

func aggText(f *sql.FuncCall) string {
	var args []string
	if f.Star {
		args = append(args, "*")
	}
	for _, a := range f.Args {
		switch a := a.(type) {
		case *sql.ColumnRef:
			args = append(args, a.Name)
		case *sql.Literal:
			if a.Kind == sql.LitString {
				args = append(args, "'"+strings.ReplaceAll(a.Text, "'", "''")+"'")
			} else {
				args = append(args, a.Text)
			}
		default:
			args = append(args, sqlfmt.Expr(a))
		}
	}
	d := ""
	if f.Distinct {
		d = "DISTINCT "
	}
	if f.IgnoreNulls {
		args[len(args)-1] += " IGNORE NULLS"
	}
	text := f.Name + "(" + d + strings.Join(args, ", ") + ")"
	if f.Filter != nil {
		text += " FILTER (WHERE " + sqlfmt.Expr(f.Filter) + ")"
	}
	return text
}

// aggCall is the call of aggregate i.
func (s *selectPlanner) aggCall(i int) *sql.FuncCall {
	for f, j := range s.aggOf {
		if j == i {
			return f
		}
	}
	return nil
}

// aggExtras are what aggregate i reads besides its first argument:
// COUNT(DISTINCT a, b, ...)'s further arguments or PERCENTILE's frequency,
// and its FILTER condition.
func (s *selectPlanner) aggExtras(i int) (more []sql.Expr, filter sql.Expr) {
	f := s.aggCall(i)
	switch s.aggs[i].Spec.Kind {
	case windowop.Count:
		if !f.Star {
			more = f.Args[1:]
		}
	case windowop.Percentile:
		more = f.Args[2:] // the frequency; the percentage is a literal
	}
	return more, f.Filter
}

// aggExtraColumns are the table columns aggregate i's extras read.
func (s *selectPlanner) aggExtraColumns(i int) ([]int, error) {
	var out []int
	more, filter := s.aggExtras(i)
	for _, e := range append(more[:len(more):len(more)], filter) {
		if e == nil {
			continue
		}
		cols, err := s.referencedColumns(e)
		if err != nil {
			return nil, err
		}
		out = append(out, cols...)
	}
	return out, nil
}

// aggExtraInputs sets spec's further argument columns and its FILTER
// column: a column of the stream as is, an expression computed per row
// before the window through add, which returns its column.
func (s *selectPlanner) aggExtraInputs(i int, spec *windowop.AggSpec, scope exprplan.Scope, opts Options, add func(name string, e expr.Expr) int) error {
	more, filter := s.aggExtras(i)
	for _, e := range more {
		x, err := exprplan.CompileExpr(e, scope, exprOptions(opts))
		if err != nil {
			return err
		}
		if spec.Kind == windowop.Percentile && !isIntegerType(x.DataType()) {
			return sql.Errorf(sql.ErrInvalid, e.Pos(), "the frequency of PERCENTILE must be an integer, got %s", sqlTypeName(x.DataType()))
		}
		if c, ok := x.(*expr.ColumnExpr); ok {
			spec.MoreInputs = append(spec.MoreInputs, c.Index)
			continue
		}
		spec.MoreInputs = append(spec.MoreInputs, add("arg", x))
	}
	if filter != nil {
		x, err := exprplan.CompileCondition(filter, scope, exprOptions(opts))
		if err != nil {
			return err
		}
		spec.Filtered, spec.Filter = true, add("filter", x)
	}
	return nil
}

func isIntegerType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return true
	}
	return false
}
