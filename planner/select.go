package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// Options tune planning.
type Options struct {
	BatchSize int // rows per source batch; 0 means exec.DefaultBatchSize
}

// PlanSelect lowers a windowed aggregation into a Job:
//
//	source ─▶ watermark assigner ─▶ window aggregate ─▶ project
func PlanSelect(stmt *sql.Select, cat *catalog.Catalog, opts Options) (*exec.Job, error) {
	t := cat.Table(stmt.From.Name.Name)
	if t == nil {
		return nil, sql.Errorf(sql.ErrInvalid, stmt.From.Name.At, "table %s does not exist%s",
			stmt.From.Name.Name, catalog.DidYouMean(stmt.From.Name.Name, cat.TableNames()))
	}
	s := &selectPlanner{stmt: stmt, table: t}
	if stmt.Where != nil {
		return nil, sql.Errorf(sql.ErrUnsupported, stmt.Where.Pos(), "WHERE is not supported yet")
	}
	if stmt.Having != nil {
		return nil, sql.Errorf(sql.ErrUnsupported, stmt.Having.Pos(), "HAVING is not supported yet")
	}
	if err := s.planGroupBy(); err != nil {
		return nil, err
	}
	if err := s.planSelectList(); err != nil {
		return nil, err
	}
	src, err := planSource(t, opts.BatchSize)
	if err != nil {
		return nil, err
	}
	s.window.Input = src.Schema
	winSchema, err := s.window.OutputSchema()
	if err != nil {
		return nil, err
	}
	var fields []arrow.Field
	for i, c := range s.project {
		f := winSchema.Field(c)
		f.Name = s.names[i]
		fields = append(fields, f)
	}
	return &exec.Job{
		Source:       src,
		RowtimeIndex: t.Watermark.Index,
		DelayMillis:  t.Watermark.DelayMillis,
		Window:       s.window,
		Project:      exec.ProjectSpec{Columns: s.project, Schema: arrow.NewSchema(fields, nil)},
	}, nil
}

type selectPlanner struct {
	stmt  *sql.Select
	table *catalog.Table

	windowCall *sql.WindowCall
	window     windowop.Config
	keyCols    []int // table column of each GROUP BY key, in order

	project []int    // window-operator output column of each select item
	names   []string // output name of each select item
}

// planGroupBy reads GROUP BY: exactly one group window plus key columns.
func (s *selectPlanner) planGroupBy() error {
	t := s.table
	for _, e := range s.stmt.GroupBy {
		switch g := e.(type) {
		case *sql.WindowCall:
			if s.windowCall != nil {
				return sql.Errorf(sql.ErrInvalid, g.At, "only one group window is allowed in GROUP BY; the first is %s at %s", s.windowCall.Kind, s.windowCall.At)
			}
			s.windowCall = g
		case *sql.ColumnRef:
			idx, err := s.resolve(g)
			if err != nil {
				return err
			}
			for _, k := range s.keyCols {
				if k == idx {
					return sql.Errorf(sql.ErrInvalid, g.At, "column %s appears twice in GROUP BY", t.Columns[idx].Name)
				}
			}
			s.keyCols = append(s.keyCols, idx)
		default:
			return sql.Errorf(sql.ErrUnsupported, e.Pos(), "GROUP BY on expressions is not supported yet; group by columns")
		}
	}
	if s.windowCall == nil {
		at := s.stmt.At
		if len(s.stmt.GroupBy) > 0 {
			at = s.stmt.GroupBy[0].Pos()
		}
		return sql.Errorf(sql.ErrUnsupported, at, "queries without a group window are not supported yet; add TUMBLE(<time attribute>, INTERVAL ...) to GROUP BY")
	}
	return s.planWindow(s.windowCall)
}

