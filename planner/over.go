package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format/timeprecision"
	"github.com/wsql/wsql/exec/overop"
	"github.com/wsql/wsql/planner/exprplan"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
	"github.com/wsql/wsql/windowop"
)

// OverPlan is an OVER aggregation (Flink's OverAggregate): the plan's
// Input gives it every column of the rows and the aggregates' arguments;
// Project reads its output, the input columns then one per aggregate.
type OverPlan struct {
	Config      overop.Config
	PartitionBy []string // as EXPLAIN names them
	OrderBy     string
	Frame       string // the frame as written (RANGE with its INTERVAL), or Config.FrameText
}

// rankFunctions are the OVER functions of Top-N and deduplication.
var rankFunctions = map[string]bool{"ROW_NUMBER": true, "RANK": true, "DENSE_RANK": true}

// overCalls returns the OVER aggregate calls of the select list.
func overCalls(stmt *sql.Select) []*sql.OverCall {
	var calls []*sql.OverCall
	for _, it := range stmt.Items {
		walkExpr(it.Expr, func(x sql.Expr) bool {
			if o, ok := x.(*sql.OverCall); ok {
				calls = append(calls, o)
				return false
			}
			return true
		})
	}
	return calls
}

// overWindow is an OVER clause checked and normalised: two calls share a
// window when these are equal.
type overWindow struct {
	partition string // the PARTITION BY columns' table indexes, as text
	partCols  []int
	timeCol   int
	proctime  bool
	rows      bool
	unbounded bool
	preceding int64
	frame     string // as EXPLAIN shows it
}

// window checks an OVER clause as Flink's StreamExecOverAggregate does.
func (s *selectPlanner) overClause(o *sql.OverCall) (overWindow, error) {
	var w overWindow
	t := s.table
	for _, e := range o.PartitionBy {
		c, ok := e.(*sql.ColumnRef)
		if !ok {
			return w, sql.Errorf(sql.ErrUnsupported, e.Pos(), "PARTITION BY of an OVER aggregation takes columns; compute %s in a subquery first", sqlfmt.Expr(e))
		}
		idx, err := s.resolve(c)
		if err != nil {
			return w, err
		}
		if t.Columns[idx].Proctime {
			return w, sql.Errorf(sql.ErrInvalid, c.At, "the processing-time column %s cannot partition an OVER window", c.Name)
		}
		w.partCols = append(w.partCols, idx)
		w.partition += fmt.Sprintf("%d,", idx)
	}
	timeAttr := "the table's time attribute"
	if t.Watermark != nil {
		timeAttr = "its rowtime " + t.Watermark.Column
	}
	switch {
	case len(o.OrderBy) == 0:
		return w, sql.Errorf(sql.ErrUnsupported, o.At, "OVER windows' ordering in stream mode must be defined on a time attribute: add ORDER BY %s", strings.TrimPrefix(timeAttr, "its rowtime "))
	case len(o.OrderBy) > 1:
		return w, sql.Errorf(sql.ErrUnsupported, o.OrderBy[1].Expr.Pos(), "The window can only be ordered by a single time column.")
	case o.OrderBy[0].Desc:
		return w, sql.Errorf(sql.ErrUnsupported, o.OrderBy[0].Expr.Pos(), "The window can only be ordered in ASCENDING mode.")
	}
	notTime := sql.Errorf(sql.ErrUnsupported, o.OrderBy[0].Expr.Pos(), "OVER windows' ordering in stream mode must be defined on a time attribute: order by %s or a PROCTIME() column", timeAttr)
	c, ok := o.OrderBy[0].Expr.(*sql.ColumnRef)
	if !ok {
		return w, notTime
	}
	idx, err := s.resolve(c)
	if err != nil {
		return w, err
	}
	switch {
	case t.Columns[idx].Proctime:
		w.proctime = true
	case t.Watermark != nil && idx == t.Watermark.Index:
	default:
		return w, notTime
	}
	w.timeCol = idx
	f := o.Frame
	if f == nil {
		// Flink's default with ORDER BY: RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
		w.unbounded = true
		return w, nil
	}
	w.rows = f.Rows
	if !f.End.Current {
		return w, sql.Errorf(sql.ErrUnsupported, o.At, "OVER windows end at CURRENT ROW in Flink: write BETWEEN ... PRECEDING AND CURRENT ROW")
	}
	b := f.Start
	switch {
	case b.Following:
		return w, sql.Errorf(sql.ErrUnsupported, o.At, "an OVER frame starts at PRECEDING rows or the CURRENT ROW, not FOLLOWING ones")
	case b.Unbounded:
		w.unbounded = true
	case b.Current:
	case f.Rows:
		n, ok := b.Offset.(*sql.Literal)
		if !ok || n.Kind != sql.LitInt {
			return w, sql.Errorf(sql.ErrInvalid, b.Offset.Pos(), "a ROWS frame takes a number of rows, as ROWS BETWEEN 2 PRECEDING AND CURRENT ROW")
		}
		if _, err := fmt.Sscan(n.Text, &w.preceding); err != nil || w.preceding < 0 {
			return w, sql.Errorf(sql.ErrInvalid, n.At, "ROWS %s PRECEDING: the number of rows must be 0 or more", n.Text)
		}
	default:
		iv, ok := b.Offset.(*sql.IntervalLiteral)
		if !ok || iv.YearMonth || iv.Millis < 0 {
			return w, sql.Errorf(sql.ErrInvalid, b.Offset.Pos(), "a RANGE frame over a time attribute takes a day-time INTERVAL, as RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW")
		}
		w.preceding = iv.Millis
	}
	if !w.unbounded && !f.Rows {
		w.frame = "RANGE BETWEEN " + b.Offset.(*sql.IntervalLiteral).Text + " PRECEDING AND CURRENT ROW"
	}
	return w, nil
}

