package planner

import (
	"strings"

	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// argClassOf is what the aggregate of kind k accepts.
func argClassOf(k windowop.AggKind) function.ArgClass { return aggArgClasses[k] }

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
// MAX, FIRST_VALUE and LAST_VALUE keep it, the variance family is DOUBLE,
// LISTAGG is STRING.
func (s *selectPlanner) aggregate(f *sql.FuncCall) (Aggregate, int, error) {
	agg := Aggregate{Text: aggText(f)}
	fn := builtins.Lookup(f.Name)
	if fn == nil || fn.Aggregate == nil {
		switch {
		case builtins.IsKind(f.Name, function.AggregateFunction):
			return agg, -1, sql.Errorf(sql.ErrUnsupported, f.At, "aggregate %s is not supported yet", f.Name)
		case builtins.IsKind(f.Name, function.ScalarFunction):
			return agg, -1, sql.Errorf(sql.ErrUnsupported, f.At, "function %s in the select list is not supported yet", f.Name)
		}
		return agg, -1, sql.Errorf(sql.ErrInvalid, f.At, "unknown function %s%s", f.Name, sql.DidYouMean(f.Name, builtins.CallableNames()))
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
	if f.Distinct {
		switch kind {
		case windowop.FirstValue, windowop.LastValue, windowop.ListAgg:
			return agg, -1, sql.Errorf(sql.ErrUnsupported, f.At, "%s(DISTINCT ...) is not supported yet", f.Name)
		}
	}
	agg.Spec = windowop.AggSpec{Kind: kind, Distinct: f.Distinct}
	if kind == windowop.JSONArrayAgg || kind == windowop.JSONObjectAgg {
		return s.jsonAggregate(f, agg)
	}
	if kind == windowop.ListAgg {
		sep, err := listAggSeparator(f)
		if err != nil {
			return agg, -1, err
		}
		agg.Spec.Separator = sep
	} else if len(f.Args) != 1 {
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
	if c := argClassOf(kind); !c.OK(col.Type) {
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
	agg.Text = sql.FormatExpr(f)
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
	if f.Star {
		return f.Name + "(*)"
	}
	var args []string
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
			args = append(args, sql.FormatExpr(a))
		}
	}
	d := ""
	if f.Distinct {
		d = "DISTINCT "
	}
	return f.Name + "(" + d + strings.Join(args, ", ") + ")"
}