// planWindow checks the group window's arguments and builds its assigner.
func (s *selectPlanner) planWindow(w *sql.WindowCall) error {
	t := s.table
	if w.Kind != sql.Tumble {
		return sql.Errorf(sql.ErrUnsupported, w.At, "%s windows are not supported yet (supported: TUMBLE)", w.Kind)
	}
	if len(w.Args) < 2 || len(w.Args) > 3 {
		return sql.Errorf(sql.ErrInvalid, w.At, "TUMBLE takes a time attribute, a size and an optional offset: TUMBLE(ts, INTERVAL '1' MINUTE)")
	}
	col, ok := w.Args[0].(*sql.ColumnRef)
	if !ok {
		return sql.Errorf(sql.ErrInvalid, w.Args[0].Pos(), "the first argument of TUMBLE must be a time attribute column")
	}
	idx, err := s.resolve(col)
	if err != nil {
		return err
	}
	if t.Watermark == nil {
		return sql.Errorf(sql.ErrInvalid, col.At, "table %s has no time attribute: declare WATERMARK FOR %s AS %s - INTERVAL '5' SECOND in CREATE TABLE",
			t.Name, t.Columns[idx].Name, t.Columns[idx].Name)
	}
	if idx != t.Watermark.Index {
		return sql.Errorf(sql.ErrInvalid, col.At, "column %s is not a time attribute; the time attribute of table %s is %s",
			t.Columns[idx].Name, t.Name, t.Watermark.Column)
	}
	size, err := intervalArg(w.Args[1], "size")
	if err != nil {
		return err
	}
	if size <= 0 {
		return sql.Errorf(sql.ErrInvalid, w.Args[1].Pos(), "window size must be positive")
	}
	var offset int64
	if len(w.Args) == 3 {
		if offset, err = intervalArg(w.Args[2], "offset"); err != nil {
			return err
		}
	}
	tumble, err := windowop.NewTumble(size, offset)
	if err != nil {
		return sql.Errorf(sql.ErrInvalid, w.At, "%v", err)
	}
	s.window = windowop.Config{
		RowtimeIndex: idx,
		KeyIndexes:   s.keyCols,
		Assigner:     tumble,
	}
	return nil
}

func intervalArg(e sql.Expr, what string) (int64, error) {
	iv, ok := e.(*sql.IntervalLiteral)
	if !ok {
		return 0, sql.Errorf(sql.ErrInvalid, e.Pos(), "window %s must be an interval literal such as INTERVAL '1' MINUTE", what)
	}
	return iv.Millis, nil
}

// planSelectList maps each select item to a column of the window operator's
// output: a key, a window property or an aggregate.
func (s *selectPlanner) planSelectList() error {
	nk := len(s.keyCols)
	for i, item := range s.stmt.Items {
		if item.Star {
			return sql.Errorf(sql.ErrInvalid, item.At, "SELECT * cannot be used with GROUP BY; list the keys, window properties and aggregates")
		}
		name := item.Alias
		var col int
		switch e := item.Expr.(type) {
		case *sql.ColumnRef:
			idx, err := s.resolve(e)
			if err != nil {
				return err
			}
			k := indexOf(s.keyCols, idx)
			if k < 0 {
				return sql.Errorf(sql.ErrInvalid, e.At, "column %s is not being grouped: add it to GROUP BY or use it in an aggregate", s.table.Columns[idx].Name)
			}
			col = k
			if name == "" {
				name = s.table.Columns[idx].Name
			}
		case *sql.WindowAux:
			if err := s.checkAux(e); err != nil {
				return err
			}
			switch e.Prop {
			case sql.WindowStart:
				col = nk
			case sql.WindowEnd:
				col = nk + 1
			case sql.WindowRowtime:
				col = nk + 2
			default:
				return sql.Errorf(sql.ErrUnsupported, e.At, "%s_%s is not supported yet: processing time windows are not built", e.Kind, e.Prop)
			}
		case *sql.FuncCall:
			agg, err := s.aggregate(e)
			if err != nil {
				return err
			}
			agg.Name = fmt.Sprintf("agg%d", len(s.window.Aggs))
			s.window.Aggs = append(s.window.Aggs, agg)
			col = nk + 3 + len(s.window.Aggs) - 1
		case *sql.WindowCall:
			return sql.Errorf(sql.ErrInvalid, e.At, "%s(...) belongs in GROUP BY; select %s_START, %s_END or %s_ROWTIME instead", e.Kind, e.Kind, e.Kind, e.Kind)
		default:
			return sql.Errorf(sql.ErrUnsupported, item.Expr.Pos(), "expressions in the select list are not supported yet; select keys, window properties and aggregates")
		}
		if name == "" {
			name = fmt.Sprintf("EXPR$%d", i) // Flink's name for an unnamed expression
		}
		for _, prev := range s.names {
			if strings.EqualFold(prev, name) {
				return sql.Errorf(sql.ErrInvalid, item.At, "duplicate output column name %s; give one an alias with AS", name)
			}
		}
		s.project = append(s.project, col)
		s.names = append(s.names, name)
	}
	return nil
}