// planOver plans a SELECT whose list holds OVER aggregates: a plain query
// of every column (and the aggregates' arguments) as input, the
// OverAggregate, and the select list over its output.
func (s *selectPlanner) planOver(opts Options, calls []*sql.OverCall) (*Plan, error) {
	stmt := s.stmt
	if len(stmt.GroupBy) > 0 || stmt.GroupingSets != nil || stmt.Having != nil || s.tvf != nil || stmt.Distinct.IsValid() {
		return nil, sql.Errorf(sql.ErrUnsupported, calls[0].At, "OVER aggregates cannot be combined with GROUP BY, HAVING, DISTINCT or a window function in one SELECT; aggregate in a subquery first")
	}
	var w overWindow
	for i, c := range calls {
		if rankFunctions[c.Func.Name] {
			return nil, sql.Errorf(sql.ErrUnsupported, c.At, "%s OVER (...) is supported only as Top-N or deduplication: SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM t) WHERE rn <= 3", c.Func.Name)
		}
		if c.Func.Filter != nil {
			return nil, sql.Errorf(sql.ErrUnsupported, c.Func.Filter.Pos(), "FILTER is not supported on an OVER aggregate; filter in WHERE or a CASE expression")
		}
		cw, err := s.overClause(c)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			w = cw
		} else if fmt.Sprint(cw) != fmt.Sprint(w) {
			return nil, sql.Errorf(sql.ErrUnsupported, c.At, "All aggregates must be computed on the same window. (Flink) %s OVER (...) differs from the first OVER window at %s", c.Func.Name, calls[0].At)
		}
	}
	// the input: every column and each argument that is an expression
	inner := *stmt
	inner.Items = []sql.SelectItem{{At: stmt.At, Star: true}}
	argCol := make([]int, len(calls))
	t := s.table
	colOut := map[int]int{} // table column -> input column
	for i, c := range t.Columns {
		if !c.Proctime {
			colOut[i] = len(colOut)
		}
	}
	aggs := make([]Aggregate, len(calls))
	for i, c := range calls {
		agg, col, err := s.aggregate(c.Func)
		if err != nil {
			return nil, err
		}
		if len(agg.Spec.MoreInputs) > 0 || agg.Spec.Kind == windowop.Count && len(c.Func.Args) > 1 {
			return nil, sql.Errorf(sql.ErrUnsupported, c.At, "%s with several arguments OVER (...) is not supported yet", c.Func.Name)
		}
		switch {
		case col == argExpression:
			argCol[i] = len(colOut) + len(inner.Items) - 1
			inner.Items = append(inner.Items, sql.SelectItem{At: c.At, Expr: aggItem(c.Func), Alias: fmt.Sprintf("$arg%d", i)})
		case col >= 0:
			argCol[i] = colOut[col]
		default:
			argCol[i] = -1
		}
		agg.Spec.Input = max(argCol[i], 0)
		agg.Spec.Name = fmt.Sprintf("w0$o%d", i) // Flink's name of an OVER aggregate's column
		aggs[i] = agg
	}
	is := *s
	is.stmt = &inner
	in, err := is.planPlain(opts)
	if err != nil {
		return nil, err
	}
	if in.Updates() {
		node, _ := in.updateNode()
		return nil, sql.Errorf(sql.ErrUnsupported, calls[0].At, "OVER aggregation doesn't support consuming update changes which is produced by node %s", node)
	}
	input := in.Schema()
	cfg := overop.Config{Input: input, Time: -1, ProcTime: w.proctime, Rows: w.rows, Unbounded: w.unbounded, Preceding: w.preceding}
	if !w.proctime {
		cfg.Time = colOut[w.timeCol]
	}
	var partNames []string
	for _, k := range w.partCols {
		cfg.PartitionBy = append(cfg.PartitionBy, colOut[k])
		partNames = append(partNames, t.Columns[k].Name)
	}
	for i, c := range calls {
		a := &aggs[i]
		if argCol[i] >= len(colOut) {
			dt := input.Field(argCol[i]).Type
			if cl := argClassOf(a.Spec); !cl.OK(dt) {
				return nil, sql.Errorf(sql.ErrInvalid, aggItem(c.Func).Pos(), "%s expects %s argument, got %s", c.Func.Name, cl.What, sqlTypeName(dt))
			}
		}
		if !w.unbounded {
			if err := windowop.OverRetractable(a.Spec, input); err != nil {
				return nil, sql.Errorf(sql.ErrUnsupported, c.At, "%v", err)
			}
		}
		cfg.Aggs = append(cfg.Aggs, a.Spec)
	}
	out, err := cfg.OutputSchema()
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, calls[0].At, "%v", err)
	}
	for i := range aggs {
		aggs[i].Type = out.Field(input.NumFields() + i).Type
		aggs[i].Text = sqlfmt.Expr(calls[i].Func)
	}
	p := &Plan{
		Input:    in,
		TimeAttr: -1,
		Location: opts.Location,
		Clock:    opts.Clock,
		Table:    t,
		Stream:   input,
		Rowtime:  -1,
		GapIndex: -1,
		Aggs:     aggs,
		Over:     &OverPlan{Config: cfg, PartitionBy: partNames, OrderBy: t.Columns[w.timeCol].Name, Frame: w.frame},
	}
	aggOf := map[*sql.OverCall]int{}
	for i, c := range calls {
		aggOf[c] = input.NumFields() + i
	}
	scope := &overScope{s: s, colOut: colOut, schema: out, aggOf: aggOf}
	var fields []arrow.Field
	add := func(name string, e expr.Expr) {
		var earlier []string
		for _, f := range fields {
			earlier = append(earlier, f.Name)
		}
		fields = append(fields, exprplan.ResultField(uniqueName(name, earlier), e, out))
		p.Project.Exprs = append(p.Project.Exprs, e)
	}
	for i, item := range stmt.Items {
		if item.Star {
			for ti, c := range t.Columns {
				if c.Proctime {
					continue
				}
				if t.Watermark != nil && ti == t.Watermark.Index {
					p.TimeAttr = len(fields) // the rowtime stays a time attribute
				}
				add(c.Name, &expr.ColumnExpr{Index: colOut[ti], Name: c.Name, Type: input.Field(colOut[ti]).Type})
			}
			continue
		}
		e, err := exprplan.CompileExpr(item.Expr, scope, exprOptions(opts))
		if err != nil {
			return nil, err
		}
		name := item.Alias
		if c, ok := item.Expr.(*sql.ColumnRef); ok {
			if t.Watermark != nil && s.columnIndex(c) == t.Watermark.Index {
				p.TimeAttr = len(fields)
			}
			if name == "" {
				name = c.Name
			}
		}
		if name == "" {
			if name = fieldAlias(item.Expr); name == "" {
				name = fmt.Sprintf("EXPR$%d", i)
			}
		}
		add(name, e)
	}
	p.Project.Schema = arrow.NewSchema(fields, nil)
	return p, nil
}

// overScope resolves the select list of an OVER query against the
// OverAggregate's output: the input's columns, then the aggregates.
type overScope struct {
	s      *selectPlanner
	colOut map[int]int
	schema *arrow.Schema
	aggOf  map[*sql.OverCall]int
}

func (sc *overScope) Resolve(e sql.Expr) (int, arrow.Field, bool, error) {
	switch x := e.(type) {
	case *sql.OverCall:
		i := sc.aggOf[x]
		f := sc.schema.Field(i)
		if in := sc.schema.Field(sc.s.aggInputOf(x, sc)); arrow.TypeEqual(f.Type, in.Type) {
			f = timeprecision.With(f, timeprecision.Of(in)) // MIN, MAX: the argument's precision
		}
		return i, f, true, nil
	case *sql.ColumnRef:
		if isNiladic(x) && sc.s.table.Column(x.Name) < 0 {
			return 0, arrow.Field{}, false, nil
		}
		idx, err := sc.s.resolve(x)
		if err != nil {
			return 0, arrow.Field{}, false, err
		}
		if sc.s.table.Columns[idx].Proctime {
			return 0, arrow.Field{}, false, sql.Errorf(sql.ErrUnsupported, x.At, "the processing-time column %s cannot be used in expressions yet", x.Name)
		}
		i := sc.colOut[idx]
		return i, sc.schema.Field(i), true, nil
	case *sql.FuncCall:
		if err := checkKnownFunction(sc.s.fns, x); err != nil {
			return 0, arrow.Field{}, false, err
		}
		if isAggregateCall(sc.s.fns, x) {
			return 0, arrow.Field{}, false, sql.Errorf(sql.ErrUnsupported, x.At, "aggregate %s needs an OVER clause here: a SELECT with OVER aggregates has no GROUP BY", x.Name)
		}
	case *sql.WindowCall:
		return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, x.At, "%s(...) belongs in GROUP BY", x.Kind)
	case *sql.WindowAux:
		return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, x.At, "%s_%s is not allowed here", x.Kind, x.Prop)
	}
	return 0, arrow.Field{}, false, nil
}