// checkAux verifies that an auxiliary function repeats the GROUP BY
// window's kind and arguments exactly, as Flink requires.
func (s *selectPlanner) checkAux(a *sql.WindowAux) error {
	w := s.windowCall
	same := a.Kind == w.Kind && len(a.Args) == len(w.Args)
	for i := 0; same && i < len(a.Args); i++ {
		same = sameExpr(a.Args[i], w.Args[i])
	}
	if !same {
		return sql.Errorf(sql.ErrInvalid, a.At, "%s_%s does not match the group window %s at %s: an auxiliary function must repeat the GROUP BY window's arguments",
			a.Kind, a.Prop, w.Kind, w.At)
	}
	return nil
}

// aggregate lowers COUNT(*), COUNT(col) and SUM(col).
func (s *selectPlanner) aggregate(f *sql.FuncCall) (windowop.AggSpec, error) {
	if f.Distinct {
		return windowop.AggSpec{}, sql.Errorf(sql.ErrUnsupported, f.At, "%s(DISTINCT ...) is not supported yet", f.Name)
	}
	switch f.Name {
	case "COUNT":
		if f.Star {
			return windowop.AggSpec{Kind: windowop.CountStar}, nil
		}
		idx, err := s.aggArg(f)
		return windowop.AggSpec{Kind: windowop.Count, Input: idx}, err
	case "SUM":
		idx, err := s.aggArg(f)
		if err != nil {
			return windowop.AggSpec{}, err
		}
		switch s.table.Columns[idx].Type.ID() {
		case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64:
		default:
			return windowop.AggSpec{}, sql.Errorf(sql.ErrUnsupported, f.Args[0].Pos(), "SUM over %s is not supported yet", s.table.Columns[idx].SQLType)
		}
		return windowop.AggSpec{Kind: windowop.Sum, Input: idx}, nil
	case "AVG", "MIN", "MAX", "FIRST_VALUE", "LAST_VALUE", "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "LISTAGG":
		return windowop.AggSpec{}, sql.Errorf(sql.ErrUnsupported, f.At, "aggregate %s is not supported yet (supported: COUNT, SUM)", f.Name)
	}
	return windowop.AggSpec{}, sql.Errorf(sql.ErrUnsupported, f.At, "function %s is not supported yet in the select list", f.Name)
}

func (s *selectPlanner) aggArg(f *sql.FuncCall) (int, error) {
	if len(f.Args) != 1 {
		return -1, sql.Errorf(sql.ErrInvalid, f.At, "%s takes exactly one argument", f.Name)
	}
	c, ok := f.Args[0].(*sql.ColumnRef)
	if !ok {
		return -1, sql.Errorf(sql.ErrUnsupported, f.Args[0].Pos(), "%s over an expression is not supported yet; use a column", f.Name)
	}
	return s.resolve(c)
}

// resolve finds a column of the FROM table, honouring a qualifier.
func (s *selectPlanner) resolve(c *sql.ColumnRef) (int, error) {
	t := s.table
	if c.Table != "" && !strings.EqualFold(c.Table, t.Name) && !strings.EqualFold(c.Table, s.stmt.From.Alias) {
		return -1, sql.Errorf(sql.ErrInvalid, c.At, "unknown table %s in %s.%s", c.Table, c.Table, c.Name)
	}
	idx := t.Column(c.Name)
	if idx < 0 {
		return -1, sql.Errorf(sql.ErrInvalid, c.At, "column %s not found in table %s%s", c.Name, t.Name, catalog.DidYouMean(c.Name, t.ColumnNames()))
	}
	return idx, nil
}

func indexOf(list []int, v int) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return -1
}

// sameExpr compares two window arguments structurally.
func sameExpr(a, b sql.Expr) bool {
	switch x := a.(type) {
	case *sql.ColumnRef:
		y, ok := b.(*sql.ColumnRef)
		return ok && strings.EqualFold(x.Name, y.Name) && strings.EqualFold(x.Table, y.Table)
	case *sql.IntervalLiteral:
		y, ok := b.(*sql.IntervalLiteral)
		return ok && x.Millis == y.Millis
	case *sql.Literal:
		y, ok := b.(*sql.Literal)
		return ok && x.Kind == y.Kind && x.Text == y.Text
	}
	return false
}