// aggInputOf is the input column an OVER call's aggregate reads (its own
// column for COUNT(*), whose type never equals a column's by accident).
func (s *selectPlanner) aggInputOf(o *sql.OverCall, sc *overScope) int {
	i := sc.aggOf[o]
	if o.Func.Star {
		return i
	}
	if c, ok := o.Func.Args[0].(*sql.ColumnRef); ok {
		if idx, err := s.resolve(c); err == nil {
			return sc.colOut[idx]
		}
	}
	return i
}

// overJob lowers an OVER aggregation: it reads its input's rows.
func (p *Plan) overJob() (*exec.Job, error) {
	cfg := p.Over.Config
	job := &exec.Job{RowtimeIndex: -1, Over: &cfg, Project: p.Project, Clock: p.Clock}
	return job, p.attachInput(job)
}

// overText is EXPLAIN's line for an OVER aggregation.
func (p *Plan) overText() string {
	o := p.Over
	emit := "each row once, when the watermark passes its time; late rows are dropped"
	if o.Config.ProcTime {
		emit = "each row once, on arrival"
	}
	frame := o.Frame
	if frame == "" {
		frame = o.Config.FrameText()
	}
	return fmt.Sprintf("OverAggregate(partitionBy=[%s], orderBy=[%s], window=[%s], aggs=[%s], emit=[%s])",
		strings.Join(o.PartitionBy, ", "), o.OrderBy, frame, p.aggsText(), emit)
}
